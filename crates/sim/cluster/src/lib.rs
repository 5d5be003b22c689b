//! The virtual cluster of the DaemonSet Playground: a deterministic discrete-event simulation
//! of everything around the DaemonSet controller that a user sees.
//!
//! | module | owns |
//! |---|---|
//! | [`store`] | objects with API-server semantics (defaults, validation, strategy, resourceVersion, graceful deletion, propagation), watch events |
//! | [`informer`] | the controller's lagged cache, in-order watch delivery, the controller's `Client` |
//! | `scheduler` | binding pods to nodes when they fit (resources, ports, taints) |
//! | `kubelet` | container start, readiness probes, termination, node status |
//! | `node_lifecycle` | Leases, NotReady/Unknown conditions and their taints (R-NLC-*) |
//! | `taint_eviction` | NoExecute evictions (R-TE-*) |
//! | `events_cache` | client-go's event correlation: aggregation, counting, the spam filter |
//! | `podgc` | pods on vanished nodes (R-GC-1) |
//! | `garbage_collector` | dependents of deleted DaemonSets (R-DEL-*) |
//! | [`timing`] | the calibrated latencies |
//! | [`trace`] | the record of every change (DESIGN §4.2) |
//! | [`cluster`] | the façade: verbs, the virtual clock, the event loop |
//!
//! Architecture invariants:
//! - No wall clock, no threads, no IO, no unseeded randomness: time is a virtual
//!   `jiff::Timestamp` starting at 2026-01-01T00:00:00Z and moves only when the cluster is
//!   stepped; every jitter and generated name comes from a PCG32 seeded by the run's seed. The
//!   same scenario and seed give the same trace, byte for byte. Builds for
//!   `wasm32-unknown-unknown`.
//! - The controller is the `controller` crate's sans-IO core; this crate only feeds it watch
//!   events, runs its worker and applies its API calls. It never decides anything for it.
//! - Actors react to watch events after their own latency and re-read the store when they act
//!   (level-triggered), so late or repeated events are harmless.
//! - Nothing here knows about kubectl output or the UI. No input panics.

pub mod cluster;
mod engine;
mod events_cache;
mod garbage_collector;
pub mod images;
pub mod informer;
mod kubelet;
mod node_lifecycle;
mod podgc;
mod process;
pub mod rng;
mod scheduler;
pub mod store;
mod taint_eviction;
pub mod timing;
pub mod trace;

pub use apiserver::strategy::PropagationPolicy as Propagation;
pub use cluster::{Actor, Cluster, Object, StepReport, EPOCH_SECONDS};
pub use k8s_base::ApiError;
pub use k8s_base::ApplyOutcome;
pub use node_lifecycle::ZoneState;
pub use store::{EventLog, Objects};
pub use timing::Timing;
pub use trace::{to_json_lines, ObjectEvent, PodEvent, TraceEntry, TraceKind};
