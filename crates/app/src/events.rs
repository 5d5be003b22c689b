//! Events, as `kubectl get events` prints them, filterable by object.

use crate::Ctx;
use leptos::prelude::*;

#[component]
pub(crate) fn EventsPanel() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let filter = RwSignal::new(String::new());
    let rows = Memo::new(move |_| {
        ctx.frame.track();
        let out = ctx.query("kubectl get events -A");
        let f = filter.get().to_lowercase();
        let mut lines = out.text.lines();
        let header = lines.next().unwrap_or_default().to_string();
        let body: Vec<String> = lines
            .filter(|l| f.is_empty() || l.to_lowercase().contains(&f))
            .map(str::to_string)
            .collect();
        (header, body)
    });
    view! {
        <section class="events" aria-label="Events">
            <label class="filter">"Filter by object "
                <input aria-label="Filter events" placeholder="pod/fluentd-x7k2p, node/worker2, daemonset/…"
                    prop:value=move || filter.get() on:input=move |ev| filter.set(event_target_value(&ev))/>
            </label>
            <pre class="terminal events-table" data-testid="events">
                {move || rows.with(|(h, b)| {
                    let mut s = h.clone();
                    s.push('\n');
                    for l in b {
                        s.push_str(l);
                        s.push('\n');
                    }
                    s
                })}
            </pre>
        </section>
    }
}
