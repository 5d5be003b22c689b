//! The calibration targets F-1 … F-6 of `reference/field-measurements.md`, reproduced on the
//! virtual 5-node kind cluster with the default timing model.

mod support;

use cluster::{PodEvent, TraceKind};
use support::*;

const SEEDS: std::ops::RangeInclusive<u64> = 1..=8;

#[test]
fn f1_one_pod_per_eligible_node_with_affinity_and_six_tolerations() {
    let mut c = kind_cluster(1);
    start_ds(&mut c, &Busybox::new("f1"));
    let by_node = live_pods_by_node(&c);
    assert_eq!(
        by_node.keys().map(String::as_str).collect::<Vec<_>>(),
        WORKERS.to_vec()
    );
    let ds = c.daemon_set("default", "f1").unwrap();
    let s = ds.status.clone().unwrap();
    assert_eq!(
        (
            s.desired_number_scheduled,
            s.current_number_scheduled,
            s.number_ready,
            s.updated_number_scheduled
        ),
        (4, 4, 4, Some(4))
    );
    for (node, pods) in &by_node {
        assert_eq!(pods.len(), 1);
        let spec = pods[0].spec.clone().unwrap();
        assert_eq!(spec.node_name.as_deref(), Some(node.as_str()));
        let terms = spec
            .affinity
            .unwrap()
            .node_affinity
            .unwrap()
            .required_during_scheduling_ignored_during_execution
            .unwrap()
            .node_selector_terms;
        let mf = terms[0].match_fields.clone().unwrap();
        assert_eq!(mf[0].key, "metadata.name");
        assert_eq!(mf[0].operator, "In");
        assert_eq!(mf[0].values.as_deref(), Some(&[node.clone()][..]));
        let tols: Vec<(String, String)> = spec
            .tolerations
            .unwrap()
            .into_iter()
            .map(|t| {
                assert_eq!(t.operator.as_deref(), Some("Exists"));
                assert_eq!(t.toleration_seconds, None);
                (t.key.unwrap_or_default(), t.effect.unwrap_or_default())
            })
            .collect();
        let expected = [
            ("node.kubernetes.io/not-ready", "NoExecute"),
            ("node.kubernetes.io/unreachable", "NoExecute"),
            ("node.kubernetes.io/disk-pressure", "NoSchedule"),
            ("node.kubernetes.io/memory-pressure", "NoSchedule"),
            ("node.kubernetes.io/pid-pressure", "NoSchedule"),
            ("node.kubernetes.io/unschedulable", "NoSchedule"),
        ];
        assert_eq!(
            tols,
            expected
                .iter()
                .map(|(k, e)| (k.to_string(), e.to_string()))
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn f2_pods_follow_node_labels_within_200ms() {
    let mut c = kind_cluster(2);
    let ds = Busybox {
        node_selector: Some("k42: \"yes\""),
        ..Busybox::new("f2")
    };
    c.apply(ds.daemon_set()).unwrap();
    assert!(c.settle(secs(30.0)));
    assert!(c.pods().is_empty());

    label_node(&mut c, "worker2", "k42", Some("yes"));
    assert!(
        c.run_until(|c| bound_live_pod_on(c, "worker2"), secs(0.2)),
        "no pod on worker2 0.2 s after labelling"
    );
    assert!(c.settle(secs(30.0)));

    label_node(&mut c, "worker3", "k42", Some("yes"));
    label_node(&mut c, "worker2", "k42", None);
    assert!(
        c.run_until(
            |c| bound_live_pod_on(c, "worker3") && live_pod_on(c, "worker2").is_none(),
            secs(0.2)
        ),
        "pods did not move to worker3 within 0.2 s"
    );
    assert!(c.settle(secs(60.0)));
    let by_node = live_pods_by_node(&c);
    assert_eq!(by_node.keys().collect::<Vec<_>>(), vec!["worker3"]);
}

#[test]
fn f2_unquoted_yes_is_rejected_before_reaching_the_cluster() {
    let ds = Busybox {
        node_selector: Some("k42: yes"),
        ..Busybox::new("f2")
    };
    assert!(apiserver::decode_manifests("ds.yaml", &ds.yaml()).is_err());
}

#[test]
fn f3_no_execute_taint_evicts_within_200ms_and_untaint_brings_the_pod_back_within_1s() {
    let mut c = kind_cluster(3);
    start_ds(&mut c, &Busybox::new("f3"));

    set_taints(&mut c, "worker", vec![taint("k42", "x", "NoSchedule")]);
    assert!(c.settle(secs(30.0)));
    assert_eq!(live_pods_by_node(&c).len(), 4, "NoSchedule must not evict");

    let from = c.trace().len();
    set_taints(&mut c, "worker", vec![taint("k42", "x", "NoExecute")]);
    assert!(
        c.run_until(|c| live_pod_on(c, "worker").is_none(), secs(0.2)),
        "pod on worker not evicted within 0.2 s"
    );
    assert!(c.trace()[from..].iter().any(|e| matches!(
        &e.kind,
        TraceKind::Pod { node, event: PodEvent::Evicted, .. } if node == "worker"
    )));
    assert!(c.run_until(
        |c| c
            .daemon_set("default", "f3")
            .and_then(|d| d.status.clone())
            .is_some_and(|s| s.desired_number_scheduled == 3 && s.current_number_scheduled == 3),
        secs(1.0)
    ));
    // The evicted pod terminates (busybox ignores SIGTERM: 30 s grace) and is not recreated.
    assert!(c.settle(secs(60.0)));
    assert!(c
        .pods()
        .iter()
        .all(|p| controller::pod_util::node_name(p) != "worker"));
    assert_eq!(live_pods_by_node(&c).len(), 3);

    set_taints(&mut c, "worker", vec![]);
    assert!(
        c.run_until(|c| live_pod_on(c, "worker").is_some(), secs(1.0)),
        "no pod back on worker 1 s after untaint"
    );
    assert!(c.settle(secs(30.0)));
    assert_eq!(live_pods_by_node(&c).len(), 4);
}

/// Runs a rolling update after the env change; returns (total seconds, status changes).
fn rolling_update(seed: u64, max_unavailable: u32) -> (f64, Vec<(f64, Tuple)>) {
    let mut c = kind_cluster(seed);
    let ds = Busybox::rolling("ru", max_unavailable);
    start_ds(&mut c, &ds);
    let t0 = c.elapsed_seconds();
    let from = c.trace().len();
    set_env(&mut c, "ru", "2");
    assert!(
        c.run_until(|c| status_is(c, "ru", (4, 4, 0), 4), secs(120.0)),
        "rollout did not finish: {:?}",
        status_of(&c, "ru")
    );
    let total = c.elapsed_seconds() - t0;
    let changes = status_changes(&c, "ru", from)
        .into_iter()
        .map(|(t, x)| (t - t0, x))
        .collect();
    (total, changes)
}

#[test]
fn f4_rolling_update_max_unavailable_1_reproduces_the_tuple_sequence_and_total() {
    let expected: Vec<Tuple> = vec![
        (0, 4, 0),
        (1, 3, 1),
        (1, 4, 0),
        (2, 3, 1),
        (2, 4, 0),
        (3, 3, 1),
        (3, 4, 0),
        (4, 3, 1),
        (4, 4, 0),
    ];
    let mut totals = Vec::new();
    for seed in SEEDS {
        let (total, changes) = rolling_update(seed, 1);
        let seen: Vec<Tuple> = poller_view(&changes, 0.15)
            .into_iter()
            .map(|(_, t)| t)
            .collect();
        if seed == 1 {
            eprintln!("F-4 seed 1: {:.2?}", poller_view(&changes, 0.15));
        }
        assert_eq!(seen, expected, "seed {seed}: {changes:?}");
        assert!(
            (27.2 * 0.9..=27.2 * 1.1).contains(&total),
            "seed {seed}: total {total:.2} s outside 27.2 s ± 10 %"
        );
        assert!(changes.iter().all(|(_, t)| t.2 <= 1), "seed {seed}");
        totals.push(total);
    }
    eprintln!("F-4 totals: {totals:.2?}");
}

#[test]
fn f5_rolling_update_max_unavailable_2_first_last_budget_and_total() {
    let mut totals = Vec::new();
    for seed in SEEDS {
        let (total, changes) = rolling_update(seed, 2);
        if seed == 1 {
            eprintln!("F-5 seed 1: {:.2?}", poller_view(&changes, 0.15));
        }
        assert_eq!(changes.first().map(|x| x.1), Some((0, 4, 0)), "seed {seed}");
        assert_eq!(changes.last().map(|x| x.1), Some((4, 4, 0)), "seed {seed}");
        assert!(
            changes.iter().all(|(_, t)| t.2 <= 2),
            "seed {seed}: more than 2 unavailable: {changes:?}"
        );
        assert!(
            (13.9 * 0.9..=13.9 * 1.1).contains(&total),
            "seed {seed}: total {total:.2} s outside 13.9 s ± 10 %: {changes:?}"
        );
        totals.push(total);
    }
    eprintln!("F-5 totals: {totals:.2?}");
}

#[test]
fn f6_on_delete_updates_only_pods_deleted_by_hand() {
    let mut c = kind_cluster(6);
    let ds = Busybox {
        strategy: "  updateStrategy:\n    type: OnDelete\n",
        ..Busybox::new("f6")
    };
    start_ds(&mut c, &ds);
    let before: Vec<String> = c
        .pods()
        .iter()
        .filter_map(|p| p.metadata.name.clone())
        .collect();
    set_env(&mut c, "f6", "2");
    c.advance(secs(6.0));
    let d = c.daemon_set("default", "f6").unwrap();
    let s = d.status.clone().unwrap();
    assert_eq!(s.updated_number_scheduled, Some(0));
    assert_eq!(s.desired_number_scheduled, 4);
    assert_eq!(s.observed_generation, d.metadata.generation);
    let now: Vec<String> = c
        .pods()
        .iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .filter_map(|p| p.metadata.name.clone())
        .collect();
    assert_eq!(now, before);

    c.delete_pod("default", &before[0]).unwrap();
    assert!(c.run_until(
        |c| c
            .daemon_set("default", "f6")
            .and_then(|d| d.status.clone())
            .is_some_and(|s| s.updated_number_scheduled == Some(1) && s.number_ready == 4),
        secs(60.0)
    ));
    assert!(c.settle(secs(30.0)));
    let s = c
        .daemon_set("default", "f6")
        .unwrap()
        .status
        .clone()
        .unwrap();
    assert_eq!(s.updated_number_scheduled, Some(1));
    assert_eq!(s.current_number_scheduled, 4);
}
