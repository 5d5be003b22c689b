//! Manifest text → Kubernetes objects, failing the way `kubectl apply -f` fails.
//!
//! Owns the pipeline YAML 1.1 (as kubectl reads it) → JSON data → typed object (as the API
//! server decodes it, strict about unknown fields), and turns every failure into a
//! [`DecodeError`] with the file, line and column of the offending text, kubectl's message and a
//! hint. Keeps a [`SourceMap`] beside each object so later validation errors can be located too.
//!
//! Knows nothing of defaults, validation or the cluster: it only decodes.

use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
use k8s_openapi::api::core::v1::{Node as K8sNode, Pod};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use crate::de::{self, At, DeError, DeErrorKind, Decode, UnknownField};
use crate::gofmt::quote;
use crate::source_map::SourceMap;
use crate::yaml::{self, Node, Pos, Value, YamlError, YamlErrorKind};

/// One object from a manifest, with where its fields were written.
#[derive(Debug, Clone, PartialEq)]
pub enum Manifest {
    DaemonSet(Box<DaemonSet>, SourceMap),
    Node(Box<K8sNode>, SourceMap),
    Pod(Box<Pod>, SourceMap),
    ControllerRevision(Box<ControllerRevision>, SourceMap),
}

impl Manifest {
    /// `DaemonSet`, `Node`, `Pod` or `ControllerRevision`.
    pub fn kind(&self) -> &'static str {
        match self {
            Manifest::DaemonSet(..) => "DaemonSet",
            Manifest::Node(..) => "Node",
            Manifest::Pod(..) => "Pod",
            Manifest::ControllerRevision(..) => "ControllerRevision",
        }
    }

    pub fn metadata(&self) -> &ObjectMeta {
        match self {
            Manifest::DaemonSet(o, _) => &o.metadata,
            Manifest::Node(o, _) => &o.metadata,
            Manifest::Pod(o, _) => &o.metadata,
            Manifest::ControllerRevision(o, _) => &o.metadata,
        }
    }

    /// `metadata.name`, or `""` when unset.
    pub fn name(&self) -> &str {
        self.metadata().name.as_deref().unwrap_or("")
    }

    pub fn source_map(&self) -> &SourceMap {
        match self {
            Manifest::DaemonSet(_, s)
            | Manifest::Node(_, s)
            | Manifest::Pod(_, s)
            | Manifest::ControllerRevision(_, s) => s,
        }
    }
}

/// What kind of mistake a [`DecodeError`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DecodeErrorKind {
    #[error("YAML syntax error")]
    Syntax,
    #[error("tab character in indentation")]
    Tab,
    #[error("duplicate key")]
    DuplicateKey,
    #[error("unsupported YAML (key type, tag, merge, NaN or nesting)")]
    UnsupportedYaml,
    #[error("document is not a mapping")]
    NotAnObject,
    #[error("no objects")]
    Empty,
    #[error("kind or apiVersion not set")]
    KindNotSet,
    #[error("unknown kind or apiVersion")]
    UnknownKind,
    #[error("value of the wrong type")]
    TypeMismatch,
    #[error("unknown field")]
    UnknownField,
    #[error("invalid value")]
    InvalidValue,
    #[error("not the expected kind of object")]
    WrongKind,
}

/// A manifest that could not be decoded: where, kubectl's message, and how to fix it.
///
/// Displays as `ds.yaml:7:18: <message>` followed by `\n  hint: <hint>` when there is a hint.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{source_name}:{line}:{column}: {message}{}", hint_suffix(.hint.as_deref()))]
pub struct DecodeError {
    pub source_name: String,
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    pub kind: DecodeErrorKind,
    /// JSON path of the offending field (`spec.template.spec.nodeSelector.k42`), when known.
    pub path: Option<String>,
    /// What kubectl (or the API server through kubectl) prints.
    pub message: String,
    pub hint: Option<String>,
}

fn hint_suffix(hint: Option<&str>) -> String {
    hint.map(|h| format!("\n  hint: {h}")).unwrap_or_default()
}

impl DecodeError {
    fn new(source: &str, pos: Pos, kind: DecodeErrorKind, message: String) -> DecodeError {
        DecodeError {
            source_name: source.to_string(),
            line: pos.line.max(1),
            column: pos.col.max(1),
            kind,
            path: None,
            message,
            hint: None,
        }
    }

    fn with_hint(mut self, hint: impl Into<String>) -> DecodeError {
        self.hint = Some(hint.into());
        self
    }

    fn with_path(mut self, path: impl Into<String>) -> DecodeError {
        let path = path.into();
        self.path = (!path.is_empty()).then_some(path);
        self
    }
}

/// Decodes every object in a YAML or JSON stream (`---`-separated documents, `kind: List`).
///
/// Empty documents are skipped, as kubectl does; a stream with no object at all is an error.
pub fn decode_manifests(source_name: &str, text: &str) -> Result<Vec<Manifest>, DecodeError> {
    let docs = parse(source_name, text)?;
    let mut out = Vec::new();
    for (i, doc) in docs.iter().enumerate() {
        if !doc.is_null() {
            decode_object(source_name, i, doc, &mut out)?;
        }
    }
    if out.is_empty() {
        return Err(DecodeError::new(
            source_name,
            Pos { line: 1, col: 1 },
            DecodeErrorKind::Empty,
            "error: no objects passed to apply".into(),
        )
        .with_hint(
            "the file holds no object: write a manifest with apiVersion, kind, metadata and spec",
        ));
    }
    Ok(out)
}

/// Decodes a manifest that must hold exactly one DaemonSet (other kinds beside it are ignored).
pub fn decode_daemon_set(
    source_name: &str,
    text: &str,
) -> Result<(DaemonSet, SourceMap), DecodeError> {
    let manifests = decode_manifests(source_name, text)?;
    let mut found = None;
    for m in &manifests {
        if let Manifest::DaemonSet(ds, map) = m {
            if found.is_some() {
                let (line, col) = map.locate("").unwrap_or((1, 1));
                return Err(DecodeError::new(
                    source_name,
                    Pos { line, col },
                    DecodeErrorKind::WrongKind,
                    format!(
                        "error: expected one DaemonSet in {}, found another one",
                        quote(source_name)
                    ),
                )
                .with_hint("keep one DaemonSet per file here, or apply the file as a whole"));
            }
            found = Some(((**ds).clone(), map.clone()));
        }
    }
    found.ok_or_else(|| {
        let (pos, found) = match manifests.first() {
            Some(m) => {
                let (line, col) = m.source_map().locate("kind").unwrap_or((1, 1));
                (
                    Pos { line, col },
                    format!("{} {}", m.kind(), quote(m.name())),
                )
            }
            None => (Pos { line: 1, col: 1 }, "nothing".to_string()),
        };
        DecodeError::new(
            source_name,
            pos,
            DecodeErrorKind::WrongKind,
            format!(
                "error: expected a DaemonSet in {}, found {found}",
                quote(source_name)
            ),
        )
        .with_hint("write `apiVersion: apps/v1` and `kind: DaemonSet`")
    })
}

/// The documents of a YAML stream as the JSON kubectl would send (YAML 1.1 scalars, merged
/// keys, aliases expanded). Empty documents are skipped.
pub fn yaml_to_json(source_name: &str, text: &str) -> Result<Vec<serde_json::Value>, DecodeError> {
    Ok(parse(source_name, text)?
        .iter()
        .filter(|d| !d.is_null())
        .map(Node::to_json)
        .collect())
}

/// Like [`yaml_to_json`], with each document's [`SourceMap`] so that a caller decoding its own
/// format (scenario files) can point at the line and column of a field.
pub fn yaml_documents(
    source_name: &str,
    text: &str,
) -> Result<Vec<(serde_json::Value, SourceMap)>, DecodeError> {
    Ok(parse(source_name, text)?
        .iter()
        .enumerate()
        .filter(|(_, d)| !d.is_null())
        .map(|(i, d)| (d.to_json(), SourceMap::build(source_name, i, d)))
        .collect())
}

fn parse(source: &str, text: &str) -> Result<Vec<Node>, DecodeError> {
    yaml::parse_stream(text).map_err(|e| yaml_error(source, &e))
}

fn yaml_error(source: &str, e: &YamlError) -> DecodeError {
    let prefix = format!("error: error parsing {source}: error converting YAML to JSON:");
    let line = e.pos.line.max(1);
    let (kind, message, hint) = match &e.kind {
        YamlErrorKind::Syntax(info) => (
            DecodeErrorKind::Syntax,
            format!("{prefix} yaml: line {line}: {info}"),
            syntax_hint(info),
        ),
        YamlErrorKind::Tab => (
            DecodeErrorKind::Tab,
            format!("{prefix} yaml: line {line}: {}", e.kind.message()),
            "indent with spaces: YAML does not allow tab characters in indentation".to_string(),
        ),
        // go-yaml's reader error carries no line: the location is ours.
        YamlErrorKind::ControlCharacter(c) => (
            DecodeErrorKind::Syntax,
            format!("{prefix} yaml: {}", e.kind.message()),
            format!(
                "remove the control character U+{:04X} here: YAML allows only printable text (a binary file, or text copied from a terminal, can carry such characters)",
                u32::from(*c)
            ),
        ),
        YamlErrorKind::DuplicateKey { key, first } => (
            DecodeErrorKind::DuplicateKey,
            format!(
                "{prefix} yaml: unmarshal errors:\n  line {line}: {}",
                e.kind.message()
            ),
            format!(
                "`{key}` is already set at line {} of this mapping: remove one of the two, or fix the indentation if they belong to different objects",
                first.line
            ),
        ),
        YamlErrorKind::BadTag { .. } => (
            DecodeErrorKind::UnsupportedYaml,
            format!(
                "{prefix} yaml: unmarshal errors:\n  line {line}: {}",
                e.kind.message()
            ),
            "remove the explicit tag (!!…) or make the value match it".to_string(),
        ),
        YamlErrorKind::UnsupportedKey(_) => (
            DecodeErrorKind::UnsupportedYaml,
            format!("{prefix} {}", e.kind.message()),
            "keys must be plain text: an empty key, a list or a mapping cannot be a key".to_string(),
        ),
        YamlErrorKind::NotJson(_) => (
            DecodeErrorKind::UnsupportedYaml,
            format!("{prefix} {}", e.kind.message()),
            "JSON has no NaN or infinity: quote the value if you meant the text".to_string(),
        ),
        YamlErrorKind::BadMerge | YamlErrorKind::TooDeep | YamlErrorKind::TooManyAliases => (
            DecodeErrorKind::UnsupportedYaml,
            format!("{prefix} yaml: line {line}: {}", e.kind.message()),
            match e.kind {
                YamlErrorKind::BadMerge => "`<<:` must be followed by an alias (*name) of a mapping, or a list of them",
                YamlErrorKind::TooDeep => "the document is nested too deeply to be a Kubernetes object",
                _ => "the aliases (*name) in this document expand to too much data",
            }
            .to_string(),
        ),
    };
    DecodeError::new(source, e.pos, kind, message).with_hint(hint)
}

fn syntax_hint(info: &str) -> String {
    let h = if info.contains("mapping values are not allowed") {
        "a value contains \": \" or this line is indented too far: quote the value (\"a: b\") or align the key with its siblings"
    } else if info.contains("did not find expected key") {
        "this line's indentation does not match the keys above it: sibling keys must start in the same column"
    } else if info.contains("did not find expected '-' indicator") {
        "list items must all start with \"- \" in the same column"
    } else if info.contains("quoted scalar") {
        "a quoted string is not closed, or contains an unescaped quote"
    } else if info.contains("alias") || info.contains("anchor") {
        "an alias (*name) must refer to an anchor (&name) defined earlier in the same document"
    } else if info.contains("flow") || info.contains("']'") || info.contains("'}'") {
        "a [list] or {mapping} written inline is not closed, or is missing a comma"
    } else if info.contains("cannot start any token") || info.contains("unexpected character") {
        "values that start with @, `, % or similar characters must be quoted"
    } else {
        "check the indentation and the quoting on this line and the one before it"
    };
    h.to_string()
}

/// The kinds this playground serves, by (apiVersion, kind).
const SERVED: &[(&str, &str)] = &[
    ("apps/v1", "DaemonSet"),
    ("apps/v1", "ControllerRevision"),
    ("v1", "Node"),
    ("v1", "Pod"),
];

fn decode_object(
    source: &str,
    doc: usize,
    node: &Node,
    out: &mut Vec<Manifest>,
) -> Result<(), DecodeError> {
    if !matches!(node.value, Value::Map(_)) {
        return Err(DecodeError::new(
            source,
            node.pos,
            DecodeErrorKind::NotAnObject,
            format!(
                "error: unable to decode {}: json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                quote(source),
                node.json_kind()
            ),
        )
        .with_hint("each YAML document must be a mapping that starts with apiVersion and kind"));
    }
    let api_version = type_meta_field(source, node, "apiVersion")?;
    let kind = type_meta_field(source, node, "kind")?;
    let (api_version, kind) = match (api_version, kind) {
        (Some(a), Some(k)) => (a, k),
        (a, k) => {
            let missing = match (a, k) {
                (None, None) => "[apiVersion not set, kind not set]",
                (None, _) => "apiVersion not set",
                _ => "kind not set",
            };
            return Err(DecodeError::new(
                source,
                node.pos,
                DecodeErrorKind::KindNotSet,
                format!(
                    "error: error validating {}: error validating data: {missing}; if you choose to ignore these errors, turn validation off with --validate=false",
                    quote(source)
                ),
            )
            .with_hint(
                "start the document with the object's type, e.g. `apiVersion: apps/v1` and `kind: DaemonSet`",
            ));
        }
    };

    if kind == "List"
        || SERVED
            .iter()
            .any(|(v, k)| *v == api_version && kind.strip_suffix("List") == Some(k))
    {
        return decode_list(source, doc, node, out);
    }

    let version = api_version.rsplit('/').next().unwrap_or(api_version);
    match (api_version, kind) {
        ("apps/v1", "DaemonSet") => {
            let (o, m) = typed::<DaemonSet>(source, doc, node, kind, version)?;
            out.push(Manifest::DaemonSet(Box::new(o), m));
        }
        ("apps/v1", "ControllerRevision") => {
            let (o, m) = typed::<ControllerRevision>(source, doc, node, kind, version)?;
            out.push(Manifest::ControllerRevision(Box::new(o), m));
        }
        ("v1", "Node") => {
            let (o, m) = typed::<K8sNode>(source, doc, node, kind, version)?;
            out.push(Manifest::Node(Box::new(o), m));
        }
        ("v1", "Pod") => {
            let (o, m) = typed::<Pod>(source, doc, node, kind, version)?;
            out.push(Manifest::Pod(Box::new(o), m));
        }
        _ => return Err(unknown_kind(source, node, api_version, kind)),
    }
    Ok(())
}

fn decode_list(
    source: &str,
    doc: usize,
    node: &Node,
    out: &mut Vec<Manifest>,
) -> Result<(), DecodeError> {
    let Some(items) = node.get("items") else {
        return Ok(());
    };
    match &items.value {
        Value::Seq(items) => {
            for item in items {
                decode_object(source, doc, item, out)?;
            }
            Ok(())
        }
        Value::Null => Ok(()),
        _ => Err(DecodeError::new(
            source,
            items.pos,
            DecodeErrorKind::TypeMismatch,
            format!(
                "error: unable to decode {}: json: cannot unmarshal {} into Go struct field List.items of type []runtime.RawExtension",
                quote(source),
                items.json_kind()
            ),
        )
        .with_path("items")
        .with_hint("`items` takes a list: start each object with \"- \"")),
    }
}

/// `apiVersion` / `kind`: a missing, null or empty value counts as "not set".
fn type_meta_field<'n>(
    source: &str,
    node: &'n Node,
    name: &str,
) -> Result<Option<&'n str>, DecodeError> {
    match node.get(name) {
        None => Ok(None),
        Some(v) => match &v.value {
            Value::Null => Ok(None),
            Value::Str(s) if s.is_empty() => Ok(None),
            Value::Str(s) => Ok(Some(s)),
            _ => Err(DecodeError::new(
                source,
                v.pos,
                DecodeErrorKind::TypeMismatch,
                format!(
                    "error: unable to decode {}: json: cannot unmarshal {} into Go struct field TypeMeta.{name} of type string",
                    quote(source),
                    v.json_kind()
                ),
            )
            .with_path(name)
            .with_hint(format!("`{name}` takes text, e.g. {name}: apps/v1")))
        },
    }
}

fn unknown_kind(source: &str, node: &Node, api_version: &str, kind: &str) -> DecodeError {
    let meta = node.get("metadata");
    let field = |f: &str| {
        meta.and_then(|m| m.get(f))
            .and_then(Node::as_str)
            .unwrap_or("")
            .to_string()
    };
    let pos = node.get("kind").map_or(node.pos, |k| k.pos);
    let served_kind = SERVED.iter().find(|(_, k)| k.eq_ignore_ascii_case(kind));
    let hint = match served_kind {
        Some((v, k)) if *k != kind => format!("kinds are case-sensitive: write `kind: {k}` (apiVersion {v})"),
        Some((v, k)) if *k == "DaemonSet" => format!(
            "DaemonSet is served as `apiVersion: {v}` (extensions/v1beta1 and apps/v1beta2 were removed in Kubernetes 1.16)"
        ),
        Some((v, k)) => format!("{k} is served as `apiVersion: {v}`"),
        None => format!(
            "this playground simulates DaemonSet (apps/v1), ControllerRevision (apps/v1), Node (v1) and Pod (v1); {kind} is not one of them"
        ),
    };
    DecodeError::new(
        source,
        pos,
        DecodeErrorKind::UnknownKind,
        format!(
            "error: resource mapping not found for name: {} namespace: {} from {}: no matches for kind {} in version {}\nensure CRDs are installed first",
            quote(&field("name")),
            quote(&field("namespace")),
            quote(source),
            quote(kind),
            quote(api_version)
        ),
    )
    .with_path("kind")
    .with_hint(hint)
}

fn typed<T: Decode>(
    source: &str,
    doc: usize,
    node: &Node,
    kind: &str,
    version: &str,
) -> Result<(T, SourceMap), DecodeError> {
    let server_prefix = format!(
        "Error from server (BadRequest): error when creating {}: {kind} in version {} cannot be handled as a {kind}:",
        quote(source),
        quote(version)
    );
    let mut unknown = Vec::new();
    let object: T =
        de::from_node(node, &mut unknown).map_err(|e| type_error(source, &server_prefix, &e))?;
    if let Some(first) = unknown.first() {
        return Err(DecodeError::new(
            source,
            first.pos,
            DecodeErrorKind::UnknownField,
            format!("{server_prefix} {}", strict_error(&unknown)),
        )
        .with_path(first.path.clone())
        .with_hint(unknown_field_hint(first)));
    }
    Ok((object, SourceMap::build(source, doc, node)))
}

/// Decodes a JSON request body (a patched object, a revision's template) into `T` as the API
/// server does: Go's type errors and strict unknown fields. The error is the server's detail,
/// e.g. `json: cannot unmarshal string into Go struct field DaemonSetSpec.spec.minReadySeconds
/// of type int32` or `strict decoding error: unknown field "spec.nope"`.
pub fn decode_json<T: Decode>(value: &serde_json::Value) -> Result<T, String> {
    let node = Node::from_json(value);
    let mut unknown = Vec::new();
    let object: T = de::from_node(&node, &mut unknown)
        .map_err(|e| type_error("", "", &e).message.trim_start().to_string())?;
    if !unknown.is_empty() {
        return Err(strict_error(&unknown));
    }
    Ok(object)
}

/// The API server's strict field validation message: `strict decoding error: unknown field
/// "spec.x", unknown field "spec.y"`.
fn strict_error(unknown: &[UnknownField]) -> String {
    let list: Vec<String> = unknown
        .iter()
        .map(|u| format!("unknown field {}", quote(&u.path)))
        .collect();
    format!("strict decoding error: {}", list.join(", "))
}

fn type_error(source: &str, server_prefix: &str, e: &DeError) -> DecodeError {
    let at = &e.0.at;
    let target = |go_type: &str| match &at.go_field {
        Some(f) => format!("Go struct field {f} of type {go_type}"),
        None => format!("Go value of type {go_type}"),
    };
    let (kind, detail, hint) = match &e.0.kind {
        DeErrorKind::Mismatch { go_type } => (
            DecodeErrorKind::TypeMismatch,
            format!(
                "json: cannot unmarshal {} into {}",
                at.found,
                target(go_type)
            ),
            type_hint(at, go_type, false),
        ),
        DeErrorKind::OutOfRange { go_type } => (
            DecodeErrorKind::TypeMismatch,
            format!(
                "json: cannot unmarshal number {} into {}",
                at.number.as_deref().unwrap_or(""),
                target(go_type)
            ),
            type_hint(at, go_type, true),
        ),
        DeErrorKind::Quantity(error) => (
            DecodeErrorKind::InvalidValue,
            // Go returns `UnmarshalJSON`'s error without field context.
            error.to_string(),
            quantity_hint(at),
        ),
        DeErrorKind::Custom(msg) => (
            DecodeErrorKind::InvalidValue,
            // Go returns a type's own UnmarshalJSON error without field context.
            msg.clone(),
            if msg.starts_with("parsing time") {
                "write an RFC 3339 time such as 2024-01-31T12:00:00Z, or leave the field out".into()
            } else {
                format!(
                    "check the value of `{}`",
                    at.holder.as_deref().unwrap_or(&at.json_path)
                )
            },
        ),
    };
    DecodeError::new(source, at.pos, kind, format!("{server_prefix} {detail}"))
        .with_path(at.json_path.clone())
        .with_hint(hint)
}

/// How to write a quantity, for the value the decoder could not read.
fn quantity_hint(at: &At) -> String {
    let text = at.string_value.as_deref().unwrap_or("");
    let key = at.holder.as_deref().unwrap_or("the value");
    let kilo = text
        .char_indices()
        .any(|(i, c)| c == 'K' && !text[i..].starts_with("Ki"));
    if kilo {
        format!(
            "`{key}`: write k (1000) or Ki (1024); suffixes are case-sensitive and K is neither"
        )
    } else {
        format!(
            "`{key}` must be a number with an optional case-sensitive suffix: m, k, M, G, T, P, E \
             (powers of 1000), Ki, Mi, Gi, Ti, Pi, Ei (powers of 1024) or an exponent such as \
             e3 — e.g. 250m, 128Mi"
        )
    }
}

fn is_int_type(go_type: &str) -> bool {
    go_type.starts_with("int") || go_type.starts_with("uint")
}

/// How to fix a value of the wrong type; the YAML 1.1 boolean trap gets the exact fix.
fn type_hint(at: &At, go_type: &str, out_of_range: bool) -> String {
    let key = at.holder.as_deref();
    let written = |v: &str| match key {
        Some(k) => format!("{k}: {v}"),
        None => v.to_string(),
    };
    let name = key.unwrap_or("this value");
    match (at.found, go_type, &at.plain) {
        ("bool", "string", Some(plain)) => format!(
            "quote the value: {} — YAML 1.1 (which kubectl uses) reads unquoted yes/no/on/off/true/false as booleans",
            written(&format!("\"{plain}\""))
        ),
        ("number", "string", Some(plain)) => format!(
            "quote the value: {} — an unquoted number is a number in YAML, and this field takes a string",
            written(&format!("\"{plain}\""))
        ),
        ("number", t, _) if out_of_range && is_int_type(t) => {
            let n = at.number.as_deref().unwrap_or("");
            if n.contains(['.', 'e', 'E']) {
                format!("`{name}` takes a whole number ({t})")
            } else {
                format!("{n} does not fit in `{name}` (of type {t})")
            }
        }
        ("string", t, _) if is_int_type(t) || t.starts_with("float") => {
            let s = at.string_value.as_deref().unwrap_or("");
            if s.trim().parse::<i64>().is_ok() {
                format!(
                    "remove the quotes: {} — this field takes a number ({t})",
                    written(s.trim())
                )
            } else {
                format!("`{name}` takes a number ({t}), not the text {}", quote(s))
            }
        }
        (_, "bool", _) => format!(
            "write {} or {} without quotes",
            written("true"),
            written("false")
        ),
        ("object", t, _) if t.starts_with("[]") => {
            format!("`{name}` takes a list: start each item with \"- \"")
        }
        (_, t, _) if t.starts_with("[]") => {
            format!("`{name}` takes a list (items starting with \"- \"), not a single value")
        }
        ("array", t, _) if t.starts_with("map[") || t.starts_with("v1.") => format!(
            "`{name}` takes a mapping of indented `key: value` lines, not a list: remove the \"- \""
        ),
        (_, t, _) if t.starts_with("map[") => {
            format!("`{name}` takes a mapping: write it as indented `key: value` lines")
        }
        (_, "intstr.IntOrString", _) => {
            format!("`{name}` takes an integer or a percentage such as \"25%\"")
        }
        (_, "resource.Quantity", _) => {
            format!("`{name}` takes a quantity such as 100m, 1 or 128Mi")
        }
        (_, t, _) if t.starts_with("v1.") => format!(
            "`{name}` takes nested fields (a {}), indented under it",
            t.trim_start_matches("v1.")
        ),
        (_, t, _) => format!("`{name}` must be a {t}"),
    }
}

/// Fields people put one level too high or too low, and where they belong.
const HOMES: &[(&str, &str)] = &[
    ("nodeSelector", "spec.template.spec"),
    ("tolerations", "spec.template.spec"),
    ("containers", "spec.template.spec"),
    ("initContainers", "spec.template.spec"),
    ("affinity", "spec.template.spec"),
    ("volumes", "spec.template.spec"),
    ("hostNetwork", "spec.template.spec"),
    ("serviceAccountName", "spec.template.spec"),
    ("priorityClassName", "spec.template.spec"),
    ("terminationGracePeriodSeconds", "spec.template.spec"),
    ("restartPolicy", "spec.template.spec"),
    ("dnsPolicy", "spec.template.spec"),
    ("image", "an entry of spec.template.spec.containers"),
    ("ports", "an entry of spec.template.spec.containers"),
    ("env", "an entry of spec.template.spec.containers"),
    ("args", "an entry of spec.template.spec.containers"),
    ("command", "an entry of spec.template.spec.containers"),
    ("resources", "an entry of spec.template.spec.containers"),
    ("volumeMounts", "an entry of spec.template.spec.containers"),
    (
        "readinessProbe",
        "an entry of spec.template.spec.containers",
    ),
    ("livenessProbe", "an entry of spec.template.spec.containers"),
    (
        "imagePullPolicy",
        "an entry of spec.template.spec.containers",
    ),
    ("selector", "spec"),
    ("template", "spec"),
    ("updateStrategy", "spec"),
    ("minReadySeconds", "spec"),
    ("revisionHistoryLimit", "spec"),
    ("maxUnavailable", "spec.updateStrategy.rollingUpdate"),
    ("maxSurge", "spec.updateStrategy.rollingUpdate"),
    ("matchLabels", "spec.selector"),
    ("name", "metadata"),
    ("namespace", "metadata"),
    ("labels", "metadata"),
    ("annotations", "metadata"),
];

fn unknown_field_hint(u: &UnknownField) -> String {
    if let Some(s) = u.suggestion {
        return format!("did you mean `{s}`? {} has no field `{}`", u.owner, u.name);
    }
    if let Some((_, home)) = HOMES.iter().find(|(f, _)| *f == u.name) {
        return format!(
            "{} has no field `{}`: it belongs under {home} — check this line's indentation",
            u.owner, u.name
        );
    }
    format!(
        "{} has no field `{}`: check its spelling and indentation (an over- or under-indented key lands in the wrong object)",
        u.owner, u.name
    )
}
