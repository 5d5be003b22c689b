//! `dsplay`, the native command line of the DaemonSet Playground (DESIGN §4.2): `run` a
//! scenario's script, `test` its `expect:` lines, `explain` why a node gets a daemon pod or not,
//! `export kind` it for a real cluster (or `export yaml` it, e.g. with a real cluster's nodes
//! from `--nodes`), `share` it as a link and `open` a link, `serve-api` the cluster it leaves to a
//! real kubectl (read-only), and start a lesson (`new lesson`).
//!
//! Owns argument parsing, file IO, output formats and exit codes. It knows no controller or
//! cluster logic of its own: everything it prints comes from `scenario`, `cluster` and
//! `controller`. Exit codes: 0 ok, 1 an expectation failed, 2 bad input (never a panic).

mod args;
mod commands;
mod export_kind;
mod new_lesson;
mod serve_api;

use std::fmt;
use std::io::Write;
use std::process::ExitCode;

use args::Command;

/// Bad input: what is wrong (with file:line:column where there is one) and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    pub message: String,
    pub hint: Option<String>,
}

impl CliError {
    pub fn new(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            hint: None,
        }
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: {}", self.message)?;
        if let Some(h) = &self.hint {
            write!(f, "\n  hint: {h}")?;
        }
        Ok(())
    }
}

impl From<scenario::ScenarioError> for CliError {
    fn from(e: scenario::ScenarioError) -> Self {
        CliError {
            message: format!("{}:{}:{}: {}", e.source_name, e.line, e.column, e.message),
            hint: e.hint,
        }
    }
}

/// How a command that did not fail on its input ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Ok,
    ExpectationFailed,
}

/// Writes to stdout; a closed pipe (`dsplay run x | head`) ends the output quietly.
pub fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .is_err()
    {
        std::process::exit(0);
    }
}

fn main() -> ExitCode {
    let result = args::parse(std::env::args_os().skip(1).collect()).and_then(|cmd| match cmd {
        Command::Help(sub) => {
            emit(args::help_text(sub));
            Ok(Verdict::Ok)
        }
        Command::Version => {
            emit(&format!("dsplay {}\n", env!("CARGO_PKG_VERSION")));
            Ok(Verdict::Ok)
        }
        Command::Run {
            file,
            until_settled,
            trace,
            output,
            nodes,
        } => commands::run(&file, until_settled, trace.as_deref(), output, &nodes),
        Command::Test { paths, nodes } => commands::test(&paths, &nodes),
        Command::Explain { file, node, nodes } => commands::explain(&file, &node, &nodes),
        Command::ExportKind { file, out, nodes } => {
            export_kind::export(&file, out.as_deref(), &nodes)
        }
        Command::ExportYaml { file, nodes } => commands::export_yaml(&file, &nodes),
        Command::Share {
            file,
            at,
            base,
            nodes,
        } => commands::share(&file, at, &base, &nodes),
        Command::ShareTable { paths } => commands::share_table(&paths),
        Command::Open { link } => commands::open(&link),
        Command::NewLesson { target } => new_lesson::new_lesson(&target),
        Command::Predict { file, count, nodes } => commands::predict(&file, count, &nodes),
        Command::ServeApi {
            file,
            at,
            port,
            nodes,
        } => serve_api::serve(&file, at, port, &nodes),
    });
    match result {
        Ok(Verdict::Ok) => ExitCode::SUCCESS,
        Ok(Verdict::ExpectationFailed) => ExitCode::from(1),
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}
