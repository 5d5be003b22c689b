//! YAML text → a positioned tree with YAML 1.1 scalar semantics, as kubectl reads it.
//!
//! kubectl converts YAML to JSON with `sigs.k8s.io/yaml`, which sits on go-yaml v2: a YAML 1.1
//! reader. So plain `yes`/`no`/`on`/`off`/`y`/`n` are booleans, `0755` is octal, `1_000` is an int.
//! This module reproduces those rules on top of an event parser that reports line and column,
//! and keeps the position of every node so later errors can point at the text.
//!
//! It knows nothing of Kubernetes types: the tree is plain JSON data plus positions.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError, Span, StrInput, Tag};

/// Deepest nesting accepted. Kubernetes objects are ~20 levels deep; this bounds recursion.
pub(crate) const MAX_DEPTH: usize = 100;
/// Most nodes that aliases (`*name`) may copy in one stream ("billion laughs" guard).
const MAX_ALIAS_NODES: usize = 200_000;

/// A 1-based line and column (column counted in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Pos {
    pub line: usize,
    pub col: usize,
}

impl Pos {
    fn from_marker(m: &saphyr_parser::Marker) -> Pos {
        Pos {
            line: m.line(),
            col: m.col() + 1,
        }
    }
}

/// One YAML node after YAML 1.1 resolution, i.e. one JSON value with its position.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub value: Value,
    pub pos: Pos,
    /// The source text of a plain (unquoted) scalar that did not resolve to a string, kept so a
    /// type error can say "quote the value: k: \"yes\"".
    pub plain: Option<Box<str>>,
}

#[derive(Debug, Clone)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub key: String,
    pub key_pos: Pos,
    pub value: Node,
}

impl Node {
    pub(crate) fn get(&self, key: &str) -> Option<&Node> {
        match &self.value {
            Value::Map(entries) => entries.iter().find(|e| e.key == key).map(|e| &e.value),
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn is_null(&self) -> bool {
        matches!(self.value, Value::Null)
    }

    /// How Go's encoding/json names this value's kind in "cannot unmarshal X into …".
    pub(crate) fn json_kind(&self) -> &'static str {
        match self.value {
            Value::Null => "null",
            Value::Bool(_) => "bool",
            Value::Int(_) | Value::UInt(_) | Value::Float(_) => "number",
            Value::Str(_) => "string",
            Value::Seq(_) => "array",
            Value::Map(_) => "object",
        }
    }

    /// The number as JSON text (what sigs.k8s.io/yaml would have written), if this is a number.
    pub(crate) fn number_text(&self) -> Option<String> {
        match self.value {
            Value::Int(i) => Some(i.to_string()),
            Value::UInt(u) => Some(u.to_string()),
            Value::Float(f) => Some(match float_as_int(f) {
                Some(i) => i.to_string(),
                None => go_float(f),
            }),
            _ => None,
        }
    }

    /// A JSON value (a request body that never was YAML) as a tree; every position is 0:0.
    pub(crate) fn from_json(json: &serde_json::Value) -> Node {
        use serde_json::Value as J;
        let value = match json {
            J::Null => Value::Null,
            J::Bool(b) => Value::Bool(*b),
            J::Number(n) => match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => Value::Int(i),
                (None, Some(u)) => Value::UInt(u),
                (None, None) => Value::Float(n.as_f64().unwrap_or(0.0)),
            },
            J::String(s) => Value::Str(s.clone()),
            J::Array(items) => Value::Seq(items.iter().map(Node::from_json).collect()),
            J::Object(map) => Value::Map(
                map.iter()
                    .map(|(k, v)| Entry {
                        key: k.clone(),
                        key_pos: Pos::default(),
                        value: Node::from_json(v),
                    })
                    .collect(),
            ),
        };
        Node {
            value,
            pos: Pos::default(),
            plain: None,
        }
    }

    /// The value as JSON, as kubectl would send it to the API server.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match &self.value {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Int(i) => J::from(*i),
            Value::UInt(u) => J::from(*u),
            Value::Float(f) => match float_as_int(*f) {
                Some(i) => J::from(i),
                // Non-finite floats were rejected while building the tree.
                None => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
            },
            Value::Str(s) => J::String(s.clone()),
            Value::Seq(items) => J::Array(items.iter().map(Node::to_json).collect()),
            Value::Map(entries) => {
                // `extend` inserts; `collect` would sort first (one more sort in the web app).
                let mut map = serde_json::Map::new();
                map.extend(entries.iter().map(|e| (e.key.clone(), e.value.to_json())));
                J::Object(map)
            }
        }
    }
}

/// Go's json.Marshal writes a float64 with no fractional part as an integer (`1.0` → `1`), so
/// the API server sees an int. Mirror that.
pub(crate) fn float_as_int(f: f64) -> Option<i64> {
    // 2^63 as f64; the range check keeps the cast exact.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e21 && (-LIMIT..LIMIT).contains(&f) {
        Some(f as i64)
    } else {
        None
    }
}

/// Approximates Go's `strconv.FormatFloat(f, 'g', -1, 64)` closely enough for messages.
fn go_float(f: f64) -> String {
    if f.is_nan() {
        "NaN".into()
    } else if f.is_infinite() {
        if f > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        }
    } else if f != 0.0 && (f.abs() >= 1e21 || f.abs() < 1e-6) {
        let s = format!("{f:e}");
        match s.split_once('e') {
            Some((m, e)) if e.starts_with('-') => format!("{m}e{e}"),
            Some((m, e)) => format!("{m}e+{e}"),
            None => s,
        }
    } else {
        format!("{f}")
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct YamlError {
    pub pos: Pos,
    pub kind: YamlErrorKind,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum YamlErrorKind {
    /// The parser's own message (libyaml wording, which go-yaml shares).
    Syntax(String),
    /// A tab where indentation was expected.
    Tab,
    /// A character outside YAML's printable set (go-yaml's reader refuses the whole stream).
    ControlCharacter(char),
    DuplicateKey {
        key: String,
        first: Pos,
    },
    /// A key that is a list, a mapping or null: JSON keys are strings.
    UnsupportedKey(&'static str),
    /// `<<:` with something other than a mapping or a list of mappings.
    BadMerge,
    /// An explicit tag (`!!int x`) that the value cannot satisfy.
    BadTag {
        tag: String,
        value: String,
    },
    /// NaN or ±Inf, which JSON cannot carry.
    NotJson(&'static str),
    TooDeep,
    TooManyAliases,
}

impl YamlErrorKind {
    /// go-yaml / sigs.k8s.io/yaml wording, without the "yaml: line N:" prefix.
    pub(crate) fn message(&self) -> String {
        match self {
            YamlErrorKind::Syntax(info) => info.clone(),
            YamlErrorKind::Tab => "found character that cannot start any token".into(),
            YamlErrorKind::ControlCharacter(_) => "control characters are not allowed".into(),
            YamlErrorKind::DuplicateKey { key, .. } => {
                format!("key {} already set in map", crate::gofmt::quote(key))
            }
            YamlErrorKind::UnsupportedKey(kind) => format!("Unsupported map key of type: {kind}"),
            YamlErrorKind::BadMerge => {
                "map merge requires map or sequence of maps as the value".into()
            }
            YamlErrorKind::BadTag { tag, value } => {
                format!("cannot decode !!str `{value}` as a !!{tag}")
            }
            YamlErrorKind::NotJson(what) => format!("json: unsupported value: {what}"),
            YamlErrorKind::TooDeep => format!("exceeded max depth of {MAX_DEPTH}"),
            YamlErrorKind::TooManyAliases => "document contains excessive aliasing".into(),
        }
    }
}

/// Parses every document of a YAML stream. Empty documents come back as `Null` nodes.
pub(crate) fn parse_stream(text: &str) -> Result<Vec<Node>, YamlError> {
    if let Some(e) = control_character(text) {
        return Err(e);
    }
    let mut b = Builder {
        parser: Parser::new_from_str(text),
        text,
        anchors: HashMap::new(),
        alias_nodes: 0,
    };
    b.stream()
}

/// The first character that go-yaml's reader refuses before any parsing: YAML's printable
/// set is tab, line feed, carriage return, U+0020–U+007E, U+0085, U+00A0–U+D7FF,
/// U+E000–U+FFFD and U+10000 on (so NUL, the other C0 controls, DEL, C1 controls but NEL, and
/// U+FFFE/U+FFFF are out).
fn control_character(text: &str) -> Option<YamlError> {
    let printable = |c: char| {
        matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
            || c >= '\u{10000}'
    };
    let (line, text_line) = text
        .split('\n')
        .enumerate()
        .find(|(_, l)| !l.chars().all(printable))?;
    let (col, ch) = text_line
        .chars()
        .enumerate()
        .find(|(_, c)| !printable(*c))?;
    Some(YamlError {
        pos: Pos {
            line: line + 1,
            col: col + 1,
        },
        kind: YamlErrorKind::ControlCharacter(ch),
    })
}

struct Builder<'a> {
    parser: Parser<'a, StrInput<'a>>,
    text: &'a str,
    anchors: HashMap<usize, Node>,
    alias_nodes: usize,
}

impl<'a> Builder<'a> {
    fn next(&mut self) -> Result<(Event<'a>, Span), YamlError> {
        match self.parser.next_event() {
            Some(Ok(ev)) => Ok(ev),
            Some(Err(e)) => Err(self.scan_error(&e)),
            None => Err(YamlError {
                pos: Pos::default(),
                kind: YamlErrorKind::Syntax("unexpected end of stream".into()),
            }),
        }
    }

    fn scan_error(&self, e: &ScanError) -> YamlError {
        let pos = Pos::from_marker(e.marker());
        // Tabs in indentation get their own message and point at the tab itself.
        if let Some(line) = self.text.lines().nth(pos.line.saturating_sub(1)) {
            let indent: String = line
                .chars()
                .take_while(|c| *c == ' ' || *c == '\t')
                .collect();
            if let Some(i) = indent.chars().position(|c| c == '\t') {
                return YamlError {
                    pos: Pos {
                        line: pos.line,
                        col: i + 1,
                    },
                    kind: YamlErrorKind::Tab,
                };
            }
        }
        if e.info().contains("tab") {
            return YamlError {
                pos,
                kind: YamlErrorKind::Tab,
            };
        }
        YamlError {
            pos,
            kind: YamlErrorKind::Syntax(e.info().to_string()),
        }
    }

    fn stream(&mut self) -> Result<Vec<Node>, YamlError> {
        let mut docs = Vec::new();
        loop {
            let (ev, span) = self.next()?;
            match ev {
                Event::StreamStart | Event::Nothing => {}
                Event::StreamEnd => return Ok(docs),
                Event::DocumentStart(_) => {
                    let (ev, span) = self.next()?;
                    let node = self.node(ev, span, 0)?;
                    let (end, span) = self.next()?;
                    if !matches!(end, Event::DocumentEnd) {
                        return Err(unexpected(span));
                    }
                    self.anchors.clear();
                    docs.push(node);
                }
                _ => return Err(unexpected(span)),
            }
        }
    }

    fn node(&mut self, ev: Event<'a>, span: Span, depth: usize) -> Result<Node, YamlError> {
        let pos = Pos::from_marker(&span.start);
        if depth > MAX_DEPTH {
            return Err(YamlError {
                pos,
                kind: YamlErrorKind::TooDeep,
            });
        }
        let (node, anchor) = match ev {
            Event::Scalar(text, style, anchor, tag) => {
                (scalar(&text, style, tag.as_deref(), pos)?, anchor)
            }
            Event::SequenceStart(anchor, _) => {
                let mut items = Vec::new();
                loop {
                    let (ev, span) = self.next()?;
                    if matches!(ev, Event::SequenceEnd) {
                        break;
                    }
                    items.push(self.node(ev, span, depth + 1)?);
                }
                (
                    Node {
                        value: Value::Seq(items),
                        pos,
                        plain: None,
                    },
                    anchor,
                )
            }
            Event::MappingStart(anchor, _) => (self.mapping(pos, depth)?, anchor),
            Event::Alias(id) => {
                let node = self.anchors.get(&id).cloned().ok_or(YamlError {
                    pos,
                    kind: YamlErrorKind::Syntax("found undefined alias".into()),
                })?;
                self.alias_nodes += count_nodes(&node);
                if self.alias_nodes > MAX_ALIAS_NODES {
                    return Err(YamlError {
                        pos,
                        kind: YamlErrorKind::TooManyAliases,
                    });
                }
                return Ok(node);
            }
            _ => return Err(unexpected(span)),
        };
        if anchor > 0 {
            self.anchors.insert(anchor, node.clone());
        }
        Ok(node)
    }

    fn mapping(&mut self, pos: Pos, depth: usize) -> Result<Node, YamlError> {
        let mut entries: Vec<Entry> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        // Keys written explicitly (not merged in), with where they were first written.
        let mut explicit: HashMap<String, Pos> = HashMap::new();
        loop {
            let (ev, span) = self.next()?;
            if matches!(ev, Event::MappingEnd) {
                break;
            }
            let is_merge = matches!(&ev, Event::Scalar(t, ScalarStyle::Plain, _, tag)
                if t == "<<" && tag.as_ref().is_none_or(|t| t.suffix == "merge"));
            let key_node = self.node(ev, span, depth + 1)?;
            let (ev, span) = self.next()?;
            let value = self.node(ev, span, depth + 1)?;
            if is_merge {
                merge(&mut entries, &mut index, value)?;
                continue;
            }
            let key = key_string(&key_node)?;
            if let Some(first) = explicit.get(&key) {
                return Err(YamlError {
                    pos: key_node.pos,
                    kind: YamlErrorKind::DuplicateKey { key, first: *first },
                });
            }
            explicit.insert(key.clone(), key_node.pos);
            insert(
                &mut entries,
                &mut index,
                Entry {
                    key,
                    key_pos: key_node.pos,
                    value,
                },
            );
        }
        Ok(Node {
            value: Value::Map(entries),
            pos,
            plain: None,
        })
    }
}

fn unexpected(span: Span) -> YamlError {
    YamlError {
        pos: Pos::from_marker(&span.start),
        kind: YamlErrorKind::Syntax("did not find expected node content".into()),
    }
}

fn count_nodes(node: &Node) -> usize {
    1 + match &node.value {
        Value::Seq(items) => items.iter().map(count_nodes).sum(),
        Value::Map(entries) => entries.iter().map(|e| count_nodes(&e.value)).sum(),
        _ => 0,
    }
}

/// Later writes win, as in go-yaml v2 decoding into a map.
fn insert(entries: &mut Vec<Entry>, index: &mut HashMap<String, usize>, entry: Entry) {
    match index.get(&entry.key) {
        Some(&i) => {
            if let Some(slot) = entries.get_mut(i) {
                *slot = entry;
            }
        }
        None => {
            index.insert(entry.key.clone(), entries.len());
            entries.push(entry);
        }
    }
}

/// `<<: *base` or `<<: [*a, *b]` (earlier maps in the list win).
fn merge(
    entries: &mut Vec<Entry>,
    index: &mut HashMap<String, usize>,
    value: Node,
) -> Result<(), YamlError> {
    let bad = YamlError {
        pos: value.pos,
        kind: YamlErrorKind::BadMerge,
    };
    match value.value {
        Value::Map(src) => {
            for e in src {
                insert(entries, index, e);
            }
            Ok(())
        }
        Value::Seq(items) => {
            for item in items.into_iter().rev() {
                match item.value {
                    Value::Map(src) => {
                        for e in src {
                            insert(entries, index, e);
                        }
                    }
                    _ => return Err(bad),
                }
            }
            Ok(())
        }
        _ => Err(bad),
    }
}

/// JSON object keys are strings; sigs.k8s.io/yaml stringifies bool and number keys.
fn key_string(node: &Node) -> Result<String, YamlError> {
    let unsupported = |what| YamlError {
        pos: node.pos,
        kind: YamlErrorKind::UnsupportedKey(what),
    };
    match &node.value {
        Value::Str(s) => Ok(s.clone()),
        Value::Bool(b) => Ok(b.to_string()),
        Value::Int(i) => Ok(i.to_string()),
        Value::UInt(u) => Ok(u.to_string()),
        Value::Float(f) => Ok(go_float(*f)),
        Value::Null => Err(unsupported("<nil>")),
        Value::Seq(_) => Err(unsupported("[]interface {}")),
        Value::Map(_) => Err(unsupported("map[interface {}]interface {}")),
    }
}

fn scalar(text: &str, style: ScalarStyle, tag: Option<&Tag>, pos: Pos) -> Result<Node, YamlError> {
    let string = || Node {
        value: Value::Str(text.to_string()),
        pos,
        plain: None,
    };
    let core_tag = tag
        .filter(|t| t.is_yaml_core_schema())
        .map(|t| t.suffix.as_str());
    let resolved = match (core_tag, style) {
        (Some("str" | "binary" | "timestamp"), _) => return Ok(string()),
        // Quoted and block scalars are always strings, whatever they look like.
        (None, ScalarStyle::Plain) if tag.is_none() => resolve_plain(text),
        (None, _) => return Ok(string()),
        (Some(t @ ("int" | "float" | "bool" | "null")), _) => {
            let v = resolve_plain(text);
            let ok = matches!(
                (t, &v),
                ("int", Value::Int(_) | Value::UInt(_))
                    | ("float", Value::Float(_) | Value::Int(_) | Value::UInt(_))
                    | ("bool", Value::Bool(_))
                    | ("null", Value::Null)
            );
            if !ok {
                return Err(YamlError {
                    pos,
                    kind: YamlErrorKind::BadTag {
                        tag: t.to_string(),
                        value: text.to_string(),
                    },
                });
            }
            v
        }
        (Some(_), _) => resolve_plain(text),
    };
    if let Value::Float(f) = resolved {
        if f.is_nan() {
            return Err(YamlError {
                pos,
                kind: YamlErrorKind::NotJson("NaN"),
            });
        }
        if f.is_infinite() {
            return Err(YamlError {
                pos,
                kind: YamlErrorKind::NotJson(if f > 0.0 { "+Inf" } else { "-Inf" }),
            });
        }
    }
    let plain = match resolved {
        Value::Str(_) => None,
        _ => Some(text.into()),
    };
    Ok(Node {
        value: resolved,
        pos,
        plain,
    })
}

/// go-yaml v2's `resolve()` for an untagged plain scalar: [`k8s_base::yaml::resolve_plain`], the
/// rule the writers quote by.
pub(crate) fn resolve_plain(s: &str) -> Value {
    use k8s_base::yaml::Resolved;
    match k8s_base::yaml::resolve_plain(s) {
        Resolved::Null => Value::Null,
        Resolved::Bool(b) => Value::Bool(b),
        Resolved::Int(i) => Value::Int(i),
        Resolved::UInt(u) => Value::UInt(u),
        Resolved::Float(f) => Value::Float(f),
        Resolved::Str => Value::Str(s.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Value {
        match parse_stream(text) {
            Ok(docs) => docs.into_iter().next().map_or(Value::Null, |n| n.value),
            Err(e) => panic!("{e:?}"),
        }
    }

    #[test]
    fn yaml_1_1_booleans_and_nulls() {
        for t in [
            "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE",
        ] {
            assert!(matches!(resolve_plain(t), Value::Bool(true)), "{t}");
        }
        for t in [
            "n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE",
        ] {
            assert!(matches!(resolve_plain(t), Value::Bool(false)), "{t}");
        }
        for t in ["", "~", "null", "Null", "NULL"] {
            assert!(matches!(resolve_plain(t), Value::Null), "{t}");
        }
        assert!(matches!(resolve_plain("yES"), Value::Str(_)));
    }

    #[test]
    fn yaml_1_1_numbers() {
        assert!(matches!(resolve_plain("0x1F"), Value::Int(31)));
        assert!(matches!(resolve_plain("0755"), Value::Int(493)));
        assert!(matches!(resolve_plain("0o17"), Value::Int(15)));
        assert!(matches!(resolve_plain("-0b101"), Value::Int(-5)));
        assert!(matches!(resolve_plain("1_000"), Value::Int(1000)));
        assert!(matches!(resolve_plain("+12"), Value::Int(12)));
        assert!(matches!(
            resolve_plain("18446744073709551615"),
            Value::UInt(u64::MAX)
        ));
        assert!(matches!(resolve_plain("1.5"), Value::Float(f) if f == 1.5));
        assert!(matches!(resolve_plain(".5"), Value::Float(f) if f == 0.5));
        assert!(matches!(resolve_plain("1e3"), Value::Float(f) if f == 1000.0));
        assert!(matches!(resolve_plain("08"), Value::Float(f) if f == 8.0));
        assert!(matches!(resolve_plain("1.2.3"), Value::Str(_)));
        assert!(matches!(resolve_plain("2001-12-14"), Value::Str(_)));
        assert!(matches!(resolve_plain("nginx:1.25"), Value::Str(_)));
    }

    /// The writer (`k8s_base::yaml::to_yaml`) quotes by this reader's rule, so every string it
    /// writes reads back as that string: Go's base prefixes in either case (`0X0`, `0B1`,
    /// `0O7`), underscores, signs, exponents, words, dates and whatever else the strategy finds.
    #[test]
    fn every_string_the_writer_writes_reads_back_as_itself() {
        use proptest::prelude::*;
        let check = |s: &str| {
            let text = k8s_base::yaml::to_yaml(&serde_json::json!({ "k": s }));
            let back = parse_stream(&text).map(|d| d.into_iter().next().map(|n| n.to_json()));
            assert_eq!(back, Ok(Some(serde_json::json!({ "k": s }))), "{text}");
        };
        for s in [
            "0X0", "0B1", "-0B1", "0O7", "+0x_1F", "1_0.5", "08", ".5", "-.5e3", "1:20", "<<",
            "2001-1-2",
        ] {
            check(s);
        }
        let shapes = "[-+.]?(0[xXbBoO])?[0-9a-fA-F_.eE:+-]{0,6}|[a-zA-Z~<.]{0,5}|[ -~\\u{85}\\u{2028}\\u{1F680}]{0,8}";
        proptest!(ProptestConfig::with_cases(2_000), |(s in shapes)| check(&s));
    }

    #[test]
    fn quoted_and_tagged_scalars_are_strings() {
        assert!(matches!(one("'yes'"), Value::Str(_)));
        assert!(matches!(one("\"on\""), Value::Str(_)));
        assert!(matches!(one("!!str 12"), Value::Str(_)));
        assert!(matches!(one("|\n  yes\n"), Value::Str(_)));
    }

    #[test]
    fn merge_keys_and_aliases() {
        let v = one("base: &b {a: 1, b: 2}\nx:\n  <<: *b\n  b: 3\n");
        let Value::Map(top) = v else { panic!() };
        let x = &top[1].value;
        assert_eq!(x.to_json(), serde_json::json!({"a": 1, "b": 3}));
    }

    #[test]
    fn bool_keys_are_stringified() {
        let v = one("on: 1\n5: x\n");
        let node = Node {
            value: v,
            pos: Pos::default(),
            plain: None,
        };
        assert_eq!(node.to_json(), serde_json::json!({"true": 1, "5": "x"}));
    }
}
