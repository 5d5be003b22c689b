//! The DaemonSet registry strategy (`pkg/registry/apps/daemonset/strategy.go`): what the API
//! server does to an object on create, update and status update before validating and storing
//! it — status wiping, `metadata.generation`, and the template generation annotation
//! (R-K-3, R-K-4, R-VAL-9) — and the default deletion policy (R-DEL-1).
//!
//! Knows nothing of storage, resource versions, UIDs or clocks: the store around it owns those.

use std::collections::BTreeMap;

use k8s_openapi::api::apps::v1::{DaemonSet, DaemonSetStatus};
use serde_json::Value;

/// R-K-3: apps/v1 surface of the internal `spec.templateGeneration`.
pub const TEMPLATE_GENERATION_ANNOTATION: &str = "deprecated.daemonset.template.generation";

/// Finalizer put on an owner deleted with `propagationPolicy: Foreground` (R-DEL-2).
pub const FOREGROUND_DELETION_FINALIZER: &str = "foregroundDeletion";

/// How dependents (pods, ControllerRevisions) are treated when a DaemonSet is deleted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PropagationPolicy {
    /// Owner removed at once; the garbage collector then deletes dependents.
    Background,
    /// Owner kept (with a `foregroundDeletion` finalizer) until blocking dependents are gone.
    Foreground,
    /// Dependents lose their ownerReference and keep running.
    Orphan,
}

/// R-DEL-1: apps/v1 DaemonSets default to deleting dependents in the background.
pub fn default_garbage_collection_policy() -> PropagationPolicy {
    PropagationPolicy::Background
}

/// The template generation recorded on `ds`, if any.
pub fn template_generation(ds: &DaemonSet) -> Option<i64> {
    ds.metadata
        .annotations
        .as_ref()?
        .get(TEMPLATE_GENERATION_ANNOTATION)?
        .parse()
        .ok()
}

fn set_template_generation(ds: &mut DaemonSet, generation: i64) {
    ds.metadata
        .annotations
        .get_or_insert_with(BTreeMap::new)
        .insert(
            TEMPLATE_GENERATION_ANNOTATION.to_string(),
            generation.to_string(),
        );
}

/// `PrepareForCreate` (R-VAL-9, R-K-3, R-K-4): status wiped, generation 1, template
/// generation 1 unless the manifest already carries a positive one.
pub fn prepare_for_create(ds: &mut DaemonSet) {
    ds.status = Some(DaemonSetStatus::default());
    ds.metadata.generation = Some(1);
    let tg = template_generation(ds).filter(|g| *g >= 1).unwrap_or(1);
    set_template_generation(ds, tg);
}

/// `BeforeUpdate` + `PrepareForUpdate` (R-K-3, R-K-4, R-VAL-9): the user's status and
/// generation are ignored; generation +1 when the spec changed; template generation +1 when
/// the pod template changed (semantic equality).
pub fn prepare_for_update(new: &mut DaemonSet, old: &DaemonSet) {
    new.status.clone_from(&old.status);
    let generation = old.metadata.generation.unwrap_or(0);
    let mut tg = template_generation(old).unwrap_or(0);
    new.metadata.generation = Some(generation);
    if !semantic_eq(&new.spec.template, &old.spec.template) {
        tg += 1;
        new.metadata.generation = Some(generation + 1);
    } else if !semantic_eq(&new.spec, &old.spec) {
        new.metadata.generation = Some(generation + 1);
    }
    set_template_generation(new, tg);
}

/// `PrepareForUpdate` of the status subresource (R-VAL-9): spec changes are ignored.
pub fn prepare_for_status_update(new: &mut DaemonSet, old: &DaemonSet) {
    new.spec.clone_from(&old.spec);
    new.metadata.generation = old.metadata.generation;
    match template_generation(old) {
        Some(tg) => set_template_generation(new, tg),
        None => {
            if let Some(a) = new.metadata.annotations.as_mut() {
                a.remove(TEMPLATE_GENERATION_ANNOTATION);
            }
        }
    }
}

/// Go's `apiequality.Semantic.DeepEqual`, approximated on the JSON form: unset and empty
/// (strings, lists, maps) are equal, and quantities compare by value (`1` == `1000m`).
///
/// Known gap: Go also treats unset and zero non-pointer numbers/bools as equal; here
/// `minReadySeconds: 0` differs from no `minReadySeconds`.
pub fn semantic_eq<T: codec::Encode + PartialEq>(a: &T, b: &T) -> bool {
    if a == b {
        return true;
    }
    let (mut x, mut y) = (codec::to_json(a), codec::to_json(b));
    normalize(&mut x, None);
    normalize(&mut y, None);
    x == y
}

/// Keys whose values are Go maps (so `{}` means the same as absent).
const MAP_FIELDS: &[&str] = &[
    "labels",
    "annotations",
    "nodeSelector",
    "limits",
    "requests",
    "matchLabels",
    "overhead",
];
const QUANTITY_MAPS: &[&str] = &["limits", "requests", "overhead"];

fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

fn normalize(v: &mut Value, key: Option<&str>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map.iter_mut() {
                normalize(child, Some(k));
                if key.is_some_and(|p| QUANTITY_MAPS.contains(&p)) {
                    // The exact value, one text per value whatever the format (`Cmp`).
                    if let Some(q) = child
                        .as_str()
                        .and_then(|s| k8s_base::Quantity::parse_trimmed(s).ok())
                    {
                        let (mantissa, exponent) = q.to_decimal();
                        *child = Value::String(format!("{mantissa}e{exponent}"));
                    }
                }
            }
            map.retain(|k, child| {
                !(is_empty(child)
                    || (MAP_FIELDS.contains(&k.as_str())
                        && child.as_object().is_some_and(|o| o.is_empty())))
            });
        }
        Value::Array(items) => {
            for item in items {
                normalize(item, None);
            }
        }
        _ => {}
    }
}
