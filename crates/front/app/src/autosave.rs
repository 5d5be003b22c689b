//! The autosave: an effect that saves the session, or a lesson's progress, whenever something
//! worth saving changed since its last save: an edit (the script or the files), the panel, the
//! theme, the lesson's state, or a whole second of virtual time (saving every frame would
//! deflate 20 times a second for nothing). It tracks `Ctx::frame`, which every change bumps;
//! a change that panicked bumped nothing, and nothing is saved once the page stopped
//! (`crash`), so the last save is the state before the failing change. An embed, the compare
//! page and a lesson opened from someone's link save nothing: they start no autosave.

use crate::{crash, lesson, persist, Ctx, Theme};
use leptos::prelude::*;
use scenario::share::{Fragments, ShareView};

/// Where a playground saves.
#[derive(Clone, Copy)]
pub(crate) enum Saves {
    /// The session (`persist::save`), with the page's theme.
    Session(RwSignal<Theme>),
    /// The open lesson's progress, under its own key (`persist::save_lesson`).
    Lesson(lesson::Live),
}

/// What a save records, compared with the last save's: script lines, files, whole seconds,
/// and the view (panel, theme, lesson).
type SaveKey = (usize, usize, i64, ShareView);

/// Saves `ctx`'s simulation as `saves` says, now and after every change worth saving.
pub(crate) fn autosave(ctx: Ctx, saves: Saves) {
    let fragments = StoredValue::new_local(Fragments::default());
    Effect::new(move |last: Option<Option<SaveKey>>| {
        let last = last.flatten();
        // Before reading anything: after a crash the simulation may be half-changed.
        if crash::stopped() {
            return last;
        }
        let view = ShareView {
            panel: Some(ctx.panel.get().id().to_string()),
            theme: match saves {
                Saves::Session(theme) => theme.get().share_id(),
                Saves::Lesson(_) => None,
            },
            lesson: match saves {
                Saves::Session(_) => None,
                Saves::Lesson(live) => Some(live.share()),
            },
        };
        let key = ctx.read(|s| {
            (
                s.scenario().script.len(),
                s.scenario().files.len(),
                s.elapsed().floor() as i64,
                view,
            )
        });
        if last.as_ref() == Some(&key) {
            return last;
        }
        let fragment = ctx.sim.with_value(|s| {
            fragments
                .try_update_value(|f| f.fragment(s.scenario(), &key.3, Some(s.elapsed())))
                .unwrap_or_default()
        });
        let saved = match &key.3.lesson {
            Some(l) => persist::save_lesson(&l.id, &fragment),
            None => persist::save(&fragment),
        };
        let failed = saved.err();
        if ctx.unsaved.get_untracked() != failed {
            ctx.unsaved.set(failed);
        }
        Some(key)
    });
}
