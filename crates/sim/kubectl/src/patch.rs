//! `kubectl patch`: JSON merge patch (RFC 7386), JSON patch (RFC 6902) and strategic merge
//! patch (`crate::strategic`, lists merged by their patch merge key).

use serde_json::{Map, Value};

use crate::api::{Api, ApiError};
use crate::object;
use crate::parse::Command;
use crate::resource::{self, Resource};
use crate::strategic;
use crate::{CommandResult, Fail};

pub(crate) fn patch(api: &mut dyn Api, cmd: &Command) -> Result<CommandResult, Fail> {
    let ((r, name), rest) = resource::single(&cmd.args, "patch")?;
    if let Some(extra) = rest.first() {
        return Err(Fail::new(format!("error: unexpected argument {extra:?}"))
            .hint("quote the patch and pass it with -p: -p '{\"spec\":{…}}'"));
    }
    let Some(text) = cmd.flag("patch") else {
        return Err(Fail::new("error: must specify -p to patch")
            .hint("e.g. `kubectl patch ds NAME -p '{\"spec\":{\"minReadySeconds\":10}}'`"));
    };
    let ty = cmd.flag("type").unwrap_or("strategic");
    if !matches!(ty, "strategic" | "merge" | "json") {
        return Err(Fail::new(format!(
            "error: --type must be one of [json merge strategic], not {ty:?}"
        )));
    }
    // `from_slice` (the app's one instance of serde_json's parser); same messages as `from_str`.
    let patch: Value = serde_json::from_slice(text.as_bytes()).map_err(|e| {
        Fail::new(format!("error: unable to parse {text:?}: {e}"))
            .hint("the patch must be JSON; quote it in single quotes so the shell keeps the double quotes")
    })?;
    let ns = cmd.namespace().to_string();
    let current = object::get(api, r, &ns, &name)
        .ok_or_else(|| Fail::from(ApiError::not_found(r.plural(), &name)))?;
    let before = current.to_json();
    let after = match ty {
        "merge" => {
            let mut v = before.clone();
            merge_patch(&mut v, &patch);
            v
        }
        "json" => json_patch(&before, &patch).map_err(|e| {
            Fail::new(format!("error: {e}")).hint(
                "JSON patches are lists of {\"op\":\"replace\",\"path\":\"/spec/…\",\"value\":…}",
            )
        })?,
        _ => {
            if !patch.is_object() {
                return Err(Fail::new(format!(
                    "error: unable to parse {text:?}: strategic merge patches must be JSON objects"
                )));
            }
            let kind = before.get("kind").and_then(Value::as_str).unwrap_or("");
            strategic::strategic_merge_patch(&before, &patch, strategic::Schema::of_kind(kind))
                .map_err(|e| Fail::new(format!("Error from server (BadRequest): {e}")))?
        }
    };
    let singular = r.singular();
    if after == before {
        return Ok(CommandResult::out(format!(
            "{singular}/{name} patched (no change)\n"
        )));
    }
    let bad = |e: String| {
        Fail::new(format!("Error from server (BadRequest): {e}")).hint(
            "the patched object no longer matches the API schema; check field names and types",
        )
    };
    match r {
        Resource::DaemonSet => {
            api.update_daemon_set(apiserver::decode_json(&after).map_err(bad)?)?;
        }
        Resource::Node => {
            api.update_node(apiserver::decode_json(&after).map_err(bad)?)?;
        }
        Resource::Pod => {
            api.update_pod(apiserver::decode_json(&after).map_err(bad)?)?;
        }
        other => {
            return Err(Fail::new(format!(
                "error: patching {} is not available in this playground",
                other.plural()
            )))
        }
    }
    Ok(CommandResult::out(format!("{singular}/{name} patched\n")))
}

/// RFC 7386.
pub(crate) fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(p) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    if let Value::Object(t) = target {
        for (k, v) in p {
            if v.is_null() {
                t.remove(k);
            } else {
                merge_patch(t.entry(k.clone()).or_insert(Value::Null), v);
            }
        }
    }
}

fn pointer_parts(path: &str) -> Result<Vec<String>, String> {
    if path.is_empty() {
        return Ok(vec![]);
    }
    let Some(rest) = path.strip_prefix('/') else {
        return Err(format!(
            "invalid JSON pointer {path:?}: must start with \"/\""
        ));
    };
    Ok(rest
        .split('/')
        .map(|p| p.replace("~1", "/").replace("~0", "~"))
        .collect())
}

/// RFC 6902 (add, remove, replace, test, move, copy).
pub(crate) fn json_patch(doc: &Value, patch: &Value) -> Result<Value, String> {
    let Value::Array(ops) = patch else {
        return Err("json patch must be a list of operations".into());
    };
    let mut doc = doc.clone();
    for op in ops {
        let kind = op.get("op").and_then(Value::as_str).unwrap_or("");
        let path = op
            .get("path")
            .and_then(Value::as_str)
            .ok_or("json patch operation without a path")?;
        let parts = pointer_parts(path)?;
        match kind {
            "add" | "replace" | "test" => {
                let value = op
                    .get("value")
                    .cloned()
                    .ok_or(format!("{kind} operation does not have a value"))?;
                if kind == "test" {
                    if doc.pointer(path) != Some(&value) {
                        return Err(format!("testing value {path} failed"));
                    }
                    continue;
                }
                if kind == "replace" && doc.pointer(path).is_none() {
                    return Err(format!("replace operation does not apply: doc is missing key: {path}: missing value"));
                }
                put(&mut doc, &parts, value, kind == "add")?;
            }
            "remove" => {
                take(&mut doc, &parts).ok_or(format!(
                    "remove operation does not apply: doc is missing path: {path}: missing value"
                ))?;
            }
            "move" | "copy" => {
                let from = op
                    .get("from")
                    .and_then(Value::as_str)
                    .ok_or(format!("{kind} operation without from"))?;
                let from_parts = pointer_parts(from)?;
                let v = if kind == "move" {
                    take(&mut doc, &from_parts)
                } else {
                    doc.pointer(from).cloned()
                }
                .ok_or(format!(
                    "{kind} operation does not apply: doc is missing from path: {from}"
                ))?;
                put(&mut doc, &parts, v, true)?;
            }
            other => return Err(format!("Unexpected kind: {other}")),
        }
    }
    Ok(doc)
}

fn put(doc: &mut Value, parts: &[String], value: Value, insert: bool) -> Result<(), String> {
    let Some((last, parents)) = parts.split_last() else {
        *doc = value;
        return Ok(());
    };
    let mut cur = doc;
    for p in parents {
        cur = match cur {
            Value::Object(m) => m.get_mut(p).ok_or(format!("doc is missing path: {p}"))?,
            Value::Array(a) => {
                let i: usize = p.parse().map_err(|_| format!("invalid index {p}"))?;
                a.get_mut(i).ok_or(format!("index {i} out of bounds"))?
            }
            _ => return Err(format!("doc is missing path: {p}")),
        };
    }
    match cur {
        Value::Object(m) => {
            m.insert(last.clone(), value);
        }
        Value::Array(a) => {
            if last == "-" {
                a.push(value);
            } else {
                let i: usize = last.parse().map_err(|_| format!("invalid index {last}"))?;
                if insert {
                    if i > a.len() {
                        return Err(format!("index {i} out of bounds"));
                    }
                    a.insert(i, value);
                } else {
                    *a.get_mut(i).ok_or(format!("index {i} out of bounds"))? = value;
                }
            }
        }
        _ => return Err(format!("doc is missing path: {last}")),
    }
    Ok(())
}

fn take(doc: &mut Value, parts: &[String]) -> Option<Value> {
    let (last, parents) = parts.split_last()?;
    let mut cur = doc;
    for p in parents {
        cur = match cur {
            Value::Object(m) => m.get_mut(p)?,
            Value::Array(a) => a.get_mut(p.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    match cur {
        Value::Object(m) => m.remove(last),
        Value::Array(a) => {
            let i: usize = last.parse().ok()?;
            (i < a.len()).then(|| a.remove(i))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_patch_ops() {
        let doc = json!({"a": [1, 2], "b": {"c": 1}});
        let out = json_patch(
            &doc,
            &json!([
                {"op": "add", "path": "/a/-", "value": 3},
                {"op": "replace", "path": "/b/c", "value": 2},
                {"op": "remove", "path": "/a/0"},
                {"op": "test", "path": "/b/c", "value": 2}
            ]),
        )
        .unwrap();
        assert_eq!(out, json!({"a": [2, 3], "b": {"c": 2}}));
        assert!(json_patch(&doc, &json!([{"op": "replace", "path": "/x", "value": 1}])).is_err());
    }
}
