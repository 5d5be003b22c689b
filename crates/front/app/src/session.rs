//! Which session a page opens: a share link, else `?lesson=`, else the autosaved session,
//! else `?preset=` or the default preset; `?compare=` and an unknown lesson open pages of
//! their own. [`choose`] decides from the address and what this browser saved, which it reads
//! through [`Stored`] and only when the choice needs it (so an embed, a link or a lesson never
//! reads the autosave). It does nothing itself: the page then keeps the saved session aside
//! as [`Keep`] says and shows the notices. Native tests cover every branch.

use crate::persist::PageOptions;
use crate::{lesson, Panel, Sim};
use scenario::share::Shared;

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

    /// A share link's or a saved session's: its lesson, if it has one this build knows.
    pub(crate) fn shared(sh: Shared) -> Result<Start, String> {
        let panel = sh.view.panel.as_deref().and_then(Panel::from_id);
        match sh.view.lesson.as_ref().and_then(lesson::from_link) {
            Some(l) => lesson::started(sh.scenario, sh.t, panel, l),
            None => Start::scenario(sh.scenario, sh.t, panel),
        }
    }
}

/// What the page reads from this browser's storage: `persist::Browser` in the page, fakes in
/// the tests.
pub trait Stored {
    /// The autosaved session (`persist::load_saved`: one that cannot be read is moved aside
    /// and explained).
    fn saved(&mut self) -> Option<Result<Shared, String>>;
    /// A lesson's saved progress (`persist::load_lesson`).
    fn lesson(&mut self, id: &str) -> Option<Shared>;
}

/// What the page shows.
pub enum Opening {
    /// `?compare=`: the variants side by side (`compare::ComparePage`).
    Compare,
    /// `?lesson=` naming no lesson: the lessons there are, and no session touched.
    UnknownLesson(String),
    Playground(Box<Choice>),
}

/// The session a playground opens, and what the page says and does around it.
pub struct Choice {
    /// The session, or why the preset to fall back on could not load (all the page shows).
    pub start: Result<Start, String>,
    /// The address's theme, else the opened link's or saved session's.
    pub theme: Option<String>,
    /// What the page tells first: options it could not use, a link or save it could not open.
    pub notices: Vec<String>,
    /// What opened in place of the saved session, as the kept-aside notice says it.
    pub opened: &'static str,
    pub keep: Keep,
}

/// What becomes of the session saved in this browser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Untouched: a lesson saves under its own key (or nothing opened).
    Untouched,
    /// Kept aside (`persist::keep_saved_aside`): the opened session will be saved over it.
    Aside,
    /// The saved session opened (or the page is an embed): offer another tab's session, if
    /// one was kept aside (`persist::newest_tab_kept`).
    OfferOtherTab,
}

/// Decides what the page opens (see the module doc).
pub fn choose(opts: &PageOptions, stored: &mut impl Stored) -> Opening {
    if opts.compare.is_some() {
        return Opening::Compare;
    }
    // Before anything is loaded or saved: a typo in a lesson link touches no session.
    if let Some(id) = opts
        .lesson
        .clone()
        .filter(|id| scenario::presets::lesson(id).is_none())
    {
        return Opening::UnknownLesson(id);
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
    let mut theme = opts.theme.clone();
    let mut first: Option<Start> = None;
    let mut from_saved = false;
    let mut opened = if opts.preset.is_some() {
        "the preset named in the address"
    } else {
        "the default preset"
    };
    if let Some(link) = &opts.share {
        match scenario::share::decode(link) {
            Ok(sh) => {
                theme = theme.or(sh.view.theme.clone());
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
        // An embed never touches storage: the lesson starts from its first step.
        let save = !opts.embed;
        let saved = if save { stored.lesson(id) } else { None };
        match lesson::open(id, saved, save) {
            Ok(s) => first = Some(s),
            Err(e) => notices.push(e),
        }
    }
    if first.is_none() && !opts.embed && opts.preset.is_none() && opts.lesson.is_none() {
        match stored.saved() {
            Some(Ok(sh)) => {
                theme = theme.or(sh.view.theme.clone());
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
    let start = match first {
        Some(s) => Ok(s),
        None => {
            let id = opts
                .preset
                .clone()
                .unwrap_or_else(|| scenario::presets::default_preset().id.to_string());
            Start::preset(&id).map_err(|e| format!("The preset {id} could not be loaded: {e}"))
        }
    };
    // Opening a link or a `?preset=` replaces the saved session: it is kept aside first.
    let keep = match &start {
        Ok(s) if s.lesson.is_some() => Keep::Untouched,
        Ok(_) if opts.embed || from_saved => Keep::OfferOtherTab,
        Ok(_) => Keep::Aside,
        Err(_) => Keep::Untouched,
    };
    Opening::Playground(Box::new(Choice {
        start,
        theme,
        notices,
        opened,
        keep,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::persist::parse_options;
    use scenario::share::{ShareLesson, ShareView};

    /// This browser's storage as the choice sees it, and what the choice read of it.
    #[derive(Default)]
    struct Fake {
        saved: Option<Result<Shared, String>>,
        lesson: Option<Shared>,
        saved_reads: usize,
        lesson_reads: Vec<String>,
    }

    impl Stored for Fake {
        fn saved(&mut self) -> Option<Result<Shared, String>> {
            self.saved_reads += 1;
            self.saved.clone()
        }
        fn lesson(&mut self, id: &str) -> Option<Shared> {
            self.lesson_reads.push(id.to_string());
            self.lesson.clone()
        }
    }

    const OTHER: &str = "f3-taints";
    const LESSON: &str = "taints-and-toleration-seconds";

    fn default_id() -> &'static str {
        scenario::presets::default_preset().id
    }

    fn session(preset: &str, theme: Option<&str>) -> Shared {
        let p = scenario::presets::get(preset).expect("a preset of this build");
        Shared {
            scenario: scenario::parse(p.file, p.text).expect("presets parse"),
            view: ShareView {
                theme: theme.map(str::to_string),
                ..ShareView::default()
            },
            t: None,
        }
    }

    fn saved(preset: &str) -> Fake {
        Fake {
            saved: Some(Ok(session(preset, Some("dark")))),
            ..Fake::default()
        }
    }

    fn link(sh: &Shared) -> String {
        scenario::share::fragment(&sh.scenario, &sh.view, sh.t)
    }

    fn playground(search: &str, hash: &str, stored: &mut Fake) -> Choice {
        match choose(&parse_options(search, hash), stored) {
            Opening::Playground(c) => *c,
            Opening::Compare => panic!("{search}{hash} opened the compare page"),
            Opening::UnknownLesson(id) => panic!("{search}{hash} said lesson {id} is unknown"),
        }
    }

    /// The opened scenario's id, and whether it is a lesson.
    fn opened(c: &Choice) -> (&str, bool) {
        match &c.start {
            Ok(s) => (s.sim.scenario().id.as_str(), s.lesson.is_some()),
            Err(e) => panic!("nothing opened: {e}"),
        }
    }

    #[test]
    fn a_link_wins_over_the_saved_session_which_is_kept_aside() {
        let mut stored = saved(default_id());
        let c = playground("", &link(&session(OTHER, Some("light"))), &mut stored);
        assert_eq!(opened(&c), (OTHER, false));
        assert_eq!(stored.saved_reads, 0);
        assert_eq!(c.keep, Keep::Aside);
        assert_eq!(c.opened, "the shared link");
        assert_eq!(c.theme.as_deref(), Some("light"));
        assert!(c.notices.is_empty(), "{:?}", c.notices);
    }

    #[test]
    fn a_corrupt_link_opens_the_saved_session_and_says_why() {
        let mut stored = saved(OTHER);
        let c = playground("", "#s=1.AAAA-not-deflate", &mut stored);
        assert_eq!(opened(&c), (OTHER, false));
        assert_eq!(stored.saved_reads, 1);
        assert_eq!(c.keep, Keep::OfferOtherTab);
        assert_eq!(c.theme.as_deref(), Some("dark"));
        let [notice] = c.notices.as_slice() else {
            panic!("one notice: {:?}", c.notices)
        };
        assert!(notice.starts_with("This share link cannot be opened: "));
        assert!(notice.contains("\n  hint: "));
        assert!(notice.ends_with("\nYour own work is untouched."));
    }

    #[test]
    fn without_a_link_the_saved_session_opens_and_the_address_theme_wins() {
        let mut stored = saved(OTHER);
        let c = playground("?theme=light", "", &mut stored);
        assert_eq!(opened(&c), (OTHER, false));
        assert_eq!(c.keep, Keep::OfferOtherTab);
        assert_eq!(c.theme.as_deref(), Some("light"));
        assert!(c.notices.is_empty());
    }

    #[test]
    fn an_unreadable_save_is_explained_and_the_default_preset_opens() {
        let mut stored = Fake {
            saved: Some(Err("Your saved work could not be restored: …".into())),
            ..Fake::default()
        };
        let c = playground("", "", &mut stored);
        assert_eq!(opened(&c), (default_id(), false));
        assert_eq!(c.notices, ["Your saved work could not be restored: …"]);
        assert_eq!(c.keep, Keep::Aside);
        assert_eq!(c.opened, "the default preset");
    }

    #[test]
    fn nothing_saved_opens_the_default_preset() {
        let mut stored = Fake::default();
        let c = playground("", "", &mut stored);
        assert_eq!(opened(&c), (default_id(), false));
        assert_eq!((stored.saved_reads, c.theme), (1, None));
        assert!(c.notices.is_empty());
    }

    #[test]
    fn a_preset_in_the_address_replaces_the_saved_session_unread() {
        let mut stored = saved(default_id());
        let c = playground(&format!("?preset={OTHER}"), "", &mut stored);
        assert_eq!(opened(&c), (OTHER, false));
        assert_eq!(stored.saved_reads, 0);
        assert_eq!(c.keep, Keep::Aside);
        assert_eq!(c.opened, "the preset named in the address");
    }

    #[test]
    fn an_unknown_preset_is_explained_and_the_saved_session_opens() {
        let mut stored = saved(OTHER);
        let c = playground("?preset=f3-taint", "", &mut stored);
        assert_eq!(opened(&c), (OTHER, false));
        assert_eq!(c.keep, Keep::OfferOtherTab);
        let [notice] = c.notices.as_slice() else {
            panic!("one notice: {:?}", c.notices)
        };
        assert!(notice.starts_with(
            "This page's address has an option the playground cannot use; the page opened without it:\n`preset=f3-taint`: no preset has this id"
        ));
        assert!(notice.contains("did you mean `preset=f3-taints`?"));
    }

    #[test]
    fn a_preset_that_cannot_load_is_all_the_page_says() {
        let opts = PageOptions {
            preset: Some("nope".into()),
            ..parse_options("", "")
        };
        let Opening::Playground(c) = choose(&opts, &mut Fake::default()) else {
            panic!("not a playground")
        };
        let Err(e) = c.start else {
            panic!("opened a preset that does not exist")
        };
        assert_eq!(
            e,
            r#"The preset nope could not be loaded: no preset named "nope""#
        );
        assert_eq!(c.keep, Keep::Untouched);
    }

    #[test]
    fn an_unknown_lesson_opens_no_session_and_reads_nothing() {
        let mut stored = saved(OTHER);
        let o = choose(&parse_options("?lesson=taints", ""), &mut stored);
        assert!(matches!(o, Opening::UnknownLesson(id) if id == "taints"));
        assert_eq!((stored.saved_reads, stored.lesson_reads.len()), (0, 0));
    }

    #[test]
    fn a_lesson_opens_where_this_browser_left_it_and_leaves_the_save_untouched() {
        let mut stored = saved(OTHER);
        let c = playground(&format!("?lesson={LESSON}"), "", &mut stored);
        let (_, lesson) = opened(&c);
        assert!(lesson);
        assert_eq!(stored.lesson_reads, [LESSON]);
        assert_eq!(stored.saved_reads, 0);
        assert_eq!(c.keep, Keep::Untouched);
        let start = c.start.as_ref().ok().and_then(|s| s.lesson.as_ref());
        assert!(start.is_some_and(|l| l.save && l.lesson.id == LESSON));
    }

    #[test]
    fn a_lesson_resumes_from_its_saved_progress() {
        let file = scenario::presets::lesson(LESSON).expect("a lesson of this build");
        let file = scenario::parse_lesson(file.file, file.text).expect("lessons parse");
        let progress = scenario::lesson::LessonProgress {
            step: 1,
            ..Default::default()
        };
        let mut stored = Fake {
            lesson: Some(Shared {
                scenario: file.scenario,
                view: ShareView {
                    panel: Some("events".into()),
                    lesson: Some(ShareLesson {
                        id: LESSON.into(),
                        progress,
                        played: 1,
                    }),
                    ..ShareView::default()
                },
                t: Some(3.0),
            }),
            ..Fake::default()
        };
        let c = playground(&format!("?lesson={LESSON}"), "", &mut stored);
        let Ok(start) = &c.start else {
            panic!("the lesson did not open")
        };
        let lesson = start.lesson.as_ref().expect("a lesson");
        assert_eq!((lesson.progress.step, lesson.played), (1, 1));
        assert_eq!((start.t, start.panel), (Some(3.0), Some(Panel::Events)));
    }

    #[test]
    fn a_link_to_a_lesson_opens_it_without_saving_over_the_learners_progress() {
        let file = scenario::presets::lesson(LESSON).expect("a lesson of this build");
        let file = scenario::parse_lesson(file.file, file.text).expect("lessons parse");
        let sh = Shared {
            scenario: file.scenario,
            view: ShareView {
                lesson: Some(ShareLesson {
                    id: LESSON.into(),
                    ..ShareLesson::default()
                }),
                ..ShareView::default()
            },
            t: None,
        };
        let mut stored = saved(OTHER);
        let c = playground("", &link(&sh), &mut stored);
        let lesson = c.start.as_ref().ok().and_then(|s| s.lesson.as_ref());
        assert!(lesson.is_some_and(|l| !l.save && l.lesson.id == LESSON));
        assert_eq!((stored.saved_reads, stored.lesson_reads.len()), (0, 0));
        assert_eq!(c.keep, Keep::Untouched);
    }

    #[test]
    fn an_embed_reads_no_saved_session_and_keeps_nothing_aside() {
        let mut stored = saved(OTHER);
        let c = playground("?embed=1", "", &mut stored);
        assert_eq!(opened(&c), (default_id(), false));
        assert_eq!(stored.saved_reads, 0);
        assert_ne!(c.keep, Keep::Aside);
        assert_eq!(c.theme, None);
    }

    #[test]
    fn an_embedded_lesson_starts_afresh_and_saves_nothing() {
        let mut stored = saved(OTHER);
        let c = playground(&format!("?embed=1&lesson={LESSON}"), "", &mut stored);
        let lesson = c.start.as_ref().ok().and_then(|s| s.lesson.as_ref());
        assert!(lesson.is_some_and(|l| !l.save && l.progress.step == 0));
        assert_eq!((stored.saved_reads, stored.lesson_reads.len()), (0, 0));
        assert_eq!(c.keep, Keep::Untouched);
    }

    #[test]
    fn compare_opens_its_own_page_and_reads_nothing() {
        let mut stored = saved(OTHER);
        let o = choose(&parse_options("?compare=a,b&lesson=nope", ""), &mut stored);
        assert!(matches!(o, Opening::Compare));
        assert_eq!(stored.saved_reads, 0);
    }
}
