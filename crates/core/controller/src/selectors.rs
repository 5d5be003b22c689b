//! Label selectors (`metav1.LabelSelectorAsSelector`) and node selectors
//! (`component-helpers/scheduling/corev1/nodeaffinity`), evaluated directly on the
//! k8s-openapi types.
//!
//! Knows nothing of DaemonSets; used by claiming (R-CLM), eligibility (R-ELG-2) and handlers.

use k8s_openapi::api::core::v1::{Node, NodeSelectorRequirement, NodeSelectorTerm};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, LabelSelectorRequirement};
use std::collections::BTreeMap;

use crate::keys::OBJECT_NAME_FIELD;

/// A label selector after conversion: upstream's `labels.Selector`.
#[derive(Debug, Clone, Copy)]
pub enum Selector<'a> {
    /// Matches nothing (a nil selector).
    Nothing,
    /// Matches everything (`{}`, both lists absent or empty).
    Everything,
    /// Requirements, all of which must hold.
    Requirements(&'a LabelSelector),
}

/// Why a label selector could not be converted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SelectorError(pub String);

impl<'a> Selector<'a> {
    /// `metav1.LabelSelectorAsSelector`: validates operators and value counts.
    pub fn from_label_selector(sel: &'a LabelSelector) -> Result<Selector<'a>, SelectorError> {
        let labels_empty = sel.match_labels.as_ref().is_none_or(|m| m.is_empty());
        let exprs_empty = sel.match_expressions.as_ref().is_none_or(|e| e.is_empty());
        if labels_empty && exprs_empty {
            return Ok(Selector::Everything);
        }
        for req in sel.match_expressions.iter().flatten() {
            validate_label_requirement(req)?;
        }
        Ok(Selector::Requirements(sel))
    }

    /// Whether this selector selects nothing or everything-by-emptiness
    /// (`selector.Empty()` in Go: true for `{}`).
    pub fn is_empty(&self) -> bool {
        matches!(self, Selector::Everything)
    }

    /// `selector.Matches(labels)`.
    pub fn matches(&self, labels: Option<&BTreeMap<String, String>>) -> bool {
        match self {
            Selector::Nothing => false,
            Selector::Everything => true,
            Selector::Requirements(sel) => {
                for (k, v) in sel.match_labels.iter().flatten() {
                    if labels.and_then(|l| l.get(k)) != Some(v) {
                        return false;
                    }
                }
                sel.match_expressions
                    .iter()
                    .flatten()
                    .all(|r| label_requirement_matches(r, labels))
            }
        }
    }
}

fn validate_label_requirement(req: &LabelSelectorRequirement) -> Result<(), SelectorError> {
    let n = req.values.as_ref().map_or(0, |v| v.len());
    match req.operator.as_str() {
        "In" | "NotIn" if n == 0 => Err(SelectorError(format!(
            "for 'in', 'notin' operators, values set can't be empty (key {:?})",
            req.key
        ))),
        "Exists" | "DoesNotExist" if n != 0 => Err(SelectorError(format!(
            "values set must be empty for exists and does not exist (key {:?})",
            req.key
        ))),
        "In" | "NotIn" | "Exists" | "DoesNotExist" => Ok(()),
        other => Err(SelectorError(format!(
            "{other:?} is not a valid label selector operator"
        ))),
    }
}

fn label_requirement_matches(
    req: &LabelSelectorRequirement,
    labels: Option<&BTreeMap<String, String>>,
) -> bool {
    let value = labels.and_then(|l| l.get(&req.key));
    let values = req.values.as_deref().unwrap_or(&[]);
    match req.operator.as_str() {
        "In" => value.is_some_and(|v| values.contains(v)),
        "NotIn" => value.is_none_or(|v| !values.contains(v)),
        "Exists" => value.is_some(),
        "DoesNotExist" => value.is_none(),
        _ => false,
    }
}

/// Whether a node matches a `nodeSelector` map: every key=value must equal the node's label.
pub fn node_selector_map_matches(selector: Option<&BTreeMap<String, String>>, node: &Node) -> bool {
    let labels = node.metadata.labels.as_ref();
    selector
        .into_iter()
        .flatten()
        .all(|(k, v)| labels.and_then(|l| l.get(k)) == Some(v))
}

/// Outcome of one node selector term against a node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TermMatch {
    Matches,
    /// The term parsed but some requirement did not hold; carries the first failing requirement.
    NoMatch(String),
    /// The term is empty or malformed; it never matches (R-ELG-2: parse errors count as no match).
    Invalid(String),
}

/// Evaluates one `NodeSelectorTerm` (expressions on labels AND fields on `metadata.name`).
pub fn node_selector_term_matches(term: &NodeSelectorTerm, node: &Node) -> TermMatch {
    let exprs = term.match_expressions.as_deref().unwrap_or(&[]);
    let fields = term.match_fields.as_deref().unwrap_or(&[]);
    if exprs.is_empty() && fields.is_empty() {
        return TermMatch::Invalid("an empty node selector term matches no node".into());
    }
    let labels = node.metadata.labels.as_ref();
    for req in exprs {
        match node_label_requirement(req, labels) {
            Ok(true) => {}
            Ok(false) => return TermMatch::NoMatch(describe_requirement(req)),
            Err(e) => return TermMatch::Invalid(e),
        }
    }
    let name = node.metadata.name.as_deref().unwrap_or("");
    for req in fields {
        match node_field_requirement(req, name) {
            Ok(true) => {}
            Ok(false) => return TermMatch::NoMatch(describe_requirement(req)),
            Err(e) => return TermMatch::Invalid(e),
        }
    }
    TermMatch::Matches
}

/// Renders a requirement the way a person reads it: `color In [blue]`.
pub fn describe_requirement(req: &NodeSelectorRequirement) -> String {
    match req.values.as_deref() {
        Some(v) if !v.is_empty() => format!("{} {} [{}]", req.key, req.operator, v.join(", ")),
        _ => format!("{} {}", req.key, req.operator),
    }
}

fn node_label_requirement(
    req: &NodeSelectorRequirement,
    labels: Option<&BTreeMap<String, String>>,
) -> Result<bool, String> {
    let value = labels.and_then(|l| l.get(&req.key));
    let values = req.values.as_deref().unwrap_or(&[]);
    match req.operator.as_str() {
        "In" | "NotIn" if values.is_empty() => Err(format!(
            "{}: values set can't be empty for operator {}",
            req.key, req.operator
        )),
        "In" => Ok(value.is_some_and(|v| values.contains(v))),
        "NotIn" => Ok(value.is_none_or(|v| !values.contains(v))),
        "Exists" | "DoesNotExist" if !values.is_empty() => Err(format!(
            "{}: values set must be empty for operator {}",
            req.key, req.operator
        )),
        "Exists" => Ok(value.is_some()),
        "DoesNotExist" => Ok(value.is_none()),
        "Gt" | "Lt" => {
            let [bound] = values else {
                return Err(format!(
                    "{}: operator {} needs exactly one value",
                    req.key, req.operator
                ));
            };
            let bound: i64 = bound
                .parse()
                .map_err(|_| format!("{}: {bound:?} is not an integer", req.key))?;
            // A missing or non-integer label value does not match.
            let Some(Ok(v)) = value.map(|v| v.parse::<i64>()) else {
                return Ok(false);
            };
            Ok(if req.operator == "Gt" {
                v > bound
            } else {
                v < bound
            })
        }
        other => Err(format!("{other:?} is not a valid node selector operator")),
    }
}

fn node_field_requirement(req: &NodeSelectorRequirement, node_name: &str) -> Result<bool, String> {
    if req.key != OBJECT_NAME_FIELD {
        return Err(format!(
            "{:?} is not a supported node field selector key",
            req.key
        ));
    }
    let values = req.values.as_deref().unwrap_or(&[]);
    let [value] = values else {
        return Err(format!(
            "unexpected number of value ({}) for node field selector operator {:?}",
            values.len(),
            req.operator
        ));
    };
    match req.operator.as_str() {
        "In" => Ok(node_name == value),
        "NotIn" => Ok(node_name != value),
        other => Err(format!(
            "{other:?} is not a valid node field selector operator"
        )),
    }
}
