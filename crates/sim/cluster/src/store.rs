//! The object store with API-server semantics for DaemonSets, Pods, Nodes,
//! ControllerRevisions and Events: defaulting, validation and the registry strategy from the
//! `apiserver` crate, namespaces, `generateName`, UIDs, creation timestamps, a global
//! resourceVersion, optimistic concurrency on updates, graceful pod deletion and DaemonSet
//! deletion with a propagation policy (R-DEL-*). Every write appends a [`WatchEvent`] to the
//! outbox and its [`TraceEntry`]s to the trace.
//!
//! Knows nothing of the actors that read and write it, of delays or of the event queue: it
//! takes `now` from its owner and does exactly one write per call.

use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
use k8s_openapi::api::core::v1::{Event, Node, ObjectReference, Pod, PodStatus};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time};
use k8s_openapi::jiff::Timestamp;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use apiserver::strategy::{PropagationPolicy, FOREGROUND_DELETION_FINALIZER};
use codec::WirePrecision;
use controller::client::{Listers, ObjectPatch};

use crate::engine::{plus, seconds_between, PodKey};
use crate::events_cache::{Draft, EventCorrelator, SharedMap};
use crate::rng::Rng;
use crate::trace::{self, ObjectEvent, TraceEntry, TraceKind};
use k8s_base::{ApiError, ApplyOutcome};

pub(crate) const DAEMON_SETS: &str = "daemonsets.apps";
pub(crate) const PODS: &str = "pods";
pub(crate) const NODES: &str = "nodes";
pub(crate) const REVISIONS: &str = "controllerrevisions.apps";
/// Finalizer of a DaemonSet deleted with `propagationPolicy: Orphan`.
pub(crate) const ORPHAN_FINALIZER: &str = "orphan";
/// The alphabet of generated name suffixes (R-SIM-5).
const NAME_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
const DEFAULT_NAMESPACE: &str = "default";

type NsName = (String, String);

/// One stored object of a watched kind.
#[derive(Debug, Clone)]
pub enum Obj {
    DaemonSet(Arc<DaemonSet>),
    Pod(Arc<Pod>),
    Node(Arc<Node>),
    Revision(Arc<ControllerRevision>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchKind {
    Added,
    Modified,
    Deleted,
}

/// A watch event: what a watcher of the API server receives for one write.
#[derive(Debug, Clone)]
pub struct WatchEvent {
    pub kind: WatchKind,
    /// The stored object before the write (None for Added).
    pub old: Option<Obj>,
    /// The object after the write (for Deleted: its last state).
    pub obj: Obj,
}

/// Objects by kind, ordered by (namespace, name): the store's contents and, lagged, the
/// controller's informer cache. Nodes live under namespace "".
#[derive(Debug, Clone, Default)]
pub struct Objects {
    pub(crate) daemon_sets: BTreeMap<NsName, Arc<DaemonSet>>,
    pub(crate) pods: BTreeMap<NsName, Arc<Pod>>,
    pub(crate) nodes: BTreeMap<NsName, Arc<Node>>,
    pub(crate) revisions: BTreeMap<NsName, Arc<ControllerRevision>>,
    /// Node watch events applied so far: the informer cache's `nodes_version` (the store
    /// writes its own tables directly and does not count).
    pub(crate) node_events: u64,
    /// Pod watch events applied so far: the informer cache's `pods_version`.
    pub(crate) pod_events: u64,
    /// Native builds: the keys of the last pod watch events applied, each with the
    /// `pod_events` it made (`Listers::pods_changed_since`).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) pod_log: std::collections::VecDeque<(u64, NsName)>,
}

/// How many pod watch events the change log keeps: enough for the events between two syncs of
/// a busy cluster; an older version is answered with `None` (the controller lists instead).
#[cfg(not(target_arch = "wasm32"))]
const POD_LOG_LEN: usize = 1024;

fn key_of(meta: &ObjectMeta) -> NsName {
    (
        meta.namespace.clone().unwrap_or_default(),
        meta.name.clone().unwrap_or_default(),
    )
}

fn in_namespace<T>(map: &BTreeMap<NsName, Arc<T>>, ns: &str) -> Vec<Arc<T>> {
    // Every key of namespace `ns` lies in [(ns, ""), (ns + "\0", "")) and no other key does
    // (a greater namespace is at least `ns + "\0"`), so the keys in between are not compared.
    let end = (format!("{ns}\0"), String::new());
    map.range((ns.to_string(), String::new())..end)
        .map(|(_, v)| v.clone())
        .collect()
}

fn lookup<T>(map: &BTreeMap<NsName, Arc<T>>, ns: &str, name: &str) -> Option<Arc<T>> {
    map.get(&(ns.to_string(), name.to_string())).cloned()
}

impl Objects {
    /// Applies a watch event (what an informer does to its indexer).
    pub(crate) fn apply(&mut self, ev: &WatchEvent) {
        let deleted = ev.kind == WatchKind::Deleted;
        match &ev.obj {
            Obj::DaemonSet(o) => upsert(&mut self.daemon_sets, o, deleted),
            Obj::Pod(o) => {
                self.pod_events += 1;
                #[cfg(not(target_arch = "wasm32"))]
                {
                    if self.pod_log.len() == POD_LOG_LEN {
                        self.pod_log.pop_front();
                    }
                    self.pod_log.push_back((self.pod_events, key_of(o.meta())));
                }
                upsert(&mut self.pods, o, deleted)
            }
            Obj::Node(o) => {
                self.node_events += 1;
                upsert(&mut self.nodes, o, deleted)
            }
            Obj::Revision(o) => upsert(&mut self.revisions, o, deleted),
        }
    }

    pub fn all_pods(&self) -> impl Iterator<Item = &Arc<Pod>> {
        self.pods.values()
    }

    pub fn all_nodes(&self) -> impl Iterator<Item = &Arc<Node>> {
        self.nodes.values()
    }

    /// Natively: whether the stored node objects are exactly `kept`, in order (the store
    /// replaces a node object whenever it changes, so the same objects mean the same nodes).
    /// A walk of pointers: debug builds check `Store::nodes_stamp` against it.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn nodes_are(&self, kept: &[Arc<Node>]) -> bool {
        self.nodes.len() == kept.len() && self.all_nodes().zip(kept).all(|(a, b)| Arc::ptr_eq(a, b))
    }

    pub fn all_revisions(&self) -> impl Iterator<Item = &Arc<ControllerRevision>> {
        self.revisions.values()
    }

    pub fn daemon_set_iter(&self) -> impl Iterator<Item = &Arc<DaemonSet>> {
        self.daemon_sets.values()
    }
}

fn upsert<T: Meta>(map: &mut BTreeMap<NsName, Arc<T>>, o: &Arc<T>, deleted: bool) {
    let key = key_of(o.meta());
    if deleted {
        map.remove(&key);
    } else {
        map.insert(key, o.clone());
    }
}

impl Listers for Objects {
    fn daemon_set(&self, namespace: &str, name: &str) -> Option<Arc<DaemonSet>> {
        lookup(&self.daemon_sets, namespace, name)
    }
    fn daemon_sets(&self, namespace: &str) -> Vec<Arc<DaemonSet>> {
        in_namespace(&self.daemon_sets, namespace)
    }
    fn all_daemon_sets(&self) -> Vec<Arc<DaemonSet>> {
        self.daemon_sets.values().cloned().collect()
    }
    fn nodes(&self) -> Vec<Arc<Node>> {
        self.nodes.values().cloned().collect()
    }
    fn node(&self, name: &str) -> Option<Arc<Node>> {
        lookup(&self.nodes, "", name)
    }
    fn pods(&self, namespace: &str) -> Vec<Arc<Pod>> {
        in_namespace(&self.pods, namespace)
    }
    fn pod(&self, namespace: &str, name: &str) -> Option<Arc<Pod>> {
        lookup(&self.pods, namespace, name)
    }
    fn revisions(&self, namespace: &str) -> Vec<Arc<ControllerRevision>> {
        in_namespace(&self.revisions, namespace)
    }
    /// From the change log, while it reaches back to `since` (its first entry is the event
    /// right after, or it holds every event so far).
    #[cfg(not(target_arch = "wasm32"))]
    fn pods_changed_since(&self, namespace: &str, since: u64) -> Option<Vec<String>> {
        let first = self.pod_log.front().map_or(self.pod_events + 1, |e| e.0);
        if since > self.pod_events || since + 1 < first {
            return None;
        }
        let start = self.pod_log.partition_point(|e| e.0 <= since);
        Some(
            self.pod_log
                .range(start..)
                .filter(|(_, (ns, _))| ns == namespace)
                .map(|(_, (_, name))| name.clone())
                .collect(),
        )
    }
}

/// Access to the metadata of every stored kind.
pub(crate) trait Meta: WirePrecision {
    fn meta(&self) -> &ObjectMeta;
    fn meta_mut(&mut self) -> &mut ObjectMeta;
}

macro_rules! impl_meta {
    ($($t:ty),*) => {$(
        impl Meta for $t {
            fn meta(&self) -> &ObjectMeta { &self.metadata }
            fn meta_mut(&mut self) -> &mut ObjectMeta { &mut self.metadata }
        }
    )*};
}
impl_meta!(DaemonSet, Pod, Node, ControllerRevision);

/// One watched kind: where it is stored, how it is wrapped and traced.
trait Kind: Meta + Clone + PartialEq {
    fn table(o: &mut Objects) -> &mut BTreeMap<NsName, Arc<Self>>;
    fn wrap(a: Arc<Self>) -> Obj;
    fn trace(old: Option<&Self>, new: Option<&Self>) -> Vec<TraceKind>;
}

impl Kind for DaemonSet {
    fn table(o: &mut Objects) -> &mut BTreeMap<NsName, Arc<Self>> {
        &mut o.daemon_sets
    }
    fn wrap(a: Arc<Self>) -> Obj {
        Obj::DaemonSet(a)
    }
    fn trace(old: Option<&Self>, new: Option<&Self>) -> Vec<TraceKind> {
        let mut out = Vec::new();
        match (old, new) {
            (None, Some(n)) => out.push(trace::daemon_set_entry(n, ObjectEvent::Created)),
            (Some(o), None) => out.push(trace::daemon_set_entry(o, ObjectEvent::Deleted)),
            (Some(o), Some(n)) => {
                if o.metadata.generation != n.metadata.generation {
                    out.push(trace::daemon_set_entry(n, ObjectEvent::Updated));
                }
                if o.metadata.deletion_timestamp.is_none()
                    && n.metadata.deletion_timestamp.is_some()
                {
                    out.push(trace::daemon_set_entry(n, ObjectEvent::Deleting));
                }
                if o.status != n.status {
                    out.push(TraceKind::DaemonSetStatus {
                        namespace: n.metadata.namespace.clone().unwrap_or_default(),
                        name: n.metadata.name.clone().unwrap_or_default(),
                        status: n.status.clone().unwrap_or_default(),
                    });
                }
            }
            (None, None) => {}
        }
        out
    }
}

impl Kind for Pod {
    fn table(o: &mut Objects) -> &mut BTreeMap<NsName, Arc<Self>> {
        &mut o.pods
    }
    fn wrap(a: Arc<Self>) -> Obj {
        Obj::Pod(a)
    }
    fn trace(old: Option<&Self>, new: Option<&Self>) -> Vec<TraceKind> {
        let Some(shown) = new.or(old) else {
            return Vec::new();
        };
        trace::pod_events(old, new)
            .into_iter()
            .map(|e| trace::pod_entry(shown, e))
            .collect()
    }
}

impl Kind for Node {
    fn table(o: &mut Objects) -> &mut BTreeMap<NsName, Arc<Self>> {
        &mut o.nodes
    }
    fn wrap(a: Arc<Self>) -> Obj {
        Obj::Node(a)
    }
    fn trace(old: Option<&Self>, new: Option<&Self>) -> Vec<TraceKind> {
        match (old, new) {
            (None, Some(n)) => vec![trace::node_entry(n, ObjectEvent::Created)],
            (Some(o), None) => vec![trace::node_entry(o, ObjectEvent::Deleted)],
            (Some(o), Some(n)) if trace::node_visible_change(o, n) => {
                vec![trace::node_entry(n, ObjectEvent::Updated)]
            }
            _ => Vec::new(),
        }
    }
}

impl Kind for ControllerRevision {
    fn table(o: &mut Objects) -> &mut BTreeMap<NsName, Arc<Self>> {
        &mut o.revisions
    }
    fn wrap(a: Arc<Self>) -> Obj {
        Obj::Revision(a)
    }
    fn trace(old: Option<&Self>, new: Option<&Self>) -> Vec<TraceKind> {
        let entry = |r: &ControllerRevision, event| TraceKind::ControllerRevision {
            namespace: r.metadata.namespace.clone().unwrap_or_default(),
            name: r.metadata.name.clone().unwrap_or_default(),
            revision: r.revision.unwrap_or(0),
            event,
        };
        match (old, new) {
            (None, Some(n)) => vec![entry(n, ObjectEvent::Created)],
            (Some(o), None) => vec![entry(o, ObjectEvent::Deleted)],
            (Some(o), Some(n)) if o.revision != n.revision => {
                vec![entry(n, ObjectEvent::Updated)]
            }
            _ => Vec::new(),
        }
    }
}

/// The recorded events, oldest first, in chunks that clones of the store share: a timeline
/// checkpoint copies a pointer per chunk rather than one per event (a 5,000-node cluster
/// records four events per pod), and a write copies only its own chunk.
#[derive(Debug, Clone, Default)]
pub struct EventLog {
    chunks: Vec<Arc<Vec<Arc<Event>>>>,
    len: usize,
}

impl EventLog {
    const CHUNK: usize = 512;

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Arc<Event>> + '_ {
        self.chunks.iter().flat_map(|c| c.iter())
    }

    pub fn get(&self, i: usize) -> Option<&Arc<Event>> {
        self.chunks.get(i / Self::CHUNK)?.get(i % Self::CHUNK)
    }

    /// The events as one list.
    pub fn to_vec(&self) -> Vec<Arc<Event>> {
        self.iter().cloned().collect()
    }

    fn get_mut(&mut self, i: usize) -> Option<&mut Arc<Event>> {
        let chunk = self.chunks.get_mut(i / Self::CHUNK)?;
        Arc::make_mut(chunk).get_mut(i % Self::CHUNK)
    }

    fn push(&mut self, e: Arc<Event>) {
        match self.chunks.last_mut() {
            Some(last) if last.len() < Self::CHUNK => Arc::make_mut(last).push(e),
            _ => {
                let mut chunk = Vec::with_capacity(Self::CHUNK);
                chunk.push(e);
                self.chunks.push(Arc::new(chunk));
            }
        }
        self.len += 1;
    }
}

/// Where an event's uid comes from: the stream that also names pods (the events recorded
/// before the kubelets recorded theirs), or a stream of the kubelets' own, so that adding their
/// events left pod names as they were.
/// Who records an event: the component (and node) its `source` names, which also says which
/// generator draws its uid ([`UidStream`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Recorder<'a> {
    /// A controller whose events came before kubelet events existed (the DaemonSet
    /// controller, the scheduler, the taint manager): uid from the names' generator.
    Controller(&'a str),
    /// A controller whose events came after pod names were pinned (the node lifecycle
    /// controller's `RegisteredNode`, `NodeNotReady` …): uid from the events' own generator.
    LateController(&'a str),
    /// The kubelet on this node.
    Kubelet(&'a str),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UidStream {
    /// The generator that names pods (the events recorded before kubelet events existed).
    Names,
    /// The events' own generator (kubelet and node-controller events), so recording them
    /// leaves pod names as they were.
    Events,
}

/// The virtual API server's storage.
#[derive(Debug, Clone)]
pub struct Store {
    pub(crate) objects: Objects,
    /// node name → pods bound to it (spec.nodeName), for the node-local actors.
    pods_by_node: BTreeMap<String, BTreeSet<NsName>>,
    /// Native builds: counts the keys of `pods_by_node` that were not stored nodes when added
    /// or removed (with the same nodes, pod GC's orphaned nodes are the same while it does not
    /// change).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) stray_key_changes: u64,
    /// Native builds: how many stored pods are terminal (Failed or Succeeded), for pod GC's
    /// gcTerminated, which has nothing to do below its threshold.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) terminal_pods: usize,
    /// Native builds: how many stored nodes are out of service and not Ready, for pod GC's
    /// gcTerminating, which has nothing to look at without one.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) out_of_service_not_ready: usize,
    /// Native builds: a number no other content of the node table has had in this process,
    /// drawn afresh whenever a node is written or removed (a clone keeps it, with the same
    /// node objects). What is remembered of the nodes at one stamp holds at that stamp: the
    /// node lifecycle monitor and pod GC compare it instead of walking the nodes each pass.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) nodes_stamp: u64,
    events: EventLog,
    /// The recorders' correlation (aggregation, dedup, spam filter), as client-go's.
    correlator: EventCorrelator,
    /// The event keys recorded from the naming stream so far (see `emit`).
    names_drawn: SharedMap<()>,
    /// The nanosecond in the newest event's name (see `record_event`).
    last_event_nanos: i128,
    resource_version: u64,
    rng: Rng,
    /// The token volumes' name suffixes, from a stream of their own: pod names (from `rng`)
    /// stay what they were before pods were admitted.
    token_rng: Rng,
    /// The uids of the kubelets' events, likewise, and of the other events that did not draw
    /// theirs from `rng` (see `emit`).
    event_rng: Rng,
    pub(crate) now: Timestamp,
    start: Timestamp,
    pub(crate) outbox: Vec<WatchEvent>,
    pub(crate) trace: Vec<TraceEntry>,
}

/// A random (version 4) UUID from four draws of `rng`.
fn uid_from(rng: &mut Rng) -> String {
    let mut bits = 0u128;
    for _ in 0..4 {
        bits = (bits << 32) | u128::from(rng.next_u32());
    }
    crate::rng::uuid_v4(bits)
}

/// Five characters of the upstream name alphabet (`utilrand.String(5)`).
fn random_suffix(rng: &mut Rng) -> String {
    (0..5)
        .map(|_| {
            let i = rng.below(NAME_ALPHABET.len() as u32) as usize;
            char::from(NAME_ALPHABET[i])
        })
        .collect()
}

fn normalize_namespace(meta: &mut ObjectMeta) {
    if meta.namespace.as_deref().is_none_or(str::is_empty) {
        meta.namespace = Some(DEFAULT_NAMESPACE.to_string());
    }
}

/// An object as the API server stores it and a watch delivers it: its times at wire precision
/// (`metav1.Time` whole seconds, `MicroTime` microseconds). The one place the store applies
/// it; the virtual clock itself keeps its sub-second instants.
fn as_stored<T: WirePrecision>(mut obj: T) -> T {
    obj.to_wire_precision();
    obj
}

/// Fields only the server sets; ignored on create.
fn clear_server_fields(meta: &mut ObjectMeta) {
    meta.uid = None;
    meta.resource_version = None;
    meta.creation_timestamp = None;
    meta.deletion_timestamp = None;
    meta.deletion_grace_period_seconds = None;
    meta.generation = None;
    meta.managed_fields = None;
}

fn apply_patch(meta: &mut ObjectMeta, patch: &ObjectPatch) {
    match patch {
        ObjectPatch::AdoptBy(r) => {
            let refs = meta.owner_references.get_or_insert_with(Vec::new);
            if !refs.iter().any(|x| x.uid == r.uid) {
                refs.push(r.clone());
            }
        }
        ObjectPatch::ReleaseFrom { uid } => {
            if let Some(refs) = meta.owner_references.as_mut() {
                refs.retain(|r| &r.uid != uid);
                if refs.is_empty() {
                    meta.owner_references = None;
                }
            }
        }
        ObjectPatch::SetLabel { key, value } => {
            meta.labels
                .get_or_insert_with(BTreeMap::new)
                .insert(key.clone(), value.clone());
        }
    }
}

fn qos_class(pod: &Pod) -> &'static str {
    let Some(spec) = pod.spec.as_ref() else {
        return "BestEffort";
    };
    let mut any = false;
    let mut guaranteed = true;
    for c in &spec.containers {
        let req = c.resources.as_ref().and_then(|r| r.requests.as_ref());
        let lim = c.resources.as_ref().and_then(|r| r.limits.as_ref());
        if req.is_some_and(|m| !m.is_empty()) || lim.is_some_and(|m| !m.is_empty()) {
            any = true;
        }
        for res in ["cpu", "memory"] {
            let l = lim.and_then(|m| m.get(res));
            let r = req.and_then(|m| m.get(res));
            if l.is_none() || (r.is_some() && r != l) {
                guaranteed = false;
            }
        }
    }
    match (any, guaranteed) {
        (false, _) => "BestEffort",
        (true, true) => "Guaranteed",
        (true, false) => "Burstable",
    }
}

impl Store {
    pub(crate) fn new(seed: u64, start: Timestamp) -> Self {
        Store {
            objects: Objects::default(),
            pods_by_node: BTreeMap::new(),
            #[cfg(not(target_arch = "wasm32"))]
            stray_key_changes: 0,
            #[cfg(not(target_arch = "wasm32"))]
            terminal_pods: 0,
            #[cfg(not(target_arch = "wasm32"))]
            out_of_service_not_ready: 0,
            #[cfg(not(target_arch = "wasm32"))]
            nodes_stamp: fresh_stamp(),
            events: EventLog::default(),
            correlator: EventCorrelator::default(),
            names_drawn: SharedMap::default(),
            last_event_nanos: i128::MIN,
            resource_version: 0,
            rng: Rng::new(seed, 0x5eed_0001),
            token_rng: Rng::new(seed, 0x5eed_70c3),
            event_rng: Rng::new(seed, 0x5eed_e7e7),
            now: start,
            start,
            outbox: Vec::new(),
            trace: Vec::new(),
        }
    }

    // ----- reads -----

    pub fn objects(&self) -> &Objects {
        &self.objects
    }

    pub fn events(&self) -> &EventLog {
        &self.events
    }

    pub fn daemon_set(&self, ns: &str, name: &str) -> Option<Arc<DaemonSet>> {
        self.objects.daemon_set(ns, name)
    }

    pub fn pod(&self, ns: &str, name: &str) -> Option<Arc<Pod>> {
        self.objects.pod(ns, name)
    }

    /// The pod if it is still the same object (same UID).
    pub(crate) fn pod_by_key(&self, key: &PodKey) -> Option<Arc<Pod>> {
        self.pod(&key.ns, &key.name)
            .filter(|p| p.metadata.uid.as_deref() == Some(key.uid.as_str()))
    }

    pub fn node(&self, name: &str) -> Option<Arc<Node>> {
        self.objects.node(name)
    }

    /// Pods whose `spec.nodeName` is `node`, in (namespace, name) order.
    pub fn pods_on_node(&self, node: &str) -> Vec<Arc<Pod>> {
        self.pods_by_node
            .get(node)
            .map(|keys| {
                keys.iter()
                    .filter_map(|k| self.objects.pods.get(k).cloned())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The stored nodes' names, in order (nodes live under namespace "").
    pub(crate) fn node_names(&self) -> impl Iterator<Item = &str> {
        self.objects
            .nodes
            .range((String::new(), String::new())..("\0".to_string(), String::new()))
            .map(|((_, name), _)| name.as_str())
    }

    /// Node names that have bound pods.
    pub(crate) fn nodes_with_pods(&self) -> impl Iterator<Item = &String> {
        self.pods_by_node.keys()
    }

    pub(crate) fn daemon_set_by_uid(&self, uid: &str) -> Option<Arc<DaemonSet>> {
        self.objects
            .daemon_sets
            .values()
            .find(|d| d.metadata.uid.as_deref() == Some(uid))
            .cloned()
    }

    // ----- write plumbing -----

    fn stamp(&mut self, meta: &mut ObjectMeta) {
        self.resource_version += 1;
        meta.resource_version = Some(self.resource_version.to_string());
    }

    /// Virtual seconds since the start, to the microsecond.
    pub(crate) fn t(&self) -> f64 {
        (seconds_between(self.now, self.start) * 1e6).round() / 1e6
    }

    fn record(&mut self, kinds: Vec<TraceKind>) {
        let t = self.t();
        self.trace
            .extend(kinds.into_iter().map(|kind| TraceEntry { t, kind }));
    }

    /// Natively: a key of `pods_by_node` was added or removed; counted when it names no
    /// stored node.
    #[cfg(not(target_arch = "wasm32"))]
    fn note_key_change(&mut self, node: &str) {
        if !self
            .objects
            .nodes
            .contains_key(&(String::new(), node.to_string()))
        {
            self.stray_key_changes += 1;
        }
    }

    fn index_pod(&mut self, old: Option<&Pod>, new: Option<&Pod>) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let terminal = |p: Option<&Pod>| p.is_some_and(controller::pod_util::is_pod_terminal);
            self.terminal_pods =
                self.terminal_pods + terminal(new) as usize - terminal(old) as usize;
        }
        let node_of = |p: &Pod| controller::pod_util::node_name(p).to_string();
        if let Some(o) = old {
            let n = node_of(o);
            if !n.is_empty() {
                if let Some(set) = self.pods_by_node.get_mut(&n) {
                    set.remove(&key_of(&o.metadata));
                    if set.is_empty() {
                        self.pods_by_node.remove(&n);
                        #[cfg(not(target_arch = "wasm32"))]
                        self.note_key_change(&n);
                    }
                }
            }
        }
        if let Some(p) = new {
            let n = node_of(p);
            if !n.is_empty() {
                #[cfg(not(target_arch = "wasm32"))]
                if !self.pods_by_node.contains_key(&n) {
                    self.note_key_change(&n);
                }
                self.pods_by_node
                    .entry(n)
                    .or_default()
                    .insert(key_of(&p.metadata));
            }
        }
    }

    /// Stores `obj` as the API server would: at wire precision (see [`as_stored`]), with the
    /// next resourceVersion, announcing it on the watch.
    fn put<K: Kind>(&mut self, old: Option<Arc<K>>, obj: K) -> Arc<K>
    where
        Self: PodIndex<K>,
    {
        self.commit(old, as_stored(obj))
    }

    /// `put` of an object already at wire precision.
    fn commit<K: Kind>(&mut self, old: Option<Arc<K>>, mut obj: K) -> Arc<K>
    where
        Self: PodIndex<K>,
    {
        self.stamp(obj.meta_mut());
        let new = Arc::new(obj);
        self.record(K::trace(old.as_deref(), Some(&new)));
        self.reindex(old.as_deref(), Some(&new));
        K::table(&mut self.objects).insert(key_of(new.meta()), new.clone());
        self.outbox.push(WatchEvent {
            kind: if old.is_some() {
                WatchKind::Modified
            } else {
                WatchKind::Added
            },
            old: old.map(K::wrap),
            obj: K::wrap(new.clone()),
        });
        new
    }

    /// `put` of an update, unless the stored form of `new` is the stored `old`: the API
    /// server compares what it would store, so a rewrite that differs only below wire
    /// precision is no write (no resourceVersion, no watch event).
    fn put_changed<K: Kind>(&mut self, old: Arc<K>, new: K) -> Arc<K>
    where
        Self: PodIndex<K>,
    {
        let new = as_stored(new);
        if new == *old {
            return old;
        }
        self.commit(Some(old), new)
    }

    fn remove<K: Kind>(&mut self, ns: &str, name: &str) -> Option<Arc<K>>
    where
        Self: PodIndex<K>,
    {
        let old = K::table(&mut self.objects).remove(&(ns.to_string(), name.to_string()))?;
        let mut last = (*old).clone();
        self.stamp(last.meta_mut());
        self.record(K::trace(Some(&old), None));
        self.reindex(Some(&old), None);
        self.outbox.push(WatchEvent {
            kind: WatchKind::Deleted,
            old: Some(K::wrap(old.clone())),
            obj: K::wrap(Arc::new(last)),
        });
        Some(old)
    }

    fn new_uid(&mut self) -> String {
        uid_from(&mut self.rng)
    }

    fn suffix(&mut self) -> String {
        random_suffix(&mut self.rng)
    }

    /// The name of a new object: `metadata.name`, else `generateName` + 5 random characters.
    fn name_for_create<T>(
        &mut self,
        meta: &ObjectMeta,
        resource: &str,
        table: fn(&Objects) -> &BTreeMap<NsName, Arc<T>>,
    ) -> Result<String, ApiError> {
        if let Some(n) = meta.name.as_deref().filter(|n| !n.is_empty()) {
            return Ok(n.to_string());
        }
        let Some(prefix) = meta.generate_name.as_deref().filter(|g| !g.is_empty()) else {
            return Err(ApiError::BadRequest(format!(
                "resource name may not be empty (creating {resource})"
            )));
        };
        let base: String = prefix.chars().take(58).collect();
        let ns = meta.namespace.clone().unwrap_or_default();
        for _ in 0..8 {
            let name = format!("{base}{}", self.suffix());
            if !table(&self.objects).contains_key(&(ns.clone(), name.clone())) {
                return Ok(name);
            }
        }
        Err(ApiError::already_exists(resource, &format!("{base}*")))
    }

    fn finish_create(&mut self, meta: &mut ObjectMeta, name: String) {
        meta.name = Some(name);
        meta.uid = Some(self.new_uid());
        meta.creation_timestamp = Some(Time(self.now));
    }

    // ----- DaemonSets -----

    /// Create (defaults, `PrepareForCreate`, validation).
    pub fn create_daemon_set(&mut self, mut ds: DaemonSet) -> Result<Arc<DaemonSet>, ApiError> {
        normalize_namespace(&mut ds.metadata);
        clear_server_fields(&mut ds.metadata);
        let name = self.name_for_create(&ds.metadata, DAEMON_SETS, |o| &o.daemon_sets)?;
        ds.metadata.name = Some(name.clone());
        apiserver::defaults::set_defaults_daemon_set(&mut ds);
        apiserver::strategy::prepare_for_create(&mut ds);
        apiserver::validation::validate_daemon_set(&ds)?;
        let ns = ds.metadata.namespace.clone().unwrap_or_default();
        if self.daemon_set(&ns, &name).is_some() {
            return Err(ApiError::already_exists(DAEMON_SETS, &name));
        }
        self.finish_create(&mut ds.metadata, name);
        Ok(self.put(None, ds))
    }

    /// Update of the whole object (`PrepareForUpdate`, `ValidateDaemonSetUpdate`). Server-owned
    /// metadata is kept; a stale `resourceVersion` is a conflict. No write when nothing
    /// changed.
    pub fn update_daemon_set(
        &mut self,
        mut ds: DaemonSet,
    ) -> Result<(Arc<DaemonSet>, ApplyOutcome), ApiError> {
        normalize_namespace(&mut ds.metadata);
        let (ns, name) = key_of(&ds.metadata);
        let old = self
            .daemon_set(&ns, &name)
            .ok_or_else(|| ApiError::not_found(DAEMON_SETS, &name))?;
        if ds
            .metadata
            .resource_version
            .as_ref()
            .is_some_and(|rv| Some(rv) != old.metadata.resource_version.as_ref())
        {
            return Err(ApiError::conflict(DAEMON_SETS, &name));
        }
        let m = &mut ds.metadata;
        m.uid.clone_from(&old.metadata.uid);
        m.creation_timestamp
            .clone_from(&old.metadata.creation_timestamp);
        m.deletion_timestamp
            .clone_from(&old.metadata.deletion_timestamp);
        m.deletion_grace_period_seconds = old.metadata.deletion_grace_period_seconds;
        m.resource_version
            .clone_from(&old.metadata.resource_version);
        m.managed_fields.clone_from(&old.metadata.managed_fields);
        apiserver::defaults::set_defaults_daemon_set(&mut ds);
        apiserver::strategy::prepare_for_update(&mut ds, &old);
        if apiserver::strategy::semantic_eq(&ds.spec, &old.spec) && ds.metadata == old.metadata {
            return Ok((old, ApplyOutcome::Unchanged));
        }
        apiserver::validation::validate_daemon_set_update(&ds, &old)?;
        Ok((self.put(Some(old), ds), ApplyOutcome::Configured))
    }

    /// The status subresource: only `status` changes; no write when it is equal.
    pub fn update_daemon_set_status(&mut self, ds: &DaemonSet) -> Result<Arc<DaemonSet>, ApiError> {
        let (ns, name) = key_of(&ds.metadata);
        let ns = if ns.is_empty() {
            DEFAULT_NAMESPACE.to_string()
        } else {
            ns
        };
        let old = self
            .daemon_set(&ns, &name)
            .ok_or_else(|| ApiError::not_found(DAEMON_SETS, &name))?;
        let stale_rv = ds
            .metadata
            .resource_version
            .as_ref()
            .is_some_and(|rv| Some(rv) != old.metadata.resource_version.as_ref());
        let other_uid = ds
            .metadata
            .uid
            .as_ref()
            .is_some_and(|u| Some(u) != old.metadata.uid.as_ref());
        if stale_rv || other_uid {
            return Err(ApiError::conflict(DAEMON_SETS, &name));
        }
        let mut new = (*old).clone();
        new.status.clone_from(&ds.status);
        apiserver::validation::validate_daemon_set_status_update(&new, &old)?;
        Ok(self.put_changed(old, new))
    }

    /// DELETE with a propagation policy (R-DEL-1..2). Background removes the object now;
    /// Foreground and Orphan mark it (deletionTimestamp + finalizer) for the garbage
    /// collector.
    pub fn delete_daemon_set(
        &mut self,
        ns: &str,
        name: &str,
        policy: PropagationPolicy,
    ) -> Result<(), ApiError> {
        let old = self
            .daemon_set(ns, name)
            .ok_or_else(|| ApiError::not_found(DAEMON_SETS, name))?;
        let finalizer = match policy {
            PropagationPolicy::Background => {
                self.remove::<DaemonSet>(ns, name);
                return Ok(());
            }
            PropagationPolicy::Foreground => FOREGROUND_DELETION_FINALIZER,
            PropagationPolicy::Orphan => ORPHAN_FINALIZER,
        };
        if old.metadata.deletion_timestamp.is_some() {
            return Ok(());
        }
        let mut new = (*old).clone();
        new.metadata.deletion_timestamp = Some(Time(self.now));
        new.metadata.deletion_grace_period_seconds = Some(0);
        new.metadata
            .finalizers
            .get_or_insert_with(Vec::new)
            .push(finalizer.to_string());
        self.put(Some(old), new);
        Ok(())
    }

    /// The garbage collector's final removal of a DaemonSet whose finalizers are done.
    pub(crate) fn finalize_daemon_set(&mut self, ns: &str, name: &str) {
        self.remove::<DaemonSet>(ns, name);
    }

    // ----- Pods -----

    /// Create (core defaults, phase Pending).
    pub fn create_pod(&mut self, ns: &str, mut pod: Pod) -> Result<Arc<Pod>, ApiError> {
        pod.metadata.namespace = Some(ns.to_string());
        normalize_namespace(&mut pod.metadata);
        clear_server_fields(&mut pod.metadata);
        // Defaults, then mutating admission, before the name is generated (as the API server
        // orders them): a refusal names the pod by its generateName.
        apiserver::defaults::set_defaults_pod(&mut pod);
        let tokens = &mut self.token_rng;
        if let Err(reason) = apiserver::admission::admit_pod(&mut pod, || random_suffix(tokens)) {
            let m = &pod.metadata;
            let shown = [&m.name, &m.generate_name]
                .into_iter()
                .flatten()
                .find(|n| !n.is_empty())
                .map_or("Unknown", String::as_str);
            return Err(ApiError::Forbidden(format!(
                "{PODS} \"{shown}\" is forbidden: {reason}"
            )));
        }
        let name = self.name_for_create(&pod.metadata, PODS, |o| &o.pods)?;
        let ns = pod.metadata.namespace.clone().unwrap_or_default();
        if self.pod(&ns, &name).is_some() {
            return Err(ApiError::already_exists(PODS, &name));
        }
        if pod.spec.as_ref().is_none_or(|s| s.containers.is_empty()) {
            return Err(ApiError::BadRequest(format!(
                "Pod \"{name}\" is invalid: spec.containers: Required value"
            )));
        }
        let qos = qos_class(&pod).to_string();
        pod.status = Some(PodStatus {
            phase: Some("Pending".to_string()),
            qos_class: Some(qos),
            ..Default::default()
        });
        self.finish_create(&mut pod.metadata, name);
        Ok(self.put(None, pod))
    }

    /// Graceful DELETE: unbound and terminal pods go at once; others get a deletionTimestamp
    /// `now + grace` and are removed later by their kubelet. `grace` defaults to the pod's
    /// `terminationGracePeriodSeconds`; 0 forces.
    pub fn delete_pod(&mut self, ns: &str, name: &str, grace: Option<i64>) -> Result<(), ApiError> {
        let old = self
            .pod(ns, name)
            .ok_or_else(|| ApiError::not_found(PODS, name))?;
        let spec_grace = old
            .spec
            .as_ref()
            .and_then(|s| s.termination_grace_period_seconds)
            .unwrap_or(apiserver::defaults::DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS);
        let mut grace = grace.unwrap_or(spec_grace).max(0);
        if controller::pod_util::node_name(&old).is_empty()
            || controller::pod_util::is_pod_terminal(&old)
        {
            grace = 0;
        }
        if grace == 0 {
            self.remove::<Pod>(ns, name);
            return Ok(());
        }
        let deadline = plus(self.now, grace as f64);
        if let Some(existing) = &old.metadata.deletion_timestamp {
            if existing.0 <= deadline {
                return Ok(());
            }
        }
        let mut new = (*old).clone();
        new.metadata.deletion_timestamp = Some(Time(deadline));
        new.metadata.deletion_grace_period_seconds = Some(grace);
        self.put(Some(old), new);
        Ok(())
    }

    /// Final removal (the kubelet after termination, or a forced delete).
    pub(crate) fn remove_pod(&mut self, ns: &str, name: &str) -> Option<Arc<Pod>> {
        self.remove::<Pod>(ns, name)
    }

    pub fn patch_pod(&mut self, ns: &str, name: &str, patch: &ObjectPatch) -> Result<(), ApiError> {
        let old = self
            .pod(ns, name)
            .ok_or_else(|| ApiError::not_found(PODS, name))?;
        let mut new = (*old).clone();
        apply_patch(&mut new.metadata, patch);
        self.put_changed(old, new);
        Ok(())
    }

    /// A write by a cluster component (binding, status): no write when `f` changes nothing.
    pub(crate) fn mutate_pod(
        &mut self,
        key: &PodKey,
        f: impl FnOnce(&mut Pod),
    ) -> Option<Arc<Pod>> {
        let old = self.pod_by_key(key)?;
        let mut new = (*old).clone();
        f(&mut new);
        Some(self.put_changed(old, new))
    }

    // ----- Nodes -----

    /// Register a node. `taint_not_ready`: the admission plugin's
    /// `node.kubernetes.io/not-ready:NoSchedule` (R-ELG-7).
    pub fn create_node(
        &mut self,
        mut node: Node,
        taint_not_ready: bool,
    ) -> Result<Arc<Node>, ApiError> {
        node.metadata.namespace = None;
        clear_server_fields(&mut node.metadata);
        let name = node
            .metadata
            .name
            .clone()
            .filter(|n| !n.is_empty())
            .ok_or_else(|| ApiError::BadRequest("resource name may not be empty".into()))?;
        if self.node(&name).is_some() {
            return Err(ApiError::already_exists(NODES, &name));
        }
        apiserver::defaults::set_defaults_node(&mut node);
        apiserver::validation::validate_node(&node, None)?;
        if taint_not_ready {
            let taints = node
                .spec
                .get_or_insert_with(Default::default)
                .taints
                .get_or_insert_with(Vec::new);
            let t = k8s_openapi::api::core::v1::Taint {
                key: controller::keys::taints::NOT_READY.to_string(),
                effect: "NoSchedule".to_string(),
                value: None,
                time_added: None,
            };
            if !taints
                .iter()
                .any(|x| x.key == t.key && x.effect == t.effect)
            {
                taints.push(t);
            }
        }
        self.finish_create(&mut node.metadata, name);
        Ok(self.put(None, node))
    }

    /// Update a node through `f` (name, uid and creation time cannot change).
    pub fn update_node(
        &mut self,
        name: &str,
        f: impl FnOnce(&mut Node),
    ) -> Result<Arc<Node>, ApiError> {
        let old = self
            .node(name)
            .ok_or_else(|| ApiError::not_found(NODES, name))?;
        let mut new = (*old).clone();
        f(&mut new);
        self.put_node_update(old, new)
    }

    /// The rest of [`Self::update_node`], not generic: one copy for all its callers.
    fn put_node_update(&mut self, old: Arc<Node>, mut new: Node) -> Result<Arc<Node>, ApiError> {
        new.metadata.name.clone_from(&old.metadata.name);
        new.metadata.namespace = None;
        new.metadata.uid.clone_from(&old.metadata.uid);
        new.metadata
            .creation_timestamp
            .clone_from(&old.metadata.creation_timestamp);
        new.metadata
            .resource_version
            .clone_from(&old.metadata.resource_version);
        apiserver::validation::validate_node(&new, Some(&old))?;
        Ok(self.put_changed(old, new))
    }

    pub fn delete_node(&mut self, name: &str) -> Result<(), ApiError> {
        self.remove::<Node>("", name)
            .map(|_| ())
            .ok_or_else(|| ApiError::not_found(NODES, name))
    }

    // ----- ControllerRevisions -----

    pub fn create_revision(
        &mut self,
        ns: &str,
        mut rev: ControllerRevision,
    ) -> Result<Arc<ControllerRevision>, ApiError> {
        rev.metadata.namespace = Some(ns.to_string());
        normalize_namespace(&mut rev.metadata);
        clear_server_fields(&mut rev.metadata);
        let name = self.name_for_create(&rev.metadata, REVISIONS, |o| &o.revisions)?;
        let ns = rev.metadata.namespace.clone().unwrap_or_default();
        if self.objects.revisions.contains_key(&(ns, name.clone())) {
            return Err(ApiError::already_exists(REVISIONS, &name));
        }
        self.finish_create(&mut rev.metadata, name);
        Ok(self.put(None, rev))
    }

    pub fn update_revision(
        &mut self,
        rev: &ControllerRevision,
    ) -> Result<Arc<ControllerRevision>, ApiError> {
        let mut rev = rev.clone();
        normalize_namespace(&mut rev.metadata);
        let (ns, name) = key_of(&rev.metadata);
        let old = lookup(&self.objects.revisions, &ns, &name)
            .ok_or_else(|| ApiError::not_found(REVISIONS, &name))?;
        if rev
            .metadata
            .resource_version
            .as_ref()
            .is_some_and(|v| Some(v) != old.metadata.resource_version.as_ref())
        {
            return Err(ApiError::conflict(REVISIONS, &name));
        }
        rev.metadata.uid.clone_from(&old.metadata.uid);
        rev.metadata
            .creation_timestamp
            .clone_from(&old.metadata.creation_timestamp);
        rev.metadata
            .resource_version
            .clone_from(&old.metadata.resource_version);
        Ok(self.put_changed(old, rev))
    }

    pub fn patch_revision(
        &mut self,
        ns: &str,
        name: &str,
        patch: &ObjectPatch,
    ) -> Result<(), ApiError> {
        let old = lookup(&self.objects.revisions, ns, name)
            .ok_or_else(|| ApiError::not_found(REVISIONS, name))?;
        let mut new = (*old).clone();
        apply_patch(&mut new.metadata, patch);
        self.put_changed(old, new);
        Ok(())
    }

    pub fn delete_revision(&mut self, ns: &str, name: &str) -> Result<(), ApiError> {
        self.remove::<ControllerRevision>(ns, name)
            .map(|_| ())
            .ok_or_else(|| ApiError::not_found(REVISIONS, name))
    }

    // ----- Events -----

    /// A kubelet's event about a pod's container (`involved` has its `fieldPath`): Normal
    /// (Pulled, Created, Started, Killing …) or Warning (BackOff, Unhealthy, Failed, Evicted …),
    /// source `kubelet` on `node`, as `kubectl get events -o wide` shows it.
    pub(crate) fn record_kubelet(
        &mut self,
        type_: &str,
        involved: ObjectReference,
        reason: &str,
        message: String,
        node: &str,
    ) {
        self.record_event(involved, type_, reason, message, Recorder::Kubelet(node));
    }

    /// Records a core/v1 Event as client-go's recorder does (`recordToSink`): correlate it
    /// (`EventCorrelate`: aggregated, counted, spam-filtered by `events_cache`), then patch the
    /// first occurrence or create it (`recordEvent`).
    pub(crate) fn record_event(
        &mut self,
        involved: ObjectReference,
        type_: &str,
        reason: &str,
        message: String,
        by: Recorder<'_>,
    ) {
        let (component, host, stream) = match by {
            Recorder::Controller(c) => (c, None, UidStream::Names),
            Recorder::LateController(c) => (c, None, UidStream::Events),
            Recorder::Kubelet(node) => ("kubelet", Some(node), UidStream::Events),
        };
        let draft = Draft {
            involved: &involved,
            type_,
            reason,
            message: &message,
            component,
            host: host.unwrap_or_default(),
        };
        // Event uids once came from the generator that also names pods, drawn (with two more
        // numbers) for each event that was not a repeat of an earlier one. They still are, so
        // that pod names stay what they were for scenario files and share links, whatever
        // correlation then makes of the event.
        let drawn_uid = match stream {
            UidStream::Names if self.names_drawn.insert(draft.event_key(), ()).is_none() => {
                let uid = self.new_uid();
                let _ = (self.rng.next_u32(), self.rng.next_u32());
                Some(uid)
            }
            _ => None,
        };
        // client-go's recorder names an event `<object>.<UnixNano in hex>`, so that `kubectl
        // get events` (sorted by name, as etcd lists) shows an object's events oldest first.
        // Virtual time gives many events the same instant: each takes the next nanosecond.
        let now = self.now;
        let mut last_nanos = self.last_event_nanos;
        let new_name = || {
            last_nanos = now.as_nanosecond().max(last_nanos + 1);
            last_nanos
        };
        let correlated = self.correlator.correlate(&draft, now, new_name);
        self.last_event_nanos = last_nanos;
        let Some(c) = correlated else {
            return;
        };
        fn borrowed(s: &Option<String>) -> &str {
            s.as_deref().unwrap_or_default()
        }
        let name = borrowed(&involved.name).to_string();
        self.record(vec![TraceKind::Event {
            type_: type_.to_string(),
            reason: reason.to_string(),
            message: c.message.clone(),
            involved_object: trace::InvolvedObject {
                kind: borrowed(&involved.kind).to_string(),
                namespace: borrowed(&involved.namespace).to_string(),
                name: name.clone(),
            },
        }]);
        self.resource_version += 1;
        let rv = self.resource_version.to_string();
        let now = Time(self.now);
        // A repeat is a patch of count, lastTimestamp and message; if the first occurrence
        // never reached the store (the spam filter dropped it), the patch finds nothing and
        // the recorder creates the event instead, under the name it remembers.
        if c.count > 1 {
            if let Some(slot) = c.slot.and_then(|i| self.events.get_mut(i)) {
                let mut e = (**slot).clone();
                e.count = Some(i32::try_from(c.count).unwrap_or(i32::MAX));
                e.last_timestamp = Some(now);
                e.message = Some(c.message);
                e.metadata.resource_version = Some(rv);
                *slot = Arc::new(as_stored(e));
                return;
            }
        }
        let uid = drawn_uid.unwrap_or_else(|| uid_from(&mut self.event_rng));
        let ns = involved
            .namespace
            .clone()
            .unwrap_or_else(|| DEFAULT_NAMESPACE.to_string());
        // An aggregate event is a fresh copy that leaves the reporting fields out.
        let reporting = |s: Option<&str>| s.filter(|_| !c.combined).map(str::to_string);
        let e = Event {
            metadata: ObjectMeta {
                name: Some(format!("{name}.{:x}", c.name_nanos)),
                namespace: Some(ns),
                uid: Some(uid),
                resource_version: Some(rv),
                creation_timestamp: Some(now.clone()),
                ..Default::default()
            },
            involved_object: involved,
            reason: Some(reason.to_string()),
            message: Some(c.message),
            type_: Some(type_.to_string()),
            source: Some(k8s_openapi::api::core::v1::EventSource {
                component: Some(component.to_string()),
                host: host.map(str::to_string),
            }),
            reporting_component: reporting(Some(component)),
            reporting_instance: reporting(host),
            first_timestamp: Some(Time(c.first_timestamp)),
            last_timestamp: Some(now),
            count: Some(i32::try_from(c.count).unwrap_or(i32::MAX)),
            ..Default::default()
        };
        self.correlator.created(c.key, self.events.len());
        self.events.push(Arc::new(as_stored(e)));
    }
}

/// Keeps the node → pods index in step with pod writes (a no-op for other kinds).
trait PodIndex<K> {
    fn reindex(&mut self, old: Option<&K>, new: Option<&K>);
}

impl PodIndex<Pod> for Store {
    fn reindex(&mut self, old: Option<&Pod>, new: Option<&Pod>) {
        self.index_pod(old, new);
    }
}

macro_rules! no_index {
    ($($t:ty),*) => {$(
        impl PodIndex<$t> for Store {
            fn reindex(&mut self, _: Option<&$t>, _: Option<&$t>) {}
        }
    )*};
}
no_index!(DaemonSet, ControllerRevision);

impl PodIndex<Node> for Store {
    /// Natively: keeps the count of nodes out of service and not Ready (pod GC), and draws
    /// the node table a new stamp (`nodes_stamp`).
    fn reindex(&mut self, old: Option<&Node>, new: Option<&Node>) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let counted =
                |n: Option<&Node>| n.is_some_and(crate::podgc::out_of_service_not_ready) as usize;
            self.out_of_service_not_ready =
                self.out_of_service_not_ready + counted(new) - counted(old);
            self.nodes_stamp = fresh_stamp();
        }
        #[cfg(target_arch = "wasm32")]
        let _ = (old, new);
    }
}

/// Natively: a number never drawn before in this process (`Store::nodes_stamp`); never 0.
#[cfg(not(target_arch = "wasm32"))]
fn fresh_stamp() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// An ObjectReference to a stored object.
pub(crate) fn reference(kind: &str, api_version: &str, meta: &ObjectMeta) -> ObjectReference {
    ObjectReference {
        kind: Some(kind.to_string()),
        api_version: Some(api_version.to_string()),
        namespace: meta.namespace.clone(),
        name: meta.name.clone(),
        uid: meta.uid.clone(),
        resource_version: meta.resource_version.clone(),
        ..Default::default()
    }
}
