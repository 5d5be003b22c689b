//! The page's shell: [`App`] opens what `session::choose` decided, with the notices around it,
//! and [`Playground`] lays out a scenario playing (story, transport, counters, the cluster, the
//! side panels) and starts its clock, keyboard and autosave.

use crate::autosave::{autosave, Saves};
use crate::counters::CountersTable;
use crate::keyboard::{focus_element, KeyboardHelp};
use crate::script::ScriptPanel;
use crate::session::{Choice, Keep, Opening, Start};
use crate::theme::{Theme, ThemeSwitch};
use crate::{
    chart, compare, editor, embed_api, events, explain, files, keyboard, lesson, nodes, persist,
    terminal, transport, Ctx, Panel,
};
use leptos::prelude::*;
use std::time::Duration;

/// How often the clock ticks while playing; at 1× a tick is this much virtual time.
pub(crate) const TICK: Duration = Duration::from_millis(50);

/// Above this many nodes the cluster is drawn as tiles (compact mode) by default.
const COMPACT_ABOVE: usize = 40;

/// The page: what [`crate::session::choose`] opens (a share link, else the autosaved session,
/// else a preset; a lesson, the compare page), with the notices; in embed mode, the cluster
/// only.
#[component]
pub fn App() -> impl IntoView {
    let opts = persist::page_options();
    let Choice {
        start: first,
        theme: theme0,
        mut notices,
        opened,
        keep,
    } = match crate::session::choose(&opts, &mut persist::Browser) {
        Opening::Compare => return view! { <compare::ComparePage opts/> }.into_any(),
        Opening::UnknownLesson(id) => return view! { <lesson::UnknownLesson id/> }.into_any(),
        Opening::Playground(choice) => *choice,
    };
    let kept = match (&first, keep) {
        (Ok(start), Keep::Aside) => persist::keep_saved_aside(start.sim.scenario())
            .unwrap_or_else(|e| {
                notices.push(e);
                None
            })
            .map(|key| Kept {
                key,
                from_tab: false,
            }),
        // The saved session is the tab saved last; another tab's may be kept aside.
        (Ok(_), Keep::OfferOtherTab) => persist::newest_tab_kept().map(|key| Kept {
            key,
            from_tab: true,
        }),
        _ => None,
    };
    if !opts.embed {
        persist::reload_on_new_link();
    }
    let theme = RwSignal::new(Theme::from_id(theme0.as_deref().unwrap_or_default()));
    Effect::new(move |_| theme.get().apply());
    let notice = RwSignal::new((!notices.is_empty()).then(|| notices.join("\n\n")));
    let kept = RwSignal::new(kept);
    match first {
        Ok(start) => {
            let start = RwSignal::new_local(start);
            let opts = StoredValue::new(opts);
            view! {
                <div class="app" class:embed=move || opts.with_value(|o| o.embed)>
                    {move || notice.get().map(|n| view! {
                        <div class="notice" role="alert" data-testid="notice">
                            <pre>{n}</pre>
                            <button on:click=move |_| notice.set(None)>"Dismiss"</button>
                        </div>
                    })}
                    {move || kept.get().map(|Kept { key, from_tab }| {
                        let what = persist::describe_kept(&key);
                        let said = if from_tab {
                            format!("This page opened the session saved last. Another tab's session, open at the same time ({what}), was kept aside in this browser.")
                        } else {
                            format!("This page opened {opened}. Your previous session ({what}) was kept aside in this browser.")
                        };
                        let dismissed = key.clone();
                        view! {
                        <div class="notice kept" role="status" data-testid="kept">
                            <p>{said}</p>
                            <button on:click=move |_| {
                                match persist::take_kept(&key).and_then(Start::shared) {
                                    Ok(s) => {
                                        persist::clear_address();
                                        start.set(s);
                                        kept.set(None);
                                    }
                                    Err(e) => notice.set(Some(format!(
                                        "Your previous session could not be restored: {e}"
                                    ))),
                                }
                            }>"Restore it"</button>
                            <button on:click=move |_| {
                                // Not offered again, still kept.
                                if from_tab {
                                    persist::archive_kept(&dismissed);
                                }
                                kept.set(None);
                            }>"Dismiss"</button>
                        </div>
                    }})}
                    {move || {
                        let s = start.get();
                        view! { <Playground start=s restart=start theme opts=opts.get_value()/> }
                    }}
                </div>
            }
            .into_any()
        }
        Err(e) => view! {
            <main class="app">
                <h1>"DaemonSet Playground"</h1>
                <p class="error" role="alert">{e}</p>
            </main>
        }
        .into_any(),
    }
}

/// A session kept aside that the page offers to restore: the one a link or `?preset=` replaced,
/// or another tab's (`from_tab`).
#[derive(Clone)]
struct Kept {
    key: String,
    from_tab: bool,
}

/// The title line of a preset file, for the menu.
fn preset_title(p: &scenario::presets::Preset) -> String {
    scenario::parse(p.file, p.text)
        .map(|s| s.title)
        .unwrap_or_else(|_| p.id.to_string())
}

/// A scenario playing: story, transport, counters, the cluster, and the side panels. `restart`
/// replaces the whole session (another preset, an opened file, imported nodes).
#[component]
pub fn Playground(
    start: Start,
    restart: RwSignal<Start, LocalStorage>,
    theme: RwSignal<Theme>,
    opts: persist::PageOptions,
) -> impl IntoView {
    let Start {
        mut sim,
        base,
        preset,
        t,
        panel,
        note,
        lesson,
    } = start;
    if let Some(t) = t {
        sim.seek_forward(t);
    }
    let title = sim.scenario().title.clone();
    let story = sim.scenario().description.clone();
    let try_this = sim.scenario().try_this.clone();
    let many = sim.view().nodes.len() > COMPACT_ABOVE;
    let embed = opts.embed;
    let sim = StoredValue::new_local(sim);
    let frame = RwSignal::new(0u64);
    let vm = Memo::new(move |_| {
        frame.track();
        sim.with_value(|s| s.view())
    });
    let ctx = Ctx {
        sim,
        frame,
        vm,
        playing: RwSignal::new(opts.autoplay),
        speed: RwSignal::new(opts.speed.unwrap_or(1.0)),
        selected: RwSignal::new(None),
        panel: RwSignal::new(panel.unwrap_or(Panel::Explain)),
        caption: RwSignal::new(note.unwrap_or_else(|| {
            "Press Play (Space), or Step (→) to move to the next change.".to_string()
        })),
        terminal: RwSignal::new(Vec::new()),
        compact: RwSignal::new(many),
        unsaved: RwSignal::new(None),
    };
    provide_context(ctx);
    let base = StoredValue::new_local(base);
    let edited = move || ctx.read(|s| base.with_value(|b| !s.scenario().same_content(b)));
    let lesson_id = lesson.as_ref().map(|l| l.lesson.id.clone());
    let live = lesson.map(lesson::Live::provide);
    let in_lesson = live.is_some();
    match live {
        None if !embed => autosave(ctx, Saves::Session(theme)),
        Some(live) if live.saves() => autosave(ctx, Saves::Lesson(live)),
        _ => {}
    }
    let change_preset = move |id: String| {
        if in_lesson {
            // A page load: the lesson is saved, and the saved session is kept aside as for
            // any `?preset=` link.
            persist::navigate(&format!("{}?preset={id}", persist::base_url()));
            return true;
        }
        if edited() && !files::confirm("Switch preset and discard your edits to this scenario?") {
            return false;
        }
        match Start::preset(&id) {
            Ok(s) => {
                restart.set(s);
                true
            }
            Err(e) => {
                ctx.caption.set(e);
                false
            }
        }
    };

    let handle = set_interval_with_handle(
        move || {
            let seeking = ctx
                .sim
                .try_with_value(crate::Sim::seeking)
                .flatten()
                .is_some();
            if ctx.playing.get_untracked() || seeking {
                let dt = TICK.as_secs_f64() * ctx.speed.get_untracked();
                // While it plays, the caption follows the latest change on screen; while a
                // far seek goes on, it says where to.
                let latest = ctx.mutate(|s| {
                    s.advance(dt);
                    match s.seeking() {
                        Some(t) => Some(format!("seeking to t={t:.1}s …")),
                        None => s.latest_caption(),
                    }
                });
                if let Some(Some(c)) = latest {
                    if ctx.caption.with_untracked(|now| *now != c) {
                        ctx.caption.set(c);
                    }
                }
            }
        },
        TICK,
    );
    if let Ok(h) = handle {
        on_cleanup(move || h.clear());
    }
    let help = RwSignal::new(false);
    keyboard::shortcuts(ctx, help);

    let controls = opts.controls;
    if embed {
        let extra = opts.panel.as_deref().and_then(Panel::from_id);
        return view! {
            <main class="page embed-page">
                <embed_api::EmbedApi restart/>
                // The same heading levels as the playground's: the page (h1), the scenario (h2),
                // the cluster (h3), a node (h4).
                <h1 class="visually-hidden">"DaemonSet Playground"</h1>
                <header class="embed-head">
                    <h2 class="embed-title">{title}</h2>
                    <a href=move || format!("{}{}", persist::base_url(), ctx.read(|s| s.share_fragment(None, lesson::shared())))
                        target="_blank" rel="noopener">"Open in the playground ↗"</a>
                </header>
                <lesson::LessonPane/>
                {controls.then(|| view! { <transport::Transport/> })}
                <CountersTable/>
                // The panel asked for comes before the cluster, so a small frame shows it first.
                {extra.map(|p| view! {
                    <div class="panel embed-panel" data-panel=p.id() tabindex="0" role="region"
                        aria-label=format!("{} panel", p.label())>{panel_view(p)}</div>
                })}
                <nodes::ClusterPane/>
            </main>
        }
        .into_any();
    }
    let selected_preset = preset.clone().unwrap_or_default();
    view! {
        <header class="top">
            // The skip link: past the story, the controls and every node, to the panels.
            <button type="button" class="skip-link"
                on:click=move |_| { focus_element(&ctx.panel.get_untracked().tab_id()); }>
                "Skip to panels"
            </button>
            <h1>"DaemonSet Playground"</h1>
            <p class="tagline">
                "The Kubernetes DaemonSet controller, compiled to WebAssembly, running a virtual cluster."
            </p>
            <div class="top-controls">
                <label class="preset-menu">"Preset "
                    <select aria-label="Preset" on:change=move |ev| {
                        let id = event_target_value(&ev);
                        if !change_preset(id) {
                            // Put the menu back on what is shown.
                            if let Some(sel) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlSelectElement>(t).ok()) {
                                sel.set_value(&selected_preset);
                            }
                        }
                    }>
                        {preset.is_none().then(|| view! { <option value="" selected=true>"(your scenario)"</option> })}
                        {scenario::presets::ALL.iter().map(|p| {
                            let title = preset_title(p);
                            let sel = preset.as_deref() == Some(p.id);
                            view! { <option value=p.id selected=sel>{title}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <lesson::LessonsMenu current=lesson_id/>
                <ThemeSwitch theme/>
            </div>
        </header>
        <main class="page">
            <embed_api::EmbedApi restart/>
            <section class="preset" aria-label="Story">
                <h2 id="story-title" tabindex="-1">{title}</h2>
                <p class="story">{story}</p>
                {(!in_lesson && !try_this.is_empty() && !persist::try_dismissed())
                    .then(|| view! { <TryThis items=try_this/> })}
                <files::Tools restart theme edited=Signal::derive(edited)/>
                <compare::CompareMenu preset=preset.clone() edited=Signal::derive(edited)/>
            </section>
            <lesson::LessonPane/>
            <transport::Transport/>
            <CountersTable/>
            <div class="workspace">
                <nodes::ClusterPane/>
                <aside class="side" aria-label="Panels">
                    // The WAI-ARIA tabs pattern: one Tab stop (the selected tab); ←/→, Home
                    // and End move between the tabs and select as they go.
                    <div class="tabs" role="tablist" aria-label="Panels"
                        on:keydown=move |ev| {
                            let Some(next) = Panel::after_key(ctx.panel.get_untracked(), &ev.key()) else {
                                return;
                            };
                            ev.prevent_default();
                            keyboard::set_panel_chosen_by_keys(next == Panel::Terminal);
                            ctx.panel.set(next);
                            focus_element(&next.tab_id());
                        }>
                        {Panel::ALL.into_iter().map(|p| view! {
                            <button role="tab" id=p.tab_id() data-panel=p.id()
                                aria-selected=move || (ctx.panel.get() == p).to_string()
                                tabindex=move || if ctx.panel.get() == p { "0" } else { "-1" }
                                aria-controls="side-panel"
                                on:click=move |_| ctx.panel.set(p)>
                                {p.label()}
                            </button>
                        }).collect_view()}
                    </div>
                    <div class="panel" id="side-panel" role="tabpanel"
                        aria-labelledby=move || ctx.panel.get().tab_id()
                        data-panel=move || ctx.panel.get().id()>
                        {move || panel_view(ctx.panel.get())}
                    </div>
                </aside>
            </div>
            <Show when=move || help.get()>
                <KeyboardHelp close=move || help.set(false)/>
            </Show>
        </main>
    }
    .into_any()
}

/// A side panel's contents.
fn panel_view(p: Panel) -> AnyView {
    match p {
        Panel::Explain => view! { <explain::ExplainPanel/> }.into_any(),
        Panel::Yaml => view! { <editor::YamlPanel/> }.into_any(),
        Panel::Terminal => view! { <terminal::TerminalPanel/> }.into_any(),
        Panel::Events => view! { <events::EventsPanel/> }.into_any(),
        Panel::Chart => view! { <chart::ChartPanel/> }.into_any(),
        Panel::Script => view! { <ScriptPanel/> }.into_any(),
    }
}

/// A first visit's three suggestions, from the scenario's `try:` list, until dismissed (then
/// never again in this browser). Dismissing removes the box (nothing reactive to keep) and
/// gives the focus to the story's heading.
#[component]
fn TryThis(items: Vec<String>) -> impl IntoView {
    view! {
        <aside class="try-this" aria-labelledby="try-this-title" data-testid="try-this">
            <h3 id="try-this-title">"Try this"</h3>
            <ol>{items.into_iter().map(|t| view! { <li>{t}</li> }).collect_view()}</ol>
            <button class="dismiss"
                title="Hide these suggestions (they will not show again in this browser)"
                on:click=|ev| {
                    persist::dismiss_try();
                    focus_element("story-title");
                    if let Some(aside) = keyboard::as_element(ev.current_target()).and_then(|b| b.parent_element()) {
                        aside.remove();
                    }
                }>"Dismiss"</button>
        </aside>
    }
}
