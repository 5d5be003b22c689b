//! Upstream unit cases C-029 … C-042 (`daemon_controller_test.go`: existing pods, duplicates,
//! adoption, deletion, surge pruning), replayed by case id.
//! See `shared/reference/upstream-unit-cases.md`.

mod support;
use support::*;

use controller::client::ObjectPatch;
use controller::keys::CONTROLLER_REVISION_HASH_LABEL;
use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::{
    Affinity, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Pod,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use std::collections::{BTreeMap, BTreeSet};

/// Runs `f` once per `[both]` strategy with a fresh DS named `name`.
fn for_both(name: &str, mut f: impl FnMut(DaemonSet)) {
    for strategy in both_strategies() {
        let mut ds = new_daemon_set(name);
        ds.spec.update_strategy = Some(strategy);
        f(ds);
    }
}

fn name_of(p: &Pod) -> String {
    p.metadata.name.clone().unwrap_or_default()
}

/// Names of the cached pods on `node` whose labels equal `pod_labels` + the DS hash.
fn pods_on(fake: &Fake, node: &str, pod_labels: &Labels) -> Vec<String> {
    let mut names: Vec<String> = fake
        .pods
        .iter()
        .filter(|p| p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(node))
        .filter(|p| {
            let mut l = p.metadata.labels.clone().unwrap_or_default();
            l.remove(CONTROLLER_REVISION_HASH_LABEL);
            &l == pod_labels
        })
        .map(|p| name_of(p))
        .collect();
    names.sort();
    names
}

fn sorted(v: &[String]) -> Vec<String> {
    let mut v = v.to_vec();
    v.sort();
    v
}

fn released(fake: &Fake) -> BTreeSet<String> {
    fake.pod_patches
        .iter()
        .filter(|(_, p)| matches!(p, ObjectPatch::ReleaseFrom { .. }))
        .map(|(n, _)| n.clone())
        .collect()
}

fn adopted(fake: &Fake) -> BTreeSet<String> {
    fake.pod_patches
        .iter()
        .filter(|(_, p)| matches!(p, ObjectPatch::AdoptBy(_)))
        .map(|(n, _)| n.clone())
        .collect()
}

fn node_names(range: std::ops::Range<usize>) -> Vec<String> {
    range.map(|i| format!("node-{i}")).collect()
}

/// The C-029/C-037 population: node-1 ×1, node-2 ×2, node-3 ×5 (L1), node-4 ×2 (L2).
/// Returns (expected deletes, L2 pods expected to be released).
fn add_c029_pods(fake: &mut Fake, ds: &DaemonSet) -> (Vec<String>, BTreeSet<String>) {
    fake.add_pods("node-1", &l1(), ds, 1);
    fake.add_pods("node-2", &l1(), ds, 2);
    fake.add_pods("node-3", &l1(), ds, 5);
    fake.add_pods("node-4", &l2(), ds, 2);
    let mut deletes = Vec::new();
    for node in ["node-2", "node-3"] {
        deletes.extend(pods_on(fake, node, &l1()).into_iter().skip(1));
    }
    let l2_pods = pods_on(fake, "node-4", &l2()).into_iter().collect();
    (sorted(&deletes), l2_pods)
}

#[test]
fn c_029_deals_with_existing_pods() {
    for_both("foo", |ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        fake.add_nodes(0, 5, None);
        let (deletes, l2_pods) = add_c029_pods(&mut fake, &ds);
        fake.add_ds(ds);
        assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(2, 5, 0));
        assert_eq!(sorted(&fake.created_targets()), vec!["node-0", "node-4"]);
        assert_eq!(sorted(&fake.deleted), deletes);
        assert_eq!(released(&fake), l2_pods);
    });
}

#[test]
fn c_030_selector_deletes_pods_on_unselected_nodes() {
    for_both("foo", |mut ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        template_spec(&mut ds).node_selector = Some(n1());
        fake.add_nodes(0, 5, None);
        fake.add_nodes(5, 5, Some(n1()));
        fake.add_pods("node-0", &l2(), &ds, 2);
        fake.add_pods("node-1", &l1(), &ds, 3);
        fake.add_pods("node-1", &l2(), &ds, 1);
        fake.add_pods("node-4", &l1(), &ds, 1);
        let mut deletes = pods_on(&fake, "node-1", &l1());
        deletes.extend(pods_on(&fake, "node-4", &l1()));
        fake.add_ds(ds);
        assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(5, 4, 0));
        assert_eq!(sorted(&fake.created_targets()), node_names(5..10));
        assert_eq!(sorted(&fake.deleted), sorted(&deletes));
    });
}

#[test]
fn c_031_selector_deals_with_existing_pods() {
    for_both("foo", |mut ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        template_spec(&mut ds).node_selector = Some(n1());
        fake.add_nodes(0, 5, None);
        fake.add_nodes(5, 5, Some(n1()));
        fake.add_pods("node-0", &l1(), &ds, 1);
        fake.add_pods("node-1", &l1(), &ds, 3);
        fake.add_pods("node-1", &l2(), &ds, 2);
        fake.add_pods("node-2", &l1(), &ds, 4);
        fake.add_pods("node-6", &l1(), &ds, 13);
        fake.add_pods("node-7", &l2(), &ds, 4);
        fake.add_pods("node-9", &l1(), &ds, 1);
        fake.add_pods("node-9", &l2(), &ds, 1);
        let mut deletes = Vec::new();
        for node in ["node-0", "node-1", "node-2"] {
            deletes.extend(pods_on(&fake, node, &l1()));
        }
        deletes.extend(pods_on(&fake, "node-6", &l1()).into_iter().skip(1));
        assert_eq!(deletes.len(), 20);
        fake.add_ds(ds);
        assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(3, 20, 0));
        assert_eq!(
            sorted(&fake.created_targets()),
            vec!["node-5", "node-7", "node-8"]
        );
        assert_eq!(sorted(&fake.deleted), sorted(&deletes));
    });
}

#[test]
fn c_032_respects_termination_of_the_only_pod() {
    for_both("foo", |ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        fake.add_nodes(0, 1, Some(n1()));
        let mut pod = new_pod("node-0-00001", "node-0", &l1(), &ds);
        set_phase(&mut pod, "Running");
        pod.metadata.deletion_timestamp = Some(time(0));
        fake.add_pod(pod);
        fake.add_ds(ds);
        assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(0, 0, 0));
    });
}

#[test]
fn c_033_deletes_unscheduled_pod_for_missing_node_only() {
    for_both("foo", |ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        fake.add_nodes(0, 1, None);
        fake.add_pods("node-0", &l1(), &ds, 1);
        fake.add_pods("node-1", &l1(), &ds, 1);
        let mut unbound = new_pod("pod1-node-3", "", &l1(), &ds);
        let spec = unbound.spec.as_mut().unwrap();
        spec.node_name = None;
        spec.affinity = Some(Affinity {
            node_affinity: Some(NodeAffinity {
                required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                    node_selector_terms: vec![NodeSelectorTerm {
                        match_expressions: None,
                        match_fields: Some(vec![NodeSelectorRequirement {
                            key: "metadata.name".into(),
                            operator: "In".into(),
                            values: Some(vec!["node-2".into()]),
                        }]),
                    }],
                }),
                ..Default::default()
            }),
            ..Default::default()
        });
        fake.add_pod(unbound);
        fake.add_ds(ds);
        assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(0, 1, 0));
        assert_eq!(fake.deleted, vec!["pod1-node-3".to_string()]);
    });
}

#[test]
fn c_034_does_nothing_while_being_deleted() {
    for_both("foo", |mut ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        ds.metadata.deletion_timestamp = Some(time(0));
        let spec = template_spec(&mut ds);
        spec.node_name = Some("not-too-much-mem".into());
        spec.containers[0].resources = Some(requests("75M", "75m"));
        let mut node = new_node("not-too-much-mem", None);
        let alloc = node
            .status
            .as_mut()
            .unwrap()
            .allocatable
            .get_or_insert_with(Default::default);
        alloc.insert("memory".into(), quantity("200M"));
        alloc.insert("cpu".into(), quantity("200m"));
        fake.add_node(node);
        let other_spec = spec.clone();
        fake.add_pod(Pod {
            metadata: ObjectMeta {
                name: Some("other".into()),
                namespace: Some("default".into()),
                ..Default::default()
            },
            spec: Some(other_spec),
            status: None,
        });
        fake.add_ds(ds);
        assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(0, 0, 0));
        assert_eq!(fake.status_update_calls, 0);
    });
}

fn quantity(s: &str) -> k8s_openapi::apimachinery::pkg::api::resource::Quantity {
    k8s_openapi::apimachinery::pkg::api::resource::Quantity(s.into())
}

fn requests(memory: &str, cpu: &str) -> k8s_openapi::api::core::v1::ResourceRequirements {
    k8s_openapi::api::core::v1::ResourceRequirements {
        requests: Some(BTreeMap::from([
            ("memory".into(), quantity(memory)),
            ("cpu".into(), quantity(cpu)),
        ])),
        ..Default::default()
    }
}

#[test]
fn c_035_adoption_recheck_sees_deletion_race_and_aborts() {
    for_both("foo", |ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        let mut live = ds.clone();
        live.metadata.deletion_timestamp = Some(time(0));
        fake.live_daemon_set = Some(live);
        fake.add_nodes(0, 5, None);
        let mut orphan = new_pod("node-0-00001", "node-0", &l1(), &ds);
        orphan.metadata.owner_references = None;
        fake.add_pod(orphan);
        fake.add_ds(ds);
        let (counts, result) = fake.sync_result(&mut ctl, "foo", at(0));
        assert_eq!(counts, Counts(0, 0, 0));
        // R-CLM-5: the claim fails, so manage (and this sync) fails; nothing is adopted.
        let err = result.expect_err("claim error");
        assert!(err.to_string().contains("can't adopt Pod"), "{err}");
        assert!(adopted(&fake).is_empty());
    });
}

#[test]
fn c_036_get_nodes_to_daemon_pods() {
    struct PodCase {
        name: &'static str,
        node: &'static str,
        labels: Labels,
        owner: Option<u8>, // 1 = foo, 2 = foo2
        phase: Option<&'static str>,
        deleted: bool,
    }
    fn p(
        name: &'static str,
        node: &'static str,
        labels: Labels,
        owner: Option<u8>,
        phase: Option<&'static str>,
        deleted: bool,
    ) -> PodCase {
        PodCase {
            name,
            node,
            labels,
            owner,
            phase,
            deleted,
        }
    }
    let common_wanted = || {
        vec![
            p("matching-owned-0", "node-0", l1(), Some(1), None, false),
            p("matching-orphan-0", "node-0", l1(), None, None, false),
            p("matching-owned-1", "node-1", l1(), Some(1), None, false),
            p("matching-orphan-1", "node-1", l1(), None, None, false),
            p(
                "matching-owned-succeeded-pod-0",
                "node-0",
                l1(),
                Some(1),
                Some("Succeeded"),
                false,
            ),
        ]
    };
    let common_ignored = || {
        vec![
            p("non-matching-owned-0", "node-0", l2(), Some(1), None, false),
            p("non-matching-orphan-1", "node-1", l2(), None, None, false),
            p(
                "matching-owned-by-other-0",
                "node-0",
                l1(),
                Some(2),
                None,
                false,
            ),
        ]
    };
    let mut exclude_wanted = common_wanted();
    exclude_wanted.push(p(
        "matching-owned-failed-pod-1",
        "node-1",
        l1(),
        Some(1),
        Some("Failed"),
        false,
    ));
    let mut exclude_ignored = common_ignored();
    exclude_ignored.push(p(
        "matching-owned-succeeded-deleted-pod-0",
        "node-0",
        l1(),
        Some(1),
        Some("Succeeded"),
        true,
    ));
    exclude_ignored.push(p(
        "matching-owned-failed-deleted-pod-1",
        "node-1",
        l1(),
        Some(1),
        Some("Failed"),
        true,
    ));
    let mut include_wanted = common_wanted();
    include_wanted.push(p(
        "matching-owned-failed-deleted-pod-1",
        "node-1",
        l1(),
        Some(1),
        Some("Failed"),
        true,
    ));
    let subtests = [
        (
            "exclude deleted terminal pods",
            false,
            exclude_wanted,
            exclude_ignored,
        ),
        (
            "include deleted terminal pods",
            true,
            include_wanted,
            common_ignored(),
        ),
    ];
    for (subtest, include, wanted, ignored) in subtests {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        let ds = new_daemon_set("foo");
        let ds2 = new_daemon_set("foo2");
        fake.add_ds(ds.clone());
        fake.add_ds(ds2.clone());
        fake.add_nodes(0, 2, None);
        for c in wanted.iter().chain(ignored.iter()) {
            let owner = if c.owner == Some(2) { &ds2 } else { &ds };
            let mut pod = new_pod(c.name, c.node, &c.labels, owner);
            if c.owner.is_none() {
                pod.metadata.owner_references = None;
            }
            if let Some(ph) = c.phase {
                set_phase(&mut pod, ph);
            }
            if c.deleted {
                pod.metadata.deletion_timestamp = Some(time(0));
            }
            fake.add_pod(pod);
        }
        let map = ctl
            .get_nodes_to_daemon_pods(&mut fake, &ds, include, at(0))
            .unwrap_or_else(|e| panic!("{subtest}: {e}"));
        let got: BTreeMap<String, BTreeSet<String>> = map
            .iter()
            .map(|(node, pods)| (node.clone(), pods.iter().map(|p| name_of(p)).collect()))
            .collect();
        let mut want: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for c in &wanted {
            want.entry(c.node.to_string())
                .or_default()
                .insert(c.name.to_string());
        }
        assert_eq!(got, want, "{subtest}");
        // Each pod is listed once (no duplicates across the per-node lists).
        let total: usize = map.values().map(Vec::len).sum();
        assert_eq!(total, wanted.len(), "{subtest}");
    }
}

#[test]
fn c_037_surge_still_prunes_duplicate_current_pods() {
    let mut fake = Fake::new();
    let mut ctl = test_controller();
    let mut ds = new_daemon_set("foo");
    ds.spec.update_strategy = Some(update_surge(IntOrString::Int(1)));
    fake.add_nodes(0, 5, None);
    let (deletes, l2_pods) = add_c029_pods(&mut fake, &ds);
    fake.add_ds(ds);
    assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(2, 5, 0));
    assert_eq!(sorted(&fake.created_targets()), vec!["node-0", "node-4"]);
    assert_eq!(sorted(&fake.deleted), deletes);
    assert_eq!(released(&fake), l2_pods);
}

/// A pod on `node` created at `t`; `old` drops the hash label; `ready` sets the Ready condition
/// (with `ltt` as lastTransitionTime).
fn surge_pod(
    ds: &DaemonSet,
    name: &str,
    node: &str,
    t: i64,
    old: bool,
    ready: Option<bool>,
    ltt: Option<i64>,
) -> Pod {
    let mut pod = new_pod(name, node, &l1(), ds);
    if old {
        pod.metadata
            .labels
            .as_mut()
            .unwrap()
            .remove(CONTROLLER_REVISION_HASH_LABEL);
    }
    pod.metadata.creation_timestamp = Some(time(t));
    if let Some(r) = ready {
        set_ready(&mut pod, r, ltt.map(at));
    }
    pod
}

/// C-038 … C-041: node-1 holds a new pod (t=100), an old pod (t=50) and an old pod (t=60);
/// node-2 one current pod. Returns the sync's counts and the deleted names.
fn surge_node1_case(
    min_ready: Option<i32>,
    new_ready: Option<(bool, i64)>,
    old50_ready: bool,
    now: i64,
) -> (Counts, Vec<String>, Vec<String>) {
    let mut fake = Fake::new();
    let mut ctl = test_controller();
    let mut ds = new_daemon_set("foo");
    ds.spec.update_strategy = Some(update_surge(IntOrString::Int(1)));
    ds.spec.min_ready_seconds = min_ready;
    fake.add_nodes(0, 5, None);
    fake.add_pod(surge_pod(
        &ds,
        "node-1-new",
        "node-1",
        100,
        false,
        new_ready.map(|r| r.0),
        new_ready.map(|r| r.1),
    ));
    fake.add_pod(surge_pod(
        &ds,
        "node-1-old",
        "node-1",
        50,
        true,
        Some(old50_ready),
        None,
    ));
    fake.add_pod(surge_pod(
        &ds,
        "node-1-delete",
        "node-1",
        60,
        true,
        Some(true),
        None,
    ));
    fake.add_pods("node-2", &l1(), &ds, 1);
    fake.add_ds(ds);
    let counts = fake.sync(&mut ctl, "foo", at(now));
    (
        counts,
        sorted(&fake.created_targets()),
        sorted(&fake.deleted),
    )
}

#[test]
fn c_038_surge_preserves_oldest_ready_old_pod() {
    let (counts, created, deleted) = surge_node1_case(None, None, true, 0);
    assert_eq!(counts, Counts(3, 1, 0));
    assert_eq!(created, vec!["node-0", "node-3", "node-4"]);
    assert_eq!(deleted, vec!["node-1-delete"]);
}

#[test]
fn c_039_surge_deletes_unready_old_pods() {
    let (counts, created, deleted) = surge_node1_case(None, None, false, 0);
    assert_eq!(counts, Counts(3, 2, 0));
    assert_eq!(created, vec!["node-0", "node-3", "node-4"]);
    assert_eq!(deleted, vec!["node-1-delete", "node-1-old"]);
}

#[test]
fn c_040_surge_preserves_old_ready_while_new_pod_not_min_ready() {
    let (counts, created, deleted) = surge_node1_case(Some(15), Some((true, 50)), true, 60);
    assert_eq!(counts, Counts(3, 1, 0));
    assert_eq!(created, vec!["node-0", "node-3", "node-4"]);
    assert_eq!(deleted, vec!["node-1-delete"]);
}

#[test]
fn c_041_surge_deletes_old_ready_once_new_pod_min_ready() {
    let (counts, created, deleted) = surge_node1_case(Some(15), Some((true, 50)), true, 70);
    assert_eq!(counts, Counts(3, 2, 0));
    assert_eq!(created, vec!["node-0", "node-3", "node-4"]);
    assert_eq!(deleted, vec!["node-1-delete", "node-1-old"]);
}

#[test]
fn c_042_surge_replaces_terminating_pod_at_max_surge() {
    let mut fake = Fake::new();
    let mut ctl = test_controller();
    let mut ds = new_daemon_set("foo");
    ds.spec.update_strategy = Some(update_surge(IntOrString::Int(1)));
    fake.add_nodes(0, 5, None);
    fake.add_pod(surge_pod(
        &ds,
        "node-0-new",
        "node-0",
        100,
        false,
        Some(false),
        None,
    ));
    fake.add_pod(surge_pod(
        &ds,
        "node-0-old-readiness",
        "node-0",
        50,
        true,
        Some(true),
        None,
    ));
    for i in 1..5 {
        let mut pod = surge_pod(
            &ds,
            &format!("node-{i}-preserve"),
            &format!("node-{i}"),
            1,
            true,
            Some(true),
            None,
        );
        if i == 4 {
            pod.spec.as_mut().unwrap().termination_grace_period_seconds = Some(30);
            pod.metadata.deletion_timestamp = Some(time(31));
        }
        fake.add_pod(pod);
    }
    fake.add_ds(ds);
    fake.clear_expectations(&mut ctl, "foo", at(200));
    assert_eq!(fake.sync(&mut ctl, "foo", at(200)), Counts(1, 0, 0));
    assert_eq!(fake.created_targets(), vec!["node-4"]);
}
