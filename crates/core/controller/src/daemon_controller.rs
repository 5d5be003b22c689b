//! `daemon_controller.go`: event handlers, `syncDaemonSet`, `manage`, `podsShouldBeOnNode`,
//! `syncNodes`, `updateDaemonSetStatus`, `storeDaemonSetStatus` (R-EVT, R-SYNC, R-CLM, R-MAP,
//! R-NODE, R-MAN, R-SN, R-EXP, R-ST).

use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet, DaemonSetStatus};
use k8s_openapi::api::core::v1::{Node, Pod, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use k8s_openapi::jiff::Timestamp;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use crate::backoff::Backoff;
use crate::client::{ApiError, Client, EventSource, EventType, Listers, RecordedEvent};
use crate::controller_ref::{
    get_controller_of, new_controller_ref, ClaimKind, ControllerRefManager,
};
use crate::expectations::Expectations;
use crate::history::revision_patch;
use crate::keys::{
    reasons, BURST_REPLICAS, CONTROLLER_KIND, CONTROLLER_REVISION_HASH_LABEL,
    FAILED_POD_BACKOFF_INITIAL, FAILED_POD_BACKOFF_MAX, SLOW_START_INITIAL_BATCH_SIZE,
    STATUS_UPDATE_RETRIES,
};
use crate::map_order::{MapOrder, Site};
use crate::pod_facts::{Phase, PodFacts};
use crate::pod_util::{
    by_creation_timestamp_and_phase, is_pod_available, is_pod_ready, node_name as pod_node_name,
};
use crate::predicates::{DaemonPodPredicate, ShouldRun};
use crate::queue::WorkQueue;
use crate::util::{
    allows_surge, create_pod_template, get_target_node_name, get_template_generation,
    replace_daemon_set_pod_node_name_node_affinity,
};
use k8s_base::Selector;

#[cfg(not(target_arch = "wasm32"))]
mod node_digest;
mod pod_map_cache;
pub(crate) use pod_map_cache::PerNode;
use pod_map_cache::{MapAcross, MapMemo, Reuse};

/// Claimed pods grouped by target node name (R-MAP-1). Kept in node-name order, which the
/// caches rely on; where upstream visits it in Go map order the visit is shuffled (`map_order`).
pub type NodeToDaemonPods = BTreeMap<String, Vec<Arc<Pod>>>;

/// An error that makes a sync fail (and the key be re-queued with rate limiting).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SyncError {
    #[error("{}", .0.message())]
    Api(#[from] ApiError),
    #[error("{0}")]
    Message(String),
    #[error("{context}: {source}")]
    Context {
        context: String,
        source: Box<SyncError>,
    },
    #[error("[{}]", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join(", "))]
    Aggregate(Vec<SyncError>),
}

impl SyncError {
    /// `utilerrors.NewAggregate`: nothing, the single error, or the list.
    pub fn aggregate(mut errors: Vec<SyncError>) -> Result<(), SyncError> {
        match errors.len() {
            0 => Ok(()),
            1 => Err(errors.remove(0)),
            _ => Err(SyncError::Aggregate(errors)),
        }
    }

    fn context(self, context: impl Into<String>) -> SyncError {
        SyncError::Context {
            context: context.into(),
            source: Box::new(self),
        }
    }
}

/// The nodes of one sync and each one's eligibility, computed once (R-SYNC-2).
#[derive(Debug)]
pub(crate) struct NodeView {
    pub nodes: Vec<Arc<Node>>,
    pub should: Vec<ShouldRun>,
    /// Each node's name, side by side (the per-node passes then read no node object).
    pub(crate) names: Vec<String>,
    /// Node names strictly increase (the lister lists by name): a node-name-sorted map can
    /// then be matched against the node list in one merge pass instead of a search per node.
    pub(crate) sorted: bool,
}

impl NodeView {
    fn new(nodes: Vec<Arc<Node>>, ds: &DaemonSet) -> Self {
        let predicate = DaemonPodPredicate::new(ds);
        let should = nodes.iter().map(|n| predicate.evaluate(n)).collect();
        let names: Vec<String> = nodes.iter().map(|n| Self::name(n).to_string()).collect();
        let sorted = names.windows(2).all(|w| w[0] < w[1]);
        NodeView {
            nodes,
            should,
            names,
            sorted,
        }
    }

    /// Each node's entry of `map` (`None`: no entry), in node-list order.
    pub(crate) fn pods_per_node<'m>(
        &self,
        map: &'m NodeToDaemonPods,
    ) -> Vec<Option<&'m [Arc<Pod>]>> {
        if !self.sorted {
            return self
                .nodes
                .iter()
                .map(|n| map.get(Self::name(n)).map(Vec::as_slice))
                .collect();
        }
        let mut entries = map.iter().peekable();
        self.nodes
            .iter()
            .map(|n| {
                let name = Self::name(n);
                while entries.next_if(|(k, _)| k.as_str() < name).is_some() {}
                entries
                    .next_if(|(k, _)| k.as_str() == name)
                    .map(|(_, v)| v.as_slice())
            })
            .collect()
    }

    /// Whether every entry of `map` is a listed node's, given `per_node`, its entries per
    /// node: then, node names being distinct and in order, walking the nodes walks the map.
    pub(crate) fn lists_every_entry(
        &self,
        per_node: &[Vec<Arc<Pod>>],
        map: &NodeToDaemonPods,
    ) -> bool {
        self.sorted && per_node.iter().filter(|v| !v.is_empty()).count() == map.len()
    }

    /// Where the node named `name` is in the list (`None`: not listed, or the names are not
    /// strictly increasing and a name may be listed twice).
    fn position(&self, name: &str) -> Option<usize> {
        if !self.sorted {
            return None;
        }
        self.names.binary_search_by(|n| n.as_str().cmp(name)).ok()
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&Node, ShouldRun)> {
        self.nodes
            .iter()
            .map(|n| &**n)
            .zip(self.should.iter().copied())
    }

    pub(crate) fn name(node: &Node) -> &str {
        node.metadata.name.as_deref().unwrap_or("")
    }
}

/// The status counters of R-ST-1..5.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StatusCounts {
    pub desired_number_scheduled: i32,
    pub current_number_scheduled: i32,
    pub number_misscheduled: i32,
    pub number_ready: i32,
    pub updated_number_scheduled: i32,
    pub number_available: i32,
    pub number_unavailable: i32,
}

/// The DaemonSet controller's in-memory state: expectations, failed-pod backoff and the work
/// queue. Everything else it reads through [`Listers`] at sync time.
#[derive(Debug, Clone)]
pub struct DaemonSetsController {
    pub expectations: Expectations,
    pub failed_pods_backoff: Backoff,
    pub queue: WorkQueue,
    pub burst_replicas: usize,
    /// Pod writes issued so far; a change invalidates the per-sync pod map.
    pub(crate) writes: u64,
    /// The per-sync pod map, one slot per `include_deleted_terminal` (false, true).
    map_memo: [Option<MapMemo>; 2],
    /// Per DaemonSet key, what its pods' objects said when last read (a cache across syncs).
    pub(crate) pod_facts: BTreeMap<String, PodFacts>,
    /// Inside `sync_daemon_set`: only then is the pod map memoised.
    syncing: bool,
    /// This sync's order of Go-map iterations, from the driver (`Client::map_order`).
    pub(crate) order: MapOrder,
    /// Per DaemonSet key: the node view of its last sync, the template it was computed for and
    /// the listers' `nodes_version` then (a cache across syncs; see `node_view`).
    node_views: BTreeMap<String, (PodTemplateSpec, Arc<NodeView>, Option<u64>)>,
    /// Per DaemonSet key and `include_deleted_terminal`: the last pod map and what it was built
    /// from (a cache across syncs; see `get_nodes_to_daemon_pods`).
    maps_across: BTreeMap<(String, bool), MapAcross>,
    /// Native builds: per DaemonSet key, its per-node digests (a cache across syncs; see
    /// `node_digest.rs`), and whether they are used.
    #[cfg(not(target_arch = "wasm32"))]
    digests: node_digest::Digests,
    #[cfg(not(target_arch = "wasm32"))]
    incremental: bool,
    /// Native builds: the rolling update's entries in visiting order, kept to be refilled
    /// (each wave of a rollout shuffles them all; see `node_digest.rs`).
    #[cfg(not(target_arch = "wasm32"))]
    entry_order: Vec<u32>,
}

/// The node a claimed pod is grouped under in the pod map, if any (R-MAP-1..3): terminal
/// pods with a deletionTimestamp are left out unless `include_deleted_terminal`, pods without
/// a target node are skipped silently.
fn map_target<'p>(
    facts: &mut PodFacts,
    pod: &'p Pod,
    include_deleted_terminal: bool,
) -> Option<&'p str> {
    // Phase and deletion state from the remembered facts (`is_pod_terminal`).
    if !include_deleted_terminal && facts.phase(pod).is_terminal() && facts.deleting(pod) {
        return None;
    }
    get_target_node_name(pod).ok()
}

impl Default for DaemonSetsController {
    fn default() -> Self {
        Self::new()
    }
}

pub(crate) fn ds_key(ds: &DaemonSet) -> String {
    format!(
        "{}/{}",
        ds.metadata.namespace.as_deref().unwrap_or(""),
        ds.metadata.name.as_deref().unwrap_or("")
    )
}

fn min_ready_seconds(ds: &DaemonSet) -> i32 {
    ds.spec.min_ready_seconds.unwrap_or(0)
}

/// R-SYNC-3: the selector is literally `{}` (both lists absent).
fn selector_is_literally_empty(ds: &DaemonSet) -> bool {
    ds.spec.selector.match_labels.is_none() && ds.spec.selector.match_expressions.is_none()
}

impl DaemonSetsController {
    /// A controller wired as kube-controller-manager wires it (backoff 1 s … 15 min, burst 250).
    pub fn new() -> Self {
        Self::with_backoff(FAILED_POD_BACKOFF_INITIAL, FAILED_POD_BACKOFF_MAX)
    }

    /// A controller with another failed-pod backoff (upstream's unit tests use 50 ms / 500 ms).
    pub fn with_backoff(initial: Duration, max: Duration) -> Self {
        DaemonSetsController {
            expectations: Expectations::default(),
            failed_pods_backoff: Backoff::new(initial, max),
            queue: WorkQueue::default(),
            burst_replicas: BURST_REPLICAS,
            writes: 0,
            map_memo: [None, None],
            pod_facts: BTreeMap::new(),
            syncing: false,
            order: MapOrder::Listed,
            node_views: BTreeMap::new(),
            maps_across: BTreeMap::new(),
            #[cfg(not(target_arch = "wasm32"))]
            digests: BTreeMap::new(),
            #[cfg(not(target_arch = "wasm32"))]
            incremental: true,
            #[cfg(not(target_arch = "wasm32"))]
            entry_order: Vec::new(),
        }
    }

    // ----- event handlers (R-EVT-*) -----

    fn enqueue(&mut self, ds: &DaemonSet) {
        self.queue.add(&ds_key(ds));
    }

    /// `enqueueDaemonSetAfter`.
    fn enqueue_after(&mut self, ds: &DaemonSet, delay: Duration, now: Timestamp) {
        self.queue.add_after(&ds_key(ds), delay, now);
    }

    /// R-EVT-1 `addDaemonset`.
    pub fn on_daemon_set_add(&mut self, ds: &DaemonSet) {
        self.enqueue(ds);
    }

    /// R-EVT-2 `updateDaemonset`: a changed UID is a delete of the old object first.
    pub fn on_daemon_set_update(&mut self, old: &DaemonSet, cur: &DaemonSet) {
        if old.metadata.uid != cur.metadata.uid {
            self.on_daemon_set_delete(old);
        }
        self.enqueue(cur);
    }

    /// R-EVT-3 `deleteDaemonset` (also for tombstones: the key comes from the object).
    pub fn on_daemon_set_delete(&mut self, ds: &DaemonSet) {
        let key = ds_key(ds);
        self.expectations.delete(&key);
        self.queue.add(&key);
    }

    /// `resolveControllerRef`: the cached DS named by the reference, if the UID matches.
    fn resolve_controller_ref(
        l: &(impl Listers + ?Sized),
        namespace: &str,
        meta: &ObjectMeta,
    ) -> Option<Arc<DaemonSet>> {
        let r = get_controller_of(meta)?;
        if r.kind != CONTROLLER_KIND {
            return None;
        }
        let ds = l.daemon_set(namespace, &r.name)?;
        (ds.metadata.uid.as_deref() == Some(r.uid.as_str())).then_some(ds)
    }

    /// `getDaemonSetsForPod` / `getDaemonSetsForHistory`: DSs in the namespace whose non-empty
    /// selector matches the labels.
    fn daemon_sets_selecting(
        l: &(impl Listers + ?Sized),
        meta: &ObjectMeta,
    ) -> Vec<Arc<DaemonSet>> {
        let Some(labels) = meta.labels.as_ref().filter(|l| !l.is_empty()) else {
            return Vec::new();
        };
        let ns = meta.namespace.as_deref().unwrap_or("");
        l.daemon_sets(ns)
            .into_iter()
            .filter(
                |ds| match Selector::from_label_selector(&ds.spec.selector) {
                    Ok(sel) => !sel.is_empty() && sel.matches(Some(labels)),
                    Err(_) => false,
                },
            )
            .collect()
    }

    /// R-EVT-4 `addPod`.
    pub fn on_pod_add(&mut self, l: &(impl Listers + ?Sized), pod: &Pod) {
        if pod.metadata.deletion_timestamp.is_some() {
            self.on_pod_delete(l, pod);
            return;
        }
        let ns = pod.metadata.namespace.as_deref().unwrap_or("");
        if get_controller_of(&pod.metadata).is_some() {
            if let Some(ds) = Self::resolve_controller_ref(l, ns, &pod.metadata) {
                self.expectations.creation_observed(&ds_key(&ds));
                self.enqueue(&ds);
            }
            return;
        }
        for ds in Self::daemon_sets_selecting(l, &pod.metadata) {
            self.enqueue(&ds);
        }
    }

    /// R-EVT-5 `updatePod`.
    pub fn on_pod_update(
        &mut self,
        l: &(impl Listers + ?Sized),
        old: &Pod,
        cur: &Pod,
        now: Timestamp,
    ) {
        if cur.metadata.resource_version == old.metadata.resource_version {
            return;
        }
        if cur.metadata.deletion_timestamp.is_some() {
            self.on_pod_delete(l, cur);
            return;
        }
        let ns = cur.metadata.namespace.as_deref().unwrap_or("");
        let cur_ref = get_controller_of(&cur.metadata);
        let old_ref = get_controller_of(&old.metadata);
        let ref_changed = cur_ref != old_ref;
        if ref_changed && old_ref.is_some() {
            if let Some(ds) = Self::resolve_controller_ref(l, ns, &old.metadata) {
                self.enqueue(&ds);
            }
        }
        if cur_ref.is_some() {
            let Some(ds) = Self::resolve_controller_ref(l, ns, &cur.metadata) else {
                return;
            };
            self.enqueue(&ds);
            let mrs = min_ready_seconds(&ds);
            if !is_pod_ready(old) && is_pod_ready(cur) && mrs > 0 {
                self.enqueue_after(&ds, Duration::from_secs(mrs as u64 + 1), now);
            }
            return;
        }
        let labels_changed = cur.metadata.labels != old.metadata.labels;
        if labels_changed || ref_changed {
            for ds in Self::daemon_sets_selecting(l, &cur.metadata) {
                self.enqueue(&ds);
            }
        }
    }

    /// R-EVT-6 `deletePod`: only owned pods matter.
    pub fn on_pod_delete(&mut self, l: &(impl Listers + ?Sized), pod: &Pod) {
        let ns = pod.metadata.namespace.as_deref().unwrap_or("");
        if let Some(ds) = Self::resolve_controller_ref(l, ns, &pod.metadata) {
            self.expectations.deletion_observed(&ds_key(&ds));
            self.enqueue(&ds);
        }
    }

    /// R-EVT-7 `addNode`: enqueue every DS that should run on the node.
    pub fn on_node_add(&mut self, l: &(impl Listers + ?Sized), node: &Node) {
        for ds in l.all_daemon_sets() {
            if DaemonPodPredicate::new(&ds).evaluate(node).should_run {
                self.enqueue(&ds);
            }
        }
    }

    /// R-EVT-8 `updateNode`.
    pub fn on_node_update(&mut self, l: &(impl Listers + ?Sized), old: &Node, cur: &Node) {
        if should_ignore_node_update(old, cur) {
            return;
        }
        for ds in l.all_daemon_sets() {
            let p = DaemonPodPredicate::new(&ds);
            if p.evaluate(old) != p.evaluate(cur) {
                self.enqueue(&ds);
            }
        }
    }

    /// R-EVT-10 `addHistory`: a revision with a controller reference is only observed (upstream
    /// logs "Observed a ControllerRevision" and enqueues nothing: the owner made it in a sync
    /// of its own); an orphan wakes the DaemonSets whose selector matches it, to adopt it.
    pub fn on_revision_add(&mut self, l: &(impl Listers + ?Sized), rev: &ControllerRevision) {
        if rev.metadata.deletion_timestamp.is_some() {
            self.on_revision_delete(l, rev);
            return;
        }
        if get_controller_of(&rev.metadata).is_some() {
            return;
        }
        for ds in Self::daemon_sets_selecting(l, &rev.metadata) {
            self.enqueue(&ds);
        }
    }

    /// R-EVT-10 `updateHistory`.
    pub fn on_revision_update(
        &mut self,
        l: &(impl Listers + ?Sized),
        old: &ControllerRevision,
        cur: &ControllerRevision,
    ) {
        if cur.metadata.resource_version == old.metadata.resource_version {
            return;
        }
        let ns = cur.metadata.namespace.as_deref().unwrap_or("");
        let cur_ref = get_controller_of(&cur.metadata);
        let old_ref = get_controller_of(&old.metadata);
        let ref_changed = cur_ref != old_ref;
        if ref_changed && old_ref.is_some() {
            if let Some(ds) = Self::resolve_controller_ref(l, ns, &old.metadata) {
                self.enqueue(&ds);
            }
        }
        if cur_ref.is_some() {
            if let Some(ds) = Self::resolve_controller_ref(l, ns, &cur.metadata) {
                self.enqueue(&ds);
            }
            return;
        }
        if cur.metadata.labels != old.metadata.labels || ref_changed {
            for ds in Self::daemon_sets_selecting(l, &cur.metadata) {
                self.enqueue(&ds);
            }
        }
    }

    /// R-EVT-10 `deleteHistory`.
    pub fn on_revision_delete(&mut self, l: &(impl Listers + ?Sized), rev: &ControllerRevision) {
        let ns = rev.metadata.namespace.as_deref().unwrap_or("");
        if let Some(ds) = Self::resolve_controller_ref(l, ns, &rev.metadata) {
            self.enqueue(&ds);
        }
    }

    // ----- the worker (R-EVT-11) -----

    /// `processNextWorkItem`: pops one ready key, syncs it, forgets or re-queues it with rate
    /// limiting. Returns the key and the sync's result, or `None` when nothing is ready.
    pub fn process_next_work_item<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        now: Timestamp,
    ) -> Option<(String, Result<(), SyncError>)> {
        let key = self.queue.pop(now)?;
        let result = self.sync_daemon_set(c, &key, now);
        match &result {
            Ok(()) => self.queue.forget(&key),
            Err(_) => self.queue.add_rate_limited(&key, now),
        }
        Some((key, result))
    }

    // ----- sync (R-SYNC-*) -----

    /// R-SYNC-1..8 `syncDaemonSet`.
    pub fn sync_daemon_set<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        key: &str,
        now: Timestamp,
    ) -> Result<(), SyncError> {
        self.map_memo = [None, None];
        self.syncing = true;
        self.order = c.map_order();
        let result = self.sync_inner(c, key, now);
        self.syncing = false;
        self.order = MapOrder::Listed;
        self.map_memo = [None, None];
        result
    }

    fn sync_inner<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        key: &str,
        now: Timestamp,
    ) -> Result<(), SyncError> {
        let Some((ns, name)) = key.split_once('/') else {
            return Err(SyncError::Message(format!("invalid resource key: {key:?}")));
        };
        let Some(ds) = c.daemon_set(ns, name) else {
            self.expectations.delete(key);
            self.pod_facts.remove(key);
            self.node_views.remove(key);
            self.maps_across.remove(&(key.to_string(), false));
            self.maps_across.remove(&(key.to_string(), true));
            return Ok(());
        };
        let nodes = self.node_view(c, &ds);
        if selector_is_literally_empty(&ds) {
            c.record_event(RecordedEvent {
                namespace: ns.to_string(),
                daemon_set: name.to_string(),
                type_: EventType::Warning,
                reason: reasons::SELECTING_ALL,
                message: "This daemon set is selecting all pods. A non-empty selector is required."
                    .into(),
                source: EventSource::Controller,
            });
            return Ok(());
        }
        if ds.metadata.deletion_timestamp.is_some() {
            return Ok(());
        }
        let patch = revision_patch(&ds);
        let (cur, old) = self
            .construct_history(c, &ds, &patch)
            .map_err(|e| e.context("failed to construct revisions of DaemonSet"))?;
        let hash = cur
            .metadata
            .labels
            .as_ref()
            .and_then(|l| l.get(CONTROLLER_REVISION_HASH_LABEL))
            .cloned()
            .unwrap_or_default();
        if !self.expectations.satisfied(key, now) {
            return self.update_daemon_set_status(c, &ds, &nodes, &hash, false, now);
        }
        let update = self.update_daemon_set(c, &ds, &nodes, &hash, key, &old, now);
        let status = self.update_daemon_set_status(c, &ds, &nodes, &hash, true, now);
        update.and(status)
    }

    /// R-SYNC-7 `updateDaemonSet`: manage, then (if expectations allow) rolling update, then
    /// history cleanup.
    #[allow(clippy::too_many_arguments)]
    fn update_daemon_set<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        nodes: &Arc<NodeView>,
        hash: &str,
        key: &str,
        old: &[Arc<ControllerRevision>],
        now: Timestamp,
    ) -> Result<(), SyncError> {
        self.manage(c, ds, nodes, hash, now)?;
        if self.expectations.satisfied(key, now) && crate::util::is_rolling_update(ds) {
            self.rolling_update(c, ds, nodes, hash, now)?;
        }
        self.cleanup_history(c, ds, old, now)
            .map_err(|e| e.context("failed to clean up revisions of DaemonSet"))
    }

    /// `getDaemonPods`: claim every pod in the namespace (R-CLM-*), returning the claimed ones.
    pub(crate) fn claim_pods<'p, C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        pods: &'p [Arc<Pod>],
    ) -> Result<Vec<&'p Arc<Pod>>, SyncError> {
        self.claim_some_pods(c, ds, pods, true)
    }

    /// `claim_pods` over `pods`, a part of the namespace's pods when `whole` is false (then the
    /// remembered facts of pods not in `pods` are kept).
    fn claim_some_pods<'p, C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        pods: &'p [Arc<Pod>],
        whole: bool,
    ) -> Result<Vec<&'p Arc<Pod>>, SyncError> {
        let selector = Selector::from_label_selector(&ds.spec.selector)
            .map_err(|e| SyncError::Message(e.to_string()))?;
        let mut cm = ControllerRefManager::new(ds, selector);
        let mut claimed = Vec::with_capacity(pods.len());
        let mut errors = Vec::new();
        // An answer that needed no API call depends only on the pod object and the DS's
        // identity, namespace, deletion state and selector (`begin_claim` checks those): it is
        // remembered per pod object instead of re-reading owner references and labels.
        let facts = self.pod_facts.entry(ds_key(ds)).or_default();
        facts.begin_claim(ds);
        for pod in pods {
            if let Some(known) = facts.claimed(pod) {
                if known {
                    claimed.push(pod);
                }
                continue;
            }
            let writes = cm.writes;
            match cm.claim_object(c, &pod.metadata, ClaimKind::Pod) {
                Ok(ours) => {
                    if cm.writes == writes {
                        facts.remember_claim(pod, ours);
                    }
                    if ours {
                        claimed.push(pod);
                    }
                }
                Err(e) => errors.push(SyncError::Message(e)),
            }
        }
        if whole {
            facts.end_claim();
        }
        self.writes += cm.writes as u64;
        SyncError::aggregate(errors)?;
        Ok(claimed)
    }

    /// R-MAP-1..3 `getNodesToDaemonPods`: claims every pod in the DS namespace (adopting
    /// orphans and releasing owned pods that no longer match, R-CLM-*) and groups the claimed
    /// pods by target node. Terminal pods with a deletionTimestamp are left out unless
    /// `include_deleted_terminal`. A map built earlier that still holds is reused, and one
    /// whose pods changed in part is updated (`pod_map_cache.rs`, the seam: it decides
    /// nothing, `forget_caches` and the differential test of the caches prove it).
    pub fn get_nodes_to_daemon_pods<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        include_deleted_terminal: bool,
        _now: Timestamp,
    ) -> Result<Arc<NodeToDaemonPods>, SyncError> {
        let writes_before = self.writes;
        let (pods, version) = match self.reuse_map(c, ds, include_deleted_terminal)? {
            Reuse::Map(map) => return Ok(map),
            Reuse::Listed { pods, version } => (pods, version),
        };
        let claimed = self
            .claim_pods(c, ds, &pods)
            .map_err(|e| map_context(e, ds))?;
        let mut targeted: Vec<(&str, &Arc<Pod>)> = Vec::with_capacity(claimed.len());
        let facts = self.pod_facts.entry(ds_key(ds)).or_default();
        for pod in claimed {
            if let Some(node) = map_target(facts, pod, include_deleted_terminal) {
                targeted.push((node, pod));
            }
        }
        // Group by node keeping each node's pods in claim order, then build the tree in bulk
        // from sorted keys. Each comparison of two names reads both from the heap (a cache
        // miss each, at thousands of pods), so the sort compares a 16-byte prefix held in the
        // sort vector first (where prefixes differ their order is the names' order) and the
        // names only on equal prefixes; the claim position breaks full ties, which gives the
        // stable sort's order.
        let mut order: Vec<(u128, usize)> = targeted
            .iter()
            .enumerate()
            .map(|(i, (node, _))| (name_prefix(node), i))
            .collect();
        #[allow(clippy::disallowed_methods)] // the hot grouping sort stays std (ARCHITECTURE.md)
        order.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0)
                .then_with(|| targeted[a.1].0.cmp(targeted[b.1].0))
                .then(a.1.cmp(&b.1))
        });
        let mut grouped: Vec<(String, Vec<Arc<Pod>>)> = Vec::with_capacity(targeted.len());
        for (node, pod) in order.into_iter().map(|(_, i)| targeted[i]) {
            match grouped.last_mut() {
                Some((last, pods)) if last.as_str() == node => pods.push(pod.clone()),
                _ => grouped.push((node.to_string(), vec![pod.clone()])),
            }
        }
        let map: Arc<NodeToDaemonPods> = Arc::new(grouped.into_iter().collect());
        self.remember_map(
            ds,
            include_deleted_terminal,
            pods,
            version,
            writes_before,
            &map,
        );
        Ok(map)
    }

    // ----- manage (R-MAN-*, R-NODE-*) -----

    /// `manage`: per-node reconciliation, then one `syncNodes`.
    fn manage<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        nodes: &Arc<NodeView>,
        hash: &str,
        now: Timestamp,
    ) -> Result<(), SyncError> {
        let map = self.get_nodes_to_daemon_pods(c, ds, false, now)?;
        let mut nodes_needing_pods: Vec<String> = Vec::new();
        let mut pods_to_delete: Vec<String> = Vec::new();
        let surge = allows_surge(ds);
        // One scratch list for every node's running pods (no allocation per node).
        let mut running = Vec::new();
        // Native builds: the per-node digests (`node_digest.rs`) tell the nodes where
        // `podsShouldBeOnNode` has nothing to do; debug builds check each of them.
        #[cfg(not(target_arch = "wasm32"))]
        let digests = {
            self.per_node(ds, nodes, &map, 0);
            self.node_digests(ds, nodes, &map, hash)
        };
        // The remembered per-pod facts, out of `self` for the loop (which claims nothing).
        let facts_key = ds_key(ds);
        let mut facts = self.pod_facts.remove(&facts_key).unwrap_or_default();
        let per_node = self.per_node(ds, nodes, &map, 0);
        // The node list's order is a Go map's (R-MAN-8): which nodes come first decides which
        // get the first creates of a slow start, and the first `BurstReplicas`.
        #[cfg(not(target_arch = "wasm32"))]
        let visit = self.manage_visit(digests.as_ref(), nodes.names.len());
        #[cfg(target_arch = "wasm32")]
        let visit = self.order.permutation(Site::NodeList, nodes.names.len());
        for i in visit {
            let daemon_pods = &per_node[i];
            #[cfg(not(target_arch = "wasm32"))]
            let quiet = digests
                .as_ref()
                .is_some_and(|d| d.quiet(i, nodes.should[i], surge));
            #[cfg(all(not(target_arch = "wasm32"), not(debug_assertions)))]
            if quiet {
                continue;
            }
            // Debug builds visit a quiet node too, into lists that must stay empty.
            #[cfg(all(not(target_arch = "wasm32"), debug_assertions))]
            let (mut needing, mut deleting) = (Vec::new(), Vec::new());
            #[cfg(all(not(target_arch = "wasm32"), debug_assertions))]
            let (mut nodes_needing_pods, mut pods_to_delete) = match quiet {
                true => (&mut needing, &mut deleting),
                false => (&mut nodes_needing_pods, &mut pods_to_delete),
            };
            #[cfg_attr(
                all(not(target_arch = "wasm32"), debug_assertions),
                allow(clippy::needless_borrow, reason = "the lists above are borrows")
            )]
            self.pods_should_be_on_node(
                c,
                &mut facts,
                &nodes.names[i],
                nodes.should[i],
                (!daemon_pods.is_empty()).then_some(daemon_pods.as_slice()),
                ds,
                hash,
                surge,
                now,
                &mut running,
                &mut nodes_needing_pods,
                &mut pods_to_delete,
            );
            #[cfg(all(not(target_arch = "wasm32"), debug_assertions))]
            assert!(
                needing.is_empty() && deleting.is_empty(),
                "a node the digests call quiet needs a change"
            );
        }
        self.pod_facts.insert(facts_key, facts);
        // R-NODE-1: unscheduled pods targeting nodes that do not exist. (Nothing to do when
        // every entry of the map is a listed node's: distinct names, one entry each. Else the
        // node-name set is built only if some entry holds an unscheduled pod.)
        #[cfg(not(target_arch = "wasm32"))]
        let all_listed = match &digests {
            Some(d) => nodes.sorted && d.entries_with_pods() == map.len(),
            None => nodes.lists_every_entry(&per_node, &map),
        };
        #[cfg(target_arch = "wasm32")]
        let all_listed = nodes.lists_every_entry(&per_node, &map);
        #[cfg(not(target_arch = "wasm32"))]
        debug_assert_eq!(all_listed, nodes.lists_every_entry(&per_node, &map));
        let mut known: Option<std::collections::HashSet<&str>> = None;
        let entries = if all_listed { None } else { Some(map.iter()) };
        let mut without_node: Vec<&[Arc<Pod>]> = Vec::new();
        for (node, pods) in entries.into_iter().flatten() {
            if pods.iter().all(|p| !pod_node_name(p).is_empty()) {
                continue;
            }
            let known =
                known.get_or_insert_with(|| nodes.names.iter().map(String::as_str).collect());
            if !known.contains(node.as_str()) {
                without_node.push(pods);
            }
        }
        // `getUnscheduledPodsWithoutNode` ranges over the map: its order is a Go map's.
        self.order
            .shuffle(Site::UnscheduledPodsWithoutNode, &mut without_node);
        for pod in without_node.into_iter().flatten() {
            if pod_node_name(pod).is_empty() {
                pods_to_delete.push(pod.metadata.name.clone().unwrap_or_default());
            }
        }
        self.sync_nodes(c, ds, &pods_to_delete, &nodes_needing_pods, hash, now)
    }

    /// R-MAN-1..7 `podsShouldBeOnNode`.
    #[allow(clippy::too_many_arguments)]
    fn pods_should_be_on_node<'m, C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        facts: &mut PodFacts,
        node_name: &str,
        should: ShouldRun,
        daemon_pods: Option<&'m [Arc<Pod>]>,
        ds: &DaemonSet,
        hash: &str,
        surge: bool,
        now: Timestamp,
        running: &mut Vec<&'m Arc<Pod>>,
        nodes_needing_pods: &mut Vec<String>,
        pods_to_delete: &mut Vec<String>,
    ) {
        let exists = daemon_pods.is_some();
        let daemon_pods: &[Arc<Pod>] = daemon_pods.unwrap_or(&[]);
        let ns = ds.metadata.namespace.as_deref().unwrap_or("");
        let ds_name = ds.metadata.name.as_deref().unwrap_or("");

        if should.should_run && !exists {
            // R-MAN-1
            nodes_needing_pods.push(node_name.to_string());
            return;
        }
        if should.should_continue_running {
            // R-MAN-3
            running.clear();
            // `range daemonPods`: the pod lister's order (a Go map's).
            let visit = self
                .order
                .visit_keyed(Site::PodsOnNode, node_name, daemon_pods.len());
            for pod in visit.map(|i| &daemon_pods[i]) {
                let (deleting, phase) = facts.deleting_and_phase(pod);
                if deleting {
                    continue;
                }
                let pod_name = || pod.metadata.name.as_deref().unwrap_or("");
                match phase {
                    Phase::Failed => {
                        let pod_name = pod_name();
                        // R-MAN-4
                        let key = failed_pods_backoff_key(ds, node_name);
                        if self
                            .failed_pods_backoff
                            .is_in_backoff_since_update(&key, now)
                        {
                            let delay = self.failed_pods_backoff.get(&key);
                            self.enqueue_after(ds, delay, now);
                            continue;
                        }
                        self.failed_pods_backoff.next(&key, now);
                        c.record_event(RecordedEvent {
                            namespace: ns.to_string(),
                            daemon_set: ds_name.to_string(),
                            type_: EventType::Warning,
                            reason: reasons::FAILED_DAEMON_POD,
                            message: format!(
                                "Found failed daemon pod {ns}/{pod_name} on node {node_name}, will try to kill it"
                            ),
                            source: EventSource::Controller,
                        });
                        pods_to_delete.push(pod_name.to_string());
                    }
                    Phase::Succeeded => {
                        let pod_name = pod_name();
                        c.record_event(RecordedEvent {
                            namespace: ns.to_string(),
                            daemon_set: ds_name.to_string(),
                            type_: EventType::Normal,
                            reason: reasons::SUCCEEDED_DAEMON_POD,
                            message: format!(
                                "Found succeeded daemon pod {ns}/{pod_name} on node {node_name}, will try to delete it"
                            ),
                            source: EventSource::Controller,
                        });
                        pods_to_delete.push(pod_name.to_string());
                    }
                    Phase::Other => running.push(pod),
                }
            }
            if !surge {
                // R-MAN-6
                if running.len() <= 1 {
                    return;
                }
                sort::sort_by(running, |a, b| by_creation_timestamp_and_phase(a, b));
                for pod in &running[1..] {
                    pods_to_delete.push(pod.metadata.name.clone().unwrap_or_default());
                }
                return;
            }
            // R-MAN-7
            if running.len() <= 1 {
                if running.is_empty() && should.should_run {
                    nodes_needing_pods.push(node_name.to_string());
                }
                return;
            }
            sort::sort_by(running, |a, b| by_creation_timestamp_and_phase(a, b));
            let mut oldest_new: Option<&Arc<Pod>> = None;
            let mut oldest_old: Option<&Arc<Pod>> = None;
            for &pod in running.iter() {
                let is_new = pod
                    .metadata
                    .labels
                    .as_ref()
                    .and_then(|l| l.get(CONTROLLER_REVISION_HASH_LABEL))
                    .is_some_and(|h| h == hash);
                let slot = if is_new {
                    &mut oldest_new
                } else {
                    &mut oldest_old
                };
                if slot.is_none() {
                    *slot = Some(pod);
                    continue;
                }
                pods_to_delete.push(pod.metadata.name.clone().unwrap_or_default());
            }
            if let (Some(new), Some(old)) = (oldest_new, oldest_old) {
                if !is_pod_ready(old) || is_pod_available(new, min_ready_seconds(ds), now) {
                    pods_to_delete.push(old.metadata.name.clone().unwrap_or_default());
                }
            }
            return;
        }
        if exists {
            // R-MAN-2
            let visit = self
                .order
                .visit_keyed(Site::PodsOnNode, node_name, daemon_pods.len());
            for pod in visit.map(|i| &daemon_pods[i]) {
                if !facts.deleting(pod) {
                    pods_to_delete.push(pod.metadata.name.clone().unwrap_or_default());
                }
            }
        }
    }

    // ----- syncNodes (R-SN-*) -----

    /// R-SN-1..5 `syncNodes`: creates with slow start, then deletes; expectations set first.
    pub(crate) fn sync_nodes<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        pods_to_delete: &[String],
        nodes_needing_pods: &[String],
        hash: &str,
        now: Timestamp,
    ) -> Result<(), SyncError> {
        let key = ds_key(ds);
        let ns = ds.metadata.namespace.as_deref().unwrap_or("");
        let ds_name = ds.metadata.name.as_deref().unwrap_or("");
        let create_diff = nodes_needing_pods.len().min(self.burst_replicas);
        let delete_diff = pods_to_delete.len().min(self.burst_replicas);
        self.expectations
            .set(&key, create_diff as i64, delete_diff as i64, now);
        let synchronous = c.observes_synchronously();
        let mut errors: Vec<SyncError> = Vec::new();

        let generation = get_template_generation(ds).unwrap_or(None);
        let template = create_pod_template(&ds.spec.template, generation, hash);

        let mut batch = create_diff.min(SLOW_START_INITIAL_BATCH_SIZE);
        let mut pos = 0;
        while pos < create_diff {
            let errors_before = errors.len();
            for node in &nodes_needing_pods[pos..pos + batch] {
                let pod = pod_from_template(&template, ds, node);
                self.writes += 1;
                match c.create_pod(ns, pod) {
                    Ok(created) => {
                        let created_name = created.metadata.name.unwrap_or_default();
                        c.record_event(pod_control_event(
                            ds,
                            EventType::Normal,
                            reasons::SUCCESSFUL_CREATE,
                            format!("Created pod: {created_name}"),
                        ));
                        if synchronous {
                            self.expectations.creation_observed(&key);
                        }
                    }
                    Err(ApiError::NamespaceTerminating(_)) => {
                        // R-EXP-3: ignored, and not observed either.
                    }
                    Err(e) => {
                        c.record_event(pod_control_event(
                            ds,
                            EventType::Warning,
                            reasons::FAILED_CREATE,
                            format!("Error creating: {}", e.message()),
                        ));
                        self.expectations.creation_observed(&key);
                        errors.push(SyncError::Api(e));
                    }
                }
            }
            let skipped = create_diff - (pos + batch);
            if errors.len() > errors_before && skipped > 0 {
                self.expectations.lower(&key, skipped as i64, 0);
                break;
            }
            pos += batch;
            batch = (2 * batch).min(create_diff - pos);
        }

        for name in &pods_to_delete[..delete_diff] {
            self.writes += 1;
            match c.delete_pod(ns, name) {
                Ok(()) => {
                    c.record_event(pod_control_event(
                        ds,
                        EventType::Normal,
                        reasons::SUCCESSFUL_DELETE,
                        format!("Deleted pod: {name}"),
                    ));
                    if synchronous {
                        self.expectations.deletion_observed(&key);
                    }
                }
                Err(e) => {
                    self.expectations.deletion_observed(&key);
                    if !e.is_not_found() {
                        c.record_event(pod_control_event(
                            ds,
                            EventType::Warning,
                            reasons::FAILED_DELETE,
                            format!("Error deleting: {}", e.message()),
                        ));
                        errors.push(SyncError::Api(e));
                    }
                }
            }
        }
        let _ = ds_name;
        SyncError::aggregate(errors)
    }

    // ----- status (R-ST-*) -----

    /// R-ST-1..5: the counters over the node list and the pod map.
    pub(crate) fn compute_status_counts<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        nodes: &Arc<NodeView>,
        hash: &str,
        now: Timestamp,
    ) -> Result<StatusCounts, SyncError> {
        let map = self.get_nodes_to_daemon_pods(c, ds, false, now)?;
        let generation = get_template_generation(ds).unwrap_or(None);
        let mrs = min_ready_seconds(ds);
        let mut s = StatusCounts::default();
        // Readiness and updated-ness come from the remembered per-pod facts (same rules).
        let per_node = self.per_node(ds, nodes, &map, 0);
        // Native builds: the same counters from the per-node digests (`node_digest.rs`);
        // debug builds count both ways and compare.
        #[cfg(not(target_arch = "wasm32"))]
        let from_digests = self.status_from_digests(ds, nodes, &map, hash, now);
        #[cfg(all(not(target_arch = "wasm32"), not(debug_assertions)))]
        if let Some(s) = from_digests {
            return Ok(s);
        }
        let facts = self.pod_facts.entry(ds_key(ds)).or_default();
        for ((_, should), pods) in nodes.iter().zip(PerNode::slices(&per_node)) {
            let pods = pods.filter(|p| !p.is_empty());
            if should.should_run {
                s.desired_number_scheduled += 1;
                let Some(pods) = pods else { continue };
                s.current_number_scheduled += 1;
                let Some(pod) = pods
                    .iter()
                    .min_by(|a, b| by_creation_timestamp_and_phase(a, b))
                else {
                    continue;
                };
                let (ready, available, updated) =
                    facts.ready_available_updated(pod, mrs, now, hash, generation);
                if ready {
                    s.number_ready += 1;
                    if available {
                        s.number_available += 1;
                    }
                }
                if updated {
                    s.updated_number_scheduled += 1;
                }
            } else if pods.is_some() {
                s.number_misscheduled += 1;
            }
        }
        s.number_unavailable = s.desired_number_scheduled - s.number_available;
        #[cfg(not(target_arch = "wasm32"))]
        assert!(
            from_digests.is_none_or(|f| f == s),
            "status counters from the digests differ"
        );
        Ok(s)
    }

    /// R-ST-6 `updateDaemonSetStatus`.
    fn update_daemon_set_status<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        nodes: &Arc<NodeView>,
        hash: &str,
        update_observed_gen: bool,
        now: Timestamp,
    ) -> Result<(), SyncError> {
        let s = self.compute_status_counts(c, ds, nodes, hash, now)?;
        store_daemon_set_status(c, ds, &s, update_observed_gen).map_err(|e| {
            e.context(format!(
                "error storing status for daemon set {:?}",
                ds.metadata.name.as_deref().unwrap_or("")
            ))
        })?;
        let mrs = min_ready_seconds(ds);
        if mrs > 0 && s.number_ready != s.number_available {
            self.enqueue_after(ds, Duration::from_secs(mrs as u64), now);
        }
        Ok(())
    }
}

fn map_context(e: SyncError, ds: &DaemonSet) -> SyncError {
    e.context(format!(
        "couldn't get node to daemon pod mapping for daemon set {:?}",
        ds.metadata.name.as_deref().unwrap_or("")
    ))
}

/// The first 16 bytes of `name`, zero-padded, as a big-endian number: two names whose
/// prefixes differ compare as their prefixes do.
fn name_prefix(name: &str) -> u128 {
    let mut bytes = [0u8; 16];
    let n = name.len().min(16);
    bytes[..n].copy_from_slice(&name.as_bytes()[..n]);
    u128::from_be_bytes(bytes)
}

/// R-EVT-8 `shouldIgnoreNodeUpdate`: only label and taint changes matter.
pub fn should_ignore_node_update(old: &Node, cur: &Node) -> bool {
    old.metadata.labels == cur.metadata.labels
        && old.spec.as_ref().and_then(|s| s.taints.as_ref())
            == cur.spec.as_ref().and_then(|s| s.taints.as_ref())
}

/// R-MAN-4 `failedPodsBackoffKey`: `<uid>/<observedGeneration>/<node>`.
pub fn failed_pods_backoff_key(ds: &DaemonSet, node: &str) -> String {
    format!(
        "{}/{}/{}",
        ds.metadata.uid.as_deref().unwrap_or(""),
        ds.status
            .as_ref()
            .and_then(|s| s.observed_generation)
            .unwrap_or(0),
        node
    )
}

fn pod_control_event(
    ds: &DaemonSet,
    type_: EventType,
    reason: &'static str,
    message: String,
) -> RecordedEvent {
    RecordedEvent {
        namespace: ds.metadata.namespace.clone().unwrap_or_default(),
        daemon_set: ds.metadata.name.clone().unwrap_or_default(),
        type_,
        reason,
        message,
        source: EventSource::PodControl,
    }
}

/// `GetPodFromTemplate` + R-POD-1: the pod object sent to the API for one node.
pub fn pod_from_template(template: &PodTemplateSpec, ds: &DaemonSet, node: &str) -> Pod {
    let ds_name = ds.metadata.name.as_deref().unwrap_or("");
    let prefix = if ds_name.len() < 253 {
        format!("{ds_name}-")
    } else {
        ds_name.to_string()
    };
    let tmeta = template.metadata.as_ref();
    let mut spec = template.spec.clone().unwrap_or_default();
    spec.affinity = Some(replace_daemon_set_pod_node_name_node_affinity(
        spec.affinity.take(),
        node,
    ));
    Pod {
        metadata: ObjectMeta {
            generate_name: Some(prefix),
            namespace: ds.metadata.namespace.clone(),
            labels: tmeta.and_then(|m| m.labels.clone()),
            annotations: tmeta.and_then(|m| m.annotations.clone()),
            finalizers: tmeta.and_then(|m| m.finalizers.clone()),
            owner_references: Some(vec![new_controller_ref(ds)]),
            ..Default::default()
        },
        spec: Some(spec),
        status: None,
    }
}

fn status_equals(st: &DaemonSetStatus, s: &StatusCounts) -> bool {
    st.desired_number_scheduled == s.desired_number_scheduled
        && st.current_number_scheduled == s.current_number_scheduled
        && st.number_misscheduled == s.number_misscheduled
        && st.number_ready == s.number_ready
        && st.updated_number_scheduled.unwrap_or(0) == s.updated_number_scheduled
        && st.number_available.unwrap_or(0) == s.number_available
        && st.number_unavailable.unwrap_or(0) == s.number_unavailable
}

fn write_counts(st: &mut DaemonSetStatus, s: &StatusCounts) {
    st.desired_number_scheduled = s.desired_number_scheduled;
    st.current_number_scheduled = s.current_number_scheduled;
    st.number_misscheduled = s.number_misscheduled;
    st.number_ready = s.number_ready;
    st.updated_number_scheduled = Some(s.updated_number_scheduled);
    st.number_available = Some(s.number_available);
    st.number_unavailable = Some(s.number_unavailable);
}

/// R-ST-7 `storeDaemonSetStatus`: skip when unchanged; else UpdateStatus with one GET+retry.
pub fn store_daemon_set_status<C: Client + ?Sized>(
    c: &mut C,
    ds: &DaemonSet,
    s: &StatusCounts,
    update_observed_gen: bool,
) -> Result<(), SyncError> {
    let generation = ds.metadata.generation.unwrap_or(0);
    let current = ds.status.clone().unwrap_or_default();
    if status_equals(&current, s) && current.observed_generation.unwrap_or(0) >= generation {
        return Ok(());
    }
    let mut to_update = ds.clone();
    let mut attempt = 0;
    loop {
        let st = to_update.status.get_or_insert_with(Default::default);
        if update_observed_gen {
            st.observed_generation = Some(generation);
        }
        write_counts(st, s);
        let err = match c.update_daemon_set_status(&to_update) {
            Ok(_) => return Ok(()),
            Err(e) => e,
        };
        if attempt >= STATUS_UPDATE_RETRIES {
            return Err(SyncError::Api(err));
        }
        attempt += 1;
        let ns = ds.metadata.namespace.as_deref().unwrap_or("");
        let name = ds.metadata.name.as_deref().unwrap_or("");
        to_update = c.get_daemon_set(ns, name)?;
    }
}
