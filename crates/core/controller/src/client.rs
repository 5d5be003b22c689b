//! What the controller sees (informer caches, [`Listers`]) and what it may do (API calls,
//! [`Client`]). The driver implements both: the virtual cluster with watch delays, the unit-test
//! harness with synchronous fakes (R-SIM-2).

use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
use k8s_openapi::api::core::v1::{Node, Pod};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use std::sync::Arc;

use crate::map_order::MapOrder;

/// An error from an API call: `k8s_base::ApiError`, the one the cluster returns and kubectl
/// prints. The controller quotes it by [`ApiError::message`], the status message alone.
pub use k8s_base::ApiError;

/// Normal or Warning, as on a core/v1 Event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventType {
    Normal,
    Warning,
}

impl EventType {
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::Normal => "Normal",
            EventType::Warning => "Warning",
        }
    }
}

/// Which recorder emitted an event: the controller's own, or the pod control's (R-SIM-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventSource {
    Controller,
    PodControl,
}

/// An event the controller emits on a DaemonSet (R-K-6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedEvent {
    pub namespace: String,
    /// The DaemonSet the event is about.
    pub daemon_set: String,
    pub type_: EventType,
    pub reason: &'static str,
    pub message: String,
    pub source: EventSource,
}

/// The patches the controller sends to pods and revisions.
#[derive(Debug, Clone, PartialEq)]
pub enum ObjectPatch {
    /// R-CLM-4: add this controller reference (adoption).
    AdoptBy(OwnerReference),
    /// R-CLM-3: remove the owner reference with this UID (release).
    ReleaseFrom { uid: String },
    /// R-HIS-6: set one label (dedup relabels pods with the kept revision's hash).
    SetLabel { key: String, value: String },
}

/// Read access to the informer caches (listers). Objects are shared, never copied.
pub trait Listers {
    fn daemon_set(&self, namespace: &str, name: &str) -> Option<Arc<DaemonSet>>;
    fn daemon_sets(&self, namespace: &str) -> Vec<Arc<DaemonSet>>;
    fn all_daemon_sets(&self) -> Vec<Arc<DaemonSet>>;
    fn nodes(&self) -> Vec<Arc<Node>>;
    fn node(&self, name: &str) -> Option<Arc<Node>>;
    fn pods(&self, namespace: &str) -> Vec<Arc<Pod>>;
    fn pod(&self, namespace: &str, name: &str) -> Option<Arc<Pod>>;
    fn revisions(&self, namespace: &str) -> Vec<Arc<ControllerRevision>>;
    /// A number that changes whenever a node is added, changed or removed in the cache
    /// (`None`: the lister cannot tell). Equal numbers mean `nodes()` would list the same
    /// objects, so a sync can skip listing them.
    fn nodes_version(&self) -> Option<u64> {
        None
    }
    /// The same for pods: a number that changes whenever a pod is added, changed or removed
    /// in the cache (`None`: unknown). Equal numbers mean `pods(ns)` would list the same
    /// objects.
    fn pods_version(&self) -> Option<u64> {
        None
    }
    /// Native builds: the names of the pods of `namespace` added, changed or removed in the
    /// cache since `pods_version` was `since` (`None`: the lister cannot tell, or its log
    /// does not reach back that far). The controller then brings a listing it keeps up to date
    /// instead of listing again.
    #[cfg(not(target_arch = "wasm32"))]
    fn pods_changed_since(&self, namespace: &str, since: u64) -> Option<Vec<String>> {
        let _ = (namespace, since);
        None
    }
}

/// The API calls the controller makes, plus its event recorder.
pub trait Client: Listers {
    /// Live (uncached) GET of a DaemonSet.
    fn get_daemon_set(&mut self, namespace: &str, name: &str) -> Result<DaemonSet, ApiError>;
    /// UpdateStatus; returns the stored object.
    fn update_daemon_set_status(&mut self, ds: &DaemonSet) -> Result<DaemonSet, ApiError>;
    /// Create a pod from the object the controller built (it uses `generateName`).
    fn create_pod(&mut self, namespace: &str, pod: Pod) -> Result<Pod, ApiError>;
    fn delete_pod(&mut self, namespace: &str, name: &str) -> Result<(), ApiError>;
    fn patch_pod(
        &mut self,
        namespace: &str,
        name: &str,
        patch: &ObjectPatch,
    ) -> Result<(), ApiError>;
    fn create_revision(
        &mut self,
        namespace: &str,
        revision: ControllerRevision,
    ) -> Result<ControllerRevision, ApiError>;
    fn get_revision(&mut self, namespace: &str, name: &str)
        -> Result<ControllerRevision, ApiError>;
    fn update_revision(
        &mut self,
        revision: &ControllerRevision,
    ) -> Result<ControllerRevision, ApiError>;
    fn patch_revision(
        &mut self,
        namespace: &str,
        name: &str,
        patch: &ObjectPatch,
    ) -> Result<(), ApiError>;
    fn delete_revision(&mut self, namespace: &str, name: &str) -> Result<(), ApiError>;
    fn record_event(&mut self, event: RecordedEvent);
    /// True when the pod control observes its own creates/deletes in the expectations at once,
    /// as upstream's unit-test fake does (R-SIM-2). A real cluster observes them through watch
    /// events, later.
    fn observes_synchronously(&self) -> bool {
        false
    }
    /// The order of this sync's Go-map iterations (R-SIM-1), asked once per sync. A real
    /// cluster's is random; a driver that draws the seed from its own seeded generator replays
    /// a run. The default, the listing order, is what upstream's unit cases are replayed with.
    fn map_order(&mut self) -> MapOrder {
        MapOrder::Listed
    }
    /// Whether the controller's own writes can show up in the [`Listers`] during the sync that
    /// issued them. True (the safe answer) for upstream's unit-test fakes; a driver whose caches
    /// are a snapshot that only watch events change, between syncs, answers false, which lets
    /// the controller reuse what it derived from the caches across its own writes.
    fn caches_see_own_writes(&self) -> bool {
        true
    }
}
