//! What the fuzz targets share: the inputs' text, the bounds that keep one input fast, and the
//! live sessions the kubectl and editor targets start from. Every target calls the public entry
//! point the app and `dsplay` call (nothing here re-implements one); a panic anywhere is a crash.

use std::sync::OnceLock;

use scenario::{presets, Playback, Scenario, Session};

/// Longer inputs are skipped: a seed may be larger than this, a mutation of it is no more
/// interesting for being long, and the parsers are linear anyway.
pub const MAX_INPUT: usize = 64 * 1024;

/// A scenario runs only when it has at most this many nodes …
pub const MAX_NODES: usize = 16;
/// … and at most this many script lines …
pub const MAX_SCRIPT: usize = 40;
/// … for at most this much virtual time …
pub const RUN_SECONDS: f64 = 300.0;
/// … and at most this many simulation events (a timing override of 1 ms, or an evict/recreate
/// loop, makes every second busy: the event count, not the virtual time, is what bounds the
/// work). An event costs 13–27 µs natively on 16 nodes, flat over a run (no growth with
/// history), so 3,000 keep an input under 100 ms; the corpus's inputs that are not loops play
/// their 300 s in under 5,000 (docs/fuzzing.md has the replay's figures).
pub const MAX_EVENTS: usize = 3_000;

/// The preset the live targets (kubectl, editor, manifest) start from: five nodes, one
/// DaemonSet.
pub const PRESET: &str = "f1-one-pod-per-node";

/// The input as UTF-8 text, if it is text and not too long. The CLI refuses non-UTF-8 files
/// before parsing; the page only ever has strings.
pub fn text(data: &[u8]) -> Option<&str> {
    if data.len() > MAX_INPUT {
        return None;
    }
    std::str::from_utf8(data).ok()
}

/// How many nodes a scenario declares (a pool counts each of its nodes).
pub fn node_count(s: &Scenario) -> usize {
    s.nodes.iter().map(|n| n.names.len()).sum()
}

/// Whether a parsed scenario is small enough to play within one input's time.
pub fn small_enough(s: &Scenario) -> bool {
    node_count(s) <= MAX_NODES && s.script.len() <= MAX_SCRIPT
}

/// The preset's scenario, parsed.
pub fn preset() -> Scenario {
    let p = presets::get(PRESET).expect("the preset exists");
    scenario::parse(p.file, p.text).expect("the preset parses")
}

/// The preset played 40 virtual seconds in (its DaemonSet rolled out, a pod per worker), as the
/// page shows it: built once, cloned for every input.
pub fn live_playback() -> Playback {
    static BASE: OnceLock<Playback> = OnceLock::new();
    BASE.get_or_init(|| {
        let mut p = Playback::new(preset()).expect("the preset starts");
        p.advance_to(40.0, usize::MAX);
        p
    })
    .clone()
}

/// The preset's cluster before its script (its nodes and files, no objects), cloned for every
/// input.
pub fn fresh_session() -> Session {
    static BASE: OnceLock<Session> = OnceLock::new();
    BASE.get_or_init(|| scenario::start(&preset()).expect("the preset starts"))
        .clone()
}

/// Moves a playback `seconds` of virtual time on, running at most `max_events` events.
pub fn play_for(p: &mut Playback, seconds: f64, max_events: usize) {
    let t = p.elapsed() + seconds;
    p.advance_to(t, max_events);
}

/// Runs a session's cluster for at most `seconds` of virtual time and `max_events` events.
pub fn step_for(s: &mut Session, seconds: f64, max_events: usize) {
    let end = s.cluster.elapsed_seconds() + seconds;
    for _ in 0..max_events {
        if s.cluster.elapsed_seconds() > end || s.cluster.step().is_none() {
            break;
        }
    }
}

/// The `scenario` target's body (also timed, uninstrumented, by `examples/replay.rs`): a
/// scenario file as `dsplay` loads it and, when small, played for [`RUN_SECONDS`] or
/// [`MAX_EVENTS`] events, then drawn. Returns how many simulation events it played (`None` when
/// the input is not played), so the replay can tell an input that ran to the cap.
pub fn scenario_file(data: &[u8]) -> Option<u64> {
    let text = text(data)?;
    let (scenario, _lesson) = scenario::lesson::parse_with_lesson("fuzz.yaml", text).ok()?;
    if !small_enough(&scenario) {
        return None;
    }
    // A file that parses but that the cluster refuses (a bad timing key, a node the store
    // rejects) is an error with a message, not a crash.
    let mut play = scenario::Playback::new(scenario).ok()?;
    play.advance_to(RUN_SECONDS, MAX_EVENTS);
    let _ = scenario::view::cluster_view(&play.session.cluster);
    Some(play.position().events)
}
