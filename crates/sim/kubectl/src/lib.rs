//! A `kubectl` subset for the DaemonSet Playground: parse a command line ([`parse`]), run it
//! against an [`Api`] ([`run`]) and print exactly what kubectl prints — tables, `-o
//! yaml|json|name|jsonpath`, `describe`, `rollout status|history|undo|restart`, and kubectl's
//! error messages, each with a [`CommandResult::hint`] for a learner where kubectl gives none.
//!
//! Architecture invariants:
//! - No state of its own. Everything comes from the [`Api`] on each call; commands that wait
//!   (`rollout status`) return a [`Wait`] that the caller polls after advancing virtual time.
//! - No dependency on the virtual cluster crate: the cluster implements [`Api`].
//! - No clock, no filesystem, no threads: `now` and files come from the [`Api`]; compiles to
//!   `wasm32-unknown-unknown`.
//! - Never panics on any input line.

mod api;
mod api_table;
mod apply;
mod columns;
mod describe;
mod get;
mod jsonpath;
mod mutate;
mod object;
pub mod parse;
mod patch;
mod resource;
mod rollout;
mod sort_by;
mod strategic;
mod table;

pub use api::{Api, ApiError, Cascade};
pub use api_table::{table_cells, table_columns, TableColumn};
pub use get::{event_object, event_row, field_labels, node_status, pod_summary, PodSummary};
pub use k8s_base::yaml::to_yaml;
pub use object::{get as get_object, list as list_objects, Object};
pub use parse::{parse, shell_quote, split_words, Command, ParseError, Verb};
pub use resource::Resource;
pub use rollout::{Wait, WaitState};
pub use table::age;

/// What a command printed, and how it ended.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CommandResult {
    pub stdout: String,
    pub stderr: String,
    /// 0 on success, 1 on any error (as kubectl).
    pub exit_code: i32,
    /// How to fix the error, for a learner (not part of kubectl's output).
    pub hint: Option<String>,
    /// Set when the command keeps running (`rollout status`): poll it as time advances.
    pub wait: Option<Wait>,
}

impl CommandResult {
    pub(crate) fn out(stdout: impl Into<String>) -> CommandResult {
        CommandResult {
            stdout: stdout.into(),
            ..CommandResult::default()
        }
    }

    /// Whether the command succeeded.
    pub fn ok(&self) -> bool {
        self.exit_code == 0
    }

    /// Records an error (stderr line, exit 1, first hint kept).
    pub(crate) fn fail(&mut self, f: Fail) {
        self.stderr.push_str(&f.message);
        self.stderr.push('\n');
        self.exit_code = 1;
        if self.hint.is_none() {
            self.hint = f.hint;
        }
    }
}

/// An error that ends a command: kubectl's message and a hint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Fail {
    pub message: String,
    pub hint: Option<String>,
}

impl Fail {
    pub(crate) fn new(message: impl Into<String>) -> Fail {
        Fail {
            message: message.into(),
            hint: None,
        }
    }

    pub(crate) fn hint(mut self, hint: impl Into<String>) -> Fail {
        self.hint = Some(hint.into());
        self
    }
}

impl From<ApiError> for Fail {
    fn from(e: ApiError) -> Fail {
        Fail {
            message: e.to_string(),
            hint: e.hint(),
        }
    }
}

/// Parses and runs one command line against the API.
pub fn run(api: &mut dyn Api, line: &str) -> CommandResult {
    let result = parse(line)
        .map_err(Fail::from)
        .and_then(|cmd| execute(api, &cmd));
    match result {
        Ok(r) => r,
        Err(f) => {
            let mut r = CommandResult::default();
            r.fail(f);
            r
        }
    }
}

/// Runs a parsed command.
pub fn run_command(api: &mut dyn Api, cmd: &Command) -> CommandResult {
    match execute(api, cmd) {
        Ok(r) => r,
        Err(f) => {
            let mut r = CommandResult::default();
            r.fail(f);
            r
        }
    }
}

fn execute(api: &mut dyn Api, cmd: &Command) -> Result<CommandResult, Fail> {
    match cmd.verb {
        Verb::Get => get::get(api, cmd),
        Verb::Describe => describe::describe(api, cmd),
        Verb::Apply | Verb::Create => apply::apply(api, cmd),
        Verb::Delete => mutate::delete(api, cmd),
        Verb::Label => mutate::label(api, cmd),
        Verb::Taint => mutate::taint(api, cmd),
        Verb::Cordon => mutate::cordon(api, cmd, true),
        Verb::Uncordon => mutate::cordon(api, cmd, false),
        Verb::Drain => mutate::drain(api, cmd),
        Verb::SetImage => mutate::set_image(api, cmd),
        Verb::SetEnv => mutate::set_env(api, cmd),
        Verb::Patch => patch::patch(api, cmd),
        Verb::RolloutStatus => rollout::status(api, cmd),
        Verb::RolloutHistory => rollout::history(api, cmd),
        Verb::RolloutUndo => rollout::undo(api, cmd),
        Verb::RolloutRestart => rollout::restart(api, cmd),
        Verb::RolloutPause => rollout::pause_or_resume(api, cmd, "pausing"),
        Verb::RolloutResume => rollout::pause_or_resume(api, cmd, "resuming"),
    }
}
