//! The DaemonSet Playground web app: Leptos views and wiring only. The scenario plays in the
//! `scenario` crate (`Playback`), what a frame shows comes from `scenario::view::cluster_view`,
//! and every verdict from the controller (`DaemonPodPredicate::explain`). Nothing here
//! re-implements a rule.

use controller::predicates::NodeExplanation;
use leptos::prelude::*;
use scenario::view::{cluster_view, ClusterView, Counters, NodeCard as NodeModel, PodChip};
use scenario::Playback;
use std::time::Duration;

/// How often the clock ticks while playing, and the virtual seconds per tick at 1×.
const TICK: Duration = Duration::from_millis(50);
/// Most simulation events processed in one tick (keeps a frame short on big clusters).
const MAX_EVENTS_PER_TICK: usize = 20_000;

fn load_default() -> Result<Playback, String> {
    let p = scenario::presets::default_preset();
    let s = scenario::parse(p.file, p.text).map_err(|e| e.to_string())?;
    Playback::new(s).map_err(|e| e.to_string())
}

/// The whole page: the default preset playing, or a clear error if it cannot be loaded.
#[component]
pub fn App() -> impl IntoView {
    match load_default() {
        Ok(p) => view! { <Playground playback=p/> }.into_any(),
        Err(e) => view! {
            <main class="page">
                <h1>"DaemonSet Playground"</h1>
                <p class="error" role="alert">"The default preset could not be loaded: " {e}</p>
            </main>
        }
        .into_any(),
    }
}

/// A scenario playing: transport, counters, the cluster, and the script.
#[component]
pub fn Playground(playback: Playback) -> impl IntoView {
    let initial = playback.clone();
    let title = playback.scenario.title.clone();
    let story = playback.scenario.description.clone();
    let pb = StoredValue::new_local(playback);
    let frame = RwSignal::new(0u64);
    let playing = RwSignal::new(false);
    let speed = RwSignal::new(1.0f64);
    let view_model = Memo::new(move |_| {
        frame.track();
        pb.with_value(|p| cluster_view(&p.session.cluster))
    });
    let log = Memo::new(move |_| {
        frame.track();
        pb.with_value(|p| {
            p.scenario
                .script
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let text = match &l.step {
                        scenario::Step::Run(c) => c.clone(),
                        scenario::Step::Expect { command, .. } => format!("expect: {command}"),
                    };
                    (i, text)
                })
                .collect::<Vec<_>>()
        })
    });
    let current_line = Memo::new(move |_| {
        frame.track();
        pb.with_value(|p| p.current_line())
    });
    let last_output = Memo::new(move |_| {
        frame.track();
        pb.with_value(|p| {
            p.log
                .last()
                .map(|r| format!("$ {}\n{}", r.command, r.output))
                .unwrap_or_default()
        })
    });

    let advance = move |dt: f64| {
        pb.update_value(|p| {
            let t = p.elapsed() + dt;
            p.advance_to(t, MAX_EVENTS_PER_TICK);
        });
        frame.update(|f| *f += 1);
    };
    let handle = set_interval_with_handle(
        move || {
            if playing.get_untracked() {
                advance(TICK.as_secs_f64() * speed.get_untracked());
            }
        },
        TICK,
    );
    if let Ok(h) = handle {
        on_cleanup(move || h.clear());
    }
    let step = move |_| {
        pb.update_value(|p| {
            p.step();
        });
        frame.update(|f| *f += 1);
    };
    let reset = move |_| {
        let fresh = initial.clone();
        pb.set_value(fresh);
        playing.set(false);
        frame.update(|f| *f += 1);
    };

    view! {
        <main class="page">
            <header class="top">
                <h1>"DaemonSet Playground"</h1>
                <p class="tagline">
                    "The Kubernetes DaemonSet controller, compiled to WebAssembly, running a virtual cluster."
                </p>
            </header>
            <section class="preset" aria-label="Preset">
                <h2>{title}</h2>
                <p class="story">{story}</p>
            </section>
            <section class="transport" aria-label="Time controls">
                <button class="play" aria-label=move || if playing.get() { "Pause" } else { "Play" }
                    on:click=move |_| playing.update(|p| *p = !*p)>
                    {move || if playing.get() { "❚❚ Pause" } else { "▶ Play" }}
                </button>
                <button aria-label="Step to the next event" on:click=step>"Step ›"</button>
                <button aria-label="Reset" on:click=reset>"Reset"</button>
                <label class="speed">"speed "
                    <select aria-label="Speed" on:change=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<f64>() { speed.set(v) }
                    }>
                        {[0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 64.0].into_iter().map(|s| view! {
                            <option value=s.to_string() selected=s == 1.0>{format!("{s}×")}</option>
                        }).collect_view()}
                    </select>
                </label>
                <span class="clock" data-testid="clock">"t = " {move || view_model.with(|v| v.elapsed.clone())}</span>
            </section>
            <CountersTable view=view_model/>
            {move || view_model.with(summary)}
            <section class="nodes" aria-label="Nodes">
                <For each=move || view_model.get().nodes key=|n| n.name.clone() let:node>
                    <NodeCard name=node.name.clone() view=view_model/>
                </For>
            </section>
            <section class="script" aria-label="Script">
                <h3>"Script"</h3>
                <ol>
                    {move || log.get().into_iter().map(|(i, text)| {
                        let state = match current_line.get() {
                            Some(c) if c == i => "running",
                            Some(c) if i < c => "done",
                            None => "done",
                            _ => "todo",
                        };
                        view! { <li class=state><code>{text}</code></li> }
                    }).collect_view()}
                </ol>
                <pre class="terminal" aria-label="Last command output">{move || last_output.get()}</pre>
            </section>
        </main>
    }
}

/// Per DaemonSet: where the controller should run pods (its verdicts) and its pods' tolerations.
fn summary(v: &ClusterView) -> impl IntoView {
    let desired = v
        .nodes
        .iter()
        .filter(|n| {
            n.verdicts
                .first()
                .is_some_and(|(_, e)| e.decision.should_run)
        })
        .count();
    let total = v.nodes.len();
    view! {
        <section class="ds" aria-label="DaemonSet verdicts">
            <div class="desired" data-testid="desired">
                <span class="big">{desired}</span>
                <span class="label">"SHOULD RUN"</span>
                <span class="hint">{format!("of {total} nodes, by the controller's rules")}</span>
            </div>
        </section>
    }
}

#[component]
fn CountersTable(view: Memo<ClusterView>) -> impl IntoView {
    let row = |c: &Counters| {
        view! {
            <tr data-ds=c.name.clone()>
                <td class="name">{c.name.clone()}</td>
                <td data-col="desired">{c.desired}</td>
                <td data-col="current">{c.current}</td>
                <td data-col="ready">{c.ready}</td>
                <td data-col="up-to-date">{c.up_to_date}</td>
                <td data-col="available">{c.available}</td>
                <td>{c.node_selector.clone()}</td>
                <td data-col="misscheduled">{c.misscheduled}</td>
                <td data-col="unavailable">{c.unavailable}</td>
            </tr>
        }
    };
    view! {
        <section class="counters" aria-label="DaemonSet counters">
            <table>
                <thead><tr>
                    <th>"NAME"</th><th>"DESIRED"</th><th>"CURRENT"</th><th>"READY"</th>
                    <th>"UP-TO-DATE"</th><th>"AVAILABLE"</th><th>"NODE SELECTOR"</th>
                    <th class="extra">"MISSCHEDULED"</th><th class="extra">"UNAVAILABLE"</th>
                </tr></thead>
                <tbody>{move || view.with(|v| v.daemon_sets.iter().map(row).collect_view())}</tbody>
            </table>
        </section>
    }
}

fn verdict_of(n: &NodeModel) -> Option<&NodeExplanation> {
    n.verdicts.first().map(|(_, e)| e)
}

#[component]
fn NodeCard(name: String, view: Memo<ClusterView>) -> impl IntoView {
    let node = {
        let name = name.clone();
        Memo::new(move |_| view.with(|v| v.nodes.iter().find(|n| n.name == name).cloned()))
    };
    let decision = move || {
        node.with(|n| match n.as_ref().and_then(verdict_of) {
            Some(e) if e.decision.should_run => "pod",
            _ => "no-pod",
        })
    };
    let keeps = move || {
        node.with(|n| match n.as_ref().and_then(verdict_of) {
            Some(e) if e.decision.should_continue_running => "yes",
            _ => "no",
        })
    };
    view! {
        <article class="node" data-node=name.clone() data-decision=decision data-continue=keeps
            aria-label=format!("node {name}")>
            {move || node.get().map(|n| node_body(&n))}
        </article>
    }
}

fn node_body(n: &NodeModel) -> impl IntoView {
    let verdict = verdict_of(n).cloned();
    let badge = match &verdict {
        Some(e) if e.decision.should_run => "pod",
        _ => "no pod",
    };
    let badge_class = if badge == "pod" {
        "badge pod"
    } else {
        "badge no-pod"
    };
    let not_ready = !n.status.starts_with("Ready");
    view! {
        <header>
            <h3>{n.name.clone()}</h3>
            <span class="role">{n.role}</span>
            <span class=if not_ready { "status bad" } else { "status" }>{n.status.clone()}</span>
            <span class=badge_class>{badge}</span>
        </header>
        <ul class="pods" aria-label="pods">
            {n.pods.iter().map(pod_chip).collect_view()}
        </ul>
        {(!n.taints.is_empty()).then(|| view! {
            <ul class="taints" aria-label="taints">
                {n.taints.iter().map(|t| view! { <li><code>{t.clone()}</code></li> }).collect_view()}
            </ul>
        })}
        {verdict.map(|e| explanation(&e))}
    }
}

fn pod_chip(p: &PodChip) -> impl IntoView {
    let class = format!(
        "pod {} {}",
        p.state.class(),
        if p.current_revision {
            "rev-new"
        } else {
            "rev-old"
        }
    );
    let label = match p.grace_left {
        Some(g) => format!("{} {:.0}s", p.state.as_str(), g.ceil()),
        None => p.state.as_str().to_string(),
    };
    let title = format!(
        "{} — {} — revision {}{}",
        p.name,
        p.state.as_str(),
        p.revision_hash,
        if p.current_revision {
            " (current)"
        } else {
            " (old)"
        }
    );
    view! {
        <li class=class title=title.clone() aria-label=title>
            <span class="pname">{p.name.clone()}</span>
            <span class="pstate">{label}</span>
        </li>
    }
}

fn explanation(e: &NodeExplanation) -> impl IntoView {
    let checks = e.checks.clone();
    let no_checks = checks.is_empty();
    view! {
        <p class="summary">{e.summary.clone()}</p>
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
    }
}
