//! Times each input of a `scenario` corpus through the target's own body
//! (`dsplay_fuzz::scenario_file`), built as a plain release binary: what one input costs without
//! libFuzzer's coverage instrumentation and debug assertions, which make the fuzz binary's own
//! replay (`-runs` over files) several times slower. Prints the slowest inputs with the events
//! each played, how many ran to the harness's event cap, the highest cost per event (what would
//! show a slow path: the cap bounds the count, not the cost of one), and how many inputs took
//! over 100 ms (issue 27's bound; docs/fuzzing.md).
//!
//! `cargo run --release --manifest-path fuzz/Cargo.toml --example replay -- fuzz/corpus/scenario`

use std::time::Instant;

use dsplay_fuzz::MAX_EVENTS;

/// One input's replay: milliseconds, events played, file.
struct Run {
    ms: f64,
    events: u64,
    path: std::path::PathBuf,
}

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: replay DIR (a scenario corpus)");
        std::process::exit(2);
    };
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("reading {dir}: {e}");
            std::process::exit(2);
        }
    };
    let mut runs = Vec::new();
    for entry in entries.flatten() {
        let Ok(data) = std::fs::read(entry.path()) else {
            continue;
        };
        let start = Instant::now();
        let events = dsplay_fuzz::scenario_file(&data).unwrap_or(0);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        runs.push(Run {
            ms,
            events,
            path: entry.path(),
        });
    }
    runs.sort_by(|a, b| b.ms.total_cmp(&a.ms));
    for r in runs.iter().take(3) {
        println!(
            "{:8.1} ms  {:6} events  {}",
            r.ms,
            r.events,
            r.path.display()
        );
    }
    let played = runs.iter().filter(|r| r.events > 0).count();
    let capped = runs
        .iter()
        .filter(|r| r.events >= MAX_EVENTS as u64)
        .count();
    // Below a few hundred events the fixed cost (parse, start, draw) dominates.
    let per_event = runs
        .iter()
        .filter(|r| r.events >= 500)
        .map(|r| (r.ms * 1e3 / r.events as f64, r))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    let over = runs.iter().filter(|r| r.ms > 100.0).count();
    println!(
        "{} inputs, {played} played, {capped} to the cap of {MAX_EVENTS} events",
        runs.len()
    );
    if let Some((us, r)) = per_event {
        println!(
            "highest cost per event (inputs of 500+ events): {us:.1} µs, {}",
            r.path.display()
        );
    }
    println!("{over} over 100 ms");
}
