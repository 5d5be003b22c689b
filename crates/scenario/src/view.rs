//! What a viewer sees of a cluster at one instant, computed from the objects: nodes with their
//! pods, each DaemonSet's counters, and the controller's verdict per node. The web app renders
//! this and computes nothing itself.

use cluster::Cluster;
use controller::keys::CONTROLLER_REVISION_HASH_LABEL;
use controller::predicates::{describe_taint, NodeExplanation};
use controller::DaemonPodPredicate;
use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::{Node, Pod};

/// A pod's state as the playground colours it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PodState {
    Pending,
    ContainerCreating,
    Running,
    Ready,
    Terminating,
    Failed,
    Succeeded,
}

impl PodState {
    pub fn as_str(self) -> &'static str {
        match self {
            PodState::Pending => "Pending",
            PodState::ContainerCreating => "ContainerCreating",
            PodState::Running => "Running",
            PodState::Ready => "Ready",
            PodState::Terminating => "Terminating",
            PodState::Failed => "Failed",
            PodState::Succeeded => "Succeeded",
        }
    }

    /// The CSS class the app uses.
    pub fn class(self) -> &'static str {
        match self {
            PodState::Pending => "pending",
            PodState::ContainerCreating => "creating",
            PodState::Running => "running",
            PodState::Ready => "ready",
            PodState::Terminating => "terminating",
            PodState::Failed => "failed",
            PodState::Succeeded => "succeeded",
        }
    }
}

/// The playground state of a pod.
pub fn pod_state(p: &Pod) -> PodState {
    let phase = controller::pod_util::phase(p);
    if p.metadata.deletion_timestamp.is_some() && !matches!(phase, "Failed" | "Succeeded") {
        return PodState::Terminating;
    }
    match phase {
        "Failed" => return PodState::Failed,
        "Succeeded" => return PodState::Succeeded,
        _ => {}
    }
    if controller::pod_util::node_name(p).is_empty() {
        return PodState::Pending;
    }
    if controller::pod_util::is_pod_ready(p) {
        return PodState::Ready;
    }
    if phase == "Running" {
        PodState::Running
    } else {
        PodState::ContainerCreating
    }
}

/// One pod chip.
#[derive(Debug, Clone, PartialEq)]
pub struct PodChip {
    pub name: String,
    pub namespace: String,
    pub state: PodState,
    /// Owning DaemonSet, if any.
    pub owner: Option<String>,
    pub revision_hash: String,
    /// Whether the pod carries its DaemonSet's current revision hash.
    pub current_revision: bool,
    /// Seconds left of the termination grace period, while terminating.
    pub grace_left: Option<f64>,
}

/// One node card.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeCard {
    pub name: String,
    pub role: &'static str,
    /// `Ready`, `NotReady`, `Unknown`, with `,SchedulingDisabled` when cordoned.
    pub status: String,
    pub labels: Vec<String>,
    pub taints: Vec<String>,
    pub pods: Vec<PodChip>,
    /// The controller's verdict for each DaemonSet.
    pub verdicts: Vec<(String, NodeExplanation)>,
}

/// The counters of one DaemonSet, as `kubectl get ds` prints them, plus two more.
#[derive(Debug, Clone, PartialEq)]
pub struct Counters {
    pub namespace: String,
    pub name: String,
    pub desired: i32,
    pub current: i32,
    pub ready: i32,
    pub up_to_date: i32,
    pub available: i32,
    pub misscheduled: i32,
    pub unavailable: i32,
    pub node_selector: String,
    /// The AGE column, as kubectl prints it.
    pub age: String,
    /// The current revision hash (from the newest ControllerRevision).
    pub current_hash: String,
}

/// Everything a frame shows.
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterView {
    pub elapsed: String,
    pub nodes: Vec<NodeCard>,
    pub daemon_sets: Vec<Counters>,
}

fn role(node: &Node) -> &'static str {
    if node
        .metadata
        .labels
        .as_ref()
        .is_some_and(|l| l.contains_key("node-role.kubernetes.io/control-plane"))
    {
        "control-plane"
    } else {
        "worker"
    }
}

fn current_hash(c: &Cluster, ds: &DaemonSet) -> String {
    let uid = ds.metadata.uid.as_deref();
    c.revisions()
        .iter()
        .filter(|r| {
            controller::controller_ref::get_controller_of(&r.metadata).map(|o| o.uid.as_str())
                == uid
        })
        .max_by_key(|r| r.revision.unwrap_or(0))
        .and_then(|r| {
            r.metadata
                .labels
                .as_ref()
                .and_then(|l| l.get(CONTROLLER_REVISION_HASH_LABEL))
                .cloned()
        })
        .unwrap_or_default()
}

/// The view of `c` now.
pub fn cluster_view(c: &Cluster) -> ClusterView {
    let now = c.now();
    let dss = c.daemon_sets();
    let hashes: Vec<(String, String)> = dss
        .iter()
        .map(|d| {
            (
                d.metadata.uid.clone().unwrap_or_default(),
                current_hash(c, d),
            )
        })
        .collect();
    let predicates: Vec<(String, DaemonPodPredicate)> = dss
        .iter()
        .map(|d| {
            (
                d.metadata.name.clone().unwrap_or_default(),
                DaemonPodPredicate::new(d),
            )
        })
        .collect();
    let pods = c.pods();
    let mut nodes: Vec<NodeCard> = c
        .nodes()
        .iter()
        .map(|n| NodeCard {
            name: n.metadata.name.clone().unwrap_or_default(),
            role: role(n),
            status: kubectl::node_status(n),
            labels: n
                .metadata
                .labels
                .iter()
                .flatten()
                .filter(|(k, _)| !k.starts_with("kubernetes.io/"))
                .map(|(k, v)| {
                    if v.is_empty() {
                        k.clone()
                    } else {
                        format!("{k}={v}")
                    }
                })
                .collect(),
            taints: n
                .spec
                .as_ref()
                .and_then(|s| s.taints.as_ref())
                .into_iter()
                .flatten()
                .map(describe_taint)
                .collect(),
            pods: Vec::new(),
            verdicts: predicates
                .iter()
                .map(|(name, p)| (name.clone(), p.explain(n)))
                .collect(),
        })
        .collect();
    for p in pods.iter() {
        let target = controller::util::get_target_node_name(p).unwrap_or("");
        let Some(card) = nodes.iter_mut().find(|n| n.name == target) else {
            continue;
        };
        let owner = controller::controller_ref::get_controller_of(&p.metadata);
        let hash = p
            .metadata
            .labels
            .as_ref()
            .and_then(|l| l.get(CONTROLLER_REVISION_HASH_LABEL))
            .cloned()
            .unwrap_or_default();
        let current = owner
            .and_then(|o| hashes.iter().find(|(uid, _)| *uid == o.uid))
            .is_some_and(|(_, h)| *h == hash);
        // The API server sets deletionTimestamp to the end of the grace period.
        let grace_left = p
            .metadata
            .deletion_timestamp
            .as_ref()
            .map(|t| t.0.duration_since(now).as_secs_f64().max(0.0));
        card.pods.push(PodChip {
            name: p.metadata.name.clone().unwrap_or_default(),
            namespace: p.metadata.namespace.clone().unwrap_or_default(),
            state: pod_state(p),
            owner: owner.map(|o| o.name.clone()),
            revision_hash: hash,
            current_revision: current,
            grace_left,
        });
    }
    let daemon_sets = dss
        .iter()
        .zip(hashes)
        .map(|(d, (_, hash))| {
            let s = d.status.clone().unwrap_or_default();
            Counters {
                namespace: d.metadata.namespace.clone().unwrap_or_default(),
                name: d.metadata.name.clone().unwrap_or_default(),
                desired: s.desired_number_scheduled,
                current: s.current_number_scheduled,
                ready: s.number_ready,
                up_to_date: s.updated_number_scheduled.unwrap_or(0),
                available: s.number_available.unwrap_or(0),
                misscheduled: s.number_misscheduled,
                unavailable: s.number_unavailable.unwrap_or(0),
                node_selector: d
                    .spec
                    .template
                    .spec
                    .as_ref()
                    .and_then(|s| s.node_selector.as_ref())
                    .filter(|m| !m.is_empty())
                    .map(|m| {
                        m.iter()
                            .map(|(k, v)| format!("{k}={v}"))
                            .collect::<Vec<_>>()
                            .join(",")
                    })
                    .unwrap_or_else(|| "<none>".into()),
                age: kubectl::age(d.metadata.creation_timestamp.as_ref(), now),
                current_hash: hash,
            }
        })
        .collect();
    ClusterView {
        elapsed: format!("{:.1}s", c.elapsed_seconds()),
        nodes,
        daemon_sets,
    }
}
