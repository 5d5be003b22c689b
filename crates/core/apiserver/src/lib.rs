//! The API server's rules that a user meets when submitting objects, for the DaemonSet
//! Playground: decoding manifests as `kubectl apply -f` does ([`decode`]), defaulting
//! ([`defaults`]), validation ([`validation`]) and the DaemonSet registry strategy
//! ([`strategy`]: generation, template generation, status handling).
//!
//! Architecture invariant: this crate knows nothing of the controller, the simulator, time or
//! the UI. It is pure functions over `k8s-openapi` types, compiles to `wasm32-unknown-unknown`,
//! and never panics on user input: every failure is a value with a location and a hint.

pub mod admission;
mod de;
pub mod decode;
pub mod defaults;
pub mod gofmt;
pub mod source_map;
pub mod strategy;
pub mod validation;
mod yaml;

pub use de::{De, DeError, Decode};
pub use decode::{
    decode_daemon_set, decode_json, decode_manifests, yaml_to_json, DecodeError, DecodeErrorKind,
    Manifest,
};
pub use source_map::SourceMap;
pub use validation::{FieldError, FieldErrorKind, Invalid};
