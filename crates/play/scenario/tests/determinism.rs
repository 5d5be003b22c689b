//! Every preset replays byte for byte with the same seed; with another seed the trace differs
//! (jitter, pod names) but the final state — pods per node and every DaemonSet's counters — is
//! the same.

mod common;

use cluster::to_json_lines;
use scenario::Outcome;
use std::collections::BTreeMap;

/// Pods per node (live pods: not terminating) and, per DaemonSet, its status counters.
#[derive(Debug, PartialEq, Eq)]
struct FinalState {
    pods_per_node: BTreeMap<String, usize>,
    counters: BTreeMap<String, [i32; 7]>,
    nodes: Vec<String>,
}

fn final_state(out: &Outcome) -> FinalState {
    let c = &out.session.cluster;
    let mut pods_per_node = BTreeMap::new();
    for p in c.pods() {
        if p.metadata.deletion_timestamp.is_none() {
            let node = controller::util::get_target_node_name(&p)
                .unwrap_or("")
                .to_string();
            *pods_per_node.entry(node).or_insert(0) += 1;
        }
    }
    let counters = c
        .daemon_sets()
        .iter()
        .map(|d| {
            let s = d.status.clone().unwrap_or_default();
            (
                d.metadata.name.clone().unwrap_or_default(),
                [
                    s.desired_number_scheduled,
                    s.current_number_scheduled,
                    s.number_ready,
                    s.updated_number_scheduled.unwrap_or(0),
                    s.number_available.unwrap_or(0),
                    s.number_unavailable.unwrap_or(0),
                    s.number_misscheduled,
                ],
            )
        })
        .collect();
    let nodes = c
        .nodes()
        .iter()
        .filter_map(|n| n.metadata.name.clone())
        .collect();
    FinalState {
        pods_per_node,
        counters,
        nodes,
    }
}

#[test]
fn same_seed_same_trace_other_seed_same_outcome() {
    for (id, file, text) in common::presets() {
        let s = scenario::parse(file, &text).unwrap_or_else(|e| panic!("{e}"));
        let a = common::run_with_seed(&s, s.seed);
        let b = common::run_with_seed(&s, s.seed);
        let ta = to_json_lines(a.session.cluster.trace());
        let tb = to_json_lines(b.session.cluster.trace());
        assert!(!ta.is_empty(), "{id}: empty trace");
        assert!(ta == tb, "{id}: two runs with seed {} differ", s.seed);
        assert_eq!(
            a.records.iter().map(|r| &r.output).collect::<Vec<_>>(),
            b.records.iter().map(|r| &r.output).collect::<Vec<_>>(),
            "{id}: outputs differ"
        );

        let other = common::run_with_seed(&s, s.seed + 1000);
        let tc = to_json_lines(other.session.cluster.trace());
        assert!(
            ta != tc,
            "{id}: seed {} and {} give the same trace",
            s.seed,
            s.seed + 1000
        );
        // No preset's final state depends on timing: every script ends after `rollout status`
        // or after a sleep long enough for the cluster to settle (the evict/recreate loop of
        // `toleration-seconds-evict-loop` is stopped by removing the taint before the end).
        assert_eq!(
            final_state(&a),
            final_state(&other),
            "{id}: final state depends on the seed"
        );
        // The stories do not depend on the seed either.
        assert!(
            other.failures.is_empty(),
            "{id} with seed {}: {:?}",
            s.seed + 1000,
            other.failures
        );
    }
}
