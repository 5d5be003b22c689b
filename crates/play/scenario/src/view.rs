//! What a viewer sees of a cluster at one instant, computed from the objects: nodes with their
//! pods, each DaemonSet's counters, and the controller's verdict per node. The web app renders
//! this and computes nothing itself.

use cluster::Cluster;
use controller::keys::CONTROLLER_REVISION_HASH_LABEL;
use controller::predicates::NodeExplanation;
use controller::DaemonPodPredicate;
use k8s_base::objects::taint_string as describe_taint;
use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::{Event, Node, Pod};
use k8s_openapi::jiff::Timestamp;

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
    /// Why the pod is not running, or is going away, as the API says it: a condition's reason
    /// and message (`Unschedulable: 0/6 nodes are available: …`, `DeletionByTaintManager: …`)
    /// or how it failed.
    pub why: Option<String>,
    /// For a pod no controller owns (an orphan): whether a DaemonSet will adopt it (R-CLM-4).
    pub orphan: Option<String>,
    /// `kubectl get pods` STATUS when a container is not running as it should:
    /// `CrashLoopBackOff`, `Error`, `Completed`, `ErrImagePull`, `ImagePullBackOff`, …
    pub trouble: Option<String>,
    /// RESTARTS as kubectl prints it (`3 (12s ago)`); empty when none.
    pub restarts: String,
    /// Seconds until a crash-looping container's back-off ends and the kubelet may restart it.
    pub restart_in: Option<f64>,
}

/// A container state that is a problem, as `kubectl get pods` words it, with the seconds left
/// of a crash loop's back-off (its waiting message's `back-off 20s`, counted from the last
/// exit).
fn container_trouble(p: &Pod, now: Timestamp) -> (Option<String>, String, Option<f64>) {
    // Most pods run fine: only those with a restart or a container not running are summarised
    // (the view is built every frame, for thousands of pods).
    let statuses = p
        .status
        .as_ref()
        .and_then(|st| st.container_statuses.as_deref())
        .unwrap_or_default();
    let healthy = statuses.iter().all(|cs| {
        cs.restart_count == 0
            && cs.state.as_ref().is_none_or(|s| {
                s.terminated.is_none()
                    && s.waiting
                        .as_ref()
                        .is_none_or(|w| w.reason.as_deref() == Some("ContainerCreating"))
            })
    });
    if healthy {
        return (None, String::new(), None);
    }
    let summary = kubectl::pod_summary(p, now);
    let restarts = if summary.restarts == "0" {
        String::new()
    } else {
        summary.restarts.clone()
    };
    let troubled = matches!(
        summary.status.as_str(),
        "CrashLoopBackOff"
            | "Error"
            | "Completed"
            | "ErrImagePull"
            | "ImagePullBackOff"
            | "ErrImageNeverPull"
            | "ContainerStatusUnknown"
    ) || summary.status.starts_with("ExitCode:")
        || summary.status.starts_with("Signal:");
    let trouble = troubled.then(|| summary.status.clone());
    let restart_in = p
        .status
        .as_ref()
        .and_then(|st| st.container_statuses.as_ref())
        .into_iter()
        .flatten()
        .filter_map(|cs| {
            let waiting = cs.state.as_ref()?.waiting.as_ref()?;
            if waiting.reason.as_deref() != Some("CrashLoopBackOff") {
                return None;
            }
            let period = waiting
                .message
                .as_deref()?
                .strip_prefix("back-off ")?
                .split(' ')
                .next()
                .and_then(|d| crate::script::parse_duration(d).ok())?;
            let finished = cs
                .last_state
                .as_ref()?
                .terminated
                .as_ref()?
                .finished_at
                .as_ref()?
                .0;
            let left = period.as_secs_f64() - now.duration_since(finished).as_secs_f64();
            Some(left.max(0.0))
        })
        .reduce(f64::min);
    (trouble, restarts, restart_in)
}

/// The API's own words for a pod that waits, fails or is being removed (see [`PodChip::why`]).
pub fn pod_why(p: &Pod) -> Option<String> {
    let status = p.status.as_ref()?;
    let said = |reason: &str, message: Option<&str>| {
        Some(match message {
            Some(m) if !m.is_empty() => format!("{reason}: {m}"),
            _ => reason.to_string(),
        })
    };
    let conditions = status.conditions.as_deref().unwrap_or(&[]);
    for (type_, status) in [("DisruptionTarget", "True"), ("PodScheduled", "False")] {
        if let Some(c) = conditions
            .iter()
            .find(|c| c.type_ == type_ && c.status == status)
        {
            return said(
                c.reason.as_deref().unwrap_or(&c.type_),
                c.message.as_deref(),
            );
        }
    }
    if status.phase.as_deref() == Some("Failed") {
        if let Some(r) = &status.reason {
            return said(r, status.message.as_deref());
        }
        let terminated = status
            .container_statuses
            .iter()
            .flatten()
            .find_map(|cs| cs.state.as_ref()?.terminated.as_ref())?;
        return Some(format!(
            "{} (exit code {})",
            terminated.reason.as_deref().unwrap_or("Terminated"),
            terminated.exit_code
        ));
    }
    // A container that waits (CrashLoopBackOff, ImagePullBackOff …) or just exited, with its
    // last exit.
    for cs in status.container_statuses.iter().flatten() {
        let state = cs.state.as_ref();
        let last = cs.last_state.as_ref().and_then(|s| s.terminated.as_ref());
        let last_exit = last
            .map(|t| {
                format!(
                    " (last exit: code {}, {})",
                    t.exit_code,
                    t.reason.as_deref().unwrap_or("Terminated")
                )
            })
            .unwrap_or_default();
        if let Some(w) = state.and_then(|s| s.waiting.as_ref()) {
            let reason = w.reason.as_deref().unwrap_or("Waiting");
            if reason == "ContainerCreating" || reason == "PodInitializing" {
                continue;
            }
            return Some(format!(
                "{}{last_exit}",
                said(reason, w.message.as_deref()).unwrap_or_default()
            ));
        }
        if let Some(t) = state.and_then(|s| s.terminated.as_ref()) {
            return Some(format!(
                "container {} exited: code {}, {}",
                cs.name,
                t.exit_code,
                t.reason.as_deref().unwrap_or("Terminated")
            ));
        }
    }
    None
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
    /// Allocatable cpu, memory and pods, as `cpu 4 · memory 16Gi · pods 110`.
    pub capacity: String,
    pub pods: Vec<PodChip>,
    /// The controller's verdict for each DaemonSet.
    pub verdicts: Vec<(String, NodeExplanation)>,
    /// The DaemonSets that should run a pod here and have none, because the API server
    /// refuses their creates ([`create_failure`]).
    pub refused: Vec<String>,
    /// A rolling update is replacing a daemon pod here right now (old pod terminating, or new
    /// pod not yet available).
    pub in_wave: bool,
    /// For a node that no longer exists but still has pods bound to it (or aimed at it): what
    /// becomes of them, and when. Its card stays so that those pods are seen.
    pub deleted: Option<String>,
}

/// The counters of one DaemonSet, as `kubectl get ds` prints them, plus two more.
#[derive(Debug, Clone, PartialEq)]
pub struct Counters {
    /// Those the chart plots too.
    pub counts: crate::SampleCounts,
    pub misscheduled: i32,
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
    /// The rolling updates in progress, one per DaemonSet that has one.
    pub waves: Vec<Wave>,
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

/// The `controller-revision-hash` label of a pod (`""` when it has none).
fn revision_hash(p: &Pod) -> &str {
    p.metadata
        .labels
        .as_ref()
        .and_then(|l| l.get(CONTROLLER_REVISION_HASH_LABEL))
        .map_or("", String::as_str)
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

/// What becomes of a pod no controller owns: the DaemonSets whose selector matches its labels
/// adopt it at their next sync (R-CLM-4); with none, nothing manages it.
fn orphan_note(p: &Pod, dss: &[std::sync::Arc<DaemonSet>]) -> String {
    let adopters: Vec<&str> = dss
        .iter()
        .filter(|d| d.metadata.namespace == p.metadata.namespace)
        .filter(|d| d.metadata.deletion_timestamp.is_none())
        .filter(|d| {
            k8s_base::Selector::from_label_selector(&d.spec.selector)
                .is_ok_and(|s| s.matches(p.metadata.labels.as_ref()))
        })
        .filter_map(|d| d.metadata.name.as_deref())
        .collect();
    if p.metadata.deletion_timestamp.is_some() {
        "has no owner and is being deleted: nothing adopts it (R-CLM-4)".to_string()
    } else if adopters.is_empty() {
        "has no owner: no DaemonSet's selector matches its labels, so no controller manages it \
         (R-CLM-4)"
            .to_string()
    } else {
        format!(
            "has no owner: DaemonSet {} selects its labels, so its next sync adopts it (R-CLM-4)",
            adopters.join(", ")
        )
    }
}

/// A card for each node that pods are bound to (or aimed at) but that does not exist, in name
/// order among the others: the pods of a deleted node stay until pod GC collects them.
fn add_deleted_nodes(c: &Cluster, pods: &[std::sync::Arc<Pod>], nodes: &mut Vec<NodeCard>) {
    // `nodes` is in name order (the store keeps nodes by name).
    let mut missing = std::collections::BTreeMap::<&str, bool>::new();
    for p in pods {
        let Ok(target) = controller::util::get_target_node_name(p) else {
            continue;
        };
        if nodes
            .binary_search_by(|n| n.name.as_str().cmp(target))
            .is_err()
        {
            let bound = !controller::pod_util::node_name(p).is_empty();
            *missing.entry(target).or_default() |= bound;
        }
    }
    for (name, bound) in missing {
        let card = NodeCard {
            name: name.to_string(),
            role: "deleted",
            status: "no Node object".to_string(),
            labels: Vec::new(),
            taints: Vec::new(),
            capacity: String::new(),
            pods: Vec::new(),
            verdicts: Vec::new(),
            refused: Vec::new(),
            in_wave: false,
            deleted: Some(deleted_node_summary(c, name, bound)),
        };
        let at = nodes.partition_point(|n| n.name.as_str() < name);
        nodes.insert(at, card);
    }
}

/// What becomes of the pods of a node that was deleted (R-EVT-9, R-NODE-1, R-NODE-2).
fn deleted_node_summary(c: &Cluster, node: &str, bound: bool) -> String {
    if !bound {
        return "Node deleted. The DaemonSet controller deletes the pods aimed at it that were \
                never bound: they can never be scheduled (R-NODE-1)."
            .to_string();
    }
    let timing = c.timing();
    let gc = match c.pod_gc_collection(node) {
        Some((since, at)) => format!(
            "Pod GC force-deletes them in {:.0} s (it noticed at t = {:.1} s; {:.0} s quarantine).",
            since_secs(at, c.now()).max(0.0),
            since_secs(since, c.start_time()),
            timing.pod_gc_quarantine
        ),
        None => format!(
            "Pod GC force-deletes them {:.0} s after its next check (every {:.0} s) finds the \
             node missing.",
            timing.pod_gc_quarantine, timing.pod_gc_period
        ),
    };
    format!(
        "Node deleted, its pods still bound here. The DaemonSet controller leaves them alone \
         and its next sync counts them nowhere (R-NODE-2), but the deletion itself triggers no \
         sync (R-EVT-9): until something else does, its counters may still include this node. \
         {gc}"
    )
}

/// `a − b` in seconds.
fn since_secs(a: k8s_openapi::jiff::Timestamp, b: k8s_openapi::jiff::Timestamp) -> f64 {
    a.duration_since(b).as_secs_f64()
}

/// Why the controller's creates for DaemonSet `name` fail now, in the API server's words: the
/// message of its newest `FailedCreate` event, when that is newer than its newest
/// `SuccessfulCreate` (`namespace` None: any namespace).
pub fn create_failure(c: &Cluster, namespace: Option<&str>, name: &str) -> Option<String> {
    use k8s_openapi::jiff::Timestamp;
    let mut failed: Option<(Timestamp, &str)> = None;
    let mut succeeded: Option<Timestamp> = None;
    for e in c.events().iter() {
        let io = &e.involved_object;
        if io.kind.as_deref() != Some("DaemonSet")
            || io.name.as_deref() != Some(name)
            || namespace.is_some_and(|ns| io.namespace.as_deref() != Some(ns))
        {
            continue;
        }
        let Some(t) = e.last_timestamp.as_ref().map(|t| t.0) else {
            continue;
        };
        match e.reason.as_deref() {
            Some("FailedCreate") if failed.is_none_or(|(f, _)| t >= f) => {
                failed = Some((t, e.message.as_deref().unwrap_or_default()));
            }
            Some("SuccessfulCreate") if succeeded.is_none_or(|s| t >= s) => succeeded = Some(t),
            _ => {}
        }
    }
    let (t, message) = failed?;
    // After nine distinct failures in ten minutes client-go's recorder combines them.
    let message = message
        .strip_prefix("(combined from similar events): ")
        .unwrap_or(message);
    succeeded.is_none_or(|s| t >= s).then(|| {
        message
            .strip_prefix("Error creating: ")
            .unwrap_or(message)
            .to_string()
    })
}

/// Where a pod should run but has none, the verdict says so: when the controller's creates
/// fail ([`create_failure`]), why; else that it is not there yet. Every check passing would
/// not explain the missing pod, and "runs a daemon pod" would be untrue.
fn note_failing_creates(c: &Cluster, nodes: &mut [NodeCard]) {
    // (card, verdict) where the DaemonSet should run a pod and the node has none of its pods.
    let lacking: Vec<(usize, usize)> = nodes
        .iter()
        .enumerate()
        .flat_map(|(ci, card)| {
            card.verdicts
                .iter()
                .enumerate()
                .filter(|(_, (ds, e))| {
                    e.decision.should_run
                        && !card.pods.iter().any(|p| p.owner.as_deref() == Some(ds))
                })
                .map(move |(vi, _)| (ci, vi))
        })
        .collect();
    // The events are read only for those DaemonSets: a settled 5,000-node cluster has 25,000
    // of them, too many to read every frame for nothing.
    let mut failing: std::collections::HashMap<String, Option<String>> = Default::default();
    for (ci, vi) in lacking {
        let card = &mut nodes[ci];
        let (ds, e) = &mut card.verdicts[vi];
        let why = failing
            .entry(ds.clone())
            .or_insert_with(|| create_failure(c, None, ds));
        if let Some(why) = why {
            card.refused.push(ds.clone());
            e.summary = format!(
                "should run a daemon pod (every check passes), but the controller's create \
                 fails: {why}"
            );
        } else if let Some(rest) = e.summary.strip_prefix("runs a daemon pod") {
            // Not yet: the controller has not created it (DESIRED and CURRENT may still be 0).
            e.summary = format!("should run a daemon pod, none here yet{rest}");
        }
    }
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
            capacity: n
                .status
                .as_ref()
                .and_then(|s| s.allocatable.as_ref().or(s.capacity.as_ref()))
                .map(|r| {
                    ["cpu", "memory", "pods"]
                        .iter()
                        .filter_map(|k| r.get(*k).map(|q| format!("{k} {}", q.0)))
                        .collect::<Vec<_>>()
                        .join(" · ")
                })
                .unwrap_or_default(),
            pods: Vec::new(),
            in_wave: false,
            deleted: None,
            verdicts: predicates
                .iter()
                .map(|(name, p)| (name.clone(), p.explain(n)))
                .collect(),
            refused: Vec::new(),
        })
        .collect();
    add_deleted_nodes(c, &pods, &mut nodes);
    let card_of: std::collections::HashMap<String, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.name.clone(), i))
        .collect();
    for p in pods.iter() {
        let target = controller::util::get_target_node_name(p).unwrap_or("");
        let Some(card) = card_of.get(target).map(|&i| &mut nodes[i]) else {
            continue;
        };
        let owner = controller::controller_ref::get_controller_of(&p.metadata);
        let hash = revision_hash(p);
        let current = owner
            .and_then(|o| hashes.iter().find(|(uid, _)| *uid == o.uid))
            .is_some_and(|(_, h)| h == hash);
        // The API server sets deletionTimestamp to the end of the grace period.
        let grace_left = p
            .metadata
            .deletion_timestamp
            .as_ref()
            .map(|t| t.0.duration_since(now).as_secs_f64().max(0.0));
        let (trouble, restarts, restart_in) = container_trouble(p, now);
        card.pods.push(PodChip {
            name: p.metadata.name.clone().unwrap_or_default(),
            namespace: p.metadata.namespace.clone().unwrap_or_default(),
            state: pod_state(p),
            owner: owner.map(|o| o.name.clone()),
            revision_hash: hash.to_string(),
            current_revision: current,
            grace_left,
            why: pod_why(p),
            orphan: owner.is_none().then(|| orphan_note(p, &dss)),
            trouble,
            restarts,
            restart_in,
        });
    }
    note_failing_creates(c, &mut nodes);
    let daemon_sets = dss
        .iter()
        .zip(hashes)
        .map(|(d, (_, hash))| {
            // The chart's counters, plus what only the table shows.
            Counters {
                counts: crate::SampleCounts::of(d),
                misscheduled: d.status.as_ref().map_or(0, |s| s.number_misscheduled),
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
    let waves: Vec<Wave> = dss.iter().filter_map(|d| wave(c, d)).collect();
    for w in &waves {
        for card in nodes.iter_mut() {
            if w.nodes.binary_search(&card.name).is_ok() {
                card.in_wave = true;
            }
        }
    }
    ClusterView {
        elapsed: format!("{:.1}s", c.elapsed_seconds()),
        nodes,
        daemon_sets,
        waves,
    }
}

/// A rolling update in progress: the nodes whose daemon pod is being replaced, against the
/// budget the controller works with (maxUnavailable, or maxSurge when surging, resolved against
/// the desired number of nodes as the controller resolves it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wave {
    pub namespace: String,
    pub daemon_set: String,
    /// Nodes in progress.
    pub in_progress: i32,
    /// maxUnavailable or maxSurge, as a number of nodes.
    pub budget: i32,
    /// Whether the budget is maxSurge (new pod first) rather than maxUnavailable.
    pub surge: bool,
    /// `2 of maxUnavailable 2 in progress`, `1 of maxSurge 1 in progress`.
    pub words: String,
    /// The nodes in the wave, sorted.
    pub nodes: Vec<String>,
    /// When the budget is used up: why the rollout waits, e.g. `waiting: 1 updated pod not
    /// available (CrashLoopBackOff); maxUnavailable 1 reached`.
    pub waiting: Option<String>,
}

/// The wave of `ds`'s rolling update, if one is in progress: the DaemonSet uses RollingUpdate,
/// has more than one revision (the first rollout is no update), and some node still runs an
/// old pod or has no available pod yet. A node is in the wave when its old pod is terminating or
/// its new pod is not yet available.
pub fn wave(c: &Cluster, ds: &DaemonSet) -> Option<Wave> {
    if !controller::util::is_rolling_update(ds) {
        return None;
    }
    let uid = ds.metadata.uid.as_deref()?;
    let owned = |m: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta| {
        controller::controller_ref::get_controller_of(m).map(|o| o.uid.as_str()) == Some(uid)
    };
    if c.revisions().iter().filter(|r| owned(&r.metadata)).count() < 2 {
        return None;
    }
    let hash = current_hash(c, ds);
    let status = ds.status.clone().unwrap_or_default();
    let desired = status.desired_number_scheduled;
    let min_ready = ds.spec.min_ready_seconds.unwrap_or(0);
    let now = c.now();
    let pods: Vec<_> = c
        .pods()
        .into_iter()
        .filter(|p| owned(&p.metadata))
        .collect();
    // Each pod with the node it is for. A pod left on a deleted node counts nowhere
    // (R-NODE-2/3): the controller neither updates nor waits for it, so it neither makes nor
    // extends a wave.
    let placed: Vec<(&Pod, &str)> = pods
        .iter()
        .filter_map(|p| {
            let node = controller::util::get_target_node_name(p).ok()?;
            c.node(node).is_some().then_some((&**p, node))
        })
        .collect();
    let any_old = placed.iter().any(|(p, _)| revision_hash(p) != hash);
    if !any_old && status.number_available.unwrap_or(0) >= desired {
        return None;
    }
    let mut nodes: Vec<String> = placed
        .iter()
        .filter(|(p, _)| {
            let old = revision_hash(p) != hash;
            if old {
                p.metadata.deletion_timestamp.is_some()
            } else {
                !controller::pod_util::is_pod_available(p, min_ready, now)
            }
        })
        .map(|(_, node)| node.to_string())
        .collect();
    sort::sort(&mut nodes);
    nodes.dedup();
    let surge = controller::util::allows_surge(ds);
    let budget = if surge {
        controller::util::surge_count(ds, desired)
    } else {
        controller::util::unavailable_count(ds, desired)
    }
    .unwrap_or(0);
    let in_progress = i32::try_from(nodes.len()).unwrap_or(i32::MAX);
    // The updated pods that hold the budget, by what kubectl says of them.
    let mut unavailable = 0;
    let mut reasons: Vec<String> = Vec::new();
    for (p, _) in &placed {
        if revision_hash(p) != hash
            || p.metadata.deletion_timestamp.is_some()
            || controller::pod_util::is_pod_available(p, min_ready, now)
        {
            continue;
        }
        unavailable += 1;
        let summary = kubectl::pod_summary(p, now);
        let reason = match summary.status.as_str() {
            "Running" if controller::pod_util::is_pod_ready(p) => "ready, not yet available".into(),
            "Running" => "not ready".into(),
            other => other.to_string(),
        };
        if !reasons.contains(&reason) {
            reasons.push(reason);
        }
    }
    let waiting = (budget > 0 && in_progress >= budget && unavailable > 0).then(|| {
        format!(
            "waiting: {unavailable} updated pod{} not available ({}); {} {budget} reached",
            if unavailable == 1 { "" } else { "s" },
            reasons.join(", "),
            if surge { "maxSurge" } else { "maxUnavailable" }
        )
    });
    let words = format!(
        "{in_progress} of {} {budget} in progress",
        if surge { "maxSurge" } else { "maxUnavailable" }
    );
    Some(Wave {
        namespace: ds.metadata.namespace.clone().unwrap_or_default(),
        daemon_set: ds.metadata.name.clone().unwrap_or_default(),
        in_progress,
        budget,
        surge,
        words,
        nodes,
        waiting,
    })
}

/// The first `limit` of `items` as a stable sort by `le` (a <= b) would order them, in one
/// pass that compares most items only with the last one kept: the events panel wants 200
/// rows of 10,000 events every frame, and sorting them all took most of its time.
fn first_in_order<T: Copy>(items: Vec<T>, limit: usize, le: impl Fn(T, T) -> bool) -> Vec<T> {
    let mut kept: Vec<T> = Vec::with_capacity(limit.saturating_add(1).min(items.len()));
    if limit == 0 {
        return kept;
    }
    for item in items {
        if kept.len() == limit && kept.last().is_some_and(|&last| le(last, item)) {
            continue;
        }
        // After every kept item that is <= this one: equal items keep their order.
        let at = kept.partition_point(|&k| le(k, item));
        kept.insert(at, item);
        kept.truncate(limit);
    }
    kept
}

/// One row of `kubectl get events`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRow {
    pub last_seen: String,
    pub type_: String,
    pub reason: String,
    /// `pod/agent-x7k2p`
    pub object: String,
    pub message: String,
}

/// The events as `kubectl get events` lists them (same columns, same words, same order),
/// keeping those whose involved object (`kind/name`, case-insensitive) contains `filter`.
pub fn event_rows(c: &Cluster, filter: Option<&str>) -> Vec<EventRow> {
    event_table(c, filter, usize::MAX).rows
}

/// The first rows of [`event_rows`], and how many rows there are in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventTable {
    pub rows: Vec<EventRow>,
    pub total: usize,
}

/// [`event_rows`] up to `limit` rows, with the total: a panel cannot show the thousands of
/// events of a large cluster (one `SuccessfulCreate` per pod) frame after frame, and only the
/// rows it shows are formatted.
pub fn event_table(c: &Cluster, filter: Option<&str>, limit: usize) -> EventTable {
    let now = c.now();
    let filter = filter
        .map(|f| apiserver::gofmt::to_lower(f.trim()))
        .filter(|f| !f.is_empty());
    // The events the filter keeps, borrowed: the panel asks every frame, and a large cluster
    // has thousands.
    let mut events: Vec<_> = match &filter {
        Some(f) => c
            .events()
            .iter()
            .filter(|e| apiserver::gofmt::to_lower(&kubectl::event_object(e)).contains(f.as_str()))
            .collect(),
        None => c.events().iter().collect(),
    };
    let total = events.len();
    // As kubectl lists every kind: by namespace, then name.
    fn key(e: &Event) -> (&Option<String>, &Option<String>) {
        (&e.metadata.namespace, &e.metadata.name)
    }
    if limit >= total {
        sort::sort_by(&mut events, |a, b| key(a).cmp(&key(b)));
    } else {
        events = first_in_order(events, limit, |a, b| key(a) <= key(b));
    }
    let mut rows = Vec::new();
    for e in events {
        if let Ok([last_seen, type_, reason, object, message]) =
            <[String; 5]>::try_from(kubectl::event_row(e, false, now))
        {
            rows.push(EventRow {
                last_seen,
                type_,
                reason,
                object,
                message,
            });
        }
    }
    EventTable { rows, total }
}

#[cfg(test)]
mod tests {
    use super::first_in_order;
    use proptest::prelude::*;

    proptest! {
        /// The first `limit` items, in the order of a stable sort (equal keys in input order).
        #[test]
        fn first_in_order_is_the_head_of_a_stable_sort(
            v in prop::collection::vec((0u8..8, any::<u16>()), 0..120),
            limit in 0usize..130,
        ) {
            let refs: Vec<&(u8, u16)> = v.iter().collect();
            let ours = first_in_order(refs.clone(), limit, |a, b| a.0 <= b.0);
            let mut sorted = refs;
            sorted.sort_by_key(|x| x.0);
            sorted.truncate(limit);
            prop_assert_eq!(ours, sorted);
        }
    }
}
