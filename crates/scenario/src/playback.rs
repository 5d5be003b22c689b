//! Playing a scenario live: the script and the simulation interleaved on one virtual clock, so
//! a viewer can move time forward in small steps (animation frames) and see each script line
//! take effect at its turn. `run` is the batch version of the same semantics.
//!
//! Semantics: lines run in order; a line that does not wait runs at once; `sleep D` lets the
//! cluster run for D before the next line; `kubectl rollout status` lets it run until the
//! rollout is done (or [`crate::run::WAIT_LIMIT`]). After the last line the cluster keeps
//! running for as long as the viewer advances time.

use cluster::StepReport;
use kubectl::Wait;

use crate::format::{Scenario, ScenarioError, Step};
use crate::run::{absorb_wait, parse_duration, run_line, start, Record, TIMED_OUT, WAIT_LIMIT};
use crate::session::Session;

#[derive(Debug, Clone)]
enum Waiting {
    Sleep {
        until: f64,
    },
    Rollout {
        wait: Box<Wait>,
        deadline: f64,
        output: String,
        index: usize,
    },
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
}

impl Playback {
    /// Starts the scenario and runs the lines due at time zero.
    pub fn new(scenario: Scenario) -> Result<Playback, ScenarioError> {
        let session = start(&scenario)?;
        let mut p = Playback {
            scenario,
            session,
            next_line: 0,
            waiting: None,
            log: Vec::new(),
        };
        p.run_due_lines();
        Ok(p)
    }

    /// Virtual seconds since the start.
    pub fn elapsed(&self) -> f64 {
        self.session.cluster.elapsed_seconds()
    }

    /// Whether every script line has run.
    pub fn script_done(&self) -> bool {
        self.next_line >= self.scenario.script.len() && self.waiting.is_none()
    }

    /// The script line running or next to run (index into `scenario.script`).
    pub fn current_line(&self) -> Option<usize> {
        match &self.waiting {
            Some(Waiting::Rollout { index, .. }) => Some(*index),
            _ => (self.next_line < self.scenario.script.len()).then_some(self.next_line),
        }
    }

    fn record(&mut self, index: usize, command: String, output: String, ok: bool) {
        let line = self.scenario.script.get(index).map_or(0, |l| l.line);
        self.log.push(Record {
            t: self.elapsed(),
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
                            let until = self.elapsed() + d.as_secs_f64();
                            self.record(index, command, String::new(), true);
                            self.waiting = Some(Waiting::Sleep { until });
                            continue;
                        }
                    }
                    if words.first().map(String::as_str) == Some("kubectl") {
                        let mut r = kubectl::run(&mut self.session, &command);
                        if let Some(wait) = r.wait.take() {
                            self.waiting = Some(Waiting::Rollout {
                                wait: Box::new(wait),
                                deadline: self.elapsed() + WAIT_LIMIT.as_secs_f64(),
                                output: r.stdout,
                                index,
                            });
                            self.poll_rollout();
                            continue;
                        }
                    }
                    let r = run_line(&mut self.session, &command);
                    self.record(index, command, r.output, r.ok);
                }
            }
        }
    }

    /// Polls a pending rollout wait; records and clears it when it ends.
    fn poll_rollout(&mut self) {
        let Some(Waiting::Rollout {
            mut wait,
            deadline,
            mut output,
            index,
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
            Some(ended_ok) => self.record(index, command, output, ended_ok),
            None if self.elapsed() > deadline => {
                output.push_str(TIMED_OUT);
                self.record(index, command, output, false);
            }
            None => {
                self.waiting = Some(Waiting::Rollout {
                    wait,
                    deadline,
                    output,
                    index,
                });
            }
        }
    }

    /// Processes the next simulation event (and the script lines it unblocks). Returns what
    /// happened, or None when nothing is scheduled.
    pub fn step(&mut self) -> Option<StepReport> {
        let sleep_until = match &self.waiting {
            Some(Waiting::Sleep { until }) => Some(*until),
            _ => None,
        };
        let next = self
            .session
            .cluster
            .next_event_time()
            .map(|t| seconds_between(self.session.cluster.start_time(), t));
        if let (Some(until), Some(n)) = (sleep_until, next) {
            if until <= n {
                self.advance_clock_to(until);
                self.waiting = None;
                self.run_due_lines();
                return None;
            }
        }
        let report = self.session.cluster.step();
        self.after_progress();
        report
    }

    fn after_progress(&mut self) {
        match &self.waiting {
            Some(Waiting::Rollout { .. }) => self.poll_rollout(),
            Some(Waiting::Sleep { until }) if self.elapsed() >= *until - 1e-9 => {
                self.waiting = None
            }
            _ => {}
        }
        if self.waiting.is_none() {
            self.run_due_lines();
        }
    }

    fn advance_clock_to(&mut self, t: f64) {
        let d = t - self.elapsed();
        if d > 0.0 {
            // Round up to whole nanoseconds (the clock's resolution) so the target is reached.
            let nanos = (d * 1e9).ceil().min(u64::MAX as f64) as u64;
            self.session
                .cluster
                .advance(std::time::Duration::from_nanos(nanos.max(1)));
        }
    }

    /// Moves virtual time forward to `t` seconds since the start, running events and script
    /// lines in order. Bounded: never runs more than `max_events` events in one call (returns
    /// false if it stopped early, so a UI frame stays short).
    pub fn advance_to(&mut self, t: f64, max_events: usize) -> bool {
        let mut events = 0;
        loop {
            // The clock has nanosecond resolution: closer than that is there.
            if self.elapsed() >= t - 1e-9 {
                return true;
            }
            let sleep_until = match &self.waiting {
                Some(Waiting::Sleep { until }) => Some(*until),
                _ => None,
            };
            let next = self
                .session
                .cluster
                .next_event_time()
                .map(|e| seconds_between(self.session.cluster.start_time(), e));
            let horizon = sleep_until.map_or(t, |u| u.min(t));
            match next {
                Some(n) if n <= horizon => {
                    if events >= max_events {
                        return false;
                    }
                    self.session.cluster.step();
                    events += 1;
                    self.after_progress();
                }
                _ => {
                    self.advance_clock_to(horizon);
                    self.after_progress();
                }
            }
        }
    }
}

fn seconds_between(a: k8s_openapi::jiff::Timestamp, b: k8s_openapi::jiff::Timestamp) -> f64 {
    b.duration_since(a).as_secs_f64()
}
