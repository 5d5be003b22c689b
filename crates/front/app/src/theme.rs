//! The colour theme: light, dark, or the system's, on the root element's `data-theme`.

use leptos::prelude::*;

/// Light, dark, or whatever the system prefers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    System,
    Light,
    Dark,
}

impl Theme {
    /// `light` or `dark` as written in an address, a link or the menu; anything else follows
    /// the system.
    pub(crate) fn from_id(id: &str) -> Theme {
        match id {
            "light" => Theme::Light,
            "dark" => Theme::Dark,
            _ => Theme::System,
        }
    }
    fn id(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
    /// What a share link records (nothing for "system").
    pub(crate) fn share_id(self) -> Option<String> {
        (self != Theme::System).then(|| self.id().to_string())
    }
    pub(crate) fn apply(self) {
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("data-theme", self.id());
        }
    }
}

#[component]
pub(crate) fn ThemeSwitch(theme: RwSignal<Theme>) -> impl IntoView {
    // The autosave follows `theme`.
    view! {
        <label class="theme">"Theme "
            <select aria-label="Theme" on:change=move |ev| theme.set(Theme::from_id(&event_target_value(&ev)))>
                {[Theme::System, Theme::Light, Theme::Dark].into_iter().map(|t| view! {
                    <option value=t.id() selected=move || theme.get() == t>{t.id()}</option>
                }).collect_view()}
            </select>
        </label>
    }
}
