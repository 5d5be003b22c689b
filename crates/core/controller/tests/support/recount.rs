//! A DaemonSet's status counted again, directly from the node and pod objects (R-MAP-1,
//! R-MAP-2, R-ST-1 … R-ST-5, R-AVL-1), without the controller's own counting code: the oracle of
//! `tests/properties.rs` (the unit harness's objects) and of
//! `crates/play/scenario/tests/random_actions.rs` (the virtual cluster's store), which includes this
//! file by path. Eligibility is `node_should_run_daemon_pod`, itself checked against an oracle
//! written from the spec in `tests/properties.rs`.
#![allow(dead_code)]

use controller::keys::CONTROLLER_REVISION_HASH_LABEL;
use controller::node_should_run_daemon_pod;
use k8s_openapi::api::apps::v1::{DaemonSet, DaemonSetStatus};
use k8s_openapi::api::core::v1::{Node, Pod};
use k8s_openapi::jiff::{SignedDuration, Timestamp};
use std::collections::BTreeMap;
use std::sync::Arc;

pub fn is_terminal(p: &Pod) -> bool {
    matches!(
        p.status.as_ref().and_then(|s| s.phase.as_deref()),
        Some("Failed" | "Succeeded")
    )
}

/// The Ready condition: (status is `True`, lastTransitionTime).
pub fn ready_condition(p: &Pod) -> Option<(bool, Option<Timestamp>)> {
    p.status
        .as_ref()?
        .conditions
        .as_ref()?
        .iter()
        .find(|c| c.type_ == "Ready")
        .map(|c| {
            (
                c.status == "True",
                c.last_transition_time.as_ref().map(|t| t.0),
            )
        })
}

/// When a pod Ready since `ready_since` becomes Available under `minReadySeconds` (R-AVL-1).
pub fn available_at(ready_since: Timestamp, min_ready_seconds: i64) -> Option<Timestamp> {
    ready_since
        .checked_add(SignedDuration::from_secs(min_ready_seconds))
        .ok()
}

/// Ready and Available at `now` (R-AVL-1).
pub fn is_available(p: &Pod, min_ready_seconds: Option<i32>, now: Timestamp) -> bool {
    let mrs = i64::from(min_ready_seconds.unwrap_or(0));
    match ready_condition(p) {
        Some((true, ltt)) => {
            mrs == 0 || ltt.is_some_and(|t| available_at(t, mrs).is_some_and(|a| a <= now))
        }
        _ => false,
    }
}

/// R-MAP-1: `spec.nodeName`, else the single `metadata.name In [x]` of a required term.
pub fn target_node(p: &Pod) -> Option<&str> {
    let spec = p.spec.as_ref()?;
    if let Some(n) = spec.node_name.as_deref().filter(|n| !n.is_empty()) {
        return Some(n);
    }
    let required = spec
        .affinity
        .as_ref()?
        .node_affinity
        .as_ref()?
        .required_during_scheduling_ignored_during_execution
        .as_ref()?;
    let r = required
        .node_selector_terms
        .iter()
        .flat_map(|t| t.match_fields.iter().flatten())
        .find(|r| r.key == "metadata.name" && r.operator == "In")?;
    match r.values.as_deref() {
        Some([v]) => Some(v),
        _ => None,
    }
}

/// The DS's pods on `node`: controlled by its UID, labels matching `selector` (its
/// `matchLabels`), not (terminal and deleted) (R-CLM-2, R-MAP-2).
pub fn ds_pods_on<'a>(
    pods: &'a [Arc<Pod>],
    ds: &DaemonSet,
    selector: &BTreeMap<String, String>,
    node: &str,
) -> Vec<&'a Pod> {
    let uid = ds.metadata.uid.as_deref();
    pods.iter()
        .map(|p| &**p)
        .filter(|p| {
            let owned = p
                .metadata
                .owner_references
                .iter()
                .flatten()
                .any(|r| r.controller == Some(true) && Some(r.uid.as_str()) == uid);
            let labels = p.metadata.labels.clone().unwrap_or_default();
            let selected = selector.iter().all(|(k, v)| labels.get(k) == Some(v));
            owned
                && selected
                && target_node(p) == Some(node)
                && !(is_terminal(p) && p.metadata.deletion_timestamp.is_some())
        })
        .collect()
}

/// R-ST-1..5 counted directly from the objects, in the order of [`status_counters`]: desired,
/// current, misscheduled, ready, updated (label `controller-revision-hash` = `hash`, R-RU-4),
/// available, unavailable.
pub fn expected_status(
    nodes: &[Arc<Node>],
    pods: &[Arc<Pod>],
    ds: &DaemonSet,
    selector: &BTreeMap<String, String>,
    hash: &str,
    now: Timestamp,
) -> [i32; 7] {
    let (mut desired, mut current, mut mis, mut ready, mut updated, mut available) =
        (0, 0, 0, 0, 0, 0);
    for node in nodes {
        let name = node.metadata.name.as_deref().unwrap_or_default();
        let pods = ds_pods_on(pods, ds, selector, name);
        if !node_should_run_daemon_pod(node, ds).should_run {
            mis += i32::from(!pods.is_empty());
            continue;
        }
        desired += 1;
        // R-ST-3: the first pod by (bound first, oldest, name).
        let Some(first) = pods.into_iter().min_by(|a, b| {
            let bound = |p: &Pod| {
                p.spec
                    .as_ref()
                    .and_then(|s| s.node_name.as_deref())
                    .is_some_and(|n| !n.is_empty())
            };
            bound(b)
                .cmp(&bound(a))
                .then_with(|| {
                    let t = |p: &Pod| p.metadata.creation_timestamp.as_ref().map(|t| t.0);
                    t(a).cmp(&t(b))
                })
                .then_with(|| a.metadata.name.cmp(&b.metadata.name))
        }) else {
            continue;
        };
        current += 1;
        if let Some((true, _)) = ready_condition(first) {
            ready += 1;
            available += i32::from(is_available(first, ds.spec.min_ready_seconds, now));
        }
        let h = first
            .metadata
            .labels
            .as_ref()
            .and_then(|l| l.get(CONTROLLER_REVISION_HASH_LABEL));
        updated += i32::from(h.map(String::as_str) == Some(hash));
    }
    [
        desired,
        current,
        mis,
        ready,
        updated,
        available,
        desired - available,
    ]
}

/// The stored counters in the order of [`expected_status`].
pub fn status_counters(st: &DaemonSetStatus) -> [i32; 7] {
    [
        st.desired_number_scheduled,
        st.current_number_scheduled,
        st.number_misscheduled,
        st.number_ready,
        st.updated_number_scheduled.unwrap_or(0),
        st.number_available.unwrap_or(0),
        st.number_unavailable.unwrap_or(0),
    ]
}
