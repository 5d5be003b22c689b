//! The Kubernetes DaemonSet controller, re-implemented as a sans-IO core.
//!
//! This crate mirrors `pkg/controller/daemon` of kube-controller-manager, file for file and
//! function for function, so that a Kubernetes engineer can read both side by side:
//!
//! | upstream | here |
//! |---|---|
//! | `daemon_controller.go` (handlers, `syncDaemonSet`, `manage`, `podsShouldBeOnNode`, `syncNodes`, status) | [`daemon_controller`] |
//! | `update.go` (`rollingUpdate`, history) | [`update`], [`history`] |
//! | `util/daemonset_util.go` | [`util`] |
//! | `controller_utils.go` (expectations, pod control, hash) | [`expectations`], [`history::compute_hash`] |
//! | `controller_ref_manager.go` | [`controller_ref`] |
//! | `pkg/api/v1/pod/util.go` | [`pod_util`] |
//! | client-go workqueue, flowcontrol backoff | [`queue`], [`backoff`] |
//!
//! Every function cites the rules of `docs/spec.md` it implements (R-*).
//!
//! Architecture invariants:
//! - The controller never reads a clock: `now` is an argument of every call that needs time.
//! - The controller does no IO. It sees the cluster through the informer caches and acts through
//!   API calls, both behind the [`client::Client`] trait that the driver (the virtual cluster, or a
//!   test harness) implements. Whether a write is visible in the caches at once or later is the
//!   driver's choice; that is how the same code replays upstream unit tests (synchronous fakes)
//!   and animates a cluster (watch delays).
//! - No generator of its own: where upstream's outcome depends on the order of a Go map, the
//!   order comes from the driver, one [`map_order::MapOrder`] per sync (a seed, or the listing
//!   order), and is a pure function of it (R-SIM-1).
//! - Nothing here knows about the UI, the simulator's event queue, or kubectl.
//! - Speed comes from caches that decide nothing, beside the upstream-shaped code:
//!   `daemon_controller/pod_map_cache.rs` (node views, pod maps, and natively the informer's
//!   change log) and, natively, `daemon_controller/node_digest.rs` (per-node digests, so that a
//!   sync costs what changed). `crates/sim/cluster/tests/caches.rs` proves them equal to the
//!   upstream-shaped passes, trace for trace.

pub mod backoff;
pub mod client;
pub mod controller_ref;
pub mod daemon_controller;
pub mod expectations;
pub mod history;
pub mod keys;
pub mod map_order;
mod pod_facts;
pub mod pod_util;
pub mod predicates;
pub mod queue;
pub mod selectors;
pub mod time;
pub mod update;
pub mod util;

pub use client::{ApiError, Client, EventSource, EventType, Listers, ObjectPatch, RecordedEvent};
pub use daemon_controller::{DaemonSetsController, SyncError};
pub use map_order::MapOrder;
pub use predicates::{node_should_run_daemon_pod, DaemonPodPredicate, NodeExplanation};
