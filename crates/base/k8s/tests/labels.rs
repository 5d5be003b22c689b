//! Label and field selectors: `labels.Parse` as kubectl's `-l` takes it,
//! `metav1.LabelSelectorAsSelector` with its refusals, `Requirement.Matches` for every
//! operator (node affinity's `Gt`/`Lt` included), and `selector.String()` /
//! `FormatLabelSelector`.

use std::collections::BTreeMap;

use k8s_base::labels::{format_label_selector, Operator, Requirement, Selector};
use k8s_base::FieldSelector;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, LabelSelectorRequirement};

fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn expr(key: &str, op: &str, values: &[&str]) -> LabelSelectorRequirement {
    LabelSelectorRequirement {
        key: key.into(),
        operator: op.into(),
        values: Some(values.iter().map(|v| v.to_string()).collect()),
    }
}

#[test]
fn parsed_selectors_match_as_kubectl_filters() {
    let l = labels(&[("app", "x"), ("tier", "web")]);
    let m = |s: &str| Selector::parse(s).unwrap().matches(Some(&l));
    assert!(m("app=x"));
    assert!(m("app==x,tier!=db"));
    assert!(m("tier in (web,db)"));
    assert!(!m("tier notin (web)"));
    assert!(m("app,!missing"));
    assert!(!m("missing"));
    assert!(m(""), "the empty selector selects everything");
    assert!(Selector::parse("").unwrap().is_empty());
}

#[test]
fn a_malformed_requirement_is_refused_in_kubectls_words() {
    let err = Selector::parse("a b").unwrap_err();
    assert_eq!(
        err,
        "unable to parse requirement: found 'a b', expected: key, '!key', 'key=value', 'key!=value', 'key in (a,b)' or 'key notin (a,b)'"
    );
    assert!(
        Selector::parse("k in a,b").is_err(),
        "a set needs parentheses"
    );
}

#[test]
fn label_selector_as_selector_refuses_what_upstream_refuses() {
    let sel = |e| LabelSelector {
        match_labels: None,
        match_expressions: Some(vec![e]),
    };
    let err = |e| {
        Selector::from_label_selector(&sel(e))
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err(expr("k", "In", &[])),
        "for 'in', 'notin' operators, values set can't be empty (key \"k\")"
    );
    assert_eq!(
        err(expr("k", "Exists", &["v"])),
        "values set must be empty for exists and does not exist (key \"k\")"
    );
    assert_eq!(
        err(expr("k", "Gt", &["1"])),
        "\"Gt\" is not a valid label selector operator"
    );
}

#[test]
fn empty_and_nil_selectors() {
    // `{}` selects everything; both lists empty is the same.
    let all = LabelSelector::default();
    let s = Selector::from_label_selector(&all).unwrap();
    assert!(s.is_empty());
    assert!(s.matches(None));
    let empty_lists = LabelSelector {
        match_labels: Some(BTreeMap::new()),
        match_expressions: Some(vec![]),
    };
    assert!(Selector::from_label_selector(&empty_lists)
        .unwrap()
        .is_empty());
    // A nil selector converts to Nothing.
    assert!(!Selector::Nothing.matches(Some(&labels(&[("a", "b")]))));
    assert!(!Selector::Nothing.is_empty());
}

#[test]
fn match_labels_and_expressions_must_all_hold() {
    let sel = LabelSelector {
        match_labels: Some(labels(&[("app", "x")])),
        match_expressions: Some(vec![
            expr("tier", "NotIn", &["db"]),
            expr("zone", "DoesNotExist", &[]),
        ]),
    };
    let s = Selector::from_label_selector(&sel).unwrap();
    assert!(s.matches(Some(&labels(&[("app", "x")]))));
    assert!(s.matches(Some(&labels(&[("app", "x"), ("tier", "web")]))));
    assert!(!s.matches(Some(&labels(&[("app", "x"), ("tier", "db")]))));
    assert!(!s.matches(Some(&labels(&[("app", "x"), ("zone", "a")]))));
    assert!(!s.matches(Some(&labels(&[("app", "y")]))));
    assert!(!s.matches(None));
}

#[test]
fn greater_and_less_than_read_integers() {
    let req = |op, bound: &str| Requirement {
        key: "cores".into(),
        operator: op,
        values: vec![bound.to_string()].into(),
    };
    let has = |v: &str| labels(&[("cores", v)]);
    assert!(req(Operator::GreaterThan, "4").matches(Some(&has("8"))));
    assert!(!req(Operator::GreaterThan, "8").matches(Some(&has("8"))));
    assert!(req(Operator::LessThan, "8").matches(Some(&has("-1"))));
    // A value or a bound that is not an integer, or no label, does not match.
    assert!(!req(Operator::GreaterThan, "4").matches(Some(&has("many"))));
    assert!(!req(Operator::GreaterThan, "x").matches(Some(&has("8"))));
    assert!(!req(Operator::LessThan, "8").matches(None));
}

#[test]
fn the_string_form_orders_requirements_by_key_and_sorts_values() {
    let sel = LabelSelector {
        match_labels: Some(labels(&[("z", "1")])),
        match_expressions: Some(vec![
            expr("a", "In", &["y", "x"]),
            expr("m", "DoesNotExist", &[]),
            expr("b", "Exists", &[]),
            expr("c", "NotIn", &["q"]),
        ]),
    };
    assert_eq!(
        format_label_selector(&sel),
        "a in (x,y),b,c notin (q),!m,z=1"
    );
    assert_eq!(format_label_selector(&LabelSelector::default()), "<none>");
    let bad = LabelSelector {
        match_labels: None,
        match_expressions: Some(vec![expr("k", "Like", &["v"])]),
    };
    assert_eq!(format_label_selector(&bad), "<error>");
    assert_eq!(Selector::parse("b!=2,a=1").unwrap().to_text(), "a=1,b!=2");
}

#[test]
fn field_selectors_match_json_fields() {
    let obj = serde_json::json!({"spec": {"nodeName": "n1"}, "status": {"phase": "Running"}});
    let supported = ["spec.nodeName", "status.phase"];
    let m = |s: &str| FieldSelector::parse(s, &supported).unwrap().matches(&obj);
    assert!(m("spec.nodeName=n1"));
    assert!(m("spec.nodeName==n1,status.phase!=Pending"));
    assert!(!m("spec.nodeName=n2"));
    assert!(m(""));
    assert_eq!(
        FieldSelector::parse("metadata.uid=x", &supported).unwrap_err(),
        "field label not supported: metadata.uid"
    );
    assert_eq!(
        FieldSelector::parse("spec.nodeName", &supported).unwrap_err(),
        "invalid selector: 'spec.nodeName'; can't understand 'spec.nodeName'"
    );
    // A missing field reads as empty.
    let none = FieldSelector::parse("spec.nodeName=", &supported).unwrap();
    assert!(none.matches(&serde_json::json!({})));
}
