//! The unit harness of `daemon_controller_test.go` / `update_test.go`, as a [`Client`]:
//! informer caches that see our writes at once, a fake pod control that observes its own
//! creates and deletes synchronously (R-SIM-2), and the fixtures of the case catalogue §0.1.
#![allow(dead_code)]

use controller::client::{ApiError, Client, EventSource, Listers, ObjectPatch, RecordedEvent};
use controller::history::compute_hash;
use controller::keys::CONTROLLER_REVISION_HASH_LABEL;
use controller::{DaemonSetsController, MapOrder};
use k8s_openapi::api::apps::v1::{
    ControllerRevision, DaemonSet, DaemonSetSpec, DaemonSetUpdateStrategy, RollingUpdateDaemonSet,
};
use k8s_openapi::api::core::v1::{
    Container, Node, NodeCondition, NodeSpec, NodeStatus, Pod, PodCondition, PodSpec, PodStatus,
    PodTemplateSpec, Taint,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta, Time};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use k8s_openapi::jiff::{SignedDuration, Timestamp};
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

pub type Labels = BTreeMap<String, String>;

pub fn labels(pairs: &[(&str, &str)]) -> Labels {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// L1 `{name: simple-daemon, type: production}`.
pub fn l1() -> Labels {
    labels(&[("name", "simple-daemon"), ("type", "production")])
}
/// L2 `{name: simple-daemon, type: test}`.
pub fn l2() -> Labels {
    labels(&[("name", "simple-daemon"), ("type", "test")])
}
/// N1 `{color: blue, speed: fast}`.
pub fn n1() -> Labels {
    labels(&[("color", "blue"), ("speed", "fast")])
}
/// N2 `{color: red, speed: fast}`.
pub fn n2() -> Labels {
    labels(&[("color", "red"), ("speed", "fast")])
}

/// A fixed epoch for fake clocks: `time.Unix(t, 0)` is `at(t)`.
pub fn at(secs: i64) -> Timestamp {
    Timestamp::from_second(1_700_000_000 + secs).expect("valid timestamp")
}

pub fn time(secs: i64) -> Time {
    Time(at(secs))
}

/// F-DS `newDaemonSet(name)`.
pub fn new_daemon_set(name: &str) -> DaemonSet {
    static UID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let uid = UID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    DaemonSet {
        metadata: ObjectMeta {
            name: Some(name.to_string()),
            namespace: Some("default".to_string()),
            uid: Some(format!("uid-{name}-{uid}")),
            ..Default::default()
        },
        spec: DaemonSetSpec {
            selector: LabelSelector {
                match_labels: Some(l1()),
                match_expressions: None,
            },
            template: PodTemplateSpec {
                metadata: Some(ObjectMeta {
                    labels: Some(l1()),
                    ..Default::default()
                }),
                spec: Some(PodSpec {
                    containers: vec![Container {
                        name: "foo".into(),
                        image: Some("foo/bar".into()),
                        image_pull_policy: Some("IfNotPresent".into()),
                        ..Default::default()
                    }],
                    dns_policy: Some("Default".into()),
                    ..Default::default()
                }),
            },
            revision_history_limit: Some(2),
            update_strategy: Some(on_delete()),
            min_ready_seconds: None,
        },
        status: None,
    }
}

pub fn on_delete() -> DaemonSetUpdateStrategy {
    DaemonSetUpdateStrategy {
        type_: Some("OnDelete".into()),
        rolling_update: None,
    }
}

/// `newUpdateUnavailable(v)`: RollingUpdate with maxUnavailable v, maxSurge nil.
pub fn update_unavailable(v: IntOrString) -> DaemonSetUpdateStrategy {
    DaemonSetUpdateStrategy {
        type_: Some("RollingUpdate".into()),
        rolling_update: Some(RollingUpdateDaemonSet {
            max_unavailable: Some(v),
            max_surge: None,
        }),
    }
}

/// `newUpdateSurge(v)`: RollingUpdate with maxUnavailable 0 and maxSurge v.
pub fn update_surge(v: IntOrString) -> DaemonSetUpdateStrategy {
    DaemonSetUpdateStrategy {
        type_: Some("RollingUpdate".into()),
        rolling_update: Some(RollingUpdateDaemonSet {
            max_unavailable: Some(IntOrString::Int(0)),
            max_surge: Some(v),
        }),
    }
}

/// The two strategies a `[both]` case runs under.
pub fn both_strategies() -> Vec<DaemonSetUpdateStrategy> {
    vec![on_delete(), update_unavailable(IntOrString::Int(1))]
}

pub fn template_spec(ds: &mut DaemonSet) -> &mut PodSpec {
    ds.spec.template.spec.get_or_insert_with(Default::default)
}

/// F-NODE: Ready=True, allocatable pods 100, no taints.
pub fn new_node(name: &str, node_labels: Option<Labels>) -> Node {
    Node {
        metadata: ObjectMeta {
            name: Some(name.to_string()),
            labels: node_labels,
            ..Default::default()
        },
        spec: Some(NodeSpec::default()),
        status: Some(NodeStatus {
            conditions: Some(vec![NodeCondition {
                type_: "Ready".into(),
                status: "True".into(),
                ..Default::default()
            }]),
            allocatable: Some(BTreeMap::from([("pods".into(), Quantity("100".into()))])),
            ..Default::default()
        }),
    }
}

pub fn taint(key: &str, value: &str, effect: &str) -> Taint {
    Taint {
        key: key.into(),
        value: (!value.is_empty()).then(|| value.to_string()),
        effect: effect.into(),
        time_added: None,
    }
}

pub fn set_node_taints(node: &mut Node, taints: Vec<Taint>) {
    node.spec.get_or_insert_with(Default::default).taints = Some(taints);
}

/// The current revision hash of a DS as the controller computes it.
pub fn current_hash(ds: &DaemonSet) -> String {
    compute_hash(
        &ds.spec.template,
        ds.status.as_ref().and_then(|s| s.collision_count),
    )
}

/// One DS-owned pod as `addPods` builds it: bound to `node`, labels + current hash, not Ready.
pub fn new_pod(name: &str, node: &str, pod_labels: &Labels, ds: &DaemonSet) -> Pod {
    let mut l = pod_labels.clone();
    l.insert(CONTROLLER_REVISION_HASH_LABEL.into(), current_hash(ds));
    Pod {
        metadata: ObjectMeta {
            name: Some(name.to_string()),
            namespace: Some("default".into()),
            labels: Some(l),
            owner_references: Some(vec![controller::controller_ref::new_controller_ref(ds)]),
            ..Default::default()
        },
        spec: Some(PodSpec {
            node_name: Some(node.to_string()),
            containers: vec![Container {
                name: "foo".into(),
                image: Some("foo/bar".into()),
                ..Default::default()
            }],
            ..Default::default()
        }),
        status: Some(PodStatus::default()),
    }
}

pub fn set_phase(pod: &mut Pod, phase: &str) {
    pod.status.get_or_insert_with(Default::default).phase = Some(phase.into());
}

/// Sets (or replaces) the Ready condition.
pub fn set_ready(pod: &mut Pod, ready: bool, ltt: Option<Timestamp>) {
    let st = pod.status.get_or_insert_with(Default::default);
    let conds = st.conditions.get_or_insert_with(Vec::new);
    conds.retain(|c| c.type_ != "Ready");
    conds.push(PodCondition {
        type_: "Ready".into(),
        status: if ready { "True" } else { "False" }.into(),
        last_transition_time: ltt.map(Time),
        ..Default::default()
    });
}

/// Counts of one sync: (creates, deletes, controller-recorder events), as upstream asserts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts(pub usize, pub usize, pub usize);

/// Informer caches + fake clientset + fake pod control.
#[derive(Default)]
pub struct Fake {
    pub daemon_sets: Vec<Arc<DaemonSet>>,
    pub nodes: Vec<Arc<Node>>,
    pub pods: Vec<Arc<Pod>>,
    pub revisions: Vec<Arc<ControllerRevision>>,
    /// What a live GET of the DS returns, when it differs from the cache (C-035).
    pub live_daemon_set: Option<DaemonSet>,
    pub create_calls: usize,
    pub delete_calls: usize,
    pub created: Vec<Pod>,
    pub deleted: Vec<String>,
    pub events: Vec<RecordedEvent>,
    pub status_updates: Vec<DaemonSet>,
    pub status_update_calls: usize,
    pub get_calls: usize,
    pub pod_patches: Vec<(String, ObjectPatch)>,
    pub revision_patches: Vec<(String, ObjectPatch)>,
    /// Successful creates allowed before every further create fails (C-045).
    pub create_limit: Option<usize>,
    /// Every create fails with this error.
    pub create_error: Option<ApiError>,
    /// Status writes fail this many times (None: never; usize::MAX: always).
    pub status_update_failures: usize,
    pub get_error: Option<ApiError>,
    /// The order of Go-map iterations the controller is given (R-SIM-1): the listing order
    /// unless `DSPLAY_MAP_ORDER_SEED` is set, which replays every case with the maps visited
    /// in that seed's random order (upstream's assertions hold for any order).
    pub map_order: MapOrder,
    /// Pods the fake pod control created (the only ones it can delete).
    known: HashSet<String>,
    seq: u64,
}

impl Fake {
    pub fn new() -> Self {
        let map_order = std::env::var("DSPLAY_MAP_ORDER_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .map_or(MapOrder::Listed, MapOrder::Seeded);
        Fake {
            map_order,
            ..Self::default()
        }
    }

    pub fn add_ds(&mut self, ds: DaemonSet) {
        let key = (ds.metadata.namespace.clone(), ds.metadata.name.clone());
        self.daemon_sets
            .retain(|d| (d.metadata.namespace.clone(), d.metadata.name.clone()) != key);
        self.daemon_sets.push(Arc::new(ds));
    }

    /// The cached copy of a DS (to edit and store back with `add_ds`).
    pub fn ds(&self, name: &str) -> DaemonSet {
        (*self
            .daemon_sets
            .iter()
            .find(|d| d.metadata.name.as_deref() == Some(name))
            .expect("ds in cache")
            .clone())
        .clone()
    }

    pub fn add_node(&mut self, node: Node) {
        self.nodes.push(Arc::new(node));
    }

    /// `addNodes(start, n, labels)`: nodes `node-<i>`.
    pub fn add_nodes(&mut self, start: usize, n: usize, node_labels: Option<Labels>) {
        for i in start..start + n {
            self.add_node(new_node(&format!("node-{i}"), node_labels.clone()));
        }
    }

    pub fn add_pod(&mut self, pod: Pod) {
        self.pods.push(Arc::new(pod));
    }

    /// `addPods(node, labels, ds, n)`.
    pub fn add_pods(&mut self, node: &str, pod_labels: &Labels, ds: &DaemonSet, n: usize) {
        for _ in 0..n {
            self.seq += 1;
            let name = format!("{node}-{:05}", self.seq);
            self.add_pod(new_pod(&name, node, pod_labels, ds));
        }
    }

    /// `addFailedPods(node, labels, ds, n)`.
    pub fn add_failed_pods(&mut self, node: &str, pod_labels: &Labels, ds: &DaemonSet, n: usize) {
        for _ in 0..n {
            self.seq += 1;
            let name = format!("{node}-{:05}", self.seq);
            let mut p = new_pod(&name, node, pod_labels, ds);
            set_phase(&mut p, "Failed");
            self.add_pod(p);
        }
    }

    /// Edits every cached pod in place.
    pub fn update_pods(&mut self, mut f: impl FnMut(usize, &mut Pod)) {
        for (i, p) in self.pods.iter_mut().enumerate() {
            let mut pod = (**p).clone();
            f(i, &mut pod);
            *p = Arc::new(pod);
        }
    }

    /// `markPodsReady`: Ready=True with lastTransitionTime `now` on every pod.
    pub fn mark_pods_ready(&mut self, now: Timestamp) {
        self.update_pods(|_, p| set_ready(p, true, Some(now)));
    }

    /// `clearExpectations`: reset counters, drop the DS's expectations, stamp creation times.
    pub fn clear_expectations(
        &mut self,
        ctl: &mut DaemonSetsController,
        ds_name: &str,
        now: Timestamp,
    ) {
        self.reset_counters();
        ctl.expectations.delete(&format!("default/{ds_name}"));
        self.update_pods(|_, p| {
            if p.metadata.creation_timestamp.is_none() {
                p.metadata.creation_timestamp = Some(Time(now));
            }
        });
    }

    pub fn reset_counters(&mut self) {
        self.create_calls = 0;
        self.delete_calls = 0;
        self.created.clear();
        self.deleted.clear();
        self.events.clear();
        self.status_updates.clear();
        self.status_update_calls = 0;
        self.get_calls = 0;
        self.pod_patches.clear();
        self.revision_patches.clear();
    }

    pub fn controller_events(&self) -> Vec<&RecordedEvent> {
        self.events
            .iter()
            .filter(|e| e.source == EventSource::Controller)
            .collect()
    }

    /// One `syncDaemonSet`; returns the counts of this sync only, and the sync's result.
    pub fn sync_result(
        &mut self,
        ctl: &mut DaemonSetsController,
        ds_name: &str,
        now: Timestamp,
    ) -> (Counts, Result<(), controller::SyncError>) {
        self.reset_counters();
        let r = ctl.sync_daemon_set(self, &format!("default/{ds_name}"), now);
        (
            Counts(
                self.create_calls,
                self.delete_calls,
                self.controller_events().len(),
            ),
            r,
        )
    }

    /// One `syncDaemonSet`, counts only (errors are part of what some cases expect).
    pub fn sync(
        &mut self,
        ctl: &mut DaemonSetsController,
        ds_name: &str,
        now: Timestamp,
    ) -> Counts {
        self.sync_result(ctl, ds_name, now).0
    }

    pub fn last_status(&self) -> Option<&k8s_openapi::api::apps::v1::DaemonSetStatus> {
        self.status_updates.last().and_then(|d| d.status.as_ref())
    }

    /// Nodes the created pods target (via the injected affinity).
    pub fn created_targets(&self) -> Vec<String> {
        self.created
            .iter()
            .map(|p| {
                controller::util::get_target_node_name(p)
                    .map(str::to_string)
                    .unwrap_or_default()
            })
            .collect()
    }

    fn find_pod(&self, ns: &str, name: &str) -> Option<usize> {
        self.pods.iter().position(|p| {
            p.metadata.namespace.as_deref() == Some(ns) && p.metadata.name.as_deref() == Some(name)
        })
    }
}

impl Listers for Fake {
    fn daemon_set(&self, namespace: &str, name: &str) -> Option<Arc<DaemonSet>> {
        self.daemon_sets
            .iter()
            .find(|d| {
                d.metadata.namespace.as_deref() == Some(namespace)
                    && d.metadata.name.as_deref() == Some(name)
            })
            .cloned()
    }
    fn daemon_sets(&self, namespace: &str) -> Vec<Arc<DaemonSet>> {
        self.daemon_sets
            .iter()
            .filter(|d| d.metadata.namespace.as_deref() == Some(namespace))
            .cloned()
            .collect()
    }
    fn all_daemon_sets(&self) -> Vec<Arc<DaemonSet>> {
        self.daemon_sets.clone()
    }
    fn nodes(&self) -> Vec<Arc<Node>> {
        self.nodes.clone()
    }
    fn node(&self, name: &str) -> Option<Arc<Node>> {
        self.nodes
            .iter()
            .find(|n| n.metadata.name.as_deref() == Some(name))
            .cloned()
    }
    fn pods(&self, namespace: &str) -> Vec<Arc<Pod>> {
        self.pods
            .iter()
            .filter(|p| p.metadata.namespace.as_deref() == Some(namespace))
            .cloned()
            .collect()
    }
    fn pod(&self, namespace: &str, name: &str) -> Option<Arc<Pod>> {
        self.find_pod(namespace, name).map(|i| self.pods[i].clone())
    }
    fn revisions(&self, namespace: &str) -> Vec<Arc<ControllerRevision>> {
        self.revisions
            .iter()
            .filter(|r| r.metadata.namespace.as_deref() == Some(namespace))
            .cloned()
            .collect()
    }
}

fn not_found(kind: &str, name: &str) -> ApiError {
    ApiError::NotFound {
        resource: kind.into(),
        name: name.into(),
    }
}

impl Client for Fake {
    fn map_order(&mut self) -> MapOrder {
        self.map_order
    }

    fn get_daemon_set(&mut self, namespace: &str, name: &str) -> Result<DaemonSet, ApiError> {
        self.get_calls += 1;
        if let Some(e) = &self.get_error {
            return Err(e.clone());
        }
        if let Some(ds) = &self.live_daemon_set {
            return Ok(ds.clone());
        }
        self.daemon_set(namespace, name)
            .map(|d| (*d).clone())
            .ok_or_else(|| not_found("daemonsets.apps", name))
    }

    fn update_daemon_set_status(&mut self, ds: &DaemonSet) -> Result<DaemonSet, ApiError> {
        self.status_update_calls += 1;
        if self.status_update_failures > 0 {
            self.status_update_failures = self.status_update_failures.saturating_sub(1);
            return Err(ApiError::Other("status error".into()));
        }
        self.status_updates.push(ds.clone());
        Ok(ds.clone())
    }

    fn create_pod(&mut self, namespace: &str, mut pod: Pod) -> Result<Pod, ApiError> {
        self.create_calls += 1;
        if let Some(e) = &self.create_error {
            return Err(e.clone());
        }
        if let Some(limit) = self.create_limit {
            if self.created.len() >= limit {
                return Err(ApiError::Other("fake limit reached".into()));
            }
        }
        self.seq += 1;
        let prefix = pod.metadata.generate_name.clone().unwrap_or_default();
        let name = format!(
            "{prefix}{}",
            controller::history::safe_encode_string(&format!("{:05}", self.seq))
        );
        pod.metadata.name = Some(name.clone());
        pod.metadata.namespace = Some(namespace.to_string());
        self.known.insert(name);
        self.created.push(pod.clone());
        self.pods.push(Arc::new(pod.clone()));
        Ok(pod)
    }

    fn delete_pod(&mut self, namespace: &str, name: &str) -> Result<(), ApiError> {
        self.delete_calls += 1;
        self.deleted.push(name.to_string());
        if !self.known.remove(name) {
            return Err(ApiError::Other(format!("pod {name:?} does not exist")));
        }
        if let Some(i) = self.find_pod(namespace, name) {
            self.pods.remove(i);
        }
        Ok(())
    }

    fn patch_pod(&mut self, _ns: &str, name: &str, patch: &ObjectPatch) -> Result<(), ApiError> {
        self.pod_patches.push((name.to_string(), patch.clone()));
        Ok(())
    }

    fn create_revision(
        &mut self,
        namespace: &str,
        mut revision: ControllerRevision,
    ) -> Result<ControllerRevision, ApiError> {
        let name = revision.metadata.name.clone().unwrap_or_default();
        if self.revisions.iter().any(|r| {
            r.metadata.namespace.as_deref() == Some(namespace)
                && r.metadata.name.as_deref() == Some(&name)
        }) {
            return Err(ApiError::AlreadyExists {
                resource: "controllerrevisions.apps".into(),
                name,
            });
        }
        revision.metadata.namespace = Some(namespace.to_string());
        self.revisions.push(Arc::new(revision.clone()));
        Ok(revision)
    }

    fn get_revision(
        &mut self,
        namespace: &str,
        name: &str,
    ) -> Result<ControllerRevision, ApiError> {
        self.revisions
            .iter()
            .find(|r| {
                r.metadata.namespace.as_deref() == Some(namespace)
                    && r.metadata.name.as_deref() == Some(name)
            })
            .map(|r| (**r).clone())
            .ok_or_else(|| not_found("controllerrevisions.apps", name))
    }

    fn update_revision(
        &mut self,
        revision: &ControllerRevision,
    ) -> Result<ControllerRevision, ApiError> {
        let slot = self
            .revisions
            .iter_mut()
            .find(|r| {
                r.metadata.namespace == revision.metadata.namespace
                    && r.metadata.name == revision.metadata.name
            })
            .ok_or_else(|| {
                not_found(
                    "controllerrevisions.apps",
                    revision.metadata.name.as_deref().unwrap_or(""),
                )
            })?;
        *slot = Arc::new(revision.clone());
        Ok(revision.clone())
    }

    fn patch_revision(
        &mut self,
        _ns: &str,
        name: &str,
        patch: &ObjectPatch,
    ) -> Result<(), ApiError> {
        self.revision_patches
            .push((name.to_string(), patch.clone()));
        Ok(())
    }

    fn delete_revision(&mut self, namespace: &str, name: &str) -> Result<(), ApiError> {
        let before = self.revisions.len();
        self.revisions.retain(|r| {
            !(r.metadata.namespace.as_deref() == Some(namespace)
                && r.metadata.name.as_deref() == Some(name))
        });
        if self.revisions.len() == before {
            return Err(not_found("controllerrevisions.apps", name));
        }
        Ok(())
    }

    fn record_event(&mut self, event: RecordedEvent) {
        self.events.push(event);
    }

    fn observes_synchronously(&self) -> bool {
        true
    }
}

/// Upstream's unit-test controller: failed-pod backoff 50 ms / 500 ms.
pub fn test_controller() -> DaemonSetsController {
    DaemonSetsController::with_backoff(
        std::time::Duration::from_millis(50),
        std::time::Duration::from_millis(500),
    )
}

/// Shorthand for `SignedDuration::from_secs`.
pub fn secs(s: i64) -> SignedDuration {
    SignedDuration::from_secs(s)
}
