//! Upstream unit cases C-078 … C-082 (`update_test.go` TestControlledHistories and
//! `util/daemonset_util_test.go`), replayed by case id. See
//! `shared/reference/upstream-unit-cases.md` §5–6.

mod support;
use support::*;

use controller::client::ObjectPatch;
use controller::controller_ref::new_controller_ref;
use controller::keys::{CONTROLLER_REVISION_HASH_LABEL, POD_TEMPLATE_GENERATION_LABEL};
use controller::util::{
    create_pod_template, get_target_node_name, is_pod_updated,
    replace_daemon_set_pod_node_name_node_affinity,
};
use k8s_openapi::api::apps::v1::ControllerRevision;
use k8s_openapi::api::core::v1::{
    Affinity, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Pod, PodSpec,
    PodTemplateSpec, PreferredSchedulingTerm,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference};
use std::sync::Arc;

/// `newControllerRevision(name, namespace, labels, ownerReferences)`.
fn new_controller_revision(
    name: &str,
    namespace: &str,
    rev_labels: Labels,
    owners: Option<Vec<OwnerReference>>,
) -> ControllerRevision {
    ControllerRevision {
        metadata: ObjectMeta {
            name: Some(name.into()),
            namespace: Some(namespace.into()),
            labels: Some(rev_labels),
            owner_references: owners,
            ..Default::default()
        },
        ..Default::default()
    }
}

fn names(revs: &[Arc<ControllerRevision>]) -> Vec<String> {
    let mut v: Vec<String> = revs
        .iter()
        .map(|r| r.metadata.name.clone().unwrap_or_default())
        .collect();
    v.sort();
    v
}

#[test]
fn c_078_controlled_histories_adopts_same_namespace_orphans_only() {
    let ds1 = new_daemon_set("ds1");
    let template_labels = ds1
        .spec
        .template
        .metadata
        .as_ref()
        .unwrap()
        .labels
        .clone()
        .unwrap();
    let cr_of_ds1 = new_controller_revision(
        "ds1-x1",
        "default",
        template_labels.clone(),
        Some(vec![new_controller_ref(&ds1)]),
    );
    let orphan_same_ns =
        new_controller_revision("ds1-x2", "default", template_labels.clone(), None);
    let orphan_other_ns = new_controller_revision("ds1-x3", "default-other", template_labels, None);

    // Row 1: "controller revision in the same namespace".
    let mut fake = Fake::new();
    let mut ctl = test_controller();
    fake.add_ds(ds1.clone());
    fake.revisions = vec![Arc::new(cr_of_ds1), Arc::new(orphan_same_ns)];
    let got = ctl.controlled_histories(&mut fake, &ds1).expect("no error");
    assert_eq!(names(&got), vec!["ds1-x1", "ds1-x2"]);
    assert_eq!(
        fake.revision_patches,
        vec![(
            "ds1-x2".to_string(),
            ObjectPatch::AdoptBy(new_controller_ref(&ds1))
        )],
        "only the orphan is adopted"
    );

    // Row 2: "Skip adopting the controller revision in namespace other than the one in which
    // DS lives".
    let mut fake = Fake::new();
    let mut ctl = test_controller();
    fake.add_ds(ds1.clone());
    fake.revisions = vec![Arc::new(orphan_other_ns)];
    let got = ctl.controlled_histories(&mut fake, &ds1).expect("no error");
    assert!(got.is_empty(), "got {:?}", names(&got));
    assert!(fake.revision_patches.is_empty());
}

/// `newPod(name, node, labels)` of the util tests.
fn util_pod(name: &str, node: &str, pod_labels: Option<Labels>) -> Pod {
    Pod {
        metadata: ObjectMeta {
            name: Some(name.into()),
            namespace: Some("default".into()),
            labels: pod_labels,
            ..Default::default()
        },
        spec: Some(PodSpec {
            node_name: Some(node.into()),
            containers: vec![k8s_openapi::api::core::v1::Container {
                image: Some("foo/bar".into()),
                ..Default::default()
            }],
            ..Default::default()
        }),
        status: None,
    }
}

#[test]
fn c_079_is_pod_updated() {
    let generation = 12345_i64;
    let bad_generation = 12350_i64;
    let hash = "55555";
    let with_hash = labels(&[
        (POD_TEMPLATE_GENERATION_LABEL, "12345"),
        (CONTROLLER_REVISION_HASH_LABEL, hash),
    ]);
    let no_hash = labels(&[(POD_TEMPLATE_GENERATION_LABEL, "12345")]);
    let bad_hash = format!("{hash}123");
    // (test, template generation, pod labels, hash, updated)
    let rows: Vec<(&str, i64, Option<Labels>, &str, bool)> = vec![
        (
            "templateGeneration and hash both match",
            generation,
            Some(with_hash.clone()),
            hash,
            true,
        ),
        (
            "templateGeneration matches, hash doesn't",
            generation,
            Some(with_hash.clone()),
            &bad_hash,
            true,
        ),
        (
            "templateGeneration matches, no hash label, has hash",
            generation,
            Some(no_hash.clone()),
            hash,
            true,
        ),
        (
            "templateGeneration matches, no hash label, no hash",
            generation,
            Some(no_hash),
            "",
            true,
        ),
        (
            "templateGeneration matches, has hash label, no hash",
            generation,
            Some(with_hash.clone()),
            "",
            true,
        ),
        (
            "templateGeneration doesn't match, hash does",
            bad_generation,
            Some(with_hash.clone()),
            hash,
            true,
        ),
        (
            "templateGeneration and hash don't match",
            bad_generation,
            Some(with_hash),
            &bad_hash,
            false,
        ),
        (
            "empty labels, no hash",
            generation,
            Some(Labels::new()),
            "",
            false,
        ),
        ("empty labels", generation, Some(Labels::new()), hash, false),
        ("no labels", generation, None, hash, false),
    ];
    for (test, gen, pod_labels, h, want) in rows {
        let pod = util_pod("pod1", "node1", pod_labels);
        assert_eq!(is_pod_updated(&pod, h, Some(gen)), want, "{test}");
    }
}

#[test]
fn c_080_create_pod_template_labels() {
    // (templateGeneration, hash, expect hash label)
    for (gen, hash, expect_hash_label) in [(1_i64, "", false), (2, "3242341807", true)] {
        let t = create_pod_template(&PodTemplateSpec::default(), Some(gen), hash);
        let l = t
            .metadata
            .as_ref()
            .and_then(|m| m.labels.clone())
            .unwrap_or_default();
        assert_eq!(
            l.get(POD_TEMPLATE_GENERATION_LABEL).map(String::as_str),
            Some(gen.to_string().as_str()),
            "generation label for gen {gen}"
        );
        if expect_hash_label {
            assert_eq!(
                l.get(CONTROLLER_REVISION_HASH_LABEL).map(String::as_str),
                Some(hash)
            );
        } else {
            assert!(
                !l.contains_key(CONTROLLER_REVISION_HASH_LABEL),
                "no hash label for gen {gen}"
            );
        }
    }
}

fn requirement(key: &str, operator: &str, values: &[&str]) -> NodeSelectorRequirement {
    NodeSelectorRequirement {
        key: key.into(),
        operator: operator.into(),
        values: Some(values.iter().map(|v| v.to_string()).collect()),
    }
}

fn fields_term(key: &str, operator: &str, values: &[&str]) -> NodeSelectorTerm {
    NodeSelectorTerm {
        match_fields: Some(vec![requirement(key, operator, values)]),
        match_expressions: None,
    }
}

fn expressions_term(key: &str, operator: &str, values: &[&str]) -> NodeSelectorTerm {
    NodeSelectorTerm {
        match_expressions: Some(vec![requirement(key, operator, values)]),
        match_fields: None,
    }
}

fn required_affinity(terms: Vec<NodeSelectorTerm>) -> Affinity {
    Affinity {
        node_affinity: Some(NodeAffinity {
            required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                node_selector_terms: terms,
            }),
            preferred_during_scheduling_ignored_during_execution: None,
        }),
        ..Default::default()
    }
}

#[test]
fn c_081_replace_daemon_set_pod_node_name_node_affinity() {
    let expected = required_affinity(vec![fields_term("metadata.name", "In", &["host_1"])]);
    let preferred = vec![PreferredSchedulingTerm {
        weight: 0,
        preference: expressions_term("kubernetes.io/hostname", "In", &["host_1"]),
    }];
    let mut expected_with_preferred = expected.clone();
    expected_with_preferred
        .node_affinity
        .as_mut()
        .unwrap()
        .preferred_during_scheduling_ignored_during_execution = Some(preferred.clone());

    let rows: Vec<(Option<Affinity>, Affinity)> = vec![
        (None, expected.clone()),
        (
            Some(required_affinity(vec![expressions_term(
                "kubernetes.io/hostname",
                "In",
                &["host_1"],
            )])),
            expected.clone(),
        ),
        (
            Some(Affinity {
                node_affinity: Some(NodeAffinity {
                    preferred_during_scheduling_ignored_during_execution: Some(preferred),
                    required_during_scheduling_ignored_during_execution: None,
                }),
                ..Default::default()
            }),
            expected_with_preferred,
        ),
        (
            Some(required_affinity(vec![fields_term(
                "metadata.name",
                "In",
                &["host_1", "host_2"],
            )])),
            expected.clone(),
        ),
        (None, expected.clone()),
        (
            Some(required_affinity(vec![
                expressions_term("hostname", "In", &["host_1"]),
                fields_term("metadata.name", "In", &["host_2"]),
            ])),
            expected.clone(),
        ),
        (
            Some(required_affinity(vec![fields_term(
                "metadata.name",
                "NotIn",
                &["host_2"],
            )])),
            expected.clone(),
        ),
        (
            Some(required_affinity(vec![fields_term(
                "metadata.foo",
                "In",
                &["bar"],
            )])),
            expected.clone(),
        ),
    ];
    for (i, (input, want)) in rows.into_iter().enumerate() {
        assert_eq!(
            replace_daemon_set_pod_node_name_node_affinity(input, "host_1"),
            want,
            "row {}",
            i + 1
        );
    }
}

#[test]
fn c_082_get_target_node_name() {
    let pod = |name: &str, spec: PodSpec| Pod {
        metadata: ObjectMeta {
            name: Some(name.into()),
            namespace: Some("default".into()),
            ..Default::default()
        },
        spec: Some(spec),
        status: None,
    };
    let pinned = |values: &[&str]| PodSpec {
        affinity: Some(required_affinity(vec![fields_term(
            "metadata.name",
            "In",
            values,
        )])),
        ..Default::default()
    };
    let p1 = pod(
        "pod1",
        PodSpec {
            node_name: Some("node-1".into()),
            ..Default::default()
        },
    );
    let p2 = pod("pod2", pinned(&["node-1"]));
    let p3 = pod("pod3", pinned(&["node-1", "node-2"]));
    let p4 = pod("pod4", PodSpec::default());

    assert_eq!(get_target_node_name(&p1), Ok("node-1"));
    assert_eq!(get_target_node_name(&p2), Ok("node-1"));
    assert!(get_target_node_name(&p3).is_err());
    assert!(get_target_node_name(&p4).is_err());
}
