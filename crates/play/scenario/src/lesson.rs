//! Lessons at run time (`shared/DESIGN.md` §4.1b): a task's check evaluated against a cluster
//! now ([`evaluate`], what the page calls after each change), and a lesson tested in batch by
//! playing each task's reference solution ([`test_lesson`], what `dsplay test` runs). The file
//! part (steps, Markdown, progress) is `scenario_file::lesson`, re-exported here.

use std::time::Duration;

pub use scenario_file::lesson::*;

use crate::format::{ScenarioError, ScriptLine, Step};
use crate::session::Session;

/// Evaluates check lines against the cluster now: each `expect:` command runs as the page's
/// terminal runs a read-only command (no time passes, a `rollout status` reports its progress
/// without waiting) and its output is tested as a scenario's `expect:` is ([`Check::holds`]).
/// Checks only read (validated at parse), so evaluating changes nothing; a few `kubectl get`s
/// on the lesson's cluster, cheap enough after every change.
pub fn evaluate(session: &mut Session, check: &[ScriptLine]) -> CheckState {
    let lines = check
        .iter()
        .filter_map(|l| match &l.step {
            Step::Expect { command, check } => {
                let r = crate::run::run_without_waiting(session, command);
                Some(CheckLine {
                    line: l.line,
                    column: l.column,
                    command: command.clone(),
                    expected: check.clone(),
                    observed: r.output.trim().to_string(),
                    holds: check.holds(&r.output),
                })
            }
            Step::Run(_) => None,
        })
        .collect();
    CheckState { lines }
}

/// How long (virtual) `dsplay test` lets the simulation run after a task's solution for the
/// check to hold: ten minutes, longer than any rollout of a lesson-sized cluster (an
/// OnDelete or crash-looping lesson waits at most a few back-offs).
pub const CHECK_LIMIT: Duration = Duration::from_secs(600);

/// Why a lesson failed its test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonFailure {
    pub line: usize,
    pub column: usize,
    /// 1-based step number (0: the scenario's `script:`).
    pub step: usize,
    pub message: String,
}

/// The result of testing a lesson: expectations that held, and failures.
#[derive(Debug, Clone)]
pub struct LessonOutcome {
    pub passed: usize,
    pub failures: Vec<LessonFailure>,
}

/// Tests a lesson as a learner who follows it would play it: the scenario's script, then per
/// step its `run:` lines (their `expect:` lines checked as in a scenario) and, for a task,
/// the check — which must not hold yet (a check that holds before the learner did anything
/// proves nothing) —, the solution, and the simulation until the check holds (evaluated after
/// every event, as the page does) or [`CHECK_LIMIT`] passes. The first task that fails ends
/// the test: later steps build on it.
pub fn test_lesson(file: &LessonFile) -> Result<LessonOutcome, ScenarioError> {
    let out = crate::run::run(&file.scenario, false)?;
    let mut session = out.session;
    let mut passed = out.passed;
    let mut failures: Vec<LessonFailure> = out
        .failures
        .iter()
        .map(|f| LessonFailure {
            line: f.line,
            column: f.column,
            step: 0,
            message: f.describe(),
        })
        .collect();
    for (i, step) in file.lesson.steps.iter().enumerate() {
        let n = i + 1;
        let fail = |line: &ScriptLine, message: String| LessonFailure {
            line: line.line,
            column: line.column,
            step: n,
            message: format!("step {n} ({:?}): {message}", step.title),
        };
        let (held, missed) = play(&mut session, &step.run, false);
        passed += held;
        failures.extend(missed.into_iter().map(|(line, m)| fail(line, m)));
        let Some(task) = &step.task else { continue };
        let Some(first) = task.check.first() else {
            continue;
        };
        let before = evaluate(&mut session, &task.check);
        if before.holds() {
            failures.push(fail(
                first,
                "the task's check already holds before its solution is played; it cannot tell whether the learner did the task".into(),
            ));
            return Ok(LessonOutcome { passed, failures });
        }
        let (held, missed) = play(&mut session, &task.solution, true);
        passed += held;
        if let Some((line, m)) = missed.into_iter().next() {
            failures.push(fail(line, m));
            return Ok(LessonOutcome { passed, failures });
        }
        let deadline = session.cluster.elapsed_seconds() + CHECK_LIMIT.as_secs_f64();
        let mut state = evaluate(&mut session, &task.check);
        while !state.holds()
            && session.cluster.elapsed_seconds() <= deadline
            && session.cluster.step().is_some()
        {
            state = evaluate(&mut session, &task.check);
        }
        match state.first_failing() {
            None => passed += 1,
            Some(l) => {
                let line = task
                    .check
                    .iter()
                    .find(|c| c.line == l.line && c.column == l.column)
                    .unwrap_or(first);
                let message = format!(
                    "the check never held within {} s after the solution: expect `{}` {}, last observed {:?}",
                    CHECK_LIMIT.as_secs(),
                    l.command,
                    l.expected,
                    l.observed
                );
                failures.push(fail(line, message));
                return Ok(LessonOutcome { passed, failures });
            }
        }
    }
    Ok(LessonOutcome { passed, failures })
}

/// Plays script lines as a scenario's script runs them: the `expect:` lines that held, and a
/// message per line that failed — an `expect:` that did not hold, or, with `commands_must_work`
/// (a task's solution: the learner's reference action), a command that failed.
fn play<'l>(
    session: &mut Session,
    lines: &'l [ScriptLine],
    commands_must_work: bool,
) -> (usize, Vec<(&'l ScriptLine, String)>) {
    let mut held = 0;
    let mut missed = Vec::new();
    for line in lines {
        match &line.step {
            Step::Run(command) => {
                let r = crate::run::run_line(session, command);
                if commands_must_work && !r.ok {
                    // Its first line: the report is a line per failure.
                    let said = r.output.trim().lines().next().unwrap_or("");
                    let message = format!("solution line `{command}` failed: {said}");
                    missed.push((line, message));
                }
            }
            Step::Expect { command, check } => {
                let r = crate::run::run_line(session, command);
                if check.holds(&r.output) {
                    held += 1;
                } else {
                    let failure = crate::run::Failure {
                        line: line.line,
                        column: line.column,
                        command: command.clone(),
                        expected: check.clone(),
                        observed: r.output.trim().to_string(),
                    };
                    missed.push((line, failure.describe()));
                }
            }
        }
    }
    (held, missed)
}
