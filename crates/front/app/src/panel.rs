//! The side panels: which there are, their ids in addresses and links, and how the tab list
//! moves between them.

/// The side panels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panel {
    Explain,
    Yaml,
    Terminal,
    Events,
    Chart,
    Script,
}

impl Panel {
    pub const ALL: [Panel; 6] = [
        Panel::Explain,
        Panel::Yaml,
        Panel::Terminal,
        Panel::Events,
        Panel::Chart,
        Panel::Script,
    ];
    pub fn id(self) -> &'static str {
        match self {
            Panel::Explain => "explain",
            Panel::Yaml => "yaml",
            Panel::Terminal => "terminal",
            Panel::Events => "events",
            Panel::Chart => "chart",
            Panel::Script => "script",
        }
    }
    /// The id of this panel's tab in the tab list (`tab-explain`, …).
    pub fn tab_id(self) -> String {
        format!("tab-{}", self.id())
    }
    pub fn label(self) -> &'static str {
        match self {
            Panel::Explain => "Explain",
            Panel::Yaml => "YAML",
            Panel::Terminal => "Terminal",
            Panel::Events => "Events",
            Panel::Chart => "Chart",
            Panel::Script => "Script",
        }
    }
    /// The tab a key moves to from `self` in the tab list (←/→ wrap around, Home, End), or
    /// `None` for a key the tab list does not use.
    pub fn after_key(self, key: &str) -> Option<Panel> {
        let n = Panel::ALL.len();
        let at = Panel::ALL.iter().position(|p| *p == self).unwrap_or(0);
        let to = match key {
            "ArrowRight" => (at + 1) % n,
            "ArrowLeft" => (at + n - 1) % n,
            "Home" => 0,
            "End" => n - 1,
            _ => return None,
        };
        Some(Panel::ALL[to])
    }
    pub fn from_id(id: &str) -> Option<Panel> {
        Panel::ALL.into_iter().find(|p| p.id() == id)
    }
}
