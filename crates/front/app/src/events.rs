//! Events, as `kubectl get events` prints them, filterable by object.

use crate::Ctx;
use leptos::prelude::*;

/// Rows the table draws at most. A 5,000-node cluster has an event per pod created and more:
/// redrawing thousands of rows every frame brought the page to 2 frames a second, and no one
/// reads past a screenful without filtering.
const MAX_ROWS: usize = 200;

#[component]
pub(crate) fn EventsPanel() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let filter = RwSignal::new(String::new());
    let rows = Memo::new(move |_| {
        let f = filter.get();
        let f = f.trim();
        ctx.read(|s| {
            scenario::view::event_table(
                s.timeline.cluster(),
                (!f.is_empty()).then_some(f),
                MAX_ROWS,
            )
        })
    });
    view! {
        <section class="events" aria-label="Events">
            <label class="filter">"Filter by object "
                <input aria-label="Filter events" placeholder="pod/fluentd-x7k2p, node/worker2, daemonset/…"
                    prop:value=move || filter.get() on:input=move |ev| filter.set(event_target_value(&ev))/>
            </label>
            <table class="events-table" data-testid="events">
                <thead><tr><th>"LAST SEEN"</th><th>"TYPE"</th><th>"REASON"</th><th>"OBJECT"</th><th>"MESSAGE"</th></tr></thead>
                <tbody>
                    {move || rows.with(|t| {
                        let r = &t.rows;
                        if r.is_empty() {
                            view! { <tr><td colspan="5" class="muted">"No events."</td></tr> }.into_any()
                        } else {
                            r.iter().map(|e| view! {
                                <tr class=if e.type_ == "Warning" { "warning" } else { "" }>
                                    <td>{e.last_seen.clone()}</td><td>{e.type_.clone()}</td>
                                    <td>{e.reason.clone()}</td>
                                    <td><button class="link" on:click={
                                        let o = e.object.clone();
                                        move |_| filter.set(o.clone())
                                    }>{e.object.clone()}</button></td>
                                    <td>{e.message.clone()}</td>
                                </tr>
                            }).collect_view().into_any()
                        }
                    })}
                    {move || rows.with(|t| (t.total > t.rows.len()).then(|| {
                        let more = t.total - t.rows.len();
                        view! {
                            <tr class="more"><td colspan="5" class="muted">
                                {format!("… and {more} more events in this order (kubectl lists all {}): filter by object, e.g. node/… or pod/…, to see them", t.total)}
                            </td></tr>
                        }
                    }))}
                </tbody>
            </table>
        </section>
    }
}
