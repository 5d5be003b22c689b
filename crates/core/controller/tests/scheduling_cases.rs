//! Upstream unit cases C-001 … C-028 (`daemon_controller_test.go`, scheduling/eligibility),
//! replayed by case id. See `shared/reference/upstream-unit-cases.md`.

mod support;
use support::*;

/// Runs `f` once per `[both]` strategy with a fresh DS named `name`.
fn for_both(name: &str, mut f: impl FnMut(k8s_openapi::api::apps::v1::DaemonSet)) {
    for strategy in both_strategies() {
        let mut ds = new_daemon_set(name);
        ds.spec.update_strategy = Some(strategy);
        f(ds);
    }
}

#[test]
fn c_001_simple_daemon_set_launches_pods() {
    for_both("foo", |ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        fake.add_nodes(0, 5, None);
        fake.add_ds(ds);
        assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(5, 0, 0));
    });
}

#[test]
fn c_002_created_pods_are_pinned_by_node_affinity_not_node_name() {
    for_both("foo", |ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        fake.add_nodes(0, 5, None);
        fake.add_ds(ds);
        assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(5, 0, 0));
        let mut targets = Vec::new();
        for pod in &fake.created {
            let spec = pod.spec.as_ref().unwrap();
            assert!(spec.node_name.as_deref().unwrap_or("").is_empty());
            let req = spec
                .affinity
                .as_ref()
                .unwrap()
                .node_affinity
                .as_ref()
                .unwrap()
                .required_during_scheduling_ignored_during_execution
                .as_ref()
                .unwrap();
            assert_eq!(req.node_selector_terms.len(), 1);
            let fields = req.node_selector_terms[0].match_fields.as_ref().unwrap();
            assert_eq!(fields.len(), 1);
            assert_eq!(fields[0].key, "metadata.name");
            assert_eq!(fields[0].operator, "In");
            let values = fields[0].values.as_ref().unwrap();
            assert_eq!(values.len(), 1);
            targets.push(values[0].clone());
        }
        targets.sort();
        assert_eq!(
            targets,
            (0..5).map(|i| format!("node-{i}")).collect::<Vec<_>>()
        );
    });
}

// ----- helpers for C-003 … C-028 -----

use controller::client::EventType;
use controller::keys::reasons;
use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::{
    Affinity, ContainerPort, Node, NodeAffinity, NodeCondition, NodeSelector,
    NodeSelectorRequirement, NodeSelectorTerm, Pod, PodSpec, ResourceRequirements, Toleration,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use std::collections::BTreeMap;

/// One `syncDaemonSet` on an arbitrary key (for DSs outside `default`), counts only.
fn sync_key(fake: &mut Fake, ctl: &mut controller::DaemonSetsController, key: &str) -> Counts {
    fake.reset_counters();
    let _ = ctl.sync_daemon_set(fake, key, at(0));
    Counts(
        fake.create_calls,
        fake.delete_calls,
        fake.controller_events().len(),
    )
}

/// Replaces the node's conditions.
fn set_conditions(node: &mut Node, conds: &[(&str, &str)]) {
    node.status.get_or_insert_with(Default::default).conditions = Some(
        conds
            .iter()
            .map(|(t, s)| NodeCondition {
                type_: t.to_string(),
                status: s.to_string(),
                ..Default::default()
            })
            .collect(),
    );
}

/// `allocatableResources(memory, cpu)` (pods stays 100).
fn set_allocatable(node: &mut Node, memory: &str, cpu: &str) {
    let alloc = node
        .status
        .get_or_insert_with(Default::default)
        .allocatable
        .get_or_insert_with(Default::default);
    alloc.insert("memory".into(), Quantity(memory.into()));
    alloc.insert("cpu".into(), Quantity(cpu.into()));
    alloc.insert("pods".into(), Quantity("100".into()));
}

/// `resourceContainerSpec(memory, cpu)` requests on the first container.
fn set_requests(spec: &mut PodSpec, memory: &str, cpu: &str) {
    spec.containers[0].resources = Some(ResourceRequirements {
        requests: Some(BTreeMap::from([
            ("memory".into(), Quantity(memory.into())),
            ("cpu".into(), Quantity(cpu.into())),
        ])),
        ..Default::default()
    });
}

fn set_host_port(spec: &mut PodSpec, port: i32) {
    spec.containers[0].ports = Some(vec![ContainerPort {
        container_port: port,
        host_port: Some(port),
        ..Default::default()
    }]);
}

/// A pod not owned by any DS, bound to `node`, with a copy of `spec` and the given labels.
fn non_ds_pod(name: &str, node: &str, spec: PodSpec, pod_labels: Option<Labels>) -> Pod {
    let mut spec = spec;
    spec.node_name = Some(node.to_string());
    Pod {
        metadata: ObjectMeta {
            name: Some(name.to_string()),
            namespace: Some("default".into()),
            labels: pod_labels,
            ..Default::default()
        },
        spec: Some(spec),
        status: None,
    }
}

fn required_affinity(key: &str, values: &[&str]) -> Affinity {
    Affinity {
        node_affinity: Some(NodeAffinity {
            required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                node_selector_terms: vec![NodeSelectorTerm {
                    match_expressions: Some(vec![NodeSelectorRequirement {
                        key: key.into(),
                        operator: "In".into(),
                        values: Some(values.iter().map(|v| v.to_string()).collect()),
                    }]),
                    match_fields: None,
                }],
            }),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn dedicated_toleration() -> Toleration {
    Toleration {
        key: Some("dedicated".into()),
        value: Some("user1".into()),
        effect: Some("NoSchedule".into()),
        ..Default::default()
    }
}

/// Nodes node-0..3 unlabeled, node-4..6 labelled N1 (C-015 … C-022).
fn add_selector_nodes(fake: &mut Fake) {
    fake.add_nodes(0, 4, None);
    fake.add_nodes(4, 3, Some(n1()));
}

/// Runs a single-sync `[both]` case: `setup` fills the fake for the DS, then one sync.
fn both_one_sync(name: &str, expect: Counts, mut setup: impl FnMut(&mut Fake, &mut DaemonSet)) {
    for_both(name, |mut ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        setup(&mut fake, &mut ds);
        fake.add_ds(ds);
        assert_eq!(fake.sync(&mut ctl, name, at(0)), expect);
    });
}

#[test]
fn c_003_one_node_daemon_launches_pod() {
    both_one_sync("foo", Counts(1, 0, 0), |fake, _| {
        fake.add_node(new_node("only-node", None));
    });
}

#[test]
fn c_004_no_nodes_does_nothing() {
    both_one_sync("foo", Counts(0, 0, 0), |_, _| {});
}

#[test]
fn c_005_not_ready_node_without_taints_gets_a_pod() {
    both_one_sync("foo", Counts(1, 0, 0), |fake, _| {
        let mut node = new_node("not-ready", None);
        set_conditions(&mut node, &[("Ready", "False")]);
        fake.add_node(node);
    });
}

#[test]
fn c_006_not_ready_no_execute_taint_is_tolerated_by_default() {
    both_one_sync("simple", Counts(1, 0, 0), |fake, _| {
        let mut node = new_node("tainted", None);
        set_conditions(&mut node, &[("Ready", "False")]);
        let mut t = taint("node.kubernetes.io/not-ready", "", "NoExecute");
        t.time_added = Some(time(0));
        set_node_taints(&mut node, vec![t]);
        fake.add_node(node);
    });
}

#[test]
fn c_007_unreachable_no_execute_taint_is_tolerated_by_default() {
    both_one_sync("simple", Counts(1, 0, 0), |fake, _| {
        let mut node = new_node("tainted", None);
        set_conditions(&mut node, &[("Ready", "Unknown")]);
        let mut t = taint("node.kubernetes.io/unreachable", "", "NoExecute");
        t.time_added = Some(time(0));
        set_node_taints(&mut node, vec![t]);
        fake.add_node(node);
    });
}

#[test]
fn c_008_network_unavailable_condition_without_taint_gets_a_pod() {
    both_one_sync("simple", Counts(1, 0, 0), |fake, ds| {
        template_spec(ds).host_network = Some(false);
        let mut node = new_node("network-unavailable", None);
        set_conditions(
            &mut node,
            &[("Ready", "True"), ("NetworkUnavailable", "True")],
        );
        fake.add_node(node);
    });
    // The contrast the catalogue states (R-ELG-6): with the network-unavailable NoSchedule
    // taint and hostNetwork=false the DS is not placed.
    both_one_sync("simple", Counts(0, 0, 0), |fake, ds| {
        template_spec(ds).host_network = Some(false);
        let mut node = new_node("network-unavailable", None);
        set_conditions(
            &mut node,
            &[("Ready", "True"), ("NetworkUnavailable", "True")],
        );
        set_node_taints(
            &mut node,
            vec![taint(
                "node.kubernetes.io/network-unavailable",
                "",
                "NoSchedule",
            )],
        );
        fake.add_node(node);
    });
}

#[test]
fn c_009_pressure_taints_are_tolerated_by_critical_daemon() {
    for_both("critical", |mut ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        ds.metadata.namespace = Some("kube-system".into());
        ds.spec
            .template
            .metadata
            .get_or_insert_with(Default::default)
            .annotations
            .get_or_insert_with(Default::default);
        template_spec(&mut ds).priority = Some(2_000_000_000);
        let mut node = new_node("resources-pressure", None);
        set_conditions(
            &mut node,
            &[
                ("Ready", "True"),
                ("DiskPressure", "True"),
                ("MemoryPressure", "True"),
                ("PIDPressure", "True"),
            ],
        );
        set_node_taints(
            &mut node,
            vec![
                taint("node.kubernetes.io/disk-pressure", "", "NoSchedule"),
                taint("node.kubernetes.io/memory-pressure", "", "NoSchedule"),
                taint("node.kubernetes.io/pid-pressure", "", "NoSchedule"),
            ],
        );
        fake.add_node(node);
        fake.add_ds(ds);
        assert_eq!(
            sync_key(&mut fake, &mut ctl, "kube-system/critical"),
            Counts(1, 0, 0)
        );
    });
}

#[test]
fn c_010_tainted_node_does_not_get_intolerant_pod() {
    both_one_sync("intolerant", Counts(0, 0, 0), |fake, _| {
        let mut node = new_node("tainted", None);
        set_node_taints(&mut node, vec![taint("dedicated", "user1", "NoSchedule")]);
        fake.add_node(node);
    });
}

#[test]
fn c_011_tainted_node_gets_tolerating_pod() {
    both_one_sync("tolerate", Counts(1, 0, 0), |fake, ds| {
        template_spec(ds).tolerations = Some(vec![dedicated_toleration()]);
        let mut node = new_node("tainted", None);
        set_node_taints(&mut node, vec![taint("dedicated", "user1", "NoSchedule")]);
        fake.add_node(node);
    });
}

#[test]
fn c_012_untainted_node_gets_tolerating_pod() {
    both_one_sync("tolerate", Counts(1, 0, 0), |fake, ds| {
        template_spec(ds).tolerations = Some(vec![dedicated_toleration()]);
        fake.add_node(new_node("untainted", None));
    });
}

#[test]
fn c_013_no_schedule_taint_keeps_running_intolerant_pod() {
    for_both("intolerant", |ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        let mut node = new_node("tainted", None);
        set_node_taints(&mut node, vec![taint("dedicated", "user1", "NoSchedule")]);
        fake.add_node(node);
        fake.add_pod(new_pod("keep-running-me-00001", "tainted", &l1(), &ds));
        fake.add_ds(ds);
        assert_eq!(fake.sync(&mut ctl, "intolerant", at(0)), Counts(0, 0, 0));
        let st = fake.last_status().expect("status written");
        assert_eq!(st.desired_number_scheduled, 0);
        assert_eq!(st.current_number_scheduled, 0);
        assert_eq!(st.number_misscheduled, 1);
    });
}

#[test]
fn c_014_no_execute_taint_evicts_running_intolerant_pod() {
    for_both("intolerant", |ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        let mut node = new_node("tainted", None);
        set_node_taints(&mut node, vec![taint("dedicated", "user1", "NoExecute")]);
        fake.add_node(node);
        fake.add_pod(new_pod("stop-running-me-00001", "tainted", &l1(), &ds));
        fake.add_ds(ds);
        assert_eq!(fake.sync(&mut ctl, "intolerant", at(0)), Counts(0, 1, 0));
        assert_eq!(fake.deleted, vec!["stop-running-me-00001".to_string()]);
    });
}

#[test]
fn c_015_node_selector_launches_on_matching_nodes() {
    both_one_sync("foo", Counts(3, 0, 0), |fake, ds| {
        template_spec(ds).node_selector = Some(n1());
        add_selector_nodes(fake);
    });
}

#[test]
fn c_016_node_selector_launches_on_matching_nodes_on_delete() {
    let mut fake = Fake::new();
    let mut ctl = test_controller();
    let mut ds = new_daemon_set("foo");
    assert_eq!(ds.spec.update_strategy, Some(on_delete()));
    template_spec(&mut ds).node_selector = Some(n1());
    add_selector_nodes(&mut fake);
    fake.add_ds(ds);
    assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(3, 0, 0));
    let mut targets = fake.created_targets();
    targets.sort();
    assert_eq!(targets, vec!["node-4", "node-5", "node-6"]);
}

#[test]
fn c_017_non_matching_node_selector_does_nothing() {
    both_one_sync("foo", Counts(0, 0, 0), |fake, ds| {
        template_spec(ds).node_selector = Some(n2());
        add_selector_nodes(fake);
    });
}

#[test]
fn c_018_required_node_affinity_launches_on_matching_nodes() {
    both_one_sync("foo", Counts(3, 0, 0), |fake, ds| {
        template_spec(ds).affinity = Some(required_affinity("color", &["blue"]));
        add_selector_nodes(fake);
    });
}

#[test]
fn c_019_template_node_name_launches_on_that_node() {
    for_both("foo", |mut ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        template_spec(&mut ds).node_name = Some("node-0".into());
        fake.add_nodes(0, 5, None);
        fake.add_ds(ds);
        assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(1, 0, 0));
        assert_eq!(fake.created_targets(), vec!["node-0"]);
    });
}

#[test]
fn c_020_template_node_name_of_missing_node_does_nothing() {
    both_one_sync("foo", Counts(0, 0, 0), |fake, ds| {
        template_spec(ds).node_name = Some("node-10".into());
        fake.add_nodes(0, 5, None);
    });
}

#[test]
fn c_021_node_name_and_selector_both_matching_launch_one_pod() {
    both_one_sync("foo", Counts(1, 0, 0), |fake, ds| {
        template_spec(ds).node_selector = Some(n1());
        template_spec(ds).node_name = Some("node-6".into());
        add_selector_nodes(fake);
    });
}

#[test]
fn c_022_inconsistent_node_name_and_selector_does_nothing() {
    both_one_sync("foo", Counts(0, 0, 0), |fake, ds| {
        template_spec(ds).node_selector = Some(n1());
        template_spec(ds).node_name = Some("node-0".into());
        add_selector_nodes(fake);
    });
}

#[test]
fn c_023_insufficient_capacity_is_ignored_and_nothing_deleted() {
    both_one_sync("foo", Counts(1, 0, 0), |fake, ds| {
        let spec = template_spec(ds);
        set_requests(spec, "75M", "75m");
        spec.node_name = Some("too-much-mem".into());
        let pod_spec = spec.clone();
        let mut node = new_node("too-much-mem", None);
        set_allocatable(&mut node, "100M", "200m");
        fake.add_node(node);
        fake.add_pod(non_ds_pod("other", "too-much-mem", pod_spec, None));
    });
}

#[test]
fn c_024_selector_picks_node_with_capacity_and_emits_no_events() {
    let mut fake = Fake::new();
    let mut ctl = test_controller();
    let mut ds = new_daemon_set("foo");
    let spec = template_spec(&mut ds);
    set_requests(spec, "50M", "75m");
    spec.node_selector = Some(n1());
    let mut small = new_node("not-enough-resource", None);
    set_allocatable(&mut small, "10M", "20m");
    let mut big = new_node("enough-resource", Some(n1()));
    set_allocatable(&mut big, "100M", "200m");
    fake.add_node(small);
    fake.add_node(big);
    fake.add_ds(ds);
    assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(1, 0, 0));
    assert_eq!(fake.created_targets(), vec!["enough-resource"]);
    assert!(fake.controller_events().is_empty());
    assert!(!fake.events.iter().any(|e| e.reason == "FailedPlacement"));
}

#[test]
fn c_025_no_port_conflict_launches_pod() {
    both_one_sync("foo", Counts(1, 0, 0), |fake, ds| {
        let spec = template_spec(ds);
        spec.node_name = Some("no-port-conflict".into());
        let mut other = spec.clone();
        set_host_port(spec, 6662);
        set_host_port(&mut other, 6661);
        fake.add_node(new_node("no-port-conflict", None));
        fake.add_pod(non_ds_pod("other", "no-port-conflict", other, None));
    });
}

#[test]
fn c_026_port_conflict_with_own_daemon_pod_does_not_delete_it() {
    for_both("foo", |mut ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        let spec = template_spec(&mut ds);
        spec.node_name = Some("port-conflict".into());
        set_host_port(spec, 666);
        fake.add_node(new_node("port-conflict", None));
        let mut pod = new_pod("port-conflict-00001", "port-conflict", &l1(), &ds);
        set_host_port(pod.spec.as_mut().unwrap(), 666);
        fake.add_pod(pod);
        fake.add_ds(ds);
        assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(0, 0, 0));
    });
}

#[test]
fn c_027_node_should_run_daemon_pod_rows() {
    /// `resourcePodSpec(nodeName, memory, cpu)`.
    fn resource_pod_spec(ds: &mut DaemonSet, node_name: &str, memory: &str, cpu: &str) {
        let spec = template_spec(ds);
        if !node_name.is_empty() {
            spec.node_name = Some(node_name.into());
        }
        set_requests(spec, memory, cpu);
    }
    type Row = (&'static str, fn(&mut DaemonSet, &mut Node), bool, bool);
    // Rows 4–6 of upstream also put pods on the node; `NodeShouldRunDaemonPod` does not look at
    // pods (host ports and resources are left to the scheduler, R-ELG-5), so they are omitted.
    let rows: Vec<Row> = vec![
        (
            "1 fits",
            |ds, _| resource_pod_spec(ds, "", "50M", "0.5"),
            true,
            true,
        ),
        (
            "2 insufficient resources",
            |ds, _| resource_pod_spec(ds, "", "200M", "0.5"),
            true,
            true,
        ),
        (
            "3 other node name",
            |ds, _| resource_pod_spec(ds, "other-node", "50M", "0.5"),
            false,
            false,
        ),
        (
            "4 host port taken",
            |ds, _| set_host_port(template_spec(ds), 666),
            true,
            true,
        ),
        (
            "5 host port taken and insufficient resources",
            |ds, _| resource_pod_spec(ds, "", "100M", "0.5"),
            true,
            true,
        ),
        (
            "6 existing pod with resources and host port",
            |ds, _| resource_pod_spec(ds, "", "50M", "0.5"),
            true,
            true,
        ),
        (
            "7 node selector L2 does not match",
            |ds, _| template_spec(ds).node_selector = Some(l2()),
            false,
            false,
        ),
        (
            "8 node selector L1 matches",
            |ds, _| template_spec(ds).node_selector = Some(l1()),
            true,
            true,
        ),
        (
            "9 affinity type In [test]",
            |ds, _| template_spec(ds).affinity = Some(required_affinity("type", &["test"])),
            false,
            false,
        ),
        (
            "10 affinity type In [production]",
            |ds, _| template_spec(ds).affinity = Some(required_affinity("type", &["production"])),
            true,
            true,
        ),
        (
            "11 unschedulable node",
            |ds, node| {
                resource_pod_spec(ds, "", "50M", "0.5");
                node.spec.get_or_insert_with(Default::default).unschedulable = Some(true);
            },
            true,
            true,
        ),
    ];
    for (name, setup, should_run, should_continue_running) in rows {
        for strategy in both_strategies() {
            let mut ds = new_daemon_set("ds");
            ds.spec.update_strategy = Some(strategy);
            let mut node = new_node("test-node", Some(l1()));
            set_allocatable(&mut node, "100M", "1");
            setup(&mut ds, &mut node);
            let got = controller::node_should_run_daemon_pod(&node, &ds);
            assert_eq!(
                (got.should_run, got.should_continue_running),
                (should_run, should_continue_running),
                "row {name}"
            );
        }
    }
}

#[test]
fn c_028_empty_selector_only_warns_selecting_all() {
    for_both("foo", |mut ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        ds.spec.selector = LabelSelector::default();
        template_spec(&mut ds).node_selector = Some(labels(&[("foo", "bar")]));
        fake.add_node(new_node("node1", None));
        let pod_spec = PodSpec {
            containers: template_spec(&mut ds).containers.clone(),
            ..Default::default()
        };
        fake.add_pod(non_ds_pod(
            "bang",
            "node1",
            pod_spec,
            Some(labels(&[("bang", "boom")])),
        ));
        fake.add_ds(ds);
        assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(0, 0, 1));
        let ev = fake.controller_events();
        assert_eq!(ev[0].reason, reasons::SELECTING_ALL);
        assert_eq!(ev[0].type_, EventType::Warning);
        assert_eq!(fake.status_update_calls, 0);
        assert!(fake.pod_patches.is_empty());
    });
}
