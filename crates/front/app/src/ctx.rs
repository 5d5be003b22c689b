//! What the components share ([`Ctx`]): the simulation, the counter that tells the views it
//! changed, and the UI state around it; and the three ways to change or ask it (`mutate`,
//! `command`, `edit`, `query`). Saving is not its business: `autosave` watches `frame`.

use crate::{crash, Output, Panel, Sim};
use leptos::prelude::*;
use scenario::view::ClusterView;

/// Everything the components share: the simulation and the UI state around it.
#[derive(Clone, Copy)]
pub(crate) struct Ctx {
    pub sim: StoredValue<Sim, LocalStorage>,
    /// Bumped after every change to `sim`; memos over the simulation (and the autosave) track it.
    pub frame: RwSignal<u64>,
    pub vm: Memo<ClusterView>,
    pub playing: RwSignal<bool>,
    pub speed: RwSignal<f64>,
    pub selected: RwSignal<Option<String>>,
    pub panel: RwSignal<Panel>,
    /// What the last step did, in one line.
    pub caption: RwSignal<String>,
    /// The terminal's scrollback: commands typed and commands made by edits.
    pub terminal: RwSignal<Vec<Output>>,
    pub compact: RwSignal<bool>,
    /// Why the last autosave did not happen, while it keeps failing (shown by the toolbar).
    pub unsaved: RwSignal<Option<&'static str>>,
}

impl Ctx {
    /// Changes the simulation and tells every view. `None` when the simulation is gone, or
    /// frozen by an earlier change that failed (see [`crash`]).
    pub fn mutate<R>(&self, f: impl FnOnce(&mut Sim) -> R) -> Option<R> {
        let r = crash::guard(|| self.sim.try_update_value(f))?;
        self.frame.update(|f| *f += 1);
        r
    }

    /// Reads the simulation, tracking changes.
    pub fn read<R>(&self, f: impl FnOnce(&Sim) -> R) -> R {
        self.frame.track();
        self.sim.with_value(f)
    }

    /// Runs a read-only command (`kubectl get …`) against the current state (untracked: a memo
    /// that shows it tracks `frame` itself).
    pub fn query(&self, line: &str) -> Output {
        self.sim
            .try_update_value(|s| s.read_only(line))
            .unwrap_or_else(|| Output {
                command: line.to_string(),
                text: String::new(),
                ok: false,
            })
    }

    /// Runs a command as the user's edit or terminal line: it shows in the terminal, and if it
    /// changes the cluster it becomes part of the scenario's script.
    pub fn command(&self, line: &str) -> Output {
        let out = self
            .mutate(|s| s.command(line))
            .unwrap_or_else(|| gone(line));
        self.show(&out);
        out
    }

    /// Makes a node or pod edit (see [`Sim::edit`]); every command it ran shows in the
    /// terminal. The error is the text to show beside the control that asked.
    pub fn edit(&self, edit: &scenario::edit::Edit) -> Result<(), String> {
        let outs = self
            .mutate(|s| s.edit(edit))
            .unwrap_or_else(|| Err(gone("edit")));
        match outs {
            Ok(outs) => {
                outs.iter().for_each(|o| self.show(o));
                Ok(())
            }
            Err(o) => {
                self.show(&o);
                Err(o.text)
            }
        }
    }

    /// A command's output in the caption (its first line on failure) and the terminal.
    fn show(&self, out: &Output) {
        self.caption.set(if out.ok {
            format!("$ {}", out.command)
        } else {
            let command = apiserver::gofmt::bidi_visible(&out.command);
            format!("$ {command} — {}", first_line(&out.text))
        });
        self.terminal.update(|t| t.push(out.clone()));
    }
}

fn gone(command: &str) -> Output {
    Output {
        command: command.to_string(),
        text: "the simulation is gone (page unloading)".into(),
        ok: false,
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}
