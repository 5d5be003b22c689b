//! Shared helpers for the scenario tests: the preset library as the tests run it.
#![allow(dead_code)]

use scenario::{presets, Outcome, Scenario};

/// Every preset's id, file name and text. In debug builds `cluster-500-nodes` is scaled down to
/// 100 nodes (its expectations with it): the unoptimised controller needs ~10 s for the full
/// 500-node rollout, the scaled one under a second, and the story (ten waves of 10 %) is the
/// same. `cargo test --release` runs the real 500-node preset.
pub fn presets() -> Vec<(&'static str, &'static str, String)> {
    presets::ALL
        .iter()
        .map(|p| {
            let text = if p.id == "cluster-500-nodes" && cfg!(debug_assertions) {
                p.text
                    .replace("count: 500", "count: 100")
                    .replace("equals: \"500\"", "equals: \"100\"")
                    .replace("\"500/500/500/500/500\"", "\"100/100/100/100/100\"")
            } else {
                p.text.to_string()
            };
            (p.id, p.file, text)
        })
        .collect()
}

/// A preset parsed (panics with the parse error: presets must parse).
pub fn parse(id: &str) -> Scenario {
    let (_, file, text) = presets()
        .into_iter()
        .find(|(i, _, _)| *i == id)
        .unwrap_or_else(|| panic!("no preset {id}"));
    scenario::parse(file, &text).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs a parsed scenario with the given seed.
pub fn run_with_seed(s: &Scenario, seed: u64) -> Outcome {
    let mut s = s.clone();
    s.seed = seed;
    scenario::run(&s, false).unwrap_or_else(|e| panic!("{e}"))
}

/// Virtual time at which the script line `command` was issued (first match).
pub fn t_of(out: &Outcome, command: &str) -> f64 {
    out.records
        .iter()
        .find(|r| r.command == command)
        .unwrap_or_else(|| panic!("no script line {command:?}"))
        .t
}
