//! How fast time travel is on big clusters, and what a checkpoint costs in memory. A printed
//! measurement, not a check: run it optimised,
//! `cargo test --release -p dsplay-scenario --test timeline_scale -- --ignored --nocapture`.

use scenario::{presets, Timeline};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Counts the bytes allocated, to measure what one checkpoint (a playback clone) adds.
struct Counting;

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        ALLOCATED.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATED.fetch_add(new_size, Ordering::Relaxed);
        ALLOCATED.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The scenario of preset `id` (one pool of `count` nodes) with `nodes` nodes instead.
fn resized(id: &str, count: usize, nodes: usize) -> scenario::Scenario {
    let p = presets::get(id).expect("preset");
    let text = p
        .text
        .replace(&format!("count: {count}"), &format!("count: {nodes}"));
    scenario::parse(p.file, &text).expect("parses")
}

fn measure(nodes: usize) {
    let s = resized("cluster-500-nodes", 500, nodes);
    let t0 = Instant::now();
    let mut tl = Timeline::new(s).expect("starts");
    // Play in 60 fps frames of 1 s of virtual time (16× speed and more), through the rollout.
    let mut t = 0.0;
    while t < 150.0 {
        t += 1.0;
        while !tl.advance_to(t, 20_000) {}
    }
    let play = t0.elapsed();
    let events = tl.playback().position().events;
    let (cps, spacing, dense) = tl.checkpoint_stats();

    let before = ALLOCATED.load(Ordering::Relaxed);
    let copy = tl.playback().clone();
    let checkpoint_bytes = ALLOCATED.load(Ordering::Relaxed).saturating_sub(before);
    drop(copy);
    let held = ALLOCATED.load(Ordering::Relaxed);
    let part = |f: &dyn Fn() -> usize| {
        let before = ALLOCATED.load(Ordering::Relaxed);
        let n = f();
        (ALLOCATED.load(Ordering::Relaxed).saturating_sub(before), n)
    };
    let c = &tl.playback().session.cluster;
    let t = Instant::now();
    let copies: Vec<_> = (0..10).map(|_| tl.playback().clone()).collect();
    let clone_ms = ms(t.elapsed()) / 10.0;
    let t = Instant::now();
    drop(copies);
    let drop_ms = ms(t.elapsed()) / 10.0;
    let t = Instant::now();
    let copies: Vec<_> = (0..10).map(|_| c.clone()).collect();
    let cluster_ms = ms(t.elapsed()) / 10.0;
    drop(copies);
    let t = Instant::now();
    let copies: Vec<_> = (0..10).map(|_| tl.playback().scenario.clone()).collect();
    let scenario_ms = ms(t.elapsed()) / 10.0;
    drop(copies);
    println!("  one checkpoint: clone {clone_ms:.1} ms (cluster {cluster_ms:.1}, scenario {scenario_ms:.2}), drop {drop_ms:.1} ms");
    let (trace_b, trace_n) = part(&|| {
        let v = tl.trace().to_vec();
        let n = v.len();
        std::mem::forget(v);
        n
    });
    let (cluster_b, _) = part(&|| {
        std::mem::forget(c.clone());
        0
    });
    let (log_b, _) = part(&|| {
        std::mem::forget(tl.playback().log.clone());
        0
    });
    println!(
        "  clone: timeline trace {trace_n} entries {:.0} KiB (held once), whole cluster {:.0} KiB, script log {:.0} KiB",
        trace_b as f64 / 1024.0,
        cluster_b as f64 / 1024.0,
        log_b as f64 / 1024.0
    );

    // Step back through the last 30 changes, then seek around.
    let mut backs = Vec::new();
    for _ in 0..30 {
        let t = Instant::now();
        tl.step_back();
        backs.push(ms(t.elapsed()));
    }
    let mut fwd = Vec::new();
    for _ in 0..30 {
        let t = Instant::now();
        tl.step_forward();
        fwd.push(ms(t.elapsed()));
    }
    let mut seeks = Vec::new();
    for target in [
        140.0, 75.0, 20.0, 131.5, 60.25, 5.0, 99.0, 148.0, 42.0, 110.0,
    ] {
        let t = Instant::now();
        tl.seek(target);
        seeks.push(ms(t.elapsed()));
    }
    let stat = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        (mean, v[v.len() / 2], v[v.len() - 1])
    };
    let (bm, b50, bmax) = stat(&mut backs);
    let (fm, f50, fmax) = stat(&mut fwd);
    let (sm, s50, smax) = stat(&mut seeks);
    println!(
        "{nodes} nodes: played 150 s ({events} events) in {:.0} ms; {cps} checkpoints ({spacing} / {dense} events apart), {:.0} KiB each (heap held: {:.1} MiB)\n  step back: mean {bm:.1} ms, median {b50:.1}, max {bmax:.1}\n  step forward: mean {fm:.1} ms, median {f50:.1}, max {fmax:.1}\n  seek: mean {sm:.1} ms, median {s50:.1}, max {smax:.1}",
        ms(play),
        checkpoint_bytes as f64 / 1024.0,
        held as f64 / (1024.0 * 1024.0),
    );
}

#[test]
#[ignore = "a measurement: run with --release -- --ignored --nocapture"]
fn time_travel_at_500_and_1000_nodes() {
    measure(500);
    if std::env::var_os("ONLY_500").is_some() {
        return;
    }
    measure(1000);
}

/// Issue 25, item 3: what time travel holds after a long run on the biggest preset. Plays
/// `cluster-5000-nodes` (`DAY_NODES` nodes, default 5,000) for `DAY_HOURS` virtual hours
/// (default 24) in 1 s frames as the page does at 16× and more, printing each virtual hour the
/// live heap (every byte allocated and not freed: the timeline, its checkpoints, the trace,
/// marks and samples) and what the timeline holds.
#[test]
#[ignore = "a measurement: run with --release -- --ignored --nocapture"]
fn memory_over_a_virtual_day() {
    let env = |k: &str, d: usize| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let nodes = env("DAY_NODES", 5000);
    let hours = env("DAY_HOURS", 24);
    let s = resized("cluster-5000-nodes", 5000, nodes);
    let t0 = Instant::now();
    let mut tl = Timeline::new(s).expect("starts");
    let mib = |b: usize| b as f64 / (1024.0 * 1024.0);
    let mut peak = 0usize;
    let mut t = 0.0;
    for hour in 1..=hours {
        while t < hour as f64 * 3600.0 {
            t += 1.0;
            while !tl.advance_to(t, 20_000) {}
            peak = peak.max(ALLOCATED.load(Ordering::Relaxed));
        }
        let (cps, spacing, dense) = tl.checkpoint_stats();
        println!(
            "{nodes} nodes, {hour:>2} h virtual: heap {:.1} MiB (peak {:.1}), {} events, trace {} entries, {cps} checkpoints ({spacing} / {dense} events apart), {:.1} s wall",
            mib(ALLOCATED.load(Ordering::Relaxed)),
            mib(peak),
            tl.playback().position().events,
            tl.trace().len(),
            t0.elapsed().as_secs_f64(),
        );
    }
}
