//! The trace (DESIGN §4.2): one entry per observable change, stamped with virtual seconds
//! since the start of the run, serialisable as JSON lines. Owns the entry shapes and the rules
//! that turn an object write (old → new) into entries; knows nothing of who wrote.

use k8s_openapi::api::apps::v1::{DaemonSet, DaemonSetStatus};
use k8s_openapi::api::core::v1::{Node, Pod};
use serde::{Deserialize, Serialize};

use controller::keys::CONTROLLER_REVISION_HASH_LABEL;
use controller::pod_util::{is_pod_ready, phase};

/// One change, at `t` seconds of virtual time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceEntry {
    pub t: f64,
    #[serde(flatten)]
    pub kind: TraceKind,
}

/// What changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum TraceKind {
    /// A DaemonSet's stored status changed.
    DaemonSetStatus {
        namespace: String,
        name: String,
        status: DaemonSetStatus,
    },
    /// A DaemonSet was created, had its spec changed, started or finished being deleted.
    DaemonSet {
        namespace: String,
        name: String,
        event: ObjectEvent,
        generation: i64,
    },
    /// A pod transition.
    Pod {
        namespace: String,
        name: String,
        /// `spec.nodeName`, or the target node of an unbound DaemonSet pod.
        node: String,
        phase: String,
        ready: bool,
        #[serde(rename = "revisionHash")]
        revision_hash: String,
        event: PodEvent,
    },
    /// A node was added, changed (labels, taints, conditions) or removed.
    Node {
        name: String,
        event: ObjectEvent,
        /// Status of the Ready condition (`True`, `False`, `Unknown`).
        ready: String,
        unschedulable: bool,
        /// `key=value:Effect`
        taints: Vec<String>,
        /// `key=value`, by key.
        #[serde(default)]
        labels: Vec<String>,
    },
    ControllerRevision {
        namespace: String,
        name: String,
        revision: i64,
        event: ObjectEvent,
    },
    /// A core/v1 Event was recorded (or its count went up).
    Event {
        #[serde(rename = "type")]
        type_: String,
        reason: String,
        message: String,
        #[serde(rename = "involvedObject")]
        involved_object: InvolvedObject,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ObjectEvent {
    Created,
    Updated,
    Deleting,
    Deleted,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PodEvent {
    Created,
    Scheduled,
    Started,
    Ready,
    NotReady,
    Terminating,
    Deleted,
    Evicted,
    Failed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvolvedObject {
    pub kind: String,
    pub namespace: String,
    pub name: String,
}

/// The trace as JSON lines (one object per line, each ending in `\n`).
pub fn to_json_lines(entries: &[TraceEntry]) -> String {
    let mut out = String::new();
    for e in entries {
        if let Ok(line) = serde_json::to_string(e) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

fn has_condition(pod: &Pod, type_: &str, reason: &str) -> bool {
    pod.status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|cs| {
            cs.iter()
                .any(|c| c.type_ == type_ && c.reason.as_deref() == Some(reason))
        })
}

/// Pod events implied by a write `old → new` (`new == None`: removed).
pub(crate) fn pod_events(old: Option<&Pod>, new: Option<&Pod>) -> Vec<PodEvent> {
    let mut out = Vec::new();
    let Some(new) = new else {
        out.push(PodEvent::Deleted);
        return out;
    };
    let Some(old) = old else {
        out.push(PodEvent::Created);
        if !controller::pod_util::node_name(new).is_empty() {
            out.push(PodEvent::Scheduled);
        }
        return out;
    };
    if controller::pod_util::node_name(old).is_empty()
        && !controller::pod_util::node_name(new).is_empty()
    {
        out.push(PodEvent::Scheduled);
    }
    if phase(old) != "Running" && phase(new) == "Running" {
        out.push(PodEvent::Started);
    }
    if phase(old) != "Failed" && phase(new) == "Failed" {
        out.push(PodEvent::Failed);
    }
    match (is_pod_ready(old), is_pod_ready(new)) {
        (false, true) => out.push(PodEvent::Ready),
        (true, false) => out.push(PodEvent::NotReady),
        _ => {}
    }
    const BY_TAINT_MANAGER: &str = "DeletionByTaintManager";
    if !has_condition(old, "DisruptionTarget", BY_TAINT_MANAGER)
        && has_condition(new, "DisruptionTarget", BY_TAINT_MANAGER)
    {
        out.push(PodEvent::Evicted);
    }
    if old.metadata.deletion_timestamp.is_none() && new.metadata.deletion_timestamp.is_some() {
        out.push(PodEvent::Terminating);
    }
    out
}

pub(crate) fn pod_entry(pod: &Pod, event: PodEvent) -> TraceKind {
    let node = controller::util::get_target_node_name(pod)
        .map(str::to_string)
        .unwrap_or_default();
    TraceKind::Pod {
        namespace: pod.metadata.namespace.clone().unwrap_or_default(),
        name: pod.metadata.name.clone().unwrap_or_default(),
        node,
        phase: phase(pod).to_string(),
        ready: is_pod_ready(pod),
        revision_hash: pod
            .metadata
            .labels
            .as_ref()
            .and_then(|l| l.get(CONTROLLER_REVISION_HASH_LABEL))
            .cloned()
            .unwrap_or_default(),
        event,
    }
}

fn ready_status(node: &Node) -> &str {
    node.status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .and_then(|cs| cs.iter().find(|c| c.type_ == "Ready"))
        .map_or("Unknown", |c| c.status.as_str())
}

pub(crate) fn format_taint(t: &k8s_openapi::api::core::v1::Taint) -> String {
    match t.value.as_deref().filter(|v| !v.is_empty()) {
        Some(v) => format!("{}={}:{}", t.key, v, t.effect),
        None => format!("{}:{}", t.key, t.effect),
    }
}

pub(crate) fn node_entry(node: &Node, event: ObjectEvent) -> TraceKind {
    let spec = node.spec.as_ref();
    TraceKind::Node {
        name: node.metadata.name.clone().unwrap_or_default(),
        event,
        ready: ready_status(node).to_string(),
        unschedulable: spec.and_then(|s| s.unschedulable).unwrap_or(false),
        taints: spec
            .and_then(|s| s.taints.as_ref())
            .map(|ts| ts.iter().map(format_taint).collect())
            .unwrap_or_default(),
        labels: node
            .metadata
            .labels
            .iter()
            .flatten()
            .map(|(k, v)| format!("{k}={v}"))
            .collect(),
    }
}

/// Whether a write changes a node field the trace shows (every kubelet heartbeat is a write
/// that changes none of them, so this compares in place rather than building two entries).
pub(crate) fn node_visible_change(old: &Node, new: &Node) -> bool {
    fn taints(n: &Node) -> impl Iterator<Item = (&str, Option<&str>, &str)> {
        n.spec
            .as_ref()
            .and_then(|s| s.taints.as_deref())
            .unwrap_or_default()
            .iter()
            .map(|t| {
                let value = t.value.as_deref().filter(|v| !v.is_empty());
                (t.key.as_str(), value, t.effect.as_str())
            })
    }
    let unschedulable = |n: &Node| n.spec.as_ref().and_then(|s| s.unschedulable) == Some(true);
    ready_status(old) != ready_status(new)
        || unschedulable(old) != unschedulable(new)
        || old.metadata.labels != new.metadata.labels
        || !taints(old).eq(taints(new))
}

pub(crate) fn daemon_set_entry(ds: &DaemonSet, event: ObjectEvent) -> TraceKind {
    TraceKind::DaemonSet {
        namespace: ds.metadata.namespace.clone().unwrap_or_default(),
        name: ds.metadata.name.clone().unwrap_or_default(),
        event,
        generation: ds.metadata.generation.unwrap_or(0),
    }
}
