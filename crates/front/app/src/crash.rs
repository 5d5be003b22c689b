//! When the page panics. The release page is built with `panic=immediate-abort` (xtask's
//! `lean_std`, for size): a panic is a wasm `unreachable` trap at once, with no unwinding and
//! no panic hook, so no Rust code runs at the panic itself. `web/public/boot.js` sees the trap
//! and shows the banner (Reload, Download scenario); this module makes sure that the session
//! is the one before the failing change and stays so:
//! - every change to a simulation runs inside [`guard`], which marks the page as changing it
//!   until the change returns. A change that trapped never returns: the mark stays, every
//!   later change is refused and the autosave saves nothing more, so the last save holds the
//!   state before that change, and a reload restores it;
//! - boot.js calls [`stopped_by_a_crash`] on a trap anywhere else (a view, an effect), which
//!   sets the same mark;
//! - the banner's "Download scenario" calls [`download_saved_scenario`]: the last save's
//!   scenario as a YAML file, through the toolbar's own download.
//!
//! Both entry points run after a trap, in a wasm instance whose Rust state may be half-changed:
//! they touch only this module's flag and the last saved text, never the simulation.

use std::sync::atomic::{AtomicBool, Ordering};
use wasm_bindgen::prelude::wasm_bindgen;

/// Set while a change runs, and for good once one did not return or the page trapped.
static STOPPED: AtomicBool = AtomicBool::new(false);

/// Whether the page stopped changing and saving (a change is under way, or one failed).
pub(crate) fn stopped() -> bool {
    STOPPED.load(Ordering::Relaxed)
}

/// Runs a change to a simulation, or `None` once the page stopped (a change failed). Not
/// reentrant: a change never starts another.
pub(crate) fn guard<R>(change: impl FnOnce() -> R) -> Option<R> {
    if STOPPED.swap(true, Ordering::Relaxed) {
        return None;
    }
    let r = change();
    STOPPED.store(false, Ordering::Relaxed);
    Some(r)
}

// Called by boot.js when the page trapped: nothing changes or is saved from now on. (Plain
// comments on the exports: wasm-bindgen copies doc comments into the page's JS glue.)
#[wasm_bindgen]
pub fn stopped_by_a_crash() {
    STOPPED.store(true, Ordering::Relaxed);
}

// Offers the last saved session's scenario as a YAML file; the error is what the banner shows
// instead (an embed saves nothing).
#[wasm_bindgen]
pub fn download_saved_scenario() -> Option<String> {
    let Some(saved) = crate::persist::last_saved() else {
        return Some(
            "this page saved nothing in this browser (an embedded page keeps nothing)".into(),
        );
    };
    let download = scenario::share::decode(&saved)
        .map_err(|e| format!("the last save cannot be read: {}", e.message))
        .and_then(|shared| crate::files::download_scenario(&shared.scenario));
    download.err()
}
