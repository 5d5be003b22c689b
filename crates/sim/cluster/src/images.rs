//! What the registry does for each image reference (DESIGN §4.1 `images:`): an image not listed
//! is present on every node, as the calibration assumes; a listed one is pulled on first use on
//! each node (`pullSeconds`), or cannot be pulled at all (`missing`). Owns the table only; the
//! kubelet decides when to pull.

use std::collections::BTreeMap;

/// One image's behaviour.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ImageBehaviour {
    /// The registry has no such image: every pull fails with NotFound.
    pub missing: bool,
    /// How long a pull takes (a failing pull: how long until it fails; default 1 s).
    pub pull_seconds: Option<f64>,
}

/// Image reference, exactly as a container names it → behaviour.
pub type Images = BTreeMap<String, ImageBehaviour>;
