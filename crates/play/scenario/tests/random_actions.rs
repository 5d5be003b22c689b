//! Invariants of the whole simulated cluster under random action sequences (issue 27, part 3).
//!
//! A case is a scenario file: a control plane and two to four workers (`w1` … `w4`, some
//! labelled `disk=ssd`), one DaemonSet `agent` (RollingUpdate with maxUnavailable 1 or 2 and no
//! surge, or maxSurge 1 with maxUnavailable 0; maybe a `disk: ssd` nodeSelector, a readiness
//! probe, `minReadySeconds`), and a script: `kubectl apply -f agent.yaml`, then random actions
//! — nodes added (`w1` … `w6`), removed, their kubelets stopped and started, `dedicated=x`
//! taints (NoSchedule, NoExecute) added and removed, the `disk` label set and removed,
//! rollouts (`kubectl set env`, `kubectl set image`), a template whose container exits at once
//! (`exit 1`, never Ready: docs/workloads.md) and back, `kubectl rollout undo`, pods deleted,
//! containers crashed (`pod crash`) — between sleeps of random length; then every stopped
//! kubelet is started again and the cluster rests for [`REST`] with no action. A failing case
//! prints as that scenario file, which `dsplay run` replays (see [`Case`]).
//!
//! The script is played through the scenario crate's own `run_line`; only a `sleep` is
//! stepped here, event by event, so that the checker sees every intermediate state and who
//! acted. That stepping is exactly `Cluster::advance` (property 4 checks it).
//!
//! Properties, all on every case ([`random_action_sequences_keep_the_invariants`]):
//!
//! 1. **The controller's own deletions stay within maxUnavailable** ([`Budget`]). Upstream does
//!    not promise that at most maxUnavailable pods are unavailable: node failures, crashes,
//!    evictions and deleted pods are not its doing, and it replaces unavailable old pods
//!    outside the budget (R-RU-8). What it promises (R-RU-6, R-RU-7, R-RU-9) is that it
//!    deletes an *Available* pod only while the nodes its rolling update counts as unavailable,
//!    the deletions included, stay within `maxUnavailable`, and a node whose pod it deleted
//!    counts as unavailable until it has an Available pod again (no live pod, a terminating
//!    one, or a new one not yet Available: R-RU-6/9). So: a *slot* opens when, in one sync,
//!    the controller deletes a daemon pod that its own informer cache showed live and
//!    Available (R-AVL-1, at the sync's instant), on a node that in that cache exists, should
//!    run the pod (R-ELG), and held no other live Available daemon pod; the slot closes as soon
//!    as, in the store, that node is gone, no longer should run the pod, or holds a live
//!    Available daemon pod. At every instant the open slots number at most `maxUnavailable`
//!    (an integer here: a percentage scales with the desired count, R-RU-2, which node changes
//!    move under it). Deletions of pods the cache showed unavailable (R-RU-8), on nodes that
//!    should no longer run the pod (R-MAN-2, R-RU-10, R-RU-12) and of surplus pods beside an
//!    Available one (R-MAN-6, R-MAN-7, R-RU-11) open no slot. With maxSurge 1 the budget is
//!    maxUnavailable = 0: the old pod goes only once its replacement is Available.
//! 2. **At rest** (after [`REST`] of no action with every kubelet running; every node is then
//!    required to be Ready): on each node that should run the pod (R-ELG, R-MAN-1, R-MAN-6)
//!    exactly one live (not terminating), non-terminal daemon pod with maxSurge 0; with
//!    maxSurge 1 exactly one while the template is healthy and `minReadySeconds` is 0, else one
//!    or two; at most that many where the pod may only continue running (R-MAN-3) and none
//!    where it may not (R-MAN-2). Why two may stay with maxSurge 1: an old pod stays beside a
//!    new one that never becomes Available (a crashing template, R-MAN-7); and with
//!    `minReadySeconds` nothing need wake the controller once the new pod has been Ready long
//!    enough — `podsShouldBeOnNode` schedules no sync for a Ready but not yet Available new
//!    pod, the pod's own R-EVT-5 timer may have been absorbed by an earlier one of the same key
//!    (client-go's delaying queue keeps a key's earliest `readyAt`, R-EVT-11), and status, which
//!    counts the node's old Available pod (R-ST-3), asks for no R-ST-6 resync — so upstream
//!    leaves both pods until the informers' resync, 12–24 h later (R-EVT-12), which the
//!    simulation does not run
//!    ([`with_surge_and_min_ready_seconds_both_pods_may_stay_until_the_informers_resync`]).
//! 3. **The status the controller wrote equals a recount** at rest: desired, current,
//!    misscheduled, ready, updated, available and unavailable counted from the store's nodes
//!    and pods by `crates/core/controller/tests/support/recount.rs` (R-ST-1 … R-ST-5, R-AVL-1,
//!    R-RU-4), and `observedGeneration` is the DaemonSet's generation (R-ST-6).
//! 4. **The same seed gives the same trace**: the stepped run and the scenario crate's batch
//!    runner (`scenario::run`) on the same scenario file give the same trace, byte for byte
//!    (`to_json_lines`: pods, nodes, DaemonSet status and the core/v1 Events), and every line
//!    prints the same.
//! 5. **Nothing panics**: not the script lines, the simulation, nor the view the page draws
//!    (`scenario::view::cluster_view`, after every line); proptest fails a case that panics
//!    and shrinks it.

#[path = "../../../core/controller/tests/support/recount.rs"]
mod recount;

use cluster::{to_json_lines, Actor, Cluster, PodEvent, TraceKind};
use controller::client::Listers;
use controller::history::compute_hash;
use controller::node_should_run_daemon_pod;
use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::Node;
use k8s_openapi::jiff::{SignedDuration, Timestamp};
use proptest::prelude::*;
use scenario::{Scenario, Step};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

/// Virtual seconds of rest after the last action: the longest recovery is a stopped node
/// (NotReady, then Unknown with its NoExecute taint) coming back and a six-node rollout at
/// maxUnavailable 1 finishing after it, well under a minute each; pods on removed nodes are
/// collected 40 s after pod GC notices (R-GC-1).
const REST: u64 = 300;
/// Node names the actions use: `w1` … `w6` (the first up to four exist at the start).
const POOL: u8 = 6;
const DS: &str = "agent";
const CRASH: &str = "exit 1";
const HEALTHY: &str = "sleep infinity";

fn selector() -> BTreeMap<String, String> {
    BTreeMap::from([("app".to_string(), DS.to_string())])
}

// ----- cases -----

/// The DaemonSet's update strategy.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Update {
    /// maxUnavailable N, maxSurge 0.
    Unavailable(u8),
    /// maxSurge 1, maxUnavailable 0.
    Surge,
}

impl Update {
    fn max_unavailable(self) -> usize {
        match self {
            Update::Unavailable(n) => usize::from(n),
            Update::Surge => 0,
        }
    }
}

#[derive(Clone, Debug)]
struct Setup {
    seed: u64,
    /// The initial workers `w1`, `w2`, …: whether each is labelled `disk=ssd`.
    workers: Vec<bool>,
    strategy: Update,
    /// The template's nodeSelector is `disk: ssd`.
    ssd_only: bool,
    probe: bool,
    min_ready_seconds: u8,
    /// Seconds slept after the apply, before the first action (0: actions race the start).
    warmup: u64,
}

/// One script line. `Debug` prints the line itself, so a shrunk case reads as a script.
#[derive(Clone, Copy)]
enum Action {
    Sleep(u64),
    NodeAdd(u8, bool),
    NodeRemove(u8),
    NodeStop(u8),
    NodeStart(u8),
    Taint(u8, &'static str),
    Untaint(u8),
    Label(u8),
    Unlabel(u8),
    SetEnv(u8),
    SetImage(u8),
    /// The template's command becomes `exit 1` (`true`) or `sleep infinity` (`false`).
    Crash(bool),
    Undo,
    DeletePods(u8),
    CrashContainer(u8),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Sleep(s) => write!(f, "sleep {s}s"),
            Action::NodeAdd(n, false) => write!(f, "node add w{n}"),
            Action::NodeAdd(n, true) => write!(f, "node add w{n} --label disk=ssd"),
            Action::NodeRemove(n) => write!(f, "node remove w{n}"),
            Action::NodeStop(n) => write!(f, "node stop w{n}"),
            Action::NodeStart(n) => write!(f, "node start w{n}"),
            Action::Taint(n, effect) => write!(f, "kubectl taint nodes w{n} dedicated=x:{effect}"),
            Action::Untaint(n) => write!(f, "kubectl taint nodes w{n} dedicated-"),
            Action::Label(n) => write!(f, "kubectl label nodes w{n} disk=ssd --overwrite"),
            Action::Unlabel(n) => write!(f, "kubectl label nodes w{n} disk-"),
            Action::SetEnv(v) => write!(f, "kubectl set env ds/{DS} VERSION={v}"),
            Action::SetImage(v) => write!(f, "kubectl set image ds/{DS} {DS}=busybox:1.3{v}"),
            Action::Crash(crash) => write!(
                f,
                r#"kubectl patch ds {DS} -p '{{"spec":{{"template":{{"spec":{{"containers":[{{"name":"{DS}","command":["sh","-c","{}"]}}]}}}}}}}}'"#,
                if crash { CRASH } else { HEALTHY }
            ),
            Action::Undo => write!(f, "kubectl rollout undo ds/{DS}"),
            Action::DeletePods(n) => write!(
                f,
                "kubectl delete pods -l app={DS} --field-selector spec.nodeName=w{n}"
            ),
            Action::CrashContainer(n) => write!(f, "pod crash --node w{n}"),
        }
    }
}

impl fmt::Debug for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A whole case. `Debug` prints it as the scenario file it is, ready for `dsplay run`.
#[derive(Clone)]
struct Case {
    setup: Setup,
    actions: Vec<Action>,
}

impl Case {
    fn manifest(&self) -> String {
        let s = &self.setup;
        let strategy = match s.strategy {
            Update::Unavailable(n) => format!("{{maxUnavailable: {n}}}"),
            Update::Surge => "{maxSurge: 1, maxUnavailable: 0}".to_string(),
        };
        let mut y = format!(
            "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: {DS}\nspec:\n  selector:\n    matchLabels: {{app: {DS}}}\n"
        );
        if s.min_ready_seconds > 0 {
            y.push_str(&format!("  minReadySeconds: {}\n", s.min_ready_seconds));
        }
        y.push_str(&format!(
            "  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate: {strategy}\n  template:\n    metadata:\n      labels: {{app: {DS}}}\n    spec:\n      terminationGracePeriodSeconds: 2\n"
        ));
        if s.ssd_only {
            y.push_str("      nodeSelector: {disk: ssd}\n");
        }
        y.push_str(&format!(
            "      containers:\n      - name: {DS}\n        image: busybox:1.36\n        command: [\"sh\", \"-c\", \"{HEALTHY}\"]\n        env: [{{name: VERSION, value: \"1\"}}]\n"
        ));
        if s.probe {
            y.push_str("        readinessProbe:\n          exec: {command: [\"true\"]}\n          initialDelaySeconds: 2\n          periodSeconds: 1\n");
        }
        y
    }

    /// The script: apply, the actions, every stopped kubelet started, the rest.
    fn script(&self) -> Vec<String> {
        let mut lines = vec![format!("kubectl apply -f {DS}.yaml")];
        if self.setup.warmup > 0 {
            lines.push(format!("sleep {}s", self.setup.warmup));
        }
        lines.extend(self.actions.iter().map(Action::to_string));
        let stopped: BTreeSet<u8> = self
            .actions
            .iter()
            .filter_map(|a| match a {
                Action::NodeStop(n) => Some(*n),
                _ => None,
            })
            .collect();
        lines.extend(stopped.iter().map(|n| format!("node start w{n}")));
        lines.push(format!("sleep {REST}s"));
        lines
    }

    fn scenario_text(&self) -> String {
        let mut y = format!(
            "scenario: random-actions\nseed: {}\nnodes:\n  - name: control-plane\n    labels: {{node-role.kubernetes.io/control-plane: \"\"}}\n    taints: [\"node-role.kubernetes.io/control-plane:NoSchedule\"]\n",
            self.setup.seed
        );
        for (i, ssd) in self.setup.workers.iter().enumerate() {
            y.push_str(&format!("  - name: w{}\n", i + 1));
            if *ssd {
                y.push_str("    labels: {disk: ssd}\n");
            }
        }
        y.push_str(&format!("files:\n  {DS}.yaml: |\n"));
        for line in self.manifest().lines() {
            y.push_str(&format!("    {line}\n"));
        }
        y.push_str("script:\n");
        for line in self.script() {
            // Single-quoted YAML: only the quote itself needs escaping.
            y.push_str(&format!("  - '{}'\n", line.replace('\'', "''")));
        }
        y
    }

    fn scenario(&self) -> Scenario {
        scenario::parse("random-actions.yaml", &self.scenario_text())
            .unwrap_or_else(|e| panic!("{e}\n{}", self.scenario_text()))
    }
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.scenario_text())
    }
}

/// Mostly the nodes that exist from the start, so that fewer lines fail for a missing node.
fn node_index() -> impl Strategy<Value = u8> {
    prop_oneof![3 => 1..=3u8, 1 => 4..=POOL]
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        8 => (1u64..=40).prop_map(Action::Sleep),
        1 => (node_index(), any::<bool>()).prop_map(|(n, ssd)| Action::NodeAdd(n, ssd)),
        1 => node_index().prop_map(Action::NodeRemove),
        1 => node_index().prop_map(Action::NodeStop),
        1 => node_index().prop_map(Action::NodeStart),
        1 => (node_index(), prop_oneof![Just("NoSchedule"), Just("NoExecute")])
            .prop_map(|(n, e)| Action::Taint(n, e)),
        1 => node_index().prop_map(Action::Untaint),
        1 => node_index().prop_map(Action::Label),
        1 => node_index().prop_map(Action::Unlabel),
        2 => (2u8..=4).prop_map(Action::SetEnv),
        1 => (6u8..=7).prop_map(Action::SetImage),
        2 => any::<bool>().prop_map(Action::Crash),
        1 => Just(Action::Undo),
        1 => node_index().prop_map(Action::DeletePods),
        1 => node_index().prop_map(Action::CrashContainer),
    ]
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        0u64..1000,
        proptest::collection::vec(prop_oneof![3 => Just(true), 1 => Just(false)], 2..=4),
        prop_oneof![
            Just(Update::Unavailable(1)),
            Just(Update::Unavailable(2)),
            Just(Update::Surge),
        ],
        any::<bool>(),
        any::<bool>(),
        prop_oneof![Just(0u8), Just(4u8)],
        prop_oneof![3 => Just(30u64), 1 => Just(0u64)],
    )
        .prop_map(
            |(seed, workers, strategy, ssd_only, probe, min_ready_seconds, warmup)| Setup {
                seed,
                workers,
                strategy,
                ssd_only,
                probe,
                min_ready_seconds,
                warmup,
            },
        )
}

/// A random case.
fn case() -> impl Strategy<Value = Case> {
    (setup(), proptest::collection::vec(action(), 1..=20))
        .prop_map(|(setup, actions)| Case { setup, actions })
}

// ----- property 1: the controller's deletions and maxUnavailable -----

/// The DaemonSet's pods on `node` that are live (not terminating), not terminal and Available
/// at the cluster's instant, in `objects` (the store, or the controller's cache).
fn available_pods_on(
    objects: &dyn Listers,
    ds: &DaemonSet,
    node: &str,
    now: Timestamp,
) -> Vec<Option<String>> {
    let pods = objects.pods("default");
    recount::ds_pods_on(&pods, ds, &selector(), node)
        .into_iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none() && !recount::is_terminal(p))
        .filter(|p| recount::is_available(p, ds.spec.min_ready_seconds, now))
        .map(|p| p.metadata.name.clone())
        .collect()
}

fn should_run(node: Option<Arc<Node>>, ds: &DaemonSet) -> bool {
    node.is_some_and(|n| node_should_run_daemon_pod(&n, ds).should_run)
}

/// Property 1's bookkeeping: the open slots (node → the pod whose deletion opened it).
#[derive(Default)]
struct Budget {
    limit: usize,
    slots: BTreeMap<String, String>,
    /// The most slots ever open at once.
    peak: usize,
    /// Trace entries already looked at.
    seen: usize,
}

impl Budget {
    /// After one step (`actor`: who acted; `None` for a script line's writes).
    fn after(&mut self, c: &Cluster, actor: Option<Actor>) -> Result<(), String> {
        let now = c.now();
        if actor == Some(Actor::Controller) {
            let cache = c.controller_view();
            for e in &c.trace()[self.seen..] {
                let TraceKind::Pod {
                    namespace,
                    name,
                    event: PodEvent::Terminating | PodEvent::Deleted,
                    ..
                } = &e.kind
                else {
                    continue;
                };
                let (Some(ds), Some(pod)) =
                    (cache.daemon_set("default", DS), cache.pod(namespace, name))
                else {
                    continue;
                };
                let Some(node) = recount::target_node(&pod).map(str::to_string) else {
                    continue;
                };
                let was_available = pod.metadata.deletion_timestamp.is_none()
                    && recount::ds_pods_on(std::slice::from_ref(&pod), &ds, &selector(), &node)
                        .len()
                        == 1
                    && recount::is_available(&pod, ds.spec.min_ready_seconds, now);
                let others_available = available_pods_on(cache, &ds, &node, now)
                    .iter()
                    .any(|p| *p != pod.metadata.name);
                if was_available && should_run(cache.node(&node), &ds) && !others_available {
                    self.slots.insert(node, name.clone());
                }
            }
        }
        self.seen = c.trace().len();
        if self.slots.is_empty() {
            return Ok(());
        }
        let Some(ds) = c.daemon_set("default", DS) else {
            self.slots.clear();
            return Ok(());
        };
        let store = c.objects();
        self.slots.retain(|node, _| {
            should_run(store.node(node), &ds) && available_pods_on(store, &ds, node, now).is_empty()
        });
        self.peak = self.peak.max(self.slots.len());
        if self.slots.len() > self.limit {
            return Err(format!(
                "at t={:.3}s the controller's deletions leave {} nodes without an Available pod, maxUnavailable {}: {:?} (node → deleted pod)",
                c.elapsed_seconds(),
                self.slots.len(),
                self.limit,
                self.slots
            ));
        }
        Ok(())
    }
}

// ----- playing a case -----

/// What a stepped run leaves.
struct Played {
    cluster: Cluster,
    outputs: Vec<String>,
    /// The most nodes the controller's deletions left without an Available pod at once.
    peak: usize,
}

/// Plays the case's script line by line with `run_line`, stepping each `sleep` event by event
/// exactly as `Cluster::advance` does, and checks property 1 after every step.
fn play_stepped(case: &Case) -> Result<Played, String> {
    let s = case.scenario();
    let mut session = scenario::start(&s).map_err(|e| e.to_string())?;
    let mut budget = Budget {
        limit: case.setup.strategy.max_unavailable(),
        ..Budget::default()
    };
    let mut outputs = Vec::new();
    for line in &s.script {
        let Step::Run(cmd) = &line.step else {
            return Err(format!("unexpected step {:?}", line.step));
        };
        let c = &mut session.cluster;
        if let Some(secs) = cmd
            .strip_prefix("sleep ")
            .and_then(|d| d.strip_suffix('s'))
            .and_then(|d| d.parse::<i64>().ok())
        {
            // `sleep` is `Cluster::advance`: every event due by `end`, then the clock at `end`.
            let end = c
                .now()
                .checked_add(SignedDuration::from_secs(secs))
                .map_err(|e| e.to_string())?;
            while c.next_event_time().is_some_and(|t| t <= end) {
                let Some(report) = c.step() else { break };
                budget.after(c, Some(report.actor))?;
            }
            c.advance(end.duration_since(c.now()).unsigned_abs());
            budget.after(c, None)?;
            outputs.push(String::new());
        } else {
            outputs.push(scenario::run_line(&mut session, cmd).output);
            budget.after(&session.cluster, None)?;
        }
        // What the page draws after the line (property 5).
        scenario::view::cluster_view(&session.cluster);
    }
    Ok(Played {
        cluster: session.cluster,
        outputs,
        peak: budget.peak,
    })
}

// ----- properties 2 and 3: at rest -----

fn ready(node: &Node) -> bool {
    node.status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .and_then(|cs| cs.iter().find(|c| c.type_ == "Ready"))
        .is_some_and(|c| c.status == "True")
}

fn template_crashes(ds: &DaemonSet) -> bool {
    ds.spec
        .template
        .spec
        .iter()
        .flat_map(|s| &s.containers)
        .flat_map(|c| c.command.iter().flatten())
        .any(|w| w == CRASH)
}

fn check_at_rest(case: &Case, c: &Cluster) -> Result<(), String> {
    let nodes = c.nodes();
    let not_ready: Vec<_> = nodes
        .iter()
        .filter(|n| !ready(n))
        .filter_map(|n| n.metadata.name.clone())
        .collect();
    if !not_ready.is_empty() {
        return Err(format!(
            "after {REST}s of rest, nodes not Ready: {not_ready:?}"
        ));
    }
    let ds = c.daemon_set("default", DS).ok_or("the DaemonSet is gone")?;
    let pods = c.pods();

    // Property 2.
    let most = match case.setup.strategy {
        Update::Unavailable(_) => 1,
        Update::Surge if !template_crashes(&ds) && ds.spec.min_ready_seconds.unwrap_or(0) == 0 => 1,
        Update::Surge => 2,
    };
    for node in &nodes {
        let name = node.metadata.name.as_deref().unwrap_or_default();
        let live: Vec<_> = recount::ds_pods_on(&pods, &ds, &selector(), name)
            .into_iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .collect();
        let names: Vec<_> = live.iter().map(|p| &p.metadata.name).collect();
        let should = node_should_run_daemon_pod(node, &ds);
        let (least, most) = if should.should_run {
            (1, most)
        } else if should.should_continue_running {
            (0, most)
        } else {
            (0, 0)
        };
        if !(least..=most).contains(&live.len()) {
            return Err(format!(
                "at rest node {name} ({should:?}) has {} live daemon pods, want {least}..={most}: {names:?}",
                live.len()
            ));
        }
        if should.should_run && live.iter().any(|p| recount::is_terminal(p)) {
            return Err(format!("at rest node {name} has a terminal pod: {names:?}"));
        }
    }

    // Property 3.
    let status = ds.status.clone().unwrap_or_default();
    let hash = compute_hash(&ds.spec.template, status.collision_count);
    let recounted = recount::expected_status(&nodes, &pods, &ds, &selector(), &hash, c.now());
    let written = recount::status_counters(&status);
    if written != recounted {
        return Err(format!(
            "status [desired, current, misscheduled, ready, updated, available, unavailable] written {written:?}, recounted {recounted:?}"
        ));
    }
    if status.observed_generation != ds.metadata.generation {
        return Err(format!(
            "observedGeneration {:?}, generation {:?}",
            status.observed_generation, ds.metadata.generation
        ));
    }
    Ok(())
}

/// Properties 1 … 5 on one case; the stepped run, for tests that look further.
fn check(case: &Case) -> Result<Played, String> {
    let played = play_stepped(case)?;
    check_at_rest(case, &played.cluster)?;

    // Property 4: the batch runner, on the same file, traces the same.
    let batch = scenario::run(&case.scenario(), false).map_err(|e| e.to_string())?;
    let (stepped_trace, batch_trace) = (
        to_json_lines(played.cluster.trace()),
        to_json_lines(batch.session.cluster.trace()),
    );
    if stepped_trace != batch_trace {
        let at = stepped_trace
            .lines()
            .zip(batch_trace.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(
                stepped_trace
                    .lines()
                    .count()
                    .min(batch_trace.lines().count()),
            );
        return Err(format!(
            "same seed, different traces from trace line {}: stepped {:?}, batch {:?}",
            at + 1,
            stepped_trace.lines().nth(at),
            batch_trace.lines().nth(at)
        ));
    }
    for (i, (record, stepped)) in batch.records.iter().zip(&played.outputs).enumerate() {
        if &record.output != stepped {
            return Err(format!(
                "script line {} `{}` printed {:?} in batch, {:?} stepped",
                i + 1,
                record.command,
                record.output,
                stepped
            ));
        }
    }
    Ok(played)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        // Every case plays a scenario twice; a long shrink would take minutes.
        max_shrink_iters: 256,
        ..ProptestConfig::default()
    })]

    /// Properties 1 … 5 of the module documentation on random scenarios.
    #[test]
    fn random_action_sequences_keep_the_invariants(case in case()) {
        if let Err(e) = check(&case) {
            return Err(TestCaseError::fail(e));
        }
    }
}

/// Property 1 is not vacuous: a plain rollout on four nodes at maxUnavailable 2 opens two
/// slots at once, and no more.
#[test]
fn a_plain_rollout_uses_its_whole_budget_and_no_more() {
    let case = Case {
        setup: Setup {
            seed: 1,
            workers: vec![true; 4],
            strategy: Update::Unavailable(2),
            ssd_only: false,
            probe: true,
            min_ready_seconds: 0,
            warmup: 30,
        },
        actions: vec![Action::SetEnv(2), Action::Sleep(60)],
    };
    let played = check(&case).unwrap_or_else(|e| panic!("{e}\n{case:?}"));
    assert_eq!(played.peak, 2, "{case:?}");
}

/// Why property 2 allows two pods per node with maxSurge 1 and `minReadySeconds` (found by
/// [`random_action_sequences_keep_the_invariants`]), as upstream behaves. The rollout to
/// VERSION=2 is undone at t=49 s, just as `w4`'s VERSION=2 pod turns Ready (t≈49.04 s; its
/// R-EVT-5 timer is due at t≈54.1 s). After the undo the controller deletes that pod and
/// creates a VERSION=1 pod on `w1` beside `w1`'s VERSION=2 one (maxSurge 1). The new pod turns
/// Ready at t≈51.8 s; its own timer (t≈56.8 s) is absorbed by the earlier one of the same key
/// (R-EVT-11). At the sync of t≈54.1 s it is Ready but not yet Available (minReadySeconds 4),
/// so both stay (R-MAN-7; upstream's `podsShouldBeOnNode` asks for no later sync), and status,
/// counting `w1`'s older, Available pod (R-ST-3), has numberReady = numberAvailable: no R-ST-6
/// resync either. That is the controller's last sync: nothing wakes it before the informers'
/// resync (R-EVT-12), so `w1` keeps both pods and `w3` its VERSION=2 one.
#[test]
fn with_surge_and_min_ready_seconds_both_pods_may_stay_until_the_informers_resync() {
    let case = Case {
        setup: Setup {
            seed: 0,
            workers: vec![true; 4],
            strategy: Update::Surge,
            ssd_only: false,
            probe: true,
            min_ready_seconds: 4,
            warmup: 30,
        },
        actions: vec![Action::SetEnv(2), Action::Sleep(19), Action::Undo],
    };
    let played = check(&case).unwrap_or_else(|e| panic!("{e}\n{case:?}"));
    let c = &played.cluster;
    let ds = c.daemon_set("default", DS).expect("the DaemonSet");
    let pods = c.pods();
    let live_on_w1 = recount::ds_pods_on(&pods, &ds, &selector(), "w1")
        .into_iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .count();
    assert_eq!(live_on_w1, 2, "{case:?}");
}

/// A bug found by [`random_action_sequences_keep_the_invariants`], fixed in
/// `Kubelet::register`: a node removed and added again under the same name (the same machine
/// booting again) got a kubelet that never looked at the pods already bound to its name. Here
/// the rollout deletes the pod of the removed `w2` (R-RU-5 visits missing nodes' pods; nobody
/// can finish its termination while `w2` is gone); `w2` is back a second later, before pod
/// GC's quarantine (R-GC-1). With the bug that pod stayed Terminating for good: pod GC leaves
/// it (its node exists), the DaemonSet creates nothing on `w2` while its sole pod terminates
/// (R-MAN-6) and counts `w2` unavailable (R-RU-9), so the rollout never moved on to `w1`. A real
/// kubelet lists the pods bound to its node when it starts and finishes a terminating one.
#[test]
fn a_node_that_joins_again_finishes_the_pods_terminating_on_it() {
    let case = Case {
        setup: Setup {
            seed: 0,
            workers: vec![true],
            strategy: Update::Unavailable(1),
            ssd_only: false,
            probe: false,
            min_ready_seconds: 0,
            warmup: 30,
        },
        actions: vec![
            Action::NodeAdd(2, false),
            Action::Sleep(2),
            Action::NodeRemove(2),
            Action::SetEnv(2),
            Action::Sleep(1),
            Action::NodeAdd(2, false),
        ],
    };
    if let Err(e) = check(&case) {
        panic!("{e}\n{case:?}");
    }
}
