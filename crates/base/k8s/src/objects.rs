//! Small facts about the `k8s.io/api` types that more than one layer prints or reads: a taint
//! as `Taint.ToString()` writes it, the template a ControllerRevision records, well-known
//! annotation keys.

use k8s_openapi::api::apps::v1::ControllerRevision;
use k8s_openapi::api::core::v1::Taint;
use serde_json::Value;

/// Annotation `kubectl rollout history` reads from revisions (`kubernetes.io/change-cause`).
pub const CHANGE_CAUSE_ANNOTATION: &str = "kubernetes.io/change-cause";

/// `Taint.ToString()`: `key=value:Effect`, or `key:Effect` without a value.
pub fn taint_string(t: &Taint) -> String {
    match t.value.as_deref() {
        Some(v) if !v.is_empty() => format!("{}={}:{}", t.key, v, t.effect),
        _ => format!("{}:{}", t.key, t.effect),
    }
}

/// The template a DaemonSet's revision records (its patch without the `$patch` directive), as
/// JSON.
///
/// Decoding it into a `PodTemplateSpec` is the API server's job (`apiserver::decode_json`):
/// one decoder for every object keeps a second copy of the Kubernetes types' deserializers out
/// of the web app.
pub fn revision_template(rev: &ControllerRevision) -> Option<Value> {
    let mut t = rev.data.0.get("spec")?.get("template")?.clone();
    if let Value::Object(m) = &mut t {
        m.remove("$patch");
    }
    Some(t)
}
