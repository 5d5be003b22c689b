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
        let n = &c.counts;
        view! {
            <tr data-ds=n.name.clone()>
                <td class="name">{n.name.clone()}</td>
                <td data-col="desired">{n.desired}</td>
                <td data-col="current">{n.current}</td>
                <td data-col="ready">{n.ready}</td>
                <td data-col="up-to-date">{n.up_to_date}</td>
                <td data-col="available">{n.available}</td>
                <td data-col="node-selector">{c.node_selector.clone()}</td>
                <td data-col="age">{c.age.clone()}</td>
                <td data-col="misscheduled" class="extra">{c.misscheduled}</td>
                <td data-col="unavailable" class="extra">{n.unavailable}</td>
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

/// What a screen reader hears after Step or Pause (never while playing): the time, each
/// DaemonSet's counters in words, and whether anything more will happen. `t` in seconds.
pub(crate) fn spoken_summary(t: f64, daemon_sets: &[Counters], at_rest: bool) -> String {
    let mut words = format!("t = {t:.1}s.");
    if daemon_sets.is_empty() {
        words.push_str(" No DaemonSet.");
    }
    for c in daemon_sets.iter().map(|c| &c.counts) {
        words.push_str(&format!(
            " {}: {} desired, {} current, {} ready, {} up to date, {} available.",
            c.name, c.desired, c.current, c.ready, c.up_to_date, c.available
        ));
    }
    if at_rest {
        words.push_str(" At rest: nothing more will happen.");
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ds(name: &str, n: [i32; 5]) -> Counters {
        Counters {
            counts: scenario::SampleCounts {
                namespace: "default".into(),
                name: name.into(),
                desired: n[0],
                current: n[1],
                ready: n[2],
                up_to_date: n[3],
                available: n[4],
                unavailable: n[0] - n[4],
            },
            misscheduled: 0,
            node_selector: "<none>".into(),
            age: "5s".into(),
            current_hash: "abc".into(),
        }
    }

    #[test]
    fn the_summary_says_every_counter_of_every_daemon_set_and_whether_more_will_happen() {
        let sets = [ds("agent", [4, 4, 3, 2, 3]), ds("logs", [2, 0, 0, 0, 0])];
        assert_eq!(
            spoken_summary(12.04, &sets, false),
            "t = 12.0s. agent: 4 desired, 4 current, 3 ready, 2 up to date, 3 available. \
             logs: 2 desired, 0 current, 0 ready, 0 up to date, 0 available."
        );
        assert_eq!(
            spoken_summary(0.0, &[], true),
            "t = 0.0s. No DaemonSet. At rest: nothing more will happen."
        );
    }
}
