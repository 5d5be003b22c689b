//! The API that kubectl talks to: what it may read and write. The errors the server returns
//! are `k8s_base::ApiError`, shared with the cluster and the controller.
//!
//! The virtual cluster implements [`Api`]; tests implement it with an in-memory fake. This module
//! knows nothing of how the objects are stored or how time advances.

use apiserver::Manifest;
pub use k8s_base::ApiError;
use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::{Event, Node, Pod};
use k8s_openapi::jiff::Timestamp;

/// The cluster as kubectl sees it. Reads return every object of a kind in every namespace;
/// kubectl filters by namespace, name and selector itself.
pub trait Api {
    /// The virtual clock (for AGE columns and `rollout restart`).
    fn now(&self) -> Timestamp;
    fn daemon_sets(&self) -> Vec<DaemonSet>;
    fn pods(&self) -> Vec<Pod>;
    fn nodes(&self) -> Vec<Node>;
    fn revisions(&self) -> Vec<ControllerRevision>;
    fn events(&self) -> Vec<Event>;
    /// The text of a file the scenario names (`kubectl apply -f NAME`).
    fn file(&self, name: &str) -> Option<String>;
    /// The node's Lease in `kube-node-lease` (the one its kubelet renews), if any.
    fn node_lease(&self, _node: &str) -> Option<Lease> {
        None
    }

    /// Creates one object (server-side defaults, validation and strategy included);
    /// `AlreadyExists` when it exists. `kubectl apply` updates through the `update_*` methods.
    fn create(&mut self, manifest: Manifest) -> Result<(), ApiError>;
    /// Replaces a DaemonSet (spec and metadata; status is the controller's).
    fn update_daemon_set(&mut self, ds: DaemonSet) -> Result<DaemonSet, ApiError>;
    /// Replaces a Node's spec and metadata (labels, taints, unschedulable).
    fn update_node(&mut self, node: Node) -> Result<Node, ApiError>;
    /// Replaces a Pod's metadata (labels, annotations).
    fn update_pod(&mut self, pod: Pod) -> Result<Pod, ApiError>;
    fn delete_daemon_set(
        &mut self,
        namespace: &str,
        name: &str,
        cascade: Cascade,
    ) -> Result<(), ApiError>;
    /// Deletes a pod gracefully (it goes Terminating for its grace period).
    fn delete_pod(&mut self, namespace: &str, name: &str) -> Result<(), ApiError>;
    /// The Eviction subresource, used by `kubectl drain`. Defaults to a graceful delete.
    fn evict_pod(&mut self, namespace: &str, name: &str) -> Result<(), ApiError> {
        self.delete_pod(namespace, name)
    }
    fn delete_node(&mut self, name: &str) -> Result<(), ApiError>;
}

/// `--cascade` (R-DEL-1/2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cascade {
    Background,
    Foreground,
    Orphan,
}
