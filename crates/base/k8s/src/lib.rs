//! Kubernetes API machinery that every layer of the playground shares: the API server's
//! validation and decoding, the controller's claiming, the cluster's scheduler, kubectl's
//! printers.
//!
//! One helper per concept: when two crates need the same piece of apimachinery (parsing a
//! quantity, matching a selector, wording a refusal), it lives here once, with upstream's
//! rules and upstream's words, and they call it. Of our crates it depends only on `sort`
//! (layer 0 too); it builds for `wasm32-unknown-unknown` as for the host.
//!
//! - [`quantity`]: `resource.Quantity` (`k8s.io/apimachinery/pkg/api/resource`): parsing as
//!   `ParseQuantity` does, exact comparison, `Value`/`MilliValue`/`ScaledValue`.
//! - [`labels`]: label selectors (`labels.Selector`, `metav1.LabelSelectorAsSelector`,
//!   `labels.Parse`, `FormatLabelSelector`); [`fields`]: field selectors.
//! - [`errors`]: `ApiError` (`k8s.io/apimachinery/pkg/api/errors`) and `ApplyOutcome`.
//! - [`quote`]: Go's `strconv.Quote` and the double-quoting loop the YAML writers share.
//! - [`typo`]: the edit distance behind every "did you mean".
//! - [`objects`]: `Taint.ToString()`, a revision's template, well-known annotations.
//! - [`yaml`]: the go-yaml v2 writer `kubectl get -o yaml` prints with, and its scalar rules.

pub mod errors;
pub mod fields;
pub mod labels;
pub mod objects;
pub mod quantity;
pub mod quote;
pub mod typo;
pub mod yaml;

pub use errors::{ApiError, ApplyOutcome};
pub use fields::FieldSelector;
pub use labels::Selector;
pub use quantity::{Format, Quantity, QuantityError};
