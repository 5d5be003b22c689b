//! Time travel over a live [`Playback`]: step forward to the next visible change (with its
//! caption), step back to the previous one, seek anywhere between the start and the furthest
//! time reached, reset; edits that rewrite the future.
//!
//! The state at a [`Position`] is a pure function of the scenario (DESIGN §3), so going back is
//! restoring the nearest earlier checkpoint (a clone of the playback) and replaying from it.
//! Checkpoints are taken every `spacing` events; past [`MAX_CHECKPOINTS`] every other one is
//! dropped and the spacing doubles, so memory stays bounded and a replay never runs more than
//! `spacing` events. The timeline also records what the time controls show: the visible changes
//! ([`Mark`], with a [`Caption`]) and the counter samples of the chart ([`Sample`]).
//!
//! Knows nothing of the UI; decides nothing about the cluster.

use cluster::Cluster;

use crate::caption::{caption, Caption};
use crate::edit::Diagnostic;
use crate::format::{Scenario, ScenarioError};
use crate::playback::{CommandError, Playback, Position, Splice};
use crate::run::Record;

/// Most checkpoints kept (beyond the start).
pub const MAX_CHECKPOINTS: usize = 32;
/// Events between two checkpoints at first.
pub const FIRST_SPACING: u64 = 64;
/// Most events one step forward looks through for a visible change.
pub const MAX_STEP_EVENTS: usize = 200_000;

/// A visible change: where it left the cluster, and what it was.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    pub position: Position,
    pub caption: Caption,
}

/// The counters of one DaemonSet, as the chart plots them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SampleCounts {
    pub namespace: String,
    pub name: String,
    pub desired: i32,
    pub current: i32,
    pub ready: i32,
    pub up_to_date: i32,
    pub available: i32,
    pub unavailable: i32,
}

/// Every DaemonSet's counters from `t` (virtual seconds) on, until the next sample.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    pub t_nanos: u64,
    pub daemon_sets: Vec<SampleCounts>,
}

impl Sample {
    /// Virtual seconds since the start.
    pub fn t(&self) -> f64 {
        self.t_nanos as f64 / 1e9
    }
}

fn counts(c: &Cluster) -> Vec<SampleCounts> {
    c.daemon_sets()
        .iter()
        .map(|d| {
            let s = d.status.clone().unwrap_or_default();
            SampleCounts {
                namespace: d.metadata.namespace.clone().unwrap_or_default(),
                name: d.metadata.name.clone().unwrap_or_default(),
                desired: s.desired_number_scheduled,
                current: s.current_number_scheduled,
                ready: s.number_ready,
                up_to_date: s.updated_number_scheduled.unwrap_or(0),
                available: s.number_available.unwrap_or(0),
                unavailable: s.number_unavailable.unwrap_or(0),
            }
        })
        .collect()
}

/// A playback with a past.
#[derive(Debug, Clone)]
pub struct Timeline {
    play: Playback,
    /// Sorted by position; the first is the start.
    checkpoints: Vec<Playback>,
    spacing: u64,
    marks: Vec<Mark>,
    samples: Vec<Sample>,
    horizon: Position,
    /// What has been looked at: trace length and counters after the last observation.
    seen_trace: usize,
    seen_counts: Vec<SampleCounts>,
}

impl Timeline {
    /// Starts the scenario (the lines due at zero run).
    pub fn new(scenario: Scenario) -> Result<Timeline, ScenarioError> {
        Ok(Timeline::from_playback(Playback::new(scenario)?))
    }

    /// A timeline whose start is this playback.
    pub fn from_playback(play: Playback) -> Timeline {
        let seen_counts = counts(&play.session.cluster);
        let mut t = Timeline {
            checkpoints: vec![play.clone()],
            spacing: FIRST_SPACING,
            marks: Vec::new(),
            samples: Vec::new(),
            horizon: play.position(),
            seen_trace: play.session.cluster.trace().len(),
            seen_counts,
            play,
        };
        t.sample();
        t
    }

    /// The live playback (read it; move time through the timeline).
    pub fn playback(&self) -> &Playback {
        &self.play
    }

    /// The cluster now.
    pub fn cluster(&self) -> &Cluster {
        &self.play.session.cluster
    }

    /// The scenario with every edit so far.
    pub fn scenario(&self) -> &Scenario {
        &self.play.scenario
    }

    /// Virtual seconds now.
    pub fn elapsed(&self) -> f64 {
        self.play.elapsed()
    }

    /// The furthest virtual time reached (the scrubber's end), in seconds.
    pub fn horizon(&self) -> f64 {
        self.play.seconds_at(self.horizon.at)
    }

    /// The visible changes seen so far (up to the horizon), oldest first.
    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// The caption of the latest visible change at or before now.
    pub fn last_caption(&self) -> Option<&Caption> {
        let now = self.play.position();
        let i = self.marks.partition_point(|m| m.position <= now);
        i.checked_sub(1).map(|i| &self.marks[i].caption)
    }

    /// Counter samples up to the horizon, one per change of any counter.
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }

    /// How many checkpoints are held, and the events between two of them.
    pub fn checkpoint_stats(&self) -> (usize, u64) {
        (self.checkpoints.len(), self.spacing)
    }

    fn nanos(&self, at: k8s_openapi::jiff::Timestamp) -> u64 {
        let d = at.duration_since(self.play.session.cluster.start_time());
        u64::try_from(d.as_nanos()).unwrap_or(0)
    }

    fn sample(&mut self) {
        let counts = counts(&self.play.session.cluster);
        let t_nanos = self.nanos(self.play.session.cluster.now());
        match self.samples.last() {
            Some(last) if last.t_nanos > t_nanos => return,
            Some(last) if last.daemon_sets == counts => return,
            _ => {}
        }
        if self.samples.last().is_some_and(|l| l.t_nanos == t_nanos) {
            self.samples.pop();
        }
        if self.samples.last().is_some_and(|l| l.daemon_sets == counts) {
            return;
        }
        self.samples.push(Sample {
            t_nanos,
            daemon_sets: counts,
        });
    }

    /// Looks at what the last move did: records a mark (with its caption) and a sample when
    /// something visible changed, a checkpoint when due, and the horizon.
    fn observe(
        &mut self,
        report: Option<&cluster::StepReport>,
        log_from: usize,
    ) -> Option<Caption> {
        let pos = self.play.position();
        let c = &self.play.session.cluster;
        let trace = c.trace();
        let from = self.seen_trace.min(trace.len());
        let counts = counts(c);
        let counters = counts != self.seen_counts;
        let known = self.marks.last().is_some_and(|m| m.position >= pos);
        let lines = self.play.log.get(log_from..).unwrap_or(&[]);
        let cap = if known {
            // Replaying a stretch already seen: reuse its caption.
            self.marks
                .binary_search_by(|m| m.position.cmp(&pos))
                .ok()
                .map(|i| self.marks[i].caption.clone())
        } else {
            caption(
                self.play.elapsed(),
                report,
                &trace[..from],
                &trace[from..],
                lines,
                counters,
                c,
            )
        };
        self.seen_trace = trace.len();
        self.seen_counts = counts;
        if let Some(cap) = &cap {
            if !known {
                self.marks.push(Mark {
                    position: pos,
                    caption: cap.clone(),
                });
            }
        }
        if counters && pos > self.horizon {
            self.sample();
        }
        if self
            .checkpoints
            .last()
            .is_some_and(|l| pos.events >= l.position().events + self.spacing)
        {
            self.checkpoint();
        }
        if pos > self.horizon {
            self.horizon = pos;
        }
        cap
    }

    fn checkpoint(&mut self) {
        self.checkpoints.push(self.play.clone());
        if self.checkpoints.len() > MAX_CHECKPOINTS + 1 {
            // Keep the start and every other one after it.
            let mut i = 0;
            self.checkpoints.retain(|_| {
                i += 1;
                i == 1 || i % 2 == 0
            });
            self.spacing = self.spacing.saturating_mul(2);
        }
    }

    fn steps_observed(&mut self) -> Option<(Option<cluster::StepReport>, Option<Caption>)> {
        let log_from = self.play.log.len();
        let report = self.play.step()?;
        let cap = self.observe(Some(&report), log_from);
        Some((Some(report), cap))
    }

    /// Moves time forward to `t` (seconds since the start), running at most `max_events`
    /// events (false if it stopped early). Records marks, samples and checkpoints on the way.
    pub fn advance_to(&mut self, t: f64, max_events: usize) -> bool {
        let target = self.play.instant(t);
        self.advance_to_instant(target, max_events)
    }

    fn advance_to_instant(&mut self, target: k8s_openapi::jiff::Timestamp, max: usize) -> bool {
        let mut n = 0;
        loop {
            let log_from = self.play.log.len();
            let done = self.play.advance_to_instant(target, 0);
            // Sleeps that ended ran script lines.
            self.observe(None, log_from);
            if done {
                return true;
            }
            if n >= max {
                return false;
            }
            self.steps_observed();
            n += 1;
        }
    }

    /// Runs events up to the next visible change and says what it was. None when none can
    /// come (the script is done and the cluster at rest) or none came within
    /// [`MAX_STEP_EVENTS`] events.
    pub fn step_forward(&mut self) -> Option<Caption> {
        for _ in 0..MAX_STEP_EVENTS {
            if self.play.script_done() && self.play.session.cluster.is_settled() {
                return None;
            }
            match self.steps_observed() {
                None => return None,
                Some((_, Some(cap))) => return Some(cap),
                Some((_, None)) => {}
            }
        }
        None
    }

    /// Goes back to the previous visible change (the state right after it), exactly. At the
    /// first change, goes back to the start. Returns the caption of the change now shown.
    pub fn step_back(&mut self) -> Option<Caption> {
        let now = self.play.position();
        let i = self.marks.partition_point(|m| m.position < now);
        match i.checked_sub(1) {
            Some(i) => {
                let mark = self.marks[i].clone();
                self.restore(mark.position);
                Some(mark.caption)
            }
            None => {
                if let Some(start) = self.checkpoints.first() {
                    let p = start.position();
                    self.restore(p);
                }
                None
            }
        }
    }

    /// Goes to `t` seconds since the start: back by replaying from a checkpoint, forward by
    /// simulating (unbounded: keep `t` within the horizon in a UI frame).
    pub fn seek(&mut self, t: f64) {
        let target = self.play.instant(t);
        if target < self.play.session.cluster.now() {
            let i = self
                .checkpoints
                .partition_point(|c| c.session.cluster.now() <= target);
            let cp = self.checkpoints[i.saturating_sub(1)].clone();
            self.set_play(cp);
        } else if let Some(cp) = self
            .checkpoints
            .iter()
            .rev()
            .find(|c| c.session.cluster.now() <= target)
            .filter(|c| c.position() > self.play.position())
        {
            // A checkpoint further along is closer than the present.
            let cp = cp.clone();
            self.set_play(cp);
        }
        self.advance_to_instant(target, usize::MAX);
    }

    /// Back to the start (edits so far stay in the script and replay).
    pub fn reset(&mut self) {
        if let Some(start) = self.checkpoints.first().cloned() {
            self.set_play(start);
        }
    }

    fn set_play(&mut self, p: Playback) {
        self.seen_trace = p.session.cluster.trace().len();
        self.seen_counts = counts(&p.session.cluster);
        self.play = p;
    }

    /// Restores the state at `pos` (at or before the horizon) exactly.
    fn restore(&mut self, pos: Position) {
        let i = self.checkpoints.partition_point(|c| c.position() <= pos);
        let cp = self.checkpoints[i.saturating_sub(1)].clone();
        self.set_play(cp);
        while self.play.position().events < pos.events {
            if self.play.step().is_none() {
                break;
            }
        }
        self.play.advance_to_instant(pos.at, 0);
        self.seen_trace = self.play.session.cluster.trace().len();
        self.seen_counts = counts(&self.play.session.cluster);
    }

    /// Runs a read-only command (nothing recorded, nothing moves).
    pub fn run_readonly(&mut self, command: &str) -> Result<Record, CommandError> {
        self.play.run_readonly(command)
    }

    /// What the terminal runs: read-only commands run, edits are injected.
    pub fn run_command(&mut self, command: &str) -> Result<Record, CommandError> {
        match crate::playback::command_kind(command) {
            crate::playback::CommandKind::ReadOnly => self.run_readonly(command),
            crate::playback::CommandKind::Edit => self.inject(command),
        }
    }

    /// An edit now ([`Playback::inject`]): the future seen so far is discarded (marks, samples,
    /// checkpoints after now) and earlier checkpoints learn the new script.
    pub fn inject(&mut self, command: &str) -> Result<Record, CommandError> {
        self.complete_instant();
        let log_from = self.play.log.len();
        let (record, splice) = self.play.inject_spliced(command)?;
        if let Some(s) = splice {
            self.rewrite_future(&s, log_from);
        }
        Ok(record)
    }

    /// A manifest from the YAML editor ([`Playback::apply_manifest`]), as an edit now.
    pub fn apply_manifest(&mut self, yaml: &str) -> Result<Record, Vec<Diagnostic>> {
        self.complete_instant();
        let log_from = self.play.log.len();
        let (record, splice) = self.play.apply_manifest_spliced(yaml)?;
        if let Some(s) = splice {
            self.rewrite_future(&s, log_from);
        }
        Ok(record)
    }

    fn complete_instant(&mut self) {
        let now = self.play.session.cluster.now();
        self.advance_to_instant(now, usize::MAX);
    }

    fn rewrite_future(&mut self, s: &Splice, log_from: usize) {
        let scenario = self.play.scenario.clone();
        self.checkpoints.retain(|c| c.position() < s.at);
        for c in &mut self.checkpoints {
            c.rebase(s, &scenario);
        }
        if self.checkpoints.is_empty() {
            // The edit happened at the very start: the start is now the edited state.
            self.checkpoints.push(self.play.clone());
        }
        self.marks.retain(|m| m.position < s.at);
        let at = self.nanos(s.at.at);
        self.samples.retain(|x| x.t_nanos < at);
        self.horizon = s.at;
        // The edit itself is a visible change (a mark at its position), even when its effect
        // comes later (`node stop`).
        if self.observe(None, log_from).is_none() {
            let command = self
                .play
                .log
                .get(log_from..)
                .and_then(|l| l.iter().rfind(|r| !r.command.starts_with("sleep")))
                .map(|r| r.command.clone())
                .unwrap_or_default();
            self.marks.push(Mark {
                position: s.at,
                caption: Caption {
                    t: self.play.elapsed(),
                    actor: "you".into(),
                    text: format!("you: {command}"),
                },
            });
        }
        if self.checkpoints.last().is_some_and(|c| c.position() < s.at) {
            self.checkpoints.push(self.play.clone());
        }
        self.sample();
    }
}
