//! Validation of DaemonSets as the API server performs it (R-VAL-1..9), with field errors
//! printed word for word like upstream and kubectl, plus hints for the common mistakes.
//!
//! Owns `ValidateDaemonSet`, `ValidateDaemonSetUpdate` (including the apps/v1 selector
//! immutability from the registry strategy), `ValidateDaemonSetStatusUpdate` and the parts of
//! pod-template validation a DaemonSet author meets. Expects defaulted objects (see
//! [`crate::defaults`]) with `metadata.namespace` set, as the API server has them at this point.
//! Knows nothing of decoding or of the cluster.

mod field;
mod meta;
mod names;
mod pod;

use std::collections::BTreeMap;

use k8s_openapi::api::apps::v1::{DaemonSet, DaemonSetSpec, DaemonSetUpdateStrategy};
use k8s_openapi::api::core::v1::{Node, Taint};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

pub use field::{FieldError, FieldErrorKind, Invalid};
use field::{Path, Raw};
use meta::{negative, selector_matches, validate_label_selector, IMMUTABLE};
use names::{is_valid_percent, percent_error};

use crate::gofmt;

const KIND: &str = "DaemonSet";

fn name_of(ds: &DaemonSet) -> &str {
    ds.metadata.name.as_deref().unwrap_or("")
}

/// `ValidateDaemonSet`: a DaemonSet being created.
pub fn validate_daemon_set(ds: &DaemonSet) -> Result<(), Invalid> {
    Invalid::check(KIND, name_of(ds), daemon_set_errors(ds))
}

fn daemon_set_errors(ds: &DaemonSet) -> Vec<FieldError> {
    let mut errs = meta::validate_object_meta(&ds.metadata, true, &Path::root("metadata"));
    errs.extend(validate_spec(
        &ds.spec,
        template_generation(ds),
        &Path::root("spec"),
    ));
    errs
}

/// `ValidateNode` / `ValidateNodeUpdate` (the node strategy's `ValidateUpdate` runs both): a
/// node's name, labels and annotations (`old`: the node being updated), and its taints
/// ([`validate_node_taints`]). The rest of its spec and its status are the simulator's own.
/// Every way a node enters or changes (a scenario's `nodes:`, `node add`, Import, kubectl
/// label/taint/cordon/patch/apply, the Explain panel's buttons) goes through the store, which
/// calls this: one validation on every path.
pub fn validate_node(node: &Node, old: Option<&Node>) -> Result<(), Invalid> {
    let path = Path::root("metadata");
    let mut errs = match old {
        None => meta::validate_object_meta(&node.metadata, false, &path),
        Some(old) => meta::validate_object_meta_update(&node.metadata, &old.metadata, &path),
    };
    if let Some(taints) = node.spec.as_ref().and_then(|s| s.taints.as_deref()) {
        errs.extend(validate_node_taints(taints, &path.child("taints")));
    }
    Invalid::check("Node", node.metadata.name.as_deref().unwrap_or(""), errs)
}

/// `validateNodeTaints` (pkg/apis/core/validation/validation.go), on the path upstream gives
/// it, `metadata.taints`: each key a qualified name, each value a label value (the messages
/// joined by ";"), an effect of the three, and no two taints with the same key and effect.
fn validate_node_taints(taints: &[Taint], path: &Path) -> Vec<FieldError> {
    const HINT: &str = "write key[=value]:Effect, e.g. dedicated=gpu:NoSchedule";
    let mut errs = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (i, t) in taints.iter().enumerate() {
        let p = path.index(i);
        let first = errs.len();
        errs.extend(meta::validate_label_name(&t.key, &p.child("key")));
        let value = t.value.as_deref().unwrap_or("");
        let msgs = names::is_valid_label_value(value);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                &p.child("value"),
                value,
                &msgs.join(";"),
            ));
        }
        errs.extend(pod::validate_taint_effect(
            &t.effect,
            false,
            &p.child("effect"),
        ));
        if !seen.insert((t.effect.as_str(), t.key.as_str())) {
            errs.push(
                FieldError::duplicate(&p, Raw(go_taint(t)))
                    .with_detail("taints must be unique by key and effect pair"),
            );
        }
        for e in &mut errs[first..] {
            e.hint = Some(HINT.to_string());
        }
    }
    errs
}

/// A taint as Go's `%#v` prints it in a Duplicate error.
fn go_taint(t: &Taint) -> String {
    format!(
        "core.Taint{{Key:{}, Value:{}, Effect:{}, TimeAdded:<nil>}}",
        gofmt::quote(&t.key),
        gofmt::quote(t.value.as_deref().unwrap_or("")),
        gofmt::quote(&t.effect),
    )
}

/// `ValidateDaemonSetUpdate` plus the registry's apps/v1 rule that `spec.selector` is immutable
/// (R-VAL-7). Call after [`crate::strategy::prepare_for_update`].
pub fn validate_daemon_set_update(new: &DaemonSet, old: &DaemonSet) -> Result<(), Invalid> {
    let mut errs =
        meta::validate_object_meta_update(&new.metadata, &old.metadata, &Path::root("metadata"));
    errs.extend(validate_spec_update(new, old, &Path::root("spec")));
    errs.extend(validate_spec(
        &new.spec,
        template_generation(new),
        &Path::root("spec"),
    ));
    if new.spec.selector != old.spec.selector {
        errs.push(
            FieldError::invalid(
                &Path::root("spec").child("selector"),
                Raw(gofmt::label_selector(&new.spec.selector)),
                IMMUTABLE,
            )
            .with_hint(
                "a DaemonSet's selector cannot change: delete the DaemonSet (kubectl delete ds NAME --cascade=orphan keeps its pods) and create it again",
            ),
        );
    }
    Invalid::check(KIND, name_of(new), errs)
}

/// `ValidateDaemonSetStatusUpdate` (R-VAL-8): counters non-negative, collisionCount never
/// decreases.
pub fn validate_daemon_set_status_update(new: &DaemonSet, old: &DaemonSet) -> Result<(), Invalid> {
    let mut errs =
        meta::validate_object_meta_update(&new.metadata, &old.metadata, &Path::root("metadata"));
    let status = Path::root("status");
    let default = Default::default();
    let s = new.status.as_ref().unwrap_or(&default);
    errs.extend(meta::validate_nonnegative_fields(
        &status,
        &[
            ("currentNumberScheduled", Some(s.current_number_scheduled)),
            ("numberMisscheduled", Some(s.number_misscheduled)),
            ("desiredNumberScheduled", Some(s.desired_number_scheduled)),
            ("numberReady", Some(s.number_ready)),
            ("updatedNumberScheduled", s.updated_number_scheduled),
            ("numberAvailable", s.number_available),
            ("numberUnavailable", s.number_unavailable),
            ("collisionCount", s.collision_count),
        ],
    ));
    if let Some(g) = s.observed_generation.filter(|g| *g < 0) {
        errs.push(negative(&status.child("observedGeneration"), g));
    }
    let old_count = old.status.as_ref().and_then(|s| s.collision_count);
    let decremented = match (s.collision_count, old_count) {
        (None, Some(_)) => true,
        (Some(n), Some(o)) => n < o,
        _ => false,
    };
    if decremented {
        errs.push(FieldError::invalid(
            &status.child("collisionCount"),
            s.collision_count.unwrap_or(0),
            "cannot be decremented",
        ));
    }
    Invalid::check(KIND, name_of(new), errs)
}

/// The internal `spec.templateGeneration` (0 when the annotation is absent).
fn template_generation(ds: &DaemonSet) -> i64 {
    crate::strategy::template_generation(ds).unwrap_or(0)
}

/// `ValidateDaemonSetSpec` (R-VAL-2..6).
fn validate_spec(spec: &DaemonSetSpec, template_generation: i64, path: &Path) -> Vec<FieldError> {
    let selector_path = path.child("selector");
    let mut errs = validate_label_selector(&spec.selector, &selector_path);

    let labels = spec
        .template
        .metadata
        .as_ref()
        .and_then(|m| m.labels.as_ref());
    if selector_matches(&spec.selector, labels) == Some(false) {
        errs.push(
            FieldError::invalid(
                &path.child("template").child("metadata").child("labels"),
                Raw(gofmt::string_map(labels)),
                "`selector` does not match template `labels`",
            )
            .with_hint(mismatch_hint(spec, labels)),
        );
    }
    let sel = &spec.selector;
    if sel.match_labels.as_ref().map_or(0, BTreeMap::len)
        + sel.match_expressions.as_ref().map_or(0, Vec::len)
        == 0
    {
        errs.push(
            FieldError::invalid(
                &selector_path,
                Raw(gofmt::label_selector(sel)),
                "empty selector is invalid for daemonset",
            )
            .with_hint(
                "give spec.selector.matchLabels the labels of the pod template, e.g. `selector: {matchLabels: {app: NAME}}`",
            ),
        );
    }

    let template_path = path.child("template");
    errs.extend(pod::validate_pod_template_spec(
        &spec.template,
        &template_path,
    ));
    let pod_spec = spec.template.spec.as_ref();
    let restart = pod_spec
        .and_then(|s| s.restart_policy.as_deref())
        .unwrap_or("");
    if restart != "Always" {
        errs.push(
            FieldError::not_supported(
                &template_path.child("spec").child("restartPolicy"),
                restart,
                &["Always"],
            )
            .with_hint("DaemonSet pods run for as long as their node does: use restartPolicy: Always (or leave it out)"),
        );
    }
    if pod_spec.is_some_and(|s| s.active_deadline_seconds.is_some()) {
        errs.push(FieldError::forbidden(
            &template_path.child("spec").child("activeDeadlineSeconds"),
            "activeDeadlineSeconds in DaemonSet is not Supported",
        ));
    }
    if let Some(v) = spec.min_ready_seconds.filter(|v| *v < 0) {
        errs.push(negative(&path.child("minReadySeconds"), i64::from(v)));
    }
    if template_generation < 0 {
        errs.push(negative(
            &path.child("templateGeneration"),
            template_generation,
        ));
    }
    errs.extend(validate_update_strategy(
        spec.update_strategy.as_ref(),
        &path.child("updateStrategy"),
    ));
    if let Some(v) = spec.revision_history_limit.filter(|v| *v < 0) {
        errs.push(negative(&path.child("revisionHistoryLimit"), i64::from(v)));
    }
    errs
}

fn mismatch_hint(spec: &DaemonSetSpec, labels: Option<&BTreeMap<String, String>>) -> String {
    let missing: Vec<String> = spec
        .selector
        .match_labels
        .iter()
        .flatten()
        .filter(|(k, v)| labels.and_then(|l| l.get(*k)) != Some(*v))
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    if missing.is_empty() {
        "the selector must select the DaemonSet's own pods: make spec.template.metadata.labels satisfy spec.selector".into()
    } else {
        format!(
            "the selector must select the DaemonSet's own pods: add {} to spec.template.metadata.labels (or change spec.selector)",
            missing.join(", ")
        )
    }
}

/// `ValidateDaemonSetUpdateStrategy` (R-VAL-5).
fn validate_update_strategy(s: Option<&DaemonSetUpdateStrategy>, path: &Path) -> Vec<FieldError> {
    let default = DaemonSetUpdateStrategy::default();
    let s = s.unwrap_or(&default);
    match s.type_.as_deref().unwrap_or("") {
        "OnDelete" => Vec::new(),
        "RollingUpdate" => match &s.rolling_update {
            None => vec![FieldError::required(&path.child("rollingUpdate"), "")],
            Some(ru) => validate_rolling_update(
                ru.max_unavailable.as_ref(),
                ru.max_surge.as_ref(),
                &path.child("rollingUpdate"),
            ),
        },
        other => vec![FieldError::not_supported(
            path,
            Raw(format!(
                "apps.DaemonSetUpdateStrategy{{Type:{}, RollingUpdate:{}}}",
                gofmt::quote(other),
                gofmt::pointer("apps.RollingUpdateDaemonSet", s.rolling_update.is_some())
            )),
            &["RollingUpdate", "OnDelete"],
        )
        .with_hint("updateStrategy.type is RollingUpdate (the default) or OnDelete")],
    }
}

/// The zero value of an unset intstr field (internal types are not pointers).
const ZERO: IntOrString = IntOrString::Int(0);

/// `ValidateRollingUpdateDaemonSet` (R-VAL-6).
fn validate_rolling_update(
    max_unavailable: Option<&IntOrString>,
    max_surge: Option<&IntOrString>,
    path: &Path,
) -> Vec<FieldError> {
    let unavailable = max_unavailable.unwrap_or(&ZERO);
    let surge = max_surge.unwrap_or(&ZERO);
    let (u_path, s_path) = (path.child("maxUnavailable"), path.child("maxSurge"));
    let mut errs = validate_positive_int_or_percent(unavailable, &u_path);
    errs.extend(validate_positive_int_or_percent(surge, &s_path));
    errs.extend(not_more_than_100_percent(unavailable, &u_path));
    errs.extend(not_more_than_100_percent(surge, &s_path));
    let has_unavailable = int_or_percent_value(unavailable) != 0;
    let has_surge = int_or_percent_value(surge) != 0;
    if has_unavailable && has_surge {
        errs.push(
            FieldError::invalid(
                &s_path,
                Raw(gofmt::int_or_string(surge)),
                "may not be set when maxUnavailable is non-zero",
            )
            .with_hint(
                "maxUnavailable defaults to 1, so a surge rollout must say `maxUnavailable: 0` next to `maxSurge` (exactly one of the two may be non-zero)",
            ),
        );
    } else if !has_unavailable && !has_surge {
        errs.push(
            FieldError::required(&u_path, "cannot be 0 when maxSurge is 0").with_hint(
                "a rollout must be allowed to make progress: set maxUnavailable (e.g. 1 or \"10%\") or maxSurge (with maxUnavailable: 0)",
            ),
        );
    }
    errs
}

fn validate_positive_int_or_percent(v: &IntOrString, path: &Path) -> Vec<FieldError> {
    match v {
        IntOrString::String(s) if !is_valid_percent(s) => vec![FieldError::invalid(
            path,
            Raw(gofmt::int_or_string(v)),
            &percent_error(),
        )
        .with_hint("write a whole number (maxUnavailable: 2) or a percentage in quotes (maxUnavailable: \"25%\")")],
        IntOrString::String(_) => Vec::new(),
        IntOrString::Int(i) if *i < 0 => vec![negative(path, i64::from(*i))],
        IntOrString::Int(_) => Vec::new(),
    }
}

fn percent_value(v: &IntOrString) -> Option<i64> {
    match v {
        IntOrString::String(s) if is_valid_percent(s) => {
            // Go's Atoi fails (→ 0) past int64; digits only, so parse cannot fail otherwise.
            Some(s.trim_end_matches('%').parse().unwrap_or(0))
        }
        _ => None,
    }
}

fn not_more_than_100_percent(v: &IntOrString, path: &Path) -> Vec<FieldError> {
    match percent_value(v) {
        Some(p) if p > 100 => vec![FieldError::invalid(
            path,
            Raw(gofmt::int_or_string(v)),
            "must not be greater than 100%",
        )
        .with_hint("a percentage of nodes cannot exceed 100%")],
        _ => Vec::new(),
    }
}

/// `getIntOrPercentValue`: a percent's number, an int's value, or Atoi of any other string.
fn int_or_percent_value(v: &IntOrString) -> i64 {
    match (percent_value(v), v) {
        (Some(p), _) => p,
        (None, IntOrString::Int(i)) => i64::from(*i),
        (None, IntOrString::String(s)) => s.parse().unwrap_or(0),
    }
}

/// `ValidateDaemonSetSpecUpdate`: templateGeneration moves with the template only.
fn validate_spec_update(new: &DaemonSet, old: &DaemonSet, path: &Path) -> Vec<FieldError> {
    let (n, o) = (template_generation(new), template_generation(old));
    let p = path.child("templateGeneration");
    let mut errs = Vec::new();
    if n < o {
        errs.push(FieldError::invalid(&p, n, "must not be decremented"));
    }
    let template_updated = !crate::strategy::semantic_eq(&new.spec.template, &old.spec.template);
    if n == o && template_updated {
        errs.push(FieldError::invalid(
            &p,
            n,
            "must be incremented upon template update",
        ));
    } else if n > o && !template_updated {
        errs.push(FieldError::invalid(
            &p,
            n,
            "must not be incremented without template update",
        ));
    }
    errs
}
