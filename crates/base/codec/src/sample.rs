//! A value of every type with every field set (tests only, feature `sample`).
//!
//! Listing every field in a struct literal is also the check that the generated table misses
//! none: a field k8s-openapi adds and the table lacks fails to compile here.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{FieldsV1, MicroTime, Time};
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use k8s_openapi::jiff::Timestamp;
use serde_json::json;

/// Nesting below which optional fields are still filled in.
const MAX_DEPTH: usize = 24;

pub trait Sample {
    fn sample(depth: usize) -> Self;
}

impl Sample for String {
    fn sample(depth: usize) -> Self {
        format!("text-{depth}")
    }
}

impl Sample for bool {
    fn sample(depth: usize) -> Self {
        depth.is_multiple_of(2)
    }
}

impl Sample for i32 {
    fn sample(depth: usize) -> Self {
        depth as i32 + 3
    }
}

impl Sample for i64 {
    fn sample(depth: usize) -> Self {
        5_000_000_000 + depth as i64
    }
}

impl Sample for f64 {
    fn sample(depth: usize) -> Self {
        depth as f64 + 0.25
    }
}

impl<T: Sample> Sample for Option<T> {
    fn sample(depth: usize) -> Self {
        (depth < MAX_DEPTH).then(|| T::sample(depth + 1))
    }
}

impl<T: Sample> Sample for Vec<T> {
    fn sample(depth: usize) -> Self {
        vec![T::sample(depth + 1)]
    }
}

impl<T: Sample> Sample for BTreeMap<String, T> {
    fn sample(depth: usize) -> Self {
        BTreeMap::from([(format!("key-{depth}"), T::sample(depth + 1))])
    }
}

impl Sample for Quantity {
    fn sample(depth: usize) -> Self {
        Quantity(format!("{depth}50m"))
    }
}

impl Sample for IntOrString {
    fn sample(depth: usize) -> Self {
        if depth.is_multiple_of(2) {
            IntOrString::Int(depth as i32)
        } else {
            IntOrString::String(format!("{depth}%"))
        }
    }
}

impl Sample for Time {
    fn sample(depth: usize) -> Self {
        Time(Timestamp::new(1_767_225_600 + depth as i64, 0).unwrap_or_default())
    }
}

impl Sample for MicroTime {
    fn sample(depth: usize) -> Self {
        MicroTime(Timestamp::new(1_767_225_600 + depth as i64, 123_456_000).unwrap_or_default())
    }
}

impl Sample for RawExtension {
    fn sample(depth: usize) -> Self {
        RawExtension(json!({"a": [1, "b", null, 2.5], "depth": depth}))
    }
}

impl Sample for FieldsV1 {
    fn sample(_: usize) -> Self {
        FieldsV1(json!({"f:metadata": {"f:labels": {}}}))
    }
}

macro_rules! sample_resource {
    ($ty:ty { $($i:literal $f:ident $json:literal,)* }) => {
        impl Sample for $ty {
            fn sample(depth: usize) -> Self {
                Self { $($f: Sample::sample(depth),)* }
            }
        }
    };
}

macro_rules! sample_plain {
    ($ty:ty, $go:literal { $($i:literal $f:ident $json:literal,)* }) => {
        sample_resource!($ty { $($i $f $json,)* });
    };
}

crate::k8s_types!(sample_resource, sample_plain);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::to_json;
    use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
    use k8s_openapi::api::core::v1::{Event, Node, Pod};

    fn same_as_serde<T: Sample + crate::Encode + serde::Serialize>() {
        let x = T::sample(0);
        let ours = to_json(&x);
        let theirs = serde_json::to_value(&x).unwrap();
        assert!(ours == theirs, "{}", std::any::type_name::<T>());
    }

    /// Every field of every served type encodes as k8s-openapi's serializer writes it.
    #[test]
    fn encoding_equals_k8s_openapi_serialize() {
        same_as_serde::<DaemonSet>();
        same_as_serde::<ControllerRevision>();
        same_as_serde::<Pod>();
        same_as_serde::<Node>();
        same_as_serde::<Event>();
        // And the empty objects, whose required fields are written even when zero.
        assert_eq!(
            to_json(&Pod::default()),
            serde_json::to_value(Pod::default()).unwrap()
        );
        assert_eq!(
            to_json(&DaemonSet::default()),
            serde_json::to_value(DaemonSet::default()).unwrap()
        );
    }
}
