//! The timing model (DESIGN §5): every latency of the virtual cluster as one overridable
//! parameter, in seconds, with defaults calibrated against `reference/field-measurements.md`.
//! Owns numbers only; knows nothing of the actors that use them.
//!
//! Calibration (kind cluster, busybox, readiness probe `initialDelaySeconds: 3`,
//! `periodSeconds: 1`, `terminationGracePeriodSeconds: 3`): one maxUnavailable=1 cycle is
//! ready → delete (watch + sync ≈ 0.05 s) → grace 3 s (busybox ignores SIGTERM) → pod removed
//! (0.05 s) → replacement created (watch + sync) → bound (watch + bind) → started (watch +
//! container start) → Ready after `initialDelaySeconds` plus a first-probe phase uniform in
//! `[0, periodSeconds)` → seen by the controller. That is ≈ 6.4 s + U(0, 1) s per node, so four
//! nodes take ≈ 27.5 s on average (measured: 27.2 s and 28.4 s); F-5 comes out at ≈ 14 s
//! (measured 13.9 s). Label, taint and untaint reactions take 0.05–0.1 s (measured ≈ 0.1 s).

use serde::{Deserialize, Serialize};

/// Latencies in seconds. Every field may be overridden by a scenario (`timing:`); absent
/// fields keep their defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Timing {
    /// Watch event → informer cache / other actors (each consumer, in order).
    pub watch_delay: f64,
    /// A ready key in the controller's work queue → its sync runs.
    pub controller_sync: f64,
    /// The scheduler sees an unbound pod → binding written.
    pub scheduler_bind: f64,
    /// The kubelet sees a bound pod → container running (image already present).
    pub container_start: f64,
    /// Container exited after deletion → pod object removed by the kubelet.
    pub pod_cleanup: f64,
    /// Whether containers exit on SIGTERM. busybox `sleep` does not (field measurements), so a
    /// deleted pod runs until its grace period ends.
    pub sigterm_honoured: bool,
    /// With `sigterm_honoured`: SIGTERM → exit.
    pub sigterm_exit: f64,
    /// First readiness probe after `initialDelaySeconds` plus `U(0, probe_phase) ×
    /// periodSeconds` (the kubelet's probe ticker is not aligned with container start).
    pub probe_phase: f64,
    /// Node registration → kubelet posts Ready (the `not-ready:NoSchedule` taint of R-ELG-7
    /// stays until then). Nodes added before the clock first moves count as already running
    /// and start Ready, untainted.
    pub node_ready_after_register: f64,
    /// Kubelet Lease renewal period (R-NLC-1).
    pub node_lease_period: f64,
    /// `--node-monitor-period` (R-NLC-1).
    pub node_monitor_period: f64,
    /// `--node-monitor-grace-period` (R-NLC-1; 50 s since v1.32).
    pub node_monitor_grace: f64,
    /// Pod GC loop period (R-GC-1).
    pub pod_gc_period: f64,
    /// Pod GC quarantine for pods on vanished nodes (R-GC-1).
    pub pod_gc_quarantine: f64,
    /// Relative jitter applied to the short latencies above (watch, sync, bind, start,
    /// cleanup): each draw is `base × (1 + U(−jitter, +jitter))`.
    pub jitter: f64,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            watch_delay: 0.03,
            controller_sync: 0.02,
            scheduler_bind: 0.03,
            container_start: 0.1,
            pod_cleanup: 0.05,
            sigterm_honoured: false,
            sigterm_exit: 0.1,
            probe_phase: 1.0,
            node_ready_after_register: 1.0,
            node_lease_period: 10.0,
            node_monitor_period: 5.0,
            node_monitor_grace: 50.0,
            pod_gc_period: 20.0,
            pod_gc_quarantine: 40.0,
            jitter: 0.2,
        }
    }
}

/// A non-negative, finite number of seconds (bad input becomes 0 instead of a panic).
pub(crate) fn sane(secs: f64) -> f64 {
    if secs.is_finite() && secs > 0.0 {
        secs.min(1.0e9)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_overrides_keep_defaults() {
        let t: Timing = serde_json::from_str(r#"{"watch_delay": 0.5}"#).unwrap();
        assert_eq!(t.watch_delay, 0.5);
        assert_eq!(t.node_monitor_grace, 50.0);
        assert!(serde_json::from_str::<Timing>(r#"{"watch_dely": 1}"#).is_err());
    }

    #[test]
    fn insane_numbers_become_zero() {
        assert_eq!(sane(f64::NAN), 0.0);
        assert_eq!(sane(-1.0), 0.0);
        assert_eq!(sane(f64::INFINITY), 0.0);
        assert_eq!(sane(2.5), 2.5);
    }
}
