//! The preset library: scenario files shipped in `presets/` at the repository root, embedded so
//! the web app and the CLI carry the same ones; and the lessons of `lessons/`, likewise.

/// One preset: its file name and text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    pub id: &'static str,
    pub file: &'static str,
    pub text: &'static str,
}

macro_rules! library {
    ($dir:literal: $($id:literal),* $(,)?) => {
        &[$(Preset {
            id: $id,
            file: concat!($dir, "/", $id, ".yaml"),
            text: include_str!(concat!("../../../../", $dir, "/", $id, ".yaml")),
        }),*]
    };
}

/// Every preset, the default first.
pub const ALL: &[Preset] = library!["presets":
    "f1-one-pod-per-node",
    "f2-node-labels",
    "f3-taints",
    "f4-rolling-update-max-unavailable-1",
    "f5-rolling-update-max-unavailable-2",
    "f6-on-delete",
    "max-surge-rollout",
    "rollback-without-restarts",
    "node-joins-and-leaves",
    "node-kubelet-stops",
    "zone-outage-rate-limited-taints",
    "bad-rollout-undo",
    "image-pull-backoff",
    "readiness-never-passes",
    "min-ready-seconds-catches-a-crash",
    "liveness-restarts-a-hung-agent",
    "failed-pod-backoff",
    "toleration-seconds-evict-loop",
    "node-too-small",
    "orphan-delete-and-readoption",
    "cluster-500-nodes",
    "cluster-5000-nodes",
];

/// The preset the playground opens with.
pub fn default_preset() -> Preset {
    ALL[0]
}

/// A preset by id.
pub fn get(id: &str) -> Option<Preset> {
    ALL.iter().copied().find(|p| p.id == id)
}

/// The lessons of `lessons/` (read with `crate::lesson::parse_lesson`), in the order a
/// Lessons menu lists them; `?lesson=ID` opens one.
pub const LESSONS: &[Preset] = library!["lessons":
    "one-pod-per-node",
    "node-selector-and-affinity",
    "taints-and-toleration-seconds",
    "rolling-update-max-unavailable",
    "max-surge",
    "bad-rollout-undo",
    "on-delete",
    "revision-history-and-rollback",
];

/// A lesson by id.
pub fn lesson(id: &str) -> Option<Preset> {
    LESSONS.iter().copied().find(|p| p.id == id)
}
