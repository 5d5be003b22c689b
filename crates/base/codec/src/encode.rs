//! Objects → `serde_json::Value`, field by field from the generated table.
//!
//! One small function per type instead of serde's `Serialize` instances: each struct inserts its
//! fields into a map, leaving out unset `Option`s exactly as k8s-openapi's serializer does.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{FieldsV1, MicroTime, Time};
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde_json::{Map, Value};

use crate::time::{format_micro_time, format_time};

/// The JSON form of a Kubernetes object or of any part of one.
pub trait Encode {
    fn encode(&self) -> Value;

    /// Adds this value to `map` as field `key`; an unset `Option` adds nothing.
    fn encode_field(&self, map: &mut Map<String, Value>, key: &str) {
        map.insert(key.to_owned(), self.encode());
    }
}

/// `value` as `serde_json::to_value` would give it with k8s-openapi's serializers.
pub fn to_json<T: Encode>(value: &T) -> Value {
    value.encode()
}

impl<T: Encode> Encode for Option<T> {
    fn encode(&self) -> Value {
        self.as_ref().map_or(Value::Null, Encode::encode)
    }

    fn encode_field(&self, map: &mut Map<String, Value>, key: &str) {
        if let Some(v) = self {
            v.encode_field(map, key);
        }
    }
}

impl<T: Encode> Encode for Vec<T> {
    fn encode(&self) -> Value {
        encode_seq(self.len(), &mut |i| self[i].encode())
    }
}

impl<T: Encode> Encode for BTreeMap<String, T> {
    fn encode(&self) -> Value {
        encode_map(&mut self.iter().map(|(k, v)| (k.as_str(), v.encode())))
    }
}

/// A JSON array of `len` items. The loop is here once, not in every `Vec<T>`'s instance.
#[inline(never)]
fn encode_seq(len: usize, item: &mut dyn FnMut(usize) -> Value) -> Value {
    let mut out = Vec::with_capacity(len);
    for i in 0..len {
        out.push(item(i));
    }
    Value::Array(out)
}

/// A JSON object of the entries; the loop is here once, not in every map type's instance.
#[inline(never)]
fn encode_map(entries: &mut dyn Iterator<Item = (&str, Value)>) -> Value {
    let mut map = Map::new();
    for (k, v) in entries {
        map.insert(k.to_owned(), v);
    }
    Value::Object(map)
}

impl Encode for String {
    fn encode(&self) -> Value {
        Value::String(self.clone())
    }
}

impl Encode for bool {
    fn encode(&self) -> Value {
        Value::Bool(*self)
    }
}

impl Encode for i32 {
    fn encode(&self) -> Value {
        Value::from(*self)
    }
}

impl Encode for i64 {
    fn encode(&self) -> Value {
        Value::from(*self)
    }
}

impl Encode for f64 {
    /// As serde_json: a NaN or an infinity has no JSON number and becomes `null`.
    fn encode(&self) -> Value {
        serde_json::Number::from_f64(*self).map_or(Value::Null, Value::Number)
    }
}

impl Encode for Quantity {
    fn encode(&self) -> Value {
        Value::String(self.0.clone())
    }
}

impl Encode for IntOrString {
    fn encode(&self) -> Value {
        match self {
            IntOrString::Int(i) => Value::from(*i),
            IntOrString::String(s) => Value::String(s.clone()),
        }
    }
}

impl Encode for Time {
    fn encode(&self) -> Value {
        Value::String(format_time(self.0))
    }
}

impl Encode for MicroTime {
    fn encode(&self) -> Value {
        Value::String(format_micro_time(self.0))
    }
}

impl Encode for RawExtension {
    fn encode(&self) -> Value {
        self.0.clone()
    }
}

impl Encode for FieldsV1 {
    fn encode(&self) -> Value {
        self.0.clone()
    }
}

macro_rules! encode_resource {
    ($ty:ty { $($i:literal $f:ident $json:literal,)* }) => {
        impl Encode for $ty {
            fn encode(&self) -> Value {
                let mut map = Map::new();
                map.insert(
                    "apiVersion".into(),
                    Value::from(<$ty as k8s_openapi::Resource>::API_VERSION),
                );
                map.insert("kind".into(), Value::from(<$ty as k8s_openapi::Resource>::KIND));
                $(self.$f.encode_field(&mut map, $json);)*
                Value::Object(map)
            }
        }
    };
}

macro_rules! encode_plain {
    ($ty:ty, $go:literal { $($i:literal $f:ident $json:literal,)* }) => {
        impl Encode for $ty {
            fn encode(&self) -> Value {
                let mut map = Map::new();
                $(self.$f.encode_field(&mut map, $json);)*
                Value::Object(map)
            }
        }
    };
}

crate::k8s_types!(encode_resource, encode_plain);
