//! Node selectors (`component-helpers/scheduling/corev1/nodeaffinity`), evaluated directly on
//! the k8s-openapi types; a requirement matches as `k8s_base::labels::Requirement` does. Label
//! selectors are `k8s_base::labels`.
//!
//! Knows nothing of DaemonSets; used by eligibility (R-ELG-2) and the cluster's scheduler.

use k8s_base::labels::{Operator, Requirement};
use k8s_openapi::api::core::v1::{Node, NodeSelectorRequirement, NodeSelectorTerm};
use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::keys::OBJECT_NAME_FIELD;

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
    let values = req.values.as_deref().unwrap_or(&[]);
    let operator = match req.operator.as_str() {
        "In" | "NotIn" if values.is_empty() => {
            return Err(format!(
                "{}: values set can't be empty for operator {}",
                req.key, req.operator
            ))
        }
        "Exists" | "DoesNotExist" if !values.is_empty() => {
            return Err(format!(
                "{}: values set must be empty for operator {}",
                req.key, req.operator
            ))
        }
        "In" => Operator::In,
        "NotIn" => Operator::NotIn,
        "Exists" => Operator::Exists,
        "DoesNotExist" => Operator::DoesNotExist,
        "Gt" | "Lt" => {
            let [bound] = values else {
                return Err(format!(
                    "{}: operator {} needs exactly one value",
                    req.key, req.operator
                ));
            };
            if bound.parse::<i64>().is_err() {
                return Err(format!("{}: {bound:?} is not an integer", req.key));
            }
            if req.operator == "Gt" {
                Operator::GreaterThan
            } else {
                Operator::LessThan
            }
        }
        other => return Err(format!("{other:?} is not a valid node selector operator")),
    };
    let requirement = Requirement {
        key: Cow::Borrowed(&req.key),
        operator,
        values: Cow::Borrowed(values),
    };
    Ok(requirement.matches(labels))
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
