//! Getting scenarios in and out: share link, embed snippet, download and open (file picker and
//! drag-and-drop), import of a real cluster's nodes, and the kind bundle to run the scenario on a
//! real cluster. The formats are the `scenario` crate's (`share`, `write`, `import`, `export`).

use crate::{persist, Ctx, Start, Theme};
use leptos::prelude::*;
use scenario::share::{link_warning, ShareView};
use wasm_bindgen::JsCast;

/// Asks the user (a blocking `confirm`); true when there is no window to ask in.
pub(crate) fn confirm(question: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.confirm_with_message(question).ok())
        .unwrap_or(true)
}

/// Offers `contents` as a file download.
fn download(name: &str, contents: &str, mime: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(contents));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)
        .map_err(|_| "the browser refused to make the file".to_string())?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)
        .map_err(|_| "the browser refused to make a download link".to_string())?;
    let a: web_sys::HtmlAnchorElement = document()
        .create_element("a")
        .map_err(|_| "no document".to_string())?
        .unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Offers a scenario as its YAML file, `<id>.yaml` (the toolbar's Download YAML, the crash
/// banner's Download scenario).
pub(crate) fn download_scenario(sc: &scenario::Scenario) -> Result<(), String> {
    let name = format!(
        "{}.yaml",
        if sc.id.is_empty() { "scenario" } else { &sc.id }
    );
    download(&name, &scenario::write::to_yaml(sc), "application/yaml")
}

/// The file just picked in an `<input type=file>` ([`read_file`]); the input is emptied, so
/// picking the same file again (after editing it) reads it again.
fn read_picked_file(ev: &web_sys::Event, then: impl FnOnce(String, String) + 'static) {
    let input: Option<web_sys::HtmlInputElement> = ev.target().and_then(|t| t.dyn_into().ok());
    if let Some(f) = input
        .as_ref()
        .and_then(|i| i.files())
        .and_then(|f| f.get(0))
    {
        read_file(f, then);
    }
    if let Some(i) = input {
        i.set_value("");
    }
}

/// Reads a file the user picked or dropped, then hands its text to `then`.
fn read_file(file: web_sys::File, then: impl FnOnce(String, String) + 'static) {
    let name = file.name();
    leptos::task::spawn_local(async move {
        let text = wasm_bindgen_futures::JsFuture::from(file.text())
            .await
            .ok()
            .and_then(|v| v.as_string());
        match text {
            Some(t) => then(name, t),
            None => then(name, String::new()),
        }
    });
}

/// A scenario file's text, checked as every opened file is (file:line:column and a hint), ready
/// to start; the error is the message to show. The file picker, drag-and-drop and the Embed
/// API's `dsplay:load` all open files through it.
pub(crate) fn open_scenario(name: &str, text: &str) -> Result<Start, String> {
    scenario::parse(name, text)
        .map_err(|e| e.to_string())
        .and_then(|s| Start::scenario(s, None, None))
        .map_err(|e| format!("{name} was not opened: {e}"))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tool {
    Share,
    Embed,
    Import,
    Export,
}

impl Tool {
    /// The id of the button that opens and closes the tool's dialog.
    fn button_id(self) -> &'static str {
        match self {
            Tool::Share => "tool-share",
            Tool::Embed => "tool-embed",
            Tool::Import => "tool-import",
            Tool::Export => "tool-export",
        }
    }
}

/// The toolbar under the story, and the dialog of the tool in use.
#[component]
pub(crate) fn Tools(
    restart: RwSignal<Start, LocalStorage>,
    theme: RwSignal<Theme>,
    edited: Signal<bool>,
) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let tool = RwSignal::new(None::<Tool>);
    let message = RwSignal::new(None::<(bool, String)>);
    let toggle = move |t: Tool| tool.update(|x| *x = if *x == Some(t) { None } else { Some(t) });

    // Opening a scenario file (picker or drop) replaces the session.
    let open_text = move |name: String, text: String| {
        if edited.get_untracked()
            && !confirm("Open this file and discard your edits to the current scenario?")
        {
            return;
        }
        match open_scenario(&name, &text) {
            Ok(s) => restart.set(s),
            Err(e) => message.set(Some((false, e))),
        }
    };
    let drop_listener = window_event_listener(leptos::ev::drop, move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        let file = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0));
        if let Some(f) = file {
            read_file(f, open_text);
        }
    });
    let over_listener = window_event_listener(leptos::ev::dragover, |ev: web_sys::DragEvent| {
        ev.prevent_default()
    });
    on_cleanup(move || {
        drop_listener.remove();
        over_listener.remove();
    });

    let download_yaml = move |_| {
        if let Err(e) = ctx.read(|s| download_scenario(s.scenario())) {
            message.set(Some((false, e)));
        }
    };
    let reset_to_preset = move |_| {
        let Some(id) = restart.with_untracked(|s| s.preset.clone()) else {
            return;
        };
        if edited.get_untracked()
            && !confirm("Discard every edit and go back to the preset as it ships?")
        {
            return;
        }
        match Start::preset(&id) {
            Ok(s) => restart.set(s),
            Err(e) => message.set(Some((false, e))),
        }
    };
    let has_preset = move || restart.with(|s| s.preset.is_some());
    // Esc closes the open dialog, from its button or from inside it, and gives the focus back
    // to its button.
    let escape = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() != "Escape" {
            return;
        }
        if let Some(t) = tool.get_untracked() {
            tool.set(None);
            crate::keyboard::focus_element(t.button_id());
        }
    };
    view! {
        <div class="tools" role="toolbar" aria-label="Scenario" on:keydown=escape>
            <button id=Tool::Share.button_id() aria-expanded=move || (tool.get() == Some(Tool::Share)).to_string()
                on:click=move |_| toggle(Tool::Share)>"Share link"</button>
            <button id=Tool::Embed.button_id() aria-expanded=move || (tool.get() == Some(Tool::Embed)).to_string()
                on:click=move |_| toggle(Tool::Embed)>"Embed"</button>
            <button on:click=download_yaml>"Download YAML"</button>
            <label class="button">"Open file…"
                <input type="file" accept=".yaml,.yml,.json" class="visually-hidden" aria-label="Open a scenario file"
                    on:change=move |ev| read_picked_file(&ev, open_text)/>
            </label>
            <button id=Tool::Import.button_id() aria-expanded=move || (tool.get() == Some(Tool::Import)).to_string()
                on:click=move |_| toggle(Tool::Import)>"Import nodes"</button>
            <button id=Tool::Export.button_id() aria-expanded=move || (tool.get() == Some(Tool::Export)).to_string()
                on:click=move |_| toggle(Tool::Export)>"Run on a real cluster"</button>
            <Show when=has_preset>
                <button class="danger" on:click=reset_to_preset
                    title="Back to the preset as it ships: every edit to this scenario is discarded"
                    disabled=move || !edited.get()>"Discard edits"</button>
            </Show>
            {move || match ctx.unsaved.get() {
                Some(why) => Some(view! {
                    <span class="unsaved" role="status" data-testid="unsaved">
                        {format!("● not saved in this browser: {why}. Download YAML or a share link keeps it.")}
                    </span>
                }.into_any()),
                None => edited.get().then(|| view! { <span class="edited" title="edits are saved in this browser and travel in share links">"● edited"</span> }.into_any()),
            }}
        </div>
        {move || message.get().map(|(ok, m)| view! {
            <pre class=if ok { "tool-message" } else { "tool-message error" } role="alert">{m}</pre>
        })}
        {move || tool.get().map(|t| view! {
            <div class="tool-keys" on:keydown=escape>
                {match t {
                    Tool::Share => view! { <ShareDialog theme/> }.into_any(),
                    Tool::Embed => view! { <EmbedDialog/> }.into_any(),
                    Tool::Import => view! { <ImportDialog restart/> }.into_any(),
                    Tool::Export => view! { <ExportDialog/> }.into_any(),
                }}
            </div>
        })}
    }
}

#[component]
fn ShareDialog(theme: RwSignal<Theme>) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let link = Memo::new(move |_| {
        let view = ShareView {
            panel: Some(ctx.panel.get().id().to_string()),
            theme: theme.get().share_id(),
            lesson: crate::lesson::shared(),
        };
        ctx.read(|s| {
            let f = scenario::share::fragment(s.scenario(), &view, Some(s.elapsed()));
            (format!("{}{}", persist::base_url(), f), f)
        })
    });
    let copied = RwSignal::new(String::new());
    let copy = move |_| {
        let (url, fragment) = link.get_untracked();
        persist::replace_address(&fragment);
        persist::copy_to_clipboard(&url, "link", copied);
    };
    view! {
        <div class="dialog-inline" aria-label="Share link">
            <p>"A link that replays this scenario — nodes, DaemonSets, every edit in the script — and opens at the current time."</p>
            <textarea readonly class="link" aria-label="Share link" rows="3" prop:value=move || link.get().0></textarea>
            <div class="row">
                <button class="primary" on:click=copy>"Copy link"</button>
                <span class="muted">{move || format!("{} characters", link.with(|l| l.0.len()))}</span>
            </div>
            <p class="copied" role="status" data-testid="copy-status">{move || copied.get()}</p>
            {move || link.with(|l| link_warning(l.0.len()).map(|w| w.message(l.0.len())))
                .map(|m| view! { <p class="warn" role="status">{m}</p> })}
        </div>
    }
}

#[component]
fn EmbedDialog() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let panel = RwSignal::new(String::new());
    let autoplay = RwSignal::new(true);
    let copied = RwSignal::new(String::new());
    let snippet = Memo::new(move |_| {
        let base = persist::base_url();
        let mut q = String::from("?embed=1");
        if autoplay.get() {
            q.push_str("&autoplay=1");
        }
        let p = panel.get();
        if !p.is_empty() {
            q.push_str(&format!("&panel={p}"));
        }
        let lesson = crate::lesson::shared();
        let (preset, fragment) = ctx.read(|s| {
            let sc = s.scenario();
            let pristine = lesson.is_none()
                && scenario::presets::get(&sc.id)
                    .and_then(|p| scenario::parse(p.file, p.text).ok())
                    .is_some_and(|p| p.same_content(sc));
            (
                pristine.then(|| sc.id.clone()),
                s.share_fragment(None, lesson),
            )
        });
        let src = match preset {
            Some(id) => format!("{base}{q}&preset={id}"),
            None => format!("{base}{q}{fragment}"),
        };
        format!(
            "<iframe src=\"{}\" title=\"DaemonSet Playground\" width=\"100%\" height=\"560\" \
             style=\"border:1px solid #ddd;border-radius:8px\" sandbox=\"allow-scripts\" loading=\"lazy\"></iframe>",
            src.replace('&', "&amp;").replace('"', "&quot;")
        )
    });
    view! {
        <div class="dialog-inline" aria-label="Embed snippet">
            <p>"Paste this into a docs page. It runs in a sandboxed iframe: scripts only, no access to the page around it."</p>
            <div class="row">
                <label><input type="checkbox" prop:checked=move || autoplay.get()
                    on:change=move |ev| autoplay.set(event_target_checked(&ev))/>" autoplay"</label>
                <label>"panel "
                    <select aria-label="Embedded panel" on:change=move |ev| panel.set(event_target_value(&ev))>
                        <option value="">"none"</option>
                        <option value="events">"events"</option>
                        <option value="chart">"chart"</option>
                        <option value="terminal">"terminal"</option>
                    </select>
                </label>
            </div>
            <textarea readonly class="link" aria-label="Embed snippet" rows="4" prop:value=move || snippet.get()></textarea>
            <button class="primary" on:click=move |_| {
                persist::copy_to_clipboard(&snippet.get_untracked(), "embed snippet", copied);
            }>"Copy embed snippet"</button>
            <p class="copied" role="status" data-testid="copy-status">{move || copied.get()}</p>
        </div>
    }
}

#[component]
fn ImportDialog(restart: RwSignal<Start, LocalStorage>) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let text = RwSignal::new(String::new());
    let replace = RwSignal::new(true);
    let result = RwSignal::new(None::<(bool, String)>);
    let run = move |name: String, input: String| {
        let mut sc = ctx.read(|s| s.scenario().clone());
        let how = if replace.get_untracked() {
            scenario::import::Merge::Replace
        } else {
            scenario::import::Merge::Add
        };
        let clock = web_sys::window().and_then(|w| w.performance());
        let now = move || clock.as_ref().map_or(0.0, |p| p.now());
        let t0 = now();
        let imported = scenario::import::import_nodes(&name, &input).and_then(|nodes| {
            let n = nodes.iter().map(|e| e.names.len()).sum::<usize>();
            scenario::import::merge_nodes(&mut sc, nodes, how, &name).map(|_| n)
        });
        let import_ms = now() - t0;
        let outcome = imported
            .map_err(|e| e.to_string())
            .and_then(|n| Start::scenario(sc, None, None).map(|s| (n, s)));
        match outcome {
            Ok((n, mut s)) => {
                // The caption of the restarted playground says what happened (this dialog
                // goes with the old one).
                s.note = Some(format!(
                    "imported {n} nodes from {name} in {import_ms:.0} ms; the scenario started again with them in {:.0} ms more",
                    now() - t0 - import_ms
                ));
                restart.set(s);
            }
            Err(e) => result.set(Some((false, e))),
        }
    };
    view! {
        <div class="dialog-inline" aria-label="Import nodes">
            <p>"Paste the output of " <code>"kubectl get nodes -o yaml"</code> " (or " <code>"-o json"</code>
               ", or Node manifests). Names, labels, taints, capacity, allocatable, conditions and cordons are kept; the rest is dropped."</p>
            <textarea aria-label="Nodes to import" rows="8" spellcheck="false" placeholder="apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  …"
                prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            <div class="row">
                <label><input type="radio" name="merge" prop:checked=move || replace.get() on:change=move |_| replace.set(true)/>" replace the scenario's nodes"</label>
                <label><input type="radio" name="merge" prop:checked=move || !replace.get() on:change=move |_| replace.set(false)/>" add to them"</label>
            </div>
            <div class="row">
                <button class="primary" on:click=move |_| run("pasted nodes".into(), text.get_untracked())>"Import"</button>
                <label class="button">"…or open a file"
                    <input type="file" accept=".yaml,.yml,.json" class="visually-hidden" aria-label="Open a nodes file"
                        on:change=move |ev| read_picked_file(&ev, run)/>
                </label>
            </div>
            {move || result.get().map(|(ok, m)| view! {
                <pre class=if ok { "tool-message" } else { "tool-message error" } role="alert">{m}</pre>
            })}
        </div>
    }
}

#[component]
fn ExportDialog() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let bundle = Memo::new(move |_| {
        ctx.read(|s| scenario::export::kind_bundle(s.scenario(), "DaemonSet Playground"))
            .map_err(|e| e.to_string())
    });
    view! {
        <div class="dialog-inline" aria-label="Run on a real cluster">
            <p>"Create a kind cluster with the same nodes, apply the manifests, and replay the script with its waits:"</p>
            <pre class="code">"kind create cluster --config kind-config.yaml\nbash replay.sh"</pre>
            {move || match bundle.get() {
                Ok(files) => files.into_iter().map(|f| {
                    let name = f.name.clone();
                    let contents = f.contents.clone();
                    view! {
                        <details class="yaml export-file">
                            <summary>{f.name.clone()}
                                <button class="small" on:click=move |ev| {
                                    ev.prevent_default();
                                    let _ = download(&name, &contents, "text/plain");
                                }>"Download"</button>
                            </summary>
                            <pre class="code">{f.contents}</pre>
                        </details>
                    }
                }).collect_view().into_any(),
                Err(e) => view! { <pre class="error">{e}</pre> }.into_any(),
            }}
        </div>
    }
}
