//! The API that kubectl talks to: what it may read and write, and the errors the server returns.
//!
//! The virtual cluster implements [`Api`]; tests implement it with an in-memory fake. This module
//! knows nothing of how the objects are stored or how time advances.

use apiserver::{Invalid, Manifest};
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

/// An error the API server returned, printed as kubectl prints it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// `Error from server (NotFound): daemonsets.apps "x" not found`
    #[error("Error from server (NotFound): {resource} \"{name}\" not found")]
    NotFound { resource: String, name: String },
    /// `Error from server (AlreadyExists): daemonsets.apps "x" already exists`
    #[error("Error from server (AlreadyExists): {resource} \"{name}\" already exists")]
    AlreadyExists { resource: String, name: String },
    /// `The DaemonSet "x" is invalid: …`
    #[error("{0}")]
    Invalid(Invalid),
    /// `Error from server (Conflict): …`
    #[error("Error from server (Conflict): {0}")]
    Conflict(String),
    /// `Error from server (BadRequest): …`
    #[error("Error from server (BadRequest): {0}")]
    BadRequest(String),
    /// `Error from server (Forbidden): …`
    #[error("Error from server (Forbidden): {0}")]
    Forbidden(String),
    /// Any other message, printed as is.
    #[error("{0}")]
    Other(String),
}

impl ApiError {
    /// `NotFound` for a resource (`daemonsets.apps`, `pods`, `nodes`).
    pub fn not_found(resource: &str, name: &str) -> ApiError {
        ApiError::NotFound {
            resource: resource.to_string(),
            name: name.to_string(),
        }
    }

    /// The message with kubectl's `error when creating "ds.yaml": ` context inserted after the
    /// `Error from server (Reason): ` prefix.
    pub(crate) fn in_context(&self, context: &str) -> String {
        let text = self.to_string();
        match self {
            ApiError::Invalid(_) | ApiError::Other(_) => text,
            _ => match text.split_once("): ") {
                Some((head, tail)) => format!("{head}): {context}: {tail}"),
                None => text,
            },
        }
    }

    /// How to fix it, when the server's message alone leaves a learner stuck.
    pub(crate) fn hint(&self) -> Option<String> {
        match self {
            ApiError::Invalid(i) => i.hint(),
            ApiError::NotFound { resource, .. } => {
                let plural = resource.split('.').next().unwrap_or(resource);
                Some(if plural == "nodes" {
                    "list what exists with `kubectl get nodes`".to_string()
                } else {
                    format!(
                        "list what exists with `kubectl get {plural}` (add -A for all namespaces)"
                    )
                })
            }
            ApiError::AlreadyExists { .. } => {
                Some("use `kubectl apply -f` to update an object that already exists".into())
            }
            _ => None,
        }
    }
}
