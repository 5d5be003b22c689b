//! The Script panel: the scenario's script with the line running now marked, and the last
//! command's output.

use crate::Ctx;
use leptos::prelude::*;

/// The scenario's script, with the line running now marked, and the last command's output.
#[component]
pub(crate) fn ScriptPanel() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let lines = Memo::new(move |_| {
        ctx.read(|s| {
            let p = s.timeline.playback();
            let current = p.current_line();
            p.scenario
                .script
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let text = match &l.step {
                        scenario::Step::Run(c) => c.clone(),
                        scenario::Step::Expect { command, .. } => format!("expect: {command}"),
                    };
                    let state = match current {
                        Some(c) if c == i => "running",
                        Some(c) if i < c => "done",
                        None => "done",
                        _ => "todo",
                    };
                    (text, state)
                })
                .collect::<Vec<_>>()
        })
    });
    let last = Memo::new(move |_| {
        ctx.read(|s| {
            s.timeline
                .playback()
                .log
                .last()
                .map(|r| format!("$ {}\n{}", r.command, r.output))
                .unwrap_or_default()
        })
    });
    view! {
        <section class="script" aria-label="Script">
            // Focusable: it scrolls, and a keyboard must be able to scroll it.
            <ol tabindex="0" aria-label="Script lines">
                {move || lines.get().into_iter().map(|(text, state)| view! {
                    <li class=state><code>{text}</code></li>
                }).collect_view()}
            </ol>
            <pre class="terminal" aria-label="Last command output">{move || last.get()}</pre>
        </section>
    }
}
