//! Importing 2,000 real nodes (`kubectl get nodes -o yaml|json` of a GKE cluster, managedFields,
//! images and all): the figure in docs/performance.md. The bar is under a second.

use criterion::{criterion_group, criterion_main, Criterion};

#[path = "../tests/fixtures/many.rs"]
mod many;

fn import(c: &mut Criterion) {
    let yaml = many::many_nodes(2_000);
    let docs = apiserver::yaml_to_json("nodes.yaml", &yaml).unwrap_or_default();
    let json = docs
        .first()
        .map(|d| serde_json::to_string_pretty(d).unwrap_or_default())
        .unwrap_or_default();
    println!(
        "2,000 nodes: -o yaml {:.1} MB, -o json {:.1} MB",
        yaml.len() as f64 / 1e6,
        json.len() as f64 / 1e6
    );
    let mut g = c.benchmark_group("import_2000_nodes");
    g.sample_size(10);
    g.bench_function("yaml", |b| {
        b.iter(|| scenario::import::import_nodes("nodes.yaml", &yaml).map(|n| n.len()))
    });
    g.bench_function("json", |b| {
        b.iter(|| scenario::import::import_nodes("nodes.json", &json).map(|n| n.len()))
    });
    g.finish();

    // Into a scenario: imported nodes are compacted into numbered pools (`{pool, count}`), which
    // was quadratic in the nodes (1.4 s at 5,000).
    let five = many::many_nodes(5_000);
    let entries = scenario::import::import_nodes("nodes.yaml", &five).unwrap_or_default();
    let p = scenario::presets::get("f1-one-pod-per-node").expect("preset");
    let base = scenario::parse(p.file, p.text).expect("parses");
    let mut g = c.benchmark_group("import_5000_nodes");
    g.sample_size(10);
    g.bench_function("merge into the scenario (compact into pools)", |b| {
        b.iter(|| {
            let mut s = base.clone();
            scenario::import::merge_nodes(
                &mut s,
                entries.clone(),
                scenario::import::Merge::Replace,
                "nodes.yaml",
            )
            .map(|()| s.nodes.len())
        })
    });
    g.finish();
}

criterion_group!(benches, import);
criterion_main!(benches);
