//! Where a session comes from and where it goes: the page address (`?embed=1&preset=…`,
//! `#s=1.…&t=…` share links, DESIGN §4.3) and the autosave in localStorage. Encoding and
//! decoding are the `scenario::share` codec's; this module only reads and writes the browser.

use crate::transport::SPEEDS;
use scenario::share::{self, Shared};
use scenario::Scenario;

/// The localStorage key of the autosave.
pub const AUTOSAVE_KEY: &str = "dsplay.autosave";
/// The id of the page (tab) whose session [`AUTOSAVE_KEY`] holds.
pub const WRITER_KEY: &str = "dsplay.autosave.tab";
/// Where another tab's session is kept when this tab saves over it: the prefix, then that
/// tab's id. One key per tab, rewritten with its newest session each time it is displaced.
pub const TAB_KEPT_KEY_PREFIX: &str = "dsplay.autosave.kept.tab-";
/// Where a saved state that failed to decode is kept (never deleted).
pub const BROKEN_KEY_PREFIX: &str = "dsplay.autosave.unreadable.";
/// Where the saved session is kept when the page opens something else (a share link, a
/// `?preset=`): the new session's autosave would otherwise overwrite it.
pub const KEPT_KEY_PREFIX: &str = "dsplay.autosave.kept.";

/// Where a lesson's progress is saved: this prefix, then the lesson's id. One key per lesson,
/// apart from the autosave: a lesson never writes over the learner's own session.
pub const LESSON_KEY_PREFIX: &str = "dsplay.lesson.";

/// Set once the "Try this" strip is dismissed: it is a first-visit aid, not shown again.
pub const TRY_DISMISSED_KEY: &str = "dsplay.try.dismissed";

/// Whether this browser dismissed the "Try this" strip (no storage: not dismissed).
pub fn try_dismissed() -> bool {
    storage().is_some_and(|st| st.get_item(TRY_DISMISSED_KEY).ok().flatten().is_some())
}

/// Remembers that the "Try this" strip was dismissed. Storage that refuses only means it may
/// show again on the next visit.
pub fn dismiss_try() {
    if let Some(st) = storage() {
        let _ = st.set_item(TRY_DISMISSED_KEY, "1");
    }
}

/// The options of the page address (`?embed=1&autoplay=1&speed=4&preset=…&panel=…&theme=…&controls=0`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageOptions {
    pub embed: bool,
    pub autoplay: bool,
    pub speed: Option<f64>,
    pub preset: Option<String>,
    /// `?lesson=ID` as written: the page checks it against the lessons it has.
    pub lesson: Option<String>,
    pub panel: Option<String>,
    pub theme: Option<String>,
    pub controls: bool,
    /// `compare=a,b[,…]`: the compare view's list, checked by `scenario::compare::variants`.
    pub compare: Option<String>,
    /// The `#s=` share link, if any (the whole fragment).
    pub share: Option<String>,
    /// Each option whose value could not be used: the option as written, why, and a hint.
    pub problems: Vec<String>,
}

/// Reads `?…` and `#…` of the page address. A malformed value of a known option is left out
/// and said in `problems` (an embed must never break a docs page, but its author must see the
/// typo); unknown keys are ignored (hosts add their own, e.g. `utm_source`); bad share links are
/// reported when opened.
pub fn page_options() -> PageOptions {
    let loc = web_sys::window().map(|w| w.location());
    let search = loc
        .as_ref()
        .and_then(|l| l.search().ok())
        .unwrap_or_default();
    let hash = loc.as_ref().and_then(|l| l.hash().ok()).unwrap_or_default();
    parse_options(&search, &hash)
}

pub fn parse_options(search: &str, hash: &str) -> PageOptions {
    let mut o = PageOptions {
        controls: true,
        ..PageOptions::default()
    };
    for pair in search.trim_start_matches('?').split('&') {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let v = decode_component(v);
        let mut bad = |why: &str, hint: String| {
            o.problems.push(format!("`{k}={v}`: {why}\n  hint: {hint}"));
        };
        match k {
            "embed" => o.embed = v != "0",
            "autoplay" => o.autoplay = v != "0",
            "speed" => match v.parse::<f64>().ok().filter(|s| SPEEDS.contains(s)) {
                Some(s) => o.speed = Some(s),
                None => bad(
                    "not one of the playground's speeds",
                    format!(
                        "write one of {}",
                        list(SPEEDS.iter().map(|s| s.to_string()))
                    ),
                ),
            },
            "preset" if scenario::presets::get(&v).is_some() => o.preset = Some(v),
            "preset" => {
                let ids = scenario::presets::ALL.iter().map(|p| p.id);
                bad("no preset has this id", choices(k, &v, "presets", ids))
            }
            "panel" if crate::Panel::from_id(&v).is_some() => o.panel = Some(v),
            "panel" => {
                let ids = crate::Panel::ALL.iter().map(|p| p.id());
                bad("not a panel", choices(k, &v, "panels", ids))
            }
            "theme" if v == "light" || v == "dark" => o.theme = Some(v),
            "theme" => bad(
                "not a theme",
                "write `theme=light` or `theme=dark`, or leave it out to follow the system".into(),
            ),
            "controls" => o.controls = v != "0",
            "lesson" => o.lesson = Some(v),
            "compare" => o.compare = Some(v),
            _ => {}
        }
    }
    let hash = hash.trim_start_matches('#');
    if hash.starts_with("s=") {
        o.share = Some(hash.to_string());
    }
    o
}

/// `%xx` and `+` of a query value (share payloads are base64url and need none). Its bidi
/// controls are shown as `\u202e`: a notice quoting the value must read as written.
fn decode_component(s: &str) -> String {
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = match bytes.get(i..i + 3) {
            Some([b'%', h, l]) => hex(*h).zip(hex(*l)).map(|(h, l)| h * 16 + l),
            _ => None,
        };
        match (escaped, bytes[i]) {
            (Some(b), _) => {
                out.push(b);
                i += 3;
            }
            (None, b'+') => {
                out.push(b' ');
                i += 1;
            }
            (None, b) => {
                out.push(b);
                i += 1;
            }
        }
    }
    apiserver::gofmt::bidi_visible(&String::from_utf8_lossy(&out))
}

fn storage() -> Option<web_sys::Storage> {
    // In a sandboxed iframe without allow-same-origin, touching localStorage throws: no storage.
    web_sys::window()?.local_storage().ok().flatten()
}

/// The keys of `st` that start with `prefix`.
fn keys_with_prefix<'a>(
    st: &'a web_sys::Storage,
    prefix: &'a str,
) -> impl Iterator<Item = String> + 'a {
    (0..st.length().unwrap_or(0))
        .filter_map(|i| st.key(i).ok().flatten())
        .filter(move |k| k.starts_with(prefix))
}

/// `prefix` and the time in milliseconds: a new key for a session moved aside.
fn timed_key(prefix: &str) -> String {
    format!("{prefix}{}", js_sys::Date::now() as u64)
}

/// Saves the session: a link fragment (`share::fragment`) holding the scenario with every edit,
/// the view, and the time.
///
/// Several tabs share the one autosave. When the stored session is not the one this page last
/// read or wrote, another tab saved it since: it is kept aside under [`TAB_KEPT_KEY_PREFIX`]
/// and that tab's id before this page writes, and never written over when it cannot be kept.
/// So each open tab's newest session is always stored, in the autosave or in its own kept key.
/// The error says why this session is not stored (for the page to show).
pub fn save(fragment: &str) -> Result<(), &'static str> {
    const FULL: &str = "the browser refused to store it (its storage for this site may be full)";
    if SAVING_BLOCKED.load(std::sync::atomic::Ordering::Relaxed) {
        return Err("this page does not save over the session it could not keep aside");
    }
    let st = storage().ok_or("the browser gives this page no storage")?;
    let me = tab_id();
    let stored = st.get_item(AUTOSAVE_KEY).ok().flatten();
    if let Some(other) = stored.filter(|s| s != fragment && !is_base(s)) {
        let writer = st
            .get_item(WRITER_KEY)
            .ok()
            .flatten()
            .filter(|w| *w != me && !w.is_empty())
            .unwrap_or_else(|| timed_key("unknown-"));
        // When it cannot be kept, the other tab's session stays the saved one; this page
        // tries again at its next save.
        st.set_item(&format!("{TAB_KEPT_KEY_PREFIX}{writer}"), &other)
            .map_err(|_| FULL)?;
    }
    st.set_item(AUTOSAVE_KEY, fragment).map_err(|_| FULL)?;
    let _ = st.set_item(WRITER_KEY, &me);
    // An older session of this page that another tab displaced: the autosave is newer.
    let _ = st.remove_item(&format!("{TAB_KEPT_KEY_PREFIX}{me}"));
    set_base(Some(fragment.to_string()));
    set_last_saved(fragment);
    Ok(())
}

thread_local! {
    /// The autosave as this page last read or wrote it.
    static BASE: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    /// What this page saved last, session or lesson: what the crash banner downloads.
    static LAST_SAVED: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    /// This page's id, new on every load (a reloaded tab is a new writer; its first save
    /// finds the session it restored, so nothing is kept twice).
    static TAB_ID: String = format!(
        "{}-{:06}",
        js_sys::Date::now() as u64,
        (js_sys::Math::random() * 1e6) as u64
    );
}

fn set_last_saved(fragment: &str) {
    LAST_SAVED.with(|l| {
        if let Ok(mut l) = l.try_borrow_mut() {
            *l = Some(fragment.to_string());
        }
    });
}

/// The fragment this page saved last, session or lesson, if it saved any (read after a crash:
/// it never panics).
pub fn last_saved() -> Option<String> {
    LAST_SAVED.with(|l| l.try_borrow().ok()?.clone())
}

fn tab_id() -> String {
    TAB_ID.with(Clone::clone)
}

fn is_base(stored: &str) -> bool {
    BASE.with(|b| b.borrow().as_deref() == Some(stored))
}

fn set_base(value: Option<String>) {
    BASE.with(|b| *b.borrow_mut() = value);
}

/// Saves a lesson's progress (a share fragment whose view holds the lesson) under
/// [`LESSON_KEY_PREFIX`] and its id. The error says why it is not stored.
pub fn save_lesson(id: &str, fragment: &str) -> Result<(), &'static str> {
    let st = storage().ok_or("the browser gives this page no storage")?;
    st.set_item(&format!("{LESSON_KEY_PREFIX}{id}"), fragment)
        .map_err(|_| "the browser refused to store it (its storage for this site may be full)")?;
    set_last_saved(fragment);
    Ok(())
}

/// A lesson's saved progress, if any can be read (an unreadable one is left where it is and
/// the lesson starts afresh).
pub fn load_lesson(id: &str) -> Option<Shared> {
    let saved = storage()?
        .get_item(&format!("{LESSON_KEY_PREFIX}{id}"))
        .ok()
        .flatten()?;
    share::decode(&saved).ok()
}

/// This browser's storage, as `session::choose` reads it.
pub struct Browser;

impl crate::session::Stored for Browser {
    fn saved(&mut self) -> Option<Result<Shared, String>> {
        load_saved()
    }
    fn lesson(&mut self, id: &str) -> Option<Shared> {
        load_lesson(id)
    }
}

/// Opens another address of the playground (a page load).
pub fn navigate(url: &str) {
    if let Some(w) = web_sys::window() {
        let _ = w.location().set_href(url);
    }
}

/// The newest key of another tab's session kept aside by [`save`] (tab ids start with the
/// time in milliseconds, all of 13 digits until the year 2286).
pub fn newest_tab_kept() -> Option<String> {
    let st = storage()?;
    let newest = keys_with_prefix(&st, TAB_KEPT_KEY_PREFIX).max();
    newest
}

/// Moves a session kept by [`save`] to the archive of kept sessions ([`KEPT_KEY_PREFIX`]
/// and the time), which the page never offers again and never deletes.
pub fn archive_kept(key: &str) {
    let Some(st) = storage() else {
        return;
    };
    let Some(saved) = st.get_item(key).ok().flatten() else {
        return;
    };
    let archived = timed_key(KEPT_KEY_PREFIX);
    if st.set_item(&archived, &saved).is_ok() {
        let _ = st.remove_item(key);
    }
}

/// The saved session, if any. One that fails to decode is moved aside (kept under
/// [`BROKEN_KEY_PREFIX`]`<time>`) and reported; it is never deleted.
pub fn load_saved() -> Option<Result<Shared, String>> {
    let st = storage()?;
    let saved = st.get_item(AUTOSAVE_KEY).ok().flatten()?;
    match share::decode(&saved) {
        Ok(s) => {
            set_base(Some(saved));
            Some(Ok(s))
        }
        Err(e) => {
            let key = timed_key(BROKEN_KEY_PREFIX);
            let kept = st.set_item(&key, &saved).is_ok();
            if kept {
                let _ = st.remove_item(AUTOSAVE_KEY);
            }
            Some(Err(format!(
                "Your saved work could not be restored: {}\n  hint: {}{}",
                e.message,
                e.hint,
                if kept {
                    format!(" (it is kept in localStorage under “{key}”)")
                } else {
                    String::new()
                }
            )))
        }
    }
}

/// Set when the saved session could not be kept aside: this page then never saves over it.
static SAVING_BLOCKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Before the page starts `opening` instead of the saved session: keeps that session aside
/// (under [`KEPT_KEY_PREFIX`]`<time>`) unless it holds the same scenario, and returns the key.
/// Nothing a user built is overwritten by opening a link: when no copy can be stored (the
/// storage is full), this page stops autosaving and the error says so.
pub fn keep_saved_aside(opening: &Scenario) -> Result<Option<String>, String> {
    let Some(st) = storage() else {
        return Ok(None);
    };
    let Some(saved) = st.get_item(AUTOSAVE_KEY).ok().flatten() else {
        return Ok(None);
    };
    // Kept here or replaced knowingly: this page's first save is not another tab's doing.
    set_base(Some(saved.clone()));
    if let Ok(s) = share::decode(&saved) {
        if s.scenario.same_content(opening) {
            return Ok(None);
        }
    }
    // The same session kept already (the page opened links twice): point at that copy.
    let already = keys_with_prefix(&st, KEPT_KEY_PREFIX)
        .find(|k| st.get_item(k).ok().flatten().as_deref() == Some(saved.as_str()));
    if already.is_some() {
        return Ok(already);
    }
    let key = timed_key(KEPT_KEY_PREFIX);
    if st.set_item(&key, &saved).is_err() {
        SAVING_BLOCKED.store(true, std::sync::atomic::Ordering::Relaxed);
        return Err(
            "Your previous session could not be kept aside: the browser refused to store a copy (its storage for this site may be full).\n  \
             hint: this page will not save over it; open the playground without the link to go back to it, or download this scenario (Download YAML) to keep it."
                .to_string(),
        );
    }
    Ok(Some(key))
}

/// A session kept aside, in words for a notice (never its storage key): its title, how many
/// script lines it holds, and when it was kept when the key tells.
pub fn describe_kept(key: &str) -> String {
    let scenario = storage()
        .and_then(|st| st.get_item(key).ok().flatten())
        .and_then(|saved| share::decode(&saved).ok())
        .map(|s| s.scenario);
    let mut words = match scenario {
        Some(sc) => {
            let lines = sc.script.len();
            format!(
                "“{}”, {lines} script line{}",
                sc.title,
                if lines == 1 { "" } else { "s" }
            )
        }
        None => "a session".to_string(),
    };
    let millis = key
        .rsplit('.')
        .next()
        .and_then(|t| t.parse::<f64>().ok())
        .filter(|_| key.starts_with(KEPT_KEY_PREFIX) && !key.starts_with(TAB_KEPT_KEY_PREFIX));
    if let Some(ms) = millis {
        let d = js_sys::Date::new(&ms.into());
        words.push_str(&format!(
            ", kept at {:02}:{:02}",
            d.get_hours(),
            d.get_minutes()
        ));
    }
    words
}

/// The session kept under `key`, to open in place of the saved one, which takes its place
/// under `key` (so restoring swaps the two, and nothing is lost either way).
pub fn take_kept(key: &str) -> Result<Shared, String> {
    let st = storage().ok_or("the browser's storage is not available")?;
    let saved = st
        .get_item(key)
        .ok()
        .flatten()
        .ok_or_else(|| format!("nothing is kept under “{key}” any more"))?;
    let s = share::decode(&saved).map_err(|e| format!("{}\n  hint: {}", e.message, e.hint))?;
    match st.get_item(AUTOSAVE_KEY).ok().flatten() {
        Some(current) if current != saved => {
            st.set_item(key, &current).map_err(|_| {
                format!(
                    "the browser refused to store the current session under “{key}” (its storage for this site may be full)"
                )
            })?;
            // The session now under `key` is kept: the next save may write over it.
            set_base(Some(current));
        }
        _ => {
            let _ = st.remove_item(key);
        }
    }
    Ok(s)
}

/// Reloads the page when the address's share link is changed by hand (a link pasted into the
/// address bar of an open playground only changes the fragment, which loads nothing): the
/// page then opens it as it opens any link. The app's own address updates use
/// `history.replaceState`, which fires no `hashchange`.
pub fn reload_on_new_link() {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let Some(w) = web_sys::window() else {
        return;
    };
    let on_change = Closure::<dyn Fn()>::new(|| {
        let Some(w) = web_sys::window() else {
            return;
        };
        let hash = w.location().hash().unwrap_or_default();
        if hash.trim_start_matches('#').starts_with("s=") {
            let _ = w.location().reload();
        }
    });
    let _ = w.add_event_listener_with_callback("hashchange", on_change.as_ref().unchecked_ref());
    // Listens for the page's lifetime.
    on_change.forget();
}

/// Takes the query and fragment out of the address (after restoring a kept session, so that
/// a reload restores it again instead of reopening the link).
pub fn clear_address() {
    if let Some(path) = web_sys::window().and_then(|w| w.location().pathname().ok()) {
        replace_address(&path);
    }
}

/// Puts `fragment` (`#s=…`, or any address of this page) in the address bar without a reload
/// or a history entry.
pub fn replace_address(fragment: &str) {
    if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(fragment));
    }
}

/// The page's address without query or fragment (for links and embed snippets).
pub fn base_url() -> String {
    web_sys::window()
        .and_then(|w| {
            let l = w.location();
            Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))
        })
        .unwrap_or_default()
}

/// Copies `text` to the clipboard, then puts in `status` what became of it, in words for a
/// status line (the browser may refuse: no permission, an insecure page, a sandboxed frame).
pub fn copy_to_clipboard(
    text: &str,
    what: &'static str,
    status: leptos::prelude::RwSignal<String>,
) {
    use leptos::prelude::Set;
    let Some(w) = web_sys::window() else {
        return;
    };
    let promise = w.navigator().clipboard().write_text(text);
    leptos::task::spawn_local(async move {
        status.set(match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => format!("Copied the {what} to the clipboard."),
            Err(e) => {
                let why = js_sys::Reflect::get(&e, &"message".into())
                    .ok()
                    .and_then(|m| m.as_string())
                    .filter(|m| !m.is_empty())
                    .unwrap_or_else(|| "the browser refused".into());
                format!(
                    "The {what} was not copied ({why}). Select the text above and copy it \
                     with Ctrl+C (⌘C on a Mac)."
                )
            }
        })
    });
}

/// "did you mean `k=closest`? The WHAT are a, b or c".
pub(crate) fn choices<'a>(
    k: &str,
    v: &str,
    what: &str,
    names: impl Iterator<Item = &'a str> + Clone,
) -> String {
    let all = list(names.clone().map(str::to_string));
    match k8s_base::typo::closest(v, names, k8s_base::typo::usual_budget) {
        Some(n) => format!("did you mean `{k}={n}`? The {what} are {all}"),
        None => format!("the {what} are {all}"),
    }
}

/// `a, b or c`.
fn list(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => items.concat(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_read_and_bad_ones_ignored() {
        let o = parse_options(
            "?embed=1&autoplay=1&speed=4&preset=f3-taints&panel=events&theme=dark&controls=0",
            "",
        );
        assert!(o.embed && o.autoplay && !o.controls);
        assert_eq!(o.speed, Some(4.0));
        assert_eq!(o.preset.as_deref(), Some("f3-taints"));
        assert_eq!(o.panel.as_deref(), Some("events"));
        assert_eq!(o.theme.as_deref(), Some("dark"));
        let bad = parse_options(
            "?speed=999&preset=nope&panel=x&theme=pink&%zz&speed=3",
            "#other",
        );
        assert_eq!(
            bad,
            PageOptions {
                problems: bad.problems.clone(),
                ..parse_options("", "")
            }
        );
        assert!(bad.controls);
        // Each bad value is named as written, with a hint; the unknown key `%zz` is not.
        let said: Vec<&str> = bad
            .problems
            .iter()
            .map(|p| p.lines().next().unwrap_or(""))
            .collect();
        assert_eq!(
            said,
            [
                "`speed=999`: not one of the playground's speeds",
                "`preset=nope`: no preset has this id",
                "`panel=x`: not a panel",
                "`theme=pink`: not a theme",
                "`speed=3`: not one of the playground's speeds",
            ]
        );
        assert!(bad.problems[0].ends_with("hint: write one of 0.25, 0.5, 1, 2, 4, 8, 16, 32 or 64"));
        assert!(
            bad.problems[1].contains("f1-one-pod-per-node, ")
                && bad.problems[1].ends_with(", cluster-500-nodes or cluster-5000-nodes")
        );
        assert!(bad.problems[2].ends_with("explain, yaml, terminal, events, chart or script"));
        assert!(parse_options("?utm_source=docs&embed=1", "")
            .problems
            .is_empty());
    }

    #[test]
    fn query_values_are_unescaped_without_panicking() {
        assert_eq!(decode_component("a%20b+c"), "a b c");
        assert_eq!(decode_component("%"), "%");
        assert_eq!(decode_component("%é1"), "%é1");
        assert_eq!(decode_component("%4"), "%4");
        assert_eq!(decode_component("a%E2%80%AEb"), "a\\u202eb");
    }

    #[test]
    fn share_fragment_is_kept_whole() {
        let o = parse_options("", "#s=1.abc&t=12.5");
        assert_eq!(o.share.as_deref(), Some("s=1.abc&t=12.5"));
    }
}
