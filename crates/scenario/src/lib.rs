//! Scenario files (`shared/DESIGN.md` §4.1): a cluster (node shorthand), named manifests, a
//! script of kubectl and simulation commands with `expect:` checks, a seed and timing overrides.
//!
//! This crate parses and validates the file and expands the node shorthand into Node objects;
//! every error carries file:line:column and a hint. It knows nothing of how a script runs.

pub mod format;

pub use format::{parse, Check, NodeEntry, Scenario, ScenarioError, ScriptLine, Step};
