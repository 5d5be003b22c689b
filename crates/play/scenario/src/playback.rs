//! Playing a scenario live: the script and the simulation interleaved on one virtual clock, so
//! a viewer can move time forward in small steps (animation frames) and see each script line
//! take effect at its turn. `run` is the batch version of the same semantics.
//!
//! Semantics: lines run in order; a line that does not wait runs at once; `sleep D` lets the
//! cluster run for D before the next line (every event due at or before the end of the sleep
//! runs first, as in the batch runner); `kubectl rollout status` lets it run until the rollout
//! is done (or its `--timeout`, else [`crate::run::WAIT_LIMIT`]). After the last line the
//! cluster keeps running for as long as the viewer advances time.
//!
//! The state is a pure function of the scenario and a [`Position`] (events processed, clock):
//! how time was moved (one call or many frames) does not matter. That is what makes user edits
//! replayable: [`Playback::inject`] runs a command now and writes it into the script so that
//! playing the edited scenario from the start reaches exactly the same state.

use cluster::StepReport;
use k8s_openapi::jiff::{SignedDuration, Timestamp};
use kubectl::Wait;
use std::time::Duration;

use crate::format::{Scenario, ScenarioError, ScriptLine, Step};
use crate::run::{absorb_wait, run_line, start, wait_limit, Record, TIMED_OUT};
use crate::script::parse_duration;
use crate::script::{command_kind, format_duration, CommandKind};
use crate::session::Session;

/// Where a playback stands: how many simulation events it has processed, and its clock. Two
/// playbacks of the same scenario at the same position are in the same state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    pub events: u64,
    pub at: Timestamp,
}

#[derive(Debug, Clone)]
enum Waiting {
    Sleep {
        until: Timestamp,
        since: Position,
        index: usize,
    },
    Rollout {
        wait: Box<Wait>,
        deadline: Timestamp,
        output: String,
        index: usize,
        since: Position,
    },
}

/// An edit `inject` runs and records (not a read-only line, `sleep` or `expect:`).
fn is_plain_edit(command: &str) -> bool {
    let verb_ok = kubectl::split_words(command).is_ok_and(|words| {
        words
            .first()
            .is_some_and(|verb| !matches!(verb.as_str(), "sleep" | "expect:"))
    });
    verb_ok && command_kind(command) == CommandKind::Edit
}

/// A command that failed: what the terminal shows. Nothing was changed or recorded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{output}")]
pub struct CommandError {
    pub command: String,
    pub output: String,
}

/// How an edit changed the script, so that older copies of the playback (time-travel
/// checkpoints) can be brought in line with the new script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Splice {
    /// Where the command ran.
    pub at: Position,
    /// The line that was waiting (split), or the end of the script (append).
    pub index: usize,
    /// When that line started (split) or the script ended (append).
    pub since: Position,
    /// The `sleep` written for the part of the wait before the edit, if any.
    pub sleep: Option<String>,
    pub kind: SpliceKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SpliceKind {
    SplitSleep,
    SplitRollout,
    Append,
}

/// A scenario being played.
#[derive(Debug, Clone)]
pub struct Playback {
    pub scenario: Scenario,
    pub session: Session,
    next_line: usize,
    waiting: Option<Waiting>,
    /// Every script line run so far, with its output.
    pub log: Vec<Record>,
    events: u64,
    /// When the last line finished.
    line_done: Position,
}

fn duration_between(a: Timestamp, b: Timestamp) -> Duration {
    let d = b.duration_since(a);
    Duration::try_from(d).unwrap_or(Duration::ZERO)
}

fn plus(t: Timestamp, d: Duration) -> Timestamp {
    SignedDuration::try_from(d)
        .ok()
        .and_then(|d| t.checked_add(d).ok())
        .unwrap_or(Timestamp::MAX)
}

impl Playback {
    /// Starts the scenario and runs the lines due at time zero.
    pub fn new(scenario: Scenario) -> Result<Playback, ScenarioError> {
        let session = start(&scenario)?;
        let at = session.cluster.now();
        let mut p = Playback {
            scenario,
            session,
            next_line: 0,
            waiting: None,
            log: Vec::new(),
            events: 0,
            line_done: Position { events: 0, at },
        };
        p.run_due_lines();
        Ok(p)
    }

    /// Virtual seconds since the start.
    pub fn elapsed(&self) -> f64 {
        self.session.cluster.elapsed_seconds()
    }

    /// Where the playback stands.
    pub fn position(&self) -> Position {
        Position {
            events: self.events,
            at: self.session.cluster.now(),
        }
    }

    /// Virtual seconds since the start at `at`.
    pub fn seconds_at(&self, at: Timestamp) -> f64 {
        seconds_between(self.session.cluster.start_time(), at)
    }

    /// The instant `t` seconds after the start, to the nanosecond.
    pub fn instant(&self, t: f64) -> Timestamp {
        let nanos = (t.max(0.0) * 1e9).round().min(u64::MAX as f64) as u64;
        plus(
            self.session.cluster.start_time(),
            Duration::from_nanos(nanos),
        )
    }

    /// Whether every script line has run.
    pub fn script_done(&self) -> bool {
        self.next_line >= self.scenario.script.len() && self.waiting.is_none()
    }

    /// The script line running or next to run (index into `scenario.script`).
    pub fn current_line(&self) -> Option<usize> {
        match &self.waiting {
            Some(Waiting::Rollout { index, .. } | Waiting::Sleep { index, .. }) => Some(*index),
            _ => (self.next_line < self.scenario.script.len()).then_some(self.next_line),
        }
    }

    fn record(&mut self, index: usize, command: String, output: String, ok: bool) {
        let t = self.elapsed();
        self.record_at(t, index, command, output, ok);
    }

    /// Records a line issued at `t` (a wait is logged when it ends, stamped when it began).
    fn record_at(&mut self, t: f64, index: usize, command: String, output: String, ok: bool) {
        let line = self.scenario.script.get(index).map_or(0, |l| l.line);
        self.log.push(Record {
            t,
            command,
            output,
            ok,
            line,
        });
    }

    /// Runs lines until one waits or the script ends.
    fn run_due_lines(&mut self) {
        while self.waiting.is_none() && self.next_line < self.scenario.script.len() {
            let index = self.next_line;
            self.next_line += 1;
            let step = self.scenario.script[index].step.clone();
            match step {
                Step::Expect { command, check } => {
                    let r = run_line(&mut self.session, &command);
                    let holds = check.holds(&r.output);
                    self.record(index, command, r.output, holds);
                }
                Step::Run(command) => {
                    let words = kubectl::split_words(&command).unwrap_or_default();
                    if words.first().map(String::as_str) == Some("sleep") && words.len() == 2 {
                        if let Ok(d) = parse_duration(&words[1]) {
                            let until = plus(self.session.cluster.now(), d);
                            self.record(index, command, String::new(), true);
                            self.waiting = Some(Waiting::Sleep {
                                until,
                                since: self.position(),
                                index,
                            });
                            continue;
                        }
                    }
                    // Only a waiting command goes to kubectl directly: running any other
                    // one here and again below would apply it twice.
                    let waits = kubectl::parse(&command)
                        .is_ok_and(|c| c.verb == kubectl::Verb::RolloutStatus);
                    if waits {
                        let mut r = kubectl::run(&mut self.session, &command);
                        if let Some(wait) = r.wait.take() {
                            let deadline = plus(self.session.cluster.now(), wait_limit(&wait));
                            self.waiting = Some(Waiting::Rollout {
                                wait: Box::new(wait),
                                deadline,
                                output: r.stdout,
                                index,
                                since: self.position(),
                            });
                            self.poll_rollout(false);
                            continue;
                        }
                    }
                    let r = run_line(&mut self.session, &command);
                    self.record(index, command, r.output, r.ok);
                }
            }
            self.line_done = self.position();
        }
    }

    /// Polls a pending rollout wait; records and clears it when it ends. The deadline is only
    /// checked after an event, as the batch runner does, so that how time was moved between
    /// events does not matter.
    fn poll_rollout(&mut self, after_event: bool) {
        let Some(Waiting::Rollout {
            mut wait,
            deadline,
            mut output,
            index,
            since,
        }) = self.waiting.take()
        else {
            return;
        };
        let command = self
            .scenario
            .script
            .get(index)
            .map(|l| match &l.step {
                Step::Run(c) => c.clone(),
                Step::Expect { command, .. } => command.clone(),
            })
            .unwrap_or_default();
        match absorb_wait(wait.poll(&self.session), &mut output) {
            Some(ended_ok) => {
                let t = self.seconds_at(since.at);
                self.record_at(t, index, command, output, ended_ok);
                self.line_done = self.position();
            }
            None if after_event && self.session.cluster.now() > deadline => {
                output.push_str(TIMED_OUT);
                let t = self.seconds_at(since.at);
                self.record_at(t, index, command, output, false);
                self.line_done = self.position();
            }
            None => {
                self.waiting = Some(Waiting::Rollout {
                    wait,
                    deadline,
                    output,
                    index,
                    since,
                });
            }
        }
    }

    /// Ends every sleep that is over by `limit` (None: before the next event) and that no
    /// pending event at or before its end holds back, running the lines after it.
    fn settle_sleeps(&mut self, limit: Option<Timestamp>) {
        loop {
            let Some(Waiting::Sleep { until, .. }) = &self.waiting else {
                return;
            };
            let until = *until;
            let next = self.session.cluster.next_event_time();
            if limit.is_some_and(|l| until > l) || next.is_some_and(|n| n <= until) {
                return;
            }
            self.set_clock(until);
            self.waiting = None;
            self.line_done = self.position();
            self.run_due_lines();
        }
    }

    /// Sets the clock forward to `t` (no event may be due before it).
    fn set_clock(&mut self, t: Timestamp) {
        let now = self.session.cluster.now();
        if t > now {
            self.session.cluster.advance(duration_between(now, t));
        }
    }

    /// Processes the next simulation event (after the sleeps that end before it, and with the
    /// script lines it unblocks). Returns what happened, or None when nothing is scheduled.
    pub fn step(&mut self) -> Option<StepReport> {
        self.settle_sleeps(None);
        let report = self.session.cluster.step()?;
        self.events += 1;
        if matches!(self.waiting, Some(Waiting::Rollout { .. })) {
            self.poll_rollout(true);
        }
        if self.waiting.is_none() {
            self.run_due_lines();
        }
        let now = self.session.cluster.now();
        self.settle_sleeps(Some(now));
        Some(report)
    }

    /// When the next event is due, if any.
    pub fn next_event_time(&self) -> Option<Timestamp> {
        self.session.cluster.next_event_time()
    }

    /// Moves virtual time forward to `t` seconds since the start, running events and script
    /// lines in order. Bounded: never runs more than `max_events` events in one call (returns
    /// false if it stopped early, so a UI frame stays short).
    pub fn advance_to(&mut self, t: f64, max_events: usize) -> bool {
        let target = self.instant(t);
        self.advance_to_instant(target, max_events)
    }

    /// [`Playback::advance_to`] with an exact target.
    pub fn advance_to_instant(&mut self, target: Timestamp, max_events: usize) -> bool {
        let mut events = 0;
        loop {
            self.settle_sleeps(Some(target));
            match self.session.cluster.next_event_time() {
                Some(n) if n <= target => {
                    if events >= max_events {
                        return false;
                    }
                    self.step();
                    events += 1;
                }
                _ => {
                    self.set_clock(target);
                    return true;
                }
            }
        }
    }

    /// Runs every event still due at the current instant (a bounded `advance_to` may have
    /// stopped between two events of the same nanosecond).
    pub fn complete_instant(&mut self) {
        let now = self.session.cluster.now();
        self.advance_to_instant(now, usize::MAX);
    }

    /// Runs a read-only command (`kubectl get`, `describe`, `rollout status|history`) against
    /// the cluster now, recording nothing. `rollout status` prints its current progress and
    /// does not wait (time moves with the transport). An edit is refused with an error.
    pub fn run_readonly(&mut self, command: &str) -> Result<Record, CommandError> {
        if command_kind(command) != CommandKind::ReadOnly {
            return Err(CommandError {
                command: command.to_string(),
                output: format!(
                    "error: {command:?} changes the cluster\n  hint: run it as an edit (Playback::inject) so that it is recorded in the script\n"
                ),
            });
        }
        let r = crate::run::run_without_waiting(&mut self.session, command);
        Ok(Record {
            t: self.elapsed(),
            command: command.to_string(),
            output: r.output,
            ok: r.ok,
            line: 0,
        })
    }

    /// What the terminal runs: a read-only command is only run, anything else is an edit.
    pub fn run_command(&mut self, command: &str) -> Result<Record, CommandError> {
        match command_kind(command) {
            CommandKind::ReadOnly => self.run_readonly(command),
            CommandKind::Edit => self.inject(command),
        }
    }

    /// Runs an edit now and records it in `scenario.script` at the current virtual time, so
    /// that playing the edited scenario from the start reaches exactly this state:
    /// - during a `sleep`: the sleep is split (`sleep <elapsed>`, the command, `sleep <rest>`);
    /// - during `kubectl rollout status`: `sleep <elapsed>`, the command, then the same
    ///   `rollout status` line again (it waits anew: its output may differ, the cluster not);
    /// - after the script: `sleep <since the last line ended>`, then the command.
    ///
    /// The `sleep` is left out when nothing happened since the line started. Events still due
    /// at this very nanosecond run first. A failing command (kubectl's error, a bad verb)
    /// changes nothing and records nothing; read-only commands run without being recorded.
    pub fn inject(&mut self, command: &str) -> Result<Record, CommandError> {
        self.inject_spliced(command).map(|(r, _)| r)
    }

    pub(crate) fn inject_spliced(
        &mut self,
        command: &str,
    ) -> Result<(Record, Option<Splice>), CommandError> {
        let command = command.trim();
        let err = |output: String| CommandError {
            command: command.to_string(),
            output,
        };
        let words = kubectl::split_words(command).map_err(|e| err(format!("{e}\n")))?;
        match words.first().map(String::as_str) {
            None => return Err(err("error: empty command\n".into())),
            Some("sleep") => {
                return Err(err(
                    "error: sleep is not an edit\n  hint: time moves with the play, step and seek controls\n"
                        .into(),
                ))
            }
            Some("expect:") => return Err(err("error: expect: is only for scenario files\n".into())),
            _ => {}
        }
        if command_kind(command) == CommandKind::ReadOnly {
            return self.run_readonly(command).map(|r| (r, None));
        }
        let before = self.clone();
        match self.run_spliced(command) {
            Ok((r, splice)) => Ok((r, Some(splice))),
            Err(output) => {
                *self = before;
                Err(err(output))
            }
        }
    }

    /// Several edits at this instant, in order, as [`Playback::inject`] runs one, but with one
    /// copy of the playback for all of them (a copy per edit made adding 1,000 nodes to a
    /// 4,000-node cluster take seconds). Returns the records of those that ran, the splice of
    /// the first, and the error of the first that failed: the ones before it stay.
    pub(crate) fn inject_all_spliced(
        &mut self,
        commands: &[String],
    ) -> (Vec<Record>, Option<Splice>, Option<CommandError>) {
        let before = self.clone();
        let mut records = Vec::new();
        let mut first = None;
        for (i, command) in commands.iter().enumerate() {
            let command = command.trim();
            if !is_plain_edit(command) {
                // Read-only lines and refused verbs: exactly as `inject` treats them.
                match self.inject_spliced(command) {
                    Ok((r, s)) => {
                        records.push(r);
                        first = first.or(s);
                    }
                    Err(e) => return (records, first, Some(e)),
                }
                continue;
            }
            match self.run_spliced(command) {
                Ok((r, s)) => {
                    records.push(r);
                    first.get_or_insert(s);
                }
                Err(_) => {
                    // Undo the failed one exactly as `inject` would: from the copy, the ones
                    // before it again (they ran from this state before), then it alone.
                    *self = before;
                    let (records, first, _) = self.inject_all_spliced(&commands[..i]);
                    let failed = self.inject_spliced(command).err();
                    return (records, first, failed);
                }
            }
        }
        (records, first, None)
    }

    /// Splices `command` into the script here and runs it: its record, or its output when it
    /// failed (the playback is then half-changed: the caller restores its copy).
    fn run_spliced(&mut self, command: &str) -> Result<(Record, Splice), String> {
        self.complete_instant();
        let splice = self.splice(command);
        let first = self.log.len();
        self.run_due_lines();
        let now = self.session.cluster.now();
        self.settle_sleeps(Some(now));
        match self.log.get(first).cloned() {
            Some(r) if r.ok && r.command == command => Ok((r, splice)),
            Some(r) => Err(r.output),
            None => Err("error: the command did not run\n".into()),
        }
    }

    /// Writes `command` into the script at the current position and points the playback at
    /// it (it runs next).
    fn splice(&mut self, command: &str) -> Splice {
        let at = self.position();
        let line = |s: String| ScriptLine {
            line: 0,
            column: 0,
            step: Step::Run(s),
        };
        let cmd = line(command.to_string());
        let (index, since, sleep, lines, kind) = match self.waiting.take() {
            Some(Waiting::Sleep {
                until,
                since,
                index,
            }) => {
                let sleep = self.sleep_since(since);
                let rest = format!("sleep {}", format_duration(duration_between(at.at, until)));
                let mut lines = Vec::new();
                if let Some(s) = &sleep {
                    lines.push(line(s.clone()));
                    if let Some(r) = self.log.last_mut() {
                        r.command = s.clone();
                        r.line = 0;
                    }
                } else {
                    self.log.pop();
                }
                lines.push(cmd);
                lines.push(line(rest));
                (index, since, sleep, lines, SpliceKind::SplitSleep)
            }
            Some(Waiting::Rollout { index, since, .. }) => {
                let sleep = self.sleep_since(since);
                let mut lines = Vec::new();
                if let Some(s) = &sleep {
                    lines.push(line(s.clone()));
                    self.log_slept(since, s);
                }
                lines.push(cmd);
                if let Some(original) = self.scenario.script.get(index).cloned() {
                    lines.push(original);
                }
                (index, since, sleep, lines, SpliceKind::SplitRollout)
            }
            None => return self.append_after_gap(vec![cmd]),
        };
        // The waiting line is replaced by what was slept of it, the command, and the rest.
        self.next_line = index + usize::from(sleep.is_some());
        self.scenario.script.splice(index..=index, lines);
        Splice {
            at,
            index,
            since,
            sleep,
            kind,
        }
    }

    /// Logs a `sleep` line written into the script, as run from `since`.
    fn log_slept(&mut self, since: Position, sleep: &str) {
        self.log.push(Record {
            t: self.seconds_at(since.at),
            command: sleep.to_string(),
            output: String::new(),
            ok: true,
            line: 0,
        });
    }

    /// The `sleep` line from `since` to now; None when nothing happened in between.
    fn sleep_since(&self, since: Position) -> Option<String> {
        let at = self.position();
        (since != at).then(|| {
            format!(
                "sleep {}",
                format_duration(duration_between(since.at, at.at))
            )
        })
    }

    /// Appends `lines` to a script that is done (nothing waiting), after a `sleep` for the
    /// time since its last line ended, and points the playback at the first of them.
    fn append_after_gap(&mut self, lines: Vec<ScriptLine>) -> Splice {
        let at = self.position();
        let index = self.scenario.script.len();
        let since = self.line_done;
        let sleep = self.sleep_since(since);
        if let Some(s) = &sleep {
            self.scenario.script.push(ScriptLine {
                line: 0,
                column: 0,
                step: Step::Run(s.clone()),
            });
            self.log_slept(since, s);
        }
        self.scenario.script.extend(lines);
        self.next_line = index + usize::from(sleep.is_some());
        Splice {
            at,
            index,
            since,
            sleep,
            kind: SpliceKind::Append,
        }
    }

    /// Plays script lines from now on, as the scenario's own script plays them (they may
    /// `sleep` and wait, which an edit may not): a lesson step's `run:` lines. They are
    /// appended to the script — when it is done, after a `sleep` for the time since its last
    /// line, so that playing the scenario from the start reaches this state; while it still
    /// runs, after its last line — and the first of them runs now if nothing is waiting.
    pub(crate) fn append_lines(&mut self, lines: &[ScriptLine]) -> Splice {
        self.complete_instant();
        if !self.script_done() {
            let at = self.position();
            let index = self.scenario.script.len();
            self.scenario.script.extend_from_slice(lines);
            // Nothing ran: earlier copies only learn the longer script.
            return Splice {
                at,
                index,
                since: at,
                sleep: None,
                kind: SpliceKind::Append,
            };
        }
        let splice = self.append_after_gap(lines.to_vec());
        self.run_due_lines();
        let now = self.session.cluster.now();
        self.settle_sleeps(Some(now));
        splice
    }

    /// Brings a copy of this playback taken before an edit (at a position before
    /// `splice.at`) in line with the edited scenario: afterwards it is exactly what playing the
    /// edited scenario to its position gives.
    pub(crate) fn rebase(&mut self, splice: &Splice, scenario: &Scenario) {
        self.scenario = scenario.clone();
        self.session.files = scenario.files.clone();
        let Some(sleep) = &splice.sleep else {
            // Nothing happened between the line and the edit: no earlier copy is inside it.
            return;
        };
        let inside = match (&self.waiting, splice.kind) {
            (Some(Waiting::Sleep { index, since, .. }), SpliceKind::SplitSleep) => {
                *index == splice.index && *since == splice.since
            }
            (Some(Waiting::Rollout { index, since, .. }), SpliceKind::SplitRollout) => {
                *index == splice.index && *since == splice.since
            }
            (None, SpliceKind::Append) => {
                self.next_line == splice.index && self.line_done == splice.since
            }
            _ => false,
        };
        if !inside {
            return;
        }
        match splice.kind {
            SpliceKind::SplitSleep => {
                if let Some(r) = self.log.last_mut() {
                    r.command = sleep.clone();
                    r.line = 0;
                }
            }
            SpliceKind::SplitRollout | SpliceKind::Append => self.log_slept(splice.since, sleep),
        }
        self.next_line = splice.index + 1;
        self.waiting = Some(Waiting::Sleep {
            until: splice.at.at,
            since: splice.since,
            index: splice.index,
        });
    }

    /// Decodes and validates a manifest from the YAML editor; if it is valid, stores it as a
    /// new file of the scenario (`edit-N.yaml`: earlier lines keep reading earlier files) and
    /// injects `kubectl apply -f` it. An invalid manifest changes nothing and returns every
    /// diagnostic found (line, column, message, hint).
    pub fn apply_manifest(&mut self, yaml: &str) -> Result<Record, Vec<crate::edit::Diagnostic>> {
        self.apply_manifest_spliced(yaml).map(|(r, _)| r)
    }

    pub(crate) fn apply_manifest_spliced(
        &mut self,
        yaml: &str,
    ) -> Result<(Record, Option<Splice>), Vec<crate::edit::Diagnostic>> {
        let name = crate::edit::next_file_name(&self.scenario.files);
        let diags = crate::edit::diagnose(&name, yaml);
        if !diags.is_empty() {
            return Err(diags);
        }
        let before_files = self.scenario.files.clone();
        self.scenario.files.insert(name.clone(), yaml.to_string());
        self.session.files.insert(name.clone(), yaml.to_string());
        match self.inject_spliced(&format!("kubectl apply -f {name}")) {
            Ok(r) => Ok(r),
            Err(e) => {
                self.scenario.files = before_files.clone();
                self.session.files = before_files;
                Err(vec![crate::edit::Diagnostic {
                    line: 1,
                    column: 1,
                    message: e.output.trim().to_string(),
                    hint: None,
                }])
            }
        }
    }
}

fn seconds_between(a: Timestamp, b: Timestamp) -> f64 {
    b.duration_since(a).as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f4_at(t: f64) -> Playback {
        let p = crate::presets::get("f4-rolling-update-max-unavailable-1").expect("preset");
        let mut play = Playback::new(crate::parse(p.file, p.text).expect("parses")).expect("ok");
        play.advance_to(t, usize::MAX);
        play
    }

    #[test]
    fn a_failing_command_in_a_batch_leaves_the_ones_before_it_as_injecting_each_would() {
        let commands: Vec<String> = ["node add a1", "node add a1", "node add a2"]
            .map(String::from)
            .to_vec();
        let mut batch = f4_at(7.25);
        let (records, splice, failed) = batch.inject_all_spliced(&commands);
        let mut one = f4_at(7.25);
        one.inject("node add a1").expect("runs");
        let refused = one
            .inject("node add a1")
            .expect_err("a second a1 is refused");
        assert_eq!(records.len(), 1);
        assert!(splice.is_some());
        assert_eq!(failed, Some(refused));
        assert_eq!(batch.log, one.log);
        assert_eq!(batch.scenario.script, one.scenario.script);
        assert_eq!(batch.position(), one.position());
        assert_eq!(
            batch.session.cluster.nodes().len(),
            one.session.cluster.nodes().len()
        );
    }
}
