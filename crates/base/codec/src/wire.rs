//! The precision a value keeps through its JSON form, applied in place.
//!
//! `metav1.Time` is written as RFC 3339 to the second (`Time.MarshalJSON`, and its protobuf
//! form leaves the nanoseconds out too), so whatever an API client sends, a watch delivers
//! whole seconds; `metav1.MicroTime` keeps microseconds. A store that hands out the objects it
//! was given, unencoded, applies [`WirePrecision`] where it writes them, so that every reader
//! sees what a reader of the real API server would. Generated from the same field table as
//! [`Encode`](crate::Encode), so no time field is missed.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{FieldsV1, MicroTime, Time};
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use k8s_openapi::jiff::Timestamp;

/// Drops what the JSON form of a value would drop: sub-second parts of `Time`s, sub-microsecond
/// parts of `MicroTime`s, in every field at any depth.
pub trait WirePrecision {
    fn to_wire_precision(&mut self);
}

impl<T: WirePrecision> WirePrecision for Option<T> {
    fn to_wire_precision(&mut self) {
        if let Some(v) = self {
            v.to_wire_precision();
        }
    }
}

impl<T: WirePrecision> WirePrecision for Vec<T> {
    fn to_wire_precision(&mut self) {
        self.iter_mut().for_each(WirePrecision::to_wire_precision);
    }
}

impl<T: WirePrecision> WirePrecision for BTreeMap<String, T> {
    fn to_wire_precision(&mut self) {
        self.values_mut().for_each(WirePrecision::to_wire_precision);
    }
}

macro_rules! exact_on_the_wire {
    ($($t:ty),*) => {
        $(impl WirePrecision for $t {
            #[inline(always)]
            fn to_wire_precision(&mut self) {}
        })*
    };
}

exact_on_the_wire!(
    String,
    bool,
    i32,
    i64,
    f64,
    Quantity,
    IntOrString,
    RawExtension,
    FieldsV1
);

/// `t` rounded down to a multiple of `unit` nanoseconds (down, as Go's formatting drops the
/// digits of a time after the epoch; before it, too: Go keeps nanoseconds non-negative).
fn floor_to(t: Timestamp, unit: i128) -> Timestamp {
    let n = t.as_nanosecond();
    Timestamp::from_nanosecond(n - n.rem_euclid(unit)).unwrap_or(t)
}

impl WirePrecision for Time {
    fn to_wire_precision(&mut self) {
        self.0 = floor_to(self.0, 1_000_000_000);
    }
}

impl WirePrecision for MicroTime {
    fn to_wire_precision(&mut self) {
        self.0 = floor_to(self.0, 1_000);
    }
}

macro_rules! wire_resource {
    ($ty:ty { $($i:literal $f:ident $json:literal,)* }) => {
        impl WirePrecision for $ty {
            fn to_wire_precision(&mut self) {
                $(self.$f.to_wire_precision();)*
            }
        }
    };
}

macro_rules! wire_plain {
    ($ty:ty, $go:literal { $($i:literal $f:ident $json:literal,)* }) => {
        wire_resource!($ty { $($i $f $json,)* });
    };
}

crate::k8s_types!(wire_resource, wire_plain);

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::{Event, EventSeries, Pod, PodCondition, PodStatus};
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

    fn at(nanos: i128) -> Timestamp {
        Timestamp::from_nanosecond(nanos).unwrap()
    }

    #[test]
    fn times_keep_whole_seconds_and_micro_times_microseconds() {
        let mut pod = Pod {
            metadata: ObjectMeta {
                creation_timestamp: Some(Time(at(5_999_999_999))),
                ..Default::default()
            },
            status: Some(PodStatus {
                conditions: Some(vec![PodCondition {
                    last_transition_time: Some(Time(at(7_250_000_000))),
                    ..Default::default()
                }]),
                ..Default::default()
            }),
            ..Default::default()
        };
        pod.to_wire_precision();
        assert_eq!(
            pod.metadata.creation_timestamp,
            Some(Time(at(5_000_000_000)))
        );
        let c = &pod.status.unwrap().conditions.unwrap()[0];
        assert_eq!(c.last_transition_time, Some(Time(at(7_000_000_000))));

        let mut ev = Event {
            first_timestamp: Some(Time(at(1_500_000_000))),
            event_time: Some(MicroTime(at(1_500_123_456))),
            series: Some(EventSeries {
                last_observed_time: Some(MicroTime(at(2_000_000_999))),
                ..Default::default()
            }),
            ..Default::default()
        };
        ev.to_wire_precision();
        assert_eq!(ev.first_timestamp, Some(Time(at(1_000_000_000))));
        assert_eq!(ev.event_time, Some(MicroTime(at(1_500_123_000))));
        let s = ev.series.unwrap();
        assert_eq!(s.last_observed_time, Some(MicroTime(at(2_000_000_000))));
    }

    #[test]
    fn before_the_epoch_times_round_down_as_go_formats_them() {
        let mut t = Time(at(-1_250_000_000));
        t.to_wire_precision();
        assert_eq!(t, Time(at(-2_000_000_000)));
    }

    #[test]
    fn the_wire_form_is_what_the_encoder_writes() {
        let mut t = Time(at(1_700_000_000_750_000_000));
        let written = crate::to_json(&t);
        t.to_wire_precision();
        assert_eq!(crate::to_json(&t), written);
        assert_eq!(t.0.subsec_nanosecond(), 0);
    }
}
