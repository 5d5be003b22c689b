//! Rollout prediction (issue 25): "how long will this rollout take?", answered by running the
//! simulator ahead on copies of the scenario, one per update strategy, and reading each trace
//! with [`compare::summarize`] (the rollout's duration until `kubectl rollout status` would
//! return, its waves, the most pods unavailable at once).
//!
//! A prediction is a simulation, not a formula: probes, start-up times, crash loops and
//! taints play out as they would in the playground, so a template that never becomes ready
//! predicts a rollout that never completes (stopped at maxUnavailable), which is the truth.
//! Each copy starts from the scenario as written, its script included (the script is what
//! starts the rollout), optionally with its cluster grown or shrunk to `N` nodes first.

use std::time::Duration;

use crate::compare::{self, CompareError, Strategy, Summary};
use crate::Scenario;

/// The strategies a prediction runs beside the scenario's own.
pub const STRATEGIES: [Strategy; 4] = [
    Strategy::MaxUnavailable1,
    Strategy::MaxUnavailable10Percent,
    Strategy::MaxUnavailable25Percent,
    Strategy::MaxSurge1,
];

/// How much virtual time a prediction gives a rollout after the script has run: a
/// maxUnavailable=1 rollout of 5,000 nodes takes about 9.5 h.
pub const PREDICTION_LIMIT: Duration = Duration::from_secs(48 * 3600);

/// The largest cluster a prediction grows a scenario to (the playground's scale target).
pub const MAX_NODES: usize = 5000;

/// One row of a prediction.
#[derive(Debug, Clone, PartialEq)]
pub struct Prediction {
    /// `as written (RollingUpdate, maxUnavailable 1)` or a strategy's label.
    pub label: String,
    /// None when the script never changes a DaemonSet's spec.
    pub summary: Option<Summary>,
}

/// `base` with its cluster made `n` nodes: the node entry declared last (the workers, in every
/// preset) is repeated or cut, named as its first node is with the next free numbers; the
/// entries before it (a control plane) stay as they are.
pub fn with_node_count(base: &Scenario, n: usize) -> Result<Scenario, CompareError> {
    if n == 0 || n > MAX_NODES {
        return Err(CompareError {
            message: format!("{n} nodes is out of range"),
            hint: format!("give a number of nodes from 1 to {MAX_NODES}"),
        });
    }
    let mut s = base.clone();
    let Some((last, rest)) = s.nodes.split_last_mut() else {
        return Err(CompareError {
            message: format!("the scenario {:?} declares no nodes", base.id),
            hint: "add e.g. `nodes: [{pool: worker, count: 3}]` to the scenario".into(),
        });
    };
    let fixed: usize = rest.iter().map(|e| e.names.len()).sum();
    if n <= fixed {
        return Err(CompareError {
            message: format!(
                "{n} nodes is not more than the {fixed} declared before the last node entry"
            ),
            hint: format!(
                "give more than {fixed} nodes: only the last entry (the workers) is grown or cut"
            ),
        });
    }
    let want = n - fixed;
    if want < last.names.len() {
        last.names.truncate(want);
    } else {
        let first = last.names.first().cloned().unwrap_or_else(|| "node".into());
        let prefix = first
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .to_string();
        let taken: std::collections::BTreeSet<String> = rest
            .iter()
            .chain(std::iter::once(&*last))
            .flat_map(|e| e.names.iter().cloned())
            .collect();
        let mut i = 1;
        while last.names.len() < want {
            let name = format!("{prefix}{i}");
            if !taken.contains(&name) {
                last.names.push(name);
            }
            i += 1;
        }
    }
    Ok(s)
}

/// Runs `base` as written and once per [`STRATEGIES`] entry (one the scenario already has is
/// the same simulation, run once), each until its first rollout is complete or
/// [`PREDICTION_LIMIT`] has passed after the script, and summarises each.
pub fn predict(base: &Scenario) -> Result<Vec<Prediction>, CompareError> {
    let own = compare::strategy_words(base).ok_or_else(|| CompareError {
        message: format!("the scenario {:?} has no DaemonSet manifest", base.id),
        hint: "a prediction rolls out a DaemonSet: add its manifest under `files:`".into(),
    })?;
    let mut copies = vec![(format!("as written ({own})"), base.clone())];
    for strategy in STRATEGIES {
        copies.push((strategy.label().to_string(), strategy.fork(base)?));
    }
    // A strategy the scenario already has forks a copy whose manifests decode as the
    // original's: the same simulation, run once.
    let first_alike: Vec<usize> = (0..copies.len())
        .map(|i| {
            (0..i)
                .find(|&j| same_manifests(&copies[i].1, &copies[j].1))
                .unwrap_or(i)
        })
        .collect();
    let distinct: Vec<(String, Scenario)> = (0..copies.len())
        .filter(|&i| first_alike[i] == i)
        .map(|i| copies[i].clone())
        .collect();
    let mut ran = run_all(&distinct).into_iter();
    let mut runs: Vec<Run> = Vec::with_capacity(copies.len());
    for (i, &j) in first_alike.iter().enumerate() {
        let run = if j == i {
            ran.next().expect("one run per distinct copy")
        } else {
            runs[j].clone()
        };
        runs.push(run);
    }
    let mut rows = Vec::with_capacity(copies.len());
    for ((label, _), summary) in copies.into_iter().zip(runs) {
        rows.push(Prediction {
            label,
            summary: summary?,
        });
    }
    if rows.iter().all(|r| r.summary.is_none()) {
        return Err(CompareError {
            message: format!("the script of {:?} never changes a DaemonSet", base.id),
            hint: "a prediction needs a rollout: end the script with e.g. `kubectl set image ds/NAME CONTAINER=IMAGE:TAG`".into(),
        });
    }
    Ok(rows)
}

/// Whether two copies are one simulation: equal but for the text of their files, whose
/// documents decode to the same objects once the API server's defaults are set (a fork
/// re-writes the manifest it changes and spells out `maxSurge: 0`).
fn same_manifests(a: &Scenario, b: &Scenario) -> bool {
    let files_alike = a.files.len() == b.files.len()
        && a.files
            .iter()
            .zip(&b.files)
            .all(|((na, ta), (nb, tb))| na == nb && (ta == tb || same_objects(na, ta, tb)));
    let mut a_with_b_files = a.clone();
    a_with_b_files.files = b.files.clone();
    files_alike && a_with_b_files == *b
}

/// Whether two texts of file `name` hold the same objects, defaults set.
fn same_objects(name: &str, a: &str, b: &str) -> bool {
    use apiserver::defaults::set_defaults_daemon_set;
    use apiserver::Manifest as M;
    let (Ok(a), Ok(b)) = (
        apiserver::decode_manifests(name, a),
        apiserver::decode_manifests(name, b),
    ) else {
        return false;
    };
    a.len() == b.len()
        && a.into_iter().zip(b).all(|pair| match pair {
            (M::DaemonSet(mut x, _), M::DaemonSet(mut y, _)) => {
                set_defaults_daemon_set(&mut x);
                set_defaults_daemon_set(&mut y);
                x == y
            }
            (M::Node(x, _), M::Node(y, _)) => x == y,
            (M::Pod(x, _), M::Pod(y, _)) => x == y,
            (M::ControllerRevision(x, _), M::ControllerRevision(y, _)) => x == y,
            _ => false,
        })
}

/// What running one copy ahead comes to.
type Run = Result<Option<Summary>, CompareError>;

/// Each copy run ahead (`run_ahead`), in order. The copies run side by side, one thread per
/// core at most: each is a simulation of its own (its own seeded generator), so the answers
/// are the ones a run one after the other gives.
fn run_all(copies: &[(String, Scenario)]) -> Vec<Run> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(copies.len());
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<Run>>> = Mutex::new(vec![None; copies.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((_, copy)) = copies.get(i) else {
                    return;
                };
                let summary = run_ahead(copy);
                done.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(summary);
            });
        }
    });
    let done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.into_iter()
        .map(|r| r.expect("every copy was run"))
        .collect()
}

/// One copy, run: the script, then an hour at a time until the rollout is complete, the
/// cluster is at rest, or the limit has passed.
fn run_ahead(s: &Scenario) -> Run {
    let out = crate::run(s, false).map_err(|e| CompareError {
        message: e.to_string(),
        hint: "the scenario must run: check it with `dsplay run FILE`".into(),
    })?;
    let mut cluster = out.session.cluster;
    let step = Duration::from_secs(3600);
    let mut waited = Duration::ZERO;
    loop {
        let summary = compare::summarize(cluster.trace());
        let complete = summary.as_ref().is_some_and(|s| s.duration.is_some());
        if complete
            || waited >= PREDICTION_LIMIT
            || (waited > Duration::ZERO && cluster.is_settled())
        {
            return Ok(summary);
        }
        cluster.settle(step);
        waited += step;
    }
}

/// The prediction as the CLI prints it: a table, one row per strategy.
pub fn table(rows: &[Prediction], nodes: usize) -> String {
    let ds = rows
        .iter()
        .find_map(|r| r.summary.as_ref().map(|s| s.daemon_set.clone()))
        .unwrap_or_default();
    let mut out = format!("Rollout of {ds} on {nodes} nodes, simulated per update strategy:\n\n");
    let width = rows
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(0)
        .max(8);
    out.push_str(&format!(
        "{:<width$}  {:>12}  {:>5}  {:>16}\n",
        "STRATEGY", "DURATION", "WAVES", "MOST UNAVAILABLE"
    ));
    for r in rows {
        let (duration, waves, unavailable) = match &r.summary {
            None => ("no rollout".to_string(), "-".to_string(), "-".to_string()),
            Some(s) => (
                match s.duration {
                    Some(d) => seconds(d),
                    None => format!("> {}", seconds(PREDICTION_LIMIT.as_secs_f64())),
                },
                s.waves.to_string(),
                s.max_unavailable.to_string(),
            ),
        };
        out.push_str(&format!(
            "{:<width$}  {duration:>12}  {waves:>5}  {unavailable:>16}\n",
            r.label
        ));
    }
    if rows
        .iter()
        .any(|r| r.summary.as_ref().is_some_and(|s| s.duration.is_none()))
    {
        out.push_str(&format!(
            "\n> {}: the rollout did not complete (pods that never become available stop it at maxUnavailable)\n",
            seconds(PREDICTION_LIMIT.as_secs_f64())
        ));
    }
    out
}

/// `27.8 s`, `4m05s`, `9h32m`: a duration as the table prints it.
fn seconds(t: f64) -> String {
    let t = t.max(0.0);
    let whole = t.round() as u64;
    match whole {
        _ if t < 60.0 => format!("{t:.1} s"),
        0..3600 => format!("{}m{:02}s", whole / 60, whole % 60),
        _ => format!("{}h{:02}m", whole / 3600, whole % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preset(id: &str) -> Scenario {
        let p = crate::presets::ALL
            .iter()
            .find(|p| p.id == id)
            .expect("preset");
        crate::parse(p.file, p.text).expect("parses")
    }

    #[test]
    fn growing_and_cutting_the_workers_keeps_the_control_plane_and_names_unique() {
        let s = preset("f4-rolling-update-max-unavailable-1");
        let before: Vec<String> = s.nodes.iter().flat_map(|e| e.names.clone()).collect();
        let grown = with_node_count(&s, 12).unwrap();
        let names: Vec<String> = grown.nodes.iter().flat_map(|e| e.names.clone()).collect();
        assert_eq!(names.len(), 12);
        assert!(names.starts_with(&before), "{names:?}");
        let unique: std::collections::BTreeSet<&String> = names.iter().collect();
        assert_eq!(unique.len(), 12, "{names:?}");
        let fixed: usize = s.nodes[..s.nodes.len() - 1]
            .iter()
            .map(|e| e.names.len())
            .sum();
        let cut = with_node_count(&s, fixed + 1).unwrap();
        assert_eq!(
            cut.nodes.iter().map(|e| e.names.len()).sum::<usize>(),
            fixed + 1
        );
        assert!(with_node_count(&s, fixed)
            .unwrap_err()
            .hint
            .contains("more than"));
        assert!(with_node_count(&s, 0).is_err());
        assert!(with_node_count(&s, MAX_NODES + 1).is_err());
    }

    /// F-4: about 27 s for 4 nodes at maxUnavailable 1 (the compare test's figure), and the
    /// wider strategies are never slower.
    #[test]
    fn f4_predicts_its_measured_rollout_and_faster_ones_for_wider_strategies() {
        let rows = predict(&preset("f4-rolling-update-max-unavailable-1")).unwrap();
        assert_eq!(rows.len(), 5);
        assert_eq!(
            rows[0].label,
            "as written (RollingUpdate, maxUnavailable 1)"
        );
        let d = |i: usize| {
            rows[i]
                .summary
                .as_ref()
                .and_then(|s| s.duration)
                .expect("completes")
        };
        assert!((25.0..=29.0).contains(&d(0)), "{}", d(0));
        assert_eq!(d(0), d(1), "as written is maxUnavailable 1");
        assert!(d(3) <= d(1), "25 % is no slower than 1");
        let s = |i: usize| rows[i].summary.clone().unwrap();
        assert_eq!((s(1).max_unavailable, s(1).waves), (1, 4));
        assert_eq!(
            s(4).max_unavailable,
            0,
            "maxSurge 1 keeps every node served"
        );
        let text = table(&rows, 5);
        assert!(
            text.starts_with("Rollout of default/ru1 on 5 nodes"),
            "{text}"
        );
        assert!(text.contains("maxUnavailable 10%"), "{text}");
    }

    /// `predict` runs a strategy the scenario already has once: the fork re-writes the
    /// manifest (`maxSurge: 0` spelled out) but decodes to the same object once defaulted,
    /// and run on its own it answers exactly as the scenario does.
    #[test]
    fn a_fork_to_the_strategy_already_written_is_the_same_simulation() {
        let base = preset("f4-rolling-update-max-unavailable-1");
        let same = Strategy::MaxUnavailable1.fork(&base).unwrap();
        assert_ne!(same.files, base.files, "the fork re-writes the manifest");
        assert!(same_manifests(&same, &base));
        let other = Strategy::MaxUnavailable25Percent.fork(&base).unwrap();
        assert!(!same_manifests(&other, &base));
        let mut reseeded = same.clone();
        reseeded.seed = base.seed + 1;
        assert!(
            !same_manifests(&reseeded, &base),
            "only the files' text may differ"
        );
        assert_eq!(run_ahead(&same).unwrap(), run_ahead(&base).unwrap());
    }

    /// bad-rollout-undo up to the broken version's apply (its script then rolls back): the
    /// crash-looping pod stops every RollingUpdate strategy, surge included.
    #[test]
    fn a_broken_template_predicts_a_rollout_that_never_completes() {
        let mut s = preset("bad-rollout-undo");
        s.script.truncate(3);
        let rows = predict(&s).unwrap();
        for r in &rows {
            let summary = r.summary.as_ref().expect("a rollout starts");
            assert_eq!(summary.duration, None, "{}: {summary:?}", r.label);
        }
        assert_eq!(rows[1].summary.as_ref().unwrap().max_unavailable, 1);
        assert!(table(&rows, 5).contains("did not complete"));
    }

    #[test]
    fn durations_read_as_seconds_minutes_or_hours() {
        assert_eq!(seconds(27.79), "27.8 s");
        assert_eq!(seconds(59.99), "60.0 s");
        assert_eq!(seconds(245.2), "4m05s");
        assert_eq!(seconds(34_356.0), "9h32m");
        assert_eq!(seconds(48.0 * 3600.0), "48h00m");
    }

    #[test]
    fn a_scenario_without_a_rollout_is_explained() {
        let e = predict(&preset("f1-one-pod-per-node"))
            .map(|_| ())
            .unwrap_err();
        assert!(e.message.contains("never changes a DaemonSet"), "{e:?}");
    }
}
