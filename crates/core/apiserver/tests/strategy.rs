//! Registry strategy (R-K-3, R-K-4, R-VAL-9, R-DEL-1): what the API server does to a
//! DaemonSet on create, update and status update.

mod common;

use apiserver::strategy::{
    default_garbage_collection_policy, prepare_for_create, prepare_for_status_update,
    prepare_for_update, semantic_eq, template_generation, PropagationPolicy,
    TEMPLATE_GENERATION_ANNOTATION,
};
use common::defaulted;
use k8s_openapi::api::apps::v1::{DaemonSet, DaemonSetStatus};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;

fn created() -> DaemonSet {
    let mut ds = defaulted();
    prepare_for_create(&mut ds);
    ds
}

fn image(ds: &mut DaemonSet, image: &str) {
    if let Some(spec) = ds.spec.template.spec.as_mut() {
        spec.containers[0].image = Some(image.to_string());
    }
}

#[test]
fn r_val_9_create_wipes_status_and_starts_generations_at_1() {
    let mut ds = defaulted();
    ds.status = Some(DaemonSetStatus {
        number_ready: 7,
        ..Default::default()
    });
    ds.metadata.generation = Some(42);
    prepare_for_create(&mut ds);
    assert_eq!(ds.status, Some(DaemonSetStatus::default()));
    assert_eq!(ds.metadata.generation, Some(1));
    assert_eq!(
        ds.metadata
            .annotations
            .as_ref()
            .and_then(|a| a.get(TEMPLATE_GENERATION_ANNOTATION))
            .map(String::as_str),
        Some("1")
    );
}

#[test]
fn r_k_3_create_keeps_a_positive_template_generation_from_the_manifest() {
    let mut ds = defaulted();
    ds.metadata
        .annotations
        .get_or_insert_with(Default::default)
        .insert(TEMPLATE_GENERATION_ANNOTATION.into(), "5".into());
    prepare_for_create(&mut ds);
    assert_eq!(template_generation(&ds), Some(5));
}

#[test]
fn r_k_3_and_r_k_4_template_change_bumps_both_generations() {
    let old = created();
    let mut new = old.clone();
    image(&mut new, "busybox:1.37");
    prepare_for_update(&mut new, &old);
    assert_eq!(new.metadata.generation, Some(2));
    assert_eq!(template_generation(&new), Some(2));
}

#[test]
fn r_k_4_other_spec_change_bumps_only_generation() {
    let old = created();
    let mut new = old.clone();
    new.spec.min_ready_seconds = Some(10);
    prepare_for_update(&mut new, &old);
    assert_eq!(new.metadata.generation, Some(2));
    assert_eq!(template_generation(&new), Some(1));
}

#[test]
fn r_k_4_metadata_only_change_bumps_nothing_and_user_generation_is_ignored() {
    let old = created();
    let mut new = old.clone();
    new.metadata.labels = Some([("team".to_string(), "infra".to_string())].into());
    new.metadata.generation = Some(99);
    new.metadata.annotations = None;
    prepare_for_update(&mut new, &old);
    assert_eq!(new.metadata.generation, Some(1));
    assert_eq!(template_generation(&new), Some(1));
}

#[test]
fn r_val_9_update_ignores_user_supplied_status() {
    let mut old = created();
    old.status = Some(DaemonSetStatus {
        desired_number_scheduled: 4,
        ..Default::default()
    });
    let mut new = old.clone();
    new.status = Some(DaemonSetStatus {
        desired_number_scheduled: 100,
        ..Default::default()
    });
    prepare_for_update(&mut new, &old);
    assert_eq!(new.status, old.status);
}

#[test]
fn r_val_9_status_update_ignores_spec_changes() {
    let old = created();
    let mut new = old.clone();
    image(&mut new, "evil:1");
    new.status = Some(DaemonSetStatus {
        number_ready: 3,
        ..Default::default()
    });
    prepare_for_status_update(&mut new, &old);
    assert_eq!(new.spec, old.spec);
    assert_eq!(new.metadata.generation, Some(1));
    assert_eq!(new.status.map(|s| s.number_ready), Some(3));
}

#[test]
fn semantic_equality_treats_empty_as_unset_and_compares_quantities_by_value() {
    let a = created().spec.template;
    let mut b = a.clone();
    if let Some(m) = b.metadata.as_mut() {
        m.annotations = Some(Default::default());
    }
    assert!(semantic_eq(&a, &b));

    let with_cpu = |q: &str| {
        let mut t = a.clone();
        if let Some(spec) = t.spec.as_mut() {
            spec.containers[0].resources = Some(k8s_openapi::api::core::v1::ResourceRequirements {
                limits: Some([("cpu".to_string(), Quantity(q.to_string()))].into()),
                ..Default::default()
            });
        }
        t
    };
    assert!(semantic_eq(&with_cpu("1"), &with_cpu("1000m")));
    assert!(!semantic_eq(&with_cpu("1"), &with_cpu("2")));
    // Exact values (`Quantity.Cmp`), not floats: 0.3 is 300m, 1Ki is 1024, and a difference
    // below a float's precision is still one.
    assert!(semantic_eq(&with_cpu("0.3"), &with_cpu("300m")));
    assert!(semantic_eq(&with_cpu("1Ki"), &with_cpu("1024")));
    assert!(semantic_eq(&with_cpu("1e3"), &with_cpu("1k")));
    assert!(!semantic_eq(&with_cpu("1"), &with_cpu("1.000000001")));
}

#[test]
fn r_del_1_daemon_sets_delete_dependents_in_the_background_by_default() {
    assert_eq!(
        default_garbage_collection_policy(),
        PropagationPolicy::Background
    );
}
