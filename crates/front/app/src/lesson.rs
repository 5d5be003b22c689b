//! The lesson pane (`?lesson=ID`, also in embeds; `docs/lessons.md`): "Step n of N", the
//! step's text, its prediction (a radio group, then the reveal), its task with the live check,
//! hints, Back and Next; the Lessons menu; and saving each lesson's progress.
//!
//! The lesson itself is the `scenario` crate's: parsing (`parse_lesson`), the learner's
//! progress (`LessonProgress`), the check (`Timeline::check`) and playing a step's `run:`
//! lines (`Timeline::append_lines`, which writes them into the script so a reload or a share
//! link replays them). This module decides only what to show and when to call those. It must
//! not render lesson text as markup: the text is a typed tree, shown as elements and text.

use crate::{persist, Ctx, Sim, Start};
use leptos::prelude::*;
use scenario::lesson::{Block, CheckState, Inline, Lesson, LessonProgress};
use scenario::share::{ShareLesson, Shared};

/// A lesson as the page opens it: the steps, where the learner is, and how many steps'
/// `run:` lines the scenario's script already holds (each step's lines play once).
#[derive(Clone)]
pub struct LessonStart {
    pub lesson: Lesson,
    pub progress: LessonProgress,
    pub played: usize,
    /// Whether progress is saved in this browser (not for a lesson opened from someone's
    /// share link: it would write over the learner's own progress in that lesson).
    pub save: bool,
}

/// What the pane tells the page around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LessonEvent {
    /// Step `step` (1-based) of `of` is shown.
    StepOpened { step: usize, of: usize },
    /// The shown task's check started or stopped holding.
    CheckHolds { step: usize, holds: bool },
}

/// The one place lesson events leave the pane: the Embed API (`docs/embed.md`) sends each to
/// the host page, `StepOpened` as `dsplay:step` and `CheckHolds` as `dsplay:check` (nothing
/// is sent when the page is not framed). The pane's own screen updates do not go through here.
fn lesson_event(lesson: &str, kind: LessonEvent) {
    let n = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
    match kind {
        LessonEvent::StepOpened { step, of } => {
            crate::embed_api::post_lesson_step(lesson, n(step), n(of))
        }
        LessonEvent::CheckHolds { step, holds } => {
            crate::embed_api::post_lesson_check(lesson, n(step), holds)
        }
    }
}

/// The lessons the page has, parsed (the menu's titles, `?lesson=` ids).
fn lesson_file(id: &str) -> Option<scenario::LessonFile> {
    let p = scenario::presets::lesson(id)?;
    scenario::parse_lesson(p.file, p.text).ok()
}

fn ids() -> impl Iterator<Item = &'static str> + Clone {
    scenario::presets::LESSONS.iter().map(|p| p.id)
}

/// `?lesson=ID`: the lesson where this browser left it (`saved`, its progress as saved), else
/// from its first step. With `save` false (an embed, which never touches storage) nothing is
/// saved.
pub fn open(id: &str, saved: Option<Shared>, save: bool) -> Result<Start, String> {
    let file = lesson_file(id).ok_or_else(|| format!("the lesson {id} could not be read"))?;
    let saved = saved.and_then(|sh| {
        let l = sh.view.lesson.clone().filter(|l| l.id == id)?;
        Some((sh, l))
    });
    let (scenario, t, panel, progress, played) = match saved {
        Some((sh, l)) => (
            sh.scenario,
            sh.t,
            sh.view.panel.as_deref().and_then(crate::Panel::from_id),
            l.progress,
            l.played,
        ),
        None => (file.scenario, None, None, LessonProgress::default(), 0),
    };
    let lesson = LessonStart {
        progress: progress.normalized(&file.lesson),
        played: played.min(file.lesson.steps.len()),
        lesson: file.lesson,
        save,
    };
    started(scenario, t, panel, lesson)
}

/// A share link's lesson, if this build has it.
pub fn from_link(l: &ShareLesson) -> Option<LessonStart> {
    let lesson = lesson_file(&l.id)?.lesson;
    Some(LessonStart {
        progress: l.progress.normalized(&lesson),
        played: l.played.min(lesson.steps.len()),
        lesson,
        save: false,
    })
}

/// A lesson's playground. Not `Start::scenario`: a lesson's id may also be a preset's, and
/// "Reset to preset" must not leave the lesson for it.
pub fn started(
    scenario: scenario::Scenario,
    t: Option<f64>,
    panel: Option<crate::Panel>,
    lesson: LessonStart,
) -> Result<Start, String> {
    Ok(Start {
        sim: Sim::new(scenario.clone())?,
        base: scenario,
        preset: None,
        t,
        panel,
        note: None,
        lesson: Some(lesson),
    })
}

/// The lesson open in this playground, shared with the toolbar (its share link keeps it).
#[derive(Clone, Copy)]
pub(crate) struct Live {
    lesson: StoredValue<Lesson>,
    progress: RwSignal<LessonProgress>,
    played: RwSignal<usize>,
    save: bool,
}

impl Live {
    /// Makes the lesson's state and provides it to the playground's components.
    pub fn provide(start: LessonStart) -> Live {
        let live = Live {
            lesson: StoredValue::new(start.lesson),
            progress: RwSignal::new(start.progress),
            played: RwSignal::new(start.played),
            save: start.save,
        };
        provide_context(live);
        live
    }

    /// Whether its progress is saved in this browser (`crate::autosave`).
    pub fn saves(&self) -> bool {
        self.save
    }

    /// What a link records of the lesson (tracked).
    pub fn share(&self) -> ShareLesson {
        ShareLesson {
            id: self.lesson.with_value(|l| l.id.clone()),
            progress: self.progress.get(),
            played: self.played.get(),
        }
    }
}

/// The lesson a share link made here should keep, if one is open.
pub(crate) fn shared() -> Option<ShareLesson> {
    use_context::<Live>().map(|l| l.share())
}

/// Appends the `run:` lines that are due: those of steps the learner has passed, and the
/// shown step's when it opens, or, for a step that asks, once it is answered. They play
/// with the transport (started here).
fn play_due(ctx: Ctx, live: Live) {
    loop {
        let (p, played) = (live.progress.get_untracked(), live.played.get_untracked());
        let lines = live.lesson.with_value(|l| {
            let s = l.steps.get(played)?;
            let due =
                played < p.step || (played == p.step && (s.ask.is_none() || p.answered.is_some()));
            due.then(|| s.run.clone())
        });
        let Some(lines) = lines else { return };
        if !lines.is_empty() {
            ctx.mutate(|s| s.timeline.append_lines(&lines));
            ctx.playing.set(true);
        }
        live.played.set(played + 1);
    }
}

/// The pane: where the learner is, what to read, predict and do.
#[component]
pub(crate) fn LessonPane() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let Some(live) = use_context::<Live>() else {
        return ().into_any();
    };
    let n = live.lesson.with_value(|l| l.steps.len());
    let step = Memo::new(move |_| live.progress.get().step);
    play_due(ctx, live);
    // A reload in the middle of a reveal goes on playing it.
    if live.progress.get_untracked().answered.is_some()
        && !ctx.sim.with_value(|s| s.timeline.playback().script_done())
    {
        ctx.playing.set(true);
    }
    let id = live.lesson.with_value(|l| l.id.clone());
    let id2 = id.clone();
    Effect::new(move |_| {
        lesson_event(
            &id,
            LessonEvent::StepOpened {
                step: step.get() + 1,
                of: n,
            },
        )
    });

    let check = Memo::new(move |_| {
        let lines = live.lesson.with_value(|l| {
            l.steps
                .get(step.get())
                .and_then(|s| s.task.as_ref())
                .map(|t| t.check.clone())
        })?;
        ctx.frame.track();
        ctx.sim.try_update_value(|s| s.timeline.check(&lines))
    });
    let holds = Memo::new(move |_| check.with(|c| c.as_ref().is_some_and(CheckState::holds)));
    Effect::new(move |_| {
        // A new step whose check holds as the last one's did is done too.
        step.track();
        let holds = holds.get();
        if check.with_untracked(Option::is_some) {
            lesson_event(
                &id2,
                LessonEvent::CheckHolds {
                    step: step.get_untracked() + 1,
                    holds,
                },
            );
        }
        if holds && !live.progress.get_untracked().done {
            live.progress.update(|p| p.done = true);
        }
    });
    // The reveal is over once every line appended for this step has run.
    let revealed = RwSignal::new(None::<usize>);
    Effect::new(move |_| {
        let p = live.progress.get();
        let played_through = live.played.get() > p.step;
        let ran = ctx.read(|s| s.timeline.playback().script_done());
        if p.answered.is_some() && played_through && ran {
            revealed.set(Some(p.step));
        }
    });
    let complete = Memo::new(move |_| {
        let p = live.progress.get();
        live.lesson.with_value(|l| p.step_complete(l))
    });

    let go = move |forward: bool| {
        let mut p = live.progress.get_untracked();
        let moved = if forward {
            live.lesson.with_value(|l| p.next(l))
        } else {
            p.back()
        };
        if moved {
            live.progress.set(p);
            play_due(ctx, live);
            crate::keyboard::focus_element("lesson-step-title");
        }
    };
    let answer = move |choice: usize| {
        let mut p = live.progress.get_untracked();
        if live.lesson.with_value(|l| p.answer(l, choice)).is_some() {
            live.progress.set(p);
            play_due(ctx, live);
        }
    };

    let title = live.lesson.with_value(|l| l.title.clone());
    view! {
        <section class="lesson" aria-labelledby="lesson-title" data-testid="lesson">
            <header class="lesson-head">
                <h2 id="lesson-title">{title}</h2>
                <p class="lesson-count" data-testid="lesson-count">
                    {move || format!("Step {} of {n}", step.get() + 1)}
                </p>
            </header>
            <div class="lesson-body">
                <div class="lesson-read">
                    <h3 id="lesson-step-title" tabindex="-1">
                        {move || live.lesson.with_value(|l| l.steps.get(step.get()).map(|s| s.title.clone()))}
                    </h3>
                    {move || live.lesson.with_value(|l| l.steps.get(step.get()).map(|s| blocks(&s.text)))}
                </div>
                <div class="lesson-do">
                    {move || {
                        let i = step.get();
                        let ask = live.lesson.with_value(|l| l.steps.get(i).and_then(|s| s.ask.clone()));
                        ask.map(|ask| view! { <Prediction ask live revealed step=i answer/> })
                    }}
                    {move || {
                        let task = live.lesson.with_value(|l| l.steps.get(step.get()).and_then(|s| s.task.clone()));
                        task.map(|task| view! { <TaskView task check holds/> })
                    }}
                </div>
            </div>
            <nav class="lesson-nav" aria-label="Lesson steps">
                <button on:click=move |_| go(false) disabled=move || step.get() == 0>"‹ Back"</button>
                <button class="primary" on:click=move |_| go(true)
                    disabled=move || { !complete.get() || step.get() + 1 >= n }>"Next ›"</button>
                <span class="muted">{move || {
                    if step.get() + 1 >= n && complete.get() {
                        "Lesson complete.".to_string()
                    } else if complete.get() {
                        String::new()
                    } else {
                        live.lesson.with_value(|l| match l.steps.get(step.get()) {
                            Some(s) if s.ask.is_some() && live.progress.get().answered.is_none() => "Answer the question to go on.".to_string(),
                            _ => "Do the task to go on: the check turns green when it holds.".to_string(),
                        })
                    }
                }}</span>
            </nav>
        </section>
    }
    .into_any()
}

/// The prediction: a radio group, then the answer's feedback once the reveal has played.
#[component]
fn Prediction(
    ask: scenario::lesson::Ask,
    live: Live,
    revealed: RwSignal<Option<usize>>,
    step: usize,
    answer: impl Fn(usize) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let picked = RwSignal::new(None::<usize>);
    let answered = Memo::new(move |_| live.progress.get().answered);
    let shown = Memo::new(move |_| revealed.get() == Some(step) && answered.get().is_some());
    let right = ask.answer;
    let name = format!("lesson-ask-{step}");
    let question = ask
        .question
        .iter()
        .map(|Block::Paragraph(p)| spans(p))
        .collect_view();
    let choices = ask.choices.clone();
    let feedback = move || {
        shown.get().then(|| {
            let ok = answered.get() == Some(right);
            let right_text = ask.choices.get(right).cloned().unwrap_or_default();
            view! {
                <div class=if ok { "feedback right" } else { "feedback wrong" } data-testid="lesson-feedback">
                    <p><strong>{if ok { "Right." } else { "Not quite." }}</strong>
                        {(!ok).then(|| format!(" The answer is “{right_text}”."))}</p>
                    {blocks(&ask.explain)}
                </div>
            }
        })
    };
    // Not a <form>: a sandboxed embed without `allow-forms` blocks every submission.
    view! {
        <div class="ask" role="group" aria-label="Prediction">
            <fieldset disabled=move || answered.get().is_some()>
                <legend>"Predict: "{question}</legend>
                {choices.into_iter().enumerate().map(|(i, c)| view! {
                    <label class="choice" class:picked=move || answered.get() == Some(i)>
                        <input type="radio" name=name.clone() value=i.to_string()
                            prop:checked=move || answered.get().or(picked.get()) == Some(i)
                            on:change=move |_| picked.set(Some(i))/>
                        " "{c}
                    </label>
                }).collect_view()}
            </fieldset>
            {move || match answered.get() {
                None => view! {
                    <button type="button" class="primary" disabled=move || picked.get().is_none()
                        on:click=move |_| if let Some(c) = picked.get_untracked() { answer(c) }>"Reveal"</button>
                }.into_any(),
                Some(_) if !shown.get() => view! {
                    <p class="muted" data-testid="lesson-playing">"Playing what happens…"</p>
                }.into_any(),
                Some(_) => ().into_any(),
            }}
            <div aria-live="polite">{feedback}</div>
        </div>
    }
}

/// The task, its check line by line (what each command printed against what it must), hints.
#[component]
fn TaskView(
    task: scenario::lesson::Task,
    check: Memo<Option<CheckState>>,
    holds: Memo<bool>,
) -> impl IntoView {
    let hints = task.hints.clone();
    let shown_hints = RwSignal::new(0usize);
    let total = hints.len();
    view! {
        <div class="task">
            <h4>"Your task"</h4>
            {blocks(&task.text)}
            <ul class="check" aria-label="Check" data-testid="lesson-check">
                {move || check.get().map(|c| c.lines.into_iter().map(|l| {
                    let state = if l.holds { "holds" } else { "pending" };
                    view! {
                        <li class=state data-state=state>
                            <span class="mark" aria-hidden="true">{if l.holds { "✓" } else { "○" }}</span>
                            <code>{l.command}</code>" "{l.expected.to_string()}
                            <span class="observed">" — now: "<code>{if l.observed.is_empty() { "(nothing)".to_string() } else { l.observed }}</code></span>
                            <span class="visually-hidden">{if l.holds { " (holds)" } else { " (pending)" }}</span>
                        </li>
                    }
                }).collect_view())}
            </ul>
            <p role="status" class="check-status" data-testid="lesson-status">
                {move || if holds.get() { "✓ Done: the check holds." } else { "" }}
            </p>
            {(total > 0).then(|| view! {
                <div class="hints">
                    {move || hints.iter().take(shown_hints.get()).map(|h| view! {
                        <div class="hint">{blocks(&scenario::lesson::markdown(h))}</div>
                    }).collect_view()}
                    <button aria-expanded=move || (shown_hints.get() > 0).to_string()
                        hidden=move || { shown_hints.get() >= total }
                        on:click=move |_| shown_hints.update(|n| *n += 1)>
                        {move || if shown_hints.get() == 0 { "Show a hint".to_string() } else { format!("Another hint ({} left)", total - shown_hints.get()) }}
                    </button>
                </div>
            })}
        </div>
    }
}

/// Lesson text as elements: paragraphs of text, code, bold and links (never markup).
fn blocks(b: &[Block]) -> impl IntoView {
    b.iter()
        .map(|Block::Paragraph(p)| view! { <p>{spans(p)}</p> })
        .collect_view()
}

fn spans(p: &[Inline]) -> impl IntoView {
    p.iter()
        .map(|i| match i {
            Inline::Text(t) => t.clone().into_any(),
            Inline::Code(c) => view! { <code>{c.clone()}</code> }.into_any(),
            Inline::Bold(b) => view! { <strong>{b.clone()}</strong> }.into_any(),
            Inline::Link { text, href } => {
                view! { <a href=href.clone() target="_blank" rel="noopener">{text.clone()}</a> }
                    .into_any()
            }
        })
        .collect_view()
}

/// The Lessons menu beside Presets: choosing one opens it (a page load: the session open now
/// is saved already, and a lesson never writes over it).
#[component]
pub(crate) fn LessonsMenu(current: Option<String>) -> impl IntoView {
    let chosen = current.clone().unwrap_or_default();
    view! {
        <label class="preset-menu">"Lesson "
            <select aria-label="Lesson" on:change=move |ev| {
                let id = event_target_value(&ev);
                let base = persist::base_url();
                persist::navigate(&if id.is_empty() { base } else { format!("{base}?lesson={id}") });
            }>
                <option value="" selected=current.is_none()>"(none)"</option>
                {scenario::presets::LESSONS.iter().map(|p| {
                    let title = scenario::parse(p.file, p.text).map(|s| s.title).unwrap_or_else(|_| p.id.to_string());
                    view! { <option value=p.id selected=chosen == p.id>{title}</option> }
                }).collect_view()}
            </select>
        </label>
    }
}

/// `?lesson=` naming no lesson: what the lessons are, and nothing else touched (the saved
/// session is neither opened nor saved over).
#[component]
pub fn UnknownLesson(id: String) -> impl IntoView {
    let hint = persist::choices("lesson", &id, "lessons", ids());
    let base = persist::base_url();
    view! {
        <main class="app">
            <h1>"DaemonSet Playground"</h1>
            <div class="error" role="alert" data-testid="lesson-error">
                <p>{format!("There is no lesson “{id}”.")}</p>
                <p>{format!("hint: {hint}")}</p>
            </div>
            <h2>"Lessons"</h2>
            <ul class="lesson-list">
                {scenario::presets::LESSONS.iter().map(|p| view! {
                    <li><a href=format!("{base}?lesson={}", p.id)><code>{p.id}</code></a></li>
                }).collect_view()}
            </ul>
            <p><a href=base.clone()>"Open the playground"</a></p>
        </main>
    }
}
