//! Writing a scenario back out: as JSON data of the file's structure (the share link's payload)
//! and as a YAML file (the "download scenario" export) that [`crate::parse`] reads back to the
//! same scenario.
//!
//! Both use the file's keys (DESIGN §4.1) and leave out what is the default (title = id, seed 1,
//! empty maps and lists), and write node pools back in their `{pool, count, from}` shorthand.
//! Knows nothing of links, compression or the cluster.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use serde_json::{Map, Value};

use crate::format::{Check, NodeEntry, Scenario, Step};

/// How one node entry is written: by name, or as a numbered pool.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Names {
    One(String),
    Pool { pool: String, count: u64, from: u64 },
}

/// `names` as written: one run when they are `<pool><from>`, `<pool><from+1>` … (what a pool
/// declares), else the longest such runs in order.
fn name_runs(names: &[String]) -> Vec<Names> {
    if names.is_empty() {
        // `count: 0` declares no node; keep the entry so its other keys survive.
        return vec![Names::Pool {
            pool: "node".into(),
            count: 0,
            from: 1,
        }];
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < names.len() {
        let mut best: Option<(String, u64, usize)> = None;
        for (pool, from) in splits(&names[i]) {
            let len = names[i..]
                .iter()
                .enumerate()
                .take_while(|(k, n)| {
                    from.checked_add(*k as u64)
                        .is_some_and(|num| **n == format!("{pool}{num}"))
                })
                .count();
            if best.as_ref().is_none_or(|b| len > b.2) {
                best = Some((pool.to_string(), from, len));
            }
        }
        match best {
            Some((pool, from, len)) if len > 1 => {
                out.push(Names::Pool {
                    pool,
                    count: len as u64,
                    from,
                });
                i += len;
            }
            _ => {
                out.push(Names::One(names[i].clone()));
                i += 1;
            }
        }
    }
    out
}

/// Whether `names` (two or more) are one numbered pool, written as one `{pool, count, from}`.
#[cfg(test)]
pub(crate) fn is_one_pool(names: &[String]) -> bool {
    matches!(name_runs(names).as_slice(), [Names::Pool { .. }])
}

/// Ways to read `name` as `<pool><number>`: every split inside its trailing digits where the
/// number has no leading zero.
pub(crate) fn splits(name: &str) -> Vec<(&str, u64)> {
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    (name.len() - digits..name.len())
        .filter_map(|at| {
            let (pool, num) = name.split_at(at);
            if pool.is_empty() || (num.len() > 1 && num.starts_with('0')) {
                return None;
            }
            Some((pool, num.parse().ok()?))
        })
        .collect()
}

/// `key[=value]:Effect`, as the shorthand (and `kubectl taint`) writes a taint: Go's
/// `Taint.ToString()`, the foundation crate's one helper.
pub use k8s_base::objects::taint_string;

// Maps are built by `extend` (one insert each), not `collect` (which sorts first): the web
// app then carries no sort instance for them (dsplay-sort explains why that matters).
fn string_map(m: &BTreeMap<String, String>) -> Value {
    let mut out = Map::new();
    out.extend(m.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))));
    Value::Object(out)
}

fn quantity_map(m: &BTreeMap<String, Quantity>) -> Value {
    let mut out = Map::new();
    out.extend(
        m.iter()
            .map(|(k, v)| (k.clone(), Value::String(v.0.clone()))),
    );
    Value::Object(out)
}

/// The keys of one written node entry after its name or pool, in the file's order.
fn node_attributes(e: &NodeEntry) -> Vec<(&'static str, Value)> {
    let mut out = Vec::new();
    if !e.labels.is_empty() {
        out.push(("labels", string_map(&e.labels)));
    }
    if !e.taints.is_empty() {
        out.push((
            "taints",
            Value::Array(
                e.taints
                    .iter()
                    .map(|t| Value::String(taint_string(t)))
                    .collect(),
            ),
        ));
    }
    if !e.capacity.is_empty() {
        out.push(("capacity", quantity_map(&e.capacity)));
    }
    if !e.allocatable.is_empty() {
        out.push(("allocatable", quantity_map(&e.allocatable)));
    }
    if e.unschedulable {
        out.push(("unschedulable", Value::Bool(true)));
    }
    if !e.conditions.is_empty() {
        out.push(("conditions", string_map(&e.conditions)));
    }
    out
}

fn name_keys(n: &Names) -> Vec<(&'static str, Value)> {
    match n {
        Names::One(name) => vec![("name", Value::String(name.clone()))],
        Names::Pool { pool, count, from } => {
            let mut v = vec![
                ("pool", Value::String(pool.clone())),
                ("count", Value::from(*count)),
            ];
            if *from != 1 {
                v.push(("from", Value::from(*from)));
            }
            v
        }
    }
}

/// The node entries as the file's `nodes:` list (JSON data).
pub fn nodes_json(nodes: &[NodeEntry]) -> Value {
    let mut out = Vec::new();
    for e in nodes {
        let attrs = node_attributes(e);
        for run in name_runs(&e.names) {
            let mut m = Map::new();
            for (k, v) in name_keys(&run).into_iter().chain(attrs.iter().cloned()) {
                m.insert(k.to_string(), v);
            }
            out.push(Value::Object(m));
        }
    }
    Value::Array(out)
}

fn step_json(step: &Step) -> Value {
    match step {
        Step::Run(cmd) => Value::String(cmd.clone()),
        Step::Expect { command, check } => {
            let mut m = Map::new();
            m.insert("expect".into(), Value::String(command.clone()));
            let (k, v) = match check {
                Check::Equals(v) => ("equals", v),
                Check::Contains(v) => ("contains", v),
            };
            m.insert(k.into(), Value::String(v.clone()));
            Value::Object(m)
        }
    }
}

/// The scenario as JSON data with the file's keys, defaults left out.
/// [`crate::format::from_json`] reads it back.
pub fn to_json(s: &Scenario) -> Value {
    let mut m = Map::new();
    m.insert("scenario".into(), Value::String(s.id.clone()));
    if s.title != s.id {
        m.insert("title".into(), Value::String(s.title.clone()));
    }
    if !s.description.is_empty() {
        m.insert("description".into(), Value::String(s.description.clone()));
    }
    if !s.try_this.is_empty() {
        let list = s.try_this.iter().map(|t| Value::String(t.clone()));
        m.insert("try".into(), Value::Array(list.collect()));
    }
    if s.seed != 1 {
        m.insert("seed".into(), Value::from(s.seed));
    }
    if !s.timing.is_empty() {
        m.insert("timing".into(), Value::Object(s.timing.clone()));
    }
    if !s.images.is_empty() {
        m.insert("images".into(), Value::Object(s.images.clone()));
    }
    if !s.nodes.is_empty() {
        m.insert("nodes".into(), nodes_json(&s.nodes));
    }
    if !s.files.is_empty() {
        m.insert("files".into(), string_map(&s.files));
    }
    if !s.script.is_empty() {
        m.insert(
            "script".into(),
            Value::Array(s.script.iter().map(|l| step_json(&l.step)).collect()),
        );
    }
    Value::Object(m)
}

impl Scenario {
    /// Whether two scenarios say the same thing: every field but where they were written
    /// (`source_name`, script lines' positions), which a round trip through a link or a
    /// download does not keep, and the first-visit suggestions (`try_this`), which a link
    /// leaves out: they change nothing the scenario does.
    pub fn same_content(&self, other: &Scenario) -> bool {
        self.id == other.id
            && self.title == other.title
            && self.description == other.description
            && self.seed == other.seed
            && same_timing(&self.timing, &other.timing)
            && same_timing(&self.images, &other.images)
            && self.nodes == other.nodes
            && self.files == other.files
            && self.script.len() == other.script.len()
            && self
                .script
                .iter()
                .zip(&other.script)
                .all(|(a, b)| a.step == b.step)
    }
}

/// Timing overrides compared by value: YAML reads `1.0` as the integer 1 (as kubectl does),
/// JSON keeps it a float; the timing model sees the same number.
fn same_timing(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    a.len() == b.len()
        && a.iter().all(|(k, va)| {
            b.get(k).is_some_and(|vb| match (va, vb) {
                (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
                _ => va == vb,
            })
        })
}

// ---- YAML ----

/// Whether `s` reads back as this same string when written without quotes. `flow`: inside
/// `{…}` or `[…]`, where `,[]{}` and spaces end a scalar. go-yaml's rule decides whether the
/// text would read back as a string ([`k8s_base::yaml::plain_in_block`]: not null, a bool, a
/// number, a time); scenario files then leave only ASCII words plain, so that any YAML reader
/// reads them the same.
fn plain_ok(s: &str, flow: bool) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    if !k8s_base::yaml::plain_in_block(s)
        || !(first.is_ascii_alphanumeric() || first == '_' || first == '/')
    {
        return false;
    }
    let chars: Vec<char> = s.chars().collect();
    chars.iter().enumerate().all(|(i, &c)| match c {
        c if c.is_ascii_alphanumeric() => true,
        '.' | '_' | '/' | '-' | '=' | '+' | '@' | '%' | '(' | ')' => true,
        ' ' | ',' | '[' | ']' | '{' | '}' => !flow,
        // `a:b` is a plain scalar, `a: b` and a trailing colon are not.
        ':' => !flow && chars.get(i + 1).is_some_and(|n| *n != ' '),
        _ => false,
    })
}

/// A double-quoted YAML scalar; every character YAML could misread is escaped.
fn quoted(s: &str) -> String {
    k8s_base::quote::double_quoted(s, |c, out| {
        needs_escape(c) && {
            let _ = write!(out, "\\u{:04X}", c as u32);
            true
        }
    })
}

/// Control characters, YAML's line breaks beyond `\n` (NEL, LS, PS) and non-characters.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{FEFF}')
        || (c as u32) >= 0xFFFE && (c as u32) <= 0xFFFF
}

fn scalar(s: &str, flow: bool) -> String {
    if plain_ok(s, flow) {
        s.to_string()
    } else {
        quoted(s)
    }
}

/// Whether `s` can be a literal block (`|`): several lines of printable text whose first line
/// does not start with a space and whose lines are not just blanks.
fn literal_ok(s: &str) -> bool {
    s.contains('\n')
        && !s.starts_with([' ', '\t', '\n'])
        && !s.chars().any(|c| c != '\n' && c != '\t' && needs_escape(c))
        && s.lines().all(|l| !l.starts_with('\t'))
        && s.lines().all(|l| l.is_empty() || !l.trim().is_empty())
        && !s.trim().is_empty()
}

/// Writes the value of `key: ` (already written) as a literal block or a one-line scalar.
fn value_text(out: &mut String, s: &str, indent: usize) {
    if literal_ok(s) {
        let body = s.trim_end_matches('\n');
        let chomp = match s.len() - body.len() {
            0 => "-",
            1 => "",
            _ => "+",
        };
        let _ = writeln!(out, "|{chomp}");
        for line in s.split_inclusive('\n') {
            let line = line.strip_suffix('\n').unwrap_or(line);
            if line.is_empty() {
                out.push('\n');
            } else {
                let _ = writeln!(out, "{:indent$}{line}", "");
            }
        }
    } else {
        let _ = writeln!(out, "{}", scalar(s, false));
    }
}

/// Prose (title, description) on one long line: as a folded block (`>-`) broken at spaces,
/// when that reads back the same (single spaces only, nothing to escape); else as
/// [`value_text`] writes it.
fn prose(out: &mut String, s: &str, indent: usize) {
    const WIDTH: usize = 92;
    let words: Vec<&str> = s.split(' ').collect();
    let foldable = s.len() > WIDTH - indent
        && !s.contains(['\n', '\t'])
        && !s.chars().any(needs_escape)
        && words.iter().all(|w| !w.is_empty());
    if !foldable {
        value_text(out, s, indent);
        return;
    }
    out.push_str(">-\n");
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && indent + line.len() + 1 + w.len() > WIDTH {
            let _ = writeln!(out, "{:indent$}{line}", "");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    let _ = writeln!(out, "{:indent$}{line}", "");
}

/// `key: value` of a node entry (after `lead`): a map or list inline when it fits on a line
/// of [`LINE`] characters, else one entry per line.
fn node_field(out: &mut String, lead: &str, key: &str, v: &Value) {
    const LINE: usize = 100;
    let inline = flow_value(v);
    if lead.len() + key.len() + 2 + inline.len() <= LINE {
        let _ = writeln!(out, "{lead}{key}: {inline}");
        return;
    }
    let _ = writeln!(out, "{lead}{key}:");
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                let _ = writeln!(out, "      {}: {}", scalar(k, true), flow_value(v));
            }
        }
        Value::Array(items) => {
            for item in items {
                let _ = writeln!(out, "      - {}", flow_value(item));
            }
        }
        _ => {}
    }
}

fn flow_map(m: &Map<String, Value>) -> String {
    let items: Vec<String> = m
        .iter()
        .map(|(k, v)| format!("{}: {}", scalar(k, true), flow_value(v)))
        .collect();
    format!("{{{}}}", items.join(", "))
}

/// A scalar or collection in flow style (labels, capacity, timing, taints).
fn flow_value(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number(n),
        Value::String(s) => scalar(s, true),
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(flow_value).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(m) => flow_map(m),
    }
}

/// A number YAML reads back as the same JSON number: a float keeps a decimal point.
fn number(n: &serde_json::Number) -> String {
    if n.is_f64() {
        let f = n.as_f64().unwrap_or(0.0);
        let t = f.to_string();
        if t.contains('.') {
            t
        } else {
            format!("{t}.0")
        }
    } else {
        n.to_string()
    }
}

/// The scenario as a YAML file in the layout of the presets: one key per line, labels and
/// capacities as `{…}`, manifests as `|` blocks. [`crate::parse`] reads it back to a scenario
/// with the same content ([`Scenario::same_content`]).
pub fn to_yaml(s: &Scenario) -> String {
    let mut y = String::new();
    let _ = writeln!(y, "scenario: {}", scalar(&s.id, false));
    if s.title != s.id {
        y.push_str("title: ");
        prose(&mut y, &s.title, 2);
    }
    if !s.description.is_empty() {
        y.push_str("description: ");
        prose(&mut y, &s.description, 2);
    }
    if !s.try_this.is_empty() {
        y.push_str("try:\n");
        for t in &s.try_this {
            let _ = writeln!(y, "  - {}", scalar(t, false));
        }
    }
    if s.seed != 1 {
        let _ = writeln!(y, "seed: {}", s.seed);
    }
    if !s.timing.is_empty() {
        y.push_str("timing:\n");
        for (k, v) in &s.timing {
            let _ = writeln!(y, "  {}: {}", scalar(k, true), flow_value(v));
        }
    }
    if !s.images.is_empty() {
        y.push_str("images:\n");
        for (k, v) in &s.images {
            let _ = writeln!(y, "  {}: {}", scalar(k, true), flow_value(v));
        }
    }
    if let Value::Array(nodes) = nodes_json(&s.nodes) {
        if !nodes.is_empty() {
            y.push_str("nodes:\n");
        }
        for n in nodes {
            let Value::Object(m) = n else { continue };
            let short = m
                .keys()
                .all(|k| ["name", "pool", "count", "from"].contains(&k.as_str()));
            if short && m.contains_key("pool") {
                let _ = writeln!(y, "  - {}", flow_map(&m));
                continue;
            }
            // In the order the format lists the keys: name/pool first.
            let mut first = true;
            for &k in crate::format::NODE_KEYS {
                let Some(v) = m.get(k) else { continue };
                let lead = if first { "  - " } else { "    " };
                first = false;
                node_field(&mut y, lead, k, v);
            }
        }
    }
    if !s.files.is_empty() {
        y.push_str("files:\n");
        for (name, text) in &s.files {
            let _ = write!(y, "  {}: ", scalar(name, true));
            value_text(&mut y, text, 4);
        }
    }
    if !s.script.is_empty() {
        y.push_str("script:\n");
        for line in &s.script {
            match &line.step {
                Step::Run(cmd) => {
                    y.push_str("  - ");
                    value_text(&mut y, cmd, 4);
                }
                Step::Expect { command, check } => {
                    y.push_str("  - expect: ");
                    value_text(&mut y, command, 6);
                    let (k, v) = match check {
                        Check::Equals(v) => ("equals", v),
                        Check::Contains(v) => ("contains", v),
                    };
                    let _ = write!(y, "    {k}: ");
                    value_text(&mut y, v, 6);
                }
            }
        }
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_are_written_back_as_pools() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            name_runs(&names(&["worker2", "worker3", "worker4"])),
            vec![Names::Pool {
                pool: "worker".into(),
                count: 3,
                from: 2
            }]
        );
        assert_eq!(
            name_runs(&names(&["w9", "w10"])),
            vec![Names::Pool {
                pool: "w".into(),
                count: 2,
                from: 9
            }]
        );
        // A pool named `w0` from 9: w09, w010.
        assert_eq!(
            name_runs(&names(&["w09", "w010"])),
            vec![Names::Pool {
                pool: "w0".into(),
                count: 2,
                from: 9
            }]
        );
        assert_eq!(
            name_runs(&names(&["a", "b1", "b2"])),
            vec![
                Names::One("a".into()),
                Names::Pool {
                    pool: "b".into(),
                    count: 2,
                    from: 1
                }
            ]
        );
    }

    #[test]
    fn plain_scalars_only_where_yaml_reads_them_back() {
        for s in [
            "worker",
            "32Gi",
            "100m",
            "kubectl get ds",
            "node-role.kubernetes.io/x",
        ] {
            assert!(plain_ok(s, false), "{s}");
        }
        for s in [
            "",
            "yes",
            "No",
            "1",
            "1.5",
            "1e3",
            "0x1F",
            "-x",
            "a: b",
            "a #b",
            "x:",
            " a",
            "a ",
            "'a'",
            "*a",
            "&a",
            "!a",
            "1:30",
            "2024-01-01",
        ] {
            assert!(!plain_ok(s, false), "{s}");
        }
        assert!(!plain_ok("a,b", true) && !plain_ok("a b", true) && !plain_ok("a:b", true));
    }
}
