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

/// R-AVL-1 `IsPodAvailable` (`pkg/api/v1/pod/util.go`): Ready and (minReadySeconds == 0 or
/// the Ready condition's lastTransitionTime + minReadySeconds is strictly before now). A zero
/// (absent) transition time is never available when minReadySeconds > 0.
pub fn is_pod_available(pod: &Pod, min_ready_seconds: i32, now: Timestamp) -> bool {
    let Some(c) = ready_condition(pod) else {
        return false;
    };
    c.status == "True"
        && ready_long_enough(
            c.last_transition_time.as_ref().map(|t| t.0),
            min_ready_seconds,
            now,
        )
}

/// The time half of `IsPodAvailable` for a Ready pod (R-AVL-1): `minReadySeconds == 0 ||
/// (!since.IsZero() && since.Add(minReadySeconds).Compare(now) <= 0)`. Inclusive, as the
/// newest upstream `pkg/api/v1/pod/util.go` has it (releases up to ~1.33 used `.Before(now)`,
/// strictly before): a pod Ready since a whole second (the API server keeps no less) is
/// available at exactly that second + minReadySeconds.
pub fn ready_long_enough(since: Option<Timestamp>, min_ready_seconds: i32, now: Timestamp) -> bool {
    if min_ready_seconds <= 0 {
        return true;
    }
    since.is_some_and(|t| crate::time::add(t, Duration::from_secs(min_ready_seconds as u64)) <= now)
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

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::PodStatus;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;

    fn ready_since(secs: i64) -> Pod {
        Pod {
            status: Some(PodStatus {
                conditions: Some(vec![PodCondition {
                    type_: "Ready".into(),
                    status: "True".into(),
                    last_transition_time: Some(Time(Timestamp::from_second(secs).unwrap())),
                    ..Default::default()
                }]),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    fn at(secs: i64, nanos: i32) -> Timestamp {
        Timestamp::new(secs, nanos).unwrap()
    }

    #[test]
    fn is_pod_available_once_since_plus_min_ready_seconds_is_at_or_before_now() {
        let pod = ready_since(100);
        assert!(!is_pod_available(&pod, 10, at(109, 999_999_999)));
        assert!(
            is_pod_available(&pod, 10, at(110, 0)),
            "exactly at the boundary (Compare(now) <= 0)"
        );
        assert!(is_pod_available(&pod, 10, at(110, 1)));
        assert!(is_pod_available(&pod, 0, at(100, 0)));
    }

    #[test]
    fn is_pod_available_never_with_a_zero_transition_time_and_min_ready_seconds() {
        let mut pod = ready_since(100);
        let conditions = pod.status.as_mut().unwrap().conditions.as_mut().unwrap();
        conditions[0].last_transition_time = None;
        assert!(!is_pod_available(&pod, 1, at(10_000, 0)));
        assert!(is_pod_available(&pod, 0, at(10_000, 0)));
    }
}
