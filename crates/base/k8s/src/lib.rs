//! Kubernetes API machinery that every layer of the playground shares: the API server's
//! validation and decoding, the cluster's scheduler, kubectl's printers.
//!
//! One helper per concept: when two crates need the same piece of apimachinery (parsing a
//! quantity, comparing two), it lives here once, with upstream's rules and upstream's words,
//! and they call it. This crate depends on nothing of ours and on no other crate; it builds
//! for `wasm32-unknown-unknown` as for the host.
//!
//! - [`quantity`]: `resource.Quantity` (`k8s.io/apimachinery/pkg/api/resource`): parsing as
//!   `ParseQuantity` does, exact comparison, `Value`/`MilliValue`/`ScaledValue`.

pub mod quantity;

pub use quantity::{Format, Quantity, QuantityError};
