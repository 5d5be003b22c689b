//! Rolling-update throughput (DESIGN §6 "Speed"): N Ready nodes, a DaemonSet shaped like the
//! F-4 preset (readiness probe 3 s / 1 s, grace 3 s), settled; then the template changes and the
//! cluster runs until every pod is updated and available. Only the rollout is measured: each
//! iteration starts from a clone of the settled cluster.
//!
//! Besides criterion's figures, each configuration is run once up front and its virtual
//! duration, wall time and simulated seconds per wall second are printed; a configuration whose
//! single run takes longer than [`CRITERION_MAX_WALL`] is not repeated by criterion.
//! `ROLLOUT_ONLY="5000 nodes maxUnavailable=1"` picks configurations by label (a whole label: that one).

use std::time::{Duration, Instant};

use cluster::{Cluster, Timing};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::{EnvVar, Node};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

/// A wait longer than this (virtual) means the rollout is stuck.
const VIRTUAL_LIMIT: Duration = Duration::from_secs(30 * 24 * 3600);

fn daemon_set(max_unavailable: &str) -> DaemonSet {
    let yaml = format!(
        r#"apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels:
      app: agent
  updateStrategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: {max_unavailable}
  template:
    metadata:
      labels:
        app: agent
    spec:
      terminationGracePeriodSeconds: 3
      containers:
      - name: app
        image: busybox:1.36
        command: ["sleep", "infinity"]
        env:
        - name: FOO
          value: "1"
        readinessProbe:
          exec:
            command: ["true"]
          initialDelaySeconds: 3
          periodSeconds: 1
"#
    );
    match apiserver::decode_manifests("agent.yaml", &yaml) {
        Ok(ms) => match ms.into_iter().next() {
            Some(apiserver::Manifest::DaemonSet(ds, _)) => *ds,
            other => panic!("not a DaemonSet: {other:?}"),
        },
        Err(e) => panic!("{e}"),
    }
}

fn node(name: String) -> Node {
    Node {
        metadata: ObjectMeta {
            labels: Some([("kubernetes.io/hostname".to_string(), name.clone())].into()),
            name: Some(name),
            ..Default::default()
        },
        ..Default::default()
    }
}

/// `nodes` Ready nodes running the DaemonSet, every pod ready and available.
fn settled(nodes: usize, max_unavailable: &str) -> Cluster {
    let mut c = Cluster::new(1, Timing::default());
    for i in 0..nodes {
        c.add_node(node(format!("node-{i:05}"))).expect("add node");
    }
    c.apply(daemon_set(max_unavailable))
        .expect("apply DaemonSet");
    assert!(
        c.run_until(|c| rolled_out(c, nodes), VIRTUAL_LIMIT),
        "initial rollout over {nodes} nodes did not finish"
    );
    c
}

/// The stored status is current and every desired pod is updated and available.
fn rolled_out(c: &Cluster, nodes: usize) -> bool {
    c.daemon_set("default", "agent").is_some_and(|ds| {
        let Some(s) = ds.status.as_ref() else {
            return false;
        };
        let desired = s.desired_number_scheduled;
        desired as usize == nodes
            && s.observed_generation == ds.metadata.generation
            && s.updated_number_scheduled == Some(desired)
            && s.number_available == Some(desired)
    })
}

/// Changes the template and simulates until the rollout is complete; returns virtual seconds.
/// The cluster is the caller's to drop: tearing down a simulation is not part of its rollout
/// (criterion drops what a routine returns outside the measurement).
fn roll(c: &mut Cluster, nodes: usize) -> f64 {
    let start = c.elapsed_seconds();
    c.update_daemon_set("default", "agent", |ds| {
        if let Some(spec) = ds.spec.template.spec.as_mut() {
            spec.containers[0].env = Some(vec![EnvVar {
                name: "FOO".into(),
                value: Some("2".into()),
                ..Default::default()
            }]);
        }
    })
    .expect("change the template");
    assert!(
        c.run_until(|c| rolled_out(c, nodes), VIRTUAL_LIMIT),
        "rollout over {nodes} nodes did not finish"
    );
    c.elapsed_seconds() - start
}

/// One plain timed rollout, printed with the time its cluster then takes to drop; returns
/// the rollout's wall seconds.
fn report(label: &str, base: &Cluster, nodes: usize) -> f64 {
    let mut c = base.clone();
    let wall = Instant::now();
    let virtual_secs = roll(&mut c, nodes);
    let wall = wall.elapsed().as_secs_f64();
    let teardown = Instant::now();
    drop(c);
    let teardown = teardown.elapsed().as_secs_f64();
    println!(
        "{label}: {virtual_secs:.1} s virtual in {wall:.3} s wall = {:.0} simulated s per wall s (then {teardown:.3} s to drop the cluster)",
        virtual_secs / wall
    );
    wall
}

/// A plain run longer than this is not repeated by criterion (10 samples would take minutes).
const CRITERION_MAX_WALL: f64 = 5.0;

fn rollout(c: &mut Criterion) {
    // `ROLLOUT_ONLY="5000 nodes"` runs only the configurations whose label contains it; a
    // whole label runs only that one ("5000 nodes maxUnavailable=1" is part of the 10 % label).
    let only = std::env::var("ROLLOUT_ONLY").unwrap_or_default();
    let mut group = c.benchmark_group("rollout");
    group.sample_size(10);
    let configs = [
        (500, "10%"),
        (1_000, "10%"),
        (5_000, "10%"),
        (500, "1"),
        (1_000, "1"),
        (5_000, "1"),
    ];
    let label = |nodes: usize, mu: &str| format!("{nodes} nodes maxUnavailable={mu}");
    let exact = configs.iter().any(|&(n, mu)| label(n, mu) == only);
    for (nodes, mu) in configs {
        let label = label(nodes, mu);
        if (exact && label != only) || !label.contains(&only) {
            continue;
        }
        let setup = Instant::now();
        // A percentage is a string in YAML; a count is an integer.
        let written = if mu.ends_with('%') {
            format!("{mu:?}")
        } else {
            mu.to_string()
        };
        let base = settled(nodes, &written);
        println!(
            "{label}: set-up (add nodes, first rollout) {:.2} s wall",
            setup.elapsed().as_secs_f64()
        );
        let wall = report(&label, &base, nodes);
        if wall <= CRITERION_MAX_WALL {
            group.bench_function(format!("{nodes}_nodes_max_unavailable_{mu}"), |b| {
                b.iter_batched(
                    || base.clone(),
                    |mut c| {
                        roll(&mut c, nodes);
                        c
                    },
                    BatchSize::LargeInput,
                )
            });
        } else {
            println!("{label}: one run took {wall:.1} s; not repeated by criterion");
        }
    }
    group.finish();
}

criterion_group!(benches, rollout);
criterion_main!(benches);
