//! Importing a real cluster's nodes: the output of `kubectl get nodes -o yaml` or `-o json` (a
//! `List`), a single Node manifest, or several YAML documents of Nodes, as scenario node
//! entries.
//!
//! Keeps what decides where daemon pods go: name, labels, taints, capacity, allocatable,
//! conditions (type and status) and `unschedulable`. Drops the rest (managedFields,
//! annotations, images, addresses, nodeInfo, timestamps). Reads only the fields it keeps, so a
//! newer cluster's extra status fields never get in the way. Every mistake is a
//! [`ScenarioError`] with line:column (of the offending field) and a hint.
//!
//! Knows nothing of the cluster or the UI; the entries become Nodes through
//! [`NodeEntry::node`] like any scenario's.

use std::collections::{BTreeMap, BTreeSet};

use apiserver::decode::{yaml_documents, yaml_to_json};
use apiserver::SourceMap;
use k8s_openapi::api::core::v1::Taint;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use serde_json::{Map, Value};

use crate::format::{NodeEntry, Scenario, ScenarioError, MAX_NODES};

const HINT_EXPORT: &str =
    "import the output of `kubectl get nodes -o yaml` (or -o json), or Node manifests";

/// Fields the import never reads, by the key of the map they are in. In kubectl's output of
/// real nodes they are most of the text (managedFields alone is often half).
const UNREAD: &[(&str, &[&str])] = &[
    (
        "metadata",
        &[
            "managedFields",
            "annotations",
            "creationTimestamp",
            "resourceVersion",
            "uid",
            "generation",
            "ownerReferences",
            "finalizers",
            "selfLink",
        ],
    ),
    (
        "spec",
        &["podCIDR", "podCIDRs", "providerID", "configSource"],
    ),
    (
        "status",
        &[
            "images",
            "addresses",
            "nodeInfo",
            "daemonEndpoints",
            "volumesAttached",
            "volumesInUse",
            "runtimeHandlers",
            "features",
            "config",
            "declaredFeatures",
        ],
    ),
    (
        "conditions",
        &[
            "lastHeartbeatTime",
            "lastTransitionTime",
            "message",
            "reason",
        ],
    ),
];

/// `text` with the fields in [`UNREAD`] blanked out of block-style YAML (kubectl's layout),
/// so that parsing skips them while every other line keeps its number and columns.
///
/// Tracks the block mapping keys above each line by indentation. A field is its key line
/// (a leading `- ` is kept: it opens a sequence item) and every following line indented
/// deeper, blank, or, for a block value, at the key's indent starting with `- ` (a sequence
/// under the key, as kubectl writes it). Flow-style or quoted keys are left alone: parsing
/// them is only slower, never different.
fn blank_unread_blocks(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("managedFields:") && !text.contains("images:") {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    // Block mapping keys above the current line: (column of the key, key).
    let mut stack: Vec<(usize, &str)> = Vec::new();
    // While blanking a field: its key's column, and whether a `- ` at that column continues it.
    let mut skipping: Option<(usize, bool)> = None;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let eol = &line[body.len()..];
        let content = body.trim_start_matches(' ');
        let indent = body.len() - content.len();
        if let Some((col, seq_ok)) = skipping {
            let inside = content.is_empty()
                || indent > col
                || (seq_ok && indent == col && (content.starts_with("- ") || content == "-"));
            if inside {
                out.push_str(eol);
                continue;
            }
            skipping = None;
        }
        if content.is_empty() || content.starts_with('#') {
            out.push_str(line);
            continue;
        }
        // `- - key: v`: the key starts after the dashes.
        let mut key_col = indent;
        let mut rest = content;
        while let Some(r) = rest.strip_prefix("- ") {
            key_col += 2;
            rest = r.trim_start_matches(' ');
            key_col += r.len() - rest.len();
        }
        let dashed = key_col > indent;
        // Entries at or right of this key's column are no longer above it; a sequence item's
        // `-` sits at its parent key's column, so that key stays.
        let keep_upto = if dashed {
            indent
        } else {
            key_col.saturating_sub(1)
        };
        while stack.last().is_some_and(|(c, _)| *c > keep_upto) {
            stack.pop();
        }
        let Some((key, value)) = split_key(rest) else {
            out.push_str(line);
            continue;
        };
        let parent = stack.last().map(|(_, k)| *k).unwrap_or("");
        let unread = UNREAD
            .iter()
            .any(|(p, keys)| *p == parent && keys.contains(&key));
        let block_value = value.is_empty() || value.starts_with('#');
        if unread {
            if dashed {
                out.push_str(body[..key_col].trim_end_matches(' '));
            }
            out.push_str(eol);
            skipping = Some((key_col, block_value));
            continue;
        }
        if block_value {
            stack.push((key_col, key));
        }
        out.push_str(line);
    }
    std::borrow::Cow::Owned(out)
}

/// `key: value` → (key, value) for a plain key; None for anything else (a scalar item, a
/// quoted or flow key, a block scalar's text).
fn split_key(rest: &str) -> Option<(&str, &str)> {
    let (key, value) = match rest.find(": ") {
        Some(i) => (&rest[..i], rest[i + 2..].trim_start()),
        None => (rest.strip_suffix(':')?, ""),
    };
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c));
    plain.then_some((key, value))
}

/// One Node object found in the input, with where it is.
struct Found<'a> {
    /// Its path in its document (`items[3]`, or `` for a document that is the Node).
    path: String,
    doc: usize,
    value: &'a Value,
}

/// Where a field was written. JSON is read without a source map (fast); the map is built only
/// when an error needs a location.
struct Locator<'a> {
    source: &'a str,
    text: &'a str,
    maps: Option<Vec<SourceMap>>,
}

impl Locator<'_> {
    fn err(&self, doc: usize, path: &str, message: String, hint: &str) -> ScenarioError {
        let built: Option<Vec<SourceMap>>;
        let maps = match &self.maps {
            Some(m) => Some(m),
            None => {
                built = yaml_documents(self.source, self.text)
                    .ok()
                    .map(|d| d.into_iter().map(|(_, m)| m).collect());
                built.as_ref()
            }
        };
        let (line, column) = maps
            .and_then(|m| m.get(doc))
            .and_then(|m| m.locate(path))
            .unwrap_or((1, 1));
        let shown = if path.is_empty() {
            message
        } else {
            format!("{path}: {message}")
        };
        ScenarioError {
            source_name: self.source.to_string(),
            line,
            column,
            message: shown,
            hint: Some(hint.to_string()),
        }
    }
}

/// Reads the nodes of `text` (YAML or JSON) as one node entry each, in the input's order.
pub fn import_nodes(source_name: &str, text: &str) -> Result<Vec<NodeEntry>, ScenarioError> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    // `-o json` is read by serde_json (fast); several JSON documents, or YAML, by the YAML reader.
    let json = trimmed
        .starts_with('{')
        // `from_slice`, as share links read theirs: one copy of serde_json's parser in the app.
        .then(|| serde_json::from_slice::<Value>(trimmed.as_bytes()));
    let (docs, loc) = if let Some(json) =
        json.filter(|r| r.is_ok() || yaml_documents(source_name, text).is_err())
    {
        let value: Value = json.map_err(|e| {
            // Lines and columns of the trimmed text: count what was trimmed off the front.
            let skipped = &text[..text.len() - trimmed.len()];
            let line = e.line() + skipped.matches('\n').count();
            ScenarioError {
                source_name: source_name.to_string(),
                line: line.max(1),
                column: e.column().max(1),
                message: format!("not valid JSON: {e}"),
                hint: Some(format!("{HINT_EXPORT}; the file may be cut short")),
            }
        })?;
        (
            vec![value],
            Locator {
                source: source_name,
                text,
                maps: None,
            },
        )
    } else {
        // Parsed without a source map (it is built only for an error), and with the blocks
        // the import never reads blanked out first: they are most of the text.
        let values = yaml_to_json(source_name, &blank_unread_blocks(text))
            .map_err(|e| ScenarioError::from_yaml(source_name, &e))?;
        (
            values,
            Locator {
                source: source_name,
                text,
                maps: None,
            },
        )
    };
    let mut found = Vec::new();
    for (doc, value) in docs.iter().enumerate() {
        collect(&loc, doc, value, String::new(), &mut found)?;
    }
    if found.is_empty() {
        return Err(ScenarioError {
            source_name: source_name.to_string(),
            line: 1,
            column: 1,
            message: "no nodes in this file".into(),
            hint: Some(HINT_EXPORT.into()),
        });
    }
    if found.len() > MAX_NODES {
        return Err(loc.err(
            found[MAX_NODES].doc,
            &found[MAX_NODES].path,
            format!(
                "{} nodes: more than the limit of {MAX_NODES}",
                found.len()
            ),
            "5,000 nodes is the upstream scalability limit; import a part of the cluster (e.g. `kubectl get nodes -l cloud.google.com/gke-nodepool=POOL -o yaml`)",
        ));
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::with_capacity(found.len());
    for f in &found {
        let entry = read_node(&loc, f)?;
        if !seen.insert(entry.names[0].clone()) {
            return Err(loc.err(
                f.doc,
                &join(&f.path, "metadata.name"),
                format!("node {:?} appears twice", entry.names[0]),
                "node names are unique in a cluster: remove the second copy",
            ));
        }
        out.push(entry);
    }
    Ok(out)
}

fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    }
}

fn collect<'a>(
    loc: &Locator,
    doc: usize,
    v: &'a Value,
    path: String,
    out: &mut Vec<Found<'a>>,
) -> Result<(), ScenarioError> {
    let Value::Object(m) = v else {
        return Err(loc.err(
            doc,
            &path,
            "expected a Node or a List of Nodes, found something that is not a map".into(),
            HINT_EXPORT,
        ));
    };
    let kind = m.get("kind").and_then(Value::as_str).unwrap_or("");
    match kind {
        "Node" => {
            out.push(Found {
                path,
                doc,
                value: v,
            });
            Ok(())
        }
        "List" | "NodeList" => match m.get("items") {
            None | Some(Value::Null) => Ok(()),
            Some(Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    collect(loc, doc, item, join(&path, &format!("items[{i}]")), out)?;
                }
                Ok(())
            }
            Some(_) => Err(loc.err(
                doc,
                &join(&path, "items"),
                "`items` must be a list".into(),
                HINT_EXPORT,
            )),
        },
        "" if m.contains_key("scenario") => Err(loc.err(
            doc,
            &path,
            "this is a scenario file, not a list of nodes".into(),
            "--nodes takes the output of `kubectl get nodes -o yaml` (or -o json), or Node manifests",
        )),
        "" => Err(loc.err(
            doc,
            &path,
            "this object has no `kind`".into(),
            "a Node manifest starts with `apiVersion: v1` and `kind: Node`",
        )),
        other => Err(loc.err(
            doc,
            &join(&path, "kind"),
            format!("expected a Node, found a {other}"),
            "only nodes can be imported: `kubectl get nodes -o yaml` lists them all",
        )),
    }
}

/// What is wrong with one field of a found node, and the export hint.
fn field_err(loc: &Locator, f: &Found, field: &str, message: String) -> ScenarioError {
    loc.err(f.doc, &join(&f.path, field), message, HINT_EXPORT)
}

fn str_at<'v>(m: &'v Map<String, Value>, key: &str) -> Option<&'v Value> {
    m.get(key).filter(|v| !v.is_null())
}

/// A map of strings (labels; capacity values, where kubectl may print a bare number).
fn string_map(
    loc: &Locator,
    f: &Found,
    field: &str,
    v: Option<&Value>,
    numbers_ok: bool,
) -> Result<BTreeMap<String, String>, ScenarioError> {
    match v {
        None | Some(Value::Null) => Ok(BTreeMap::new()),
        Some(Value::Object(m)) => sort::try_map(m.iter().map(|(k, v)| match v {
                Value::String(s) => Ok((k.clone(), s.clone())),
                Value::Number(n) if numbers_ok => Ok((k.clone(), n.to_string())),
                other => Err(loc.err(
                    f.doc,
                    &join(&f.path, &format!("{field}.{k}")),
                    format!("must be a string, found {}", crate::format::json_kind(other)),
                    "quote the value: YAML 1.1 reads unquoted yes/no/true/false as booleans and 1 as a number",
                )),
            })),
        Some(other) => {
            let found = crate::format::json_kind(other);
            Err(field_err(loc, f, field, format!("must be a map, found {found}")))
        }
    }
}

fn read_node(loc: &Locator, f: &Found) -> Result<NodeEntry, ScenarioError> {
    let empty = Map::new();
    let obj = f.value.as_object().unwrap_or(&empty);
    let section = |key: &str| -> Result<&Map<String, Value>, ScenarioError> {
        match str_at(obj, key) {
            None => Ok(&empty),
            Some(Value::Object(m)) => Ok(m),
            Some(other) => Err(field_err(
                loc,
                f,
                key,
                format!("must be a map, found {}", crate::format::json_kind(other)),
            )),
        }
    };
    let meta = section("metadata")?;
    let spec = section("spec")?;
    let status = section("status")?;
    let name_path = join(&f.path, "metadata.name");
    let name = match str_at(meta, "name") {
        Some(Value::String(n)) => n.clone(),
        Some(other) => {
            return Err(loc.err(
                f.doc,
                &name_path,
                format!(
                    "must be a string, found {}",
                    crate::format::json_kind(other)
                ),
                HINT_EXPORT,
            ))
        }
        None => {
            return Err(field_err(
                loc,
                f,
                "metadata",
                "a node needs metadata.name".into(),
            ))
        }
    };
    if !crate::format::is_node_name(&name) {
        return Err(loc.err(
            f.doc,
            &name_path,
            format!("node name {name:?} is not a valid DNS subdomain"),
            "node names use lower-case letters, digits, '-' and '.'",
        ));
    }
    let mut labels = string_map(loc, f, "metadata.labels", str_at(meta, "labels"), false)?;
    // The labels every scenario node gets anyway (`NodeEntry::node`) are left implicit.
    for (k, default) in [
        ("kubernetes.io/hostname", name.as_str()),
        ("kubernetes.io/arch", "amd64"),
        ("kubernetes.io/os", "linux"),
    ] {
        if labels.get(k).is_some_and(|v| v == default) {
            labels.remove(k);
        }
    }
    let taints = match str_at(spec, "taints") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, t)| read_taint(loc, f, i, t))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(field_err(loc, f, "spec.taints", "must be a list".into())),
    };
    let unschedulable = match str_at(spec, "unschedulable") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err(field_err(
                loc,
                f,
                "spec.unschedulable",
                "must be true or false".into(),
            ))
        }
    };
    let capacity = string_map(loc, f, "status.capacity", str_at(status, "capacity"), true)?;
    let allocatable = string_map(
        loc,
        f,
        "status.allocatable",
        str_at(status, "allocatable"),
        true,
    )?;
    let conditions = match str_at(status, "conditions") {
        None => BTreeMap::new(),
        Some(Value::Array(items)) => sort::try_map(
            items
                .iter()
                .enumerate()
                .map(|(i, c)| read_condition(loc, f, i, c)),
        )?,
        Some(_) => {
            return Err(field_err(
                loc,
                f,
                "status.conditions",
                "must be a list".into(),
            ))
        }
    };
    // Only where allocatable differs from capacity: the rest follows capacity.
    let allocatable = sort::map(
        allocatable
            .into_iter()
            .filter(|(k, v)| capacity.get(k) != Some(v))
            .map(|(k, v)| (k, Quantity(v))),
    );
    Ok(NodeEntry {
        names: vec![name],
        labels,
        taints,
        capacity: sort::map(capacity.into_iter().map(|(k, v)| (k, Quantity(v)))),
        allocatable,
        unschedulable,
        conditions,
    })
}

fn read_taint(loc: &Locator, f: &Found, i: usize, t: &Value) -> Result<Taint, ScenarioError> {
    let path = join(&f.path, &format!("spec.taints[{i}]"));
    let hint = "a taint has `key`, an optional `value` and `effect` (NoSchedule, PreferNoSchedule or NoExecute)";
    let Value::Object(m) = t else {
        return Err(loc.err(f.doc, &path, "a taint must be a map".into(), hint));
    };
    let text = |k: &str| match str_at(m, k) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(loc.err(
            f.doc,
            &format!("{path}.{k}"),
            "must be a string".into(),
            hint,
        )),
    };
    let key = text("key")?.unwrap_or_default();
    if key.is_empty() || key.contains('=') {
        return Err(loc.err(
            f.doc,
            &path,
            format!("taint key {key:?} is not a valid key"),
            hint,
        ));
    }
    let effect = text("effect")?.unwrap_or_default();
    if !matches!(
        effect.as_str(),
        "NoSchedule" | "PreferNoSchedule" | "NoExecute"
    ) {
        return Err(loc.err(
            f.doc,
            &format!("{path}.effect"),
            format!(
                "taint effect {effect:?} is not one of NoSchedule, PreferNoSchedule, NoExecute"
            ),
            hint,
        ));
    }
    Ok(Taint {
        key,
        value: text("value")?.filter(|v| !v.is_empty()),
        effect,
        time_added: None,
    })
}

fn read_condition(
    loc: &Locator,
    f: &Found,
    i: usize,
    c: &Value,
) -> Result<(String, String), ScenarioError> {
    let path = join(&f.path, &format!("status.conditions[{i}]"));
    let hint = "a node condition has `type` and `status` (True, False or Unknown)";
    let field = |k: &str| match c.get(k) {
        Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
        _ => Err(loc.err(
            f.doc,
            &format!("{path}.{k}"),
            "must be a non-empty string".into(),
            hint,
        )),
    };
    let type_ = field("type")?;
    let status = field("status")?;
    if !matches!(status.as_str(), "True" | "False" | "Unknown") {
        return Err(loc.err(
            f.doc,
            &format!("{path}.status"),
            format!("condition status {status:?} is not True, False or Unknown"),
            hint,
        ));
    }
    Ok((type_, status))
}

/// Merges neighbouring entries that differ only in names forming one numbered pool
/// (`worker1`, `worker2` …), so they are written as `{pool: worker, count: N}`.
///
/// Linear in the names: an entry joins the one before when a reading of that entry's first
/// name as `<pool><number>` still numbers every name in order (the readings that do are kept
/// per entry, so nothing is compared twice). 5,000 imported nodes took 1.4 s when each join
/// re-read the whole run.
pub fn compact(entries: Vec<NodeEntry>) -> Vec<NodeEntry> {
    let mut out: Vec<NodeEntry> = Vec::with_capacity(entries.len());
    // For the last entry of `out`: the readings of its first name that number all its names.
    let mut readings: Vec<(String, u64)> = Vec::new();
    for mut e in entries {
        if let Some(last) = out.last_mut() {
            // Equal in everything but the names (compared without copying them).
            let names = std::mem::take(&mut e.names);
            let kept = std::mem::take(&mut last.names);
            let same = *last == e;
            last.names = kept;
            e.names = names;
            if same && !last.names.is_empty() && !e.names.is_empty() {
                let at = last.names.len() as u64;
                readings.retain(|(pool, from)| numbers(&e.names, pool, from.saturating_add(at)));
                if !readings.is_empty() {
                    last.names.append(&mut e.names);
                    continue;
                }
            }
        }
        readings = match e.names.first() {
            Some(first) => crate::write::splits(first)
                .into_iter()
                .filter(|(pool, from)| numbers(&e.names, pool, *from))
                .map(|(pool, from)| (pool.to_string(), from))
                .collect(),
            None => Vec::new(),
        };
        out.push(e);
    }
    out
}

/// `names` are `<pool><from>`, `<pool><from+1>` … in order.
fn numbers(names: &[String], pool: &str, from: u64) -> bool {
    names.iter().enumerate().all(|(k, n)| {
        from.checked_add(k as u64)
            .is_some_and(|num| *n == format!("{pool}{num}"))
    })
}

/// How imported nodes enter a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Merge {
    /// They are the scenario's nodes from now on.
    Replace,
    /// They join the scenario's own (a name declared twice is an error).
    Add,
}

/// Puts imported `entries` into `scenario`; `source_name` names the import in errors.
pub fn merge_nodes(
    scenario: &mut Scenario,
    entries: Vec<NodeEntry>,
    how: Merge,
    source_name: &str,
) -> Result<(), ScenarioError> {
    let err = |message: String, hint: &str| ScenarioError {
        source_name: source_name.to_string(),
        line: 1,
        column: 1,
        message,
        hint: Some(hint.to_string()),
    };
    let mut nodes = match how {
        Merge::Replace => Vec::new(),
        Merge::Add => scenario.nodes.clone(),
    };
    let mut seen = BTreeSet::new();
    seen.extend(
        nodes
            .iter()
            .flat_map(|e| e.names.iter().map(String::as_str)),
    );
    for e in &entries {
        for n in &e.names {
            if !seen.insert(n) {
                return Err(err(
                    format!("node {n:?} is already in scenario {:?}", scenario.id),
                    "replace the scenario's nodes instead of adding to them, or rename one",
                ));
            }
        }
    }
    if seen.len() > MAX_NODES {
        return Err(err(
            format!("{} nodes: more than the limit of {MAX_NODES}", seen.len()),
            "5,000 nodes is the upstream scalability limit",
        ));
    }
    // Only the imported entries are compacted: the scenario's own stay as written.
    nodes.extend(compact(entries));
    scenario.nodes = nodes;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unread_fields_become_blank_lines_and_the_rest_stays_in_place() {
        let text = "metadata:\n  annotations:\n    a: |\n      images:\n      - x\n    b: c\n  labels:\n    images: \"yes\"\n    message: kept\n  managedFields:\n  - manager: k\n    fieldsV1:\n      f:x: {}\n  name: n\nstatus:\n  conditions:\n  - lastHeartbeatTime: \"t\"\n    message: a long\n      message\n    status: \"True\"\n    type: Ready\n  images:\n  - names: [a]\n    sizeBytes: 1\n  nodeInfo: {}\n";
        let blanked = blank_unread_blocks(text);
        assert_eq!(
            blanked,
            "metadata:\n\n\n\n\n\n  labels:\n    images: \"yes\"\n    message: kept\n\n\n\n\n  name: n\nstatus:\n  conditions:\n  -\n\n\n    status: \"True\"\n    type: Ready\n\n\n\n\n"
        );
        assert_eq!(blanked.lines().count(), text.lines().count());
    }

    #[test]
    fn blanking_changes_nothing_the_import_reads() {
        let text = include_str!("../../scenario/tests/fixtures/gke-nodes.yaml");
        let blanked = blank_unread_blocks(text);
        assert!(
            blanked.len() < text.len() / 2,
            "{} of {}",
            blanked.len(),
            text.len()
        );
        let read = |t: &str| -> Vec<NodeEntry> {
            let docs = yaml_to_json("n", t).unwrap_or_default();
            let loc = Locator {
                source: "n",
                text: t,
                maps: None,
            };
            let mut found = Vec::new();
            for (doc, v) in docs.iter().enumerate() {
                let _ = collect(&loc, doc, v, String::new(), &mut found);
            }
            found
                .iter()
                .filter_map(|f| read_node(&loc, f).ok())
                .collect()
        };
        let all = read(text);
        assert_eq!(all.len(), 5);
        assert_eq!(read(&blanked), all);
    }

    /// `compact` as first written (each join re-reads the whole run): the definition the
    /// linear one must agree with.
    fn compact_by_definition(entries: Vec<NodeEntry>) -> Vec<NodeEntry> {
        let mut out: Vec<NodeEntry> = Vec::new();
        for e in entries {
            if let Some(last) = out.last_mut() {
                let blank = |x: &NodeEntry| NodeEntry {
                    names: Vec::new(),
                    ..x.clone()
                };
                if blank(last) == blank(&e) {
                    let mut names = last.names.clone();
                    names.extend(e.names.iter().cloned());
                    if crate::write::is_one_pool(&names) {
                        last.names = names;
                        continue;
                    }
                }
            }
            out.push(e);
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn compact_joins_exactly_the_runs_the_definition_joins(
            picks in proptest::collection::vec((0usize..4, 0u64..14, 0usize..3, 1usize..3), 0..40)
        ) {
            // Names from few pools and numbers, so runs, ambiguous readings (`n1` + `0` vs
            // `n` + `10`), breaks and repeats all occur; a third of the entries differ in a label.
            let pools = ["n", "n1", "worker-", "x0"];
            let entries: Vec<NodeEntry> = picks
                .iter()
                .map(|&(p, num, label, count)| NodeEntry {
                    names: (0..count as u64).map(|k| format!("{}{}", pools[p], num + k)).collect(),
                    labels: std::iter::once(("zone".to_string(), (label / 2).to_string())).collect(),
                    ..NodeEntry::default()
                })
                .collect();
            proptest::prop_assert_eq!(compact(entries.clone()), compact_by_definition(entries));
        }
    }

    #[test]
    fn compact_follows_runs_through_ambiguous_readings() {
        let entry = |n: &str| NodeEntry {
            names: vec![n.to_string()],
            ..NodeEntry::default()
        };
        // `n10`, `n11` read as pool `n1` from 0 or pool `n` from 10; only the second goes on.
        let names = [
            "n10", "n11", "n12", "n13", "n14", "n15", "n16", "n17", "n18", "n19", "n20",
        ];
        let out = compact(names.iter().map(|n| entry(n)).collect());
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(out[0].names.len(), 11);
    }
}
