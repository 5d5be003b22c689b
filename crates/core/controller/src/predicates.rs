//! Node eligibility: `NodeShouldRunDaemonPod`, `predicates`, `NewPod` (R-ELG-1..7, R-TOL-1).
//!
//! [`DaemonPodPredicate`] is built once per DaemonSet (per sync) and evaluated per node: the
//! hypothetical pod's tolerations, selector and affinity are prepared once, so a sync over
//! thousands of nodes does not rebuild them. [`DaemonPodPredicate::explain`] gives the same
//! decision rule by rule, for people; both share the same checks.

use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::{Node, NodeSelector, Taint, Toleration};
use std::collections::BTreeMap;

use crate::selectors::{node_selector_map_matches, node_selector_term_matches, TermMatch};
use crate::util::add_or_update_daemon_pod_tolerations;

/// The decision for one DaemonSet on one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ShouldRun {
    /// A missing pod should be created here.
    pub should_run: bool,
    /// An existing pod may stay here.
    pub should_continue_running: bool,
}

/// The per-DaemonSet part of `NodeShouldRunDaemonPod`, prepared once.
#[derive(Debug, Clone)]
pub struct DaemonPodPredicate<'a> {
    template_node_name: Option<&'a str>,
    node_selector: Option<&'a BTreeMap<String, String>>,
    required: Option<&'a NodeSelector>,
    /// The template's tolerations plus the defaults (R-TOL-1), as `NewPod` builds them.
    tolerations: Vec<Toleration>,
}

/// `ToleratesTaint` (R-ELG-4): effect empty or equal; key empty or equal; Exists, or
/// Equal/empty with equal value. `tolerationSeconds` is irrelevant here.
pub fn toleration_tolerates_taint(t: &Toleration, taint: &Taint) -> bool {
    if let Some(effect) = t.effect.as_deref() {
        if !effect.is_empty() && effect != taint.effect {
            return false;
        }
    }
    if let Some(key) = t.key.as_deref() {
        if !key.is_empty() && key != taint.key {
            return false;
        }
    }
    match t.operator.as_deref().unwrap_or("") {
        "" | "Equal" => t.value.as_deref().unwrap_or("") == taint.value.as_deref().unwrap_or(""),
        "Exists" => true,
        _ => false,
    }
}

/// The first toleration that tolerates `taint`, if any.
pub fn find_toleration<'t>(tolerations: &'t [Toleration], taint: &Taint) -> Option<&'t Toleration> {
    tolerations
        .iter()
        .find(|t| toleration_tolerates_taint(t, taint))
}

fn taint_matters(taint: &Taint) -> bool {
    matches!(taint.effect.as_str(), "NoSchedule" | "NoExecute")
}

/// One line of an explanation: the rule, whether it passed, and what it saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// Spec rule id, e.g. `R-ELG-3`.
    pub rule: &'static str,
    /// Short name of the check, e.g. `taint dedicated=user1:NoSchedule`.
    pub subject: String,
    pub passed: bool,
    /// What was compared and why it passed or failed, in words.
    pub detail: String,
}

/// `NodeShouldRunDaemonPod` explained rule by rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeExplanation {
    pub node: String,
    pub checks: Vec<Check>,
    pub decision: ShouldRun,
    /// One sentence a person can read.
    pub summary: String,
}

impl<'a> DaemonPodPredicate<'a> {
    /// Prepares the hypothetical pod of `NewPod(ds, node)` minus the node name.
    pub fn new(ds: &'a DaemonSet) -> Self {
        let spec = ds.spec.template.spec.as_ref();
        let mut pod_spec = spec.cloned().unwrap_or_default();
        // Only tolerations and hostNetwork matter for the defaults; drop the rest of the clone.
        pod_spec = k8s_openapi::api::core::v1::PodSpec {
            tolerations: pod_spec.tolerations.take(),
            host_network: pod_spec.host_network,
            ..Default::default()
        };
        add_or_update_daemon_pod_tolerations(&mut pod_spec);
        DaemonPodPredicate {
            template_node_name: spec
                .and_then(|s| s.node_name.as_deref())
                .filter(|n| !n.is_empty()),
            node_selector: spec.and_then(|s| s.node_selector.as_ref()),
            required: spec
                .and_then(|s| s.affinity.as_ref())
                .and_then(|a| a.node_affinity.as_ref())
                .and_then(|na| {
                    na.required_during_scheduling_ignored_during_execution
                        .as_ref()
                }),
            tolerations: pod_spec.tolerations.unwrap_or_default(),
        }
    }

    /// The hypothetical pod's tolerations (template + defaults).
    pub fn tolerations(&self) -> &[Toleration] {
        &self.tolerations
    }

    fn required_matches(&self, node: &Node) -> bool {
        match self.required {
            None => true,
            Some(sel) => sel
                .node_selector_terms
                .iter()
                .any(|t| node_selector_term_matches(t, node) == TermMatch::Matches),
        }
    }

    /// R-ELG-1..3: `(shouldRun, shouldContinueRunning)` for `node`.
    pub fn evaluate(&self, node: &Node) -> ShouldRun {
        const NEITHER: ShouldRun = ShouldRun {
            should_run: false,
            should_continue_running: false,
        };
        let name = node.metadata.name.as_deref().unwrap_or("");
        if self.template_node_name.is_some_and(|n| n != name) {
            return NEITHER;
        }
        if !node_selector_map_matches(self.node_selector, node) || !self.required_matches(node) {
            return NEITHER;
        }
        let mut fits = true;
        let mut no_execute_tolerated = true;
        for taint in node_taints(node) {
            if !taint_matters(taint) || find_toleration(&self.tolerations, taint).is_some() {
                continue;
            }
            fits = false;
            if taint.effect == "NoExecute" {
                no_execute_tolerated = false;
                break;
            }
        }
        ShouldRun {
            should_run: fits,
            should_continue_running: fits || no_execute_tolerated,
        }
    }

    /// The same decision as [`Self::evaluate`], with every check spelled out.
    pub fn explain(&self, node: &Node) -> NodeExplanation {
        let name = node.metadata.name.clone().unwrap_or_default();
        let mut checks = Vec::new();
        let mut selected = true;

        if let Some(want) = self.template_node_name {
            let passed = want == name;
            selected &= passed;
            checks.push(Check {
                rule: "R-ELG-1",
                subject: "spec.template.spec.nodeName".into(),
                passed,
                detail: if passed {
                    format!("the template names this node ({want})")
                } else {
                    format!("the template is pinned to node {want:?}, not {name:?}")
                },
            });
        }

        let labels = node.metadata.labels.as_ref();
        for (k, v) in self.node_selector.into_iter().flatten() {
            let have = labels.and_then(|l| l.get(k));
            let passed = have == Some(v);
            selected &= passed;
            checks.push(Check {
                rule: "R-ELG-2",
                subject: format!("nodeSelector {k}={v}"),
                passed,
                detail: match have {
                    Some(h) if h == v => format!("node has label {k}={h}"),
                    Some(h) => format!("node has {k}={h}, the DaemonSet wants {k}={v}"),
                    None => format!("node has no label {k}"),
                },
            });
        }

        if let Some(sel) = self.required {
            let mut any = false;
            let mut reasons = Vec::new();
            for (i, term) in sel.node_selector_terms.iter().enumerate() {
                match node_selector_term_matches(term, node) {
                    TermMatch::Matches => {
                        any = true;
                        reasons.push(format!("term {} matches", i + 1));
                    }
                    TermMatch::NoMatch(r) => reasons.push(format!("term {} fails on {r}", i + 1)),
                    TermMatch::Invalid(r) => {
                        reasons.push(format!("term {} never matches: {r}", i + 1))
                    }
                }
            }
            if sel.node_selector_terms.is_empty() {
                reasons.push("no terms: matches no node".into());
            }
            selected &= any;
            checks.push(Check {
                rule: "R-ELG-2",
                subject: "required node affinity".into(),
                passed: any,
                detail: reasons.join("; "),
            });
        }

        let mut fits = true;
        let mut no_execute_tolerated = true;
        for taint in node_taints(node) {
            let shown = k8s_base::objects::taint_string(taint);
            if !taint_matters(taint) {
                checks.push(Check {
                    rule: "R-ELG-3",
                    subject: format!("taint {shown}"),
                    passed: true,
                    detail: "PreferNoSchedule taints are ignored by the DaemonSet controller"
                        .into(),
                });
                continue;
            }
            let tol = find_toleration(&self.tolerations, taint);
            if tol.is_none() {
                fits = false;
                if taint.effect == "NoExecute" {
                    no_execute_tolerated = false;
                }
            }
            checks.push(Check {
                rule: "R-ELG-3",
                subject: format!("taint {shown}"),
                passed: tol.is_some(),
                detail: match tol {
                    Some(t) => format!("tolerated by {}", describe_toleration(t)),
                    None if taint.effect == "NoExecute" => {
                        "not tolerated: no pod may run here, an existing one is deleted".into()
                    }
                    None => {
                        "not tolerated: no new pod is placed here; an existing pod may stay".into()
                    }
                },
            });
        }

        let decision = if selected {
            ShouldRun {
                should_run: fits,
                should_continue_running: fits || no_execute_tolerated,
            }
        } else {
            ShouldRun {
                should_run: false,
                should_continue_running: false,
            }
        };
        debug_assert_eq!(decision, self.evaluate(node));
        let summary = match (decision.should_run, decision.should_continue_running) {
            (true, _) => "runs a daemon pod: every check passes".to_string(),
            (false, true) => {
                "no pod is placed here: a NoSchedule taint is not tolerated (a pod already running here would be left alone)"
                    .to_string()
            }
            (false, false) if !selected => {
                "no pod: the node is not selected by the DaemonSet".to_string()
            }
            (false, false) => {
                "no pod: an untolerated NoExecute taint; existing pods are deleted".to_string()
            }
        };
        NodeExplanation {
            node: name,
            checks,
            decision,
            summary,
        }
    }
}

/// The node's taints (none when it has no spec).
fn node_taints(node: &Node) -> impl Iterator<Item = &Taint> {
    node.spec
        .as_ref()
        .and_then(|s| s.taints.as_ref())
        .into_iter()
        .flatten()
}

/// A toleration in words, e.g. `node.kubernetes.io/not-ready Exists NoExecute (default)`.
pub fn describe_toleration(t: &Toleration) -> String {
    let key = t
        .key
        .as_deref()
        .filter(|k| !k.is_empty())
        .unwrap_or("<any key>");
    let op = t
        .operator
        .as_deref()
        .filter(|o| !o.is_empty())
        .unwrap_or("Equal");
    let effect = t
        .effect
        .as_deref()
        .filter(|e| !e.is_empty())
        .unwrap_or("<any effect>");
    let default = crate::util::default_daemon_tolerations(true).contains(t);
    let mut s = if op == "Exists" {
        format!("{key} Exists {effect}")
    } else {
        format!("{key}={} {effect}", t.value.as_deref().unwrap_or(""))
    };
    if default {
        s.push_str(" (added to every DaemonSet pod)");
    }
    s
}

/// R-ELG `NodeShouldRunDaemonPod(node, ds)`.
pub fn node_should_run_daemon_pod(node: &Node, ds: &DaemonSet) -> ShouldRun {
    DaemonPodPredicate::new(ds).evaluate(node)
}
