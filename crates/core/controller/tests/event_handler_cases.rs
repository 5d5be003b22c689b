//! Upstream unit cases C-054 … C-066 (`daemon_controller_test.go`, event handlers), replayed by
//! case id through the controller's `on_*` handlers and its work queue. See
//! `shared/reference/upstream-unit-cases.md` §4.

mod support;
use support::*;

use controller::daemon_controller::should_ignore_node_update;
use controller::keys::CONTROLLER_REVISION_HASH_LABEL;
use controller::DaemonSetsController;
use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::{
    Container, Node, NodeCondition, Pod, PodSpec, ResourceRequirements,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use std::collections::BTreeMap;
use std::sync::Arc;

/// `allocatableResources(memory, cpu)`: memory, cpu and pods 100.
fn allocatable(memory: &str, cpu: &str) -> BTreeMap<String, Quantity> {
    BTreeMap::from([
        ("memory".into(), Quantity(memory.into())),
        ("cpu".into(), Quantity(cpu.into())),
        ("pods".into(), Quantity("100".into())),
    ])
}

/// `resourcePodSpec(nodeName, memory, cpu)`: one container requesting memory/cpu.
fn resource_pod_spec(node_name: &str, memory: &str, cpu: &str) -> PodSpec {
    PodSpec {
        node_name: (!node_name.is_empty()).then(|| node_name.to_string()),
        containers: vec![Container {
            name: "foo".into(),
            resources: Some(ResourceRequirements {
                requests: Some(allocatable(memory, cpu)),
                ..Default::default()
            }),
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// `newPod(name, node, labels, nil)`: an orphan (no controllerRef, no hash label).
fn orphan_pod(name: &str, node: &str, pod_labels: &Labels) -> Pod {
    let ds = new_daemon_set("unused");
    let mut pod = new_pod(name, node, pod_labels, &ds);
    pod.metadata.owner_references = None;
    if let Some(l) = pod.metadata.labels.as_mut() {
        l.remove(CONTROLLER_REVISION_HASH_LABEL);
    }
    pod
}

/// `bumpResourceVersion`: "" → "1", n → n+1.
fn bump_resource_version(pod: &mut Pod) {
    let v: i64 = pod
        .metadata
        .resource_version
        .as_deref()
        .unwrap_or("")
        .parse()
        .unwrap_or(0);
    pod.metadata.resource_version = Some((v + 1).to_string());
}

/// `getQueuedKeys`: the ready keys, sorted.
fn queued_keys(ctl: &DaemonSetsController) -> Vec<String> {
    let mut keys: Vec<String> = ctl.queue.ready_keys().map(str::to_string).collect();
    keys.sort();
    keys
}

/// Fresh DSs with the given names (selector/template L1) and strategy, all in the cache.
fn with_daemon_sets(
    fake: &mut Fake,
    names: &[&str],
    strategy: &k8s_openapi::api::apps::v1::DaemonSetUpdateStrategy,
) -> Vec<DaemonSet> {
    names
        .iter()
        .map(|n| {
            let mut ds = new_daemon_set(n);
            ds.spec.update_strategy = Some(strategy.clone());
            fake.add_ds(ds.clone());
            ds
        })
        .collect()
}

#[test]
fn c_054_add_node_enqueues_only_daemon_sets_that_should_run_there() {
    let mut fake = Fake::new();
    let mut ctl = test_controller();
    let mut ds = new_daemon_set("ds");
    template_spec(&mut ds).node_selector = Some(n1());
    fake.add_ds(ds);

    let node1 = new_node("node1", None);
    ctl.on_node_add(&fake, &node1);
    assert_eq!(ctl.queue.len(), 0);

    let node2 = new_node("node2", Some(n1()));
    ctl.on_node_add(&fake, &node2);
    assert_eq!(ctl.queue.len(), 1);
    assert_eq!(queued_keys(&ctl), vec!["default/ds".to_string()]);
}

#[test]
fn c_055_update_node_enqueues_only_on_label_or_taint_changes_that_matter() {
    struct Row {
        test: &'static str,
        old: Node,
        new: Node,
        ds: DaemonSet,
        expected_creates: usize,
        should_enqueue: bool,
    }
    let rows = || {
        let mut selector_ds = new_daemon_set("ds");
        template_spec(&mut selector_ds).node_selector = Some(n1());

        let mut tainted = new_node("node1", None);
        set_node_taints(
            &mut tainted,
            vec![taint("dedicated", "user1", "NoSchedule")],
        );

        let mut more_allocatable = new_node("node1", None);
        more_allocatable.status.as_mut().unwrap().allocatable = Some(allocatable("200M", "200m"));
        let mut resource_ds = new_daemon_set("ds");
        resource_ds.spec.template.spec = Some(resource_pod_spec("", "200M", "200m"));

        vec![
            Row {
                test: "nothing changed",
                old: new_node("node1", None),
                new: new_node("node1", None),
                ds: selector_ds.clone(),
                expected_creates: 0,
                should_enqueue: false,
            },
            Row {
                test: "node labels changed",
                old: new_node("node1", None),
                new: new_node("node1", Some(n1())),
                ds: selector_ds,
                expected_creates: 0,
                should_enqueue: true,
            },
            Row {
                test: "node taints changed",
                old: tainted,
                new: new_node("node1", None),
                ds: new_daemon_set("ds"),
                expected_creates: 0,
                should_enqueue: true,
            },
            Row {
                test: "node allocatable changed",
                old: new_node("node1", None),
                new: more_allocatable,
                ds: resource_ds,
                expected_creates: 1,
                should_enqueue: false,
            },
        ]
    };
    for strategy in both_strategies() {
        for row in rows() {
            let mut fake = Fake::new();
            let mut ctl = test_controller();
            fake.add_node(row.old.clone());
            let mut ds = row.ds;
            ds.spec.update_strategy = Some(strategy.clone());
            fake.add_ds(ds);
            assert_eq!(
                fake.sync(&mut ctl, "ds", at(0)),
                Counts(row.expected_creates, 0, 0),
                "{}: pre-sync",
                row.test
            );
            assert!(ctl.queue.is_empty(), "{}: queue before update", row.test);

            fake.nodes = vec![Arc::new(row.new.clone())];
            ctl.on_node_update(&fake, &row.old, &row.new);
            let enqueued = ctl.queue.ready_keys().any(|k| k == "default/ds");
            assert_eq!(enqueued, row.should_enqueue, "{}", row.test);
        }
    }
}

#[test]
fn c_056_should_ignore_node_update_only_when_labels_and_taints_are_equal() {
    // identical nodes
    assert!(should_ignore_node_update(
        &new_node("node1", None),
        &new_node("node1", None)
    ));
    // labels changed
    assert!(!should_ignore_node_update(
        &new_node("node1", None),
        &new_node("node1", Some(labels(&[("foo", "bar")])))
    ));
    // taints changed
    let mut tainted = new_node("node1", None);
    set_node_taints(
        &mut tainted,
        vec![taint("dedicated", "user1", "NoSchedule")],
    );
    assert!(!should_ignore_node_update(
        &new_node("node1", None),
        &tainted
    ));
}

#[test]
fn c_057_deleting_a_non_daemon_pod_does_not_enqueue() {
    let controller_only_ref = || OwnerReference {
        controller: Some(true),
        ..Default::default()
    };
    // (test, existing pods carry `{controller: true}`, deleted pod)
    let rows: Vec<(&str, bool, Pod)> = vec![
        ("deleted non-daemon pod", false, {
            let mut p = orphan_pod("pod_0", "node1", &Labels::new());
            p.metadata.labels = None;
            p.spec = Some(resource_pod_spec("node1", "50M", "50m"));
            p
        }),
        ("deleted non-daemon pod with a controller", true, {
            let mut p = orphan_pod("pod_0", "node1", &Labels::new());
            p.metadata.labels = None;
            p.metadata.owner_references = Some(vec![controller_only_ref()]);
            p.spec = Some(resource_pod_spec("node1", "50M", "50m"));
            p
        }),
        ("deleted unscheduled pod", true, {
            let mut p = orphan_pod("pod_5", "", &Labels::new());
            p.metadata.labels = None;
            p.spec = Some(resource_pod_spec("", "50M", "50m"));
            p
        }),
    ];
    for strategy in both_strategies() {
        for (test, with_controller, deleted) in &rows {
            let mut fake = Fake::new();
            let mut ctl = test_controller();
            let mut node = new_node("node1", None);
            let status = node.status.as_mut().unwrap();
            status.conditions = Some(vec![NodeCondition {
                type_: "Ready".into(),
                status: "True".into(),
                ..Default::default()
            }]);
            status.allocatable = Some(allocatable("200M", "200m"));
            fake.add_node(node);
            let mut ds = new_daemon_set("ds");
            ds.spec.template.spec = Some(resource_pod_spec("", "50M", "50m"));
            ds.spec.update_strategy = Some(strategy.clone());
            fake.add_ds(ds);
            for i in 0..4 {
                let mut p = orphan_pod(&format!("pod_{i}"), "node1", &Labels::new());
                p.metadata.labels = None;
                p.spec = Some(resource_pod_spec("node1", "50M", "50m"));
                if *with_controller {
                    p.metadata.owner_references = Some(vec![controller_only_ref()]);
                }
                fake.add_pod(p);
            }
            assert_eq!(
                fake.sync(&mut ctl, "ds", at(0)),
                Counts(1, 0, 0),
                "{test}: pre-sync (resources are not checked)"
            );
            assert!(ctl.queue.is_empty(), "{test}: queue before delete");
            ctl.on_pod_delete(&fake, deleted);
            assert_eq!(ctl.queue.len(), 0, "{test}: DS must not be enqueued");
        }
    }
}

#[test]
fn c_058_add_pod_enqueues_its_owner_and_observes_the_creation() {
    for strategy in both_strategies() {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        let dss = with_daemon_sets(&mut fake, &["foo1", "foo2"], &strategy);
        for (i, ds) in dss.iter().enumerate() {
            let key = format!("default/{}", ds.metadata.name.as_deref().unwrap());
            ctl.expectations.set(&key, 1, 0, at(0));
            assert!(!ctl.expectations.satisfied(&key, at(0)));

            let pod = new_pod(&format!("pod{}-x", i + 1), "node-0", &l1(), ds);
            ctl.on_pod_add(&fake, &pod);
            assert_eq!(ctl.queue.len(), 1);
            assert_eq!(ctl.queue.pop(at(0)).as_deref(), Some(key.as_str()));
            assert!(
                ctl.expectations.satisfied(&key, at(0)),
                "the owner's add-expectation is lowered"
            );
        }
    }
}

#[test]
fn c_059_add_orphan_pod_enqueues_every_matching_daemon_set() {
    for strategy in both_strategies() {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        let mut dss = with_daemon_sets(&mut fake, &["foo1", "foo2", "foo3"], &strategy);
        dss[2].spec.selector.match_labels = Some(l2());
        fake.add_ds(dss[2].clone());

        let pod = orphan_pod("pod1-x", "node-0", &l1());
        ctl.on_pod_add(&fake, &pod);
        assert_eq!(ctl.queue.len(), 2);
        assert_eq!(queued_keys(&ctl), vec!["default/foo1", "default/foo2"]);
    }
}

#[test]
fn c_060_update_owned_pod_enqueues_only_its_owner() {
    for strategy in both_strategies() {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        let dss = with_daemon_sets(&mut fake, &["foo1", "foo2"], &strategy);
        for (i, ds) in dss.iter().enumerate() {
            let prev = new_pod(&format!("pod{}-x", i + 1), "node-0", &l1(), ds);
            let mut cur = prev.clone();
            bump_resource_version(&mut cur);
            ctl.on_pod_update(&fake, &prev, &cur, at(0));
            assert_eq!(ctl.queue.len(), 1);
            let want = format!("default/{}", ds.metadata.name.as_deref().unwrap());
            assert_eq!(ctl.queue.pop(at(0)), Some(want));
        }
    }
}

#[test]
fn c_061_update_orphan_pod_with_same_labels_enqueues_nothing() {
    for strategy in both_strategies() {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        with_daemon_sets(&mut fake, &["foo1", "foo2"], &strategy);
        let prev = orphan_pod("pod1-x", "node-0", &l1());
        let mut cur = prev.clone();
        bump_resource_version(&mut cur);
        ctl.on_pod_update(&fake, &prev, &cur, at(0));
        assert_eq!(ctl.queue.len(), 0);
    }
}

#[test]
fn c_062_update_orphan_pod_with_new_labels_enqueues_matching_daemon_sets() {
    for strategy in both_strategies() {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        with_daemon_sets(&mut fake, &["foo1", "foo2"], &strategy);
        let mut cur = orphan_pod("pod1-x", "node-0", &l1());
        let mut prev = cur.clone();
        prev.metadata.labels = Some(labels(&[("foo2", "bar2")]));
        bump_resource_version(&mut cur);
        ctl.on_pod_update(&fake, &prev, &cur, at(0));
        assert_eq!(ctl.queue.len(), 2);
        assert_eq!(queued_keys(&ctl), vec!["default/foo1", "default/foo2"]);
    }
}

#[test]
fn c_063_update_pod_controller_ref_change_enqueues_old_and_new_owner() {
    for strategy in both_strategies() {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        let dss = with_daemon_sets(&mut fake, &["foo1", "foo2"], &strategy);
        let mut cur = new_pod("pod1-x", "node-0", &l1(), &dss[0]);
        let mut prev = cur.clone();
        prev.metadata.owner_references =
            Some(vec![controller::controller_ref::new_controller_ref(
                &dss[1],
            )]);
        bump_resource_version(&mut cur);
        ctl.on_pod_update(&fake, &prev, &cur, at(0));
        assert_eq!(ctl.queue.len(), 2);
        assert_eq!(queued_keys(&ctl), vec!["default/foo1", "default/foo2"]);
    }
}

#[test]
fn c_064_update_pod_controller_ref_removed_enqueues_old_owner_and_matching_sets() {
    for strategy in both_strategies() {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        let dss = with_daemon_sets(&mut fake, &["foo1", "foo2"], &strategy);
        let prev = new_pod("pod1-x", "node-0", &l1(), &dss[0]);
        let mut cur = prev.clone();
        cur.metadata.owner_references = None;
        bump_resource_version(&mut cur);
        ctl.on_pod_update(&fake, &prev, &cur, at(0));
        assert_eq!(ctl.queue.len(), 2);
        assert_eq!(queued_keys(&ctl), vec!["default/foo1", "default/foo2"]);
    }
}

#[test]
fn c_065_delete_owned_pod_enqueues_its_owner() {
    for strategy in both_strategies() {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        let dss = with_daemon_sets(&mut fake, &["foo1", "foo2"], &strategy);
        for (i, ds) in dss.iter().enumerate() {
            let pod = new_pod(&format!("pod{}-x", i + 1), "node-0", &l1(), ds);
            ctl.on_pod_delete(&fake, &pod);
            assert_eq!(ctl.queue.len(), 1);
            let want = format!("default/{}", ds.metadata.name.as_deref().unwrap());
            assert_eq!(ctl.queue.pop(at(0)), Some(want));
        }
    }
}

#[test]
fn c_066_delete_orphan_pod_enqueues_nothing() {
    for strategy in both_strategies() {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        let mut dss = with_daemon_sets(&mut fake, &["foo1", "foo2", "foo3"], &strategy);
        dss[2].spec.selector.match_labels = Some(l2());
        fake.add_ds(dss[2].clone());
        let pod = orphan_pod("pod1-x", "node-0", &l1());
        ctl.on_pod_delete(&fake, &pod);
        assert_eq!(ctl.queue.len(), 0);
    }
}

/// A ControllerRevision with the template labels L1, owned by `owner` or an orphan.
fn revision(
    name: &str,
    owner: Option<&DaemonSet>,
) -> k8s_openapi::api::apps::v1::ControllerRevision {
    k8s_openapi::api::apps::v1::ControllerRevision {
        metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta {
            name: Some(name.into()),
            namespace: Some("default".into()),
            labels: Some(l1()),
            owner_references: owner
                .map(|ds| vec![controller::controller_ref::new_controller_ref(ds)]),
            ..Default::default()
        },
        revision: Some(1),
        data: Default::default(),
    }
}

/// `addHistory` with a controller reference logs "Observed a ControllerRevision" and enqueues
/// nothing (R-EVT-10): the owner created it in a sync of its own, which already runs on.
#[test]
fn add_history_with_a_controller_ref_only_observes_it() {
    let mut fake = Fake::new();
    let mut ctl = test_controller();
    let dss = with_daemon_sets(&mut fake, &["foo1", "foo2"], &on_delete());
    ctl.on_revision_add(&fake, &revision("foo1-abc", Some(&dss[0])));
    assert!(ctl.queue.is_empty(), "queued {:?}", queued_keys(&ctl));
}

/// `addHistory` of an orphan enqueues every DaemonSet whose selector matches it, to adopt it.
#[test]
fn add_history_of_an_orphan_enqueues_every_matching_daemon_set() {
    let mut fake = Fake::new();
    let mut ctl = test_controller();
    let mut dss = with_daemon_sets(&mut fake, &["foo1", "foo2", "foo3"], &on_delete());
    dss[2].spec.selector.match_labels = Some(l2());
    fake.add_ds(dss[2].clone());
    ctl.on_revision_add(&fake, &revision("orphan-abc", None));
    assert_eq!(queued_keys(&ctl), vec!["default/foo1", "default/foo2"]);
}

/// `updateHistory` and `deleteHistory` of an owned revision do enqueue its owner.
#[test]
fn update_and_delete_history_enqueue_the_owner() {
    let mut fake = Fake::new();
    let mut ctl = test_controller();
    let dss = with_daemon_sets(&mut fake, &["foo1"], &on_delete());
    let old = revision("foo1-abc", Some(&dss[0]));
    let mut cur = old.clone();
    cur.metadata.resource_version = Some("2".into());
    cur.revision = Some(2);
    ctl.on_revision_update(&fake, &old, &cur);
    assert_eq!(queued_keys(&ctl), vec!["default/foo1"]);
    let mut ctl = test_controller();
    ctl.on_revision_delete(&fake, &cur);
    assert_eq!(queued_keys(&ctl), vec!["default/foo1"]);
}
