//! The playground's keyboard: the page's shortcuts (Space, ←, →, ?, Esc), which keys belong
//! to the focused control instead, and the keyboard help dialog.

use crate::{transport, Ctx, Panel};
use leptos::prelude::*;

/// Listens for the page's shortcuts while the playground is mounted; `help` is whether the
/// keyboard help is open.
pub(crate) fn shortcuts(ctx: Ctx, help: RwSignal<bool>) {
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
}

/// Whether a key belongs to the element that has focus rather than to the page's shortcuts:
/// everything typed into a field, Space and Enter on a button or a link (they press it), and
/// the arrows, Home and End on a tab (they move between the panels).
fn key_is_for_the_focused_control(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(e) = as_element(ev.target()) else {
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
    // A node of the grid: the arrows move between the nodes (`grid_keys`).
    if e.has_attribute(GRID_ITEM) && grid_move(&key).is_some() {
        return true;
    }
    let pressable = matches!(e.tag_name().as_str(), "BUTTON" | "A" | "SUMMARY")
        || role.as_deref() == Some("button");
    pressable && matches!(key.as_str(), " " | "Enter")
}

/// An event's target (or current target) as an element, when it is one.
pub(crate) fn as_element(t: Option<web_sys::EventTarget>) -> Option<web_sys::Element> {
    use wasm_bindgen::JsCast;
    t.and_then(|t| t.dyn_into::<web_sys::Element>().ok())
}

/// The attribute that makes an element one item of a roving-tabindex grid: its value names
/// the item (the node), and only one item of the grid is in the Tab order.
pub(crate) const GRID_ITEM: &str = "data-item";

/// A move inside a grid of items laid out in rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GridMove {
    Next,
    Previous,
    Down,
    Up,
    First,
    Last,
}

fn grid_move(key: &str) -> Option<GridMove> {
    Some(match key {
        "ArrowRight" => GridMove::Next,
        "ArrowLeft" => GridMove::Previous,
        "ArrowDown" => GridMove::Down,
        "ArrowUp" => GridMove::Up,
        "Home" => GridMove::First,
        "End" => GridMove::Last,
        _ => return None,
    })
}

/// Where a move from item `at` of `n` lands, with `columns` items in a row; it stays inside
/// the grid (no wrapping: the edges are where the arrows stop).
fn grid_target(m: GridMove, at: usize, n: usize, columns: usize) -> usize {
    let last = n.saturating_sub(1);
    let columns = columns.max(1);
    match m {
        GridMove::Next => (at + 1).min(last),
        GridMove::Previous => at.saturating_sub(1),
        GridMove::Down if at + columns <= last => at + columns,
        GridMove::Down => at,
        GridMove::Up => at.checked_sub(columns).unwrap_or(at),
        GridMove::First => 0,
        GridMove::Last => last,
    }
}

/// The keys of a roving-tabindex grid (the WAI-ARIA pattern): the arrows, Home and End move
/// the focus between the `GRID_ITEM`s inside `ev`'s current target, ↑/↓ by a row as laid out
/// on screen. The grid is one Tab stop; the caller keeps the focused item's `tabindex` at 0.
pub(crate) fn grid_keys(ev: &web_sys::KeyboardEvent) {
    use wasm_bindgen::JsCast;
    let Some(m) = grid_move(&ev.key()) else {
        return;
    };
    if ev.alt_key() || ev.ctrl_key() || ev.meta_key() {
        return;
    }
    let (Some(grid), Some(from)) = (as_element(ev.current_target()), as_element(ev.target()))
    else {
        return;
    };
    if !from.has_attribute(GRID_ITEM) {
        return;
    }
    let Ok(list) = grid.query_selector_all(&format!("[{GRID_ITEM}]")) else {
        return;
    };
    let items: Vec<web_sys::HtmlElement> = (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into().ok())
        .collect();
    let Some(at) = items.iter().position(|i| from.is_same_node(Some(i))) else {
        return;
    };
    // A row is the items that share the first item's top edge.
    let top = items.first().map_or(0, |i| i.offset_top());
    let columns = items.iter().take_while(|i| i.offset_top() == top).count();
    ev.prevent_default();
    let _ = items[grid_target(m, at, items.len(), columns)].focus();
}

thread_local! {
    /// Set while the tab list's arrow keys open the Terminal panel: its prompt then leaves the
    /// focus on the tab (the tabs pattern), where a click would put it in the prompt.
    static TAB_BY_KEYS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Records whether the panel about to open was chosen with the tab list's keys.
pub(crate) fn set_panel_chosen_by_keys(by_keys: bool) {
    TAB_BY_KEYS.with(|c| c.set(by_keys));
}

/// Whether the panel that just opened was chosen with the tab list's keys (read once).
pub(crate) fn panel_chosen_by_keys() -> bool {
    TAB_BY_KEYS.with(|c| c.replace(false))
}

/// Esc inside an open `<details>` menu closes it and gives the focus back to its `<summary>`
/// (a keydown handler for the `<details>`; the DOM is read from the event, so no node refs).
pub(crate) fn close_details_on_escape(ev: web_sys::KeyboardEvent) {
    use wasm_bindgen::JsCast;
    if ev.key() != "Escape" {
        return;
    }
    let Some(d) = as_element(ev.current_target()) else {
        return;
    };
    if d.remove_attribute("open").is_ok() {
        if let Some(s) = d
            .query_selector("summary")
            .ok()
            .flatten()
            .and_then(|s| s.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = s.focus();
        }
    }
}

/// Moves the focus to the element with this id; false when there is none.
pub(crate) fn focus_element(id: &str) -> bool {
    use wasm_bindgen::JsCast;
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        .is_some_and(|el| el.focus().is_ok())
}

thread_local! {
    /// What had focus when the keyboard help opened, to give it back when the help closes.
    static FOCUS_BEFORE_HELP: std::cell::RefCell<Option<web_sys::HtmlElement>> =
        const { std::cell::RefCell::new(None) };
}

/// The keyboard help, a modal dialog: focus moves to its Close button when it opens and back
/// to where it was when it closes.
#[component]
pub(crate) fn KeyboardHelp(close: impl Fn() + 'static + Copy) -> impl IntoView {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten items in rows of four: 0-3, 4-7, 8-9.
    #[test]
    fn grid_moves_stay_inside_and_go_by_rows() {
        let t = |m, at| grid_target(m, at, 10, 4);
        assert_eq!(t(GridMove::Next, 0), 1);
        assert_eq!(t(GridMove::Next, 9), 9);
        assert_eq!(t(GridMove::Previous, 0), 0);
        assert_eq!(t(GridMove::Previous, 4), 3);
        assert_eq!(t(GridMove::Down, 1), 5);
        assert_eq!(t(GridMove::Down, 5), 9);
        // No item below: stays.
        assert_eq!(t(GridMove::Down, 6), 6);
        assert_eq!(t(GridMove::Up, 9), 5);
        assert_eq!(t(GridMove::Up, 2), 2);
        assert_eq!(t(GridMove::First, 7), 0);
        assert_eq!(t(GridMove::Last, 2), 9);
        // One column (a phone): ↓ is the next item.
        assert_eq!(grid_target(GridMove::Down, 3, 10, 1), 4);
        assert_eq!(grid_target(GridMove::Down, 3, 10, 0), 4);
        for key in [
            "ArrowRight",
            "ArrowLeft",
            "ArrowDown",
            "ArrowUp",
            "Home",
            "End",
        ] {
            assert!(grid_move(key).is_some(), "{key} moves in the grid");
        }
        for key in ["a", "Enter", " ", "Tab"] {
            assert!(grid_move(key).is_none(), "{key:?} is not a grid move");
        }
    }
}
