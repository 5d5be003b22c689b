//! The controller's across-sync caches (per-pod facts, node views, pod maps updated
//! incrementally, per-node views) and what the node lifecycle controller's monitor keeps of node
//! objects between passes are caches only: a busy cluster traces byte for byte the same with
//! them as with controllers that forget them before every sync and pass.

mod support;

use cluster::{to_json_lines, Cluster};
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use std::collections::BTreeMap;
use support::*;

/// `scenario` (given a seed and whether the caches are on) traces byte for byte the same with
/// the caches as without, for each seed, and its trace is longer than `min_len` bytes.
fn same_with_and_without_caches(
    seeds: impl IntoIterator<Item = u64>,
    min_len: usize,
    scenario: fn(u64, bool) -> Cluster,
) {
    for seed in seeds {
        let warm = to_json_lines(scenario(seed, true).trace());
        let cold = to_json_lines(scenario(seed, false).trace());
        assert!(warm.len() > min_len, "seed {seed}: too little happened");
        assert!(warm == cold, "seed {seed}: the caches changed the trace");
    }
}

/// A pod with the DaemonSet's labels and no owner: the controller adopts it (a claim write).
fn orphan(name: &str, ds: &str) -> Pod {
    let mut pod = Busybox::new("orphan").daemon_set().spec.template;
    let spec = pod.spec.take().unwrap_or_default();
    Pod {
        metadata: ObjectMeta {
            name: Some(name.into()),
            namespace: Some("default".into()),
            labels: Some(BTreeMap::from([("app".to_string(), ds.to_string())])),
            ..Default::default()
        },
        spec: Some(spec),
        status: None,
    }
}

/// Rollouts, stopped (one for good, one tainted and back) and removed nodes, a failed pod, an
/// adopted orphan, a released pod, a taint, new nodes, zones and a relabelled node, and a
/// second DaemonSet, with or without the caches.
fn busy(seed: u64, caches: bool) -> Cluster {
    let mut c = kind_cluster(seed);
    c.set_controller_caches(caches);
    // Two zones, nodes without one, and a node left out of the zone counts.
    let labels: [&[(&str, &str)]; 4] = [
        &[("topology.kubernetes.io/zone", "a")],
        &[("topology.kubernetes.io/zone", "b")],
        &[("node.kubernetes.io/exclude-disruption", "")],
        &[],
    ];
    for i in 0..6 {
        c.add_node(node(&format!("extra{i}"), labels[i % 4], vec![]))
            .unwrap();
    }
    // A node left out of the counts in zone b, which will lose its other node for good
    // (fully disrupted only while the excluded node is not counted).
    c.add_node(node(
        "xb",
        &[
            ("topology.kubernetes.io/zone", "b"),
            ("node.kubernetes.io/exclude-disruption", ""),
        ],
        vec![],
    ))
    .unwrap();
    // Zone d: three of its four nodes will be lost at once (a partial disruption: a zone this
    // small then taints nothing).
    for i in 0..4 {
        let zone_d = [("topology.kubernetes.io/zone", "d")];
        c.add_node(node(&format!("d{i}"), &zone_d, vec![])).unwrap();
    }
    c.apply(Busybox::rolling("ru", 2).daemon_set()).unwrap();
    c.apply(Busybox::new("plain").daemon_set()).unwrap();
    c.advance(secs(30.0));
    set_env(&mut c, "ru", "2");
    c.advance(secs(4.0));
    c.stop_node("worker3").unwrap();
    // Stopped for good: its Lease goes stale, it is tainted and its pods evicted.
    c.stop_node("extra1").unwrap();
    c.apply(orphan("stray", "ru")).unwrap();
    c.advance(secs(3.0));
    if let Some(p) = live_pod_on(&c, "extra2") {
        let name = p.metadata.name.clone().unwrap_or_default();
        c.fail_pod("default", &name).unwrap();
    }
    if let Some(p) = live_pod_on(&c, "extra4") {
        let mut released = (*p).clone();
        released.metadata.labels = Some(BTreeMap::from([("app".into(), "elsewhere".into())]));
        c.apply(released).unwrap();
    }
    c.advance(secs(5.0));
    c.remove_node("worker4").unwrap();
    set_taints(&mut c, "worker", vec![taint("k42", "x", "NoSchedule")]);
    c.add_node(node("late", &[], vec![])).unwrap();
    set_env(&mut c, "ru", "3");
    c.advance(secs(20.0));
    c.start_node("worker3").unwrap();
    // Zone b keeps only its stopped node (fully disrupted); a node of zone a goes away long
    // enough to be tainted, then comes back Ready with the taint still on.
    label_node(&mut c, "extra5", "topology.kubernetes.io/zone", Some("c"));
    // A Ready node given the unreachable NoExecute taint by hand: the next pass takes it off.
    let unreachable = taint("node.kubernetes.io/unreachable", "", "NoExecute");
    set_taints(&mut c, "extra0", vec![unreachable]);
    c.stop_node("extra4").unwrap();
    c.advance(secs(90.0));
    c.start_node("extra4").unwrap();
    // Two nodes of a zone lost at once, back after about a minute (the tainter's queue and
    // its token bucket).
    c.stop_node("extra0").unwrap();
    c.stop_node("extra4").unwrap();
    c.advance(secs(57.0));
    c.start_node("extra4").unwrap();
    c.start_node("extra0").unwrap();
    c.advance(secs(30.0));
    for i in 0..3 {
        c.stop_node(&format!("d{i}")).unwrap();
    }
    // Lost again: queued and tainted anew.
    c.stop_node("extra4").unwrap();
    c.advance(secs(80.0));
    c.start_node("extra4").unwrap();
    c.settle(secs(600.0));
    c
}

#[test]
fn the_controller_caches_change_nothing_in_the_trace() {
    same_with_and_without_caches([1, 2, 3], 1000, busy);
}

/// Random node and workload actions drawn from `seed` (nodes in three zones come and go, stop
/// and start, get relabelled, left out of the zone counts and tainted; rollouts of three
/// DaemonSets, one waiting minReadySeconds, one surging; failed pods), then settling, with or
/// without the caches. Errors (a node already gone, say) are part of the scenario.
fn random(seed: u64, caches: bool) -> Cluster {
    let mut c = kind_cluster(seed);
    c.set_controller_caches(caches);
    c.apply(Busybox::rolling("ru", 2).daemon_set()).unwrap();
    c.apply(Busybox::new("plain").daemon_set()).unwrap();
    // Availability that waits (minReadySeconds), and a rollout that surges.
    let slow = Busybox {
        strategy: "  minReadySeconds: 5\n  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxUnavailable: 1\n",
        ..Busybox::rolling("slow", 1)
    };
    c.apply(slow.daemon_set()).unwrap();
    let surge = Busybox {
        strategy: "  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: 1\n      maxUnavailable: 0\n",
        ..Busybox::rolling("surge", 1)
    };
    c.apply(surge.daemon_set()).unwrap();
    // The cluster's own generator, on a stream of its own.
    let mut d = cluster::rng::Rng::new(seed, 0xd1ff);
    let zones = ["a", "b", "c"];
    let name = |i: usize| format!("n{i}");
    for i in 0..8 {
        let zone = [("topology.kubernetes.io/zone", zones[i % 3])];
        c.add_node(node(&name(i), &zone, vec![])).unwrap();
    }
    for step in 0..40 {
        let n = name(d.below(10) as usize);
        let _ = match d.below(9) {
            0 => c.add_node(node(
                &n,
                &[("topology.kubernetes.io/zone", zones[d.below(3) as usize])],
                vec![],
            )),
            1 => c.remove_node(&n),
            2 | 3 => c.stop_node(&n),
            4 => c.start_node(&n),
            5 => {
                let zone = zones[d.below(3) as usize];
                let exclude = d.below(3) == 0;
                c.update_node(&n, |node| {
                    let labels = node.metadata.labels.get_or_insert_with(Default::default);
                    labels.insert("topology.kubernetes.io/zone".into(), zone.into());
                    // Sometimes left out of the zone counts, or counted again.
                    let key = "node.kubernetes.io/exclude-disruption";
                    match exclude {
                        true => labels.insert(key.into(), String::new()),
                        false => labels.remove(key),
                    };
                })
            }
            6 => {
                let taints = match d.below(3) {
                    0 => vec![],
                    1 => vec![taint("node.kubernetes.io/unreachable", "", "NoExecute")],
                    _ => vec![taint("k42", "x", "NoSchedule")],
                };
                c.update_node(&n, |node| {
                    node.spec.get_or_insert_with(Default::default).taints =
                        (!taints.is_empty()).then_some(taints);
                })
            }
            7 => {
                let ds = ["ru", "slow", "surge"][d.below(3) as usize];
                set_env(&mut c, ds, &step.to_string());
                Ok(())
            }
            _ => {
                // One of the node's live pods, of any of the DaemonSets.
                let pods = live_pods_by_node(&c).remove(&n).unwrap_or_default();
                match pods.get(d.below(4) as usize) {
                    Some(p) => c.fail_pod("default", p.metadata.name.as_deref().unwrap_or("")),
                    None => Ok(()),
                }
            }
        };
        c.advance(secs(1.0 + f64::from(d.below(40))));
    }
    c.settle(secs(600.0));
    c
}

#[test]
fn the_caches_change_nothing_in_random_scenarios() {
    same_with_and_without_caches(0..24, 1000, random);
}

/// A surging rollout while nodes stop being eligible but keep their pods (a NoSchedule taint
/// the DaemonSet does not tolerate), as upstream's integration test
/// `TestDaemonSetRollingUpdateWithTolerations` plays it: an old pod on such a node goes only
/// when more pods elsewhere are available than are desired (R-RU-12), which counts the old
/// pods beside a surging new one. Nodes are tainted at different moments of the rollout.
fn surge_with_tolerations(seed: u64, caches: bool) -> Cluster {
    let mut c = kind_cluster(seed);
    c.set_controller_caches(caches);
    for i in 0..4 {
        c.add_node(node(&format!("extra{i}"), &[], vec![])).unwrap();
    }
    let surge = Busybox {
        strategy: "  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: 2\n      maxUnavailable: 0\n",
        ..Busybox::rolling("surge", 1)
    };
    c.apply(surge.daemon_set()).unwrap();
    c.advance(secs(30.0));
    set_env(&mut c, "surge", "2");
    let untolerated = || vec![taint("k42", "x", "NoSchedule")];
    for (i, wait) in [0.5, 1.5, 2.0, 3.5].into_iter().enumerate() {
        c.advance(secs(wait + seed as f64 * 0.25));
        let name = ["worker2", "extra1", "worker4", "extra3"][i];
        set_taints(&mut c, name, untolerated());
    }
    c.settle(secs(120.0));
    set_taints(&mut c, "extra1", vec![]);
    set_env(&mut c, "surge", "3");
    c.advance(secs(2.0));
    set_taints(&mut c, "worker", untolerated());
    c.settle(secs(120.0));
    c
}

#[test]
fn the_caches_change_nothing_in_a_surging_rollout_as_nodes_stop_being_eligible() {
    same_with_and_without_caches(0..8, 200, surge_with_tolerations);
}

/// Rollouts of a DaemonSet with minReadySeconds that start while some old pods are Ready but
/// not yet available (new nodes, and pods failed and replaced, moments before): `rollingUpdate`
/// replaces those at once as unavailable (R-RU-7), and counts the others against
/// maxUnavailable only once they are available (R-AVL-1).
fn rollout_within_min_ready_seconds(seed: u64, caches: bool) -> Cluster {
    let mut c = kind_cluster(seed);
    c.set_controller_caches(caches);
    let slow = Busybox {
        strategy: "  minReadySeconds: 10\n  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxUnavailable: 2\n",
        ..Busybox::rolling("slow", 2)
    };
    c.apply(slow.daemon_set()).unwrap();
    c.advance(secs(40.0));
    for round in 0..3 {
        for i in 0..3 {
            c.add_node(node(&format!("r{round}n{i}"), &[], vec![]))
                .unwrap();
        }
        if let Some(p) = live_pod_on(&c, WORKERS[round % WORKERS.len()]) {
            let name = p.metadata.name.clone().unwrap_or_default();
            c.fail_pod("default", &name).unwrap();
        }
        // The new pods are Ready about 4 s after their nodes joined: the rollout starts
        // within their minReadySeconds.
        c.advance(secs(5.0 + seed as f64 * 0.5 + round as f64));
        set_env(&mut c, "slow", &format!("{round}"));
        c.advance(secs(3.0));
    }
    c.settle(secs(300.0));
    c
}

#[test]
fn the_caches_change_nothing_in_rollouts_that_start_within_min_ready_seconds() {
    same_with_and_without_caches(0..8, 200, rollout_within_min_ready_seconds);
}

/// Every node counted in the only zone lost, with one node left out of the counts still
/// Ready: the zone is fully disrupted, so the node lifecycle controller enters master
/// disruption mode (no NoExecute taints) until a counted node is back, and then taints the
/// other one.
fn whole_cluster_lost_but_an_excluded_node(seed: u64, caches: bool) -> Cluster {
    let mut c = kind_cluster(seed);
    c.set_controller_caches(caches);
    // Two nodes counted, and one left out of the counts.
    for gone in ["control-plane", "worker3", "worker4"] {
        c.remove_node(gone).unwrap();
    }
    c.add_node(node(
        "xb",
        &[("node.kubernetes.io/exclude-disruption", "")],
        vec![],
    ))
    .unwrap();
    c.apply(Busybox::new("plain").daemon_set()).unwrap();
    c.advance(secs(20.0));
    c.stop_node("worker").unwrap();
    c.advance(secs(seed as f64 * 0.7));
    c.stop_node("worker2").unwrap();
    c.advance(secs(180.0));
    c.start_node("worker2").unwrap();
    c.advance(secs(60.0));
    c.start_node("worker").unwrap();
    c.settle(secs(300.0));
    c
}

#[test]
fn the_caches_change_nothing_when_only_an_excluded_node_stays_ready() {
    same_with_and_without_caches(0..4, 200, whole_cluster_lost_but_an_excluded_node);
}

/// A DaemonSet whose pod map was last brought up to date from the change log, then left
/// unsynced while another DaemonSet of its namespace rolls out over 300 nodes: more pod
/// changes than the log keeps, so its next sync lists the pods and compares them with the
/// listing it kept (which the log had left to its index by name, `pod_log::catch_up`).
fn a_listing_kept_from_the_log_then_outrun(seed: u64, caches: bool) -> Cluster {
    let mut c = kind_cluster(seed);
    c.set_controller_caches(caches);
    for i in 0..300 {
        c.add_node(node(&format!("n{i:03}"), &[], vec![])).unwrap();
    }
    let wide = Busybox {
        strategy: "  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxUnavailable: 100%\n",
        ..Busybox::rolling("wide", 2)
    };
    c.apply(wide.daemon_set()).unwrap();
    c.apply(Busybox::new("quiet").daemon_set()).unwrap();
    c.advance(secs(30.0));
    let fail_a_quiet_pod = |c: &mut Cluster, node: &str| {
        let quiet = live_pods_by_node(c)
            .remove(node)
            .unwrap_or_default()
            .into_iter()
            .find(|p| {
                p.metadata
                    .name
                    .as_deref()
                    .is_some_and(|n| n.starts_with("quiet-"))
            });
        if let Some(p) = quiet {
            let name = p.metadata.name.clone().unwrap_or_default();
            c.fail_pod("default", &name).unwrap();
        }
    };
    // Synced from the log: the failed pod's changes and its replacement.
    fail_a_quiet_pod(&mut c, "n007");
    c.advance(secs(10.0 + seed as f64));
    set_env(&mut c, "wide", "2");
    c.advance(secs(40.0));
    fail_a_quiet_pod(&mut c, "n123");
    c.settle(secs(120.0));
    c
}

#[test]
fn the_caches_change_nothing_when_the_change_log_is_outrun() {
    same_with_and_without_caches(0..2, 200, a_listing_kept_from_the_log_then_outrun);
}
