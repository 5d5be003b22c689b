//! Shared helpers for the scenario tests: the preset library as the tests run it.
#![allow(dead_code)]

use scenario::{presets, Outcome, Scenario};

/// Every preset's id, file name and text. In debug builds the big presets are scaled down to
/// 100 nodes (their expectations with them): the unoptimised controller needs ~10 s for the
/// full 500-node rollout and ~4 min for the 5,000-node one, the scaled ones under a second, and
/// the story (ten waves of 10 %) is the same. `cargo test --release` runs them at full size.
pub fn presets() -> Vec<(&'static str, &'static str, String)> {
    presets::ALL
        .iter()
        .map(|p| {
            let text = if cfg!(debug_assertions) {
                scaled(p.text, 100)
            } else {
                p.text.to_string()
            };
            (p.id, p.file, text)
        })
        .collect()
}

/// `cluster-500-nodes` or `cluster-5000-nodes` with `nodes` workers instead (any other
/// scenario as it is): the pool's count and the expectations that name it.
pub fn scaled(text: &str, nodes: usize) -> String {
    let mut text = text.to_string();
    for big in ["5000", "500"] {
        if text.contains(&format!("count: {big},")) {
            let all = [big; 5].join("/");
            let n = nodes.to_string();
            let now = [n.as_str(); 5].join("/");
            text = text
                .replace(&format!("count: {big},"), &format!("count: {nodes},"))
                .replace(
                    &format!("equals: \"{big}\""),
                    &format!("equals: \"{nodes}\""),
                )
                .replace(&format!("\"{all}\""), &format!("\"{now}\""));
            break;
        }
    }
    text
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
