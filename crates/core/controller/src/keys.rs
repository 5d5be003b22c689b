//! Well-known label keys, annotation keys and constants (R-K-1 … R-K-6).

use std::time::Duration;

/// R-K-1: label on pods and ControllerRevisions carrying the revision hash.
pub const CONTROLLER_REVISION_HASH_LABEL: &str = "controller-revision-hash";
/// R-K-2: label on pods carrying the template generation (only when the DS has R-K-3).
pub const POD_TEMPLATE_GENERATION_LABEL: &str = "pod-template-generation";
/// R-K-3: annotation the apiserver maintains on the DaemonSet.
pub const TEMPLATE_GENERATION_ANNOTATION: &str = "deprecated.daemonset.template.generation";

/// R-K-5: max creates, and separately max deletes, issued by one `syncNodes` call.
pub const BURST_REPLICAS: usize = 250;
/// R-K-5: first slow-start batch size.
pub const SLOW_START_INITIAL_BATCH_SIZE: usize = 1;
/// R-K-5: expectations older than this count as satisfied.
pub const EXPECTATIONS_TIMEOUT: Duration = Duration::from_secs(5 * 60);
/// R-K-5: one retry after a failed status write.
pub const STATUS_UPDATE_RETRIES: usize = 1;
/// R-K-5: failed-pod backoff as wired in kube-controller-manager.
pub const FAILED_POD_BACKOFF_INITIAL: Duration = Duration::from_secs(1);
/// R-K-5: failed-pod backoff cap.
pub const FAILED_POD_BACKOFF_MAX: Duration = Duration::from_secs(15 * 60);

/// The field key used by the injected node affinity (R-POD-1).
pub const OBJECT_NAME_FIELD: &str = "metadata.name";

/// Event reasons (R-K-6).
pub mod reasons {
    pub const SELECTING_ALL: &str = "SelectingAll";
    pub const FAILED_DAEMON_POD: &str = "FailedDaemonPod";
    pub const SUCCEEDED_DAEMON_POD: &str = "SucceededDaemonPod";
    pub const SUCCESSFUL_CREATE: &str = "SuccessfulCreate";
    pub const FAILED_CREATE: &str = "FailedCreate";
    pub const SUCCESSFUL_DELETE: &str = "SuccessfulDelete";
    pub const FAILED_DELETE: &str = "FailedDelete";
}

/// Taint keys the node lifecycle controller and admission use (R-TOL-1, R-NLC-2).
pub mod taints {
    pub const NOT_READY: &str = "node.kubernetes.io/not-ready";
    pub const UNREACHABLE: &str = "node.kubernetes.io/unreachable";
    pub const DISK_PRESSURE: &str = "node.kubernetes.io/disk-pressure";
    pub const MEMORY_PRESSURE: &str = "node.kubernetes.io/memory-pressure";
    pub const PID_PRESSURE: &str = "node.kubernetes.io/pid-pressure";
    pub const UNSCHEDULABLE: &str = "node.kubernetes.io/unschedulable";
    pub const NETWORK_UNAVAILABLE: &str = "node.kubernetes.io/network-unavailable";
}

/// Kind and group/version of the owner references the controller writes (R-CLM-4).
pub const CONTROLLER_KIND: &str = "DaemonSet";
pub const CONTROLLER_API_VERSION: &str = "apps/v1";
