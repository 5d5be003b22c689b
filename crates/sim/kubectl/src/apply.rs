//! `kubectl apply -f` and `kubectl create -f`.
//!
//! Apply is client-side apply as `pkg/cmd/apply/apply.go` (`applyOneObject`) and `patcher.go`
//! (`patchSimple`) do it: an object that does not exist is created with the
//! `kubectl.kubernetes.io/last-applied-configuration` annotation (`CreateApplyAnnotation`);
//! one that exists gets the three-way strategic merge patch between that annotation, the
//! manifest and the live object (`crate::strategic`), so fields others set (`set env`,
//! `rollout restart`, `label`, `patch`) stay and fields the manifest dropped go. The patch is
//! applied here, as the API server would, and the result sent as an update: the `Api` has no
//! patch verb. Messages as kubectl prints them.

use apiserver::Manifest;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde_json::{Map, Value};

use crate::api::{Api, ApiError};
use crate::object;
use crate::parse::Command;
use crate::resource::Resource;
use crate::strategic::{self, Schema};
use crate::{CommandResult, Fail};
use k8s_base::ApplyOutcome;

/// `corev1.LastAppliedConfigAnnotation`.
pub(crate) const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

fn manifest_resource(m: &Manifest) -> Resource {
    match m {
        Manifest::DaemonSet(..) => Resource::DaemonSet,
        Manifest::Node(..) => Resource::Node,
        Manifest::Pod(..) => Resource::Pod,
        Manifest::ControllerRevision(..) => Resource::ControllerRevision,
    }
}

fn metadata_mut(m: &mut Manifest) -> &mut ObjectMeta {
    match m {
        Manifest::DaemonSet(o, _) => &mut o.metadata,
        Manifest::Pod(o, _) => &mut o.metadata,
        Manifest::ControllerRevision(o, _) => &mut o.metadata,
        Manifest::Node(o, _) => &mut o.metadata,
    }
}

fn manifest_json(m: &Manifest) -> Value {
    match m {
        Manifest::DaemonSet(o, _) => codec::to_json(&**o),
        Manifest::Node(o, _) => codec::to_json(&**o),
        Manifest::Pod(o, _) => codec::to_json(&**o),
        Manifest::ControllerRevision(o, _) => codec::to_json(&**o),
    }
}

pub(crate) fn apply(api: &mut dyn Api, cmd: &Command) -> Result<CommandResult, Fail> {
    let create = cmd.verb == crate::Verb::Create;
    let verb = if create { "create" } else { "apply" };
    let files = cmd.flag_all("filename");
    if files.is_empty() {
        if let Some(a) = cmd.args.first() {
            if create {
                return Err(Fail::new(format!(
                    "error: \"kubectl create {a}\" is not available in this playground"
                ))
                .hint("create objects from a manifest: `kubectl create -f FILE`"));
            }
        }
        return Err(Fail::new(format!(
            "error: must specify one of -f and -k\n\nSee 'kubectl {verb} -h' for help and examples"
        ))
        .hint(format!("name a scenario file: `kubectl {verb} -f ds.yaml`")));
    }
    let mut res = CommandResult::default();
    for f in files {
        let Some(text) = api.file(f) else {
            res.fail(
                Fail::new(format!("error: the path {f:?} does not exist"))
                    .hint("files come from the scenario's `files:` section; check the name"),
            );
            continue;
        };
        let manifests = match apiserver::decode_manifests(f, &text) {
            Ok(m) => m,
            Err(e) => {
                let hint = match &e.hint {
                    Some(h) => format!("{}:{}:{}: {h}", e.source_name, e.line, e.column),
                    None => format!("{}:{}:{}", e.source_name, e.line, e.column),
                };
                res.fail(Fail::new(e.message.clone()).hint(hint));
                continue;
            }
        };
        for mut m in manifests {
            if let Err(f) = fill_namespace(&mut m, cmd) {
                res.fail(f);
                continue;
            }
            let kind = manifest_resource(&m).singular();
            let name = m.name().to_string();
            let done = if create {
                api.create(m)
                    .map(|()| ApplyOutcome::Created)
                    .map_err(|e| api_fail(e, &format!("error when creating {f:?}")))
            } else {
                apply_one(api, m, f, &mut res.stderr)
            };
            match done {
                Ok(outcome) => {
                    res.stdout
                        .push_str(&format!("{kind}/{name} {}\n", outcome.as_str()));
                }
                Err(fail) => res.fail(fail),
            }
        }
    }
    Ok(res)
}

/// An API error as kubectl words it, the file named for the errors that name no file.
fn api_fail(e: ApiError, context: &str) -> Fail {
    let message = match &e {
        ApiError::AlreadyExists { .. } | ApiError::NotFound { .. } => e.in_context(context),
        _ => e.to_string(),
    };
    Fail {
        message,
        hint: e.hint(),
    }
}

/// `applyOneObject` for one manifest: create with the annotation, or patch.
fn apply_one(
    api: &mut dyn Api,
    mut m: Manifest,
    file: &str,
    stderr: &mut String,
) -> Result<ApplyOutcome, Fail> {
    let (last_applied, modified) = modified_configuration(&m);
    let resource = manifest_resource(&m);
    let ns = m.metadata().namespace.clone().unwrap_or_default();
    let name = m.name().to_string();
    let Some(live) = object::get(api, resource, &ns, &name) else {
        metadata_mut(&mut m)
            .annotations
            .get_or_insert_with(Default::default)
            .insert(LAST_APPLIED.into(), last_applied);
        api.create(m)
            .map_err(|e| api_fail(e, &format!("error when creating {file:?}")))?;
        return Ok(ApplyOutcome::Created);
    };
    let current = live.to_json();
    let original = match current
        .pointer("/metadata/annotations")
        .and_then(|a| a.get(LAST_APPLIED))
        .and_then(Value::as_str)
    {
        Some(text) => match serde_json::from_slice::<Value>(text.as_bytes()) {
            Ok(Value::Object(o)) => Some(o),
            _ => {
                return Err(Fail::new(format!(
                    "error: error when applying patch to {file:?}: invalid JSON document in the {LAST_APPLIED} annotation"
                ))
                .hint(format!("remove the annotation: `kubectl annotate {} {name} {LAST_APPLIED}-`", resource.singular())))
            }
        },
        None => {
            let plural = resource.plural().split('.').next().unwrap_or("");
            stderr.push_str(&format!(
                "Warning: resource {plural}/{name} is missing the {LAST_APPLIED} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n"
            ));
            None
        }
    };
    let (Value::Object(modified), Value::Object(current_map)) = (&modified, &current) else {
        return Err(Fail::new("error: objects must be JSON objects"));
    };
    let schema = Schema::of_kind(m.kind());
    let patch =
        strategic::create_three_way_merge_patch(original.as_ref(), modified, current_map, schema)
            .map_err(|e| Fail::new(format!("error: error when applying patch to {file:?}: {e}")))?;
    // `WarnIfDeleting`, whether or not there is anything to patch.
    if live.meta().deletion_timestamp.is_some() {
        stderr.push_str(&format!(
            "Warning: Detected changes to resource {name} which is currently being deleted.\n"
        ));
    }
    if patch.is_empty() {
        return Ok(ApplyOutcome::Unchanged);
    }
    let patched = strategic::strategic_merge_patch(&current, &Value::Object(patch), schema)
        .map_err(|e| Fail::new(format!("Error from server (BadRequest): {e}")))?;
    let bad = |e: String| {
        Fail::new(format!("Error from server (BadRequest): {e}"))
            .hint("the merged object no longer matches the API schema; check field names and types")
    };
    let context = format!("error when applying patch to {file:?}");
    let sent = match resource {
        Resource::DaemonSet => api
            .update_daemon_set(apiserver::decode_json(&patched).map_err(bad)?)
            .map(drop),
        Resource::Node => api
            .update_node(apiserver::decode_json(&patched).map_err(bad)?)
            .map(drop),
        Resource::Pod => api
            .update_pod(apiserver::decode_json(&patched).map_err(bad)?)
            .map(drop),
        _ => return Err(Fail::new(format!(
            "error: changing {} is not available in this playground",
            resource.plural()
        ))
        .hint(
            "ControllerRevisions are snapshots the controller writes; apply the DaemonSet instead",
        )),
    };
    sent.map_err(|e| api_fail(e, &context))?;
    Ok(ApplyOutcome::Configured)
}

/// `GetModifiedConfiguration(obj, annotate=true)`: the annotation's text (the manifest as JSON
/// without the annotation, `metadata.annotations` present even when empty, and the trailing
/// newline of Go's `json.Encoder`), and the manifest carrying it, which the patch compares.
fn modified_configuration(m: &Manifest) -> (String, Value) {
    let mut v = manifest_json(m);
    let set_annotations = |v: &mut Value, annotations: Map<String, Value>| {
        if let Some(meta) = v.as_object_mut().map(|o| {
            o.entry("metadata")
                .or_insert_with(|| Value::Object(Map::new()))
        }) {
            if let Some(meta) = meta.as_object_mut() {
                meta.insert("annotations".into(), Value::Object(annotations));
            }
        }
    };
    let mut annotations = v
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    annotations.remove(LAST_APPLIED);
    set_annotations(&mut v, annotations.clone());
    let mut text = String::new();
    go_json(&v, &mut text);
    text.push('\n');
    annotations.insert(LAST_APPLIED.into(), Value::String(text.clone()));
    set_annotations(&mut v, annotations);
    (text, v)
}

/// Go's `encoding/json` encoding of an unstructured object: compact, keys sorted, and `<`, `>`,
/// `&`, U+2028, U+2029 escaped (HTML-safe, the encoder's default).
fn go_json(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            sort::sort(&mut keys);
            go_list(('{', '}'), keys, out, |k, out| {
                go_string(k, out);
                out.push(':');
                go_json(&m[k], out);
            });
        }
        Value::Array(l) => go_list(('[', ']'), l, out, go_json),
        Value::String(s) => go_string(s, out),
        other => out.push_str(&other.to_string()),
    }
}

/// `items` between `brackets`, separated by commas.
fn go_list<T>(
    (open, close): (char, char),
    items: impl IntoIterator<Item = T>,
    out: &mut String,
    mut each: impl FnMut(T, &mut String),
) {
    out.push(open);
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        each(x, out);
    }
    out.push(close);
}

fn go_string(s: &str, out: &mut String) {
    let quoted = Value::String(s.to_string()).to_string();
    for c in quoted.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
}

/// kubectl sends namespaced objects to `-n` (or `default`) unless they name their own.
fn fill_namespace(m: &mut Manifest, cmd: &Command) -> Result<(), Fail> {
    if matches!(m, Manifest::Node(..)) {
        return Ok(());
    }
    let meta = metadata_mut(m);
    let ns = cmd.namespace();
    match meta.namespace.as_deref().filter(|n| !n.is_empty()) {
        None => meta.namespace = Some(ns.to_string()),
        Some(own) if cmd.flag("namespace").is_some() && own != ns => {
            return Err(Fail::new(format!(
                "error: the namespace from the provided object {own:?} does not match the namespace {ns:?}. You must pass '--namespace={own}' to perform this operation."
            )))
        }
        Some(_) => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(yaml: &str) -> Manifest {
        apiserver::decode_manifests("ds.yaml", yaml)
            .expect("decodes")
            .remove(0)
    }

    /// `GetModifiedConfiguration`: compact JSON, keys sorted, an empty `annotations`, the
    /// encoder's newline; HTML characters escaped as Go does.
    #[test]
    fn get_modified_configuration_writes_the_annotation_as_kubectl_does() {
        let mut m = manifest(
            "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: x\n  labels: {b: \"<&>\", a: \"1\"}\nspec:\n  selector: {matchLabels: {app: x}}\n  template:\n    metadata: {labels: {app: x}}\n    spec:\n      containers: [{name: c, image: busybox}]\n",
        );
        metadata_mut(&mut m).namespace = Some("default".into());
        let (text, modified) = modified_configuration(&m);
        assert_eq!(
            text,
            "{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"annotations\":{},\"labels\":{\"a\":\"1\",\"b\":\"\\u003c\\u0026\\u003e\"},\"name\":\"x\",\"namespace\":\"default\"},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"x\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"x\"}},\"spec\":{\"containers\":[{\"image\":\"busybox\",\"name\":\"c\"}]}}}}\n"
        );
        assert_eq!(
            modified
                .pointer("/metadata/annotations")
                .and_then(|a| a.get(LAST_APPLIED)),
            Some(&Value::String(text.clone()))
        );
        // Parsed back, the annotation is the manifest without itself.
        let back: Value = serde_json::from_slice(text.as_bytes()).expect("JSON");
        assert_eq!(
            back.pointer("/metadata/labels/b"),
            Some(&Value::String("<&>".into()))
        );
    }
}
