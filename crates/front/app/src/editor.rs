//! The DaemonSet YAML editor: highlighting, line numbers, diagnostics at line:column while you
//! type (decoding and validation are the API server's, in `apiserver`), and Apply, which keeps
//! the last valid object when the text is invalid. Several DaemonSets: pick one or start a new
//! one.

use crate::Ctx;
use leptos::prelude::*;
use scenario::edit::Diagnostic as Diag;

const NEW_DAEMON_SET: &str = "apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-exporter
  namespace: default
spec:
  selector:
    matchLabels: {app: node-exporter}
  updateStrategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 1
  template:
    metadata:
      labels: {app: node-exporter}
    spec:
      containers:
      - name: exporter
        image: prom/node-exporter:v1.8.2
        resources:
          requests: {cpu: 50m, memory: 64Mi}
";

#[component]
pub(crate) fn YamlPanel() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let manifests = Memo::new(move |_| ctx.read(|s| s.manifests()));
    let chosen = RwSignal::new(manifests.with_untracked(|m| m.last().map(|(n, _)| n.clone())));
    let text = RwSignal::new(
        manifests
            .with_untracked(|m| m.last().map(|(_, t)| t.clone()))
            .unwrap_or_else(|| NEW_DAEMON_SET.to_string()),
    );
    let diags = Memo::new(move |_| {
        let t = text.get();
        ctx.sim.with_value(|s| s.diagnose(&t))
    });
    let result = RwSignal::new(None::<(bool, String)>);
    let apply = move |_| {
        let t = text.get();
        match ctx.mutate(|s| s.apply_yaml(&t)) {
            Some(Ok(out)) => {
                ctx.caption.set(format!("$ {}", out.command));
                ctx.terminal.update(|v| v.push(out.clone()));
                result.set(Some((out.ok, format!("$ {}\n{}", out.command, out.text))));
            }
            Some(Err(d)) => result.set(Some((
                false,
                format!(
                    "not applied: {} problem(s); the cluster keeps the last valid object",
                    d.len()
                ),
            ))),
            None => {}
        }
    };
    view! {
        <section class="yaml-editor" aria-label="DaemonSet YAML">
            <div class="editor-bar">
                <label>"Manifest "
                    <select aria-label="Manifest" on:change=move |ev| {
                        let v = event_target_value(&ev);
                        if v == "+new" {
                            chosen.set(None);
                            text.set(NEW_DAEMON_SET.to_string());
                        } else if let Some(t) = manifests.with(|m| m.iter().find(|(n, _)| *n == v).map(|(_, t)| t.clone())) {
                            chosen.set(Some(v));
                            text.set(t);
                        }
                        result.set(None);
                    }>
                        {move || manifests.get().into_iter().map(|(n, _)| {
                            let sel = chosen.get().as_deref() == Some(n.as_str());
                            view! { <option value=n.clone() selected=sel>{n.clone()}</option> }
                        }).collect_view()}
                        <option value="+new" selected=move || chosen.get().is_none()>"+ new DaemonSet"</option>
                    </select>
                </label>
                <button class="apply primary" on:click=apply
                    disabled=move || diags.with(|d| !d.is_empty())>"Apply"</button>
            </div>
            <CodeEditor text diags/>
            <p class="muted small" id="editor-keys">"Tab indents; Esc leaves the editor."</p>
            <ul class="diagnostics" aria-label="Problems" data-testid="diagnostics">
                {move || diags.get().into_iter().map(|d| view! {
                    <li class="diag" role="alert">
                        <span class="loc">{format!("{}:{}", d.line, d.column)}</span>
                        <span class="msg">{d.message.clone()}</span>
                        {d.hint.clone().map(|h| view! { <span class="hint">"hint: " {h}</span> })}
                    </li>
                }).collect_view()}
            </ul>
            {move || result.get().map(|(ok, text)| view! {
                <pre class=if ok { "terminal result" } else { "error result" }>{text}</pre>
            })}
        </section>
    }
}

/// A textarea over a highlighted copy of its text, with a gutter of line numbers.
#[component]
fn CodeEditor(text: RwSignal<String>, diags: Memo<Vec<Diag>>) -> impl IntoView {
    let highlight = NodeRef::<leptos::html::Pre>::new();
    let gutter = NodeRef::<leptos::html::Div>::new();
    let sync_scroll = move |ev: leptos::ev::Event| {
        use wasm_bindgen::JsCast;
        let Some(ta) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
        else {
            return;
        };
        if let Some(h) = highlight.get() {
            h.set_scroll_top(ta.scroll_top());
            h.set_scroll_left(ta.scroll_left());
        }
        if let Some(g) = gutter.get() {
            g.set_scroll_top(ta.scroll_top());
        }
    };
    let lines = move || text.with(|t| t.split('\n').count());
    let bad_lines = move || diags.with(|d| d.iter().map(|d| d.line).collect::<Vec<_>>());
    view! {
        <div class="code-editor">
            <div class="gutter" node_ref=gutter aria-hidden="true">
                {move || {
                    let bad = bad_lines();
                    (1..=lines()).map(|i| view! {
                        <span class:bad=bad.contains(&i)>{i}</span>
                    }).collect_view()
                }}
            </div>
            <div class="code-area">
                <pre class="highlight" node_ref=highlight aria-hidden="true">
                    {move || {
                        let bad = bad_lines();
                        text.with(|t| t.split('\n').enumerate().map(|(i, l)| {
                            let cls = if bad.contains(&(i + 1)) { "line bad" } else { "line" };
                            view! { <span class=cls>{highlight_line(l)}"\n"</span> }
                        }).collect_view())
                    }}
                </pre>
                <textarea aria-label="DaemonSet manifest (YAML)"
                    aria-describedby="editor-keys" spellcheck="false" autocomplete="off"
                    wrap="off"
                    prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))
                    on:scroll=sync_scroll
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                        // Tab inserts two spaces (YAML forbids tabs); Escape leaves the editor, so
                        // Tab moves on from there (no keyboard trap).
                        if ev.key() == "Tab" && !ev.shift_key() {
                            ev.prevent_default();
                            insert_at_cursor(&ev, "  ", text);
                        } else if ev.key() == "Escape" {
                            // To the YAML tab, not to the page's body: from there Tab comes
                            // back into the panel and the arrows go on to the other panels.
                            // Without the tabs (an embed), out of the editor all the same.
                            use wasm_bindgen::JsCast;
                            if !crate::keyboard::focus_element(&crate::Panel::Yaml.tab_id()) {
                                if let Some(ta) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) {
                                    let _ = ta.blur();
                                }
                            }
                        }
                    }></textarea>
            </div>
        </div>
    }
}

fn insert_at_cursor(ev: &leptos::ev::KeyboardEvent, s: &str, text: RwSignal<String>) {
    use wasm_bindgen::JsCast;
    let Some(ta) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
    else {
        return;
    };
    let value = ta.value();
    // selectionStart counts UTF-16 units.
    let start = ta.selection_start().ok().flatten().unwrap_or(0) as usize;
    let end = ta.selection_end().ok().flatten().unwrap_or(start as u32) as usize;
    let utf16: Vec<u16> = value.encode_utf16().collect();
    let (a, b) = (
        start.min(utf16.len()),
        end.min(utf16.len()).max(start.min(utf16.len())),
    );
    let new = format!(
        "{}{s}{}",
        String::from_utf16_lossy(&utf16[..a]),
        String::from_utf16_lossy(&utf16[b..])
    );
    ta.set_value(&new);
    let pos = (a + s.encode_utf16().count()) as u32;
    let _ = ta.set_selection_range(pos, pos);
    text.set(new);
}

/// One YAML line as classed spans: keys, strings, numbers, booleans, comments, and the YAML 1.1
/// words (`yes`, `no`, `on`, `off`) that decode as booleans, marked as pitfalls.
fn highlight_line(line: &str) -> impl IntoView {
    tokens(line)
        .into_iter()
        .map(|(class, s)| view! { <span class=class>{s}</span> })
        .collect_view()
}

pub(crate) fn tokens(line: &str) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let indent = line.len() - line.trim_start().len();
    if indent > 0 {
        out.push(("ws", line[..indent].to_string()));
    }
    let mut rest = &line[indent..];
    if rest.starts_with('#') {
        out.push(("comment", rest.to_string()));
        return out;
    }
    while let Some(r) = rest.strip_prefix("- ") {
        out.push(("punct", "- ".into()));
        rest = r;
    }
    if rest == "-" {
        out.push(("punct", "-".into()));
        return out;
    }
    // A comment starts at " #" outside quotes.
    let (body, comment) = split_comment(rest);
    let value = match key_split(body) {
        Some((key, after)) => {
            out.push(("key", key.to_string()));
            out.push(("punct", ":".into()));
            after
        }
        None => body,
    };
    if !value.is_empty() {
        let lead = value.len() - value.trim_start().len();
        if lead > 0 {
            out.push(("ws", value[..lead].to_string()));
        }
        let v = value.trim_start();
        let bare = v.trim_end();
        let class = scalar_class(bare);
        out.push((class, v.to_string()));
    }
    if let Some(c) = comment {
        out.push(("comment", c.to_string()));
    }
    out
}

fn split_comment(s: &str) -> (&str, Option<&str>) {
    let mut quote = None;
    let bytes = s.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match (quote, b) {
            (None, b'"') | (None, b'\'') => quote = Some(b),
            (Some(q), x) if x == q => quote = None,
            (None, b'#') if i > 0 && bytes[i - 1] == b' ' => return (&s[..i], Some(&s[i..])),
            _ => {}
        }
    }
    (s, None)
}

/// `key: value` → ("key", " value"), outside quotes and flow collections.
fn key_split(s: &str) -> Option<(&str, &str)> {
    if s.starts_with(['{', '[', '"', '\'']) {
        return None;
    }
    let bytes = s.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b':' && (i + 1 == bytes.len() || bytes[i + 1] == b' ') {
            return Some((&s[..i], &s[i + 1..]));
        }
    }
    None
}

fn scalar_class(v: &str) -> &'static str {
    match v {
        "" => "ws",
        "true" | "false" | "True" | "False" | "TRUE" | "FALSE" | "null" | "~" => "bool",
        // YAML 1.1 reads these as booleans: kubectl rejects `k42: yes` in a string map.
        "yes" | "no" | "on" | "off" | "Yes" | "No" | "On" | "Off" | "YES" | "NO" | "ON" | "OFF"
        | "y" | "n" | "Y" | "N" => "pitfall",
        "|" | ">" | "|-" | ">-" | "|+" | ">+" => "punct",
        _ if v.starts_with('"') || v.starts_with('\'') => "string",
        _ if v.starts_with(['{', '[']) => "flow",
        _ if v.parse::<f64>().is_ok() => "number",
        _ => "plain",
    }
}
