//! The compare view (`?compare=a,b[,…]`, also in embeds) and the playground's Compare button.
//! Each variant is its own [`Sim`] under its own [`Ctx`], so the cluster and counters views
//! are the playground's; one clock moves them all to the same virtual time (lockstep). The
//! variants, the list's errors and each rollout's summary come from `scenario::compare`.
//! Never touches storage: a comparison is read-only and leaves the saved session alone.

use crate::counters::CountersTable;
use crate::shell::TICK;
use crate::transport::SpeedMenu;
use crate::{chart, nodes, persist, Ctx, Panel, Sim, Theme};
use leptos::prelude::*;
use scenario::compare::{self, Strategy, Summary};

/// One variant on screen.
#[derive(Clone)]
struct Lane {
    id: String,
    title: String,
    strategy: String,
    ctx: Ctx,
}

/// A variant's own context; `playing` and `speed` are the comparison's.
fn lane_ctx(sim: Sim, playing: RwSignal<bool>, speed: RwSignal<f64>) -> Ctx {
    let sim = StoredValue::new_local(sim);
    let frame = RwSignal::new(0u64);
    Ctx {
        sim,
        frame,
        vm: Memo::new(move |_| {
            frame.track();
            sim.with_value(|s| s.view())
        }),
        playing,
        speed,
        selected: RwSignal::new(None),
        panel: RwSignal::new(Panel::Explain),
        caption: RwSignal::new(String::new()),
        terminal: RwSignal::new(Vec::new()),
        compact: RwSignal::new(true),
        unsaved: RwSignal::new(None),
    }
}

/// The variants named by `list`, ready to play, or what is wrong with the address.
fn lanes(
    list: &str,
    share: Option<&str>,
    playing: RwSignal<bool>,
    speed: RwSignal<f64>,
) -> Result<Vec<Lane>, String> {
    let shared = match share {
        Some(link) => Some(
            scenario::share::decode(link)
                .map_err(|e| {
                    format!("The scenario of this comparison's share link cannot be opened: {e}")
                })?
                .scenario,
        ),
        None => None,
    };
    let variants = compare::variants(list, shared.as_ref())
        .map_err(|e| format!("This comparison cannot be opened: {e}"))?;
    variants
        .into_iter()
        .map(|v| {
            let strategy = compare::strategy_words(&v.scenario).unwrap_or_default();
            let title = v.scenario.title.clone();
            let sim = Sim::new(v.scenario).map_err(|e| format!("`{}` cannot start: {e}", v.id))?;
            Ok(Lane {
                id: v.id,
                title,
                strategy,
                ctx: lane_ctx(sim, playing, speed),
            })
        })
        .collect()
}

/// The page for `?compare=`: the variants side by side with one transport, or the error.
#[component]
pub(crate) fn ComparePage(opts: persist::PageOptions) -> impl IntoView {
    match opts.theme.as_deref() {
        Some("light") => Theme::Light.apply(),
        Some("dark") => Theme::Dark.apply(),
        _ => Theme::System.apply(),
    }
    let playing = RwSignal::new(opts.autoplay);
    let speed = RwSignal::new(opts.speed.unwrap_or(1.0));
    let list = opts.compare.clone().unwrap_or_default();
    let lanes = match lanes(&list, opts.share.as_deref(), playing, speed) {
        Ok(l) => l,
        Err(e) => {
            return view! {
                <main class="app compare-page">
                    <h1>"DaemonSet Playground"</h1>
                    <pre class="error" role="alert" data-testid="compare-error">{e}</pre>
                    <p><a href=persist::base_url()>"Open the playground"</a>" (your saved work is untouched)."</p>
                </main>
            }
            .into_any();
        }
    };
    let clock = RwSignal::new(0.0f64);
    let ctxs: Vec<Ctx> = lanes.iter().map(|l| l.ctx).collect();
    let ctxs = StoredValue::new(ctxs);
    // Every variant to the same virtual time.
    let move_to = move |t: f64| {
        clock.set(t);
        ctxs.with_value(|cs| {
            for c in cs {
                c.mutate(|s| s.timeline.advance_to(t, crate::sim::MAX_EVENTS_PER_TICK));
            }
        });
    };
    let handle = set_interval_with_handle(
        move || {
            if playing.get_untracked() {
                move_to(clock.get_untracked() + TICK.as_secs_f64() * speed.get_untracked());
            }
        },
        TICK,
    );
    if let Ok(h) = handle {
        on_cleanup(move || h.clear());
    }
    let horizon = Memo::new(move |_| {
        ctxs.with_value(|cs| {
            cs.iter()
                .map(|c| c.read(|s| s.horizon()))
                .fold(0.0, f64::max)
        })
    });
    let seek = move |t: f64| {
        playing.set(false);
        clock.set(t);
        ctxs.with_value(|cs| {
            // Every lane all the way to t at once (the scrubber stops at the furthest lane's
            // horizon, so little is new), as `move_to` moves them: the lanes have no
            // tick-by-tick seek (`Sim::seek_forward`), which `Sim::advance` alone continues.
            for c in cs {
                c.mutate(|s| s.timeline.seek(t));
            }
        });
    };
    let reset = move |_| {
        playing.set(false);
        clock.set(0.0);
        ctxs.with_value(|cs| {
            for c in cs {
                c.mutate(|s| s.reset());
            }
        });
    };
    let embed = opts.embed;
    let summaries: Vec<Memo<(Option<Summary>, String)>> = lanes
        .iter()
        .map(|l| {
            let ctx = l.ctx;
            Memo::new(move |_| {
                ctx.read(|s| {
                    let summary = compare::summarize(s.timeline.trace());
                    // The chart follows the DaemonSet rolled out, else the first one.
                    let ds = match &summary {
                        Some(sm) => {
                            let (ns, name) = sm.daemon_set.split_once('/').unwrap_or(("", ""));
                            chart::label(ns, name)
                        }
                        None => s
                            .view()
                            .daemon_sets
                            .first()
                            .map(|c| chart::label(&c.counts.namespace, &c.counts.name))
                            .unwrap_or_default(),
                    };
                    (summary, ds)
                })
            })
        })
        .collect();
    let chart_data = {
        let summaries = summaries.clone();
        Memo::new(move |_| {
            ctxs.with_value(|cs| {
                cs.iter()
                    .zip(&summaries)
                    .map(|(c, sm)| sm.with(|(_, ds)| c.read(|s| chart::points(s, Some(ds)))))
                    .collect::<Vec<_>>()
            })
        })
    };
    let n = lanes.len();
    let key: Vec<String> = lanes.iter().map(|l| l.strategy.clone()).collect();
    let heading = key.join(" vs ");
    let home = if embed {
        view! { <a href=persist::base_url() target="_blank" rel="noopener">"Open the playground ↗"</a> }.into_any()
    } else {
        view! { <a href=persist::base_url()>"← Back to the playground"</a> }.into_any()
    };
    view! {
        <main class="app compare-page" class:embed=embed data-variants=n>
            <header class="compare-head">
                <h1>"Compare: " {heading}</h1>
                {home}
            </header>
            <section class="transport" aria-label="Time controls">
                <div class="buttons">
                    <button class="reset" aria-label="Rewind to the start" title="Rewind to t = 0" on:click=reset>"⇤ Rewind"</button>
                    <button class="play" aria-label=move || if playing.get() { "Pause" } else { "Play" }
                        on:click=move |_| playing.update(|p| *p = !*p)>
                        {move || if playing.get() { "❚❚ Pause" } else { "▶ Play" }}
                    </button>
                    <SpeedMenu speed/>
                </div>
                <input class="scrubber" type="range" aria-label="Timeline" min="0" step="0.1"
                    max=move || format!("{:.1}", horizon.get().max(clock.get()).max(1.0))
                    prop:value=move || format!("{:.1}", clock.get())
                    on:change=move |ev| {
                        if let Ok(t) = event_target_value(&ev).parse::<f64>() {
                            seek(t.clamp(0.0, horizon.get_untracked()));
                        }
                    }/>
                <span class="clock" data-testid="clock">"t = " {move || format!("{:.1}s", clock.get())}</span>
            </section>
            <div class="lanes">
                {lanes.into_iter().zip(summaries).enumerate().map(|(k, (lane, summary))| view! {
                    <LaneView lane k summary/>
                }).collect_view()}
            </div>
            <section class="chart compare-chart" aria-label="Counters over time, every variant">
                <ul class="chart-key">
                    {key.into_iter().enumerate().map(|(k, words)| view! {
                        <li><svg width="28" height="8" aria-hidden="true"><line class=format!("series v{k}") x1="0" y1="4" x2="28" y2="4"/></svg>{format!("{}. {words}", k + 1)}</li>
                    }).collect_view()}
                </ul>
                {move || chart_data.with(|lines| chart::chart_svg(lines, clock.get(), horizon.get()))}
            </section>
        </main>
    }
    .into_any()
}

/// `27.8 s`, or what the rollout is doing instead.
fn duration_words(s: &Option<Summary>, now: f64) -> String {
    match s {
        None => "no rollout yet (the DaemonSet's template has not changed)".into(),
        Some(Summary {
            duration: Some(d), ..
        }) => format!("{d:.1} s"),
        Some(Summary { started, .. }) => format!("not complete ({:.1} s so far)", now - started),
    }
}

#[component]
fn LaneView(lane: Lane, k: usize, summary: Memo<(Option<Summary>, String)>) -> impl IntoView {
    let ctx = lane.ctx;
    provide_context(ctx);
    let now = Memo::new(move |_| ctx.read(|s| s.elapsed()));
    view! {
        <section class="lane" data-variant=lane.id.clone() aria-label=format!("variant {}: {}", k + 1, lane.id)>
            <h2><svg width="28" height="8" aria-hidden="true"><line class=format!("series v{k}") x1="0" y1="4" x2="28" y2="4"/></svg>
                {format!("{}. {}", k + 1, lane.strategy)}</h2>
            <p class="muted lane-id"><code>{lane.id.clone()}</code>" — "{lane.title.clone()}</p>
            <dl class="summary" data-testid="summary">
                <dt>"Rollout took"</dt>
                <dd data-testid="duration" data-seconds=move || summary.with(|(s, _)| s.as_ref().and_then(|s| s.duration).map(|d| format!("{d:.3}")))>
                    {move || summary.with(|(s, _)| duration_words(s, now.get()))}
                </dd>
                <dt>"Most unavailable at once"</dt>
                <dd data-testid="max-unavailable">{move || summary.with(|(s, _)| s.as_ref().map_or(0, |s| s.max_unavailable))}</dd>
                <dt>"Waves (deletion batches)"</dt>
                <dd data-testid="waves">{move || summary.with(|(s, _)| s.as_ref().map_or(0, |s| s.waves))}</dd>
            </dl>
            <CountersTable in_lane=true/>
            <nodes::ClusterPane read_only=true/>
        </section>
    }
}

/// The playground's Compare menu: forks the scenario shown into itself and one other
/// strategy and opens the comparison. An unedited preset is named by its id
/// (`?compare=p,p:on-delete`); anything else travels in the share link's `#s=` and is named
/// `shared` (`?compare=shared,shared:on-delete#s=1.…`).
#[component]
pub(crate) fn CompareMenu(preset: Option<String>, edited: Signal<bool>) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let error = RwSignal::new(None::<String>);
    let preset = StoredValue::new(preset);
    let open = move |s: Strategy| {
        let sc = ctx.sim.with_value(|sim| sim.scenario().clone());
        if let Err(e) = s.fork(&sc) {
            error.set(Some(e.to_string()));
            return;
        }
        let url = match preset.get_value().filter(|_| !edited.get_untracked()) {
            Some(p) => format!("{}?compare={p},{p}:{}", persist::base_url(), s.id()),
            None => format!(
                "{}?compare={},{}:{}#s={}",
                persist::base_url(),
                compare::SHARED,
                compare::SHARED,
                s.id(),
                scenario::share::encode(&sc, &Default::default())
            ),
        };
        // The autosave saved the session after its last change.
        if let Some(w) = web_sys::window() {
            let _ = w.location().set_href(&url);
        }
    };
    view! {
        // Esc closes the menu and gives the focus back to its summary.
        <details class="compare-menu" on:keydown=crate::keyboard::close_details_on_escape>
            <summary>"Compare…"</summary>
            <p class="muted">"This scenario beside a copy whose DaemonSet uses:"</p>
            {Strategy::ALL.into_iter().map(|s| view! {
                <button data-strategy=s.id() on:click=move |_| open(s)>{s.label()}</button>
            }).collect_view()}
            {move || error.get().map(|e| view! { <pre class="error" role="alert">{e}</pre> })}
        </details>
    }
}
