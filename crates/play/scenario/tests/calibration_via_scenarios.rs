//! The calibration targets F-1 … F-6 of `reference/field-measurements.md`, reproduced by
//! running the F presets through the library API and reading the cluster's trace.

mod common;

use cluster::{PodEvent, TraceEntry, TraceKind};
use scenario::Outcome;

const SEEDS: std::ops::RangeInclusive<u64> = 1..=8;

type Tuple = (i32, i32, i32);

fn trace_from(out: &Outcome, t0: f64) -> impl Iterator<Item = &TraceEntry> {
    out.session.cluster.trace().iter().filter(move |e| e.t > t0)
}

/// First time after t0 a pod of `node` had `event`.
fn pod_event_at(out: &Outcome, t0: f64, node: &str, event: PodEvent) -> Option<f64> {
    trace_from(out, t0)
        .find(|e| matches!(&e.kind, TraceKind::Pod { node: n, event: ev, .. } if n == node && *ev == event))
        .map(|e| e.t)
}

/// Every stored status change of `ds` after t0 that has observed generation `generation`:
/// (t − t0, tuple), repeats merged.
fn status_changes(out: &Outcome, ds: &str, t0: f64, generation: i64) -> Vec<(f64, Tuple)> {
    let mut v: Vec<(f64, Tuple)> = Vec::new();
    for e in trace_from(out, t0) {
        if let TraceKind::DaemonSetStatus { name, status, .. } = &e.kind {
            if name == ds && status.observed_generation.unwrap_or(0) >= generation {
                let t = (
                    status.updated_number_scheduled.unwrap_or(0),
                    status.number_ready,
                    status.number_unavailable.unwrap_or(0),
                );
                if v.last().map(|x| x.1) != Some(t) {
                    v.push((e.t - t0, t));
                }
            }
        }
    }
    v
}

/// What the experiment's 0.2 s poller reliably sees: states held ≥ `min_hold` s (the last one
/// always kept), consecutive repeats merged — the approach of the cluster's own calibration.
fn poller_view(changes: &[(f64, Tuple)], min_hold: f64) -> Vec<(f64, Tuple)> {
    let mut out: Vec<(f64, Tuple)> = Vec::new();
    for (i, (t, tup)) in changes.iter().enumerate() {
        let held = changes.get(i + 1).map_or(f64::INFINITY, |(n, _)| n - t);
        if held >= min_hold && out.last().map(|(_, x)| x) != Some(tup) {
            out.push((*t, *tup));
        }
    }
    out
}

#[test]
fn f1_placement_status_affinity_and_six_tolerations() {
    let s = common::parse("f1-one-pod-per-node");
    let out = common::run_with_seed(&s, s.seed);
    let c = &out.session.cluster;
    let ds = c.daemon_set("kube-system", "fluentd").expect("ds");
    let st = ds.status.clone().expect("status");
    assert_eq!(
        (
            st.desired_number_scheduled,
            st.current_number_scheduled,
            st.number_ready,
            st.updated_number_scheduled
        ),
        (4, 4, 4, Some(4))
    );
    let mut nodes: Vec<String> = Vec::new();
    for p in c.pods() {
        let spec = p.spec.clone().expect("spec");
        let node = spec.node_name.clone().expect("bound");
        let terms = spec
            .affinity
            .and_then(|a| a.node_affinity)
            .and_then(|n| n.required_during_scheduling_ignored_during_execution)
            .expect("injected affinity")
            .node_selector_terms;
        let mf = terms[0].match_fields.clone().expect("matchFields");
        assert_eq!(
            (mf[0].key.as_str(), mf[0].operator.as_str()),
            ("metadata.name", "In")
        );
        assert_eq!(mf[0].values.as_deref(), Some(&[node.clone()][..]));
        let tols: Vec<(String, String, Option<String>, Option<i64>)> = spec
            .tolerations
            .unwrap_or_default()
            .into_iter()
            .map(|t| {
                (
                    t.key.unwrap_or_default(),
                    t.effect.unwrap_or_default(),
                    t.operator,
                    t.toleration_seconds,
                )
            })
            .collect();
        let want: Vec<(String, String, Option<String>, Option<i64>)> = [
            ("node.kubernetes.io/not-ready", "NoExecute"),
            ("node.kubernetes.io/unreachable", "NoExecute"),
            ("node.kubernetes.io/disk-pressure", "NoSchedule"),
            ("node.kubernetes.io/memory-pressure", "NoSchedule"),
            ("node.kubernetes.io/pid-pressure", "NoSchedule"),
            ("node.kubernetes.io/unschedulable", "NoSchedule"),
        ]
        .iter()
        .map(|(k, e)| {
            (
                k.to_string(),
                e.to_string(),
                Some("Exists".to_string()),
                None,
            )
        })
        .collect();
        assert_eq!(tols, want);
        nodes.push(node);
    }
    nodes.sort();
    assert_eq!(nodes, ["worker", "worker2", "worker3", "worker4"]);
}

#[test]
fn f2_pods_follow_labels_within_200ms() {
    let s = common::parse("f2-node-labels");
    for seed in SEEDS {
        let out = common::run_with_seed(&s, seed);
        let t1 = common::t_of(&out, "kubectl label node worker2 k42=yes");
        let up = pod_event_at(&out, t1, "worker2", PodEvent::Scheduled).expect("pod on worker2");
        assert!(
            up - t1 <= 0.2,
            "seed {seed}: pod on worker2 after {:.3} s",
            up - t1
        );

        let t2 = common::t_of(&out, "kubectl label node worker2 k42-");
        let up = pod_event_at(&out, t2, "worker3", PodEvent::Scheduled).expect("pod on worker3");
        let gone =
            pod_event_at(&out, t2, "worker2", PodEvent::Terminating).expect("worker2 pod deleted");
        assert!(
            up - t2 <= 0.2,
            "seed {seed}: pod on worker3 after {:.3} s",
            up - t2
        );
        assert!(
            gone - t2 <= 0.2,
            "seed {seed}: worker2 pod deleted after {:.3} s",
            gone - t2
        );
        assert!(out.failures.is_empty(), "seed {seed}: {:?}", out.failures);
    }
}

#[test]
fn f3_eviction_within_200ms_desired_4_to_3_and_back_within_1s() {
    let s = common::parse("f3-taints");
    for seed in SEEDS {
        let out = common::run_with_seed(&s, seed);
        let t0 = common::t_of(&out, "kubectl taint node worker k42=x:NoSchedule");
        let t1 = common::t_of(&out, "kubectl taint node worker k42=x:NoExecute");
        assert!(
            pod_event_at(&out, t0, "worker", PodEvent::Terminating).is_some_and(|t| t >= t1),
            "seed {seed}: NoSchedule must not evict"
        );
        let ev = pod_event_at(&out, t1, "worker", PodEvent::Evicted).expect("evicted");
        assert!(
            ev - t1 <= 0.2,
            "seed {seed}: evicted after {:.3} s",
            ev - t1
        );
        let desired: Vec<i32> = trace_from(&out, 0.0)
            .filter_map(|e| match &e.kind {
                TraceKind::DaemonSetStatus { status, .. } => Some(status.desired_number_scheduled),
                _ => None,
            })
            .fold(Vec::new(), |mut v, d| {
                if v.last() != Some(&d) {
                    v.push(d);
                }
                v
            });
        assert_eq!(desired, [4, 3, 4], "seed {seed}: {desired:?}");
        // Desired already drops to 3 with the NoSchedule taint (R-ST-1: the node no longer
        // `shouldRun`); 0.2 s after the NoExecute taint the status reads desired 3 current 3.
        let at = |t: f64| {
            trace_from(&out, 0.0)
                .filter(|e| e.t <= t)
                .filter_map(|e| match &e.kind {
                    TraceKind::DaemonSetStatus { status, .. } => Some((
                        status.desired_number_scheduled,
                        status.current_number_scheduled,
                    )),
                    _ => None,
                })
                .last()
        };
        assert_eq!(at(t1 + 0.2), Some((3, 3)), "seed {seed}");
        let t2 = common::t_of(&out, "kubectl taint node worker k42-");
        let back = pod_event_at(&out, t2, "worker", PodEvent::Scheduled).expect("back on worker");
        assert!(
            back - t2 <= 1.0,
            "seed {seed}: back after {:.3} s",
            back - t2
        );
        assert!(out.failures.is_empty(), "seed {seed}: {:?}", out.failures);
    }
}

/// The rollout after `kubectl set env`: (total seconds, status changes relative to the change).
fn rollout(id: &str, ds: &str, seed: u64) -> (f64, Vec<(f64, Tuple)>) {
    let s = common::parse(id);
    let out = common::run_with_seed(&s, seed);
    assert!(
        out.failures.is_empty(),
        "{id} seed {seed}: {:?}",
        out.failures
    );
    let t0 = common::t_of(&out, &format!("kubectl set env ds/{ds} -c app FOO=2"));
    let changes = status_changes(&out, ds, t0, 2);
    let total = changes
        .iter()
        .find(|(_, t)| *t == (4, 4, 0))
        .map(|(t, _)| *t)
        .expect("rollout finished");
    (total, changes)
}

#[test]
fn f4_max_unavailable_1_tuple_sequence_and_total_27_2s() {
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
    for seed in SEEDS {
        let (total, changes) = rollout("f4-rolling-update-max-unavailable-1", "ru1", seed);
        let seen: Vec<Tuple> = poller_view(&changes, 0.15)
            .into_iter()
            .map(|(_, t)| t)
            .collect();
        assert_eq!(seen, expected, "seed {seed}: {changes:?}");
        assert!(
            (27.2 * 0.9..=27.2 * 1.1).contains(&total),
            "seed {seed}: total {total:.2} s outside 27.2 s ± 10 %"
        );
        assert!(changes.iter().all(|(_, t)| t.2 <= 1), "seed {seed}");
    }
}

#[test]
fn f5_max_unavailable_2_first_last_budget_and_total_13_9s() {
    for seed in SEEDS {
        let (total, changes) = rollout("f5-rolling-update-max-unavailable-2", "ru2", seed);
        assert_eq!(changes.first().map(|x| x.1), Some((0, 4, 0)), "seed {seed}");
        assert_eq!(changes.last().map(|x| x.1), Some((4, 4, 0)), "seed {seed}");
        assert!(
            changes.iter().all(|(_, t)| t.2 <= 2),
            "seed {seed}: more than 2 unavailable: {changes:?}"
        );
        assert!(
            (13.9 * 0.9..=13.9 * 1.1).contains(&total),
            "seed {seed}: total {total:.2} s outside 13.9 s ± 10 %"
        );
    }
}

#[test]
fn f6_on_delete_updated_0_of_4_then_1_of_4() {
    let s = common::parse("f6-on-delete");
    for seed in SEEDS {
        let out = common::run_with_seed(&s, seed);
        assert!(out.failures.is_empty(), "seed {seed}: {:?}", out.failures);
        let t0 = common::t_of(&out, "kubectl set env ds/od -c app FOO=2");
        let t1 = common::t_of(
            &out,
            "kubectl delete pods -l app=od --field-selector spec.nodeName=worker",
        );
        assert!(t1 - t0 >= 6.0);
        let mut last_before = None;
        for e in trace_from(&out, t0).filter(|e| e.t < t1) {
            match &e.kind {
                TraceKind::DaemonSetStatus { status, .. } => last_before = Some(status.clone()),
                TraceKind::Pod { event, .. } => assert!(
                    !matches!(event, PodEvent::Terminating | PodEvent::Deleted),
                    "seed {seed}: OnDelete replaced a pod on its own"
                ),
                _ => {}
            }
        }
        let st = last_before.expect("status written after the change");
        assert_eq!(st.updated_number_scheduled.unwrap_or(0), 0, "seed {seed}");
        assert_eq!(st.desired_number_scheduled, 4);
        assert_eq!(st.observed_generation, Some(2));
        let end = out
            .session
            .cluster
            .daemon_set("default", "od")
            .and_then(|d| d.status.clone())
            .expect("status");
        assert_eq!(
            (end.updated_number_scheduled, end.desired_number_scheduled),
            (Some(1), 4)
        );
    }
}
