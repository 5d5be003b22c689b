//! Property tests: random clusters and DaemonSets, synced to a fixed point with instant pod
//! control (R-MAN, R-ST), and the eligibility predicate against an oracle written from the spec
//! (R-ELG-1..4, R-TOL-1) and against its own `explain`.

mod support;
use support::*;
#[path = "support/recount.rs"]
mod recount;
use recount::{available_at, is_terminal, ready_condition, status_counters, target_node};

use controller::client::{ApiError, Client, Listers, ObjectPatch, RecordedEvent};
use controller::keys::CONTROLLER_REVISION_HASH_LABEL;
use controller::{node_should_run_daemon_pod, DaemonPodPredicate, MapOrder};
use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
use k8s_openapi::api::core::v1::{
    Affinity, Node, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Pod,
    Taint, Toleration,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{OwnerReference, Time};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use k8s_openapi::jiff::Timestamp;
use proptest::prelude::*;
use proptest::sample::select;
use std::sync::Arc;

// ----- vocabulary -----

/// Node label keys and the values they take (small, so selectors sometimes match).
const LABEL_VOCAB: &[(&str, &[&str])] = &[
    ("zone", &["a", "b", "c"]),
    ("disk", &["ssd", "hdd"]),
    ("tier", &["1", "2", "3", "x"]),
    ("gpu", &["true"]),
];
/// Keys a requirement may name (one that no node carries).
const REQ_KEYS: &[&str] = &["zone", "disk", "tier", "gpu", "missing"];
const ALL_VALUES: &[&str] = &["a", "b", "c", "ssd", "hdd", "1", "2", "3", "x", "true"];
const TAINT_KEYS: &[&str] = &[
    "node.kubernetes.io/not-ready",
    "node.kubernetes.io/unreachable",
    "node.kubernetes.io/unschedulable",
    "node.kubernetes.io/network-unavailable",
    "node.kubernetes.io/disk-pressure",
    "dedicated",
];
const EFFECTS: &[&str] = &["NoSchedule", "PreferNoSchedule", "NoExecute"];
const TAINT_VALUES: &[&str] = &["", "user1", "user2"];
/// Node indices referenced by pods and matchFields go past the largest cluster on purpose.
const NODE_REFS: std::ops::Range<usize> = 0..34;
const DS: &str = "ds";
/// Malformed (operator, values) pairs: they make their term match nothing (R-ELG-2).
type OpValues = (&'static str, &'static [&'static str]);
const MALFORMED: &[OpValues] = &[
    ("In", &[]),
    ("NotIn", &[]),
    ("Gt", &["abc"]),
    ("Lt", &["1", "2"]),
    ("Exists", &["a"]),
    ("Foo", &[]),
];

fn node_name(i: usize) -> String {
    format!("node-{i:02}")
}

// ----- strategies -----

fn node_labels_s() -> impl Strategy<Value = Option<Labels>> {
    let per_key: Vec<_> = LABEL_VOCAB
        .iter()
        .map(|&(k, vals)| {
            prop::option::weighted(0.6, select(vals)).prop_map(move |v| v.map(|v| (k, v)))
        })
        .collect();
    per_key.prop_map(|kv| {
        let l: Labels = kv
            .into_iter()
            .flatten()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        (!l.is_empty()).then_some(l)
    })
}

fn taint_s() -> impl Strategy<Value = Taint> {
    (select(TAINT_KEYS), select(TAINT_VALUES), select(EFFECTS)).prop_map(|(k, v, e)| taint(k, v, e))
}

fn nodes_s() -> impl Strategy<Value = Vec<Node>> {
    let taints = prop_oneof![
        2 => Just(Vec::new()),
        1 => prop::collection::vec(taint_s(), 1..=3),
    ];
    prop::collection::vec((node_labels_s(), taints), 0..=30).prop_map(|v| {
        v.into_iter()
            .enumerate()
            .map(|(i, (labels, taints))| {
                let mut n = new_node(&node_name(i), labels);
                if !taints.is_empty() {
                    set_node_taints(&mut n, taints);
                }
                n
            })
            .collect()
    })
}

fn toleration_s() -> impl Strategy<Value = Toleration> {
    let s = |x: Option<&str>| x.map(str::to_string);
    (
        prop::option::of(select(TAINT_KEYS)),
        prop::option::of(select(&["Equal", "Exists"][..])),
        prop::option::of(select(TAINT_VALUES)),
        prop::option::of(select(
            &["NoSchedule", "PreferNoSchedule", "NoExecute", ""][..],
        )),
    )
        .prop_map(move |(key, op, value, effect)| Toleration {
            key: s(key),
            operator: s(op),
            value: s(value),
            effect: s(effect),
            toleration_seconds: None,
        })
}

fn req(key: &str, op: &str, values: Vec<&str>) -> NodeSelectorRequirement {
    NodeSelectorRequirement {
        key: key.into(),
        operator: op.into(),
        values: (!values.is_empty()).then(|| values.into_iter().map(String::from).collect()),
    }
}

fn label_req_s() -> impl Strategy<Value = NodeSelectorRequirement> {
    let key = select(REQ_KEYS);
    prop_oneof![
        3 => (key.clone(), select(&["In", "NotIn"][..]), prop::collection::vec(select(ALL_VALUES), 1..=2))
            .prop_map(|(k, op, v)| req(k, op, v)),
        2 => (key.clone(), select(&["Exists", "DoesNotExist"][..]))
            .prop_map(|(k, op)| req(k, op, vec![])),
        2 => (select(&["tier", "zone"][..]), select(&["Gt", "Lt"][..]), select(&["0", "1", "2", "3", "4"][..]))
            .prop_map(|(k, op, v)| req(k, op, vec![v])),
        1 => (key, select(MALFORMED))
            .prop_map(|(k, (op, v))| req(k, op, v.to_vec())),
    ]
}

fn field_req_s() -> impl Strategy<Value = NodeSelectorRequirement> {
    prop_oneof![
        6 => NODE_REFS.prop_map(|i| req("metadata.name", "In", vec![&node_name(i)])),
        2 => NODE_REFS.prop_map(|i| req("metadata.name", "NotIn", vec![&node_name(i)])),
        1 => NODE_REFS.prop_map(|i| req("metadata.uid", "In", vec![&node_name(i)])),
        1 => (NODE_REFS, NODE_REFS)
            .prop_map(|(i, j)| req("metadata.name", "In", vec![&node_name(i), &node_name(j)])),
    ]
}

fn term_s() -> impl Strategy<Value = NodeSelectorTerm> {
    (
        prop::collection::vec(label_req_s(), 0..=2),
        prop::option::weighted(0.3, field_req_s()),
        any::<bool>(),
    )
        .prop_map(|(exprs, field, empty_as_some)| NodeSelectorTerm {
            match_expressions: (!exprs.is_empty() || empty_as_some).then_some(exprs),
            match_fields: field.map(|f| vec![f]),
        })
}

fn required_s() -> impl Strategy<Value = Option<NodeSelector>> {
    prop_oneof![
        6 => Just(None),
        3 => prop::collection::vec(term_s(), 1..=3)
            .prop_map(|terms| Some(NodeSelector { node_selector_terms: terms })),
        // No terms: matches no node.
        1 => Just(Some(NodeSelector::default())),
    ]
}

fn node_selector_s() -> impl Strategy<Value = Option<Labels>> {
    let pair =
        select(LABEL_VOCAB).prop_flat_map(|(k, vals)| select(vals).prop_map(move |v| (k, v)));
    prop_oneof![
        3 => Just(None),
        1 => prop::collection::vec(pair, 0..=2).prop_map(|kv| {
            Some(kv.into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect())
        }),
    ]
}

#[derive(Debug, Clone, Copy)]
enum UpdateKind {
    OnDelete,
    Unavailable(i32),
    UnavailablePercent(&'static str),
    Surge(i32),
    SurgePercent(&'static str),
}

/// A DaemonSet with random eligibility inputs, update strategy and minReadySeconds.
fn daemon_set_s() -> impl Strategy<Value = DaemonSet> {
    (
        node_selector_s(),
        required_s(),
        prop::collection::vec(toleration_s(), 0..=3),
        prop::option::of(any::<bool>()),
        prop::option::weighted(0.1, NODE_REFS),
        select(
            &[
                UpdateKind::OnDelete,
                UpdateKind::Unavailable(1),
                UpdateKind::UnavailablePercent("25%"),
                UpdateKind::Surge(1),
                UpdateKind::SurgePercent("30%"),
            ][..],
        ),
        select(&[0, 0, 0, 5, 25][..]),
    )
        .prop_map(
            |(node_selector, required, tolerations, host_network, pinned, strategy, mrs)| {
                let mut ds = new_daemon_set(DS);
                ds.spec.update_strategy = Some(match strategy {
                    UpdateKind::OnDelete => on_delete(),
                    UpdateKind::Unavailable(n) => update_unavailable(IntOrString::Int(n)),
                    UpdateKind::UnavailablePercent(p) => {
                        update_unavailable(IntOrString::String(p.into()))
                    }
                    UpdateKind::Surge(n) => update_surge(IntOrString::Int(n)),
                    UpdateKind::SurgePercent(p) => update_surge(IntOrString::String(p.into())),
                });
                ds.spec.min_ready_seconds = (mrs > 0).then_some(mrs);
                let spec = template_spec(&mut ds);
                spec.node_selector = node_selector;
                spec.affinity = required.map(|r| Affinity {
                    node_affinity: Some(NodeAffinity {
                        required_during_scheduling_ignored_during_execution: Some(r),
                        ..Default::default()
                    }),
                    ..Default::default()
                });
                spec.tolerations = (!tolerations.is_empty()).then_some(tolerations);
                spec.host_network = host_network;
                spec.node_name = pinned.map(node_name);
                ds
            },
        )
}

/// Who a pre-existing pod belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owner {
    /// Controlled by the DS, labels match its selector.
    Ds,
    /// No controller, labels match: adopted (R-CLM-4).
    Orphan,
    /// Controlled by the DS but labels no longer match: released (R-CLM-3).
    DsStaleLabels,
    /// Controlled by someone else, labels match: ignored (R-CLM-1).
    Other,
}

#[derive(Debug, Clone)]
struct PodDesc {
    owner: Owner,
    node: usize,
    /// Bound via spec.nodeName, else targeted via the injected affinity only.
    bound: bool,
    current_revision: bool,
    phase: &'static str,
    ready: bool,
    created: Option<i64>,
}

/// Pods mostly target the cluster's `n` nodes, sometimes a node that does not exist.
fn pods_s(n: usize) -> impl Strategy<Value = Vec<PodDesc>> {
    let node = prop_oneof![
        12 => 0..n.max(1),
        1 => NODE_REFS,
    ];
    let owner = select(
        &[
            Owner::Ds,
            Owner::Ds,
            Owner::Ds,
            Owner::Ds,
            Owner::Orphan,
            Owner::DsStaleLabels,
            Owner::Other,
        ][..],
    );
    let phase = select(
        &[
            "Running",
            "Running",
            "Running",
            "Pending",
            "",
            "Failed",
            "Failed",
            "Succeeded",
        ][..],
    );
    let desc = (
        owner,
        node,
        prop::bool::weighted(0.85),
        any::<bool>(),
        phase,
        any::<bool>(),
        prop::option::weighted(0.8, -100i64..0),
    )
        .prop_map(
            |(owner, node, bound, current_revision, phase, ready, created)| PodDesc {
                owner,
                node,
                bound,
                current_revision,
                phase,
                ready,
                created,
            },
        );
    prop::collection::vec(desc, 0..=40)
}

fn build_pod(i: usize, d: &PodDesc, ds: &DaemonSet) -> Pod {
    let node = node_name(d.node);
    let pod_labels = if d.owner == Owner::DsStaleLabels {
        l2()
    } else {
        l1()
    };
    let mut pod = new_pod(&format!("pre-{i:02}"), &node, &pod_labels, ds);
    if !d.current_revision {
        pod.metadata
            .labels
            .get_or_insert_with(Default::default)
            .insert(CONTROLLER_REVISION_HASH_LABEL.into(), "oldhash".into());
    }
    match d.owner {
        Owner::Orphan => pod.metadata.owner_references = None,
        Owner::Other => {
            pod.metadata.owner_references = Some(vec![OwnerReference {
                api_version: "apps/v1".into(),
                kind: "DaemonSet".into(),
                name: "other".into(),
                uid: "uid-other".into(),
                controller: Some(true),
                block_owner_deletion: Some(true),
            }])
        }
        Owner::Ds | Owner::DsStaleLabels => {}
    }
    if !d.bound {
        let spec = pod.spec.get_or_insert_with(Default::default);
        spec.node_name = None;
        spec.affinity =
            Some(controller::util::replace_daemon_set_pod_node_name_node_affinity(None, &node));
    }
    if !d.phase.is_empty() {
        set_phase(&mut pod, d.phase);
    }
    if d.ready {
        set_ready(&mut pod, true, Some(at(-200)));
    }
    pod.metadata.creation_timestamp = d.created.map(time);
    pod
}

// ----- a cluster whose pod control is instant and complete -----

/// The unit harness plus what it lacks for a fixed-point run: it deletes any pod (not only
/// its own), applies pod patches (adoption, release, relabel) and stores status writes back
/// into the DaemonSet cache, as an apiserver would.
struct Cluster {
    fake: Fake,
    creates: usize,
    deletes: usize,
    resource_version: u64,
    /// Go-map orders, one seed per sync from this one (None: the listing order).
    map_seed: Option<u64>,
    syncs: u64,
}

impl Cluster {
    fn pod_index(&self, ns: &str, name: &str) -> Option<usize> {
        self.fake.pods.iter().position(|p| {
            p.metadata.namespace.as_deref() == Some(ns) && p.metadata.name.as_deref() == Some(name)
        })
    }

    fn node_exists(&self, name: &str) -> bool {
        self.fake
            .nodes
            .iter()
            .any(|n| n.metadata.name.as_deref() == Some(name))
    }

    /// Instant scheduler and kubelet: every live pod targeting an existing node gets bound,
    /// a creation time, phase Running and Ready=True (transition at `now`). Returns the
    /// (old, new) pairs it changed, each with a new resourceVersion, for the watch handlers.
    fn run_kubelets(&mut self, now: Timestamp) -> Vec<(Arc<Pod>, Arc<Pod>)> {
        let mut changed = Vec::new();
        for i in 0..self.fake.pods.len() {
            let pod = &self.fake.pods[i];
            if matches!(controller::pod_util::phase(pod), "Failed" | "Succeeded") {
                continue;
            }
            let Some(target) = target_node(pod).map(str::to_string) else {
                continue;
            };
            if !self.node_exists(&target) {
                continue;
            }
            let mut p = (**pod).clone();
            let spec = p.spec.get_or_insert_with(Default::default);
            if spec.node_name.as_deref().unwrap_or("").is_empty() {
                spec.node_name = Some(target);
            }
            p.metadata.creation_timestamp.get_or_insert(Time(now));
            if controller::pod_util::phase(&p) != "Running" {
                set_phase(&mut p, "Running");
            }
            if !controller::pod_util::is_pod_ready(&p) {
                set_ready(&mut p, true, Some(now));
            }
            if p != **pod {
                self.resource_version += 1;
                p.metadata.resource_version = Some(self.resource_version.to_string());
                let new = Arc::new(p);
                changed.push((pod.clone(), new.clone()));
                self.fake.pods[i] = new;
            }
        }
        changed
    }
}

impl Listers for Cluster {
    fn daemon_set(&self, namespace: &str, name: &str) -> Option<Arc<DaemonSet>> {
        self.fake.daemon_set(namespace, name)
    }
    fn daemon_sets(&self, namespace: &str) -> Vec<Arc<DaemonSet>> {
        self.fake.daemon_sets(namespace)
    }
    fn all_daemon_sets(&self) -> Vec<Arc<DaemonSet>> {
        self.fake.all_daemon_sets()
    }
    fn nodes(&self) -> Vec<Arc<Node>> {
        self.fake.nodes()
    }
    fn node(&self, name: &str) -> Option<Arc<Node>> {
        self.fake.node(name)
    }
    fn pods(&self, namespace: &str) -> Vec<Arc<Pod>> {
        self.fake.pods(namespace)
    }
    fn pod(&self, namespace: &str, name: &str) -> Option<Arc<Pod>> {
        self.fake.pod(namespace, name)
    }
    fn revisions(&self, namespace: &str) -> Vec<Arc<ControllerRevision>> {
        self.fake.revisions(namespace)
    }
}

impl Client for Cluster {
    fn map_order(&mut self) -> MapOrder {
        self.syncs += 1;
        self.map_seed
            .map_or(MapOrder::Listed, |s| MapOrder::Seeded(s ^ self.syncs))
    }
    fn get_daemon_set(&mut self, namespace: &str, name: &str) -> Result<DaemonSet, ApiError> {
        self.fake.get_daemon_set(namespace, name)
    }
    fn update_daemon_set_status(&mut self, ds: &DaemonSet) -> Result<DaemonSet, ApiError> {
        let stored = self.fake.update_daemon_set_status(ds)?;
        self.fake.add_ds(stored.clone());
        Ok(stored)
    }
    fn create_pod(&mut self, namespace: &str, pod: Pod) -> Result<Pod, ApiError> {
        self.creates += 1;
        self.fake.create_pod(namespace, pod)
    }
    fn delete_pod(&mut self, namespace: &str, name: &str) -> Result<(), ApiError> {
        self.deletes += 1;
        let i = self
            .pod_index(namespace, name)
            .ok_or_else(|| ApiError::NotFound {
                resource: "pods".into(),
                name: name.into(),
            })?;
        self.fake.pods.remove(i);
        Ok(())
    }
    fn patch_pod(
        &mut self,
        namespace: &str,
        name: &str,
        patch: &ObjectPatch,
    ) -> Result<(), ApiError> {
        let i = self
            .pod_index(namespace, name)
            .ok_or_else(|| ApiError::NotFound {
                resource: "pods".into(),
                name: name.into(),
            })?;
        let mut pod = (*self.fake.pods[i]).clone();
        match patch {
            ObjectPatch::AdoptBy(r) => pod
                .metadata
                .owner_references
                .get_or_insert_with(Vec::new)
                .push(r.clone()),
            ObjectPatch::ReleaseFrom { uid } => {
                if let Some(refs) = pod.metadata.owner_references.as_mut() {
                    refs.retain(|r| &r.uid != uid);
                }
            }
            ObjectPatch::SetLabel { key, value } => {
                pod.metadata
                    .labels
                    .get_or_insert_with(Default::default)
                    .insert(key.clone(), value.clone());
            }
        }
        self.fake.pods[i] = Arc::new(pod);
        Ok(())
    }
    fn create_revision(
        &mut self,
        namespace: &str,
        revision: ControllerRevision,
    ) -> Result<ControllerRevision, ApiError> {
        self.fake.create_revision(namespace, revision)
    }
    fn get_revision(
        &mut self,
        namespace: &str,
        name: &str,
    ) -> Result<ControllerRevision, ApiError> {
        self.fake.get_revision(namespace, name)
    }
    fn update_revision(
        &mut self,
        revision: &ControllerRevision,
    ) -> Result<ControllerRevision, ApiError> {
        self.fake.update_revision(revision)
    }
    fn patch_revision(
        &mut self,
        namespace: &str,
        name: &str,
        patch: &ObjectPatch,
    ) -> Result<(), ApiError> {
        self.fake.patch_revision(namespace, name, patch)
    }
    fn delete_revision(&mut self, namespace: &str, name: &str) -> Result<(), ApiError> {
        self.fake.delete_revision(namespace, name)
    }
    fn record_event(&mut self, event: RecordedEvent) {
        self.fake.record_event(event)
    }
    fn observes_synchronously(&self) -> bool {
        true
    }
}

// ----- independent counting (R-ST-1..5 in `support/recount.rs`) -----

/// Ready, but not Available yet: it will be once `minReadySeconds` have passed (R-AVL-1).
fn becomes_available_later(p: &Pod, min_ready_seconds: Option<i32>, now: Timestamp) -> bool {
    let mrs = i64::from(min_ready_seconds.unwrap_or(0));
    match ready_condition(p) {
        Some((true, Some(since))) if mrs > 0 => available_at(since, mrs).is_some_and(|a| a > now),
        _ => false,
    }
}

/// R-ST-1..5 counted directly from the harness's objects.
fn expected_status(c: &Cluster, ds: &DaemonSet, now: Timestamp) -> [i32; 7] {
    recount::expected_status(
        &c.fake.nodes,
        &c.fake.pods,
        ds,
        &l1(),
        &current_hash(ds),
        now,
    )
}

/// The DS's pods on `node` (selector `l1()`).
fn ds_pods_on<'a>(pods: &'a [Arc<Pod>], ds: &DaemonSet, node: &str) -> Vec<&'a Pod> {
    recount::ds_pods_on(pods, ds, &l1(), node)
}

const MAX_SYNCS: usize = 100;
/// Seconds between syncs; when nothing happens the clock jumps to the controller's next timer.
const STEP_SECS: i64 = 10;

fn check_fixed_point(
    nodes: Vec<Node>,
    ds: DaemonSet,
    pods: Vec<PodDesc>,
    map_seed: Option<u64>,
) -> Result<(), TestCaseError> {
    let mut c = Cluster {
        fake: Fake::new(),
        creates: 0,
        deletes: 0,
        resource_version: 0,
        map_seed,
        syncs: 0,
    };
    for n in nodes {
        c.fake.add_node(n);
    }
    for (i, d) in pods.iter().enumerate() {
        c.fake.add_pod(build_pod(i, d, &ds));
    }
    c.fake.add_ds(ds);
    let bound_to_missing: Vec<String> = c
        .fake
        .pods
        .iter()
        .filter(|p| {
            p.spec
                .as_ref()
                .and_then(|s| s.node_name.as_deref())
                .is_some_and(|n| !c.node_exists(n))
        })
        .filter_map(|p| p.metadata.name.clone())
        .collect();
    let mut ctl = test_controller();
    let key = format!("default/{DS}");

    let mut t = 0;
    let mut converged = false;
    for _ in 0..MAX_SYNCS {
        // The driver syncs the key every round anyway: drop whatever is due.
        while ctl.queue.pop(at(t)).is_some() {}
        c.creates = 0;
        c.deletes = 0;
        c.fake.reset_counters();
        // Errors are legitimate for some inputs (R-NODE-3); the sync still did its work.
        let _ = ctl.sync_daemon_set(&mut c, &key, at(t));
        // Every sync (not only the last) writes what it counts, or skips an equal write.
        let ds_now = c.fake.ds(DS);
        prop_assert_eq!(
            status_counters(&ds_now.status.clone().unwrap_or_default()),
            expected_status(&c, &ds_now, at(t)),
            "status after the sync at t={}",
            t
        );
        let quiet = c.creates == 0 && c.deletes == 0;
        let changed = c.run_kubelets(at(t));
        for (old, new) in &changed {
            ctl.on_pod_update(&c, old, new, at(t));
        }
        // R-EVT-5 / R-ST-6 timers (minReadySeconds) are the controller asking for more.
        let waiting = ctl.queue.waiting_until(&key);
        // Availability also changes with time alone (R-AVL-1). The queue keeps only a key's
        // earliest timer (R-EVT-11, as client-go's), so the R-EVT-5 timer of a pod that just
        // became ready can be absorbed by an earlier one (a failed-pod backoff, R-MAN-4), and
        // when the status counts an older, available pod on that node (R-ST-3) no R-ST-6 timer
        // follows: nothing wakes the controller when the new pod becomes available (a real
        // cluster waits for the informer's resync). This driver syncs every round anyway, so
        // it is not at a fixed point while any pod is still on its way to available.
        let availability_pending = c.fake.pods.iter().any(|p| {
            p.metadata.deletion_timestamp.is_none()
                && !is_terminal(p)
                && becomes_available_later(p, ds_now.spec.min_ready_seconds, at(t))
        });
        if quiet && changed.is_empty() && waiting.is_none() && !availability_pending {
            converged = true;
            break;
        }
        t = match waiting {
            Some(w) if quiet && changed.is_empty() => w.as_second() - at(0).as_second(),
            _ => t + STEP_SECS,
        };
    }
    prop_assert!(converged, "no fixed point after {MAX_SYNCS} syncs");

    let ds = c.fake.ds(DS);
    let mut old_pods_left = false;
    let mut pods_on_missing_nodes = false;
    let hash = current_hash(&ds);
    for node in &c.fake.nodes {
        let name = node.metadata.name.as_deref().unwrap();
        let should = node_should_run_daemon_pod(node, &ds);
        let pods = ds_pods_on(&c.fake.pods, &ds, name);
        let live: Vec<_> = pods
            .iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .collect();
        if should.should_run {
            prop_assert_eq!(
                live.len(),
                1,
                "shouldRun node {} has {} pods",
                name,
                live.len()
            );
            prop_assert!(!is_terminal(live[0]), "pod on {name} is terminal");
        } else if should.should_continue_running {
            prop_assert!(live.len() <= 1, "node {name} keeps {} pods", live.len());
        } else {
            prop_assert!(
                live.is_empty(),
                "node {name} must not run the DS: {} pods",
                live.len()
            );
        }
        old_pods_left |= pods.iter().any(|p| {
            p.metadata
                .labels
                .as_ref()
                .and_then(|l| l.get(CONTROLLER_REVISION_HASH_LABEL))
                != Some(&hash)
        });
    }
    for p in c.fake.pods.iter() {
        let target = target_node(p).unwrap_or("");
        if c.node_exists(target)
            || !ds_pods_on(&c.fake.pods, &ds, target)
                .iter()
                .any(|q| q.metadata.name == p.metadata.name)
        {
            continue;
        }
        pods_on_missing_nodes = true;
        // R-NODE-1: unscheduled DS pods aimed at a missing node are deleted.
        let bound = p
            .spec
            .as_ref()
            .and_then(|s| s.node_name.as_deref())
            .is_some_and(|n| !n.is_empty());
        prop_assert!(
            bound,
            "unscheduled pod {:?} targets missing node {target}",
            p.metadata.name
        );
    }
    // R-NODE-2: bound pods on missing nodes are not the controller's to delete (only a rolling
    // update may replace them, R-RU-5).
    if !controller::util::is_rolling_update(&ds) {
        for name in &bound_to_missing {
            prop_assert!(
                c.fake
                    .pods
                    .iter()
                    .any(|p| p.metadata.name.as_deref() == Some(name)),
                "pod {name} bound to a missing node was deleted"
            );
        }
    }

    let written = ds.status.clone().unwrap_or_default();
    let expected = expected_status(&c, &ds, at(t));
    prop_assert_eq!(status_counters(&written), expected);

    // A rolling update completes, on desired and other nodes alike (R-RU-6..13), unless a DS
    // pod bound to a missing node holds it up (R-NODE-2/3, R-RU-6) or nothing is desired
    // (percentages then resolve to 0, R-RU-2/3).
    let desired = expected[0];
    if controller::util::is_rolling_update(&ds) && !pods_on_missing_nodes && desired > 0 {
        prop_assert!(!old_pods_left, "rolling update left old pods");
    }
    Ok(())
}

// ----- an eligibility oracle written from the spec -----

fn oracle_requirement(r: &NodeSelectorRequirement, labels: &Labels) -> bool {
    let values = r.values.clone().unwrap_or_default();
    let have = labels.get(&r.key);
    match r.operator.as_str() {
        "In" => !values.is_empty() && have.is_some_and(|h| values.contains(h)),
        "NotIn" => !values.is_empty() && have.is_none_or(|h| !values.contains(h)),
        "Exists" => values.is_empty() && have.is_some(),
        "DoesNotExist" => values.is_empty() && have.is_none(),
        "Gt" | "Lt" => {
            let (Ok(bound), 1) = (
                values[..].first().map_or("", |v| v).parse::<i64>(),
                values.len(),
            ) else {
                return false;
            };
            match have.and_then(|h| h.parse::<i64>().ok()) {
                Some(v) if r.operator == "Gt" => v > bound,
                Some(v) => v < bound,
                None => false,
            }
        }
        _ => false,
    }
}

fn oracle_field(r: &NodeSelectorRequirement, name: &str) -> bool {
    let values = r.values.clone().unwrap_or_default();
    if r.key != "metadata.name" || values.len() != 1 {
        return false;
    }
    match r.operator.as_str() {
        "In" => values[0] == name,
        "NotIn" => values[0] != name,
        _ => false,
    }
}

fn oracle_tolerates(t: &Toleration, taint: &Taint) -> bool {
    let s = |x: &Option<String>| x.clone().unwrap_or_default();
    (s(&t.effect).is_empty() || s(&t.effect) == taint.effect)
        && (s(&t.key).is_empty() || s(&t.key) == taint.key)
        && match s(&t.operator).as_str() {
            "Exists" => true,
            "" | "Equal" => s(&t.value) == s(&taint.value),
            _ => false,
        }
}

/// R-ELG-1..4 with the R-TOL-1 defaults, from the spec's words.
fn oracle(ds: &DaemonSet, node: &Node) -> (bool, bool) {
    let spec = ds.spec.template.spec.clone().unwrap_or_default();
    let name = node.metadata.name.clone().unwrap_or_default();
    let labels = node.metadata.labels.clone().unwrap_or_default();
    if spec
        .node_name
        .as_deref()
        .is_some_and(|n| !n.is_empty() && n != name)
    {
        return (false, false);
    }
    if !spec
        .node_selector
        .iter()
        .flatten()
        .all(|(k, v)| labels.get(k) == Some(v))
    {
        return (false, false);
    }
    if let Some(req) = spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|n| {
            n.required_during_scheduling_ignored_during_execution
                .as_ref()
        })
    {
        let term_matches = |t: &NodeSelectorTerm| {
            let exprs = t.match_expressions.clone().unwrap_or_default();
            let fields = t.match_fields.clone().unwrap_or_default();
            !(exprs.is_empty() && fields.is_empty())
                && exprs.iter().all(|r| oracle_requirement(r, &labels))
                && fields.iter().all(|r| oracle_field(r, &name))
        };
        if !req.node_selector_terms.iter().any(term_matches) {
            return (false, false);
        }
    }
    let mut tolerations = spec.tolerations.clone().unwrap_or_default();
    let mut defaults = vec![
        ("node.kubernetes.io/not-ready", "NoExecute"),
        ("node.kubernetes.io/unreachable", "NoExecute"),
        ("node.kubernetes.io/disk-pressure", "NoSchedule"),
        ("node.kubernetes.io/memory-pressure", "NoSchedule"),
        ("node.kubernetes.io/pid-pressure", "NoSchedule"),
        ("node.kubernetes.io/unschedulable", "NoSchedule"),
    ];
    if spec.host_network == Some(true) {
        defaults.push(("node.kubernetes.io/network-unavailable", "NoSchedule"));
    }
    tolerations.extend(defaults.into_iter().map(|(k, e)| Toleration {
        key: Some(k.into()),
        operator: Some("Exists".into()),
        effect: Some(e.into()),
        ..Default::default()
    }));
    let taints = node
        .spec
        .as_ref()
        .and_then(|s| s.taints.clone())
        .unwrap_or_default();
    let untolerated: Vec<&Taint> = taints
        .iter()
        .filter(|t| t.effect == "NoSchedule" || t.effect == "NoExecute")
        .filter(|t| !tolerations.iter().any(|tol| oracle_tolerates(tol, t)))
        .collect();
    (
        untolerated.is_empty(),
        untolerated.iter().all(|t| t.effect != "NoExecute"),
    )
}

// ----- properties -----

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Sync to a fixed point with instant pod control (and the controller's own timers), then:
    /// one pod per shouldRun node, none where it may not continue, at most one where it may
    /// (R-MAN-1..7); no unscheduled pod left on a missing node, bound ones untouched
    /// (R-NODE-1/2); a rolling update finishes (R-RU). After every sync, the stored status
    /// equals a direct count (R-ST-1..5).
    #[test]
    fn sync_reaches_a_correct_fixed_point(
        (nodes, pods) in nodes_s().prop_flat_map(|nodes| {
            let n = nodes.len();
            (Just(nodes), pods_s(n))
        }),
        ds in daemon_set_s(),
        // Lister order: by name, or not (the controller must not depend on it).
        reverse_nodes in any::<bool>(),
        // Go-map order: listed, or random per sync (R-SIM-1: counts must not depend on it).
        map_seed in proptest::option::of(any::<u64>()),
    ) {
        let mut nodes = nodes;
        if reverse_nodes {
            nodes.reverse();
        }
        check_fixed_point(nodes, ds, pods, map_seed)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// `evaluate` agrees with the spec oracle and with `explain`; `explain` shows a failing
    /// check exactly when the decision is not (true, true).
    #[test]
    fn eligibility_matches_oracle_and_explanation(
        nodes in nodes_s(),
        ds in daemon_set_s(),
    ) {
        let predicate = DaemonPodPredicate::new(&ds);
        for node in &nodes {
            let decision = predicate.evaluate(node);
            prop_assert_eq!(decision, node_should_run_daemon_pod(node, &ds));
            prop_assert_eq!(
                (decision.should_run, decision.should_continue_running),
                oracle(&ds, node),
                "node {:?}", node
            );
            prop_assert!(decision.should_continue_running || !decision.should_run);
            let explained = predicate.explain(node);
            prop_assert_eq!(explained.decision, decision);
            prop_assert_eq!(explained.node.as_str(), node.metadata.name.as_deref().unwrap());
            let all_run = decision.should_run && decision.should_continue_running;
            let failing = explained.checks.iter().any(|c| !c.passed);
            prop_assert_eq!(failing, !all_run, "checks {:?}", explained.checks);
        }
    }
}

/// A case the fixed-point property found: surge 1, minReadySeconds 25, one node holding an
/// unready current pod, a ready old one and two failed current ones. The failed pods' backoff
/// timer absorbs the new pod's R-EVT-5 timer, and the status counts the old, available pod:
/// the controller gets no timer for the moment the new pod becomes available, and only a later
/// sync (here the driver's next round) deletes the old pod.
#[test]
fn surge_with_failed_and_unready_pods_reaches_a_fixed_point() {
    let mut labels = Labels::new();
    for (k, v) in [("disk", "ssd"), ("gpu", "true"), ("zone", "b")] {
        labels.insert(k.into(), v.into());
    }
    let nodes = vec![new_node(&node_name(0), Some(labels))];
    let mut ds = new_daemon_set(DS);
    ds.spec.update_strategy = Some(update_surge(IntOrString::Int(1)));
    ds.spec.min_ready_seconds = Some(25);
    let pod = |bound, current_revision, phase, ready, created| PodDesc {
        owner: Owner::Ds,
        node: 0,
        bound,
        current_revision,
        phase,
        ready,
        created,
    };
    let pods = vec![
        pod(false, true, "Running", false, None),
        pod(false, false, "", true, Some(-78)),
        pod(false, true, "Failed", true, None),
        pod(true, true, "Failed", true, Some(-29)),
    ];
    if let Err(e) = check_fixed_point(nodes, ds, pods, None) {
        panic!("{e}");
    }
}
