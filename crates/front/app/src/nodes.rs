//! The cluster: a card per node holding its pods (or a tile per node in compact mode), the
//! legend, and the "add nodes" form. Clicking a node opens its explanation.

use crate::{Ctx, Panel};
use controller::predicates::NodeExplanation;
use leptos::prelude::*;
use scenario::edit::Edit;
use scenario::view::{NodeCard as NodeModel, PodChip};
use std::collections::HashMap;
use std::sync::Arc;

/// `read_only`: no "Add nodes" (the compare view's variants must keep the same nodes), and no
/// landmark name of its own (the variant's section names it).
#[component]
pub(crate) fn ClusterPane(#[prop(optional)] read_only: bool) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let names = Memo::new(move |_| {
        ctx.vm
            .with(|v| v.nodes.iter().map(|n| n.name.clone()).collect::<Vec<_>>())
    });
    let index = Memo::new(move |_| {
        names.with(|n| {
            n.iter()
                .enumerate()
                .map(|(i, n)| (n.clone(), i))
                .collect::<HashMap<_, _>>()
        })
    });
    let adding = RwSignal::new(false);
    // Closing the form (Cancel, Esc, or nodes added) gives the focus back to its button.
    let close_adding = move || {
        adding.set(false);
        crate::keyboard::focus_element("add-nodes");
    };
    // The grid is one Tab stop (roving tabindex): the node focused last, or the first node.
    let stop = RwSignal::new(None::<String>);
    let tab_stop = Memo::new(move |_| {
        stop.with(|s| match s {
            Some(s) if index.with(|i| i.contains_key(s)) => Some(s.clone()),
            _ => names.with(|n| n.first().cloned()),
        })
    });
    let grid_focus = move |ev: leptos::ev::FocusEvent| {
        let name = crate::keyboard::as_element(ev.target())
            .and_then(|e| e.get_attribute(crate::keyboard::GRID_ITEM));
        if name.is_some() && stop.with_untracked(|s| *s != name) {
            stop.set(name);
        }
    };
    // The nodes that exist; a deleted node's card (still holding pods) is not one of them.
    let count = move || {
        ctx.vm
            .with(|v| v.nodes.iter().filter(|n| n.deleted.is_none()).count())
    };
    view! {
        <section class="cluster" aria-label=(!read_only).then_some("Nodes")>
            <div class="cluster-bar">
                <h3>{move || format!("{} nodes", count())}</h3>
                <Legend/>
                <label class="compact-toggle">
                    <input type="checkbox" prop:checked=move || ctx.compact.get()
                        on:change=move |ev| ctx.compact.set(event_target_checked(&ev))/>
                    " compact"
                </label>
                {(!read_only).then(|| view! {
                    <button class="add-nodes" id="add-nodes" aria-expanded=move || adding.get().to_string()
                        on:keydown=move |ev| if ev.key() == "Escape" { close_adding() }
                        on:click=move |_| adding.update(|a| *a = !*a)>"+ Add nodes"</button>
                })}
            </div>
            <Show when=move || adding.get()>
                <AddNodes close=close_adding/>
            </Show>
            {move || if ctx.compact.get() {
                view! { <Tiles tab_stop grid_focus/> }.into_any()
            } else {
                view! {
                    <div class="nodes" on:keydown=move |ev| crate::keyboard::grid_keys(&ev)
                        on:focusin=grid_focus>
                        <For each=move || names.get() key=|n| n.clone() let:name>
                            <NodeCard name index tab_stop/>
                        </For>
                    </div>
                }.into_any()
            }}
        </section>
    }
}

#[component]
fn Legend() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    // The orphan key only while there is an orphan to see.
    let orphans = Memo::new(move |_| {
        ctx.vm.with(|v| {
            v.nodes
                .iter()
                .flat_map(|n| &n.pods)
                .any(|p| p.owner.is_none())
        })
    });
    view! {
        <ul class="legend" aria-label="legend">
            <li><span class="swatch pending"></span>"Pending"</li>
            <li><span class="swatch creating"></span>"Creating"</li>
            <li><span class="swatch running"></span>"Running, not ready"</li>
            <li><span class="swatch ready"></span>"Ready"</li>
            <li><span class="swatch terminating"></span>"Terminating"</li>
            <li><span class="swatch failed"></span>"Failed / Evicted"</li>
            <li><span class="swatch trouble"></span>"container crashing or image failing"</li>
            <li><span class="swatch rev-new"></span>"current revision"</li>
            <li><span class="swatch rev-old"></span>"old revision"</li>
            <Show when=move || orphans.get()>
                <li><span class="swatch orphan"></span>"no owner (orphan)"</li>
            </Show>
        </ul>
    }
}

/// The model of one node, re-rendered only when that node changed.
fn node_memo(
    ctx: Ctx,
    name: String,
    index: Memo<HashMap<String, usize>>,
) -> Memo<Option<NodeModel>> {
    Memo::new(move |_| {
        let i = index.with(|m| m.get(&name).copied());
        ctx.vm.with(|v| i.and_then(|i| v.nodes.get(i)).cloned())
    })
}

fn first_verdict(n: &NodeModel) -> Option<&NodeExplanation> {
    n.verdicts.first().map(|(_, e)| e)
}

/// `pod` when the first DaemonSet should run a pod here, `refused` when it should but the API
/// server refuses the pod, `no-pod` otherwise (and `none` with no DaemonSet at all, `deleted`
/// for a node that is gone but still has pods).
fn decision(n: &NodeModel) -> &'static str {
    if n.deleted.is_some() {
        return "deleted";
    }
    match n.verdicts.first() {
        Some((ds, _)) if n.refused.contains(ds) => "refused",
        Some((_, e)) if e.decision.should_run => "pod",
        Some(_) => "no-pod",
        None => "none",
    }
}

/// Whether the first DaemonSet would place no pod here but lets the one it has keep running.
fn keeps_its_pod(n: &NodeModel) -> bool {
    n.verdicts.first().is_some_and(|(ds, e)| {
        !e.decision.should_run
            && e.decision.should_continue_running
            && n.pods.iter().any(|p| p.owner.as_ref() == Some(ds))
    })
}

/// A node that exists and is not Ready (a deleted node has a look of its own).
fn not_ready(n: &NodeModel) -> bool {
    n.deleted.is_none() && !n.status.starts_with("Ready")
}

fn select(ctx: Ctx, name: &str) {
    ctx.selected.set(Some(name.to_string()));
    ctx.panel.set(Panel::Explain);
    reveal_panels();
}

/// On a narrow screen the panels sit below the cluster, so a chosen node's explanation would
/// open out of sight and the click would seem to do nothing: the page scrolls the panels into
/// view, only when their top is below the fold (a wide layout, with the panels beside the
/// cluster, does not move).
fn reveal_panels() {
    request_animation_frame(|| {
        let Some(w) = web_sys::window() else { return };
        let Some(side) = w
            .document()
            .and_then(|d| d.query_selector(".side").ok().flatten())
        else {
            return;
        };
        let fold = w
            .inner_height()
            .ok()
            .and_then(|h| h.as_f64())
            .unwrap_or(f64::MAX);
        if side.get_bounding_client_rect().top() > fold - 120.0 {
            side.scroll_into_view_with_bool(true);
        }
    });
}

#[component]
fn NodeCard(
    name: String,
    index: Memo<HashMap<String, usize>>,
    tab_stop: Memo<Option<String>>,
) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let node = node_memo(ctx, name.clone(), index);
    let sel = {
        let name = name.clone();
        move || ctx.selected.with(|s| s.as_deref() == Some(name.as_str()))
    };
    let gone = departures(ctx, node);
    let click_name = name.clone();
    view! {
        <article class="node" data-node=name.clone()
            data-decision=move || node.with(|n| n.as_ref().map_or("none", decision))
            data-continue=move || node.with(|n| match n.as_ref().and_then(first_verdict) {
                Some(e) if e.decision.should_continue_running => "yes",
                _ => "no",
            })
            class:selected=sel.clone()
            class:in-wave=move || node.with(|n| n.as_ref().is_some_and(|n| n.in_wave))
            class:cordoned=move || node.with(|n| n.as_ref().is_some_and(|n| n.status.contains("SchedulingDisabled")))
            class:not-ready=move || node.with(|n| n.as_ref().is_some_and(not_ready))
            // A click anywhere on the card chooses the node; the keyboard reaches the name's
            // button in the header, whose click bubbles here.
            on:click=move |_| select(ctx, &click_name)>
            {move || node.get().map(|n| node_body(&n, gone, tab_stop))}
        </article>
    }
}

/// How long a deleted pod's chip stays on its card, fading out (the CSS animation's length).
const DEPARTURE: std::time::Duration = std::time::Duration::from_millis(700);
/// ... and at most this much virtual time: at 16× the animation would otherwise span 11
/// simulated seconds and sit beside the pod that replaced it.
const DEPARTURE_VIRTUAL_SECS: f64 = 2.0;

/// A pod that just left its node: (id, name, virtual time it left).
type Departure = (u64, String, f64);

/// The pods that just left a node: a pod deleted from the API vanishes from the
/// model at once, so its card shows a fading "deleted" chip for a moment. Only while time moves
/// forward: stepping back or resetting un-creates pods, which is not a deletion.
fn departures(ctx: Ctx, node: Memo<Option<NodeModel>>) -> RwSignal<Vec<Departure>> {
    let gone = RwSignal::new(Vec::new());
    // (virtual time, pod names) at the last change, and the next departure's id.
    let seen = StoredValue::new((f64::NEG_INFINITY, Vec::<String>::new(), 0u64));
    Effect::new(move |_| {
        let pods: Vec<String> = node.with(|n| {
            n.iter()
                .flat_map(|n| n.pods.iter().map(|p| p.name.clone()))
                .collect()
        });
        let t = ctx.sim.with_value(|s| s.elapsed());
        let (before_t, before, mut next) = seen.get_value();
        if t < before_t {
            gone.set(Vec::new());
        } else {
            for name in before.into_iter().filter(|p| !pods.contains(p)) {
                let id = next;
                next += 1;
                gone.update(|g| g.push((id, name, t)));
                set_timeout(
                    move || {
                        gone.try_update(|g| g.retain(|(i, _, _)| *i != id));
                    },
                    DEPARTURE,
                );
            }
        }
        seen.set_value((t, pods, next));
    });
    gone
}

/// The departures still shown: younger than [`DEPARTURE`] (the timeout removes them) and than
/// [`DEPARTURE_VIRTUAL_SECS`] of virtual time (the clock is followed only while there are some).
fn departed(ctx: Ctx, gone: RwSignal<Vec<Departure>>) -> Vec<String> {
    gone.with(|g| {
        if g.is_empty() {
            return Vec::new();
        }
        ctx.frame.track();
        still_shown(g, ctx.sim.with_value(|s| s.elapsed()))
    })
}

fn still_shown(departures: &[Departure], now: f64) -> Vec<String> {
    departures
        .iter()
        .filter(|(_, _, t)| now - t <= DEPARTURE_VIRTUAL_SECS)
        .map(|(_, name, _)| name.clone())
        .collect()
}

fn node_body(
    n: &NodeModel,
    gone: RwSignal<Vec<Departure>>,
    tab_stop: Memo<Option<String>>,
) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let verdict = first_verdict(n).cloned();
    let (badge, badge_class) = match decision(n) {
        "deleted" => ("node deleted", "badge deleted"),
        "refused" => ("pod refused", "badge refused"),
        "pod" => ("pod", "badge pod"),
        // shouldRun false but shouldContinueRunning true with the pod still there (a new
        // NoSchedule taint, an unreachable node): "no pod" beside a running pod would mislead.
        "no-pod" if keeps_its_pod(n) => ("pod stays", "badge no-pod"),
        "no-pod" => ("no pod", "badge no-pod"),
        _ => ("no DaemonSet", "badge none"),
    };
    let not_ready = not_ready(n);
    // Which DaemonSet the badge speaks for (the first; Explain lists them all).
    let badge_title = n
        .verdicts
        .first()
        .map(|(ds, e)| format!("DaemonSet {ds}: {}", e.summary));
    view! {
        <header>
            <h4><button type="button" class="node-pick" data-item=n.name.clone()
                tabindex=roving_tabindex(tab_stop, n.name.clone())
                aria-pressed={
                    let name = n.name.clone();
                    move || ctx.selected.with(|s| s.as_deref() == Some(name.as_str())).to_string()
                }>{n.name.clone()}</button></h4>
            <span class=badge_class title=badge_title>{badge}</span>
        </header>
        <p class="node-meta">
            <span class="role">{n.role}</span>
            <span class=match () {
                _ if n.deleted.is_some() => "status deleted",
                _ if not_ready => "status bad",
                _ => "status",
            }>{n.status.clone()}</span>
        </p>
        <ul class="pods" aria-label="pods">
            {n.pods.iter().map(pod_chip).collect_view()}
            {move || departed(ctx, gone).into_iter().map(|name| view! {
                <li class="gone" aria-hidden="true" data-gone=name.clone()>
                    <span class="pname">{name.clone()}</span>
                    <span class="pstate">"deleted"</span>
                </li>
            }).collect_view()}
        </ul>
        // Why a pod waits, fails or goes, in the API's words (e.g. the scheduler's message).
        {n.pods.iter().filter_map(|p| p.why.as_ref().or(p.orphan.as_ref()).map(|w| view! {
            <p class="why"><code>{p.name.clone()}</code>" "{w.clone()}</p>
        })).collect_view()}
        {(!n.labels.is_empty()).then(|| view! {
            <ul class="labels" aria-label="labels">
                {n.labels.iter().map(|l| view! { <li><code>{breakable(l)}</code></li> }).collect_view()}
            </ul>
        })}
        {(!n.taints.is_empty()).then(|| view! {
            <ul class="taints" aria-label="taints">
                {n.taints.iter().map(|t| view! { <li><code>{breakable(t)}</code></li> }).collect_view()}
            </ul>
        })}
        {verdict.map(|e| view! { <p class="summary">{e.summary.clone()}</p> })}
        {n.deleted.clone().map(|d| view! { <p class="summary">{d}</p> })}
        {(!n.capacity.is_empty()).then(|| view! {
            <p class="capacity" aria-label="allocatable">{n.capacity.clone()}</p>
        })}
    }
}

/// A label or taint with a line-break opportunity after each `/`, so that a long key wraps
/// after its prefix (`node-role.kubernetes.io/` | `control-plane`) rather than inside a word.
/// `<wbr>` leaves the text as it is when copied.
fn breakable(s: &str) -> impl IntoView {
    s.split_inclusive('/')
        .map(|part| view! { {part.to_string()}<wbr/> })
        .collect_view()
}

/// `rev-new` / `rev-old` for a DaemonSet's pod, `orphan` for a pod no DaemonSet owns (e.g.
/// after `kubectl delete ds --cascade=orphan`): it has no revision to be current or old to.
fn revision_class(p: &PodChip) -> &'static str {
    match (&p.owner, p.current_revision) {
        (None, _) => "orphan",
        (Some(_), true) => "rev-new",
        (Some(_), false) => "rev-old",
    }
}

pub(crate) fn pod_chip(p: &PodChip) -> impl IntoView {
    let mut class = format!("pod {} {}", p.state.class(), revision_class(p));
    if p.trouble.is_some() {
        class.push_str(" trouble");
    }
    // A crash-looping pod says so, with its restarts and when the kubelet may restart it.
    let label = match (p.grace_left, &p.trouble) {
        (Some(g), _) => format!("{} {:.0}s", p.state.as_str(), g.ceil()),
        (None, Some(t)) => {
            let mut l = t.clone();
            if let Some(n) = p.restarts.split(' ').next().filter(|n| !n.is_empty()) {
                l.push_str(&format!(" ↻{n}"));
            }
            if let Some(left) = p.restart_in {
                l.push_str(&format!(" · restarting in {:.0} s", left.ceil()));
            }
            l
        }
        // A pod that runs again after restarts says how many (a liveness restart, a crash).
        (None, None) => match p.restarts.split(' ').next().filter(|n| !n.is_empty()) {
            Some(n) => format!("{} ↻{n}", p.state.as_str()),
            None => p.state.as_str().to_string(),
        },
    };
    let title = format!(
        "{} — {} — revision {}{}{}",
        p.name,
        p.state.as_str(),
        p.revision_hash,
        match revision_class(p) {
            "orphan" => " (no owner: an orphan)",
            "rev-new" => " (current)",
            _ => " (old)",
        },
        p.why
            .as_deref()
            .or(p.orphan.as_deref())
            .map(|w| format!(" — {w}"))
            .unwrap_or_default()
    );
    let title = if p.restarts.is_empty() {
        title
    } else {
        format!("{title} — restarts {}", p.restarts)
    };
    view! {
        <li class=class title=title.clone() aria-label=title data-pod=p.name.clone()>
            <span class="pname">{p.name.clone()}</span>
            <span class="pstate">{label}</span>
        </li>
    }
}

/// How a node looks in compact mode: its tile's class and tooltip.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Tile {
    name: String,
    class: String,
    title: String,
}

fn tile(n: &NodeModel) -> Tile {
    let pod = n.pods.first();
    // `decides-…`, not the card's `pod`/`no-pod`: a tile is not a pod chip.
    let mut class = format!(
        "tile decides-{} {}",
        decision(n),
        pod.map_or("empty", |p| p.state.class())
    );
    if let Some(p) = pod {
        class.push(' ');
        class.push_str(revision_class(p));
        if p.trouble.is_some() {
            class.push_str(" trouble");
        }
    }
    if not_ready(n) {
        class.push_str(" not-ready");
    }
    if n.in_wave {
        class.push_str(" in-wave");
    }
    let title = format!(
        "{} — {} — {}",
        n.name,
        n.status,
        pod.map_or("no pod".to_string(), |p| format!(
            "{} {}{}",
            p.name,
            p.state.as_str(),
            p.why
                .as_deref()
                .map(|w| format!(" — {w}"))
                .unwrap_or_default()
        ))
    );
    Tile {
        name: n.name.clone(),
        class,
        title,
    }
}

/// Compact mode: one square per node, coloured by its daemon pod. One memo for all tiles, and
/// tiles keyed by their whole look, so a frame re-renders only the tiles that changed (smooth at
/// thousands of nodes). Shared (`Arc`): the list and its keys are handed out every frame, and
/// 5,000 tiles' strings copied twice a frame cost more than drawing them.
#[component]
fn Tiles(
    tab_stop: Memo<Option<String>>,
    grid_focus: impl Fn(leptos::ev::FocusEvent) + Copy + 'static,
) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let tiles = Memo::new(move |_| {
        ctx.vm.with(|v| {
            v.nodes
                .iter()
                .map(|n| Arc::new(tile(n)))
                .collect::<Vec<_>>()
        })
    });
    view! {
        <ul class="tiles" aria-label="nodes (compact)"
            on:keydown=move |ev| crate::keyboard::grid_keys(&ev) on:focusin=grid_focus>
            <For each=move || tiles.get() key=|t| t.clone() let:t>
                <li>
                    <button class=t.class.clone() data-node=t.name.clone() title=t.title.clone()
                        data-item=t.name.clone() tabindex=roving_tabindex(tab_stop, t.name.clone())
                        aria-label=t.title.clone() on:click=move |_| select(ctx, &t.name)></button>
                </li>
            </For>
        </ul>
    }
}

/// A grid item's `tabindex`: 0 for the grid's one Tab stop, -1 for the others (reached with
/// the arrows, `keyboard::grid_keys`).
fn roving_tabindex(tab_stop: Memo<Option<String>>, name: String) -> impl Fn() -> &'static str {
    move || {
        if tab_stop.with(|s| s.as_deref() == Some(name.as_str())) {
            "0"
        } else {
            "-1"
        }
    }
}

/// Adds N nodes from a template; each becomes a `node add` line in the script.
#[component]
fn AddNodes(close: impl Fn() + Copy + 'static) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let prefix = RwSignal::new("node".to_string());
    let count = RwSignal::new("1".to_string());
    let labels = RwSignal::new(String::new());
    let taints = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let words = |s: String| {
            s.split([' ', ','])
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        let n = count.get();
        let Ok(count) = n.trim().parse::<usize>() else {
            error.set(Some(format!(
                "“{n}” is not a number of nodes: type a whole number from 1 to {}",
                scenario::edit::MAX_ADD_NODES
            )));
            return;
        };
        let edit = Edit::AddNodes {
            prefix: prefix.get().trim().to_string(),
            count,
            labels: words(labels.get()),
            taints: words(taints.get()),
            capacity: None,
        };
        match ctx.edit(&edit) {
            Ok(()) => {
                error.set(None);
                close();
            }
            Err(e) => error.set(Some(e)),
        }
    };
    view! {
        <form class="add-form" on:submit=submit aria-label="Add nodes"
            on:keydown=move |ev| if ev.key() == "Escape" { close() }>
            <label>"Name prefix "<input aria-label="Name prefix" prop:value=move || prefix.get()
                on:input=move |ev| prefix.set(event_target_value(&ev))/></label>
            <label>"How many "<input aria-label="How many" type="number" min="1" max="1000"
                prop:value=move || count.get() on:input=move |ev| count.set(event_target_value(&ev))/></label>
            <label>"Labels "<input aria-label="Labels" placeholder="disk=ssd zone=a"
                prop:value=move || labels.get() on:input=move |ev| labels.set(event_target_value(&ev))/></label>
            <label>"Taints "<input aria-label="Taints" placeholder="gpu=true:NoSchedule"
                prop:value=move || taints.get() on:input=move |ev| taints.set(event_target_value(&ev))/></label>
            <button type="submit">"Add"</button>
            <button type="button" on:click=move |_| close()>"Cancel"</button>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_departure_is_shown_for_two_virtual_seconds_at_most() {
        let g = vec![(0, "a".to_string(), 10.0), (1, "b".to_string(), 11.5)];
        assert_eq!(still_shown(&g, 10.0), ["a", "b"]);
        assert_eq!(still_shown(&g, 12.0), ["a", "b"]);
        assert_eq!(still_shown(&g, 12.5), ["b"]);
        assert!(still_shown(&g, 14.0).is_empty());
    }
}
