//! The node lifecycle controller against upstream's `node_lifecycle_controller.go`: zones and
//! their states (`ComputeZoneState`, `handleDisruption`), NoExecute tainting through each
//! zone's rate-limited queue (`doNoExecuteTaintingPass`, `ReducedQPSFunc`, `HealthyQPSFunc`),
//! its events (`RecordNodeEvent`, `RecordNodeStatusChange`, `MarkPodsNotReady`), and what the
//! taints do to bare pods with `DefaultTolerationSeconds`' tolerations.

mod support;

use cluster::{Cluster, Timing, ZoneState};
use k8s_openapi::api::core::v1::{Container, Pod, PodSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use k8s_openapi::jiff::Timestamp;
use support::*;

const UNREACHABLE: &str = "node.kubernetes.io/unreachable";

/// Zone `a`'s `count` nodes are `a1`, `a2`, …
fn zoned_cluster(zones: &[(&str, usize)]) -> Cluster {
    let mut c = Cluster::new(5, Timing::default());
    for (zone, count) in zones {
        for i in 1..=*count {
            c.add_node(node(
                &format!("{zone}{i}"),
                &[("topology.kubernetes.io/zone", zone)],
                vec![],
            ))
            .expect("node");
        }
    }
    c
}

fn zone_state(c: &Cluster, zone: &str) -> Option<ZoneState> {
    let key = format!(":\0:{zone}");
    c.zone_states()
        .into_iter()
        .find(|(k, _)| *k == key)
        .map(|(_, s)| s)
}

/// When each node got its NoExecute condition taint, in virtual seconds, in time order.
fn no_execute_taint_times(c: &Cluster) -> Vec<(f64, String)> {
    let start = c.start_time();
    let mut out: Vec<(f64, String)> = c
        .nodes()
        .iter()
        .flat_map(|n| {
            let name = n.metadata.name.clone().unwrap_or_default();
            n.spec
                .iter()
                .flat_map(|s| s.taints.iter().flatten())
                .filter(|t| t.effect == "NoExecute" && t.key.starts_with("node.kubernetes.io/"))
                .filter_map(|t| t.time_added.as_ref())
                .map(|t| (t.0.duration_since(start).as_secs_f64(), name.clone()))
                .collect::<Vec<_>>()
        })
        .collect();
    out.sort_by(|a, b| a.partial_cmp(b).unwrap());
    out
}

fn has_taint(c: &Cluster, node: &str, key: &str, effect: &str) -> bool {
    c.node(node)
        .and_then(|n| n.spec.clone())
        .and_then(|s| s.taints)
        .is_some_and(|ts| ts.iter().any(|t| t.key == key && t.effect == effect))
}

fn stop_all(c: &mut Cluster, prefix: &str, count: usize) {
    for i in 1..=count {
        c.stop_node(&format!("{prefix}{i}")).unwrap();
    }
}

fn unknown(c: &Cluster, node: &str) -> bool {
    c.node(node)
        .and_then(|n| n.status.clone())
        .and_then(|s| s.conditions)
        .is_some_and(|cs| {
            cs.iter()
                .any(|c| c.type_ == "Ready" && c.status == "Unknown")
        })
}

#[test]
fn handle_disruption_taints_a_fully_disrupted_zone_at_the_healthy_qps_while_others_are_normal() {
    let mut c = zoned_cluster(&[("a", 4), ("b", 5), ("c", 3)]);
    c.advance(secs(6.0));
    assert_eq!(zone_state(&c, "a"), Some(ZoneState::Normal));
    stop_all(&mut c, "a", 4);
    assert!(c.run_until(
        |c| (1..=4).all(|i| unknown(c, &format!("a{i}"))),
        secs(70.0)
    ));
    let unknown_at = c.elapsed_seconds();
    // The pass that sets Unknown computes the zone's state from it.
    assert_eq!(zone_state(&c, "a"), Some(ZoneState::FullDisruption));
    assert_eq!(zone_state(&c, "b"), Some(ZoneState::Normal));
    c.advance(secs(1.0));
    for i in 1..=4 {
        assert!(has_taint(&c, &format!("a{i}"), UNREACHABLE, "NoSchedule"));
    }
    c.advance(secs(59.0));
    let times = no_execute_taint_times(&c);
    let names: Vec<&str> = times.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["a1", "a2", "a3", "a4"], "in name order: {times:?}");
    // Queued at the next monitor pass (5 s on), tainted at the next 100 ms tick, then one
    // node per 10 s (`--node-eviction-rate` 0.1, burst 1). `timeAdded` is a metav1.Time, kept
    // to the second as the API server stores it.
    assert!(
        (times[0].0 - (unknown_at + 5.1).floor()).abs() < 1e-6,
        "{times:?} after {unknown_at}"
    );
    for w in times.windows(2) {
        assert!((w[1].0 - w[0].0 - 10.0).abs() < 1e-6, "{times:?}");
    }
}

#[test]
fn reduced_qps_func_stops_tainting_a_small_partially_disrupted_zone() {
    let mut c = zoned_cluster(&[("a", 2), ("b", 5)]);
    c.advance(secs(6.0));
    stop_all(&mut c, "b", 3);
    assert!(c.run_until(
        |c| (1..=3).all(|i| unknown(c, &format!("b{i}"))),
        secs(70.0)
    ));
    // 3 of 5 not Ready: more than two, and 60 % ≥ 55 %; 5 nodes ≤ 50, so no tainting.
    assert_eq!(zone_state(&c, "b"), Some(ZoneState::PartialDisruption));
    assert!(
        c.settle(secs(120.0)),
        "a stopped queue is not work in flight"
    );
    c.advance(secs(300.0));
    assert_eq!(no_execute_taint_times(&c), vec![]);
    assert!(has_taint(&c, "b1", UNREACHABLE, "NoSchedule"));
    // One kubelet back: 2 of 5 is Normal, the normal rate resumes for the two left.
    c.start_node("b3").unwrap();
    c.advance(secs(30.0));
    assert_eq!(zone_state(&c, "b"), Some(ZoneState::Normal));
    let names: Vec<String> = no_execute_taint_times(&c)
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    assert_eq!(names, ["b1", "b2"]);
}

#[test]
fn reduced_qps_func_gives_a_large_partially_disrupted_zone_the_secondary_rate() {
    let mut c = zoned_cluster(&[("a", 60)]);
    c.advance(secs(6.0));
    for i in 1..=40 {
        c.stop_node(&format!("a{i}")).unwrap();
    }
    assert!(c.run_until(
        |c| (1..=40).all(|i| unknown(c, &format!("a{i}"))),
        secs(70.0)
    ));
    assert_eq!(zone_state(&c, "a"), Some(ZoneState::PartialDisruption));
    c.advance(secs(250.0));
    let times = no_execute_taint_times(&c);
    // 60 nodes > 50: `--secondary-node-eviction-rate` 0.01, a node per 100 s.
    assert_eq!(times.len(), 3, "{times:?}");
    for w in times.windows(2) {
        assert!((w[1].0 - w[0].0 - 100.0).abs() < 1e-6, "{times:?}");
    }
}

#[test]
fn handle_disruption_removes_no_execute_taints_when_every_zone_is_fully_disrupted() {
    // Nodes without zone labels share the "" zone.
    let mut c = kind_cluster(3);
    c.advance(secs(6.0));
    assert_eq!(c.zone_states(), vec![(String::new(), ZoneState::Normal)]);
    c.stop_node("worker").unwrap();
    assert!(c.run_until(
        |c| has_taint(c, "worker", UNREACHABLE, "NoExecute"),
        secs(80.0)
    ));
    for n in ["control-plane", "worker2", "worker3", "worker4"] {
        c.stop_node(n).unwrap();
    }
    assert!(c.run_until(
        |c| c
            .nodes()
            .iter()
            .all(|n| unknown(c, n.metadata.name.as_deref().unwrap())),
        secs(80.0)
    ));
    // Every zone fully disrupted: the controller suspects itself, untaints every node and
    // stops tainting.
    assert_eq!(
        c.zone_states(),
        vec![(String::new(), ZoneState::FullDisruption)]
    );
    assert!(!has_taint(&c, "worker", UNREACHABLE, "NoExecute"));
    assert!(c.settle(secs(30.0)));
    c.advance(secs(120.0));
    assert_eq!(no_execute_taint_times(&c), vec![]);
    assert!(has_taint(&c, "worker", UNREACHABLE, "NoSchedule"));
    // One node back: the zone has 4 of 5 not Ready (partial, small: still no tainting).
    c.start_node("worker4").unwrap();
    c.advance(secs(30.0));
    assert_eq!(
        c.zone_states(),
        vec![(String::new(), ZoneState::PartialDisruption)]
    );
    assert_eq!(no_execute_taint_times(&c), vec![]);
}

#[test]
fn monitor_node_health_records_registered_node_and_removing_node() {
    let mut c = kind_cluster(4);
    c.advance(secs(5.0));
    let registered: Vec<(String, String, String)> = c
        .events()
        .iter()
        .filter(|e| e.reason.as_deref() == Some("RegisteredNode"))
        .map(|e| {
            (
                e.involved_object.name.clone().unwrap_or_default(),
                e.message.clone().unwrap_or_default(),
                e.source
                    .as_ref()
                    .and_then(|s| s.component.clone())
                    .unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(registered.len(), 5);
    assert_eq!(
        registered[1],
        (
            "worker".to_string(),
            "Node worker event: Registered Node worker in Controller".to_string(),
            "node-controller".to_string()
        )
    );
    let e = c.events().iter().next().unwrap().clone();
    assert_eq!(e.involved_object.kind.as_deref(), Some("Node"));
    assert_eq!(e.involved_object.namespace, None);
    assert_eq!(e.metadata.namespace.as_deref(), Some("default"));
    assert_eq!(e.type_.as_deref(), Some("Normal"));
    c.remove_node("worker4").unwrap();
    c.advance(secs(5.0));
    let removing: Vec<String> = c
        .events()
        .iter()
        .filter(|e| e.reason.as_deref() == Some("RemovingNode"))
        .filter_map(|e| e.message.clone())
        .collect();
    assert_eq!(
        removing,
        ["Node worker4 event: Removing Node worker4 from Controller"]
    );
}

#[test]
fn monitor_node_health_records_node_not_ready_and_mark_pods_not_ready_warns_each_pod() {
    let mut c = kind_cluster(6);
    start_ds(&mut c, &Busybox::new("agent"));
    let pod = live_pod_on(&c, "worker2").unwrap();
    c.stop_node("worker2").unwrap();
    assert!(c.run_until(|c| unknown(c, "worker2"), secs(70.0)));
    let not_ready: Vec<(String, String, String, String)> = c
        .events()
        .iter()
        .filter(|e| e.reason.as_deref() == Some("NodeNotReady"))
        .map(|e| {
            (
                e.involved_object.kind.clone().unwrap_or_default(),
                e.involved_object.name.clone().unwrap_or_default(),
                e.type_.clone().unwrap_or_default(),
                e.message.clone().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        not_ready,
        [
            (
                "Node".to_string(),
                "worker2".to_string(),
                "Normal".to_string(),
                "Node worker2 status is now: NodeNotReady".to_string()
            ),
            (
                "Pod".to_string(),
                pod.metadata.name.clone().unwrap(),
                "Warning".to_string(),
                "Node is not ready".to_string()
            ),
        ]
    );
    assert!(!controller::pod_util::is_pod_ready(
        &c.pod("default", pod.metadata.name.as_deref().unwrap())
            .unwrap()
    ));
    // Once only: the pod's Ready is already False at the next passes.
    c.advance(secs(30.0));
    let count = c
        .events()
        .iter()
        .filter(|e| e.reason.as_deref() == Some("NodeNotReady"))
        .count();
    assert_eq!(count, 2);
}

fn bare_pod(name: &str, node: &str) -> Pod {
    Pod {
        metadata: ObjectMeta {
            name: Some(name.into()),
            ..Default::default()
        },
        spec: Some(PodSpec {
            node_name: Some(node.into()),
            containers: vec![Container {
                name: "app".into(),
                image: Some("busybox:1.36".into()),
                command: Some(vec!["sleep".into(), "infinity".into()]),
                ..Default::default()
            }],
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// `DefaultTolerationSeconds`: the bare pod tolerates `unreachable:NoExecute` for 300 s, so
/// the taint manager evicts it five minutes after the taint; the DaemonSet's pod, tolerating
/// it without seconds, stays.
#[test]
fn default_toleration_seconds_evicts_a_bare_pod_300_s_after_the_unreachable_taint() {
    let mut c = kind_cluster(9);
    start_ds(&mut c, &Busybox::new("agent"));
    c.apply(bare_pod("web", "worker2")).unwrap();
    assert!(c.settle(secs(30.0)));
    let web = c.pod("default", "web").unwrap();
    let tolerations = web.spec.as_ref().unwrap().tolerations.clone().unwrap();
    assert_eq!(
        tolerations
            .iter()
            .map(|t| (t.key.clone().unwrap(), t.toleration_seconds))
            .collect::<Vec<_>>(),
        [
            ("node.kubernetes.io/not-ready".to_string(), Some(300)),
            (UNREACHABLE.to_string(), Some(300)),
        ]
    );
    c.stop_node("worker2").unwrap();
    assert!(c.run_until(
        |c| has_taint(c, "worker2", UNREACHABLE, "NoExecute"),
        secs(80.0)
    ));
    let tainted: Timestamp = c.now();
    c.advance(secs(299.0));
    assert!(c
        .pod("default", "web")
        .is_some_and(|p| p.metadata.deletion_timestamp.is_none()));
    assert!(c.run_until(
        |c| c
            .pod("default", "web")
            .is_none_or(|p| p.metadata.deletion_timestamp.is_some()),
        secs(2.0)
    ));
    let took = c.now().duration_since(tainted).as_secs_f64();
    assert!(
        (300.0..301.0).contains(&took),
        "evicted {took:.2} s after the taint"
    );
    let agent = live_pod_on(&c, "worker2").expect("the DaemonSet's pod stays");
    assert!(agent
        .metadata
        .name
        .as_deref()
        .unwrap()
        .starts_with("agent-"));
}

fn pods_on(c: &Cluster, node: &str) -> Vec<String> {
    c.pods()
        .iter()
        .filter(|p| controller::pod_util::node_name(p) == node)
        .filter_map(|p| p.metadata.name.clone())
        .collect()
}

/// Non-graceful node shutdown: once the node is NotReady and tainted
/// `node.kubernetes.io/out-of-service:NoExecute`, the taint manager and the DaemonSet
/// controller delete its pods, and pod GC (`gcTerminating`) force-deletes them, since no
/// kubelet will finish them. Without the taint they stay terminating.
#[test]
fn gc_terminating_force_deletes_terminating_pods_on_a_not_ready_out_of_service_node() {
    let mut c = kind_cluster(12);
    start_ds(&mut c, &Busybox::new("agent"));
    c.apply(bare_pod("web", "worker2")).unwrap();
    c.apply(bare_pod("db", "worker3")).unwrap();
    assert!(c.settle(secs(30.0)));
    c.stop_node("worker2").unwrap();
    c.stop_node("worker3").unwrap();
    assert!(c.run_until(
        |c| unknown(c, "worker2") && unknown(c, "worker3"),
        secs(70.0)
    ));
    c.delete_pod("default", "db").unwrap();
    c.advance(secs(10.0));
    set_taints(
        &mut c,
        "worker2",
        vec![taint(
            "node.kubernetes.io/out-of-service",
            "nodeshutdown",
            "NoExecute",
        )],
    );
    let tainted = c.elapsed_seconds();
    assert!(c.run_until(|c| pods_on(c, "worker2").is_empty(), secs(25.0)));
    let took = c.elapsed_seconds() - tainted;
    assert!(took <= 20.5, "collected {took:.2} s after the taint");
    // worker3 has no out-of-service taint: its deleted pod waits for a kubelet.
    c.advance(secs(60.0));
    let db = c.pod("default", "db").expect("still terminating");
    assert!(db.metadata.deletion_timestamp.is_some());
    // The DaemonSet does not come back to worker2: it does not tolerate the taint.
    assert!(pods_on(&c, "worker2").is_empty());
}
