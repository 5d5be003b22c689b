//! Time travel at 1,000 nodes, as the playground does it: the 500-node preset with 500 nodes
//! added through an edit (one `node add` line), played to its end, then a seek back across the
//! history, one step back, one step forward, and the render model of the whole cluster.
//! Each measured call starts from a clone of the played timeline (the clone is not timed).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use scenario::edit::Edit;
use scenario::timeline::Timeline;

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

criterion_group!(benches, timeline);
criterion_main!(benches);
