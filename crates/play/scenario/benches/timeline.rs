//! Time travel at 1,000 nodes, as the playground does it: the 500-node preset with 500 nodes
//! added through an edit (one `node add` line), played to its end, then a seek back across the
//! history, one step back, one step forward, and the render model of the whole cluster.
//! Each measured call starts from a clone of the played timeline (the clone is not timed).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use scenario::edit::Edit;
use scenario::timeline::Timeline;

#[path = "support/scale.rs"]
mod scale;

fn played_1000_nodes() -> Timeline {
    let p = scenario::presets::get("cluster-500-nodes").expect("the 500-node preset");
    let s = scenario::parse(p.file, p.text).expect("the preset parses");
    let mut tl = Timeline::new(s).expect("the preset starts");
    tl.apply_edit(&Edit::AddNodes {
        prefix: "extra".into(),
        count: 500,
        labels: Vec::new(),
        taints: Vec::new(),
        capacity: None,
    })
    .expect("500 nodes are added");
    // Play to the end of the script and until the cluster is at rest.
    while tl.step_forward().is_some() {}
    tl
}

fn timeline(c: &mut Criterion) {
    let tl = played_1000_nodes();
    let end = tl.elapsed();
    let (checkpoints, _, _) = tl.checkpoint_stats();
    println!(
        "1,000 nodes: {} nodes, played to t={end:.1}s, {} trace entries, {checkpoints} checkpoints",
        tl.cluster().nodes().len(),
        tl.trace().len(),
    );
    let mut g = c.benchmark_group("timeline_1000_nodes");
    g.sample_size(10);
    for frac in [0.25, 0.5, 0.75] {
        g.bench_function(format!("seek from the end to {:.0}%", frac * 100.0), |b| {
            b.iter_batched(
                || tl.clone(),
                |mut t| {
                    t.seek(end * frac);
                    t
                },
                BatchSize::LargeInput,
            )
        });
    }
    g.bench_function("step back from the end", |b| {
        b.iter_batched(
            || tl.clone(),
            |mut t| {
                t.step_back();
                t
            },
            BatchSize::LargeInput,
        )
    });
    let mut mid = tl.clone();
    mid.seek(end * 0.5);
    g.bench_function("step forward from the middle", |b| {
        b.iter_batched(
            || mid.clone(),
            |mut t| {
                t.step_forward();
                t
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function("render model (view) of the cluster", |b| {
        b.iter(|| tl.view())
    });
    g.bench_function("clone of the playback (one checkpoint)", |b| {
        b.iter(|| tl.playback().clone())
    });
    g.finish();
}

/// 5,000 nodes (a 5-node preset plus 4,995 added in one scenario) and a DaemonSet creating
/// its 5,000 pods: the first 2 virtual seconds as the page plays them at 8× (frames of
/// 8/60 s), checkpoints and all; and an edit adding 1,000 nodes to 4,000.
fn timeline_5000(c: &mut Criterion) {
    let fresh = scale::five_thousand_nodes();
    let mut g = c.benchmark_group("timeline_5000_nodes");
    g.sample_size(10);
    g.bench_function("play 0-2 s (5,000 pods created) in 8x frames", |b| {
        b.iter_batched(
            || fresh.clone(),
            |mut t| {
                scale::play_first_two_seconds(&mut t);
                t
            },
            BatchSize::LargeInput,
        )
    });
    let mut at20 = fresh.clone();
    at20.advance_to(20.0, usize::MAX);
    g.bench_function("render model (view) of 5,000 nodes", |b| {
        b.iter(|| at20.view())
    });
    // The Events panel asks for this every frame while it is open (first 200 rows, all events).
    println!(
        "5,000 nodes at t=20s: {} events",
        at20.cluster().events().len()
    );
    g.bench_function("events panel table (200 rows) of 5,000 nodes", |b| {
        b.iter(|| scenario::view::event_table(at20.cluster(), None, 200))
    });
    let mut smaller = at20.clone();
    // 4,000 nodes: remove the last 1,000 added so the edit brings the cluster back to 5,000.
    for i in 3_995..4_995 {
        smaller
            .apply_edit(&Edit::RemoveNode {
                node: format!("big{i}"),
            })
            .expect("removes");
    }
    g.bench_function("add 1,000 nodes to 4,000 (one edit)", |b| {
        b.iter_batched(
            || smaller.clone(),
            |mut t| {
                t.apply_edit(&Edit::AddNodes {
                    prefix: "more".into(),
                    count: 1_000,
                    labels: Vec::new(),
                    taints: Vec::new(),
                    capacity: None,
                })
                .expect("adds");
                t
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(benches, timeline, timeline_5000);
criterion_main!(benches);
