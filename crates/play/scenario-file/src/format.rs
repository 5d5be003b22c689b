//! The scenario file format and its parser.

use apiserver::decode::yaml_documents;
use apiserver::SourceMap;
use k8s_openapi::api::core::v1::{Node, NodeCondition, NodeSpec, NodeStatus, Taint};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The most nodes one scenario may declare (the upstream scalability limit).
pub const MAX_NODES: usize = 5_000;

/// A bad scenario file: where, what, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ScenarioError {
    pub source_name: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
    pub hint: Option<String>,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.source_name, self.line, self.column, self.message
        )?;
        if let Some(h) = &self.hint {
            write!(f, "\n  hint: {h}")?;
        }
        Ok(())
    }
}

impl ScenarioError {
    /// A YAML error of the file `source_name`, where the decoder found it.
    pub(crate) fn from_yaml(source_name: &str, e: &apiserver::DecodeError) -> ScenarioError {
        ScenarioError {
            source_name: source_name.to_string(),
            line: e.line,
            column: e.column,
            message: e.message.clone(),
            hint: e.hint.clone(),
        }
    }
}

/// One node declaration: a single node, or a pool of `count` nodes named `<pool><i>`.
///
/// `allocatable`, `unschedulable` and `conditions` are optional; they carry what an imported
/// real node (`import`) has beyond the shorthand.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NodeEntry {
    pub names: Vec<String>,
    pub labels: BTreeMap<String, String>,
    pub taints: Vec<Taint>,
    pub capacity: BTreeMap<String, Quantity>,
    /// Where allocatable differs from capacity (the rest is allocatable as capacity says).
    pub allocatable: BTreeMap<String, Quantity>,
    /// Cordoned (`spec.unschedulable`).
    pub unschedulable: bool,
    /// Condition type → status (`True`, `False`, `Unknown`). The simulated kubelet owns the
    /// `Ready` condition, whatever is written here.
    pub conditions: BTreeMap<String, String>,
}

/// What a script line checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// The command's output, trimmed, equals this.
    Equals(String),
    /// The command's output contains this.
    Contains(String),
}

/// `equals "4"`, `contains "pod/"`: how reports name a check.
impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Check::Equals(s) => write!(f, "equals {s:?}"),
            Check::Contains(s) => write!(f, "contains {s:?}"),
        }
    }
}

impl Check {
    /// Whether a command's output satisfies the check. The output is what the terminal shows
    /// (stdout, then stderr and the hint), whether or not the command succeeded, so a scenario
    /// can pin an error message (`contains: "cannot unmarshal bool"`); an `equals` of a value
    /// never matches an error text.
    pub fn holds(&self, output: &str) -> bool {
        let observed = output.trim();
        match self {
            Check::Equals(want) => observed == want.trim(),
            Check::Contains(want) => observed.contains(want.as_str()),
        }
    }
}

/// One script step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A kubectl command or a simulation verb (`sleep 30s`, `node add …`).
    Run(String),
    /// Run the command and check its output.
    Expect { command: String, check: Check },
}

/// A step and where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptLine {
    pub line: usize,
    pub column: usize,
    pub step: Step,
}

/// A parsed scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub source_name: String,
    pub id: String,
    pub title: String,
    pub description: String,
    /// `try:`: up to three things to try first, shown to a newcomer beside the story.
    pub try_this: Vec<String>,
    pub seed: u64,
    /// Overrides of the timing model, as written (checked by the cluster).
    pub timing: Map<String, Value>,
    /// The registry's behaviour per image reference, as written (checked at parse):
    /// `{missing: true}` and/or `{pullSeconds: N}`.
    pub images: Map<String, Value>,
    pub nodes: Vec<NodeEntry>,
    pub files: BTreeMap<String, String>,
    pub script: Vec<ScriptLine>,
}

const TOP_KEYS: &[&str] = &[
    "scenario",
    "title",
    "description",
    "try",
    "seed",
    "timing",
    "images",
    "nodes",
    "files",
    "script",
    "lesson",
];
const IMAGE_KEYS: &[&str] = &["missing", "pullSeconds"];
/// A node entry's keys, in the order `write` puts them.
pub(crate) const NODE_KEYS: &[&str] = &[
    "name",
    "pool",
    "count",
    "from",
    "labels",
    "taints",
    "capacity",
    "allocatable",
    "unschedulable",
    "conditions",
];

pub(crate) struct Ctx<'a> {
    pub(crate) source: &'a str,
    /// Where fields were written; None for a scenario that came as JSON data (a share link),
    /// whose errors name the field path instead (`script[3]: …`).
    pub(crate) map: Option<&'a SourceMap>,
}

impl Ctx<'_> {
    pub(crate) fn err(
        &self,
        path: &str,
        message: impl Into<String>,
        hint: Option<&str>,
    ) -> ScenarioError {
        let message = message.into();
        let ((line, column), message) = match self.map {
            Some(map) => (map.locate(path).unwrap_or((1, 1)), message),
            None if path.is_empty() => ((1, 1), message),
            None => ((1, 1), format!("{path}: {message}")),
        };
        ScenarioError {
            source_name: self.source.to_string(),
            line,
            column,
            message,
            hint: hint.map(str::to_string),
        }
    }

    pub(crate) fn string(
        &self,
        v: &Value,
        path: &str,
        what: &str,
    ) -> Result<String, ScenarioError> {
        match v {
            Value::String(s) => Ok(s.clone()),
            Value::Number(n) => Ok(n.to_string()),
            Value::Bool(b) => Err(self.err(
                path,
                format!("{what} must be a string, found the boolean {b}"),
                Some("quote it: YAML 1.1 reads unquoted yes/no/on/off/true/false as booleans"),
            )),
            other => Err(self.err(
                path,
                format!("{what} must be a string, found {}", json_kind(other)),
                None,
            )),
        }
    }
}

/// How an error names a JSON value's kind: "found a list".
pub(crate) fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "nothing",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a map",
    }
}

pub(crate) fn closest<'a>(word: &str, options: &[&'a str]) -> Option<&'a str> {
    k8s_base::typo::closest(word, options.iter().copied(), |_| 2)
}

/// Whether a node name is made as a DNS subdomain is: 1 to 253 lower-case letters, digits, `-`
/// and `.` (the scenario file and a node import refuse others before the API server would).
pub(crate) fn is_node_name(n: &str) -> bool {
    !n.is_empty()
        && n.len() <= 253
        && n.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
}

pub(crate) fn unknown_key(ctx: &Ctx, path: &str, key: &str, allowed: &[&str]) -> ScenarioError {
    let hint = match closest(key, allowed) {
        Some(k) => format!("did you mean {k:?}? Known keys: {}", allowed.join(", ")),
        None => format!("known keys: {}", allowed.join(", ")),
    };
    ctx.err(path, format!("unknown key {key:?}"), Some(&hint))
}

/// Parses a taint written as `key[=value]:Effect`.
pub fn parse_taint(s: &str) -> Result<Taint, String> {
    let Some((kv, effect)) = s.rsplit_once(':') else {
        return Err(format!("taint {s:?} has no effect"));
    };
    if !matches!(effect, "NoSchedule" | "PreferNoSchedule" | "NoExecute") {
        return Err(format!(
            "taint {s:?}: effect {effect:?} is not one of NoSchedule, PreferNoSchedule, NoExecute"
        ));
    }
    let (key, value) = match kv.split_once('=') {
        Some((k, v)) => (k, Some(v.to_string())),
        None => (kv, None),
    };
    if key.is_empty() {
        return Err(format!("taint {s:?} has an empty key"));
    }
    Ok(Taint {
        key: key.to_string(),
        value: value.filter(|v| !v.is_empty()),
        effect: effect.to_string(),
        time_added: None,
    })
}

/// Parses a scenario file. A lesson file is a scenario too: its `lesson:` key is accepted and
/// not read here (`crate::lesson::parse_with_lesson` reads and validates it), so that a page
/// that only plays scenarios does not carry the lesson parser.
pub fn parse(source_name: &str, text: &str) -> Result<Scenario, ScenarioError> {
    with_document(source_name, text, from_root)
}

/// Reads a scenario file's one YAML document and hands it, with its source map, to `read`.
pub(crate) fn with_document<T>(
    source_name: &str,
    text: &str,
    read: impl FnOnce(&Ctx, &Value) -> Result<T, ScenarioError>,
) -> Result<T, ScenarioError> {
    let docs =
        yaml_documents(source_name, text).map_err(|e| ScenarioError::from_yaml(source_name, &e))?;
    let mut docs = docs.into_iter();
    let Some((root, map)) = docs.next() else {
        return Err(ScenarioError {
            source_name: source_name.to_string(),
            line: 1,
            column: 1,
            message: "the scenario file is empty".into(),
            hint: Some("start with `scenario: my-id` and a `nodes:` list".into()),
        });
    };
    let ctx = Ctx {
        source: source_name,
        map: Some(&map),
    };
    if docs.next().is_some() {
        return Err(ctx.err(
            "",
            "a scenario file holds one document; found a second after `---`",
            Some("put manifests under `files:` instead of after `---`"),
        ));
    }
    read(&ctx, &root)
}

/// Reads a scenario from JSON data of the file's structure (a share link's payload). Errors
/// name the field (`script[3]: …`) since there is no text to point into; a script line's
/// `line` is its 1-based position in the script. A `lesson:` key is ignored (links do not
/// carry lessons yet).
pub fn from_json(source_name: &str, root: &Value) -> Result<Scenario, ScenarioError> {
    let ctx = Ctx {
        source: source_name,
        map: None,
    };
    from_root(&ctx, root)
}

pub(crate) fn from_root(ctx: &Ctx, root: &Value) -> Result<Scenario, ScenarioError> {
    let source_name = ctx.source;
    let Value::Object(root) = root else {
        return Err(ctx.err(
            "",
            format!("a scenario must be a map, found {}", json_kind(root)),
            Some("start with `scenario: my-id`"),
        ));
    };
    for key in root.keys() {
        if !TOP_KEYS.contains(&key.as_str()) {
            return Err(unknown_key(ctx, key, key, TOP_KEYS));
        }
    }
    let id = match root.get("scenario") {
        Some(v) => ctx.string(v, "scenario", "scenario")?,
        None => {
            return Err(ctx.err(
                "",
                "missing `scenario:` (the scenario's id)",
                Some("add a first line like `scenario: my-rollout`"),
            ))
        }
    };
    let title = match root.get("title") {
        Some(v) => ctx.string(v, "title", "title")?,
        None => id.clone(),
    };
    let description = match root.get("description") {
        Some(v) => ctx.string(v, "description", "description")?,
        None => String::new(),
    };
    let try_this = parse_try(ctx, root.get("try"))?;
    let seed = match root.get("seed") {
        None => 1,
        Some(Value::Number(n)) if n.as_u64().is_some() => n.as_u64().unwrap_or(1),
        Some(other) => {
            return Err(ctx.err(
                "seed",
                format!("seed must be a whole number ≥ 0, found {}", shown(other)),
                Some("e.g. `seed: 7`"),
            ))
        }
    };
    let timing = optional_map(
        ctx,
        root,
        "timing",
        check_timing,
        "e.g. `timing: {watch_delay: 0.05}`",
    )?;
    let images = optional_map(
        ctx,
        root,
        "images",
        check_images,
        "e.g. `images: {\"agent:2\": {missing: true}}`",
    )?;
    let nodes = parse_nodes(ctx, root.get("nodes"))?;
    let files = parse_files(ctx, root.get("files"))?;
    let script = parse_lines(ctx, root.get("script"), "script")?;
    Ok(Scenario {
        source_name: source_name.to_string(),
        id,
        title,
        description,
        try_this,
        seed,
        timing,
        images,
        nodes,
        files,
        script,
    })
}

/// A pool's `count` or `from`: a whole number, 1 when absent.
fn whole_number(
    ctx: &Ctx,
    m: &Map<String, Value>,
    path: &str,
    key: &str,
    example: &str,
) -> Result<u64, ScenarioError> {
    match m.get(key) {
        None => Ok(1),
        Some(Value::Number(n)) if n.as_u64().is_some() => Ok(n.as_u64().unwrap_or(1)),
        Some(other) => Err(ctx.err(
            &format!("{path}.{key}"),
            format!("{key} must be a whole number, found {}", shown(other)),
            Some(example),
        )),
    }
}

/// A top-level map (none: empty), its entries checked by `check`.
fn optional_map(
    ctx: &Ctx,
    root: &Map<String, Value>,
    key: &str,
    check: fn(&Ctx, &Map<String, Value>) -> Result<(), ScenarioError>,
    hint: &str,
) -> Result<Map<String, Value>, ScenarioError> {
    match root.get(key) {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(m)) => check(ctx, m).map(|()| m.clone()),
        Some(other) => Err(ctx.err(
            key,
            format!("{key} must be a map, found {}", json_kind(other)),
            Some(hint),
        )),
    }
}

/// Each `images:` entry maps an image reference to `{missing: BOOL, pullSeconds: SECONDS}`.
fn check_images(ctx: &Ctx, m: &Map<String, Value>) -> Result<(), ScenarioError> {
    let hint = Some(
        "e.g. `\"busybox:does-not-exist\": {missing: true}` or `\"agent:2\": {pullSeconds: 20}`",
    );
    for (image, v) in m {
        let path = format!("images.{image}");
        if image.trim().is_empty() {
            return Err(ctx.err(&path, "an image reference must not be empty", hint));
        }
        let Value::Object(entry) = v else {
            return Err(ctx.err(
                &path,
                format!("images.{image} must be a map, found {}", json_kind(v)),
                hint,
            ));
        };
        for (key, value) in entry {
            let at = format!("{path}.{key}");
            match key.as_str() {
                "missing" if !value.is_boolean() => {
                    return Err(ctx.err(
                        &at,
                        format!("{at} must be true or false, found {}", shown(value)),
                        hint,
                    ))
                }
                "pullSeconds" if !value.as_f64().is_some_and(|n| n.is_finite() && n >= 0.0) => {
                    return Err(ctx.err(
                        &at,
                        format!(
                            "{at} must be a number of seconds ≥ 0, found {}",
                            shown(value)
                        ),
                        hint,
                    ))
                }
                "missing" | "pullSeconds" => {}
                _ => return Err(unknown_key(ctx, &at, key, IMAGE_KEYS)),
            }
        }
    }
    Ok(())
}

impl Scenario {
    /// The registry the cluster's kubelets pull from (`images:`).
    pub fn image_registry(&self) -> cluster::images::Images {
        self.images
            .iter()
            .map(|(image, v)| {
                let behaviour = cluster::images::ImageBehaviour {
                    missing: v.get("missing").and_then(Value::as_bool).unwrap_or(false),
                    pull_seconds: v.get("pullSeconds").and_then(Value::as_f64),
                };
                (image.clone(), behaviour)
            })
            .collect()
    }
}

/// A value as an error message shows it: numbers and short strings themselves.
fn shown(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        Value::String(t) if t.chars().count() <= 40 => format!("the string {t:?}"),
        other => json_kind(other).to_string(),
    }
}

/// Each `timing:` key must be a field of the timing model with a value of its type.
fn check_timing(ctx: &Ctx, m: &Map<String, Value>) -> Result<(), ScenarioError> {
    let defaults = cluster::Timing::default();
    // In the order serde's map of them had (by name), for the "did you mean" list.
    let mut known: Vec<&str> = cluster::Timing::FIELDS.to_vec();
    sort::sort(&mut known);
    for (key, value) in m {
        let path = format!("timing.{key}");
        match defaults.clone().set_field(key, value) {
            Ok(()) => {}
            Err(cluster::timing::FieldError::Unknown) => {
                return Err(unknown_key(ctx, &path, key, &known));
            }
            Err(cluster::timing::FieldError::WrongType { want }) => {
                return Err(ctx.err(
                    &path,
                    format!("timing.{key} must be {want}, found {}", shown(value)),
                    Some(&format!(
                        "e.g. `{key}: {}` (the default)",
                        defaults.field(key).unwrap_or(Value::Null)
                    )),
                ));
            }
        }
    }
    Ok(())
}

fn parse_string_map(
    ctx: &Ctx,
    v: Option<&Value>,
    path: &str,
) -> Result<BTreeMap<String, String>, ScenarioError> {
    match v {
        None | Some(Value::Null) => Ok(BTreeMap::new()),
        Some(Value::Object(m)) => sort::try_map(m.iter().map(|(k, v)| {
            Ok((
                k.clone(),
                ctx.string(v, &format!("{path}.{k}"), &format!("{path}.{k}"))?,
            ))
        })),
        Some(other) => Err(ctx.err(
            path,
            format!("{path} must be a map, found {}", json_kind(other)),
            None,
        )),
    }
}

/// How many suggestions `try:` holds at most, and how long one may be.
pub const TRY_MAX: usize = 3;
const TRY_CHARS: usize = 160;

/// A list that may be absent or null (then empty); anything else is an error at `at`.
fn optional_list<'v>(
    ctx: &Ctx,
    v: Option<&'v Value>,
    at: &str,
    a_list: &str,
    hint: &str,
) -> Result<&'v [Value], ScenarioError> {
    match v {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(other) => Err(ctx.err(
            at,
            format!("{at} must be {a_list}, found {}", json_kind(other)),
            Some(hint),
        )),
    }
}

/// `try:` is a list of at most [`TRY_MAX`] one-line suggestions.
fn parse_try(ctx: &Ctx, v: Option<&Value>) -> Result<Vec<String>, ScenarioError> {
    const HINT: &str = "e.g. `try: [\"Press Play\", \"Click a node to see why it runs a pod\"]`";
    let items = optional_list(ctx, v, "try", "a list of suggestions", HINT)?;
    if items.len() > TRY_MAX {
        return Err(ctx.err(
            &format!("try[{TRY_MAX}]"),
            format!(
                "try holds at most {TRY_MAX} suggestions, found {}",
                items.len()
            ),
            Some("keep the three a newcomer should do first"),
        ));
    }
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let path = format!("try[{i}]");
        let text = ctx.string(item, &path, "a suggestion")?;
        let chars = text.chars().count();
        if text.trim().is_empty() || text.contains(['\n', '\r']) || chars > TRY_CHARS {
            return Err(ctx.err(
                &path,
                format!("a suggestion is one line of 1 to {TRY_CHARS} characters, found {chars} characters{}",
                    if text.contains(['\n', '\r']) { " over several lines" } else { "" }),
                Some(HINT),
            ));
        }
        out.push(text);
    }
    Ok(out)
}

fn parse_nodes(ctx: &Ctx, v: Option<&Value>) -> Result<Vec<NodeEntry>, ScenarioError> {
    let example = "e.g. `nodes: [{name: worker}, {pool: worker, count: 3, from: 2}]`";
    let items = optional_list(ctx, v, "nodes", "a list", example)?;
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    let mut total = 0usize;
    for (i, item) in items.iter().enumerate() {
        let path = format!("nodes[{i}]");
        let Value::Object(m) = item else {
            return Err(ctx.err(
                &path,
                format!("a node must be a map, found {}", json_kind(item)),
                Some("write `- name: worker` or `- {pool: worker, count: 3}`"),
            ));
        };
        for key in m.keys() {
            if !NODE_KEYS.contains(&key.as_str()) {
                return Err(unknown_key(ctx, &format!("{path}.{key}"), key, NODE_KEYS));
            }
        }
        let names: Vec<String> = match (m.get("name"), m.get("pool")) {
            (Some(n), None) => {
                if m.contains_key("count") || m.contains_key("from") {
                    return Err(ctx.err(
                        &path,
                        "`count` and `from` belong to a pool, not to a named node",
                        Some("write `pool: worker` instead of `name:` to declare several nodes"),
                    ));
                }
                vec![ctx.string(n, &format!("{path}.name"), "name")?]
            }
            (None, Some(p)) => {
                let pool = ctx.string(p, &format!("{path}.pool"), "pool")?;
                let example =
                    "e.g. `{pool: worker, count: 3, from: 2}` for worker2, worker3, worker4";
                let count = whole_number(ctx, m, &path, "count", example)?;
                let from = whole_number(ctx, m, &path, "from", example)?;
                // Compared as u64: `as usize` would truncate on 32-bit targets (wasm).
                if count > MAX_NODES as u64 {
                    return Err(ctx.err(
                        &format!("{path}.count"),
                        format!("count {count} is over the limit of {MAX_NODES} nodes"),
                        Some("5,000 nodes is the upstream scalability limit"),
                    ));
                }
                let Some(end) = from.checked_add(count) else {
                    return Err(ctx.err(
                        &format!("{path}.from"),
                        format!("from {from} is too large: the pool's numbers would overflow"),
                        Some("number pools from small values, e.g. `from: 1`"),
                    ));
                };
                (from..end).map(|i| format!("{pool}{i}")).collect()
            }
            (Some(_), Some(_)) => {
                return Err(ctx.err(
                    &path,
                    "a node has either `name` or `pool`, not both",
                    Some("use `name:` for one node, `pool:` with `count:` for several"),
                ))
            }
            (None, None) => {
                return Err(ctx.err(
                    &path,
                    "a node needs `name` (one node) or `pool` (several)",
                    Some("e.g. `- name: worker` or `- {pool: worker, count: 3, from: 2}`"),
                ))
            }
        };
        total += names.len();
        if total > MAX_NODES {
            return Err(ctx.err(
                &path,
                format!("more than {MAX_NODES} nodes"),
                Some("5,000 nodes is the upstream scalability limit"),
            ));
        }
        for n in &names {
            if !is_node_name(n) {
                return Err(ctx.err(
                    &path,
                    format!("node name {n:?} is not a valid DNS subdomain"),
                    Some("use lower-case letters, digits, '-' and '.'"),
                ));
            }
            if !seen.insert(n.clone()) {
                return Err(ctx.err(
                    &path,
                    format!("node {n:?} is declared twice"),
                    Some("node names must be unique; check pools' `from:`"),
                ));
            }
        }
        let labels = parse_string_map(ctx, m.get("labels"), &format!("{path}.labels"))?;
        let taints = match m.get("taints") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(a)) => a
                .iter()
                .enumerate()
                .map(|(j, t)| {
                    let tp = format!("{path}.taints[{j}]");
                    let s = ctx.string(t, &tp, "a taint")?;
                    parse_taint(&s).map_err(|e| {
                        ctx.err(
                            &tp,
                            e,
                            Some("write taints as `key=value:NoSchedule` or `key:NoExecute`"),
                        )
                    })
                })
                .collect::<Result<_, _>>()?,
            Some(other) => {
                return Err(ctx.err(
                    &format!("{path}.taints"),
                    format!("taints must be a list, found {}", json_kind(other)),
                    Some("e.g. `taints: [\"dedicated=infra:NoSchedule\"]`"),
                ))
            }
        };
        let capacity = sort::map(
            parse_string_map(ctx, m.get("capacity"), &format!("{path}.capacity"))?
                .into_iter()
                .map(|(k, v)| (k, Quantity(v))),
        );
        let allocatable = sort::map(
            parse_string_map(ctx, m.get("allocatable"), &format!("{path}.allocatable"))?
                .into_iter()
                .map(|(k, v)| (k, Quantity(v))),
        );
        let unschedulable = match m.get("unschedulable") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                return Err(ctx.err(
                    &format!("{path}.unschedulable"),
                    format!(
                        "unschedulable must be true or false, found {}",
                        shown(other)
                    ),
                    Some("`unschedulable: true` declares a cordoned node"),
                ))
            }
        };
        let conditions = parse_conditions(ctx, m.get("conditions"), &format!("{path}.conditions"))?;
        out.push(NodeEntry {
            names,
            labels,
            taints,
            capacity,
            allocatable,
            unschedulable,
            conditions,
        });
    }
    Ok(out)
}

/// `conditions: {MemoryPressure: "False", Ready: "True"}`; an unquoted True/False is taken
/// for the status it spells.
fn parse_conditions(
    ctx: &Ctx,
    v: Option<&Value>,
    path: &str,
) -> Result<BTreeMap<String, String>, ScenarioError> {
    let Some(Value::Object(m)) = v else {
        return match v {
            None | Some(Value::Null) => Ok(BTreeMap::new()),
            Some(other) => Err(ctx.err(
                path,
                format!(
                    "{path} must be a map of condition type to status, found {}",
                    json_kind(other)
                ),
                Some("e.g. `conditions: {MemoryPressure: \"False\"}`"),
            )),
        };
    };
    sort::try_map(m.iter().map(|(k, v)| {
        let p = format!("{path}.{k}");
        let status = match v {
            Value::Bool(true) => "True".to_string(),
            Value::Bool(false) => "False".to_string(),
            other => ctx.string(other, &p, &p)?,
        };
        if !matches!(status.as_str(), "True" | "False" | "Unknown") {
            return Err(ctx.err(
                &p,
                format!("condition status must be True, False or Unknown, found {status:?}"),
                Some("e.g. `conditions: {DiskPressure: \"False\"}`"),
            ));
        }
        Ok((k.clone(), status))
    }))
}

fn parse_files(ctx: &Ctx, v: Option<&Value>) -> Result<BTreeMap<String, String>, ScenarioError> {
    match v {
        None | Some(Value::Null) => Ok(BTreeMap::new()),
        Some(Value::Object(m)) => sort::try_map(m.iter().map(|(k, v)| match v {
            Value::String(s) => Ok((k.clone(), s.clone())),
            other => Err(ctx.err(
                &format!("files.{k}"),
                format!("file {k:?} must be text, found {}", json_kind(other)),
                Some("write the manifest as a block: `ds.yaml: |` then the YAML indented below"),
            )),
        })),
        Some(other) => Err(ctx.err(
            "files",
            format!(
                "files must be a map of name to text, found {}",
                json_kind(other)
            ),
            None,
        )),
    }
}

/// The last key of a field path: `lesson[2].run` → `run`.
fn last_key(path: &str) -> &str {
    path.rsplit('.').next().unwrap_or(path)
}

/// Script lines (`script:`, and a lesson's `run:`, `check:` and `solution:`) at `at`.
pub(crate) fn parse_lines(
    ctx: &Ctx,
    v: Option<&Value>,
    at: &str,
) -> Result<Vec<ScriptLine>, ScenarioError> {
    let example = format!("e.g. `{}: [\"kubectl apply -f ds.yaml\"]`", last_key(at));
    let items = optional_list(ctx, v, at, "a list", &example)?;
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let path = format!("{at}[{i}]");
        let (line, column) = match ctx.map {
            Some(map) => map.locate(&path).unwrap_or((1, 1)),
            None => (i + 1, 1),
        };
        let step = match item {
            Value::String(s) if !s.trim().is_empty() => Step::Run(s.trim().to_string()),
            Value::Object(m) => {
                for key in m.keys() {
                    if !["expect", "equals", "contains"].contains(&key.as_str()) {
                        return Err(unknown_key(
                            ctx,
                            &format!("{path}.{key}"),
                            key,
                            &["expect", "equals", "contains"],
                        ));
                    }
                }
                let Some(cmd) = m.get("expect") else {
                    return Err(ctx.err(
                        &path,
                        "a map in the script must be an `expect:` check",
                        Some("write `- expect: kubectl get ds x -o jsonpath={.status.numberReady}` and `equals: \"4\"`"),
                    ));
                };
                let command = ctx.string(cmd, &format!("{path}.expect"), "expect")?;
                let check = match (m.get("equals"), m.get("contains")) {
                    (Some(e), None) => {
                        Check::Equals(ctx.string(e, &format!("{path}.equals"), "equals")?)
                    }
                    (None, Some(c)) => {
                        Check::Contains(ctx.string(c, &format!("{path}.contains"), "contains")?)
                    }
                    _ => {
                        return Err(ctx.err(
                            &path,
                            "an expect needs exactly one of `equals:` or `contains:`",
                            Some("e.g. `equals: \"4\"`"),
                        ))
                    }
                };
                Step::Expect { command, check }
            }
            other => {
                return Err(ctx.err(
                    &path,
                    format!(
                        "a script line must be a command or an expect map, found {}",
                        json_kind(other)
                    ),
                    Some("e.g. `- kubectl get ds` or `- sleep 30s`"),
                ))
            }
        };
        out.push(ScriptLine { line, column, step });
    }
    Ok(out)
}

impl Scenario {
    /// The Node objects the shorthand declares, in declaration order.
    pub fn node_objects(&self) -> Vec<Node> {
        self.nodes
            .iter()
            .flat_map(|e| e.names.iter().map(move |n| e.node(n)))
            .collect()
    }
}

impl NodeEntry {
    /// One Node of this entry: the usual kind-like labels, the given taints and capacity
    /// (default cpu 4, memory 16Gi, pods 110), Ready.
    pub fn node(&self, name: &str) -> Node {
        let mut labels = sort::map([
            ("kubernetes.io/arch".to_string(), "amd64".to_string()),
            ("kubernetes.io/hostname".to_string(), name.to_string()),
            ("kubernetes.io/os".to_string(), "linux".to_string()),
        ]);
        labels.extend(self.labels.clone());
        let mut capacity = sort::map([
            ("cpu".to_string(), Quantity("4".into())),
            ("memory".to_string(), Quantity("16Gi".into())),
            ("pods".to_string(), Quantity("110".into())),
        ]);
        capacity.extend(self.capacity.clone());
        let mut allocatable = capacity.clone();
        allocatable.extend(self.allocatable.clone());
        let conditions: Vec<NodeCondition> = self
            .conditions
            .iter()
            .map(|(t, s)| NodeCondition {
                type_: t.clone(),
                status: s.clone(),
                ..Default::default()
            })
            .collect();
        Node {
            metadata: ObjectMeta {
                name: Some(name.to_string()),
                labels: Some(labels),
                ..Default::default()
            },
            spec: Some(NodeSpec {
                taints: (!self.taints.is_empty()).then(|| self.taints.clone()),
                unschedulable: self.unschedulable.then_some(true),
                ..Default::default()
            }),
            status: Some(NodeStatus {
                allocatable: Some(allocatable),
                capacity: Some(capacity),
                conditions: (!conditions.is_empty()).then_some(conditions),
                ..Default::default()
            }),
        }
    }
}
