//! The DaemonSet Playground web app: Leptos views and wiring only. Every decision shown comes
//! from the controller crate (`DaemonPodPredicate::explain`), every object from the apiserver
//! crate's decoding; nothing here re-implements a rule.

pub mod preset;

use controller::predicates::{describe_taint, describe_toleration, NodeExplanation};
use controller::DaemonPodPredicate;
use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::Node;
use leptos::prelude::*;

/// The whole page: the default preset, or a clear error if it cannot be decoded.
#[component]
pub fn App() -> impl IntoView {
    match preset::default_preset() {
        Ok(p) => view! { <Playground preset=p/> }.into_any(),
        Err(e) => view! {
            <main class="page">
                <h1>"DaemonSet Playground"</h1>
                <p class="error" role="alert">"The default preset could not be loaded: " {e}</p>
            </main>
        }
        .into_any(),
    }
}

/// One node and the controller's verdict on it.
struct NodeRow {
    node: Node,
    explanation: NodeExplanation,
}

/// The cluster of a preset with, per node, whether the controller runs a pod there and why.
#[component]
pub fn Playground(preset: preset::Preset) -> impl IntoView {
    let predicate = DaemonPodPredicate::new(&preset.daemon_set);
    let rows: Vec<NodeRow> = preset
        .nodes
        .iter()
        .map(|n| NodeRow {
            node: n.clone(),
            explanation: predicate.explain(n),
        })
        .collect();
    let desired = rows
        .iter()
        .filter(|r| r.explanation.decision.should_run)
        .count();
    let tolerations: Vec<String> = predicate
        .tolerations()
        .iter()
        .map(describe_toleration)
        .collect();
    let total = rows.len();
    view! {
        <main class="page">
            <header class="top">
                <h1>"DaemonSet Playground"</h1>
                <p class="tagline">
                    "The Kubernetes DaemonSet controller, compiled to WebAssembly, deciding on a virtual cluster."
                </p>
            </header>
            <section class="preset" aria-label="Preset">
                <h2>{preset.title}</h2>
                <p class="story">{preset.story}</p>
            </section>
            <DaemonSetSummary ds=preset.daemon_set.clone() desired=desired total=total tolerations=tolerations/>
            <section class="nodes" aria-label="Nodes">
                {rows.into_iter().map(|r| view! { <NodeCard row=r/> }).collect_view()}
            </section>
            <details class="yaml">
                <summary>"DaemonSet manifest"</summary>
                <pre><code>{preset.daemon_set_yaml}</code></pre>
            </details>
        </main>
    }
}

#[component]
fn DaemonSetSummary(
    ds: DaemonSet,
    desired: usize,
    total: usize,
    tolerations: Vec<String>,
) -> impl IntoView {
    let name = ds.metadata.name.clone().unwrap_or_default();
    let ns = ds.metadata.namespace.clone().unwrap_or_default();
    let selector = ds
        .spec
        .selector
        .match_labels
        .iter()
        .flatten()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",");
    let node_selector = ds
        .spec
        .template
        .spec
        .as_ref()
        .and_then(|s| s.node_selector.as_ref())
        .filter(|m| !m.is_empty())
        .map(|m| {
            m.iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(",")
        })
        .unwrap_or_else(|| "<none>".into());
    let strategy = ds
        .spec
        .update_strategy
        .as_ref()
        .and_then(|s| s.type_.clone())
        .unwrap_or_default();
    view! {
        <section class="ds" aria-label="DaemonSet">
            <div class="ds-head">
                <h2><span class="kind">"daemonset.apps/"</span>{name}</h2>
                <span class="ns">"namespace " {ns}</span>
            </div>
            <div class="ds-body">
                <div class="desired" data-testid="desired">
                    <span class="big">{desired}</span>
                    <span class="label">"DESIRED"</span>
                    <span class="hint">{format!("of {total} nodes should run a pod")}</span>
                </div>
                <dl class="facts">
                    <dt>"selector"</dt><dd><code>{selector}</code></dd>
                    <dt>"node selector"</dt><dd><code>{node_selector}</code></dd>
                    <dt>"update strategy"</dt><dd>{strategy}</dd>
                    <dt>"tolerations of its pods"</dt>
                    <dd>
                        <ul class="tolerations">
                            {tolerations.into_iter().map(|t| view! { <li><code>{t}</code></li> }).collect_view()}
                        </ul>
                    </dd>
                </dl>
            </div>
        </section>
    }
}

fn role(node: &Node) -> &'static str {
    let labels = node.metadata.labels.as_ref();
    if labels.is_some_and(|l| l.contains_key("node-role.kubernetes.io/control-plane")) {
        "control-plane"
    } else {
        "worker"
    }
}

#[component]
fn NodeCard(row: NodeRow) -> impl IntoView {
    let NodeRow { node, explanation } = row;
    let name = explanation.node.clone();
    let runs = explanation.decision.should_run;
    // No pods exist yet on this page, so the verdict is whether one is placed; whether an
    // existing pod could stay (shouldContinueRunning) is told in the summary and the colour.
    let (badge, decision) = if runs {
        ("pod", "pod")
    } else {
        ("no pod", "no-pod")
    };
    let keeps = if explanation.decision.should_continue_running {
        "yes"
    } else {
        "no"
    };
    let taints: Vec<String> = node
        .spec
        .as_ref()
        .and_then(|s| s.taints.as_ref())
        .into_iter()
        .flatten()
        .map(describe_taint)
        .collect();
    let labels: Vec<String> = node
        .metadata
        .labels
        .iter()
        .flatten()
        .filter(|(k, _)| !k.starts_with("kubernetes.io/"))
        .map(|(k, v)| {
            if v.is_empty() {
                k.clone()
            } else {
                format!("{k}={v}")
            }
        })
        .collect();
    let checks = explanation.checks.clone();
    let no_checks = checks.is_empty();
    view! {
        <article class="node" data-node=name.clone() data-decision=decision data-continue=keeps aria-label=format!("node {name}")>
            <header>
                <h3>{name.clone()}</h3>
                <span class="role">{role(&node)}</span>
                <span class=format!("badge {decision}")>{badge}</span>
            </header>
            {(!labels.is_empty()).then(|| view! {
                <ul class="labels" aria-label="labels">
                    {labels.into_iter().map(|l| view! { <li><code>{l}</code></li> }).collect_view()}
                </ul>
            })}
            {(!taints.is_empty()).then(|| view! {
                <ul class="taints" aria-label="taints">
                    {taints.into_iter().map(|t| view! { <li><code>{t}</code></li> }).collect_view()}
                </ul>
            })}
            <p class="summary">{explanation.summary.clone()}</p>
            <ul class="checks" aria-label="why">
                {no_checks.then(|| view! {
                    <li class="pass"><span class="mark">"✓"</span>
                        <span class="text">"no nodeSelector, no required affinity and no taints: nothing stands in the way"</span>
                    </li>
                })}
                {checks.into_iter().map(|c| {
                    let cls = if c.passed { "pass" } else { "fail" };
                    let mark = if c.passed { "✓" } else { "✗" };
                    view! {
                        <li class=cls>
                            <span class="mark">{mark}</span>
                            <span class="text"><b>{c.subject}</b>": "{c.detail}</span>
                            <span class="rule">{c.rule}</span>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </article>
    }
}
