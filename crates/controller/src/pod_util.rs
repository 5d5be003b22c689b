//! Pod helpers from `pkg/api/v1/pod/util.go` and `controller_utils.go` (R-AVL-*, R-MAN-6).

use k8s_openapi::api::core::v1::{Pod, PodCondition};
use k8s_openapi::jiff::Timestamp;
use std::cmp::Ordering;
use std::time::Duration;

/// The pod's `Ready` condition, if any.
pub fn ready_condition(pod: &Pod) -> Option<&PodCondition> {
    pod.status
        .as_ref()?
        .conditions
        .as_ref()?
        .iter()
        .find(|c| c.type_ == "Ready")
}

/// R-AVL-1 `IsPodReady`: condition Ready=True; phase and deletionTimestamp are not checked.
pub fn is_pod_ready(pod: &Pod) -> bool {
    ready_condition(pod).is_some_and(|c| c.status == "True")
}

/// R-AVL-1 `IsPodAvailable`: Ready and (minReadySeconds == 0 or the Ready condition's
/// lastTransitionTime + minReadySeconds ≤ now). A zero (absent) transition time is never
/// available when minReadySeconds > 0.
pub fn is_pod_available(pod: &Pod, min_ready_seconds: i32, now: Timestamp) -> bool {
    let Some(c) = ready_condition(pod) else {
        return false;
    };
    if c.status != "True" {
        return false;
    }
    if min_ready_seconds <= 0 {
        return true;
    }
    match &c.last_transition_time {
        Some(t) => crate::time::add(t.0, Duration::from_secs(min_ready_seconds as u64)) <= now,
        None => false,
    }
}

/// The pod's phase string ("" when unset).
pub fn phase(pod: &Pod) -> &str {
    pod.status
        .as_ref()
        .and_then(|s| s.phase.as_deref())
        .unwrap_or("")
}

/// `IsPodTerminal`: phase Failed or Succeeded.
pub fn is_pod_terminal(pod: &Pod) -> bool {
    matches!(phase(pod), "Failed" | "Succeeded")
}

/// Whether the pod is being deleted (has a deletionTimestamp).
pub fn is_terminating(pod: &Pod) -> bool {
    pod.metadata.deletion_timestamp.is_some()
}

/// The bound node, `spec.nodeName` ("" when unbound).
pub fn node_name(pod: &Pod) -> &str {
    pod.spec
        .as_ref()
        .and_then(|s| s.node_name.as_deref())
        .unwrap_or("")
}

/// R-MAN-6 `podByCreationTimestampAndPhase`: bound pods first, then older creationTimestamp,
/// then name. An absent creationTimestamp is the zero time (oldest).
pub fn by_creation_timestamp_and_phase(a: &Pod, b: &Pod) -> Ordering {
    let a_bound = !node_name(a).is_empty();
    let b_bound = !node_name(b).is_empty();
    b_bound
        .cmp(&a_bound)
        .then_with(|| {
            let ta = a.metadata.creation_timestamp.as_ref().map(|t| t.0);
            let tb = b.metadata.creation_timestamp.as_ref().map(|t| t.0);
            ta.cmp(&tb)
        })
        .then_with(|| a.metadata.name.cmp(&b.metadata.name))
}

/// `namespace/name` of any object.
pub fn key(namespace: Option<&str>, name: Option<&str>) -> String {
    format!("{}/{}", namespace.unwrap_or(""), name.unwrap_or(""))
}
