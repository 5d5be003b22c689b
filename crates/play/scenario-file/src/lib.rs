//! Scenario and lesson files (`shared/DESIGN.md` §4.1, §4.1b) as text and data: what a user
//! writes, saves, shares and imports, read and written without running anything.
//!
//! `format` parses and validates a scenario file (every error carries file:line:column and a
//! hint); `lesson` its `lesson:` steps, their Markdown and a learner's progress; `script` what a
//! script line means (read-only or edit, a sleep's duration); `write` lays a scenario out as
//! YAML or JSON; `share` packs it into a link; `import` turns `kubectl get nodes` output into
//! node entries; `export` writes a session as a script; `edit` is a UI edit as the command it
//! stands for; `embed_api` reads the Embed API's messages. Running a scenario (the timeline,
//! the view model) is the `scenario` crate's, which re-exports all of this.

pub mod edit;
pub mod embed_api;
pub mod export;
pub mod format;
pub mod import;
pub mod lesson;
pub mod script;
pub mod share;
pub mod write;

pub use format::{parse, Check, NodeEntry, Scenario, ScenarioError, ScriptLine, Step};
pub use lesson::{parse_lesson, Lesson, LessonFile, LessonProgress};
