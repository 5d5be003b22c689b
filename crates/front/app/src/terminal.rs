//! A `kubectl` prompt against the live cluster, with history (↑/↓). Output is the kubectl
//! layer's, byte for byte what `dsplay run` prints, except that bidi controls show as `\u202e`
//! (`gofmt::bidi_visible`).

use crate::Ctx;
use apiserver::gofmt::bidi_visible;
use leptos::prelude::*;

#[component]
pub(crate) fn TerminalPanel() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let line = RwSignal::new(String::new());
    // Position in the history while browsing with the arrows (None: editing a new line).
    let cursor = RwSignal::new(None::<usize>);
    let screen = NodeRef::<leptos::html::Pre>::new();
    let input = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        ctx.terminal.track();
        if let Some(s) = screen.get() {
            s.set_scroll_top(s.scroll_height());
        }
    });
    // Opened by a click, the prompt takes the focus; opened with the tab list's arrows, the
    // focus stays on the tab so that the next arrow goes on to the next panel.
    let by_keys = crate::keyboard::panel_chosen_by_keys();
    Effect::new(move |_| {
        if let Some(i) = input.get() {
            if !by_keys {
                let _ = i.focus();
            }
        }
    });
    let history = move || {
        ctx.terminal
            .with(|t| t.iter().map(|o| o.command.clone()).collect::<Vec<_>>())
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
        "Enter" => {
            let cmd = line.get().trim().to_string();
            if cmd.is_empty() {
                return;
            }
            if cmd == "clear" {
                ctx.terminal.set(Vec::new());
            } else {
                ctx.command(&cmd);
            }
            line.set(String::new());
            cursor.set(None);
        }
        "ArrowUp" => {
            ev.prevent_default();
            let h = history();
            if h.is_empty() {
                return;
            }
            let i = cursor.get().map_or(h.len() - 1, |i| i.saturating_sub(1));
            cursor.set(Some(i));
            line.set(h[i].clone());
        }
        "ArrowDown" => {
            ev.prevent_default();
            let h = history();
            match cursor.get() {
                Some(i) if i + 1 < h.len() => {
                    cursor.set(Some(i + 1));
                    line.set(h[i + 1].clone());
                }
                _ => {
                    cursor.set(None);
                    line.set(String::new());
                }
            }
        }
        _ => {}
    };
    view! {
        <section class="term" aria-label="Terminal">
            <pre class="terminal screen" node_ref=screen aria-live="polite" data-testid="terminal-output">
                // Commands and errors wrap (read whole); output keeps its columns (tables scroll).
                {move || ctx.terminal.with(|t| {
                    if t.is_empty() {
                        view! { <span class="wrap">
                            "Type a kubectl command, e.g. kubectl get ds -A, kubectl get pods -o wide,\n\
                             kubectl taint node worker2 dedicated=db:NoExecute, kubectl rollout undo ds/NAME.\n\
                             Simulation verbs too: node add NAME, node stop NAME, pod crash POD, pod fail POD, sleep 30s.\n"
                        </span> }.into_any()
                    } else {
                        // A bidi override in a line would turn the rest of it around.
                        t.iter().map(|o| view! {
                            <span class="wrap">{format!("$ {}\n", bidi_visible(&o.command))}</span>
                            <span class:wrap=!o.ok class:err=!o.ok>{bidi_visible(&o.text)}</span>
                        }).collect_view().into_any()
                    }
                })}
            </pre>
            <div class="prompt">
                <span aria-hidden="true">"$"</span>
                <input node_ref=input aria-label="kubectl command" spellcheck="false" autocomplete="off"
                    placeholder="kubectl get ds -A"
                    prop:value=move || line.get()
                    on:input=move |ev| line.set(event_target_value(&ev))
                    on:keydown=on_key/>
            </div>
        </section>
    }
}
