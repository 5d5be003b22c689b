//! The 5,000-node workload timed natively (`benches/timeline.rs`, criterion) and in the browser
//! (`crates/front/app/tests/sim_speed.rs`): the same scenario, the same frames, so the two figures
//! compare the simulator compiled to wasm with the native one (DESIGN §6: within 2×).

use scenario::timeline::Timeline;

/// The f1 preset (one DaemonSet, 5 nodes) plus 4,995 imported nodes, at t = 0.
pub fn five_thousand_nodes() -> Timeline {
    let p = scenario::presets::get("f1-one-pod-per-node").expect("preset");
    let mut s = scenario::parse(p.file, p.text).expect("parses");
    let nodes: String = (0..4_995)
        .map(|i| format!(r#"{{"kind":"Node","apiVersion":"v1","metadata":{{"name":"big{i}"}},"status":{{"capacity":{{"cpu":"4","memory":"16Gi","pods":"110"}}}}}}"#))
        .collect::<Vec<_>>()
        .join(",");
    let list = format!(r#"{{"kind":"List","apiVersion":"v1","items":[{nodes}]}}"#);
    let entries = scenario::import::import_nodes("nodes.json", &list).expect("imports");
    scenario::import::merge_nodes(&mut s, entries, scenario::import::Merge::Add, "nodes.json")
        .expect("merges");
    Timeline::new(s).expect("starts")
}

/// At most this many events a frame, as the page plays.
pub const EVENTS_PER_FRAME: usize = 20_000;

/// The virtual times the page's 8× frames (8/60 s each) end at over the first 2 seconds.
pub fn frame_ends() -> impl Iterator<Item = f64> {
    let mut now = 0.0;
    std::iter::from_fn(move || {
        (now < 2.0).then(|| {
            now += 8.0 / 60.0;
            now
        })
    })
}

/// The first 2 virtual seconds, while the DaemonSet creates its 5,000 pods, in the frames the
/// page plays at 8× (at most [`EVENTS_PER_FRAME`] events a frame), checkpoints and all.
pub fn play_first_two_seconds(t: &mut Timeline) {
    for now in frame_ends() {
        t.advance_to(now, EVENTS_PER_FRAME);
    }
}
