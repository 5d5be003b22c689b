//! ObjectMeta, labels, annotations and label selectors (`apimachinery/pkg/api/validation`,
//! `apimachinery/pkg/apis/meta/v1/validation`).

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};

use super::field::{FieldError, Path, Raw};
use super::names::{
    is_dns1123_subdomain, is_qualified_name, is_valid_label_value, validate_dns1123_label,
};

const TOTAL_ANNOTATION_SIZE_LIMIT: usize = 256 * 1024;

/// Our hint under the API server's message for a bad name (kubectl prints none).
pub(crate) const NAME_HINT: &str = "use lower-case letters, digits, '-' and '.', e.g. worker-2";
/// Our hint under the API server's message for a bad label key or value.
pub(crate) const LABEL_HINT: &str =
    "letters, digits, '-', '_' and '.', starting and ending with a letter or digit, e.g. disk=ssd";

/// `ValidateObjectMeta` for an object whose name must be a DNS-1123 subdomain; `namespaced`:
/// upstream's `requiresNamespace` (a cluster-scoped object's namespace is cleared by the store).
pub(crate) fn validate_object_meta(
    meta: &ObjectMeta,
    namespaced: bool,
    path: &Path,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if let Some(generate) = meta.generate_name.as_deref().filter(|g| !g.is_empty()) {
        // A generateName prefix may end in '-'.
        let masked = match generate.strip_suffix('-') {
            Some(p) => format!("{p}a"),
            None => generate.to_string(),
        };
        for msg in is_dns1123_subdomain(&masked) {
            errs.push(FieldError::invalid(
                &path.child("generateName"),
                generate,
                &msg,
            ));
        }
    }
    match meta.name.as_deref().filter(|n| !n.is_empty()) {
        None => errs.push(FieldError::required(
            &path.child("name"),
            "name or generateName is required",
        )),
        Some(name) => {
            for msg in is_dns1123_subdomain(name) {
                errs.push(
                    FieldError::invalid(&path.child("name"), name, &msg).with_hint(NAME_HINT),
                );
            }
        }
    }
    match meta.namespace.as_deref().filter(|n| !n.is_empty()) {
        _ if !namespaced => {}
        None => errs.push(FieldError::required(&path.child("namespace"), "")),
        Some(ns) => {
            errs.extend(validate_dns1123_label(ns, &path.child("namespace")));
        }
    }
    if let Some(g) = meta.generation.filter(|g| *g < 0) {
        errs.push(negative(&path.child("generation"), g));
    }
    errs.extend(validate_labels(meta.labels.as_ref(), &path.child("labels")));
    errs.extend(validate_annotations(
        meta.annotations.as_ref(),
        &path.child("annotations"),
    ));
    errs
}

/// `ValidateObjectMetaUpdate`, minus the resourceVersion check (the store owns versions).
pub(crate) fn validate_object_meta_update(
    new: &ObjectMeta,
    old: &ObjectMeta,
    path: &Path,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let generation = new.generation.unwrap_or(0);
    if generation < old.generation.unwrap_or(0) {
        errs.push(FieldError::invalid(
            &path.child("generation"),
            generation,
            "must not be decremented",
        ));
    }
    let immutable = [
        ("name", &new.name, &old.name),
        ("namespace", &new.namespace, &old.namespace),
        ("uid", &new.uid, &old.uid),
    ];
    for (field, n, o) in immutable {
        let n = n.as_deref().unwrap_or("");
        if n != o.as_deref().unwrap_or("") {
            errs.push(FieldError::invalid(&path.child(field), n, IMMUTABLE));
        }
    }
    if new.creation_timestamp != old.creation_timestamp {
        let shown = new.creation_timestamp.as_ref().map_or_else(
            || "0001-01-01 00:00:00 +0000 UTC".to_string(),
            |t| codec::format_go_utc(t.0),
        );
        errs.push(FieldError::invalid(
            &path.child("creationTimestamp"),
            Raw(shown),
            IMMUTABLE,
        ));
    }
    errs.extend(validate_labels(new.labels.as_ref(), &path.child("labels")));
    errs.extend(validate_annotations(
        new.annotations.as_ref(),
        &path.child("annotations"),
    ));
    errs
}

pub(crate) const IMMUTABLE: &str = "field is immutable";
pub(crate) const NEGATIVE: &str = "must be greater than or equal to 0";

/// `ValidateNonnegativeField`'s error.
pub(crate) fn negative(path: &Path, value: i64) -> FieldError {
    FieldError::invalid(path, value, NEGATIVE)
}

/// `ValidateNonnegativeField` on each named child of `path` that is set.
pub(crate) fn validate_nonnegative_fields(
    path: &Path,
    fields: &[(&str, Option<i32>)],
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for &(field, value) in fields {
        if let Some(v) = value.filter(|v| *v < 0) {
            errs.push(negative(&path.child(field), i64::from(v)));
        }
    }
    errs
}

/// `ValidateLabels`: keys are qualified names, values label values; errors sit on the map's path.
pub(crate) fn validate_labels(
    labels: Option<&BTreeMap<String, String>>,
    path: &Path,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (k, v) in labels.into_iter().flatten() {
        errs.extend(
            validate_label_name(k, path)
                .into_iter()
                .map(|e| e.with_hint(LABEL_HINT)),
        );
        for msg in is_valid_label_value(v) {
            errs.push(FieldError::invalid(path, v, &msg).with_hint(LABEL_HINT));
        }
    }
    errs
}

pub(crate) fn validate_label_name(key: &str, path: &Path) -> Vec<FieldError> {
    is_qualified_name(key)
        .into_iter()
        .map(|msg| FieldError::invalid(path, key, &msg))
        .collect()
}

/// `ValidateAnnotations`: keys are qualified names (checked lower-cased), total size bounded.
pub(crate) fn validate_annotations(
    annotations: Option<&BTreeMap<String, String>>,
    path: &Path,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut total = 0usize;
    for (k, v) in annotations.into_iter().flatten() {
        for msg in is_qualified_name(&crate::gofmt::to_lower(k)) {
            errs.push(FieldError::invalid(path, k, &msg));
        }
        total += k.len() + v.len();
    }
    if total > TOTAL_ANNOTATION_SIZE_LIMIT {
        errs.push(FieldError::too_long(path, TOTAL_ANNOTATION_SIZE_LIMIT));
    }
    errs
}

/// `ValidateLabelSelector`.
pub(crate) fn validate_label_selector(sel: &LabelSelector, path: &Path) -> Vec<FieldError> {
    let mut errs = validate_labels(sel.match_labels.as_ref(), &path.child("matchLabels"));
    for (i, req) in sel.match_expressions.iter().flatten().enumerate() {
        let p = path.child("matchExpressions").index(i);
        let values = req.values.as_deref().unwrap_or_default();
        match req.operator.as_str() {
            "In" | "NotIn" => {
                if values.is_empty() {
                    errs.push(FieldError::required(
                        &p.child("values"),
                        "must be specified when `operator` is 'In' or 'NotIn'",
                    ));
                }
            }
            "Exists" | "DoesNotExist" => {
                if !values.is_empty() {
                    errs.push(FieldError::forbidden(
                        &p.child("values"),
                        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                    ));
                }
            }
            op => errs.push(
                FieldError::invalid(&p.child("operator"), op, "not a valid selector operator")
                    .with_hint("selector operators are In, NotIn, Exists and DoesNotExist"),
            ),
        }
        errs.extend(validate_label_name(&req.key, &p.child("key")));
        for (j, v) in values.iter().enumerate() {
            for msg in is_valid_label_value(v) {
                errs.push(FieldError::invalid(&p.child("values").index(j), v, &msg));
            }
        }
    }
    errs
}

/// Whether `sel` selects `labels`; `None` if the selector is itself invalid (then the API
/// server skips the "does not match" check). `metav1.LabelSelectorAsSelector` refuses a key or
/// value that is not a label's, as well as what `k8s_base::Selector` refuses.
pub(crate) fn selector_matches(
    sel: &LabelSelector,
    labels: Option<&BTreeMap<String, String>>,
) -> Option<bool> {
    let bad_label = sel
        .match_labels
        .iter()
        .flatten()
        .any(|(k, v)| !is_qualified_name(k).is_empty() || !is_valid_label_value(v).is_empty());
    let bad_expression = sel.match_expressions.iter().flatten().any(|e| {
        !is_qualified_name(&e.key).is_empty()
            || e.values
                .iter()
                .flatten()
                .any(|v| !is_valid_label_value(v).is_empty())
    });
    if bad_label || bad_expression {
        return None;
    }
    let selector = k8s_base::Selector::from_label_selector(sel).ok()?;
    Some(selector.matches(labels))
}
