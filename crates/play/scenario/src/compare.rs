//! Compare (DESIGN §4.3): scenarios side by side, usually one scenario forked into variants
//! that differ only in the DaemonSet's `updateStrategy`, and what each rollout came to.
//!
//! A compare list is what `?compare=` carries: 2 to [`MAX_VARIANTS`] ids, each `BASE` or
//! `BASE:STRATEGY`. `BASE` is a preset id, or [`SHARED`] for the scenario of the address's
//! `#s=` share link (so a fork of an edited scenario is shared as `?compare=shared,shared:on-delete#s=1.…`,
//! the scenario encoded once by the share codec). `STRATEGY` ([`Strategy`]) rewrites every
//! DaemonSet manifest in the scenario's files; the seed, nodes and script stay as they are.
//!
//! A rollout's [`Summary`] is read from the trace: it starts at the DaemonSet's first spec
//! change after its creation (the API server raises `metadata.generation`: `kubectl set env`,
//! `set image`, `apply` of a new template), and it is complete at the first status written after
//! that in which `observedGeneration` has reached that generation and UP-TO-DATE and AVAILABLE
//! both equal DESIRED — the condition `kubectl rollout status` waits for.
//!
//! Knows nothing of the UI; each variant is an ordinary [`crate::Timeline`], which the caller
//! moves to the same virtual time (lockstep).

use std::fmt;

use cluster::{TraceEntry, TraceKind};
use serde_json::{json, Value};

use crate::format::Scenario;

/// The most scenarios one comparison plays.
pub const MAX_VARIANTS: usize = 4;
/// The base that names the scenario of the address's `#s=` share link.
pub const SHARED: &str = "shared";

/// An update strategy a variant gives every DaemonSet of its scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    MaxUnavailable1,
    /// Only in predictions ([`crate::predict::STRATEGIES`]), not in the compare menu's list.
    MaxUnavailable10Percent,
    MaxUnavailable25Percent,
    MaxSurge1,
    OnDelete,
}

impl Strategy {
    /// The forks a compare list and the Compare menu offer.
    pub const ALL: [Strategy; 4] = [
        Strategy::MaxUnavailable1,
        Strategy::MaxUnavailable25Percent,
        Strategy::MaxSurge1,
        Strategy::OnDelete,
    ];

    /// The id in a compare list (`f4-…:max-surge-1`).
    pub fn id(self) -> &'static str {
        match self {
            Strategy::MaxUnavailable1 => "max-unavailable-1",
            Strategy::MaxUnavailable10Percent => "max-unavailable-10pct",
            Strategy::MaxUnavailable25Percent => "max-unavailable-25pct",
            Strategy::MaxSurge1 => "max-surge-1",
            Strategy::OnDelete => "on-delete",
        }
    }

    /// How the menu names it.
    pub fn label(self) -> &'static str {
        match self {
            Strategy::MaxUnavailable1 => "maxUnavailable 1",
            Strategy::MaxUnavailable10Percent => "maxUnavailable 10%",
            Strategy::MaxUnavailable25Percent => "maxUnavailable 25%",
            Strategy::MaxSurge1 => "maxSurge 1",
            Strategy::OnDelete => "OnDelete",
        }
    }

    pub fn from_id(id: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.id() == id)
    }

    /// `spec.updateStrategy` as written in a manifest (maxSurge needs maxUnavailable 0, R-DEF-5).
    // `json!` calls `serde_json::to_value` on plain numbers and strings here, never on a
    // Kubernetes type, so the size rule against it does not apply.
    #[allow(clippy::disallowed_methods)]
    fn update_strategy(self) -> Value {
        let rolling = |unavailable: Value, surge: i32| json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": unavailable, "maxSurge": surge}});
        match self {
            Strategy::MaxUnavailable1 => rolling(json!(1), 0),
            Strategy::MaxUnavailable10Percent => rolling(json!("10%"), 0),
            Strategy::MaxUnavailable25Percent => rolling(json!("25%"), 0),
            Strategy::MaxSurge1 => rolling(json!(0), 1),
            Strategy::OnDelete => json!({"type": "OnDelete"}),
        }
    }

    /// `base` with every DaemonSet manifest in its files given this strategy. Only files that
    /// hold a DaemonSet are rewritten (as YAML from their JSON: comments do not survive).
    pub fn fork(self, base: &Scenario) -> Result<Scenario, CompareError> {
        let mut s = base.clone();
        let mut forked = false;
        for (name, text) in s.files.iter_mut() {
            let Ok(mut docs) = apiserver::yaml_to_json(name, text) else {
                continue;
            };
            let mut changed = false;
            for d in docs.iter_mut().filter(|d| is_daemon_set(d)) {
                if let Some(spec) = d.get_mut("spec").and_then(Value::as_object_mut) {
                    spec.insert("updateStrategy".into(), self.update_strategy());
                    changed = true;
                }
            }
            if changed {
                let yaml: Vec<String> = docs.iter().map(kubectl::to_yaml).collect();
                *text = yaml.join("---\n");
                forked = true;
            }
        }
        if !forked {
            return Err(CompareError {
                message: format!("the scenario {:?} has no DaemonSet manifest to vary", base.id),
                hint: "a variant changes the DaemonSet's updateStrategy: add the DaemonSet's manifest under `files:`".into(),
            });
        }
        Ok(s)
    }
}

fn is_daemon_set(doc: &Value) -> bool {
    doc.get("kind").and_then(Value::as_str) == Some("DaemonSet")
}

/// The update strategy of the scenario's first DaemonSet manifest, in words:
/// `RollingUpdate, maxUnavailable 1`, `RollingUpdate, maxSurge 1, maxUnavailable 0`,
/// `OnDelete` (None without one). Unset fields are left out, as in the manifest.
pub fn strategy_words(s: &Scenario) -> Option<String> {
    let ds = s
        .files
        .iter()
        .filter_map(|(n, t)| apiserver::yaml_to_json(n, t).ok())
        .flatten()
        .find(is_daemon_set)?;
    let st = &ds["spec"]["updateStrategy"];
    let kind = st["type"].as_str().unwrap_or("RollingUpdate");
    let mut words = vec![kind.to_string()];
    if kind == "RollingUpdate" {
        for (key, name) in [
            ("maxSurge", "maxSurge"),
            ("maxUnavailable", "maxUnavailable"),
        ] {
            match &st["rollingUpdate"][key] {
                Value::Null => {}
                Value::String(v) => words.push(format!("{name} {v}")),
                v => words.push(format!("{name} {v}")),
            }
        }
    }
    Some(words.join(", "))
}

/// One scenario of a comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// As written in the compare list.
    pub id: String,
    pub scenario: Scenario,
}

/// Why a compare list cannot be played: what is wrong and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompareError {
    pub message: String,
    pub hint: String,
}

impl fmt::Display for CompareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\n  hint: {}", self.message, self.hint)
    }
}

fn bad(message: String, hint: String) -> CompareError {
    CompareError { message, hint }
}

/// `a, b or c`, with the closest to `word` first suggested.
fn choices<'a>(word: &str, names: impl Iterator<Item = &'a str> + Clone, what: &str) -> String {
    let all: Vec<&str> = names.clone().collect();
    let listed = match all.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => all.concat(),
    };
    match k8s_base::typo::closest(word, names, k8s_base::typo::usual_budget) {
        Some(n) => format!("did you mean `{n}`? The {what} are {listed}"),
        None => format!("the {what} are {listed}"),
    }
}

/// Reads a compare list (`?compare=` after unescaping): 2 to [`MAX_VARIANTS`] distinct ids,
/// each a preset id or [`SHARED`] (which needs `shared`, the scenario of the address's share
/// link), optionally followed by `:` and a [`Strategy`] id.
pub fn variants(list: &str, shared: Option<&Scenario>) -> Result<Vec<Variant>, CompareError> {
    let ids: Vec<&str> = list.split(',').map(str::trim).collect();
    let usage = "write 2 to 4 ids separated by commas, e.g. `?compare=f4-rolling-update-max-unavailable-1,f5-rolling-update-max-unavailable-2`";
    if ids.len() < 2 || ids.iter().any(|i| i.is_empty()) {
        return Err(bad(
            format!(
                "`compare={list}` names {} scenario(s); a comparison needs at least 2",
                ids.iter().filter(|i| !i.is_empty()).count()
            ),
            usage.into(),
        ));
    }
    if ids.len() > MAX_VARIANTS {
        return Err(bad(
            format!(
                "`compare={list}` names {} scenarios; at most {MAX_VARIANTS} play side by side",
                ids.len()
            ),
            usage.into(),
        ));
    }
    let mut out: Vec<Variant> = Vec::with_capacity(ids.len());
    for id in ids {
        if out.iter().any(|v| v.id == id) {
            return Err(bad(
                format!("`{id}` is named twice in the comparison"),
                "compare different scenarios or strategies, e.g. `f4-rolling-update-max-unavailable-1,f4-rolling-update-max-unavailable-1:max-surge-1`".into(),
            ));
        }
        let (base, strategy) = match id.split_once(':') {
            Some((b, s)) => (b, Some(s)),
            None => (id, None),
        };
        let scenario = if base == SHARED {
            shared.cloned().ok_or_else(|| {
                bad(
                    format!("`{id}` names the shared scenario, but the address has no `#s=` share link"),
                    "`shared` is for a comparison opened from the playground's Compare button: open that link whole, or name presets".into(),
                )
            })?
        } else {
            let p = crate::presets::get(base).ok_or_else(|| {
                let names = crate::presets::ALL.iter().map(|p| p.id);
                bad(
                    format!("no preset has the id `{base}`"),
                    choices(base, names, "presets"),
                )
            })?;
            crate::parse(p.file, p.text)
                .map_err(|e| bad(e.to_string(), "this preset is broken: report it".into()))?
        };
        let scenario = match strategy {
            None => scenario,
            Some(s) => Strategy::from_id(s)
                .ok_or_else(|| {
                    let names = Strategy::ALL.iter().map(|s| s.id());
                    bad(
                        format!("`{s}` in `{id}` is not a strategy"),
                        choices(s, names, "strategies"),
                    )
                })?
                .fork(&scenario)?,
        };
        out.push(Variant {
            id: id.to_string(),
            scenario,
        });
    }
    Ok(out)
}

/// What one rollout came to, read from a trace (see the module doc for when it starts and
/// ends). Every time is virtual seconds since the scenario's start.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// The DaemonSet whose spec changed (`namespace/name`).
    pub daemon_set: String,
    /// When its first spec change after creation was stored.
    pub started: f64,
    /// Seconds from `started` until the rollout was complete; None while it is not.
    pub duration: Option<f64>,
    /// The most pods the DaemonSet's status counted unavailable at once (`numberUnavailable`)
    /// from `started` until complete.
    pub max_unavailable: i32,
    /// Batches of pods replaced: the distinct instants at which the DaemonSet's pods began
    /// terminating (the controller deletes a batch in one sync), from `started` until complete.
    pub waves: usize,
}

/// The summary of the first rollout in `trace` (None until some DaemonSet's spec changes).
pub fn summarize(trace: &[TraceEntry]) -> Option<Summary> {
    // The DaemonSet being rolled out and the generation its status must observe.
    let mut rolling: Option<(String, String, i64)> = None;
    let mut summary: Option<Summary> = None;
    // The DaemonSets' revision hashes (`<name>-<hash>` is the revision's name), to know its pods.
    let mut revisions: Vec<(String, String)> = Vec::new();
    let mut last_wave = f64::NEG_INFINITY;
    for e in trace {
        match &e.kind {
            TraceKind::ControllerRevision {
                namespace, name, ..
            } => {
                revisions.push((namespace.clone(), name.clone()));
            }
            TraceKind::DaemonSet {
                namespace,
                name,
                event: cluster::trace::ObjectEvent::Updated,
                generation,
            } => match &mut rolling {
                None if *generation > 1 => {
                    rolling = Some((namespace.clone(), name.clone(), *generation));
                    summary = Some(Summary {
                        daemon_set: format!("{namespace}/{name}"),
                        started: e.t,
                        duration: None,
                        max_unavailable: 0,
                        waves: 0,
                    });
                }
                // A further change before the rollout is complete: that one is waited for.
                Some((ns, n, g)) if ns == namespace && n == name => *g = (*g).max(*generation),
                _ => {}
            },
            TraceKind::DaemonSetStatus {
                namespace,
                name,
                status,
            } => {
                let (Some((ns, n, g)), Some(s)) = (&rolling, &mut summary) else {
                    continue;
                };
                if ns != namespace || n != name {
                    continue;
                }
                s.max_unavailable = s
                    .max_unavailable
                    .max(status.number_unavailable.unwrap_or(0));
                let desired = status.desired_number_scheduled;
                if status.observed_generation.unwrap_or(0) >= *g
                    && status.updated_number_scheduled.unwrap_or(0) == desired
                    && status.number_available.unwrap_or(0) == desired
                {
                    s.duration = Some(e.t - s.started);
                    return summary;
                }
            }
            TraceKind::Pod {
                namespace,
                revision_hash,
                event: cluster::trace::PodEvent::Terminating,
                ..
            } => {
                let (Some((ns, n, _)), Some(s)) = (&rolling, &mut summary) else {
                    continue;
                };
                let ours = namespace == ns
                    && revisions.iter().any(|(rns, r)| {
                        rns == ns
                            && r.strip_prefix(n.as_str()).and_then(|r| r.strip_prefix('-'))
                                == Some(revision_hash.as_str())
                    });
                if ours && e.t != last_wave {
                    last_wave = e.t;
                    s.waves += 1;
                }
            }
            _ => {}
        }
    }
    summary
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Timeline;

    const F4: &str = "f4-rolling-update-max-unavailable-1";
    const F5: &str = "f5-rolling-update-max-unavailable-2";

    /// Plays the variants in lockstep (every one moved to the same virtual time, half a second
    /// at a time, as the page's transport does) until `t`, and summarises each.
    fn lockstep(variants: &[Variant], until: f64) -> Vec<Option<Summary>> {
        let mut tls: Vec<Timeline> = variants
            .iter()
            .map(|v| Timeline::new(v.scenario.clone()).expect("variant starts"))
            .collect();
        let mut t = 0.0;
        while t < until {
            t += 0.5;
            for tl in &mut tls {
                assert!(tl.advance_to(t, usize::MAX));
                // Ahead only when a script's `expect:` ran a wait (`rollout status`) at once.
                assert!(tl.elapsed() >= t, "every variant at the same virtual time");
            }
        }
        tls.iter().map(|tl| summarize(tl.trace())).collect()
    }

    #[test]
    fn f4_and_f5_take_about_27_and_14_seconds_with_one_and_two_pods_unavailable() {
        let v = variants(&format!("{F4},{F5}"), None).expect("presets");
        let s = lockstep(&v, 80.0);
        let (f4, f5) = (
            s[0].clone().expect("f4 rolls out"),
            s[1].clone().expect("f5 rolls out"),
        );
        assert_eq!(f4.daemon_set, "default/ru1");
        assert_eq!(f5.daemon_set, "default/ru2");
        let (d4, d5) = (
            f4.duration.expect("f4 completes"),
            f5.duration.expect("f5 completes"),
        );
        // Field measurements F-4 and F-5: about 27 s and 14 s.
        assert!((25.0..=29.0).contains(&d4), "f4 took {d4}");
        assert!((12.0..=16.0).contains(&d5), "f5 took {d5}");
        assert_eq!((f4.max_unavailable, f5.max_unavailable), (1, 2));
        assert_eq!((f4.waves, f5.waves), (4, WAVES_F5));
    }

    /// f5's second batch is staggered by each pod's probe timing (see the preset): the
    /// controller deletes the third old pod as soon as one new pod is available and the
    /// fourth when the other is, so two pods, then one, then one.
    const WAVES_F5: usize = 3;

    #[test]
    fn a_summary_does_not_depend_on_how_time_was_moved() {
        let v = variants(F4, None).err();
        assert!(v.is_some(), "one id is not a comparison");
        let v = variants(&format!("{F4},{F4}:max-unavailable-25pct"), None).expect("fork");
        let stepped = lockstep(&v, 60.0);
        let mut whole = Timeline::new(v[0].scenario.clone()).expect("starts");
        whole.seek(60.0);
        assert_eq!(summarize(whole.trace()), stepped[0]);
    }

    #[test]
    fn forks_differ_only_in_the_update_strategy() {
        let f4 = crate::parse(
            crate::presets::get(F4).expect("f4").file,
            crate::presets::get(F4).expect("f4").text,
        )
        .expect("parses");
        assert_eq!(
            strategy_words(&f4).as_deref(),
            Some("RollingUpdate, maxUnavailable 1")
        );
        for s in Strategy::ALL {
            let fork = s.fork(&f4).expect("forks");
            assert_eq!(
                (&fork.nodes, &fork.script, fork.seed),
                (&f4.nodes, &f4.script, f4.seed)
            );
            let docs =
                |sc: &Scenario| apiserver::yaml_to_json("f", &sc.files["ru1.yaml"]).expect("yaml");
            let (mut a, b) = (docs(&fork), docs(&f4));
            assert_ne!(a, b);
            a[0]["spec"]["updateStrategy"] = b[0]["spec"]["updateStrategy"].clone();
            assert_eq!(a, b, "{s:?} changed more than the strategy");
        }
        let words = |s: Strategy| strategy_words(&s.fork(&f4).expect("forks"));
        assert_eq!(words(Strategy::OnDelete).as_deref(), Some("OnDelete"));
        assert_eq!(
            words(Strategy::MaxSurge1).as_deref(),
            Some("RollingUpdate, maxSurge 1, maxUnavailable 0")
        );
        assert_eq!(
            words(Strategy::MaxUnavailable25Percent).as_deref(),
            Some("RollingUpdate, maxSurge 0, maxUnavailable 25%")
        );
    }

    #[test]
    fn strategies_change_the_rollout_as_upstream_does() {
        let v = variants(
            "f6-on-delete,f6-on-delete:max-unavailable-1,f4-rolling-update-max-unavailable-1:max-surge-1,f4-rolling-update-max-unavailable-1:max-unavailable-25pct",
            None,
        )
        .expect("forks");
        let s: Vec<Summary> = lockstep(&v, 80.0)
            .into_iter()
            .map(|s| s.expect("the template changes"))
            .collect();
        // OnDelete replaces only the pod the script deletes by hand.
        assert_eq!((s[0].duration, s[0].waves), (None, 1));
        let rolling = s[1].duration.expect("RollingUpdate completes");
        assert!((25.0..=29.0).contains(&rolling), "{rolling}");
        assert_eq!((s[1].max_unavailable, s[1].waves), (1, 4));
        assert_eq!(
            s[2].max_unavailable, 0,
            "maxSurge keeps every node's pod available"
        );
        assert_eq!(s[2].waves, 4);
        assert!(s[2].duration.is_some());
        // 25 % of 4 nodes is 1: the same budget as maxUnavailable 1.
        assert_eq!((s[3].max_unavailable, s[3].waves), (1, 4));
    }

    #[test]
    fn bad_lists_say_what_is_wrong() {
        let f4 = crate::parse(
            crate::presets::get(F4).expect("f4").file,
            crate::presets::get(F4).expect("f4").text,
        )
        .expect("parses");
        let e = |list: &str| variants(list, None).expect_err(list).message;
        assert!(e("f4-rolling-update-max-unavailable-1").contains("names 1 scenario"));
        assert!(e("a,,b").contains("at least 2"));
        assert!(e(&format!(
            "{F4},{F5},{F4}:on-delete,{F5}:on-delete,f3-taints"
        ))
        .contains("at most 4"));
        assert!(e(&format!("{F4},{F4}")).contains("named twice"));
        assert!(e(&format!("{F4},nope")).contains("no preset has the id `nope`"));
        assert!(e(&format!("{F4},shared")).contains("no `#s=` share link"));
        assert!(e(&format!("{F4},{F4}:fast")).contains("`fast` in"));
        let typo =
            variants(&format!("{F4},f5-rolling-update-max-unavailable-3"), None).expect_err("typo");
        assert!(
            typo.hint.starts_with(&format!("did you mean `{F5}`?")),
            "{}",
            typo.hint
        );
        // No DaemonSet to vary.
        let mut bare = f4.clone();
        bare.files.clear();
        assert!(Strategy::OnDelete.fork(&bare).is_err());
        let ok = variants("shared,shared:on-delete", Some(&f4)).expect("shared");
        assert_eq!(ok[0].scenario, f4);
        assert_eq!(strategy_words(&ok[1].scenario).as_deref(), Some("OnDelete"));
    }
}
