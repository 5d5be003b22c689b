//! The DaemonSet Playground web app: Leptos views and wiring only. The scenario plays in the
//! `scenario` crate, what a frame shows comes from `scenario::view`, every verdict from the
//! controller (`DaemonPodPredicate::explain`), every command from the kubectl layer. Nothing
//! here re-implements a rule.

mod chart;
mod editor;
mod events;
mod explain;
mod nodes;
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
}

impl Ctx {
    /// Changes the simulation and tells every view.
    pub fn mutate<R>(&self, f: impl FnOnce(&mut Sim) -> R) -> Option<R> {
        let r = self.sim.try_update_value(f);
        self.frame.update(|f| *f += 1);
        r
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
        let out = self.mutate(|s| s.command(line)).unwrap_or_else(|| Output {
            command: line.to_string(),
            text: "the simulation is gone (page unloading)".into(),
            ok: false,
        });
        self.caption.set(if out.ok {
            format!("$ {}", out.command)
        } else {
            format!("$ {} — {}", out.command, first_line(&out.text))
        });
        self.terminal.update(|t| t.push(out.clone()));
        out
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// The whole page: the presets menu, then the playground for the chosen preset.
#[component]
pub fn App() -> impl IntoView {
    let preset = RwSignal::new(scenario::presets::default_preset().id.to_string());
    let theme = RwSignal::new(Theme::System);
    Effect::new(move |_| theme.get().apply());
    view! {
        <div class="app">
            <header class="top">
                <h1>"DaemonSet Playground"</h1>
                <p class="tagline">
                    "The Kubernetes DaemonSet controller, compiled to WebAssembly, running a virtual cluster."
                </p>
                <div class="top-controls">
                    <label class="preset-menu">"Preset "
                        <select aria-label="Preset" on:change=move |ev| preset.set(event_target_value(&ev))>
                            {scenario::presets::ALL.iter().map(|p| {
                                let title = preset_title(p);
                                view! { <option value=p.id selected=move || preset.get() == p.id>{title}</option> }
                            }).collect_view()}
                        </select>
                    </label>
                    <ThemeSwitch theme/>
                </div>
            </header>
            {move || {
                let id = preset.get();
                match Sim::preset(&id) {
                    Ok(sim) => view! { <Playground sim/> }.into_any(),
                    Err(e) => view! {
                        <p class="error" role="alert">{format!("The preset {id} could not be loaded: {e}")}</p>
                    }.into_any(),
                }
            }}
        </div>
    }
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
    fn apply(self) {
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("data-theme", self.id());
        }
    }
}

#[component]
fn ThemeSwitch(theme: RwSignal<Theme>) -> impl IntoView {
    view! {
        <label class="theme">"Theme "
            <select aria-label="Theme" on:change=move |ev| {
                theme.set(match event_target_value(&ev).as_str() {
                    "light" => Theme::Light,
                    "dark" => Theme::Dark,
                    _ => Theme::System,
                })
            }>
                {[Theme::System, Theme::Light, Theme::Dark].into_iter().map(|t| view! {
                    <option value=t.id() selected=move || theme.get() == t>{t.id()}</option>
                }).collect_view()}
            </select>
        </label>
    }
}

/// A scenario playing: story, transport, counters, the cluster, and the side panels.
#[component]
pub fn Playground(sim: Sim) -> impl IntoView {
    let title = sim.scenario().title.clone();
    let story = sim.scenario().description.clone();
    let many = sim.view().nodes.len() > COMPACT_ABOVE;
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
        playing: RwSignal::new(false),
        speed: RwSignal::new(1.0),
        selected: RwSignal::new(None),
        panel: RwSignal::new(Panel::Explain),
        caption: RwSignal::new(
            "Press Play (Space), or Step (→) to move to the next change.".to_string(),
        ),
        terminal: RwSignal::new(Vec::new()),
        compact: RwSignal::new(many),
    };
    provide_context(ctx);

    let handle = set_interval_with_handle(
        move || {
            if ctx.playing.get_untracked() {
                let dt = TICK.as_secs_f64() * ctx.speed.get_untracked();
                ctx.mutate(|s| s.advance(dt));
            }
        },
        TICK,
    );
    if let Ok(h) = handle {
        on_cleanup(move || h.clear());
    }
    let help = RwSignal::new(false);
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if typing_in_a_field(&ev) {
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

    view! {
        <main class="page">
            <section class="preset" aria-label="Story">
                <h2>{title}</h2>
                <p class="story">{story}</p>
            </section>
            <transport::Transport/>
            <CountersTable/>
            <div class="workspace">
                <nodes::ClusterPane/>
                <aside class="side" aria-label="Panels">
                    <div class="tabs" role="tablist" aria-label="Panels">
                        {Panel::ALL.into_iter().map(|p| view! {
                            <button role="tab" id=format!("tab-{}", p.id()) data-panel=p.id()
                                aria-selected=move || (ctx.panel.get() == p).to_string()
                                aria-controls="side-panel"
                                on:click=move |_| ctx.panel.set(p)>
                                {p.label()}
                            </button>
                        }).collect_view()}
                    </div>
                    <div class="panel" id="side-panel" role="tabpanel"
                        data-panel=move || ctx.panel.get().id()>
                        {move || match ctx.panel.get() {
                            Panel::Explain => view! { <explain::ExplainPanel/> }.into_any(),
                            Panel::Yaml => view! { <editor::YamlPanel/> }.into_any(),
                            Panel::Terminal => view! { <terminal::TerminalPanel/> }.into_any(),
                            Panel::Events => view! { <events::EventsPanel/> }.into_any(),
                            Panel::Chart => view! { <chart::ChartPanel/> }.into_any(),
                            Panel::Script => view! { <ScriptPanel/> }.into_any(),
                        }}
                    </div>
                </aside>
            </div>
            <Show when=move || help.get()>
                <KeyboardHelp close=move || help.set(false)/>
            </Show>
        </main>
    }
}

/// Keys typed into a text field belong to that field, not to the transport.
fn typing_in_a_field(ev: &web_sys::KeyboardEvent) -> bool {
    use wasm_bindgen::JsCast;
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|e| {
            matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                || e.get_attribute("contenteditable").is_some()
        })
}

#[component]
fn KeyboardHelp(close: impl Fn() + 'static + Copy) -> impl IntoView {
    view! {
        <div class="dialog" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts">
            <h3>"Keyboard"</h3>
            <dl class="keys">
                <dt><kbd>"Space"</kbd></dt><dd>"play / pause"</dd>
                <dt><kbd>"→"</kbd></dt><dd>"step forward to the next change"</dd>
                <dt><kbd>"←"</kbd></dt><dd>"step back to the previous change"</dd>
                <dt><kbd>"?"</kbd></dt><dd>"this help"</dd>
                <dt><kbd>"Esc"</kbd></dt><dd>"close"</dd>
            </dl>
            <p class="muted">"Every control is also reachable with Tab."</p>
            <button on:click=move |_| close()>"Close"</button>
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
                        view! { <tr><td colspan="10" class="muted">"No DaemonSet yet: apply one in the YAML panel or the terminal."</td></tr> }.into_any()
                    } else {
                        v.daemon_sets.iter().map(row).collect_view().into_any()
                    }
                })}</tbody>
            </table>
            <ul class="waves" aria-label="Rolling updates in progress" data-testid="waves">
                {move || ctx.vm.with(|v| v.waves.iter().map(|w| view! {
                    <li data-ds=w.daemon_set.clone()>
                        <b>{w.daemon_set.clone()}</b>" rolling update: "{w.words.clone()}
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
