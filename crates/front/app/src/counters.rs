//! The DaemonSet counters under the transport: `kubectl get ds`'s columns and two more, and the
//! rolling updates in progress. Every number is `scenario::view`'s.

use crate::Ctx;
use leptos::prelude::*;
use scenario::view::Counters;

/// What the numbers are, and hence why they trail the cards.
const STATUS_NOTE: &str = "The DaemonSet's status as the controller last wrote it: it changes \
     on the controller's next sync after a pod does, so it can trail the nodes below.";

/// `in_lane`: one of the compare view's variants, whose own section names it (a second
/// "DaemonSet counters" region per variant would give landmarks of the same name).
#[component]
pub(crate) fn CountersTable(#[prop(optional)] in_lane: bool) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let row = |c: &Counters| {
        view! {
            <tr data-ds=c.name.clone()>
                <td class="name">{c.name.clone()}</td>
                <td data-col="desired">{c.desired}</td>
                <td data-col="current">{c.current}</td>
                <td data-col="ready">{c.ready}</td>
                <td data-col="up-to-date">{c.up_to_date}</td>
                <td data-col="available">{c.available}</td>
                <td data-col="node-selector">{c.node_selector.clone()}</td>
                <td data-col="age">{c.age.clone()}</td>
                <td data-col="misscheduled" class="extra">{c.misscheduled}</td>
                <td data-col="unavailable" class="extra">{c.unavailable}</td>
            </tr>
        }
    };
    view! {
        <section class="counters" aria-label=(!in_lane).then_some("DaemonSet counters")>
            <table title=STATUS_NOTE>
                <caption class="visually-hidden">{STATUS_NOTE}</caption>
                <thead><tr>
                    <th>"NAME"</th><th>"DESIRED"</th><th>"CURRENT"</th><th>"READY"</th>
                    <th>"UP-TO-DATE"</th><th>"AVAILABLE"</th><th>"NODE SELECTOR"</th><th>"AGE"</th>
                    <th class="extra" title="pods on nodes that should not run one">"MISSCHEDULED"</th>
                    <th class="extra" title="nodes that should run an available pod and do not">"UNAVAILABLE"</th>
                </tr></thead>
                <tbody>{move || ctx.vm.with(|v| {
                    if v.daemon_sets.is_empty() {
                        view! { <tr><td colspan="10" class="muted">"No DaemonSet: apply one in the YAML panel or the terminal."</td></tr> }.into_any()
                    } else {
                        v.daemon_sets.iter().map(row).collect_view().into_any()
                    }
                })}</tbody>
            </table>
            <ul class="waves" aria-label="Rolling updates in progress" data-testid="waves">
                {move || ctx.vm.with(|v| v.waves.iter().map(|w| view! {
                    <li data-ds=w.daemon_set.clone()>
                        <b>{w.daemon_set.clone()}</b>" rolling update: "{w.words.clone()}
                        {w.waiting.clone().map(|x| view! { <span class="stalled">" — "{x}</span> })}
                    </li>
                }).collect_view())}
            </ul>
        </section>
    }
}
