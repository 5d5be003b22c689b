//! Determinism and the behaviour of each actor of the virtual cluster.

mod support;

use cluster::{to_json_lines, ApiError, ApplyOutcome, Cluster, PodEvent, Propagation, TraceKind};
use k8s_openapi::api::core::v1::Pod;
use std::collections::BTreeMap;
use support::*;

/// A busy scenario: rollout, a node stop/start, a taint, a new node.
fn scenario(seed: u64) -> Cluster {
    let mut c = kind_cluster(seed);
    start_ds(&mut c, &Busybox::rolling("ru", 1));
    set_env(&mut c, "ru", "2");
    c.advance(secs(10.0));
    c.stop_node("worker3").unwrap();
    c.advance(secs(20.0));
    set_taints(&mut c, "worker", vec![taint("k42", "x", "NoSchedule")]);
    c.add_node(node("worker5", &[], vec![])).unwrap();
    c.advance(secs(20.0));
    c.start_node("worker3").unwrap();
    assert!(c.settle(secs(300.0)));
    c
}

/// What must not depend on the seed: per node, the number of live pods and their readiness,
/// and the DaemonSet status.
fn final_state(c: &Cluster) -> (BTreeMap<String, Vec<bool>>, String) {
    let pods = live_pods_by_node(c)
        .into_iter()
        .map(|(n, ps)| {
            (
                n,
                ps.iter()
                    .map(|p| controller::pod_util::is_pod_ready(p))
                    .collect(),
            )
        })
        .collect();
    let status = serde_json::to_string(&c.daemon_set("default", "ru").unwrap().status).unwrap();
    (pods, status)
}

#[test]
fn same_seed_replays_the_same_trace_byte_for_byte() {
    let a = to_json_lines(scenario(7).trace());
    let b = to_json_lines(scenario(7).trace());
    assert!(a.len() > 1000);
    assert_eq!(a, b);
}

#[test]
fn another_seed_changes_the_timing_but_not_the_outcome() {
    let a = scenario(7);
    let b = scenario(8);
    assert_ne!(to_json_lines(a.trace()), to_json_lines(b.trace()));
    assert_eq!(final_state(&a), final_state(&b));
}

#[test]
fn a_clone_continues_exactly_like_the_original() {
    let mut a = kind_cluster(3);
    start_ds(&mut a, &Busybox::rolling("ru", 1));
    set_env(&mut a, "ru", "2");
    a.advance(secs(5.0));
    let mut b = a.clone();
    a.advance(secs(30.0));
    b.advance(secs(30.0));
    assert_eq!(to_json_lines(a.trace()), to_json_lines(b.trace()));
}

#[test]
fn trace_lines_have_t_and_kind() {
    let c = scenario(1);
    let text = to_json_lines(c.trace());
    for line in text.lines().take(200) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["t"].is_number());
        assert!(v["kind"].is_string());
    }
    assert!(text.contains("\"kind\":\"DaemonSetStatus\""));
    assert!(text.contains("\"revisionHash\""));
    assert!(text.contains("\"involvedObject\""));
}

#[test]
fn scheduler_leaves_a_pod_that_does_not_fit_pending_and_binds_it_when_room_appears() {
    let mut c = kind_cluster(4);
    c.update_node("worker", |n| {
        let st = n.status.get_or_insert_with(Default::default);
        st.allocatable = Some(BTreeMap::from([
            (
                "cpu".into(),
                k8s_openapi::apimachinery::pkg::api::resource::Quantity("500m".into()),
            ),
            (
                "memory".into(),
                k8s_openapi::apimachinery::pkg::api::resource::Quantity("1Gi".into()),
            ),
            (
                "pods".into(),
                k8s_openapi::apimachinery::pkg::api::resource::Quantity("110".into()),
            ),
        ]));
    })
    .unwrap();
    // The yaml helper appends a second `containers:` key; build the DS by hand instead.
    let mut ds = Busybox::new("res").daemon_set();
    let ctr = &mut ds.spec.template.spec.as_mut().unwrap().containers[0];
    ctr.resources = Some(k8s_openapi::api::core::v1::ResourceRequirements {
        requests: Some(BTreeMap::from([
            (
                "cpu".into(),
                k8s_openapi::apimachinery::pkg::api::resource::Quantity("1".into()),
            ),
            (
                "memory".into(),
                k8s_openapi::apimachinery::pkg::api::resource::Quantity("64Mi".into()),
            ),
        ])),
        ..Default::default()
    });
    c.apply(ds).unwrap();
    assert!(c.settle(secs(30.0)));
    let pending = live_pod_on(&c, "worker").expect("pod created for worker (R-ELG-5)");
    assert_eq!(controller::pod_util::node_name(&pending), "");
    let cond = pending
        .status
        .as_ref()
        .unwrap()
        .conditions
        .as_ref()
        .unwrap()
        .iter()
        .find(|c| c.type_ == "PodScheduled")
        .cloned()
        .unwrap();
    assert_eq!(
        (cond.status.as_str(), cond.reason.as_deref()),
        ("False", Some("Unschedulable"))
    );
    assert!(cond.message.unwrap().contains("1 Insufficient cpu"));
    assert!(c
        .events()
        .iter()
        .any(|e| e.reason.as_deref() == Some("FailedScheduling")));
    let s = c
        .daemon_set("default", "res")
        .unwrap()
        .status
        .clone()
        .unwrap();
    assert_eq!((s.current_number_scheduled, s.number_ready), (4, 3));

    c.update_node("worker", |n| {
        let st = n.status.as_mut().unwrap();
        st.allocatable.as_mut().unwrap().insert(
            "cpu".into(),
            k8s_openapi::apimachinery::pkg::api::resource::Quantity("2".into()),
        );
    })
    .unwrap();
    assert!(c.run_until(|c| bound_live_pod_on(c, "worker"), secs(1.0)));
}

#[test]
fn scheduler_refuses_a_taken_host_port() {
    let mut c = kind_cluster(5);
    let port = |p: &mut Pod| {
        let ctr = &mut p.spec.as_mut().unwrap().containers[0];
        ctr.ports = Some(vec![k8s_openapi::api::core::v1::ContainerPort {
            container_port: 80,
            host_port: Some(8080),
            ..Default::default()
        }]);
    };
    let mut bare: Pod = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "web"},
        "spec": {"nodeName": "worker2", "containers": [{"name": "web", "image": "nginx"}]}
    }))
    .unwrap();
    port(&mut bare);
    assert_eq!(c.apply(bare).unwrap(), ApplyOutcome::Created);
    let mut ds = Busybox::new("hp").daemon_set();
    let ctr = &mut ds.spec.template.spec.as_mut().unwrap().containers[0];
    ctr.ports = Some(vec![k8s_openapi::api::core::v1::ContainerPort {
        container_port: 80,
        host_port: Some(8080),
        ..Default::default()
    }]);
    c.apply(ds).unwrap();
    assert!(c.settle(secs(30.0)));
    let p = live_pods_by_node(&c)
        .remove("worker2")
        .unwrap()
        .into_iter()
        .find(|p| p.metadata.name.as_deref() != Some("web"))
        .unwrap();
    assert_eq!(controller::pod_util::node_name(&p), "");
    let msg = serde_json::to_string(&p.status).unwrap();
    assert!(msg.contains("didn't have free ports"), "{msg}");
    assert_eq!(c.unschedulable_pods(), 1);
}

#[test]
fn readiness_comes_initial_delay_plus_a_probe_phase_after_start() {
    let mut c = kind_cluster(6);
    let mut ds = Busybox::rolling("probe", 1).daemon_set();
    let probe = ds.spec.template.spec.as_mut().unwrap().containers[0]
        .readiness_probe
        .as_mut()
        .unwrap();
    probe.initial_delay_seconds = Some(5);
    probe.period_seconds = Some(2);
    probe.success_threshold = Some(2);
    c.apply(ds).unwrap();
    assert!(c.settle(secs(60.0)));
    let mut started = BTreeMap::new();
    let mut ready = BTreeMap::new();
    for e in c.trace() {
        if let TraceKind::Pod { name, event, .. } = &e.kind {
            match event {
                PodEvent::Started => {
                    started.insert(name.clone(), e.t);
                }
                PodEvent::Ready => {
                    ready.insert(name.clone(), e.t);
                }
                _ => {}
            }
        }
    }
    assert_eq!(ready.len(), 4);
    for (name, r) in &ready {
        let d = r - started[name];
        // initialDelay 5 + phase [0, 2) + one more period for successThreshold 2.
        assert!(
            (7.0..9.0).contains(&d),
            "{name}: ready {d:.3} s after start"
        );
    }
}

fn has_taint(c: &Cluster, node: &str, key: &str, effect: &str) -> bool {
    c.node(node)
        .and_then(|n| n.spec.clone())
        .and_then(|s| s.taints)
        .is_some_and(|ts| ts.iter().any(|t| t.key == key && t.effect == effect))
}

fn ready_condition(c: &Cluster, node: &str) -> String {
    c.node(node)
        .and_then(|n| n.status.clone())
        .and_then(|s| s.conditions)
        .and_then(|cs| cs.into_iter().find(|c| c.type_ == "Ready"))
        .map(|c| c.status)
        .unwrap_or_default()
}

#[test]
fn stopped_kubelet_goes_unknown_after_the_grace_period_and_recovers_on_start() {
    let mut c = kind_cluster(7);
    start_ds(&mut c, &Busybox::new("nl"));
    let stop_at = c.elapsed_seconds();
    c.stop_node("worker2").unwrap();
    c.advance(secs(40.0));
    assert_eq!(ready_condition(&c, "worker2"), "True");
    assert!(!has_taint(
        &c,
        "worker2",
        "node.kubernetes.io/unreachable",
        "NoExecute"
    ));
    assert!(c.run_until(
        |c| has_taint(c, "worker2", "node.kubernetes.io/unreachable", "NoExecute")
            && has_taint(c, "worker2", "node.kubernetes.io/unreachable", "NoSchedule"),
        secs(30.0)
    ));
    let took = c.elapsed_seconds() - stop_at;
    // Last Lease renewal ≤ 10 s before the stop; grace 50 s; monitor every 5 s.
    assert!(
        (50.0..=65.5).contains(&took),
        "unreachable after {took:.2} s"
    );
    assert_eq!(ready_condition(&c, "worker2"), "Unknown");
    assert!(c.settle(secs(30.0)));
    // DS pods tolerate unreachable:NoExecute: the pod stays, marked not ready. They do not
    // tolerate unreachable:NoSchedule, so the node leaves the desired set (R-ELG-7) and its
    // pod counts as misscheduled.
    let p = live_pod_on(&c, "worker2").expect("pod stays");
    assert!(!controller::pod_util::is_pod_ready(&p));
    let s = c
        .daemon_set("default", "nl")
        .unwrap()
        .status
        .clone()
        .unwrap();
    assert_eq!(
        (
            s.desired_number_scheduled,
            s.number_ready,
            s.number_misscheduled
        ),
        (3, 3, 1)
    );

    // The NoSchedule pass follows the kubelet's Ready at once; the NoExecute taint goes at the
    // next monitor pass (`processTaintBaseEviction` → `markNodeAsReachable`).
    c.start_node("worker2").unwrap();
    assert!(c.run_until(
        |c| !has_taint(c, "worker2", "node.kubernetes.io/unreachable", "NoSchedule"),
        secs(1.0)
    ));
    assert!(c.run_until(
        |c| !has_taint(c, "worker2", "node.kubernetes.io/unreachable", "NoExecute"),
        secs(5.0)
    ));
    assert!(c.run_until(|c| status_is(c, "nl", (4, 4, 0), 4), secs(5.0)));
}

#[test]
fn a_node_joining_later_is_tainted_not_ready_until_its_kubelet_is_ready() {
    let mut c = kind_cluster(8);
    start_ds(&mut c, &Busybox::new("join"));
    c.add_node(node("worker5", &[], vec![])).unwrap();
    assert!(has_taint(
        &c,
        "worker5",
        "node.kubernetes.io/not-ready",
        "NoSchedule"
    ));
    c.advance(secs(0.5));
    assert!(
        live_pod_on(&c, "worker5").is_none(),
        "R-ELG-7: no pod while not-ready:NoSchedule"
    );
    assert!(c.run_until(|c| bound_live_pod_on(c, "worker5"), secs(2.0)));
    assert!(!has_taint(
        &c,
        "worker5",
        "node.kubernetes.io/not-ready",
        "NoSchedule"
    ));
    assert!(c.run_until(|c| status_is(c, "join", (5, 5, 0), 5), secs(5.0)));
}

fn addresses(c: &Cluster, node: &str) -> Vec<(String, String)> {
    let n = c.node(node).expect("node");
    let st = n.status.as_ref().expect("status");
    st.addresses
        .iter()
        .flatten()
        .map(|a| (a.type_.clone(), a.address.clone()))
        .collect()
}

#[test]
fn kubelets_report_kind_like_addresses_in_the_order_nodes_join() {
    let mut c = kind_cluster(3);
    let want = |ip: &str, host: &str| {
        vec![
            ("InternalIP".to_string(), ip.to_string()),
            ("Hostname".to_string(), host.to_string()),
        ]
    };
    assert_eq!(
        addresses(&c, "control-plane"),
        want("172.18.0.2", "control-plane")
    );
    assert_eq!(addresses(&c, "worker4"), want("172.18.0.6", "worker4"));
    // A node that joins later gets the next address, even after another left.
    c.remove_node("worker2").unwrap();
    c.add_node(node("worker5", &[], vec![])).unwrap();
    assert_eq!(addresses(&c, "worker5"), want("172.18.0.7", "worker5"));
    // The 255th node and on stay in 172.18.0.0/16.
    for i in 6..=300 {
        c.add_node(node(&format!("worker{i}"), &[], vec![]))
            .unwrap();
    }
    assert_eq!(addresses(&c, "worker300"), want("172.18.1.46", "worker300"));
    // An imported node keeps the addresses it came with.
    let mut real = node("gke-a", &[], vec![]);
    real.status = Some(k8s_openapi::api::core::v1::NodeStatus {
        addresses: Some(vec![k8s_openapi::api::core::v1::NodeAddress {
            type_: "InternalIP".into(),
            address: "10.128.0.7".into(),
        }]),
        ..Default::default()
    });
    c.add_node(real).unwrap();
    assert_eq!(
        addresses(&c, "gke-a"),
        [("InternalIP".to_string(), "10.128.0.7".to_string())]
    );
}

fn ips(p: &Pod) -> (String, Vec<String>, String, Vec<String>) {
    let st = p.status.clone().unwrap_or_default();
    (
        st.pod_ip.unwrap_or_default(),
        st.pod_ips.into_iter().flatten().map(|i| i.ip).collect(),
        st.host_ip.unwrap_or_default(),
        st.host_ips.into_iter().flatten().map(|i| i.ip).collect(),
    )
}

#[test]
fn pods_get_their_nodes_address_as_host_ip_and_one_from_its_pod_cidr() {
    let mut c = kind_cluster(4);
    start_ds(&mut c, &Busybox::new("ips"));
    // worker is the second node to register: 172.18.0.3, pod CIDR 10.244.1.0/24.
    let p = live_pod_on(&c, "worker").expect("pod on worker");
    let (pod_ip, pod_ips, host_ip, host_ips) = ips(&p);
    assert!(pod_ip.starts_with("10.244.1."), "{pod_ip}");
    assert_eq!(pod_ips.as_slice(), std::slice::from_ref(&pod_ip));
    assert_eq!(
        (host_ip.as_str(), host_ips),
        ("172.18.0.3", vec!["172.18.0.3".to_string()])
    );
    // With hostNetwork the pod has its node's address (node agents, CNI plugins).
    let mut agent = Busybox::new("agent");
    agent.extra_spec = "      hostNetwork: true\n";
    c.apply(agent.daemon_set()).expect("apply");
    assert!(c.run_until(|c| status_is(c, "agent", (4, 4, 0), 4), secs(60.0)));
    let on_worker4 = c
        .pods()
        .into_iter()
        .find(|p| {
            p.metadata
                .name
                .as_deref()
                .is_some_and(|n| n.starts_with("agent-"))
                && controller::pod_util::node_name(p) == "worker4"
        })
        .expect("agent pod on worker4");
    let (pod_ip, pod_ips, host_ip, _) = ips(&on_worker4);
    assert_eq!(
        (pod_ip.as_str(), host_ip.as_str()),
        ("172.18.0.6", "172.18.0.6")
    );
    assert_eq!(pod_ips, ["172.18.0.6"]);
}

#[test]
fn each_machine_has_an_id_and_a_new_boot_id_when_it_joins_again() {
    let mut c = kind_cluster(3);
    let info = |c: &Cluster, n: &str| {
        let node = c.node(n).expect("node");
        node.status
            .clone()
            .and_then(|s| s.node_info)
            .expect("nodeInfo")
    };
    let a = info(&c, "worker");
    let b = info(&c, "worker2");
    assert!(
        a.machine_id.len() == 32 && a.machine_id.bytes().all(|x| x.is_ascii_hexdigit()),
        "{}",
        a.machine_id
    );
    for u in [&a.system_uuid, &a.boot_id] {
        let g: Vec<&str> = u.split('-').collect();
        assert_eq!(
            g.iter().map(|x| x.len()).collect::<Vec<_>>(),
            [8, 4, 4, 4, 12],
            "{u}"
        );
        assert!(
            g[2].starts_with('4') && g[3].starts_with(['8', '9', 'a', 'b']),
            "{u}"
        );
    }
    assert_ne!(a.machine_id, b.machine_id);
    assert_ne!(a.system_uuid, b.system_uuid);
    // The same machine joins again: same machine, a new boot.
    c.remove_node("worker").unwrap();
    c.add_node(node("worker", &[], vec![])).unwrap();
    let again = info(&c, "worker");
    assert_eq!(
        (&again.machine_id, &again.system_uuid),
        (&a.machine_id, &a.system_uuid)
    );
    assert_ne!(again.boot_id, a.boot_id);
}

#[test]
fn cordon_adds_the_unschedulable_taint_and_keeps_daemon_pods() {
    let mut c = kind_cluster(9);
    start_ds(&mut c, &Busybox::new("cordon"));
    c.update_node("worker", |n| {
        n.spec.get_or_insert_with(Default::default).unschedulable = Some(true)
    })
    .unwrap();
    assert!(c.settle(secs(10.0)));
    assert!(has_taint(
        &c,
        "worker",
        "node.kubernetes.io/unschedulable",
        "NoSchedule"
    ));
    assert_eq!(live_pods_by_node(&c).len(), 4);
}

#[test]
fn toleration_seconds_evicts_and_the_daemon_set_recreates_in_a_loop() {
    let mut c = kind_cluster(10);
    let ds = Busybox {
        grace: Some(1),
        extra_spec: "      tolerations:\n      - key: k42\n        operator: Exists\n        effect: NoExecute\n        tolerationSeconds: 5\n",
        ..Busybox::new("loop")
    };
    start_ds(&mut c, &ds);
    let from = c.trace().len();
    set_taints(&mut c, "worker", vec![taint("k42", "x", "NoExecute")]);
    c.advance(secs(4.0));
    assert!(live_pod_on(&c, "worker").is_some(), "tolerated for 5 s");
    c.advance(secs(30.0));
    let evictions: Vec<f64> = c.trace()[from..]
        .iter()
        .filter(|e| matches!(&e.kind, TraceKind::Pod { node, event: PodEvent::Evicted, .. } if node == "worker"))
        .map(|e| e.t)
        .collect();
    assert!(evictions.len() >= 3, "R-TE-7 loop: {evictions:?}");
    for w in evictions.windows(2) {
        let gap = w[1] - w[0];
        assert!(
            (6.0..8.0).contains(&gap),
            "5 s + grace 1 s + latencies, got {gap:.2}"
        );
    }
    let marks = c
        .events()
        .iter()
        .filter(|e| {
            e.reason.as_deref() == Some("TaintManagerEviction")
                && e.message
                    .as_deref()
                    .is_some_and(|m| m.starts_with("Marking"))
        })
        .count();
    assert!(marks >= 3);
    assert!(c.scheduled_evictions() <= 1);
}

#[test]
fn gc_orphaned_marks_pods_on_a_removed_node_failed_and_force_deletes_them_after_quarantine() {
    let mut c = kind_cluster(11);
    start_ds(&mut c, &Busybox::new("gc"));
    let removed_at = c.elapsed_seconds();
    c.remove_node("worker4").unwrap();
    // R-EVT-9: no node-delete handler, so the DS status is only refreshed by a later sync.
    assert!(c
        .pods()
        .iter()
        .any(|p| controller::pod_util::node_name(p) == "worker4"));
    c.advance(secs(39.0));
    assert!(c
        .pods()
        .iter()
        .any(|p| controller::pod_util::node_name(p) == "worker4"));
    assert!(c.run_until(
        |c| !c
            .pods()
            .iter()
            .any(|p| controller::pod_util::node_name(p) == "worker4"),
        secs(30.0)
    ));
    let took = c.elapsed_seconds() - removed_at;
    assert!((40.0..=60.5).contains(&took), "collected after {took:.2} s");
    // markFailedAndDeletePodWithCondition: the orphan is first marked Failed, then deleted.
    let on_worker4: Vec<_> = c
        .trace()
        .iter()
        .filter_map(|e| match &e.kind {
            cluster::TraceKind::Pod {
                node, phase, event, ..
            } if node == "worker4" => Some((phase.clone(), format!("{event:?}"))),
            _ => None,
        })
        .collect();
    let n = on_worker4.len();
    assert!(n >= 2, "{on_worker4:?}");
    assert_eq!(on_worker4[n - 2].0, "Failed", "{on_worker4:?}");
    assert_eq!(on_worker4[n - 1].1, "Deleted", "{on_worker4:?}");
    assert!(c.settle(secs(10.0)));
    assert_eq!(c.pods().len(), 3);
    let s = c
        .daemon_set("default", "gc")
        .unwrap()
        .status
        .clone()
        .unwrap();
    assert_eq!(
        (s.desired_number_scheduled, s.current_number_scheduled),
        (3, 3)
    );
}

#[test]
fn orphan_delete_keeps_pods_and_a_new_daemon_set_adopts_them() {
    let mut c = kind_cluster(12);
    let ds = Busybox::new("orph");
    start_ds(&mut c, &ds);
    let names: Vec<_> = c.pods().iter().map(|p| p.metadata.name.clone()).collect();
    c.delete_daemon_set("default", "orph", Propagation::Orphan)
        .unwrap();
    assert!(c.settle(secs(10.0)));
    assert!(c.daemon_set("default", "orph").is_none());
    assert_eq!(c.pods().len(), 4);
    assert!(c
        .pods()
        .iter()
        .all(|p| p.metadata.owner_references.is_none()));
    assert!(c
        .revisions()
        .iter()
        .all(|r| r.metadata.owner_references.is_none()));

    assert_eq!(c.apply(ds.daemon_set()).unwrap(), ApplyOutcome::Created);
    assert!(c.settle(secs(30.0)));
    let uid = c
        .daemon_set("default", "orph")
        .unwrap()
        .metadata
        .uid
        .clone()
        .unwrap();
    let after: Vec<_> = c.pods().iter().map(|p| p.metadata.name.clone()).collect();
    assert_eq!(after, names, "adopted, not replaced");
    assert!(c
        .pods()
        .iter()
        .all(|p| p.metadata.owner_references.as_ref().is_some_and(|rs| rs
            .iter()
            .any(|r| r.uid == uid && r.controller == Some(true)))));
    assert_eq!(c.revisions().len(), 1);
    assert!(c.revisions()[0]
        .metadata
        .owner_references
        .as_ref()
        .is_some_and(|rs| rs[0].uid == uid));
    assert!(status_is(&c, "orph", (4, 4, 0), 4));
}

#[test]
fn background_delete_removes_the_daemon_set_now_and_its_dependents_after() {
    let mut c = kind_cluster(13);
    start_ds(
        &mut c,
        &Busybox {
            grace: Some(2),
            ..Busybox::new("bg")
        },
    );
    c.delete_daemon_set("default", "bg", Propagation::Background)
        .unwrap();
    assert!(c.daemon_set("default", "bg").is_none());
    assert!(c.run_until(
        |c| c
            .pods()
            .iter()
            .all(|p| p.metadata.deletion_timestamp.is_some()),
        secs(1.0)
    ));
    assert!(c.settle(secs(30.0)));
    assert!(c.pods().is_empty());
    assert!(c.revisions().is_empty());
}

#[test]
fn foreground_delete_keeps_the_daemon_set_until_its_pods_are_gone() {
    let mut c = kind_cluster(14);
    start_ds(
        &mut c,
        &Busybox {
            grace: Some(2),
            ..Busybox::new("fg")
        },
    );
    c.delete_daemon_set("default", "fg", Propagation::Foreground)
        .unwrap();
    c.advance(secs(1.0));
    let ds = c.daemon_set("default", "fg").expect("still there");
    assert!(ds.metadata.deletion_timestamp.is_some());
    assert!(ds
        .metadata
        .finalizers
        .as_ref()
        .is_some_and(|f| f.iter().any(|x| x == "foregroundDeletion")));
    assert!(c.settle(secs(30.0)));
    assert!(c.daemon_set("default", "fg").is_none());
    assert!(c.pods().is_empty());
}

#[test]
fn apply_reports_created_unchanged_configured_and_kubectl_like_errors() {
    let mut c = kind_cluster(15);
    let ds = Busybox::new("ap").daemon_set();
    assert_eq!(c.apply(ds.clone()).unwrap(), ApplyOutcome::Created);
    assert_eq!(c.apply(ds.clone()).unwrap(), ApplyOutcome::Unchanged);
    let gen1 = c.daemon_set("default", "ap").unwrap().metadata.generation;
    let mut changed = ds.clone();
    changed.spec.min_ready_seconds = Some(5);
    assert_eq!(c.apply(changed).unwrap(), ApplyOutcome::Configured);
    assert_eq!(
        c.daemon_set("default", "ap").unwrap().metadata.generation,
        gen1.map(|g| g + 1)
    );

    let mut other_selector = ds.clone();
    other_selector.spec.selector.match_labels = Some(BTreeMap::from([("app".into(), "x".into())]));
    other_selector
        .spec
        .template
        .metadata
        .as_mut()
        .unwrap()
        .labels = Some(BTreeMap::from([("app".into(), "x".into())]));
    let err = c.apply(other_selector).unwrap_err();
    assert!(matches!(err, ApiError::Invalid { .. }));
    assert!(
        err.to_string()
            .starts_with("The DaemonSet \"ap\" is invalid:"),
        "{err}"
    );
    assert!(err.to_string().contains("field is immutable"), "{err}");

    let mut surge = Busybox::new("surge").daemon_set();
    surge.spec.update_strategy = Some(k8s_openapi::api::apps::v1::DaemonSetUpdateStrategy {
        type_: Some("RollingUpdate".into()),
        rolling_update: Some(k8s_openapi::api::apps::v1::RollingUpdateDaemonSet {
            max_surge: Some(k8s_openapi::apimachinery::pkg::util::intstr::IntOrString::Int(1)),
            max_unavailable: None,
        }),
    });
    assert!(
        matches!(c.apply(surge), Err(ApiError::Invalid { .. })),
        "R-DEF-5"
    );

    let e = c.delete_pod("default", "nope").unwrap_err();
    assert_eq!(
        e.to_string(),
        "Error from server (NotFound): pods \"nope\" not found"
    );
    assert!(c.stop_node("nope").is_err());
    assert!(c.fail_pod("default", "nope").is_err());
}

#[test]
fn only_a_pod_running_on_a_node_can_fail() {
    let mut c = kind_cluster(19);
    c.apply(Busybox::new("unbound").daemon_set()).unwrap();
    let unbound = |c: &Cluster| {
        c.pods()
            .into_iter()
            .find(|p| p.spec.as_ref().and_then(|s| s.node_name.as_ref()).is_none())
            .and_then(|p| p.metadata.name.clone())
    };
    assert!(c.run_until(|c| unbound(c).is_some(), secs(5.0)));
    let name = unbound(&c).unwrap();
    let e = c.fail_pod("default", &name).unwrap_err().to_string();
    assert!(
        e.contains("is not on a node yet") && e.contains("hint:"),
        "{e}"
    );
    assert_ne!(
        c.pod("default", &name)
            .and_then(|p| p.status.clone())
            .and_then(|s| s.phase),
        Some("Failed".to_string()),
        "nothing changed"
    );

    assert!(c.settle(secs(30.0)));
    // A stopped kubelet reports nothing.
    let on3 = live_pod_on(&c, "worker3")
        .and_then(|p| p.metadata.name.clone())
        .unwrap();
    c.stop_node("worker3").unwrap();
    let e = c.fail_pod("default", &on3).unwrap_err().to_string();
    assert!(
        e.contains("is stopped") && e.contains("node start worker3"),
        "{e}"
    );
    c.start_node("worker3").unwrap();
    c.fail_pod("default", &on3).unwrap();
    // Once failed, it has nothing left to fail.
    let e = c.fail_pod("default", &on3).unwrap_err().to_string();
    assert!(
        e.contains("already finished (phase Failed)") && e.contains("hint:"),
        "{e}"
    );

    // A pod left bound to a deleted node: no kubelet reports for it.
    let victim = live_pod_on(&c, "worker2").unwrap();
    let name = victim.metadata.name.clone().unwrap();
    c.remove_node("worker2").unwrap();
    let e = c.fail_pod("default", &name).unwrap_err().to_string();
    assert!(
        e.contains("which no longer exists") && e.contains("kubectl delete pod"),
        "{e}"
    );
    assert!(c.update_daemon_set("default", "nope", |_| {}).is_err());
}

#[test]
fn a_failed_pod_is_replaced_by_the_controller() {
    let mut c = kind_cluster(16);
    start_ds(&mut c, &Busybox::new("fail"));
    let victim = live_pod_on(&c, "worker3").unwrap();
    let name = victim.metadata.name.clone().unwrap();
    c.fail_pod("default", &name).unwrap();
    assert!(c.run_until(|c| c.pod("default", &name).is_none(), secs(1.0)));
    assert!(c
        .events()
        .iter()
        .any(|e| e.reason.as_deref() == Some("FailedDaemonPod")));
    assert!(c.run_until(|c| status_is(c, "fail", (4, 4, 0), 4), secs(5.0)));
    assert!(live_pod_on(&c, "worker3").is_some_and(|p| p.metadata.name.as_deref() != Some(&name)));
}

#[test]
fn a_pod_evicted_before_its_containers_start_reports_them_terminated_as_convert_to_api_container_statuses_does(
) {
    let mut c = kind_cluster(18);
    c.apply(Busybox::new("early").daemon_set()).unwrap();
    let unstarted = |c: &Cluster| {
        c.pods().into_iter().find(|p| {
            p.spec.as_ref().and_then(|s| s.node_name.as_ref()).is_some()
                && p.status
                    .as_ref()
                    .and_then(|s| s.container_statuses.as_ref())
                    .is_none()
        })
    };
    assert!(c.run_until(|c| unstarted(c).is_some(), secs(5.0)));
    let name = unstarted(&c).and_then(|p| p.metadata.name.clone()).unwrap();
    c.fail_pod("default", &name).unwrap();
    let p = c
        .pod("default", &name)
        .expect("still there until the controller acts");
    let st = p.status.as_ref().unwrap();
    assert_eq!(st.phase.as_deref(), Some("Failed"));
    let statuses = st.container_statuses.as_deref().unwrap_or_default();
    assert_eq!(statuses.len(), 1, "one per container: {statuses:?}");
    let cs = &statuses[0];
    assert_eq!(cs.name, "app");
    assert!(!cs.ready && cs.started == Some(false));
    let t = cs
        .state
        .as_ref()
        .and_then(|s| s.terminated.as_ref())
        .expect("terminated");
    // `pod fail` is an eviction; a container that never ran is reported as the kubelet's
    // `convertToAPIContainerStatuses` reports one missing from a terminal pod.
    assert_eq!(
        (t.exit_code, t.reason.as_deref()),
        (137, Some("ContainerStatusUnknown"))
    );
    assert_eq!(st.reason.as_deref(), Some("Evicted"));
    assert!(t.started_at.is_none(), "it never ran");
    assert!(t.finished_at.is_some());
}

/// (reason, fieldPath, message) of the kubelet's events about one pod, oldest first.
fn kubelet_events(c: &Cluster, pod: &str) -> Vec<(String, String, String)> {
    let mut v: Vec<_> = c
        .events()
        .iter()
        .filter(|e| e.involved_object.name.as_deref() == Some(pod))
        .filter(|e| e.source.as_ref().and_then(|s| s.component.as_deref()) == Some("kubelet"))
        .map(|e| {
            let node = e.source.as_ref().and_then(|s| s.host.clone());
            assert_eq!(e.reporting_instance, node, "reported by the node's kubelet");
            assert!(node.is_some_and(|n| !n.is_empty()));
            assert_eq!(e.count, Some(1), "{e:?}");
            (
                e.metadata.name.clone().unwrap_or_default(),
                (
                    e.reason.clone().unwrap_or_default(),
                    e.involved_object.field_path.clone().unwrap_or_default(),
                    e.message.clone().unwrap_or_default(),
                ),
            )
        })
        .collect();
    v.sort();
    v.into_iter().map(|(_, e)| e).collect()
}

#[test]
fn kubelets_record_container_events_with_field_paths_init_containers_first() {
    let ds = Busybox {
        extra_spec: "      initContainers:\n      - name: setup\n        image: busybox:1.36\n      - name: fetch\n        image: alpine:3.20\n        imagePullPolicy: Always\n",
        ..Busybox::new("evs")
    };
    let mut c = kind_cluster(21);
    start_ds(&mut c, &ds);
    let pod = live_pod_on(&c, "worker2").unwrap();
    let name = pod.metadata.name.clone().unwrap();
    let row = |r: &str, f: &str, m: &str| (r.to_string(), f.to_string(), m.to_string());
    let present = |image: &str| {
        format!(
            "Container image \"{image}\" already present on machine and can be accessed by the pod"
        )
    };
    let started = vec![
        row(
            "Pulled",
            "spec.initContainers{setup}",
            &present("busybox:1.36"),
        ),
        row("Created", "spec.initContainers{setup}", "Container created"),
        row("Started", "spec.initContainers{setup}", "Container started"),
        // Pulled again (Always): no pull is simulated, so no image event.
        row("Created", "spec.initContainers{fetch}", "Container created"),
        row("Started", "spec.initContainers{fetch}", "Container started"),
        row("Pulled", "spec.containers{app}", &present("busybox:1.36")),
        row("Created", "spec.containers{app}", "Container created"),
        row("Started", "spec.containers{app}", "Container started"),
    ];
    assert_eq!(kubelet_events(&c, &name), started);
    // The finished init containers are reported as such.
    let init = pod
        .status
        .as_ref()
        .and_then(|s| s.init_container_statuses.clone())
        .unwrap_or_default();
    let done: Vec<_> = init
        .iter()
        .map(|s| {
            let t = s.state.as_ref().and_then(|s| s.terminated.as_ref());
            (
                s.name.as_str(),
                s.ready,
                t.map(|t| (t.exit_code, t.reason.clone())),
            )
        })
        .collect();
    let completed = Some((0, Some("Completed".to_string())));
    assert_eq!(
        done,
        [
            ("setup", true, completed.clone()),
            ("fetch", true, completed)
        ]
    );
    // Deleting the running pod: the kubelet stops its container, and only that one.
    c.delete_pod("default", &name).unwrap();
    c.advance(secs(1.0));
    let mut stopped = started;
    stopped.push(row(
        "Killing",
        "spec.containers{app}",
        "Stopping container app",
    ));
    assert_eq!(kubelet_events(&c, &name), stopped);
}

#[test]
fn kubelet_events_leave_pod_names_as_they_were() {
    // Pod names come from the stream that named them before the kubelets recorded events, six
    // draws here. Which node's pod gets which name follows `manage`'s Go-map order of nodes,
    // so which two of the first four are replaced (those on worker and worker3) follows it too.
    // Two pods are replaced after the kubelets have recorded the first pods' events.
    let mut c = kind_cluster(5);
    start_ds(&mut c, &Busybox::new("stable"));
    for w in ["worker", "worker3"] {
        let victim = live_pod_on(&c, w)
            .and_then(|p| p.metadata.name.clone())
            .unwrap();
        c.delete_pod("default", &victim).unwrap();
        assert!(c.run_until(|c| c.pod("default", &victim).is_none(), secs(60.0)));
        assert!(c.settle(secs(60.0)));
    }
    let mut names: Vec<String> = c
        .pods()
        .iter()
        .filter_map(|p| p.metadata.name.clone())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "stable-cpttc",
            "stable-ddt4d",
            "stable-sz8vg",
            "stable-xwclw"
        ]
    );
}

#[test]
fn a_template_naming_a_missing_priority_class_gets_no_pods_and_failed_create_events() {
    let ds = Busybox {
        extra_spec: "      priorityClassName: team-high\n",
        ..Busybox::new("prio")
    };
    let mut c = kind_cluster(22);
    c.apply(ds.daemon_set())
        .expect("the DaemonSet itself is admitted");
    c.advance(secs(10.0));
    assert!(c.pods().is_empty());
    let desired = c
        .daemon_set("default", "prio")
        .and_then(|d| d.status.clone())
        .map(|s| (s.desired_number_scheduled, s.current_number_scheduled));
    assert_eq!(desired, Some((4, 0)), "4 nodes want a pod; none has one");
    let failed: Vec<_> = c
        .events()
        .iter()
        .filter(|e| e.reason.as_deref() == Some("FailedCreate"))
        .collect();
    assert_eq!(failed.len(), 1, "repeats are counted on one event");
    assert!(failed[0].count.unwrap_or(0) > 1);
    assert_eq!(
        failed[0].message.as_deref(),
        Some("Error creating: pods \"prio-\" is forbidden: no PriorityClass with name team-high was found")
    );
    // A system class is known.
    let ds = Busybox {
        extra_spec: "      priorityClassName: system-node-critical\n",
        ..Busybox::new("crit")
    };
    let mut c = kind_cluster(22);
    start_ds(&mut c, &ds);
    assert!(c
        .pods()
        .iter()
        .filter_map(|p| p.spec.as_ref())
        .all(|s| s.priority == Some(2_000_001_000)));
}

#[test]
fn uids_are_random_rfc_4122_version_4_uuids() {
    let mut c = kind_cluster(5);
    start_ds(&mut c, &Busybox::new("uids"));
    let mut uids: Vec<String> = c
        .pods()
        .iter()
        .filter_map(|p| p.metadata.uid.clone())
        .collect();
    uids.extend(c.nodes().iter().filter_map(|n| n.metadata.uid.clone()));
    uids.extend(c.events().iter().filter_map(|e| e.metadata.uid.clone()));
    assert!(uids.len() > 15, "{}", uids.len());
    for u in &uids {
        let groups: Vec<&str> = u.split('-').collect();
        let lens: Vec<usize> = groups.iter().map(|g| g.len()).collect();
        assert_eq!(lens, [8, 4, 4, 4, 12], "{u}");
        assert!(
            u.chars()
                .all(|ch| ch == '-' || ch.is_ascii_hexdigit() && !ch.is_ascii_uppercase()),
            "{u}"
        );
        assert!(groups[2].starts_with('4'), "{u}: version 4");
        assert!(
            groups[3].starts_with(['8', '9', 'a', 'b']),
            "{u}: RFC 4122 variant"
        );
    }
    let distinct: std::collections::BTreeSet<&String> = uids.iter().collect();
    assert_eq!(distinct.len(), uids.len(), "uids repeat");
}

#[test]
fn container_ids_look_like_containerds_and_replay_the_same() {
    let ids = |seed| {
        let mut c = kind_cluster(seed);
        start_ds(&mut c, &Busybox::new("cids"));
        let mut v: Vec<String> = c
            .pods()
            .iter()
            .flat_map(|p| {
                p.status
                    .clone()
                    .unwrap_or_default()
                    .container_statuses
                    .unwrap_or_default()
            })
            .filter_map(|s| s.container_id)
            .collect();
        v.sort();
        v
    };
    let a = ids(9);
    assert_eq!(a.len(), 4);
    for id in &a {
        let hex = id
            .strip_prefix("containerd://")
            .unwrap_or_else(|| panic!("{id}"));
        assert!(
            hex.len() == 64
                && hex
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
            "{id}"
        );
    }
    assert!(a.windows(2).all(|w| w[0] != w[1]), "{a:?}");
    assert_eq!(ids(9), a, "a replay gives the same ids");
}

#[test]
fn generated_names_use_the_upstream_alphabet() {
    let mut c = kind_cluster(17);
    start_ds(&mut c, &Busybox::new("names"));
    for p in c.pods() {
        let n = p.metadata.name.clone().unwrap();
        let suffix = n.strip_prefix("names-").unwrap();
        assert_eq!(suffix.len(), 5);
        assert!(suffix
            .chars()
            .all(|ch| "bcdfghjklmnpqrstvwxz2456789".contains(ch)));
    }
}

#[test]
fn garbage_timing_does_not_panic_or_hang() {
    let timing: cluster::Timing = serde_json::from_str(
        r#"{"watch_delay": -1, "controller_sync": 1e308, "container_start": 0, "jitter": 5, "pod_gc_period": 0, "node_monitor_period": -3}"#,
    )
    .unwrap();
    let mut c = kind_cluster_with(1, timing);
    c.apply(Busybox::new("g").daemon_set()).unwrap();
    c.advance(secs(5.0));
    let _ = c.settle(secs(5.0));
}

/// The DaemonSet's own events, oldest first: (message, count).
fn daemon_set_events(c: &Cluster, name: &str) -> Vec<(String, i32)> {
    c.events()
        .iter()
        .filter(|e| e.involved_object.kind.as_deref() == Some("DaemonSet"))
        .filter(|e| e.involved_object.name.as_deref() == Some(name))
        .map(|e| (e.message.clone().unwrap_or_default(), e.count.unwrap_or(0)))
        .collect()
}

#[test]
fn a_daemon_set_on_30_nodes_records_nine_creates_a_combined_event_and_then_runs_out_of_tokens() {
    let mut c = kind_cluster(3);
    for i in 5..=30 {
        c.add_node(node(&format!("worker{i}"), &[], vec![]))
            .expect("worker");
    }
    c.apply(Busybox::new("many").daemon_set()).expect("apply");
    c.advance(secs(30.0));
    assert_eq!(c.pods().len(), 30, "every pod is created, recorded or not");
    let events = daemon_set_events(&c, "many");
    // client-go's EventAggregator: the tenth distinct "Created pod" message within ten minutes
    // is combined; its spam filter: 25 events about the object, then one per 300 s.
    assert_eq!(events.len(), 10, "{events:?}");
    assert!(events[..9]
        .iter()
        .all(|(m, n)| m.starts_with("Created pod: many-") && *n == 1));
    let (combined, count) = &events[9];
    assert!(
        combined.starts_with("(combined from similar events): Created pod: many-"),
        "{combined}"
    );
    assert_eq!(*count, 16, "9 + 16 = the burst of 25");
    let aggregate = c
        .events()
        .iter()
        .find(|e| e.message.as_deref() == Some(combined.as_str()))
        .cloned()
        .expect("stored");
    assert_eq!(
        (
            &aggregate.reporting_component,
            &aggregate.reporting_instance
        ),
        (&None, &None),
        "an aggregate leaves the reporting fields empty, as EventAggregate's copy does"
    );
    // Five minutes on, a token is back: the next create counts on the aggregate, which went on
    // counting the five creates the filter dropped (16 + 5 + 1).
    c.advance(secs(300.0));
    let victim = c.pods()[0].metadata.name.clone().expect("name");
    c.delete_pod("default", &victim).expect("delete");
    c.advance(secs(40.0));
    assert_eq!(c.pods().len(), 30);
    let events = daemon_set_events(&c, "many");
    assert_eq!(events.len(), 10, "{events:?}");
    assert_eq!(events[9].1, 22);
    assert!(events[9]
        .0
        .starts_with("(combined from similar events): Created pod: many-"));
}

/// `metav1.Time.MarshalJSON` writes RFC 3339 to the second (and its protobuf form drops the
/// nanoseconds): a watch delivers, and the controller sees, whole seconds only, while the
/// virtual clock keeps its sub-second instants.
#[test]
fn stored_objects_carry_metav1_time_to_the_second_while_the_clock_keeps_sub_seconds() {
    use codec::WirePrecision;
    fn at_wire_precision<T: WirePrecision + Clone + PartialEq>(o: &T) -> bool {
        let mut c = o.clone();
        c.to_wire_precision();
        c == *o
    }
    let c = scenario(3);
    assert!(
        c.trace().iter().any(|e| e.t.fract() != 0.0),
        "the clock should have moved by sub-second steps"
    );
    assert!(c.pods().iter().all(|p| at_wire_precision(&**p)));
    assert!(c.nodes().iter().all(|n| at_wire_precision(&**n)));
    assert!(c.daemon_sets().iter().all(|d| at_wire_precision(&**d)));
    assert!(c.revisions().iter().all(|r| at_wire_precision(&**r)));
    assert!(c.events().iter().all(|e| at_wire_precision(&**e)));
    let ready_since = c
        .pods()
        .iter()
        .filter_map(|p| {
            controller::pod_util::ready_condition(p)?
                .last_transition_time
                .clone()
        })
        .count();
    assert!(ready_since > 0, "some pod should be Ready");
}

/// `handleNodeUpdate` on a node that is gone only drops it from `taintedNodes`: the eviction
/// scheduled for its pod under `tolerationSeconds` is not cancelled and fires (R-TE-4/5);
/// only the pod's own deletion would cancel it.
#[test]
fn handle_node_update_of_a_deleted_node_keeps_its_pods_scheduled_evictions() {
    let mut c = kind_cluster(12);
    let ds = Busybox {
        extra_spec: "      tolerations:\n      - key: k42\n        operator: Exists\n        effect: NoExecute\n        tolerationSeconds: 10\n",
        ..Busybox::new("kept")
    };
    start_ds(&mut c, &ds);
    let pod = live_pod_on(&c, "worker").unwrap();
    let name = pod.metadata.name.clone().unwrap();
    set_taints(&mut c, "worker", vec![taint("k42", "x", "NoExecute")]);
    c.advance(secs(3.0));
    assert_eq!(c.scheduled_evictions(), 1);
    c.remove_node("worker").unwrap();
    c.advance(secs(2.0));
    assert_eq!(
        c.scheduled_evictions(),
        1,
        "the node's deletion cancels nothing"
    );
    c.advance(secs(8.0));
    let messages: Vec<String> = c
        .events()
        .iter()
        .filter(|e| e.reason.as_deref() == Some("TaintManagerEviction"))
        .filter_map(|e| e.message.clone())
        .collect();
    assert_eq!(
        messages,
        vec![format!("Marking for deletion Pod default/{name}")],
        "fired, never cancelled"
    );
    let evicted = c.pod("default", &name).unwrap();
    assert!(evicted.metadata.deletion_timestamp.is_some());
}
