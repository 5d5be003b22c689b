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
