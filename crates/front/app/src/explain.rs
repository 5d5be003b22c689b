//! The selected node: its facts, the controller's reasoning rule by rule for every DaemonSet,
//! its pods with their YAML as a real cluster shows it, and the edits a user can make to it.
//! Every edit is a command (so it lands in the script and replays).

use crate::Ctx;
use controller::predicates::NodeExplanation;
use leptos::prelude::*;
use scenario::edit::Edit;
use scenario::view::{NodeCard as NodeModel, PodState};

#[component]
pub(crate) fn ExplainPanel() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let node = Memo::new(move |_| {
        let name = ctx.selected.get()?;
        ctx.vm
            .with(|v| v.nodes.iter().find(|n| n.name == name).cloned())
    });
    view! {
        <section class="explain" aria-label="Explain">
            {move || match node.get() {
                Some(n) => view! { <NodeDetails node=n/> }.into_any(),
                None => view! {
                    <p class="muted placeholder">
                        "Click a node to see, rule by rule, why the controller runs a daemon pod there or not, "
                        "and the pod's YAML as the API server would return it."
                    </p>
                }.into_any(),
            }}
        </section>
    }
}

#[component]
fn NodeDetails(node: NodeModel) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let name = node.name.clone();
    // Errors of these buttons show in the caption and the terminal.
    let run = move |edit: Edit| {
        let _ = ctx.edit(&edit);
    };
    // A pod fails on a node that runs it: not while unscheduled (Pending), not on a deleted node.
    let on_node = node.deleted.is_none();
    let about = match node.deleted.clone() {
        // A deleted node: nothing to edit, no verdict; only its pods remain.
        Some(why) => view! { <p class="summary deleted">{why}</p> }.into_any(),
        None => view! { <NodeFacts node=node.clone()/> }.into_any(),
    };
    view! {
        <header class="explain-head">
            <h3>{name.clone()}</h3>
            <span class="role">{node.role}</span>
            <span class="status">{node.status.clone()}</span>
        </header>
        {about}
        <h4>"Pods"</h4>
        {node.pods.is_empty().then(|| view! { <p class="muted">"No pod on this node."</p> })}
        <ul class="pod-list">
            {node.pods.iter().map(|p| {
                let ns = p.namespace.clone();
                let pname = p.name.clone();
                let fail = Edit::FailPod { namespace: ns.clone(), pod: pname.clone() };
                let crash = Edit::CrashPod { namespace: ns.clone(), pod: pname.clone() };
                let describe = ctx.query(&format!("kubectl describe pod {pname} -n {ns}"));
                let running = matches!(p.state, PodState::Running | PodState::Ready);
                let delete = Edit::DeletePod { namespace: ns.clone(), pod: pname.clone() };
                let yaml_cmd = format!("kubectl get pod {pname} -n {ns} -o yaml");
                let yaml = ctx.query(&yaml_cmd);
                view! {
                    <li>
                        <ul class="pods">{crate::nodes::pod_chip(p)}</ul>
                        {(on_node && !matches!(p.state, PodState::Pending | PodState::Failed | PodState::Succeeded)).then(|| view! {
                            <button on:click=move |_| run(fail.clone()) title="The kubelet evicts the pod (node memory pressure): phase Failed">"Evict pod"</button>
                        })}
                        {(on_node && running).then(|| view! {
                            <button on:click=move |_| run(crash.clone()) title="Its container exits with code 1; the kubelet restarts it after its back-off">"Crash container"</button>
                        })}
                        <button class="danger" on:click=move |_| run(delete.clone())>"Delete pod"</button>
                        {p.why.clone().or_else(|| p.orphan.as_ref().map(|o| format!("{pname} {o}")))
                            .map(|w| view! { <p class="why">{w}</p> })}
                        <details class="yaml">
                            <summary>{format!("kubectl get pod {pname} -o yaml")}</summary>
                            <pre class="code">{yaml.text}</pre>
                        </details>
                        <details class="yaml" open=p.trouble.is_some()>
                            <summary>{format!("kubectl describe pod {pname}")}</summary>
                            <pre class="code">{describe.text}</pre>
                        </details>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}

/// A node's labels, taints and capacity, the edits a user can make to it, and the controller's
/// verdict for each DaemonSet.
#[component]
fn NodeFacts(node: NodeModel) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let name = node.name.clone();
    let cordoned = node.status.contains("SchedulingDisabled");
    let kubelet_running = ctx.read(|s| s.timeline.cluster().kubelet_running(&name));
    let capacity = ctx.read(|s| {
        s.timeline
            .cluster()
            .node(&name)
            .and_then(|n| n.status.as_ref()?.capacity.clone())
            .map(|c| {
                c.iter()
                    .map(|(k, v)| format!("{k}={}", v.0))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default()
    });
    // Errors of these buttons show in the caption and the terminal.
    let run = move |edit: Edit| {
        let _ = ctx.edit(&edit);
    };
    let n1 = name.clone();
    let n2 = name.clone();
    let n3 = name.clone();
    view! {
        <dl class="facts">
            <dt>"labels"</dt>
            <dd><ul class="labels">{node.labels.is_empty().then(|| view! { <li class="muted">"none"</li> })}{node.labels.iter().map(|l| {
                let key = l.split('=').next().unwrap_or_default().to_string();
                let edit = Edit::Label { node: node.name.clone(), key: key.clone(), value: None };
                view! { <li><code>{l.clone()}</code>
                    <button class="x" aria-label=format!("remove label {key}") title="remove label"
                        on:click=move |_| run(edit.clone())>"×"</button></li> }
            }).collect_view()}</ul></dd>
            <dt>"taints"</dt>
            <dd><ul class="taints">{node.taints.iter().map(|t| {
                let edit = Edit::Taint { node: node.name.clone(), taint: t.clone(), remove: true };
                view! { <li><code>{t.clone()}</code>
                    <button class="x" aria-label=format!("remove taint {t}") title="remove taint"
                        on:click=move |_| run(edit.clone())>"×"</button></li> }
            }).collect_view()}
            {node.taints.is_empty().then(|| view! { <li class="muted">"none"</li> })}</ul></dd>
            <dt>"capacity"</dt><dd>{capacity}</dd>
        </dl>
        <div class="actions" role="group" aria-label="Edit this node">
            <button on:click=move |_| run(if cordoned {
                Edit::Uncordon { node: n1.clone() }
            } else {
                Edit::Cordon { node: n1.clone() }
            })>{if cordoned { "Uncordon" } else { "Cordon" }}</button>
            <button on:click=move |_| run(if kubelet_running {
                Edit::StopKubelet { node: n2.clone() }
            } else {
                Edit::StartKubelet { node: n2.clone() }
            })>{if kubelet_running { "Stop kubelet" } else { "Start kubelet" }}</button>
            <button class="danger" on:click=move |_| run(Edit::RemoveNode { node: n3.clone() })>"Remove node"</button>
        </div>
        <AddTaintOrLabel node=name.clone()/>
        {node.verdicts.iter().map(|(ds, e)| verdict(ds, e)).collect_view()}
    }
}

fn verdict(ds: &str, e: &NodeExplanation) -> impl IntoView {
    let run = e.decision.should_run;
    let keep = e.decision.should_continue_running;
    let checks = e.checks.clone();
    let empty = checks.is_empty();
    view! {
        <section class="verdict" data-ds=ds.to_string() aria-label=format!("DaemonSet {ds}")>
            <h4>"DaemonSet " <code>{ds.to_string()}</code></h4>
            <p class="summary">{e.summary.clone()}</p>
            <p class="decision">
                <span class=if run { "yes" } else { "no" }>"shouldRun: " {run.to_string()}</span>
                <span class=if keep { "yes" } else { "no" }>"shouldContinueRunning: " {keep.to_string()}</span>
            </p>
            <ul class="checks" aria-label="rules">
                {empty.then(|| view! {
                    <li class="pass"><span class="mark">"✓"</span>
                        <span class="text">"no nodeSelector, no required affinity and no taints: nothing stands in the way"</span>
                    </li>
                })}
                {checks.into_iter().map(|c| {
                    let (cls, mark) = if c.passed { ("pass", "✓") } else { ("fail", "✗") };
                    view! {
                        <li class=cls>
                            <span class="mark">{mark}</span>
                            <span class="text"><b>{c.subject}</b>": "{c.detail}</span>
                            <span class="rule">{c.rule}</span>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}

/// Adds a taint or a label to the node, as `kubectl taint` / `kubectl label` would.
#[component]
fn AddTaintOrLabel(node: String) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let taint = RwSignal::new(String::new());
    let label = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    // An edit (or why the typed text makes none): the field empties once it is made.
    let apply = move |edit: Result<Edit, String>, field: RwSignal<String>| match edit
        .and_then(|e| ctx.edit(&e))
    {
        Ok(()) => {
            field.set(String::new());
            error.set(None);
        }
        Err(e) => error.set(Some(e)),
    };
    let n1 = node.clone();
    let n2 = node;
    view! {
        <form class="inline-form" aria-label="Add a taint" on:submit=move |ev| {
            ev.prevent_default();
            let t = taint.get();
            if t.trim().is_empty() { return; }
            apply(Ok(Edit::Taint { node: n1.clone(), taint: t.trim().to_string(), remove: false }), taint);
        }>
            <input aria-label="Taint" placeholder="key=value:NoExecute" prop:value=move || taint.get()
                on:input=move |ev| taint.set(event_target_value(&ev))/>
            <button type="submit">"Add taint"</button>
        </form>
        <form class="inline-form" aria-label="Add a label" on:submit=move |ev| {
            ev.prevent_default();
            let l = label.get();
            if l.trim().is_empty() { return; }
            let edit = match l.trim().split_once('=') {
                Some((key, value)) => Ok(Edit::Label { node: n2.clone(), key: key.to_string(), value: Some(value.to_string()) }),
                None => Err(format!("label {:?} has no '='\n  hint: write key=value, e.g. disk=ssd", l.trim())),
            };
            apply(edit, label);
        }>
            <input aria-label="Label" placeholder="disk=ssd" prop:value=move || label.get()
                on:input=move |ev| label.set(event_target_value(&ev))/>
            <button type="submit">"Add label"</button>
        </form>
        {move || error.get().map(|e| view! {
            <pre class="error" role="alert">{e}</pre>
        })}
    }
}
