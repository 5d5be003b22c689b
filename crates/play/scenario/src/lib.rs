//! Scenarios played (`shared/DESIGN.md` §4.1): a cluster (node shorthand), named manifests, a
//! script of kubectl and simulation commands with `expect:` checks, a seed and timing overrides.
//!
//! The files themselves (parsing with file:line:column errors, writing, links, imports) are
//! the `scenario_file` crate, re-exported here. `run` executes a script against the virtual
//! cluster in batch; `session` adapts the cluster to the kubectl layer; `playback` and
//! `timeline` play it step by step and travel in time; `view`, `caption` and `compare` are
//! what the page shows; `lesson` evaluates a lesson's checks live and tests it in batch;
//! `presets` is the library of scenarios shipped with the playground.

// The file format, re-exported so that `scenario::format` and the rest keep their paths.
pub use scenario_file::{edit, embed_api, export, format, import, script, share, write};

pub mod caption;
pub mod compare;
pub mod lesson;
pub mod playback;
// Native only (`dsplay predict`) until the page shows predictions: the page is at its size
// budget, and its code layout moves with every item compiled for it, used or not.
#[cfg(not(target_arch = "wasm32"))]
pub mod predict;
pub mod presets;
pub mod run;
pub mod session;
pub mod timeline;
pub mod view;

pub use format::{parse, Check, NodeEntry, Scenario, ScenarioError, ScriptLine, Step};
pub use lesson::{parse_lesson, Lesson, LessonFile, LessonProgress};
pub use playback::Playback;
pub use playback::{CommandError, Position};
pub use run::{run, run_line, session_at, start, Failure, LineResult, Outcome, Record};
pub use script::{command_kind, format_duration, CommandKind};
pub use session::Session;
pub use timeline::{Mark, Sample, SampleCounts, Timeline};
