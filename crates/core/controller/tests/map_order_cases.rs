//! Where upstream ranges over a Go map, the outcome's identities follow the driver's
//! [`MapOrder`] and its counts do not (R-SIM-1, R-MAN-8, R-RU-5).

mod support;

use controller::{DaemonSetsController, MapOrder};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use std::collections::BTreeSet;
use support::*;

const NODES: usize = 5;
const SEEDS: std::ops::Range<u64> = 0..40;

/// `manage` with `BurstReplicas` 1 on five nodes that all need a pod: the one created is on
/// the first node `podsShouldBeOnNode` was called for.
fn first_created_node(order: MapOrder) -> String {
    let mut fake = Fake::new();
    fake.map_order = order;
    fake.add_nodes(0, NODES, None);
    fake.add_ds(new_daemon_set("foo"));
    let mut ctl = test_controller();
    ctl.burst_replicas = 1;
    assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(1, 0, 0));
    fake.created_targets().remove(0)
}

#[test]
fn manage_visits_the_node_lister_list_in_go_map_order() {
    assert_eq!(first_created_node(MapOrder::Listed), "node-0");
    let firsts: BTreeSet<String> = SEEDS
        .map(|s| first_created_node(MapOrder::Seeded(s)))
        .collect();
    assert_eq!(firsts.len(), NODES, "every node comes first for some seed");
    assert_eq!(
        first_created_node(MapOrder::Seeded(3)),
        first_created_node(MapOrder::Seeded(3)),
        "a seed replays"
    );
}

/// Five nodes with an available pod of the old template and maxUnavailable 1: `rollingUpdate`
/// deletes the one it meets first in `nodeToDaemonPods`.
fn rolling_update_deletion(order: MapOrder, surge: bool) -> (Counts, Vec<String>) {
    let mut fake = Fake::new();
    fake.map_order = order;
    fake.add_nodes(0, NODES, None);
    fake.add_ds(new_daemon_set("foo"));
    let mut ctl: DaemonSetsController = test_controller();
    let t = at(0);
    assert_eq!(fake.sync(&mut ctl, "foo", t), Counts(NODES, 0, 0));
    fake.mark_pods_ready(t);
    let mut ds = fake.ds("foo");
    template_spec(&mut ds).containers[0].image = Some("foo2/bar2".into());
    ds.spec.update_strategy = Some(if surge {
        update_surge(IntOrString::Int(1))
    } else {
        update_unavailable(IntOrString::Int(1))
    });
    fake.add_ds(ds);
    fake.clear_expectations(&mut ctl, "foo", t);
    let counts = fake.sync(&mut ctl, "foo", t);
    let changed = if surge {
        fake.created_targets()
    } else {
        fake.deleted.clone()
    };
    (counts, changed)
}

#[test]
fn rolling_update_picks_its_max_unavailable_candidates_in_go_map_order() {
    let mut picked = BTreeSet::new();
    for seed in SEEDS {
        let (counts, deleted) = rolling_update_deletion(MapOrder::Seeded(seed), false);
        assert_eq!(
            counts,
            Counts(0, 1, 0),
            "the count never depends on the order"
        );
        picked.extend(deleted);
    }
    assert_eq!(
        picked.len(),
        NODES,
        "each node's pod is picked for some seed"
    );
}

#[test]
fn rolling_update_picks_its_max_surge_nodes_in_go_map_order() {
    let mut picked = BTreeSet::new();
    for seed in SEEDS {
        let (counts, created) = rolling_update_deletion(MapOrder::Seeded(seed), true);
        assert_eq!(
            counts,
            Counts(1, 0, 0),
            "the count never depends on the order"
        );
        picked.extend(created);
    }
    assert_eq!(picked.len(), NODES, "each node surges first for some seed");
}
