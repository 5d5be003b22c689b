//! The controller's side of the API server: its informer cache, a lagged copy of the store fed
//! by watch events delivered in order after `watch_delay` (± jitter), which calls the
//! controller's event handlers; and [`ControllerClient`], the [`Client`] the controller syncs
//! against: reads from the cache, writes to the store (observed later, like a real cluster).
//!
//! Owns delivery order and the cache. Knows nothing of the other actors; the cluster decides
//! when the controller's worker runs.

use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
use k8s_openapi::api::core::v1::{Node, Pod};
use k8s_openapi::jiff::Timestamp;
use std::collections::VecDeque;
use std::sync::Arc;

use controller::client::{ApiError, Client, EventType, Listers, ObjectPatch, RecordedEvent};
use controller::{DaemonSetsController, MapOrder};

use crate::engine::{plus, Ev, Sched};
use crate::store::{reference, Obj, Objects, Recorder, Store, WatchEvent, WatchKind};

/// The shared informer factory of kube-controller-manager, as far as the DaemonSet controller
/// uses it: DaemonSets, Pods, Nodes and ControllerRevisions.
#[derive(Debug, Clone)]
pub struct Informer {
    cache: Objects,
    pending: VecDeque<WatchEvent>,
    last_delivery: Timestamp,
}

impl Informer {
    pub(crate) fn new(start: Timestamp) -> Self {
        Informer {
            cache: Objects::default(),
            pending: VecDeque::new(),
            last_delivery: start,
        }
    }

    /// What the controller currently sees.
    pub fn cache(&self) -> &Objects {
        &self.cache
    }

    /// Watch events written but not delivered yet.
    pub fn in_flight(&self) -> usize {
        self.pending.len()
    }

    /// Queues a watch event for delivery after the (jittered) watch delay, never before an
    /// earlier event.
    pub(crate) fn push(&mut self, ev: &WatchEvent, s: &mut Sched) {
        let d = s.jittered(s.timing.watch_delay);
        let at = plus(s.now, d).max(self.last_delivery);
        self.last_delivery = at;
        self.pending.push_back(ev.clone());
        s.at(at, Ev::InformerDeliver);
    }

    /// Delivers the oldest pending event: update the cache, then call the handler
    /// (client-go updates the indexer before notifying). Returns a one-line description.
    pub(crate) fn deliver(&mut self, ctl: &mut DaemonSetsController, now: Timestamp) -> String {
        let Some(ev) = self.pending.pop_front() else {
            return String::new();
        };
        // The handler's `old` is the cached object, as in client-go.
        let cached_old = cached(&self.cache, &ev.obj);
        self.cache.apply(&ev);
        let c = &self.cache;
        match (&ev.kind, &ev.obj, cached_old) {
            (WatchKind::Added, Obj::DaemonSet(o), _) => ctl.on_daemon_set_add(o),
            (WatchKind::Modified, Obj::DaemonSet(o), Some(Obj::DaemonSet(old))) => {
                ctl.on_daemon_set_update(&old, o)
            }
            (WatchKind::Modified, Obj::DaemonSet(o), _) => ctl.on_daemon_set_add(o),
            (WatchKind::Deleted, Obj::DaemonSet(o), _) => ctl.on_daemon_set_delete(o),
            (WatchKind::Added, Obj::Pod(o), _) => ctl.on_pod_add(c, o),
            (WatchKind::Modified, Obj::Pod(o), Some(Obj::Pod(old))) => {
                ctl.on_pod_update(c, &old, o, now)
            }
            (WatchKind::Modified, Obj::Pod(o), _) => ctl.on_pod_add(c, o),
            (WatchKind::Deleted, Obj::Pod(o), _) => ctl.on_pod_delete(c, o),
            (WatchKind::Added, Obj::Node(o), _) => ctl.on_node_add(c, o),
            (WatchKind::Modified, Obj::Node(o), Some(Obj::Node(old))) => {
                ctl.on_node_update(c, &old, o)
            }
            (WatchKind::Modified, Obj::Node(o), _) => ctl.on_node_add(c, o),
            // R-EVT-9: no node delete handler.
            (WatchKind::Deleted, Obj::Node(_), _) => {}
            (WatchKind::Added, Obj::Revision(o), _) => ctl.on_revision_add(c, o),
            (WatchKind::Modified, Obj::Revision(o), Some(Obj::Revision(old))) => {
                ctl.on_revision_update(c, &old, o)
            }
            (WatchKind::Modified, Obj::Revision(o), _) => ctl.on_revision_add(c, o),
            (WatchKind::Deleted, Obj::Revision(o), _) => ctl.on_revision_delete(c, o),
        }
        describe(&ev)
    }
}

fn cached(cache: &Objects, obj: &Obj) -> Option<Obj> {
    fn key(m: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) -> (&str, &str) {
        (
            m.namespace.as_deref().unwrap_or(""),
            m.name.as_deref().unwrap_or(""),
        )
    }
    match obj {
        Obj::DaemonSet(o) => {
            let (ns, n) = key(&o.metadata);
            cache.daemon_set(ns, n).map(Obj::DaemonSet)
        }
        Obj::Pod(o) => {
            let (ns, n) = key(&o.metadata);
            cache.pod(ns, n).map(Obj::Pod)
        }
        Obj::Node(o) => cache.node(key(&o.metadata).1).map(Obj::Node),
        Obj::Revision(o) => {
            let (ns, n) = key(&o.metadata);
            cache
                .revisions
                .get(&(ns.to_string(), n.to_string()))
                .cloned()
                .map(Obj::Revision)
        }
    }
}

fn describe(ev: &WatchEvent) -> String {
    let (kind, meta) = match &ev.obj {
        Obj::DaemonSet(o) => ("DaemonSet", &o.metadata),
        Obj::Pod(o) => ("Pod", &o.metadata),
        Obj::Node(o) => ("Node", &o.metadata),
        Obj::Revision(o) => ("ControllerRevision", &o.metadata),
    };
    format!(
        "{:?} {kind} {}",
        ev.kind,
        meta.name.as_deref().unwrap_or("")
    )
}

/// The controller's view and hands: the informer cache for reads, the store for writes.
pub(crate) struct ControllerClient<'a> {
    pub cache: &'a Objects,
    pub store: &'a mut Store,
    /// This sync's Go-map order, drawn by the cluster from its seeded generator.
    pub map_order: MapOrder,
}

impl Listers for ControllerClient<'_> {
    fn daemon_set(&self, namespace: &str, name: &str) -> Option<Arc<DaemonSet>> {
        self.cache.daemon_set(namespace, name)
    }
    fn daemon_sets(&self, namespace: &str) -> Vec<Arc<DaemonSet>> {
        self.cache.daemon_sets(namespace)
    }
    fn all_daemon_sets(&self) -> Vec<Arc<DaemonSet>> {
        self.cache.all_daemon_sets()
    }
    fn nodes(&self) -> Vec<Arc<Node>> {
        self.cache.nodes()
    }
    fn node(&self, name: &str) -> Option<Arc<Node>> {
        self.cache.node(name)
    }
    fn pods(&self, namespace: &str) -> Vec<Arc<Pod>> {
        self.cache.pods(namespace)
    }
    fn pod(&self, namespace: &str, name: &str) -> Option<Arc<Pod>> {
        self.cache.pod(namespace, name)
    }
    fn revisions(&self, namespace: &str) -> Vec<Arc<ControllerRevision>> {
        self.cache.revisions(namespace)
    }
    /// The cache changes its nodes only by applying node watch events.
    fn nodes_version(&self) -> Option<u64> {
        Some(self.cache.node_events)
    }
    /// The cache changes its pods only by applying pod watch events.
    fn pods_version(&self) -> Option<u64> {
        Some(self.cache.pod_events)
    }
    #[cfg(not(target_arch = "wasm32"))]
    fn pods_changed_since(&self, namespace: &str, since: u64) -> Option<Vec<String>> {
        self.cache.pods_changed_since(namespace, since)
    }
}

impl Client for ControllerClient<'_> {
    fn map_order(&mut self) -> MapOrder {
        self.map_order
    }

    fn get_daemon_set(&mut self, namespace: &str, name: &str) -> Result<DaemonSet, ApiError> {
        self.store
            .daemon_set(namespace, name)
            .map(|d| (*d).clone())
            .ok_or_else(|| ApiError::not_found(crate::store::DAEMON_SETS, name))
    }

    fn update_daemon_set_status(&mut self, ds: &DaemonSet) -> Result<DaemonSet, ApiError> {
        Ok((*self.store.update_daemon_set_status(ds)?).clone())
    }

    fn create_pod(&mut self, namespace: &str, pod: Pod) -> Result<Pod, ApiError> {
        Ok((*self.store.create_pod(namespace, pod)?).clone())
    }

    fn delete_pod(&mut self, namespace: &str, name: &str) -> Result<(), ApiError> {
        self.store.delete_pod(namespace, name, None)
    }

    fn patch_pod(
        &mut self,
        namespace: &str,
        name: &str,
        patch: &ObjectPatch,
    ) -> Result<(), ApiError> {
        self.store.patch_pod(namespace, name, patch)
    }

    fn create_revision(
        &mut self,
        namespace: &str,
        revision: ControllerRevision,
    ) -> Result<ControllerRevision, ApiError> {
        Ok((*self.store.create_revision(namespace, revision)?).clone())
    }

    fn get_revision(
        &mut self,
        namespace: &str,
        name: &str,
    ) -> Result<ControllerRevision, ApiError> {
        self.store
            .objects()
            .revisions
            .get(&(namespace.to_string(), name.to_string()))
            .map(|r| (**r).clone())
            .ok_or_else(|| ApiError::not_found(crate::store::REVISIONS, name))
    }

    fn update_revision(
        &mut self,
        revision: &ControllerRevision,
    ) -> Result<ControllerRevision, ApiError> {
        Ok((*self.store.update_revision(revision)?).clone())
    }

    fn patch_revision(
        &mut self,
        namespace: &str,
        name: &str,
        patch: &ObjectPatch,
    ) -> Result<(), ApiError> {
        self.store.patch_revision(namespace, name, patch)
    }

    fn delete_revision(&mut self, namespace: &str, name: &str) -> Result<(), ApiError> {
        self.store.delete_revision(namespace, name)
    }

    /// The cache is borrowed immutably for the whole sync and changes only when the informer
    /// delivers watch events, between syncs.
    fn caches_see_own_writes(&self) -> bool {
        false
    }

    fn record_event(&mut self, event: RecordedEvent) {
        let involved = match self.store.daemon_set(&event.namespace, &event.daemon_set) {
            Some(ds) => reference("DaemonSet", "apps/v1", &ds.metadata),
            None => k8s_openapi::api::core::v1::ObjectReference {
                kind: Some("DaemonSet".into()),
                api_version: Some("apps/v1".into()),
                namespace: Some(event.namespace.clone()),
                name: Some(event.daemon_set.clone()),
                ..Default::default()
            },
        };
        let type_ = match event.type_ {
            EventType::Normal => "Normal",
            EventType::Warning => "Warning",
        };
        self.store.record_event(
            involved,
            type_,
            event.reason,
            event.message,
            Recorder::Controller("daemonset-controller"),
        );
    }
}
