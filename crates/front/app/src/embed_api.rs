//! The Embed API (DESIGN §4.3, `docs/embed.md`): `postMessage` between a framed playground and
//! the page around it. Out of the frame: `dsplay:ready` once, `dsplay:state` (t and counters)
//! when either changes, and the lessons' `dsplay:step` / `dsplay:check` ([`post_lesson_step`],
//! [`post_lesson_check`]). Into the frame: play, pause, seek, speed, step and load, each one
//! call the transport or the file opener already makes.
//!
//! Every incoming message is read field by field (`scenario::embed_api::Command::parse`, tested
//! and fuzzed natively there); anything else — not from the parent window, not an object, an
//! unknown type, a field of the wrong type or range — is ignored and counted on the console at
//! debug level. Nothing here panics on any input.
//! Knows nothing of the simulation's rules: the state is `scenario::view`'s counters.

use crate::{files, transport, Ctx, Start};
use js_sys::{Object, Reflect};
use leptos::prelude::*;
use scenario::embed_api::{Command, Field, MAX_SCENARIO};
use std::cell::{Cell, RefCell};
use wasm_bindgen::{JsCast, JsValue};

thread_local! {
    /// Sent once per page, not again when `dsplay:load` restarts the playground.
    static READY_SENT: Cell<bool> = const { Cell::new(false) };
    /// A state is due at the next animation frame.
    static STATE_DUE: Cell<bool> = const { Cell::new(false) };
    /// The last state sent (t in ms, then each DaemonSet's counters): an equal one is not sent.
    static LAST_STATE: RefCell<Option<StateKey>> = const { RefCell::new(None) };
    /// Messages ignored so far: the console numbers them.
    static IGNORED: Cell<u32> = const { Cell::new(0) };
    /// The playground on screen (`dsplay:load` replaces it between a frame's request and its
    /// callback).
    static CURRENT: Cell<Option<Ctx>> = const { Cell::new(None) };
}

type StateKey = (i64, Vec<(String, [i32; 5])>);

/// The page around this one, when the page is framed.
fn parent() -> Option<web_sys::Window> {
    let me = web_sys::window()?;
    let parent = me.parent().ok().flatten()?;
    (!same(&parent, &me)).then_some(parent)
}

/// `a === b` (one window seen through two handles).
fn same(a: &JsValue, b: &JsValue) -> bool {
    a == b
}

fn set(o: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(o, &key.into(), value);
}

/// `{type, …fields}`.
fn message(kind: &str, fields: &[(&str, JsValue)]) -> Object {
    let message = Object::new();
    set(&message, "type", &kind.into());
    for (k, v) in fields {
        set(&message, k, v);
    }
    message
}

/// Posts a message to the parent. The target origin is `*`: an embed does not know its host's
/// origin (in a sandboxed frame its own is opaque), and what it sends is what the frame shows
/// anyway, never anything of the user's.
fn post(message: &Object) {
    if let Some(parent) = parent() {
        let _ = parent.post_message(message, "*");
    }
}

/// `{type:'dsplay:step', lesson, step, of}`: a lesson opened step `step` (1-based) of `of`.
pub fn lesson_step_message(lesson: &str, step: u32, of: u32) -> Object {
    lesson_message("dsplay:step", lesson, step, ("of", of.into()))
}

/// `{type:'dsplay:check', lesson, step, holds}`: a task's live check is now `holds`.
pub fn lesson_check_message(lesson: &str, step: u32, holds: bool) -> Object {
    lesson_message("dsplay:check", lesson, step, ("holds", holds.into()))
}

/// A lesson's message: `{type, lesson, step}` and one field more.
fn lesson_message(kind: &str, lesson: &str, step: u32, last: (&str, JsValue)) -> Object {
    message(
        kind,
        &[("lesson", lesson.into()), ("step", step.into()), last],
    )
}

/// Tells the host page a lesson opened a step; the lesson pane calls it on
/// every step change. Nothing happens when the page is not framed.
pub fn post_lesson_step(lesson: &str, step: u32, of: u32) {
    post(&lesson_step_message(lesson, step, of));
}

/// Tells the host page a lesson task's live check changed.
pub fn post_lesson_check(lesson: &str, step: u32, holds: bool) {
    post(&lesson_check_message(lesson, step, holds));
}

/// The `dsplay:state` of now, if it differs from the last one sent.
fn post_state(ctx: Ctx) {
    let Some(t) = ctx.sim.try_with_value(|s| s.elapsed()) else {
        return;
    };
    let Some(counters) = ctx.vm.try_with_untracked(|v| {
        let ds: Vec<_> = v.daemon_sets.iter().map(|c| &c.counts).collect();
        ds.iter()
            .map(|c| {
                // By name; `namespace/name` only where two namespaces use the same name.
                let key = if ds.iter().filter(|d| d.name == c.name).count() > 1 {
                    format!("{}/{}", c.namespace, c.name)
                } else {
                    c.name.clone()
                };
                (
                    key,
                    [c.desired, c.current, c.ready, c.up_to_date, c.available],
                )
            })
            .collect::<Vec<_>>()
    }) else {
        return;
    };
    let key = ((t * 1000.0).round() as i64, counters);
    if LAST_STATE.with(|l| l.borrow().as_ref() == Some(&key)) {
        return;
    }
    let all = Object::new();
    for (name, values) in &key.1 {
        let one = Object::new();
        for (col, v) in ["desired", "current", "ready", "updated", "available"]
            .into_iter()
            .zip(values)
        {
            set(&one, col, &(*v).into());
        }
        set(&all, name, &one);
    }
    post(&message(
        "dsplay:state",
        &[
            ("t", (key.0 as f64 / 1000.0).into()),
            ("counters", all.into()),
        ],
    ));
    LAST_STATE.with(|l| *l.borrow_mut() = Some(key));
}

/// Reads a field of an incoming message.
fn field(data: &JsValue, name: &str) -> Field {
    read(Reflect::get(data, &name.into()).unwrap_or_default())
}

/// A value as the API reads it, without copying a long string into wasm memory.
fn read(v: JsValue) -> Field {
    if let Some(x) = v.as_f64() {
        return Field::Number(x);
    }
    match v.dyn_ref::<js_sys::JsString>() {
        Some(s) if s.length() > MAX_SCENARIO => Field::LongText,
        Some(s) => Field::Text(s.into()),
        None => Field::Other,
    }
}

/// Counts an ignored message on the console, with its `type` as sent and why.
fn ignore(kind: &JsValue, why: &str) {
    let n = IGNORED.with(|c| {
        c.set(c.get().saturating_add(1));
        c.get()
    });
    web_sys::console::debug_4(
        &"dsplay: ignored message".into(),
        &n.into(),
        kind,
        &why.into(),
    );
}

fn run(
    ctx: Ctx,
    restart: RwSignal<Start, LocalStorage>,
    error: RwSignal<Option<String>>,
    c: Command,
) {
    match c {
        Command::Play => ctx.playing.set(true),
        Command::Pause => ctx.playing.set(false),
        Command::Seek(t) => {
            if let Some(Some(c)) = ctx.mutate(|s| {
                s.seek_forward(t);
                s.latest_caption()
            }) {
                ctx.caption.set(c);
            }
        }
        Command::Speed(x) => ctx.speed.set(x),
        Command::Step => transport::step_forward(ctx),
        Command::Load(text) => match files::open_scenario("scenario.yaml", &text) {
            Ok(start) => restart.set(start),
            // The current scenario stays.
            Err(e) => error.set(Some(e)),
        },
    }
}

/// Connects a playground to the page around it, when there is one: sends `dsplay:ready`,
/// then a `dsplay:state` at most once per animation frame while t or the counters change, and
/// runs the host's commands. The view is where a refused `dsplay:load` says why.
#[component]
pub(crate) fn EmbedApi(restart: RwSignal<Start, LocalStorage>) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let error = RwSignal::new(None::<String>);
    if let Some(parent) = parent() {
        CURRENT.with(|c| c.set(Some(ctx)));
        let listener = window_event_listener(leptos::ev::message, move |ev| {
            let data = ev.data();
            let kind = match data.is_object() {
                true => Reflect::get(&data, &"type".into()).unwrap_or_default(),
                false => JsValue::UNDEFINED,
            };
            // Only the host page drives the frame: not other frames, not windows it opened.
            if !ev.source().is_some_and(|s| same(&s, &parent)) {
                return ignore(&kind, "not from the parent window");
            }
            match Command::parse(&read(kind.clone()), |name| field(&data, name)) {
                Ok(c) => {
                    error.set(None);
                    run(ctx, restart, error, c)
                }
                Err(why) => ignore(&kind, why),
            }
        });
        on_cleanup(move || listener.remove());
        Effect::new(move |_| {
            ctx.frame.track();
            if !STATE_DUE.with(|d| d.replace(true)) {
                request_animation_frame(|| {
                    STATE_DUE.with(|d| d.set(false));
                    if let Some(ctx) = CURRENT.with(Cell::get) {
                        post_state(ctx);
                    }
                });
            }
        });
        if !READY_SENT.with(|r| r.replace(true)) {
            post(&message("dsplay:ready", &[]));
        }
    }
    move || {
        error.get().map(|e| {
            view! { <pre class="tool-message error" role="alert" data-testid="load-error">{e}</pre> }
        })
    }
}
