//! The DaemonSet Playground web app: Leptos views and wiring only. The scenario plays in the
//! `scenario` crate, what a frame shows comes from `scenario::view`, every verdict from the
//! controller (`DaemonPodPredicate::explain`), every command from the kubectl layer. Nothing
//! here re-implements a rule.
//!
//! The page ([`App`], in `shell`) opens the session `session::choose` picks from the address
//! and this browser's saves, and lays out a [`Playground`]: its components share one `Ctx`
//! (`ctx`: the simulation and the UI state), every change goes through `Ctx::mutate`, and the
//! `autosave` effect saves what changed. If the page ever panics, `crash` keeps the session as
//! it was before the failing change.

mod autosave;
mod chart;
mod compare;
mod counters;
mod crash;
mod ctx;
mod editor;
pub mod embed_api;
mod events;
mod explain;
mod files;
mod keyboard;
mod lesson;
mod nodes;
mod panel;
mod persist;
mod script;
mod session;
mod shell;
mod sim;
mod terminal;
mod theme;
mod transport;

pub(crate) use ctx::Ctx;
pub use panel::Panel;
pub use session::Start;
pub use shell::{App, Playground};
pub(crate) use sim::Output;
pub use sim::Sim;
pub use theme::Theme;
