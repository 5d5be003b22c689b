//! The timing model (DESIGN §5): every latency of the virtual cluster as one overridable
//! parameter, in seconds, with defaults calibrated against `reference/field-measurements.md`,
//! and the node lifecycle controller's eviction rates and zone thresholds (its command-line
//! flags, with their defaults). Owns numbers only; knows nothing of the actors that use them.
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
use serde_json::Value;

/// Declares [`Timing`] from one list of fields (docs, type, default), so that its serde form,
/// its [`Default`] and the field access the web app uses ([`Timing::FIELDS`],
/// [`Timing::field`], [`Timing::set_field`]: no serde instances in the page) cannot disagree.
macro_rules! timing {
    ($($(#[doc = $doc:literal])* $name:ident: $ty:ident = $default:expr,)*) => {
        /// Latencies in seconds, and the node lifecycle controller's rates and thresholds. Every
        /// field may be overridden by a scenario (`timing:`); absent fields keep their defaults.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct Timing {
            $($(#[doc = $doc])* pub $name: $ty,)*
        }

        impl Default for Timing {
            fn default() -> Self {
                Timing { $($name: $default,)* }
            }
        }

        impl Timing {
            /// The fields' names, in declaration order (the order of the serde form).
            pub const FIELDS: &'static [&'static str] = &[$(stringify!($name)),*];

            /// Field `name` as JSON, as serde writes it; `None` when there is no such field.
            pub fn field(&self, name: &str) -> Option<Value> {
                match name {
                    $(stringify!($name) => Some(FieldValue::to_json(self.$name)),)*
                    _ => None,
                }
            }

            /// Sets field `name` from JSON as serde reads it: seconds from any number, a flag
            /// from `true`/`false`.
            pub fn set_field(&mut self, name: &str, value: &Value) -> Result<(), FieldError> {
                match name {
                    $(stringify!($name) => {
                        self.$name = FieldValue::from_json(value).ok_or(FieldError::WrongType {
                            want: <$ty as FieldValue>::WANT,
                        })?;
                        Ok(())
                    })*
                    _ => Err(FieldError::Unknown),
                }
            }
        }
    };
}

timing! {
    /// Watch event → informer cache / other actors (each consumer, in order).
    watch_delay: f64 = 0.03,
    /// A ready key in the controller's work queue → its sync runs.
    controller_sync: f64 = 0.02,
    /// The scheduler sees an unbound pod → binding written.
    scheduler_bind: f64 = 0.03,
    /// The kubelet sees a bound pod → container running (image already present).
    container_start: f64 = 0.1,
    /// A container exits → the kubelet's PLEG relist notices and its pod worker syncs the pod
    /// (`plegRelistPeriod`, 1 s).
    pleg_relist: f64 = 1.0,
    /// Container exited after deletion → pod object removed by the kubelet.
    pod_cleanup: f64 = 0.05,
    /// Whether containers exit on SIGTERM. busybox `sleep` does not (field measurements), so a
    /// deleted pod runs until its grace period ends.
    sigterm_honoured: bool = false,
    /// With `sigterm_honoured`: SIGTERM → exit.
    sigterm_exit: f64 = 0.1,
    /// First readiness probe after `initialDelaySeconds` plus `U(0, probe_phase) ×
    /// periodSeconds` (the kubelet's probe ticker is not aligned with container start).
    probe_phase: f64 = 1.0,
    /// Node registration → kubelet posts Ready (the `not-ready:NoSchedule` taint of R-ELG-7
    /// stays until then). Nodes added before the clock first moves count as already running
    /// and start Ready, untainted.
    node_ready_after_register: f64 = 1.0,
    /// Kubelet Lease renewal period (R-NLC-1).
    node_lease_period: f64 = 10.0,
    /// `--node-monitor-period` (R-NLC-1).
    node_monitor_period: f64 = 5.0,
    /// `--node-monitor-grace-period` (R-NLC-1; 50 s since v1.32).
    node_monitor_grace: f64 = 50.0,
    /// Pod GC loop period (R-GC-1).
    pod_gc_period: f64 = 20.0,
    /// Pod GC quarantine for pods on vanished nodes (R-GC-1).
    pod_gc_quarantine: f64 = 40.0,
    /// `--node-eviction-rate`: NoExecute-tainted nodes per second in each zone that is not
    /// partially disrupted (R-NLC-3).
    node_eviction_rate: Number = Number(0.1),
    /// `--secondary-node-eviction-rate`: the same in a partially disrupted zone of more than
    /// `large_cluster_size_threshold` nodes (a smaller one gets none).
    secondary_node_eviction_rate: Number = Number(0.01),
    /// `--large-cluster-size-threshold`, in nodes.
    large_cluster_size_threshold: u32 = 50,
    /// `--unhealthy-zone-threshold`: the share of a zone's nodes (more than two of them) not
    /// Ready from which the zone is partially disrupted.
    unhealthy_zone_threshold: Number = Number(0.55),
    /// Relative jitter applied to the short latencies above (watch, sync, bind, start,
    /// cleanup): each draw is `base × (1 + U(−jitter, +jitter))`.
    jitter: f64 = 0.2,
}

/// Why [`Timing::set_field`] refused a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldError {
    /// No field of that name.
    Unknown,
    /// The value is not of the field's type; `want` says what is (`a number of seconds`).
    WrongType { want: &'static str },
}

/// A timing field that is not a number of seconds (a rate, a share): any number, as `f64`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Number(pub f64);

/// The types of timing fields, read and written as serde_json does.
trait FieldValue: Sized {
    const WANT: &'static str;
    fn to_json(self) -> Value;
    fn from_json(v: &Value) -> Option<Self>;
}

impl FieldValue for f64 {
    const WANT: &'static str = "a number of seconds";
    fn to_json(self) -> Value {
        serde_json::Number::from_f64(self).map_or(Value::Null, Value::Number)
    }
    fn from_json(v: &Value) -> Option<Self> {
        v.as_f64()
    }
}

impl FieldValue for Number {
    const WANT: &'static str = "a number";
    fn to_json(self) -> Value {
        self.0.to_json()
    }
    fn from_json(v: &Value) -> Option<Self> {
        v.as_f64().map(Number)
    }
}

impl FieldValue for u32 {
    const WANT: &'static str = "a whole number";
    fn to_json(self) -> Value {
        Value::from(self)
    }
    fn from_json(v: &Value) -> Option<Self> {
        v.as_u64().and_then(|n| u32::try_from(n).ok())
    }
}

impl FieldValue for bool {
    const WANT: &'static str = "true or false";
    fn to_json(self) -> Value {
        Value::Bool(self)
    }
    fn from_json(v: &Value) -> Option<Self> {
        v.as_bool()
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

    /// The field access the web app uses is the serde form, field for field: the names in
    /// order, the values, and what each field accepts.
    #[test]
    fn field_access_agrees_with_serde() {
        let t = Timing {
            watch_delay: 0.25,
            sigterm_honoured: true,
            ..Timing::default()
        };
        let serde_form = serde_json::to_value(&t).unwrap();
        let map = serde_form.as_object().unwrap();
        let names: Vec<&str> = map.keys().map(String::as_str).collect();
        let mut ours = Timing::FIELDS.to_vec();
        ours.sort_unstable();
        assert_eq!(names, ours, "serde_json's map is sorted by key");
        assert_eq!(Timing::FIELDS.len(), map.len());
        for name in Timing::FIELDS {
            assert_eq!(t.field(name).as_ref(), map.get(*name), "{name}");
        }
        assert_eq!(t.field("watch_dely"), None);
        let samples = [
            serde_json::json!(2),
            serde_json::json!(5_000_000_000u64),
            serde_json::json!(-3),
            serde_json::json!(0.5),
            serde_json::json!(true),
            serde_json::json!("1s"),
            serde_json::json!(null),
            serde_json::json!([1]),
        ];
        for name in Timing::FIELDS {
            for v in &samples {
                let theirs: Result<Timing, _> =
                    serde_json::from_value(serde_json::json!({ *name: v.clone() }));
                let mut mine = Timing::default();
                let ours = mine.set_field(name, v);
                assert_eq!(ours.is_ok(), theirs.is_ok(), "{name} = {v}");
                if let Ok(theirs) = theirs {
                    assert_eq!(mine, theirs, "{name} = {v}");
                }
            }
        }
        assert_eq!(
            Timing::default().set_field("watch_dely", &serde_json::json!(1)),
            Err(FieldError::Unknown)
        );
        assert_eq!(
            Timing::default().set_field("jitter", &serde_json::json!(true)),
            Err(FieldError::WrongType {
                want: "a number of seconds"
            })
        );
    }

    #[test]
    fn insane_numbers_become_zero() {
        assert_eq!(sane(f64::NAN), 0.0);
        assert_eq!(sane(-1.0), 0.0);
        assert_eq!(sane(f64::INFINITY), 0.0);
        assert_eq!(sane(2.5), 2.5);
    }
}
