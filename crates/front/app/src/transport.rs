//! Time controls: reset, step back, play/pause, step forward, speed, the scrubber, the clock and
//! the caption of the last step.

use crate::Ctx;
use leptos::prelude::*;

pub(crate) use scenario::embed_api::SPEEDS;

pub(crate) fn step_forward(ctx: Ctx) {
    ctx.playing.set(false);
    if let Some(c) = ctx.mutate(|s| s.step_forward()) {
        ctx.caption.set(c);
    }
}

pub(crate) fn step_back(ctx: Ctx) {
    ctx.playing.set(false);
    if let Some(c) = ctx.mutate(|s| s.step_back()) {
        ctx.caption.set(c);
    }
}

/// The speed menu, of the playground and of a comparison (which plays its lanes at one speed).
#[component]
pub(crate) fn SpeedMenu(speed: RwSignal<f64>) -> impl IntoView {
    view! {
        <label class="speed">"Speed "
            <select aria-label="Speed" on:change=move |ev| {
                if let Ok(v) = event_target_value(&ev).parse::<f64>() { speed.set(v) }
            }>
                {SPEEDS.into_iter().map(|s| view! {
                    <option value=s.to_string() selected=move || speed.get() == s>{format!("{s}×")}</option>
                }).collect_view()}
            </select>
        </label>
    }
}

#[component]
pub(crate) fn Transport() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let clock = Memo::new(move |_| ctx.read(|s| s.elapsed()));
    let horizon = Memo::new(move |_| ctx.read(|s| s.horizon()));
    let at_rest = Memo::new(move |_| ctx.read(|s| s.at_rest()));
    // Step and Pause end with a summary said once; while playing it is empty and says nothing.
    let summary = Memo::new(move |_| {
        if ctx.playing.get() {
            return String::new();
        }
        let (t, rest) = (clock.get(), at_rest.get());
        ctx.vm
            .with(|v| crate::counters::spoken_summary(t, &v.daemon_sets, rest))
    });
    let reset = move |_| {
        ctx.playing.set(false);
        ctx.mutate(|s| s.reset());
        ctx.caption.set("back to the start".into());
    };
    view! {
        <section class="transport" aria-label="Time controls">
            <div class="buttons">
                <button class="reset" aria-label="Rewind to the start" title="Rewind to t = 0 (your edits stay)" on:click=reset>"⇤ Rewind"</button>
                <button class="back" aria-label="Step back" title="Step back (←)"
                    disabled=move || clock.get() <= 0.0
                    on:click=move |_| step_back(ctx)>"◀ Back"</button>
                <button class="play" aria-label=move || if ctx.playing.get() { "Pause" } else { "Play" }
                    title="Play / pause (Space)"
                    on:click=move |_| ctx.playing.update(|p| *p = !*p)>
                    {move || if ctx.playing.get() { "❚❚ Pause" } else { "▶ Play" }}
                </button>
                <button class="step" aria-label="Step to the next change" title="Step forward (→)"
                    on:click=move |_| step_forward(ctx)>"Step ›"</button>
                <SpeedMenu speed=ctx.speed/>
            </div>
            <input class="scrubber" type="range" aria-label="Timeline" min="0" step="0.1"
                max=move || format!("{:.1}", horizon.get().max(clock.get()).max(1.0))
                prop:value=move || format!("{:.1}", clock.get())
                on:change=move |ev| {
                    if let Ok(t) = event_target_value(&ev).parse::<f64>() {
                        ctx.playing.set(false);
                        if let Some(c) = ctx.mutate(|s| s.seek(t)) {
                            ctx.caption.set(c);
                        }
                    }
                }/>
            <span class="clock" data-testid="clock" aria-live="off">
                "t = " {move || format!("{:.1}s", clock.get())}
                // Said, not announced: the clock runs on, and nothing more will happen.
                {move || at_rest.get().then(|| view! {
                    <span class="at-rest" data-testid="at-rest"
                        title="The script is done and nothing is scheduled: time passes, nothing changes until you act.">
                        "at rest: nothing more will happen"
                    </span>
                })}
            </span>
            // A screen reader hears the caption of a step, not every change while it plays.
            <p class="caption" data-testid="caption"
                aria-live=move || if ctx.playing.get() { "off" } else { "polite" }>{move || ctx.caption.get()}</p>
            <p class="visually-hidden" role="status" data-testid="summary">{move || summary.get()}</p>
        </section>
    }
}
