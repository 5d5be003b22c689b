//! Time travel over a live [`Playback`]: step forward to the next visible change (with its
//! caption), step back to the previous one, seek anywhere between the start and the furthest
//! time reached, reset; edits that rewrite the future.
//!
//! The state at a [`Position`] is a pure function of the scenario (DESIGN §3), so going back is
//! restoring the nearest earlier checkpoint (a clone of the playback) and replaying from it.
//! Two tiers bound both memory and the replay: sparse checkpoints over the whole history (every
//! `spacing` events; past the cap every other one is dropped and the spacing doubles) and a few
//! dense ones just behind where the viewer is (every `dense` events, fewer on bigger clusters,
//! rebuilt on the way when a replay lands elsewhere), so a step back replays at most `dense`
//! events. The trace is kept once, here ([`Timeline::trace`]), not in every checkpoint.
//!
//! With a [`Clock`] (natively always; in the page, the playground passes `performance.now`)
//! the dense tier is paced by cost instead of by event count: a dense checkpoint is taken once
//! the steps since the last checkpoint took [`DENSE_WORK_FACTOR`] times what the last clone
//! took. Events differ in cost by orders of magnitude (a pod bound on one node, a controller
//! sync walking 5,000), and so does a clone with the cluster's size: counting events either
//! clones the whole cluster every few hundred microseconds of play (5,000 nodes creating their
//! pods: 25× slower than playing) or replays long syncs on a step back. Where checkpoints fall
//! changes only speed, never a state: any checkpoint replays to the same one.
//!
//! The timeline also records what the time controls show: the visible changes ([`Mark`], with a
//! [`Caption`]) and the counter samples of the chart ([`Sample`]).
//!
//! Knows nothing of the UI; decides nothing about the cluster.

use cluster::{Cluster, TraceEntry};

use crate::caption::{caption, Caption};
use crate::edit::{Diagnostic, Edit};
use crate::format::{Scenario, ScenarioError};
use crate::playback::{CommandError, Playback, Position, Splice};
use crate::run::Record;

/// Most sparse checkpoints kept (beyond the start), on small clusters; fewer on big ones.
pub const MAX_CHECKPOINTS: usize = 32;
/// Dense checkpoints kept just behind the viewer.
pub const RECENT_CHECKPOINTS: usize = 8;
/// Events between two sparse checkpoints at first.
pub const FIRST_SPACING: u64 = 64;

/// Events between two dense checkpoints. Both a replayed event and a clone cost more on
/// bigger clusters; this keeps a step back near 30 ms and the clones near a quarter of the cost
/// of playing on 1,000 nodes (measured in `tests/timeline_scale.rs`).
fn dense_spacing(nodes: usize) -> u64 {
    (131_072 / nodes.max(1) as u64).clamp(32, 512)
}

/// Sparse checkpoints kept: a checkpoint's size grows with the cluster.
fn sparse_cap(nodes: usize) -> usize {
    (8_000 / nodes.max(1)).clamp(6, MAX_CHECKPOINTS)
}
/// With a clock, a dense checkpoint is due once the steps since the last checkpoint took this
/// many times what the last clone took (clones stay near a fifth of the cost of playing, and a
/// step back replays about this many clones' worth).
pub const DENSE_WORK_FACTOR: f64 = 4.0;
/// ... and not before this much stepping (milliseconds) on small clusters, whose clones are
/// nearly free.
pub const DENSE_MIN_WORK_MS: f64 = 2.0;

/// Milliseconds since some fixed origin, for pacing checkpoints by what they cost.
pub type Clock = fn() -> f64;

/// The native clock (the default outside the browser, where `std::time` has no clock).
#[cfg(not(target_arch = "wasm32"))]
fn native_clock() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3
}

#[cfg(not(target_arch = "wasm32"))]
const DEFAULT_CLOCK: Option<Clock> = Some(native_clock);
#[cfg(target_arch = "wasm32")]
const DEFAULT_CLOCK: Option<Clock> = None;

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

impl SampleCounts {
    /// The DaemonSet's status counters (an absent one reads as zero), as `kubectl get ds` and
    /// the view's table show them too.
    pub fn of(d: &k8s_openapi::api::apps::v1::DaemonSet) -> SampleCounts {
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
    }
}

fn counts(c: &Cluster) -> Vec<SampleCounts> {
    c.daemon_sets()
        .iter()
        .map(|d| SampleCounts::of(d))
        .collect()
}

/// A playback with a past.
#[derive(Debug, Clone)]
pub struct Timeline {
    play: Playback,
    /// Sorted by position; the first is the start.
    checkpoints: Vec<Playback>,
    spacing: u64,
    /// Dense checkpoints near the viewer, sorted by position.
    recent: Vec<Playback>,
    dense: u64,
    cap: usize,
    /// The trace up to the horizon, and where each entry was written.
    history: Vec<TraceEntry>,
    history_at: Vec<Position>,
    marks: Vec<Mark>,
    samples: Vec<Sample>,
    horizon: Position,
    /// The counters after the last observation.
    seen_counts: Vec<SampleCounts>,
    /// Paces dense checkpoints by cost; without one, every `dense` events.
    clock: Option<Clock>,
    /// Milliseconds spent stepping since the last checkpoint was taken or restored.
    work_ms: f64,
    /// Milliseconds the last checkpoint's clone took.
    clone_ms: f64,
}

impl Timeline {
    /// Starts the scenario (the lines due at zero run).
    pub fn new(scenario: Scenario) -> Result<Timeline, ScenarioError> {
        Ok(Timeline::from_playback(Playback::new(scenario)?))
    }

    /// A timeline whose start is this playback.
    pub fn from_playback(mut play: Playback) -> Timeline {
        let seen_counts = counts(&play.session.cluster);
        let history = play.session.cluster.take_trace();
        let history_at = vec![play.position(); history.len()];
        let nodes = play.session.cluster.nodes().len();
        let mut t = Timeline {
            checkpoints: vec![play.clone()],
            spacing: FIRST_SPACING,
            recent: Vec::new(),
            dense: dense_spacing(nodes),
            cap: sparse_cap(nodes),
            history,
            history_at,
            marks: Vec::new(),
            samples: Vec::new(),
            horizon: play.position(),
            seen_counts,
            play,
            clock: DEFAULT_CLOCK,
            work_ms: 0.0,
            clone_ms: 0.0,
        };
        t.sample();
        t
    }

    /// The live playback (read it; move time through the timeline). Its cluster's own trace
    /// is emptied as the timeline takes it over: read [`Timeline::trace`].
    pub fn playback(&self) -> &Playback {
        &self.play
    }

    /// The trace of every change up to now (DESIGN §4.2), as the cluster records it.
    pub fn trace(&self) -> &[TraceEntry] {
        let now = self.play.position();
        let cut = self.history_at.partition_point(|p| *p <= now);
        &self.history[..cut]
    }

    /// The cluster now.
    pub fn cluster(&self) -> &Cluster {
        &self.play.session.cluster
    }

    /// What a frame shows now ([`crate::view::cluster_view`]).
    pub fn view(&self) -> crate::view::ClusterView {
        crate::view::cluster_view(&self.play.session.cluster)
    }

    /// The events panel now, filtered by involved object ([`crate::view::event_rows`]).
    pub fn event_rows(&self, filter: Option<&str>) -> Vec<crate::view::EventRow> {
        crate::view::event_rows(&self.play.session.cluster, filter)
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

    /// Checkpoints held (sparse + dense), and the events between two sparse / dense ones (with
    /// a clock, the dense figure is the spacing of the last two dense checkpoints).
    pub fn checkpoint_stats(&self) -> (usize, u64, u64) {
        (
            self.checkpoints.len() + self.recent.len(),
            self.spacing,
            self.dense,
        )
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

    /// Looks at what the last move did: takes over the trace it wrote, records a mark (with
    /// its caption) and a sample when something visible changed, checkpoints when due, and the
    /// horizon.
    fn observe(
        &mut self,
        report: Option<&cluster::StepReport>,
        log_from: usize,
    ) -> Option<Caption> {
        self.observe_move(report, log_from, false)
    }

    fn observe_move(
        &mut self,
        report: Option<&cluster::StepReport>,
        log_from: usize,
        edited: bool,
    ) -> Option<Caption> {
        let pos = self.play.position();
        let entries = self.play.session.cluster.take_trace();
        let c = &self.play.session.cluster;
        let counts = counts(c);
        let counters = counts != self.seen_counts;
        let known = !edited && pos <= self.horizon;
        let cap = if known {
            // Replaying a stretch already seen: its caption, if it was a change.
            self.marks
                .binary_search_by(|m| m.position.cmp(&pos))
                .ok()
                .map(|i| self.marks[i].caption.clone())
        } else {
            let lines = self.play.log.get(log_from..).unwrap_or(&[]);
            caption(
                self.play.elapsed(),
                report,
                &self.history,
                &entries,
                lines,
                counters,
                c,
            )
        };
        self.seen_counts = counts;
        if !known {
            self.history_at
                .extend(std::iter::repeat_n(pos, entries.len()));
            self.history.extend(entries);
            if let Some(cap) = &cap {
                self.marks.push(Mark {
                    position: pos,
                    caption: cap.clone(),
                });
            }
            if counters {
                self.sample();
            }
            self.horizon = pos;
        }
        self.maybe_checkpoint();
        cap
    }

    /// Takes a sparse checkpoint past the last one when due, or a dense one behind the viewer.
    fn maybe_checkpoint(&mut self) {
        let pos = self.play.position();
        if self
            .checkpoints
            .last()
            .is_some_and(|l| pos.events >= l.position().events + self.spacing)
        {
            let copy = self.checkpoint();
            self.checkpoints.push(copy);
            if self.checkpoints.len() > self.cap + 1 {
                // Keep the start and every other one after it.
                let mut i = 0;
                self.checkpoints.retain(|_| {
                    i += 1;
                    i == 1 || i % 2 == 0
                });
                self.spacing = self.spacing.saturating_mul(2);
            }
            return;
        }
        let below = |v: &[Playback]| {
            let i = v.partition_point(|c| c.position() <= pos);
            i.checked_sub(1).map(|i| v[i].position().events)
        };
        let last = below(&self.checkpoints)
            .max(below(&self.recent))
            .unwrap_or(0);
        let due = match self.clock {
            Some(_) => {
                pos.events > last
                    && self.work_ms >= (DENSE_WORK_FACTOR * self.clone_ms).max(DENSE_MIN_WORK_MS)
            }
            None => pos.events >= last + self.dense,
        };
        if due {
            if self.clock.is_some() {
                self.dense = pos.events - last;
            }
            let i = self.recent.partition_point(|c| c.position() <= pos);
            let copy = self.checkpoint();
            self.recent.insert(i, copy);
            if self.recent.len() > RECENT_CHECKPOINTS {
                // Drop the one furthest from here.
                let first_gap = pos.events.saturating_sub(self.recent[0].position().events);
                let last_gap = self.recent[self.recent.len() - 1]
                    .position()
                    .events
                    .saturating_sub(pos.events);
                if last_gap > first_gap {
                    self.recent.pop();
                } else {
                    self.recent.remove(0);
                }
            }
        }
    }

    /// A clone of the playback, timed (the pace of the dense tier) when there is a clock.
    fn checkpoint(&mut self) -> Playback {
        let Some(clock) = self.clock else {
            return self.play.clone();
        };
        let t0 = clock();
        let copy = self.play.clone();
        self.clone_ms = clock() - t0;
        self.work_ms = 0.0;
        copy
    }

    /// One event, its cost counted towards the next dense checkpoint.
    fn step(&mut self) -> Option<cluster::StepReport> {
        let Some(clock) = self.clock else {
            return self.play.step();
        };
        let t0 = clock();
        let report = self.play.step();
        self.work_ms += clock() - t0;
        report
    }

    /// Paces dense checkpoints by what stepping and cloning cost, measured with `clock`
    /// (milliseconds); `None` paces them by event count (as the default does in the browser,
    /// where the standard library has no clock).
    pub fn set_clock(&mut self, clock: Option<Clock>) {
        self.clock = clock;
    }

    fn steps_observed(&mut self) -> Option<(Option<cluster::StepReport>, Option<Caption>)> {
        let log_from = self.play.log.len();
        let report = self.step()?;
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

    /// Whether nothing more will happen unless someone acts: the script is done and the
    /// cluster has nothing in flight ([`Cluster::is_settled`]).
    pub fn at_rest(&self) -> bool {
        self.play.script_done() && self.play.session.cluster.is_settled()
    }

    /// Runs events up to the next visible change and says what it was. None when none can
    /// come (the script is done and the cluster at rest) or none came within
    /// [`MAX_STEP_EVENTS`] events.
    pub fn step_forward(&mut self) -> Option<Caption> {
        for _ in 0..MAX_STEP_EVENTS {
            if self.at_rest() {
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
    /// simulating (unbounded: in a UI frame, keep `t` within the horizon or use
    /// [`Timeline::seek_within`]).
    pub fn seek(&mut self, t: f64) {
        self.seek_within(t, usize::MAX);
    }

    /// [`Timeline::seek`] simulating at most `max_events` events past the horizon (known
    /// territory is replayed whole). False when it stopped short of `t`: calling it again goes
    /// on from there, and the state reached in the end is the one `seek` reaches. So a link's
    /// far `&t=` (up to 30 days: at 500 nodes, minutes of simulation) never freezes the page.
    pub fn seek_within(&mut self, t: f64, max_events: usize) -> bool {
        let target = self.play.instant(t);
        let now = self.play.position();
        let back = target < now.at;
        if let Some(cp) = self
            .best_checkpoint(|c| c.session.cluster.now() <= target)
            .filter(|c| back || c.position() > now)
        {
            self.set_play(cp);
        }
        if target <= self.horizon.at {
            self.replay_known(target);
        }
        self.advance_to_instant(target, max_events)
    }

    /// Moves towards `target` (at or before the horizon's time) through territory already
    /// seen, as [`Timeline::restore`] does: its trace, marks and samples exist, so nothing is
    /// observed and no dense checkpoint is taken on the way (at 1,000 nodes each would be a
    /// clone of the whole cluster). Stops at the horizon; the state is the one observing
    /// would reach, since both run the same events.
    fn replay_known(&mut self, target: k8s_openapi::jiff::Timestamp) {
        loop {
            let done = self.play.advance_to_instant(target, 0);
            self.play.session.cluster.take_trace();
            if done || self.play.position() >= self.horizon || self.step().is_none() {
                break;
            }
            self.play.session.cluster.take_trace();
        }
        self.seen_counts = counts(&self.play.session.cluster);
    }

    /// Back to the start (edits so far stay in the script and replay).
    pub fn reset(&mut self) {
        if let Some(start) = self.checkpoints.first().cloned() {
            self.set_play(start);
        }
    }

    /// The latest checkpoint (sparse or dense) that `ok` accepts, cloned.
    fn best_checkpoint(&self, ok: impl Fn(&Playback) -> bool) -> Option<Playback> {
        let last = |v: &'_ [Playback]| v.iter().rev().find(|c| ok(c)).map(Playback::position);
        let (a, b) = (last(&self.checkpoints), last(&self.recent));
        let from_recent = matches!((a, b), (Some(a), Some(b)) if b > a) || a.is_none();
        let v = if from_recent {
            &self.recent
        } else {
            &self.checkpoints
        };
        v.iter().rev().find(|c| ok(c)).cloned()
    }

    fn set_play(&mut self, mut p: Playback) {
        // Known territory: the trace it writes is in the history already.
        p.session.cluster.take_trace();
        self.seen_counts = counts(&p.session.cluster);
        if self
            .recent
            .first()
            .is_some_and(|f| p.position() < f.position())
        {
            // Landing before the dense tier: rebuild it on the way from here.
            self.recent.clear();
        }
        self.play = p;
        self.work_ms = 0.0;
    }

    /// Restores the state at `pos` (at or before the horizon) exactly.
    fn restore(&mut self, pos: Position) {
        if let Some(cp) = self.best_checkpoint(|c| c.position() <= pos) {
            self.set_play(cp);
        }
        while self.play.position().events < pos.events {
            if self.step().is_none() {
                break;
            }
            self.play.session.cluster.take_trace();
            // Dense checkpoints only near the target, where the next steps back go.
            let left = pos.events.saturating_sub(self.play.position().events);
            if left <= RECENT_CHECKPOINTS as u64 * self.dense {
                self.maybe_checkpoint();
            }
        }
        self.play.advance_to_instant(pos.at, 0);
        self.play.session.cluster.take_trace();
        self.seen_counts = counts(&self.play.session.cluster);
    }

    /// Runs a read-only command (nothing recorded, nothing moves).
    pub fn run_readonly(&mut self, command: &str) -> Result<Record, CommandError> {
        self.play.run_readonly(command)
    }

    /// Whether a lesson task's check lines hold now ([`crate::lesson::evaluate`]): they only
    /// read, so nothing moves and nothing is recorded.
    pub fn check(&mut self, lines: &[crate::ScriptLine]) -> crate::lesson::CheckState {
        crate::lesson::evaluate(&mut self.play.session, lines)
    }

    /// What the terminal runs: read-only commands run, edits are injected.
    pub fn run_command(&mut self, command: &str) -> Result<Record, CommandError> {
        match crate::script::command_kind(command) {
            crate::script::CommandKind::ReadOnly => self.run_readonly(command),
            crate::script::CommandKind::Edit => self.inject(command),
        }
    }

    /// An edit now ([`Playback::inject`]): the future seen so far is discarded (marks, samples,
    /// checkpoints after now) and earlier checkpoints learn the new script.
    pub fn inject(&mut self, command: &str) -> Result<Record, CommandError> {
        self.edit_now(|play| play.inject_spliced(command))
    }

    /// One edit at this instant; if it changed the script, the future is rewritten from it.
    fn edit_now<E>(
        &mut self,
        edit: impl FnOnce(&mut Playback) -> Result<(Record, Option<Splice>), E>,
    ) -> Result<Record, E> {
        self.complete_instant();
        let log_from = self.play.log.len();
        let (record, splice) = edit(&mut self.play)?;
        if let Some(s) = splice {
            self.rewrite_future(&s, log_from);
        }
        Ok(record)
    }

    /// A node or pod edit made with the mouse: its commands ([`Edit::commands`]), injected in
    /// order at this instant, and the future rewritten once for all of them (one visible
    /// change: a step back undoes the whole edit). A bad edit is refused before anything runs;
    /// if a command fails, the ones before it stay (each is a valid edit of its own).
    pub fn apply_edit(&mut self, edit: &Edit) -> Result<Vec<Record>, CommandError> {
        let existing: Vec<String> = self
            .play
            .session
            .cluster
            .nodes()
            .iter()
            .filter_map(|n| n.metadata.name.clone())
            .collect();
        let commands = edit.commands(&existing).map_err(|e| CommandError {
            command: edit.to_string(),
            output: format!("error: {e}\n"),
        })?;
        self.complete_instant();
        let log_from = self.play.log.len();
        let (records, splice, failed) = self.play.inject_all_spliced(&commands);
        if let Some(s) = splice {
            // One rewrite for all: the later commands ran at the same instant, after the first.
            self.rewrite_future(&s, log_from);
        }
        match failed {
            Some(e) => Err(e),
            None => Ok(records),
        }
    }

    /// Plays a lesson step's `run:` lines from now on ([`Playback::append_lines`]: appended to
    /// the script, so they may `sleep` and wait as the scenario's own lines do); the future seen
    /// so far is rewritten as after an edit. Time then moves with the transport.
    pub fn append_lines(&mut self, lines: &[crate::ScriptLine]) {
        self.complete_instant();
        let log_from = self.play.log.len();
        let splice = self.play.append_lines(lines);
        self.rewrite_future(&splice, log_from);
    }

    /// A manifest from the YAML editor ([`Playback::apply_manifest`]), as an edit now.
    pub fn apply_manifest(&mut self, yaml: &str) -> Result<Record, Vec<Diagnostic>> {
        self.edit_now(|play| play.apply_manifest_spliced(yaml))
    }

    fn complete_instant(&mut self) {
        let now = self.play.session.cluster.now();
        self.advance_to_instant(now, usize::MAX);
    }

    fn rewrite_future(&mut self, s: &Splice, log_from: usize) {
        let scenario = self.play.scenario.clone();
        self.checkpoints.retain(|c| c.position() < s.at);
        self.recent.retain(|c| c.position() < s.at);
        for c in self.checkpoints.iter_mut().chain(self.recent.iter_mut()) {
            c.rebase(s, &scenario);
        }
        // What happened at the edit's position before it stays (the state there includes it).
        let cut = self.history_at.partition_point(|p| *p <= s.at);
        self.history.truncate(cut);
        self.history_at.truncate(cut);
        if self.checkpoints.is_empty() {
            // The edit happened at the very start: the start is now the edited state.
            let copy = self.checkpoint();
            self.checkpoints.push(copy);
        }
        self.marks.retain(|m| m.position < s.at);
        let at = self.nanos(s.at.at);
        self.samples.retain(|x| x.t_nanos < at);
        self.horizon = s.at;
        // The edit itself is a visible change (a mark at its position), even when its effect
        // comes later (`node stop`).
        // Lines appended behind a script still running have not run yet: no change to mark.
        let ran = self
            .play
            .log
            .get(log_from..)
            .and_then(|l| l.iter().rfind(|r| !r.command.starts_with("sleep")))
            .map(|r| r.command.clone());
        if let (None, Some(command)) = (self.observe_move(None, log_from, true), ran) {
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
            let copy = self.checkpoint();
            self.checkpoints.push(copy);
        }
        self.sample();
    }
}
