//! The simulation as the views see it: one object the page owns, wrapping the scenario's
//! [`Timeline`] (playback with checkpoints, captions, chart samples, edits). Every method is a
//! thin call into the `scenario` crate; the app decides nothing.

use scenario::caption::Caption;
use scenario::edit::{Diagnostic, Edit};
use scenario::playback::CommandError;
use scenario::timeline::{Sample, Timeline};
use scenario::view::{cluster_view, ClusterView};
use scenario::Scenario;

/// Most simulation events processed in one animation tick (keeps a frame short on big clusters).
pub const MAX_EVENTS_PER_TICK: usize = 20_000;

/// A tick runs its events in chunks of this many, looking at the clock between them …
const CHUNK: usize = 200;
/// … and stops once it has spent this much of a 16.7 ms frame, so the page keeps drawing (and
/// the "seeking to t=…" caption stays live) however costly the events are: an evict/recreate
/// loop runs about 90 events a virtual second, and 20,000 of them cost a quarter of a second;
/// 5,000 nodes getting their pods at 8× ask for more than a second of work per second. Playing,
/// time then runs slower than the speed asked for until the burst is over.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
const TICK_WORK_MS: f64 = 12.0;
/// … or this much while a far seek goes on: each tick also redraws the page, and on 5,000
/// nodes a redraw costs several times 12 ms (a link at t=40 s took a minute to open). A click
/// still waits at most a tenth of a second, and ends the seek.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
const SEEK_WORK_MS: f64 = 100.0;

/// `performance.now()`: the timeline paces its checkpoints by what stepping and cloning cost
/// (the standard library has no clock in the browser).
#[cfg(target_arch = "wasm32")]
fn page_clock() -> f64 {
    thread_local! {
        static PERFORMANCE: Option<web_sys::Performance> =
            web_sys::window().and_then(|w| w.performance());
    }
    PERFORMANCE.with(|p| p.as_ref().map_or(0.0, web_sys::Performance::now))
}

/// Test builds only (feature `planted-panic`): a terminal line starting with this runs the rest
/// of the line as a command, then panics.
#[cfg(feature = "planted-panic")]
pub const PLANTED_PANIC: &str = "planted-panic";

/// What a command typed in the terminal (or made by an edit) printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub command: String,
    pub text: String,
    pub ok: bool,
}

/// The running scenario.
#[derive(Clone)]
pub struct Sim {
    pub timeline: Timeline,
    /// Where a seek past the furthest time reached is still going: a link's or a host's far
    /// `t` is simulated a tick's worth of events at a time ([`Sim::seek_forward`]), and
    /// anything the user does instead ends it.
    seeking: Option<f64>,
}

/// How the transport's caption line shows a visible change: its time, then what happened.
fn captioned(c: &Caption) -> String {
    format!("t={:.1}s  {}", c.t, c.text)
}

impl Sim {
    pub fn new(scenario: Scenario) -> Result<Sim, String> {
        #[cfg_attr(not(target_arch = "wasm32"), allow(unused_mut))]
        let mut timeline = Timeline::new(scenario).map_err(|e| e.to_string())?;
        #[cfg(target_arch = "wasm32")]
        timeline.set_clock(Some(page_clock));
        Ok(Sim {
            timeline,
            seeking: None,
        })
    }

    pub fn load(file: &str, text: &str) -> Result<Sim, String> {
        Sim::new(scenario::parse(file, text).map_err(|e| e.to_string())?)
    }

    pub fn preset(id: &str) -> Result<Sim, String> {
        let p = scenario::presets::get(id).ok_or_else(|| format!("no preset named {id:?}"))?;
        Sim::load(p.file, p.text)
    }

    pub fn scenario(&self) -> &Scenario {
        self.timeline.scenario()
    }

    pub fn elapsed(&self) -> f64 {
        self.timeline.elapsed()
    }

    /// The furthest virtual time reached so far (the scrubber's end).
    pub fn horizon(&self) -> f64 {
        self.timeline.horizon()
    }

    /// The script is done and nothing is in flight: playing on changes nothing.
    pub fn at_rest(&self) -> bool {
        self.timeline.at_rest()
    }

    pub fn view(&self) -> ClusterView {
        cluster_view(self.timeline.cluster())
    }

    /// Plays `dt` seconds on, or goes on with a seek that has not reached its time.
    pub fn advance(&mut self, dt: f64) {
        if let Some(t) = self.seeking {
            return self.seek_forward(t);
        }
        let t = self.elapsed() + dt;
        self.within_tick(t, Timeline::advance_to);
    }

    /// The caption of the latest visible change at or before now (what the screen shows while
    /// it plays), or `None` before the first change.
    pub fn latest_caption(&self) -> Option<String> {
        self.timeline.last_caption().map(captioned)
    }

    /// Forward to the next visible change; the caption says what happened and why.
    pub fn step_forward(&mut self) -> String {
        self.seeking = None;
        match self.timeline.step_forward() {
            Some(c) => captioned(&c),
            None => "nothing more happens: the script is done and the cluster is at rest".into(),
        }
    }

    /// Back to the previous visible change, exactly as it was.
    pub fn step_back(&mut self) -> String {
        self.seeking = None;
        match self.timeline.step_back() {
            Some(c) => captioned(&c),
            None => "at the start".into(),
        }
    }

    /// To `t`, within what has been simulated (the scrubber's range).
    pub fn seek(&mut self, t: f64) -> String {
        self.seeking = None;
        self.timeline.seek(t.clamp(0.0, self.horizon()));
        // What the screen shows is the latest change before the new time.
        self.latest_caption()
            .unwrap_or_else(|| format!("t={:.1}s", self.elapsed()))
    }

    pub fn reset(&mut self) {
        self.seeking = None;
        self.timeline.reset();
    }

    /// Goes to `t`, simulating what has not been seen (a link's `&t=`, a host's
    /// `dsplay:seek`: up to 30 days), a tick's work at a time ([`Sim::within_tick`]); the ticks
    /// go on from there ([`Sim::advance`], [`Sim::seeking`]).
    pub fn seek_forward(&mut self, t: f64) {
        let t = t.max(0.0);
        let done = self.within_tick(t, Timeline::seek_within);
        self.seeking = (!done).then_some(t);
    }

    /// Runs `go` towards `t` [`CHUNK`] events at a time: at most [`MAX_EVENTS_PER_TICK`]
    /// events, and in the browser at most [`TICK_WORK_MS`] of work ([`SEEK_WORK_MS`] while a far
    /// seek goes on). Whether `t` was reached.
    /// Chunks end where one call would have: the timeline goes on from where it stopped.
    fn within_tick(&mut self, t: f64, go: fn(&mut Timeline, f64, usize) -> bool) -> bool {
        #[cfg(target_arch = "wasm32")]
        let start = page_clock();
        let mut spent = 0;
        loop {
            let chunk = CHUNK.min(MAX_EVENTS_PER_TICK - spent);
            if go(&mut self.timeline, t, chunk) {
                return true;
            }
            spent += chunk;
            if spent >= MAX_EVENTS_PER_TICK {
                return false;
            }
            #[cfg(target_arch = "wasm32")]
            if page_clock() - start
                > if self.seeking.is_some() {
                    SEEK_WORK_MS
                } else {
                    TICK_WORK_MS
                }
            {
                return false;
            }
        }
    }

    /// The time a seek is still on its way to.
    pub fn seeking(&self) -> Option<f64> {
        self.seeking
    }

    /// The `s=1.…[&t=…]` fragment of a link to this scenario with every edit (and the lesson
    /// open, if any).
    pub fn share_fragment(
        &self,
        t: Option<f64>,
        lesson: Option<scenario::share::ShareLesson>,
    ) -> String {
        let view = scenario::share::ShareView {
            lesson,
            ..Default::default()
        };
        scenario::share::fragment(self.scenario(), &view, t)
    }

    /// Runs a terminal line or an edit: read-only commands just run; commands that change the
    /// cluster are recorded in the script at the current time, so the scenario replays them.
    pub fn command(&mut self, line: &str) -> Output {
        self.seeking = None;
        #[cfg(feature = "planted-panic")]
        if let Some(rest) = line.strip_prefix(PLANTED_PANIC) {
            // Half an edit, then a bug: the command runs (and is written into the script),
            // then the page panics before the change is done.
            let _ = self.timeline.run_command(rest.trim());
            panic!("{PLANTED_PANIC}");
        }
        output(line, self.timeline.run_command(line))
    }

    /// A node or pod edit from the UI: checked, turned into script commands by the scenario
    /// crate (`Edit::commands`), run and recorded. On an error, what ran before it stays.
    pub fn edit(&mut self, edit: &Edit) -> Result<Vec<Output>, Output> {
        self.seeking = None;
        match self.timeline.apply_edit(edit) {
            Ok(records) => Ok(records.into_iter().map(Output::from).collect()),
            Err(e) => Err(Output {
                command: e.command,
                text: e.output,
                ok: false,
            }),
        }
    }

    /// Runs a command that only reads (`kubectl get …`): nothing is recorded.
    pub fn read_only(&mut self, line: &str) -> Output {
        output(line, self.timeline.run_readonly(line))
    }

    /// What is wrong with a DaemonSet manifest, before applying it.
    pub fn diagnose(&self, text: &str) -> Vec<Diagnostic> {
        scenario::edit::diagnose("editor.yaml", text)
    }

    /// Applies the editor's manifest (recorded in the script); an invalid one changes nothing.
    pub fn apply_yaml(&mut self, text: &str) -> Result<Output, Vec<Diagnostic>> {
        self.seeking = None;
        self.timeline.apply_manifest(text).map(Output::from)
    }

    /// The DaemonSet manifests the scenario carries, by file name, for the editor.
    pub fn manifests(&self) -> Vec<(String, String)> {
        self.scenario()
            .files
            .iter()
            .filter(|(_, t)| t.contains("kind: DaemonSet"))
            .map(|(n, t)| (n.clone(), t.clone()))
            .collect()
    }

    pub fn samples(&self) -> &[Sample] {
        self.timeline.samples()
    }
}

impl From<scenario::Record> for Output {
    fn from(r: scenario::Record) -> Output {
        Output {
            command: r.command,
            text: r.output,
            ok: r.ok,
        }
    }
}

fn output(line: &str, r: Result<scenario::Record, CommandError>) -> Output {
    r.map(Output::from).unwrap_or_else(|e| Output {
        command: line.to_string(),
        text: e.output,
        ok: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A link's far `&t=` or a host's `dsplay:seek`: the first call does a tick's worth, the
    /// ticks go on to exactly `t`, and the caption line can say where to meanwhile.
    #[test]
    fn a_far_seek_goes_on_tick_by_tick_to_its_time() {
        let week = 7.0 * 24.0 * 3600.0;
        let mut sim = Sim::preset("f1-one-pod-per-node").expect("preset");
        sim.seek_forward(week);
        assert_eq!(sim.seeking(), Some(week), "one tick cannot simulate a week");
        assert!(sim.elapsed() < week);
        let mut ticks = 1;
        while sim.seeking().is_some() {
            let before = sim.elapsed();
            sim.advance(1.0);
            assert!(sim.elapsed() > before, "tick {ticks} made no progress");
            ticks += 1;
        }
        assert_eq!(sim.elapsed(), week);
        assert!(ticks > 2, "{ticks} ticks");
        // Once there, a tick plays on as usual.
        sim.advance(1.0);
        assert_eq!(sim.elapsed(), week + 1.0);
    }

    /// Chunked and paced, a far seek ends where one unbounded seek ends (a week on, through
    /// the evict/recreate loop's preset).
    #[test]
    fn a_far_seek_in_chunks_reaches_what_one_seek_reaches() {
        let week = 7.0 * 24.0 * 3600.0;
        let mut paced = Sim::preset("toleration-seconds-evict-loop").expect("preset");
        paced.seek_forward(week);
        let mut ticks = 1;
        while paced.seeking().is_some() {
            paced.advance(1.0);
            ticks += 1;
        }
        assert!(ticks > 2, "{ticks} ticks");
        let mut whole = Sim::preset("toleration-seconds-evict-loop").expect("preset");
        whole.timeline.seek(week);
        assert_eq!(paced.elapsed(), whole.elapsed());
        assert_eq!(paced.view(), whole.view());
    }

    /// Playing runs its tick in chunks too (and in the browser stops when the tick's time is
    /// spent): ticks of a busy cluster end where one unbounded call ends.
    #[test]
    fn playing_in_chunks_reaches_what_one_call_reaches() {
        let mut ticks = Sim::preset("cluster-500-nodes").expect("preset");
        for _ in 0..40 {
            ticks.advance(0.4);
        }
        let mut whole = Sim::preset("cluster-500-nodes").expect("preset");
        assert!(whole.timeline.advance_to(16.0, usize::MAX));
        assert!((ticks.elapsed() - whole.elapsed()).abs() < 1e-6);
        assert_eq!(ticks.view(), whole.view());
    }

    /// Anything the user does instead ends the seek where it is.
    #[test]
    fn a_step_or_an_edit_ends_a_far_seek() {
        let week = 7.0 * 24.0 * 3600.0;
        let ends: [fn(&mut Sim); 4] = [
            |s| drop(s.step_back()),
            |s| drop(s.step_forward()),
            |s| s.reset(),
            |s| drop(s.command("kubectl label node worker x=y")),
        ];
        for end in ends {
            let mut sim = Sim::preset("f1-one-pod-per-node").expect("preset");
            sim.seek_forward(week);
            assert!(sim.seeking().is_some());
            end(&mut sim);
            assert_eq!(sim.seeking(), None);
            let t = sim.elapsed();
            sim.advance(1.0);
            assert!(
                (sim.elapsed() - (t + 1.0)).abs() < 1e-9,
                "plays on from {t}"
            );
        }
    }
}
