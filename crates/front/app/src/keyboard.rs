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

/// Moves the focus to the element with this id, if there is one.
pub(crate) fn focus_element(id: &str) {
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
