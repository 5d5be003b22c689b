//! Scenario files (`shared/DESIGN.md` §4.1): a cluster (node shorthand), named manifests, a
//! script of kubectl and simulation commands with `expect:` checks, a seed and timing overrides.
//!
//! `format` parses and validates the file (every error carries file:line:column and a hint);
//! `run` executes the script against the virtual cluster; `session` adapts the cluster to the
//! kubectl layer; `presets` is the library of scenarios shipped with the playground; `lesson`
//! reads a scenario's `lesson:` steps, evaluates their checks live and tests them in batch.

pub mod caption;
pub mod compare;
pub mod edit;
pub mod embed_api;
pub mod export;
pub mod format;
pub mod import;
pub mod lesson;
pub mod playback;
pub mod predict;
pub mod presets;
pub mod run;
pub mod session;
pub mod share;
pub mod timeline;
pub mod view;
pub mod write;

pub use format::{parse, Check, NodeEntry, Scenario, ScenarioError, ScriptLine, Step};
pub use lesson::{parse_lesson, Lesson, LessonFile, LessonProgress};
pub use playback::Playback;
pub use playback::{command_kind, format_duration, CommandError, CommandKind, Position};
pub use run::{run, run_line, session_at, start, Failure, LineResult, Outcome, Record};
pub use session::Session;
pub use timeline::{Mark, Sample, SampleCounts, Timeline};
