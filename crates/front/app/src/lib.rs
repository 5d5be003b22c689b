//! The DaemonSet Playground web app: Leptos views and wiring only. The scenario plays in the
//! `scenario` crate, what a frame shows comes from `scenario::view`, every verdict from the
//! controller (`DaemonPodPredicate::explain`), every command from the kubectl layer. Nothing
//! here re-implements a rule.

mod chart;
mod compare;
mod editor;
pub mod embed_api;
mod events;
mod explain;
mod files;
mod lesson;
mod nodes;
mod persist;
mod sim;
mod terminal;
mod transport;

use leptos::prelude::*;
use scenario::view::{ClusterView, Counters};
pub(crate) use sim::Output;
pub use sim::Sim;
use std::time::Duration;

/// How often the clock ticks while playing; at 1× a tick is this much virtual time.
const TICK: Duration = Duration::from_millis(50);

/// Above this many nodes the cluster is drawn as tiles (compact mode) by default.
const COMPACT_ABOVE: usize = 40;

/// The side panels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panel {
    Explain,
    Yaml,
    Terminal,
    Events,
    Chart,
    Script,
}

impl Panel {
    pub const ALL: [Panel; 6] = [
        Panel::Explain,
        Panel::Yaml,
        Panel::Terminal,
        Panel::Events,
        Panel::Chart,
        Panel::Script,
    ];
    pub fn id(self) -> &'static str {
        match self {
            Panel::Explain => "explain",
            Panel::Yaml => "yaml",
            Panel::Terminal => "terminal",
            Panel::Events => "events",
            Panel::Chart => "chart",
            Panel::Script => "script",
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Panel::Explain => "Explain",
            Panel::Yaml => "YAML",
            Panel::Terminal => "Terminal",
            Panel::Events => "Events",
            Panel::Chart => "Chart",
            Panel::Script => "Script",
        }
    }
    /// The tab a key moves to from `self` in the tab list (←/→ wrap around, Home, End), or
    /// `None` for a key the tab list does not use.
    pub fn after_key(self, key: &str) -> Option<Panel> {
        let n = Panel::ALL.len();
        let at = Panel::ALL.iter().position(|p| *p == self).unwrap_or(0);
        let to = match key {
            "ArrowRight" => (at + 1) % n,
            "ArrowLeft" => (at + n - 1) % n,
            "Home" => 0,
            "End" => n - 1,
            _ => return None,
        };
        Some(Panel::ALL[to])
    }
    pub fn from_id(id: &str) -> Option<Panel> {
        Panel::ALL.into_iter().find(|p| p.id() == id)
    }
}

/// Everything the components share: the simulation and the UI state around it.
#[derive(Clone, Copy)]
pub(crate) struct Ctx {
    pub sim: StoredValue<Sim, LocalStorage>,
    /// Bumped after every change to `sim`; memos over the simulation track it.
    pub frame: RwSignal<u64>,
    pub vm: Memo<ClusterView>,
    pub playing: RwSignal<bool>,
    pub speed: RwSignal<f64>,
    pub selected: RwSignal<Option<String>>,
    pub panel: RwSignal<Panel>,
    /// What the last step did, in one line.
    pub caption: RwSignal<String>,
    /// The terminal's scrollback: commands typed and commands made by edits.
    pub terminal: RwSignal<Vec<Output>>,
    pub compact: RwSignal<bool>,
    /// Where and when the session was last saved (None: never save, as in an embed).
    pub autosave: StoredValue<Option<Autosave>, LocalStorage>,
    /// Why the last autosave did not happen, while it keeps failing (shown by the toolbar).
    pub unsaved: RwSignal<Option<&'static str>>,
}

/// The autosave's state: the theme to record, and what was saved last.
pub(crate) struct Autosave {
    theme: RwSignal<Theme>,
    /// (script lines, files, whole seconds, panel) of the last save.
    last: Option<(usize, usize, i64, Panel, Theme)>,
    /// The last save's encoded scenario: while only time moves it is not encoded again.
    fragments: scenario::share::Fragments,
}

impl Ctx {
    /// Changes the simulation and tells every view (and the autosave).
    pub fn mutate<R>(&self, f: impl FnOnce(&mut Sim) -> R) -> Option<R> {
        let r = self.sim.try_update_value(f);
        self.frame.update(|f| *f += 1);
        self.save_now();
        r
    }

    /// Saves the session when something worth saving changed since the last save: an edit, the
    /// panel, or a whole second of virtual time (saving every frame would deflate 20 times a
    /// second for nothing).
    pub fn save_now(&self) {
        let panel = self.panel.get_untracked();
        let key = |theme| {
            self.sim.with_value(|s| {
                (
                    s.scenario().script.len(),
                    s.scenario().files.len(),
                    s.elapsed().floor() as i64,
                    panel,
                    theme,
                )
            })
        };
        self.autosave.update_value(|a| {
            let Some(a) = a else {
                return;
            };
            let key = key(a.theme.get_untracked());
            if a.last == Some(key) {
                return;
            }
            a.last = Some(key);
            let view = scenario::share::ShareView {
                panel: Some(panel.id().to_string()),
                theme: a.theme.get_untracked().share_id(),
                lesson: None,
            };
            let fragment = self
                .sim
                .with_value(|s| a.fragments.fragment(s.scenario(), &view, Some(s.elapsed())));
            let failed = persist::save(&fragment).err();
            if self.unsaved.get_untracked() != failed {
                self.unsaved.set(failed);
            }
        });
    }

    /// Reads the simulation, tracking changes.
    pub fn read<R>(&self, f: impl FnOnce(&Sim) -> R) -> R {
        self.frame.track();
        self.sim.with_value(f)
    }

    /// Runs a read-only command (`kubectl get …`) against the current state (untracked: a memo
    /// that shows it tracks `frame` itself).
    pub fn query(&self, line: &str) -> Output {
        self.sim
            .try_update_value(|s| s.read_only(line))
            .unwrap_or_else(|| Output {
                command: line.to_string(),
                text: String::new(),
                ok: false,
            })
    }

    /// Runs a command as the user's edit or terminal line: it shows in the terminal, and if it
    /// changes the cluster it becomes part of the scenario's script.
    pub fn command(&self, line: &str) -> Output {
        let out = self
            .mutate(|s| s.command(line))
            .unwrap_or_else(|| gone(line));
        self.show(&out);
        out
    }

    /// Makes a node or pod edit (see [`Sim::edit`]); every command it ran shows in the
    /// terminal. The error is the text to show beside the control that asked.
    pub fn edit(&self, edit: &scenario::edit::Edit) -> Result<(), String> {
        let outs = self
            .mutate(|s| s.edit(edit))
            .unwrap_or_else(|| Err(gone("edit")));
        match outs {
            Ok(outs) => {
                outs.iter().for_each(|o| self.show(o));
                Ok(())
            }
            Err(o) => {
                self.show(&o);
                Err(o.text)
            }
        }
    }

    /// A command's output in the caption (its first line on failure) and the terminal.
    fn show(&self, out: &Output) {
        self.caption.set(if out.ok {
            format!("$ {}", out.command)
        } else {
            let command = apiserver::gofmt::bidi_visible(&out.command);
            format!("$ {command} — {}", first_line(&out.text))
        });
        self.terminal.update(|t| t.push(out.clone()));
    }
}

fn gone(command: &str) -> Output {
    Output {
        command: command.to_string(),
        text: "the simulation is gone (page unloading)".into(),
        ok: false,
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// What a playground starts from: a simulation, and where to put the viewer.
#[derive(Clone)]
pub struct Start {
    pub sim: Sim,
    /// The scenario as it was loaded (edits are measured against it).
    pub base: scenario::Scenario,
    /// The preset it came from, if any.
    pub preset: Option<String>,
    /// Virtual seconds to open at.
    pub t: Option<f64>,
    pub panel: Option<Panel>,
    /// What the caption says first (e.g. what an import did).
    pub note: Option<String>,
    /// The lesson open in it (`?lesson=`, or a share link's).
    pub lesson: Option<lesson::LessonStart>,
}

impl Start {
    pub fn preset(id: &str) -> Result<Start, String> {
        let sim = Sim::preset(id)?;
        Ok(Start {
            base: sim.scenario().clone(),
            sim,
            preset: Some(id.to_string()),
            t: None,
            panel: None,
            note: None,
            lesson: None,
        })
    }

    pub fn scenario(
        s: scenario::Scenario,
        t: Option<f64>,
        panel: Option<Panel>,
    ) -> Result<Start, String> {
        let preset = scenario::presets::get(&s.id).map(|p| p.id.to_string());
        let sim = Sim::new(s.clone())?;
        Ok(Start {
            sim,
            base: s,
            preset,
            t,
            panel,
            note: None,
            lesson: None,
        })
    }

    fn shared(sh: scenario::share::Shared) -> Result<Start, String> {
        let panel = sh.view.panel.as_deref().and_then(Panel::from_id);
        match sh.view.lesson.as_ref().and_then(lesson::from_link) {
            Some(l) => lesson::started(sh.scenario, sh.t, panel, l),
            None => Start::scenario(sh.scenario, sh.t, panel),
        }
    }
}

/// The page: a share link, else the autosaved session, else a preset; in embed mode, the
/// cluster only.
#[component]
pub fn App() -> impl IntoView {
    let opts = persist::page_options();
    if opts.compare.is_some() {
        return view! { <compare::ComparePage opts/> }.into_any();
    }
    // Before anything is loaded or saved: a typo in a lesson link touches no session.
    if let Some(id) = opts
        .lesson
        .clone()
        .filter(|id| scenario::presets::lesson(id).is_none())
    {
        return view! { <lesson::UnknownLesson id/> }.into_any();
    }
    let mut notices = Vec::new();
    if !opts.problems.is_empty() {
        let (what, it) = match opts.problems.len() {
            1 => ("an option", "it"),
            _ => ("options", "them"),
        };
        notices.push(format!(
            "This page's address has {what} the playground cannot use; the page opened without {it}:\n{}",
            opts.problems.join("\n")
        ));
    }
    let mut theme0 = opts.theme.clone();
    let mut first: Option<Start> = None;
    let mut from_saved = false;
    // What the page opens instead of the saved session, for the notice.
    let mut opened = if opts.preset.is_some() {
        "the preset named in the address"
    } else {
        "the default preset"
    };
    if let Some(link) = &opts.share {
        match scenario::share::decode(link) {
            Ok(sh) => {
                theme0 = theme0.or(sh.view.theme.clone());
                match Start::shared(sh) {
                    Ok(s) => {
                        first = Some(s);
                        opened = "the shared link";
                    }
                    Err(e) => notices.push(format!(
                        "This share link holds a scenario that cannot start: {e}"
                    )),
                }
            }
            Err(e) => notices.push(format!(
                "This share link cannot be opened: {}\n  hint: {}\nYour own work is untouched.",
                e.message, e.hint
            )),
        }
    }
    if let (None, Some(id)) = (&first, &opts.lesson) {
        match lesson::open(id, !opts.embed) {
            Ok(s) => first = Some(s),
            Err(e) => notices.push(e),
        }
    }
    if first.is_none() && !opts.embed && opts.preset.is_none() && opts.lesson.is_none() {
        match persist::load_saved() {
            Some(Ok(sh)) => {
                theme0 = theme0.or(sh.view.theme.clone());
                match Start::shared(sh) {
                    Ok(s) => {
                        first = Some(s);
                        from_saved = true;
                    }
                    Err(e) => notices.push(format!("Your saved work could not be restored: {e}")),
                }
            }
            Some(Err(msg)) => notices.push(msg),
            None => {}
        }
    }
    let id = opts
        .preset
        .clone()
        .unwrap_or_else(|| scenario::presets::default_preset().id.to_string());
    let first = match first {
        Some(s) => Ok(s),
        None => Start::preset(&id),
    };
    // Opening a link or a `?preset=` replaces the saved session: keep that one aside first.
    // A lesson saves under its own key: the saved session stays as it is.
    let lesson_mode = first.as_ref().is_ok_and(|s| s.lesson.is_some());
    let kept = match (&first, opts.embed || from_saved) {
        _ if lesson_mode => None,
        (Ok(start), false) => persist::keep_saved_aside(start.sim.scenario())
            .unwrap_or_else(|e| {
                notices.push(e);
                None
            })
            .map(|key| Kept {
                key,
                from_tab: false,
            }),
        // The saved session is the tab saved last; another tab's may be kept aside.
        (Ok(_), true) => persist::newest_tab_kept().map(|key| Kept {
            key,
            from_tab: true,
        }),
        _ => None,
    };
    if !opts.embed {
        persist::reload_on_new_link();
    }
    let theme = RwSignal::new(match theme0.as_deref() {
        Some("light") => Theme::Light,
        Some("dark") => Theme::Dark,
        _ => Theme::System,
    });
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
                        let said = if from_tab {
                            "This page opened the session saved last. Another tab's session, open at the same time, was kept aside in this browser, under “".to_string()
                        } else {
                            format!("This page opened {opened}. Your previous session was kept aside in this browser, under “")
                        };
                        let dismissed = key.clone();
                        view! {
                        <div class="notice kept" role="status" data-testid="kept">
                            <p>{said}<code>{key.clone()}</code>"”."</p>
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
                <p class="error" role="alert">{format!("The preset {id} could not be loaded: {e}")}</p>
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

/// Light, dark, or whatever the system prefers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    System,
    Light,
    Dark,
}

impl Theme {
    fn id(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
    /// What a share link records (nothing for "system").
    fn share_id(self) -> Option<String> {
        (self != Theme::System).then(|| self.id().to_string())
    }
    fn apply(self) {
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("data-theme", self.id());
        }
    }
}

#[component]
fn ThemeSwitch(theme: RwSignal<Theme>) -> impl IntoView {
    // Read at creation: an event handler runs outside the component's owner.
    let ctx = use_context::<Ctx>();
    view! {
        <label class="theme">"Theme "
            <select aria-label="Theme" on:change=move |ev| {
                theme.set(match event_target_value(&ev).as_str() {
                    "light" => Theme::Light,
                    "dark" => Theme::Dark,
                    _ => Theme::System,
                });
                if let Some(ctx) = ctx {
                    ctx.save_now();
                }
            }>
                {[Theme::System, Theme::Light, Theme::Dark].into_iter().map(|t| view! {
                    <option value=t.id() selected=move || theme.get() == t>{t.id()}</option>
                }).collect_view()}
            </select>
        </label>
    }
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
        autosave: StoredValue::new_local(None),
        unsaved: RwSignal::new(None),
    };
    provide_context(ctx);
    let base = StoredValue::new_local(base);
    let edited = move || ctx.read(|s| base.with_value(|b| !s.scenario().same_content(b)));
    let lesson_id = lesson.as_ref().map(|l| l.lesson.id.clone());
    let in_lesson = lesson.map(lesson::Live::provide).is_some();
    if !embed && !in_lesson {
        ctx.autosave.set_value(Some(Autosave {
            theme,
            last: None,
            fragments: Default::default(),
        }));
        ctx.save_now();
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
            if ctx.playing.get_untracked() {
                let dt = TICK.as_secs_f64() * ctx.speed.get_untracked();
                // While it plays, the caption follows the latest change on screen.
                let latest = ctx.mutate(|s| {
                    s.advance(dt);
                    s.latest_caption()
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
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if key_is_for_the_focused_control(&ev) {
            return;
        }
        match ev.key().as_str() {
            " " => {
                ev.prevent_default();
                ctx.playing.update(|p| *p = !*p);
            }
            "ArrowRight" => {
                ev.prevent_default();
                transport::step_forward(ctx);
            }
            "ArrowLeft" => {
                ev.prevent_default();
                transport::step_back(ctx);
            }
            "?" => help.update(|h| *h = !*h),
            "Escape" => help.set(false),
            _ => {}
        }
    });
    on_cleanup(move || keys.remove());

    let controls = opts.controls;
    if embed {
        let extra = opts.panel.as_deref().and_then(Panel::from_id);
        return view! {
            <main class="page embed-page">
                <embed_api::EmbedApi restart/>
                <header class="embed-head">
                    <b>{title}</b>
                    <a href=move || format!("{}{}", persist::base_url(), ctx.read(|s| s.share_fragment(None, lesson::shared())))
                        target="_blank" rel="noopener">"Open in the playground ↗"</a>
                </header>
                <lesson::LessonPane/>
                {controls.then(|| view! { <transport::Transport/> })}
                <CountersTable/>
                <nodes::ClusterPane/>
                {extra.map(|p| view! { <div class="panel embed-panel" data-panel=p.id()>{panel_view(p)}</div> })}
            </main>
        }
        .into_any();
    }
    let selected_preset = preset.clone().unwrap_or_default();
    view! {
        <header class="top">
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
                <h2>{title}</h2>
                <p class="story">{story}</p>
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
                            ctx.panel.set(next);
                            ctx.save_now();
                            focus_element(&format!("tab-{}", next.id()));
                        }>
                        {Panel::ALL.into_iter().map(|p| view! {
                            <button role="tab" id=format!("tab-{}", p.id()) data-panel=p.id()
                                aria-selected=move || (ctx.panel.get() == p).to_string()
                                tabindex=move || if ctx.panel.get() == p { "0" } else { "-1" }
                                aria-controls="side-panel"
                                on:click=move |_| { ctx.panel.set(p); ctx.save_now(); }>
                                {p.label()}
                            </button>
                        }).collect_view()}
                    </div>
                    <div class="panel" id="side-panel" role="tabpanel"
                        aria-labelledby=move || format!("tab-{}", ctx.panel.get().id())
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

/// Keys typed into a text field belong to that field, not to the transport.
/// Whether a key belongs to the element that has focus rather than to the page's shortcuts:
/// everything typed into a field, Space and Enter on a button or a link (they press it), and
/// the arrows, Home and End on a tab (they move between the panels).
fn key_is_for_the_focused_control(ev: &web_sys::KeyboardEvent) -> bool {
    use wasm_bindgen::JsCast;
    let Some(e) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    if matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
        || e.get_attribute("contenteditable").is_some()
    {
        return true;
    }
    let key = ev.key();
    let role = e.get_attribute("role");
    if role.as_deref() == Some("tab") && Panel::after_key(Panel::Explain, &key).is_some() {
        return true;
    }
    let pressable = matches!(e.tag_name().as_str(), "BUTTON" | "A" | "SUMMARY")
        || role.as_deref() == Some("button");
    pressable && matches!(key.as_str(), " " | "Enter")
}

fn focus_element(id: &str) {
    use wasm_bindgen::JsCast;
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

thread_local! {
    /// What had focus when the keyboard help opened, to give it back when the help closes.
    static FOCUS_BEFORE_HELP: std::cell::RefCell<Option<web_sys::HtmlElement>> =
        const { std::cell::RefCell::new(None) };
}

/// The keyboard help, a modal dialog: focus moves to its Close button when it opens and back
/// to where it was when it closes.
#[component]
fn KeyboardHelp(close: impl Fn() + 'static + Copy) -> impl IntoView {
    use wasm_bindgen::JsCast;
    let before = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    FOCUS_BEFORE_HELP.with(|f| *f.borrow_mut() = before);
    on_cleanup(|| {
        if let Some(el) = FOCUS_BEFORE_HELP.with(|f| f.borrow_mut().take()) {
            let _ = el.focus();
        }
    });
    let close_button = NodeRef::<leptos::html::Button>::new();
    Effect::new(move |_| {
        if let Some(b) = close_button.get() {
            let _ = b.focus();
        }
    });
    view! {
        // Its one control keeps the focus while it is open (Tab does not leave a modal dialog).
        <div class="dialog" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts"
            on:keydown=move |ev| {
                if ev.key() == "Tab" {
                    ev.prevent_default();
                    if let Some(b) = close_button.get_untracked() {
                        let _ = b.focus();
                    }
                }
            }>
            <h3>"Keyboard"</h3>
            <dl class="keys">
                <dt><kbd>"Space"</kbd></dt><dd>"play / pause"</dd>
                <dt><kbd>"→"</kbd></dt><dd>"step forward to the next change"</dd>
                <dt><kbd>"←"</kbd></dt><dd>"step back to the previous change"</dd>
                <dt><kbd>"?"</kbd></dt><dd>"this help"</dd>
                <dt><kbd>"Esc"</kbd></dt><dd>"close"</dd>
                <dt><kbd>"←"</kbd>" "<kbd>"→"</kbd>" on the panel tabs"</dt><dd>"the previous / next panel"</dd>
            </dl>
            <p class="muted">"Every control is also reachable with Tab."</p>
            <button node_ref=close_button on:click=move |_| close()>"Close"</button>
        </div>
    }
}

#[component]
fn CountersTable() -> impl IntoView {
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
        <section class="counters" aria-label="DaemonSet counters">
            <table>
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

/// The scenario's script, with the line running now marked, and the last command's output.
#[component]
fn ScriptPanel() -> impl IntoView {
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
            <ol>
                {move || lines.get().into_iter().map(|(text, state)| view! {
                    <li class=state><code>{text}</code></li>
                }).collect_view()}
            </ol>
            <pre class="terminal" aria-label="Last command output">{move || last.get()}</pre>
        </section>
    }
}
