//! Times each input of a `scenario` corpus through the target's own body
//! (`dsplay_fuzz::scenario_file`), built as a plain release binary: what one input costs without
//! libFuzzer's coverage instrumentation and debug assertions, which make the fuzz binary's own
//! replay (`-runs` over files) several times slower. Prints the slowest inputs and how many
//! took over 100 ms (issue 27's bound; docs/fuzzing.md).
//!
//! `cargo run --release --manifest-path fuzz/Cargo.toml --example replay -- fuzz/corpus/scenario`

use std::time::Instant;

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
    let mut times = Vec::new();
    for entry in entries.flatten() {
        let Ok(data) = std::fs::read(entry.path()) else {
            continue;
        };
        let start = Instant::now();
        dsplay_fuzz::scenario_file(&data);
        times.push((start.elapsed().as_secs_f64() * 1e3, entry.path()));
    }
    times.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (ms, path) in times.iter().take(3) {
        println!("{ms:8.1} ms  {}", path.display());
    }
    let over = times.iter().filter(|(ms, _)| *ms > 100.0).count();
    println!("{} inputs, {over} over 100 ms", times.len());
}
