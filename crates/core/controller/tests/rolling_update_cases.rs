//! Upstream unit cases C-067 … C-077 (`update_test.go`, rolling update), replayed by case id:
//! every "(c, d)" step is one sync preceded by `clear_expectations`, events always 0.
//! See `shared/reference/upstream-unit-cases.md` §5.

mod support;
use support::*;

use controller::keys::CONTROLLER_REVISION_HASH_LABEL;
use controller::pod_util::is_pod_ready;
use controller::update::updated_desired_node_counts;
use controller::util::get_target_node_name;
use controller::{node_should_run_daemon_pod, DaemonSetsController};
use k8s_openapi::api::apps::v1::{DaemonSet, DaemonSetUpdateStrategy};
use k8s_openapi::api::core::v1::{Node, Pod, Toleration};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use k8s_openapi::jiff::Timestamp;
use std::collections::{BTreeMap, BTreeSet};

/// A DS `foo` (F-DS) on `n` nodes `node-<i>`, with its controller.
fn setup(n: usize) -> (Fake, DaemonSetsController) {
    let mut fake = Fake::new();
    fake.add_nodes(0, n, None);
    fake.add_ds(new_daemon_set("foo"));
    (fake, test_controller())
}

/// One replayed step: `clearExpectations` then one sync expecting `(creates, deletes, 0)`.
#[track_caller]
fn step(fake: &mut Fake, ctl: &mut DaemonSetsController, now: Timestamp, c: usize, d: usize) {
    fake.clear_expectations(ctl, "foo", now);
    assert_eq!(fake.sync(ctl, "foo", now), Counts(c, d, 0));
}

/// Edits the cached DS and stores it back (`manager.dsStore.Update(ds)`).
fn edit_ds(fake: &mut Fake, f: impl FnOnce(&mut DaemonSet)) {
    let mut ds = fake.ds("foo");
    f(&mut ds);
    fake.add_ds(ds);
}

fn set_image(ds: &mut DaemonSet, image: &str) {
    template_spec(ds).containers[0].image = Some(image.into());
}

/// `ds.Spec.UpdateStrategy.Type = RollingUpdate; RollingUpdate = {MaxUnavailable: v}`.
fn rolling(max_unavailable: i32) -> DaemonSetUpdateStrategy {
    update_unavailable(IntOrString::Int(max_unavailable))
}

/// Names of the Ready pods in the cache.
fn ready_pods(fake: &Fake) -> BTreeSet<String> {
    fake.pods
        .iter()
        .filter(|p| is_pod_ready(p))
        .map(|p| p.metadata.name.clone().unwrap_or_default())
        .collect()
}

/// `setPodReadiness(t, dsc, ready, count, fn)`: flips the Ready condition of the first `count`
/// cached pods (list order) that are not terminating, not already in that state and pass `f`;
/// the transition time is the fake clock `now`.
fn set_pod_readiness(
    fake: &mut Fake,
    ready: bool,
    count: usize,
    now: Timestamp,
    f: impl Fn(&Pod) -> bool,
) {
    let mut left = count;
    fake.update_pods(|_, p| {
        if left == 0 || p.metadata.deletion_timestamp.is_some() || is_pod_ready(p) == ready {
            return;
        }
        if !f(p) {
            return;
        }
        set_ready(p, ready, Some(now));
        left -= 1;
    });
    assert_eq!(left, 0, "could not mark {count} pods ready={ready}");
}

fn hash_of(p: &Pod) -> Option<&str> {
    p.metadata
        .labels
        .as_ref()
        .and_then(|l| l.get(CONTROLLER_REVISION_HASH_LABEL))
        .map(String::as_str)
}

/// `podsByNodeMatchingHash`: target node → names of the pods carrying `hash`.
fn pods_by_node_matching_hash(fake: &Fake, hash: &str) -> BTreeMap<String, Vec<String>> {
    let mut by_node: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for p in &fake.pods {
        if hash_of(p) != Some(hash) {
            continue;
        }
        let node = get_target_node_name(p).expect("target node").to_string();
        by_node
            .entry(node)
            .or_default()
            .push(p.metadata.name.clone().unwrap_or_default());
    }
    by_node
}

#[test]
fn c_067_daemon_set_updates_pods() {
    let (mut fake, mut ctl) = setup(5);
    let t = at(0);
    assert_eq!(fake.sync(&mut ctl, "foo", t), Counts(5, 0, 0));
    fake.mark_pods_ready(t);

    edit_ds(&mut fake, |ds| {
        set_image(ds, "foo2/bar2");
        ds.spec.update_strategy = Some(rolling(2));
    });
    step(&mut fake, &mut ctl, t, 0, 2);
    step(&mut fake, &mut ctl, t, 2, 0);
    fake.mark_pods_ready(t);
    step(&mut fake, &mut ctl, t, 0, 2);
    step(&mut fake, &mut ctl, t, 2, 0);
    fake.mark_pods_ready(t);
    step(&mut fake, &mut ctl, t, 0, 1);
    step(&mut fake, &mut ctl, t, 1, 0);
    fake.mark_pods_ready(t);
    step(&mut fake, &mut ctl, t, 0, 0);
}

#[test]
fn c_068_daemon_set_updates_pods_with_max_surge() {
    let (mut fake, mut ctl) = setup(5);
    let t = at(0);
    assert_eq!(fake.sync(&mut ctl, "foo", t), Counts(5, 0, 0));
    fake.mark_pods_ready(t);

    edit_ds(&mut fake, |ds| {
        set_image(ds, "foo2/bar2");
        ds.spec.update_strategy = Some(update_surge(IntOrString::Int(2)));
    });
    step(&mut fake, &mut ctl, t, 2, 0);
    step(&mut fake, &mut ctl, t, 0, 0);
    fake.mark_pods_ready(t);
    step(&mut fake, &mut ctl, t, 2, 2);
    step(&mut fake, &mut ctl, t, 0, 0);
    fake.mark_pods_ready(t);
    step(&mut fake, &mut ctl, t, 1, 2);
    step(&mut fake, &mut ctl, t, 0, 0);
    fake.mark_pods_ready(t);
    step(&mut fake, &mut ctl, t, 0, 1);
    step(&mut fake, &mut ctl, t, 0, 0);
}

#[test]
fn c_069_surge_update_replaces_pod_on_node_no_longer_tolerated_when_availability_allows() {
    let mut fake = Fake::new();
    let mut ctl = test_controller();
    let t = at(0);
    let mut ds = new_daemon_set("foo");
    ds.spec.update_strategy = Some(update_surge(IntOrString::Int(1)));
    template_spec(&mut ds).tolerations = Some(vec![Toleration {
        key: Some("node-role.kubernetes.io/control-plane".into()),
        operator: Some("Exists".into()),
        ..Default::default()
    }]);
    fake.add_ds(ds);
    let mut node0 = new_node("node-0", None);
    set_node_taints(
        &mut node0,
        vec![taint(
            "node-role.kubernetes.io/control-plane",
            "",
            "NoSchedule",
        )],
    );
    fake.add_node(node0);
    fake.add_nodes(1, 4, None);

    assert_eq!(fake.sync(&mut ctl, "foo", t), Counts(5, 0, 0));
    fake.mark_pods_ready(t);

    // Rolling update without the toleration: node-0 is no longer desired (desired = 4).
    edit_ds(&mut fake, |ds| template_spec(ds).tolerations = None);
    let node0_pod = fake
        .pods
        .iter()
        .find(|p| get_target_node_name(p) == Ok("node-0"))
        .and_then(|p| p.metadata.name.clone())
        .unwrap();
    fake.clear_expectations(&mut ctl, "foo", t);
    assert_eq!(fake.sync(&mut ctl, "foo", t), Counts(1, 1, 0));
    assert_eq!(
        fake.deleted,
        vec![node0_pod],
        "first delete is node-0's old pod"
    );
    assert!(
        !fake.created_targets().contains(&"node-0".to_string()),
        "nothing is created on node-0"
    );
    step(&mut fake, &mut ctl, t, 0, 0);
    fake.mark_pods_ready(t);
    step(&mut fake, &mut ctl, t, 1, 1);
    step(&mut fake, &mut ctl, t, 0, 0);
    fake.mark_pods_ready(t);
    step(&mut fake, &mut ctl, t, 1, 1);
    step(&mut fake, &mut ctl, t, 0, 0);
    fake.mark_pods_ready(t);
    step(&mut fake, &mut ctl, t, 1, 1);
    step(&mut fake, &mut ctl, t, 0, 0);
    fake.mark_pods_ready(t);
    step(&mut fake, &mut ctl, t, 0, 1);
    step(&mut fake, &mut ctl, t, 0, 0);
}

#[test]
fn c_070_daemon_set_update_stalls_while_new_pods_are_not_ready() {
    let (mut fake, mut ctl) = setup(5);
    let t = at(0);
    assert_eq!(fake.sync(&mut ctl, "foo", t), Counts(5, 0, 0));
    fake.mark_pods_ready(t);

    edit_ds(&mut fake, |ds| {
        set_image(ds, "foo2/bar2");
        ds.spec.update_strategy = Some(rolling(3));
    });
    step(&mut fake, &mut ctl, t, 0, 3);
    step(&mut fake, &mut ctl, t, 3, 0);
    step(&mut fake, &mut ctl, t, 0, 0);
}

#[test]
fn c_071_daemon_set_updates_some_old_pods_not_ready_first() {
    let (mut fake, mut ctl) = setup(5);
    let t = at(0);
    assert_eq!(fake.sync(&mut ctl, "foo", t), Counts(5, 0, 0));
    fake.mark_pods_ready(t);

    edit_ds(&mut fake, |ds| {
        set_image(ds, "foo2/bar2");
        ds.spec.update_strategy = Some(rolling(2));
    });
    step(&mut fake, &mut ctl, t, 0, 2);
    step(&mut fake, &mut ctl, t, 2, 0);
    step(&mut fake, &mut ctl, t, 0, 0);

    // 3 old Ready + 2 old not-Ready pods after the second template change.
    edit_ds(&mut fake, |ds| set_image(ds, "foo2/bar3"));
    let unready_before: BTreeSet<String> = fake
        .pods
        .iter()
        .filter(|p| !is_pod_ready(p))
        .map(|p| p.metadata.name.clone().unwrap())
        .collect();
    fake.clear_expectations(&mut ctl, "foo", t);
    assert_eq!(fake.sync(&mut ctl, "foo", t), Counts(0, 2, 0));
    assert_eq!(
        fake.deleted.iter().cloned().collect::<BTreeSet<_>>(),
        unready_before,
        "the 2 not-Ready old pods go first"
    );
    step(&mut fake, &mut ctl, t, 2, 0);
    step(&mut fake, &mut ctl, t, 0, 0);
    assert_eq!(ready_pods(&fake).len(), 5 - 2);
}

#[test]
fn c_072_daemon_set_updates_save_old_healthy_pods() {
    let (mut fake, mut ctl) = setup(20);
    let t = at(0);
    assert_eq!(fake.sync(&mut ctl, "foo", t), Counts(20, 0, 0));
    fake.mark_pods_ready(t);

    // First update: 10 old Ready pods that must never be touched afterwards.
    edit_ds(&mut fake, |ds| {
        set_image(ds, "foo2/bar2");
        ds.spec.update_strategy = Some(rolling(10));
    });
    step(&mut fake, &mut ctl, t, 0, 10);
    step(&mut fake, &mut ctl, t, 10, 0);
    step(&mut fake, &mut ctl, t, 0, 0);
    let old_ready = ready_pods(&fake);
    assert_eq!(old_ready.len(), 10);

    // Upstream draws `rand.Intn(10)`; a fixed permutation of [0, 9] covers every value,
    // including 0 (guard ⇒ 1) and 9.
    let max_unavailables = [7, 0, 3, 9, 1, 5, 8, 2, 6, 4];
    for (i, mu) in max_unavailables.into_iter().enumerate() {
        edit_ds(&mut fake, |ds| {
            set_image(ds, &format!("foo2/bar3-{i}"));
            ds.spec.update_strategy = Some(rolling(mu));
        });
        step(&mut fake, &mut ctl, t, 0, 10);
        step(&mut fake, &mut ctl, t, 10, 0);
        step(&mut fake, &mut ctl, t, 0, 0);
        let ready = ready_pods(&fake);
        assert!(
            old_ready.is_subset(&ready),
            "iteration {i} (maxUnavailable {mu}) touched old Ready pods: {:?}",
            old_ready.difference(&ready).collect::<Vec<_>>()
        );
    }

    edit_ds(&mut fake, |ds| {
        set_image(ds, "foo2/bar4");
        ds.spec.update_strategy = Some(rolling(11));
    });
    step(&mut fake, &mut ctl, t, 0, 11);
    step(&mut fake, &mut ctl, t, 11, 0);
    step(&mut fake, &mut ctl, t, 0, 0);
    assert_eq!(ready_pods(&fake).len(), 9);
}

#[test]
fn c_073_daemon_set_replaces_old_not_ready_pods_despite_unavailable_new_pods() {
    let (mut fake, mut ctl) = setup(100);
    let t = at(0);
    assert_eq!(fake.sync(&mut ctl, "foo", t), Counts(100, 0, 0));
    fake.mark_pods_ready(t);
    let hash1 = hash_of(&fake.pods[0]).unwrap().to_string();

    edit_ds(&mut fake, |ds| {
        set_image(ds, "foo2/bar2");
        ds.spec.update_strategy = Some(rolling(10));
    });
    for _ in 0..10 {
        step(&mut fake, &mut ctl, t, 0, 10);
        step(&mut fake, &mut ctl, t, 10, 0);
        fake.mark_pods_ready(t);
    }
    step(&mut fake, &mut ctl, t, 0, 0);

    // 10 old Available, 2 old not Ready, 88 new not Ready.
    let mut old_unavailable = BTreeSet::new();
    fake.update_pods(|i, p| {
        if i >= 10 {
            set_ready(p, false, Some(t));
        }
        if i < 12 {
            p.metadata
                .labels
                .get_or_insert_with(Default::default)
                .insert(CONTROLLER_REVISION_HASH_LABEL.into(), hash1.clone());
            if i >= 10 {
                old_unavailable.insert(p.metadata.name.clone().unwrap());
            }
        }
    });
    fake.clear_expectations(&mut ctl, "foo", t);
    assert_eq!(fake.sync(&mut ctl, "foo", t), Counts(0, 2, 0));
    assert_eq!(
        fake.deleted.iter().cloned().collect::<BTreeSet<_>>(),
        old_unavailable,
        "exactly the 2 old not-Ready pods are deleted"
    );
    step(&mut fake, &mut ctl, t, 2, 0);
    step(&mut fake, &mut ctl, t, 0, 0);
    assert!(fake
        .pods
        .iter()
        .all(|p| !old_unavailable.contains(p.metadata.name.as_deref().unwrap())));
}

#[test]
fn c_074_daemon_set_replaces_all_old_pods_when_none_is_ready() {
    let (mut fake, mut ctl) = setup(5);
    let t = at(0);
    assert_eq!(fake.sync(&mut ctl, "foo", t), Counts(5, 0, 0));

    edit_ds(&mut fake, |ds| {
        set_image(ds, "foo2/bar2");
        ds.spec.update_strategy = Some(rolling(3));
    });
    step(&mut fake, &mut ctl, t, 0, 5);
    step(&mut fake, &mut ctl, t, 5, 0);
    step(&mut fake, &mut ctl, t, 0, 0);
}

#[test]
fn c_075_surge_update_with_all_old_pods_not_ready_and_min_ready_seconds() {
    let (mut fake, mut ctl) = setup(5);
    assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(5, 0, 0));

    edit_ds(&mut fake, |ds| {
        set_image(ds, "foo2/bar2");
        ds.spec.update_strategy = Some(update_surge(IntOrString::Int(3)));
    });
    // Every old pod is unavailable ⇒ a new pod on every node regardless of maxSurge.
    step(&mut fake, &mut ctl, at(100), 5, 0);
    // Old pods are not Ready ⇒ manage deletes them all.
    step(&mut fake, &mut ctl, at(200), 0, 5);

    set_pod_readiness(&mut fake, true, 5, at(200), |_| true);
    edit_ds(&mut fake, |ds| {
        ds.spec.min_ready_seconds = Some(15);
        set_image(ds, "foo3/bar3");
    });
    // Old pods Available (200 + 15 ≤ 300): maxSurge 3.
    step(&mut fake, &mut ctl, at(300), 3, 0);

    let hash = current_hash(&fake.ds("foo"));
    let current_pods = pods_by_node_matching_hash(&fake, &hash);
    assert_eq!(current_pods.len(), 3);
    set_pod_readiness(&mut fake, true, 2, at(300), |p| hash_of(p) == Some(&hash));
    set_pod_readiness(&mut fake, false, 1, at(300), |p| {
        let node = get_target_node_name(p).unwrap();
        hash_of(p) != Some(&hash) && !current_pods.contains_key(node)
    });

    let unready_old_node = fake
        .pods
        .iter()
        .find(|p| hash_of(p) != Some(&hash) && !is_pod_ready(p))
        .map(|p| get_target_node_name(p).unwrap().to_string())
        .unwrap();

    // New pods not yet Available (315 > 310) ⇒ numSurge 3; the node whose old pod went
    // unready gets a new pod anyway.
    step(&mut fake, &mut ctl, at(310), 1, 0);
    assert_eq!(fake.created_targets(), vec![unready_old_node]);
    // 2 new pods Available ⇒ their old pods go, plus the unready old pod; 1 more surge pod.
    step(&mut fake, &mut ctl, at(320), 1, 3);

    set_pod_readiness(&mut fake, true, 3, at(320), |p| hash_of(p) == Some(&hash));
    step(&mut fake, &mut ctl, at(340), 0, 2);
    step(&mut fake, &mut ctl, at(350), 0, 0);
}

#[test]
fn c_076_strategy_change_without_template_change_replaces_nothing() {
    let (mut fake, mut ctl) = setup(5);
    let t = at(0);
    assert_eq!(fake.sync(&mut ctl, "foo", t), Counts(5, 0, 0));
    let revisions_before = fake.revisions.len();

    edit_ds(&mut fake, |ds| ds.spec.update_strategy = Some(rolling(3)));
    step(&mut fake, &mut ctl, t, 0, 0);
    assert_eq!(
        fake.revisions.len(),
        revisions_before,
        "a strategy change creates no revision"
    );
}

/// A pod of DS `x` named `name` on `node`, Ready (`markPodReady`).
fn ready_pod(name: &str, node: &str, ds: &DaemonSet) -> Pod {
    let mut p = new_pod(name, node, &l1(), ds);
    set_ready(&mut p, true, Some(at(0)));
    p
}

/// `updatedDesiredNodeCounts(ds, nodeList, nodeToDaemonPods)`: desired = nodes that should
/// run the DS; every desired node without pods gets an empty entry. Returns
/// `(maxSurge, maxUnavailable, desired, emptyNodes)`.
fn unavailable_numbers(
    ds: &DaemonSet,
    nodes: &[Node],
    node_to_pods: &BTreeMap<String, Vec<Pod>>,
) -> (i32, i32, i32, usize) {
    let mut entries: BTreeMap<&str, usize> = node_to_pods
        .iter()
        .map(|(k, v)| (k.as_str(), v.len()))
        .collect();
    let mut desired = 0;
    for node in nodes {
        if node_should_run_daemon_pod(node, ds).should_run {
            desired += 1;
            entries
                .entry(node.metadata.name.as_deref().unwrap())
                .or_insert(0);
        }
    }
    let (surge, unavailable, desired) =
        updated_desired_node_counts(ds, desired).expect("valid strategy");
    let empty = entries.values().filter(|n| **n == 0).count();
    (surge, unavailable, desired, empty)
}

#[test]
fn c_077_get_unavailable_numbers() {
    let nodes = |n: usize| -> Vec<Node> {
        (0..n)
            .map(|i| new_node(&format!("node-{i}"), None))
            .collect()
    };
    let ds_with = |s: DaemonSetUpdateStrategy| {
        let mut ds = new_daemon_set("x");
        ds.spec.update_strategy = Some(s);
        ds
    };
    let pct = |s: &str| IntOrString::String(s.into());
    let both_ready = |ds: &DaemonSet| {
        BTreeMap::from([
            ("node-0".to_string(), vec![ready_pod("pod-0", "node-0", ds)]),
            ("node-1".to_string(), vec![ready_pod("pod-1", "node-1", ds)]),
        ])
    };
    let only_node0 = |ds: &DaemonSet| {
        BTreeMap::from([("node-0".to_string(), vec![ready_pod("pod-0", "node-0", ds)])])
    };

    // (name, ds, nodes, nodeToPods, expected (maxSurge, maxUnavailable, desired, emptyNodes))
    type Row = (
        &'static str,
        DaemonSet,
        Vec<Node>,
        BTreeMap<String, Vec<Pod>>,
        (i32, i32, i32, usize),
    );
    let mut rows: Vec<Row> = Vec::new();

    let ds = ds_with(update_unavailable(IntOrString::Int(0)));
    rows.push(("No nodes", ds, nodes(0), BTreeMap::new(), (0, 0, 0, 0)));

    let ds = ds_with(update_unavailable(IntOrString::Int(1)));
    let m = both_ready(&ds);
    rows.push(("Two nodes with ready pods", ds, nodes(2), m, (0, 1, 2, 0)));

    let ds = ds_with(update_unavailable(IntOrString::Int(0)));
    let m = only_node0(&ds);
    rows.push((
        "Two nodes, one node without pods",
        ds,
        nodes(2),
        m,
        (0, 1, 2, 1),
    ));

    let ds = ds_with(update_surge(IntOrString::Int(0)));
    let m = only_node0(&ds);
    rows.push((
        "Two nodes, one node without pods, surge",
        ds,
        nodes(2),
        m,
        (0, 1, 2, 1),
    ));

    let ds = ds_with(update_unavailable(pct("50%")));
    let m = both_ready(&ds);
    rows.push((
        "Two nodes with pods, MaxUnavailable in percents",
        ds,
        nodes(2),
        m,
        (0, 1, 2, 0),
    ));

    let ds = ds_with(update_surge(pct("50%")));
    let m = both_ready(&ds);
    rows.push((
        "Two nodes with pods, MaxUnavailable in percents, surge",
        ds,
        nodes(2),
        m,
        (1, 0, 2, 0),
    ));

    let ds = ds_with(update_surge(pct("100%")));
    let m = both_ready(&ds);
    rows.push((
        "Two nodes with pods, MaxUnavailable is 100%, surge",
        ds,
        nodes(2),
        m,
        (2, 0, 2, 0),
    ));

    let ds = ds_with(update_unavailable(pct("50%")));
    let mut m = both_ready(&ds);
    m.get_mut("node-1").unwrap()[0].metadata.deletion_timestamp = Some(Time(at(0)));
    rows.push((
        "Two nodes with pods, MaxUnavailable in percents, pod terminating",
        ds,
        nodes(3),
        m,
        (0, 2, 3, 1),
    ));

    for (name, ds, nodes, node_to_pods, want) in rows {
        assert_eq!(
            unavailable_numbers(&ds, &nodes, &node_to_pods),
            want,
            "{name}"
        );
    }
}
