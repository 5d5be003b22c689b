//! The node lifecycle controller (R-NLC-1..3, `nodelifecycle/node_lifecycle_controller.go`)
//! and the kubelet Leases it watches.
//!
//! - `monitorNodeHealth`, every `node_monitor_period`: records `RegisteredNode` for nodes it sees
//!   for the first time (`RemovingNode` for nodes gone); after `node_monitor_grace` without a
//!   Lease renewal, a node's conditions become Unknown (`NodeStatusUnknown`), with a
//!   `NodeNotReady` event and its pods marked not Ready (`MarkPodsNotReady`, a `NodeNotReady`
//!   warning per pod); `processTaintBaseEviction` queues NotReady/Unknown nodes for their
//!   NoExecute taint and untaints Ready ones; `handleDisruption` computes each zone's state and
//!   sets its tainting rate.
//! - `doNoExecuteTaintingPass`, every 100 ms while a zone's queue waits: taints queued nodes
//!   `not-ready`/`unreachable` NoExecute through the zone's token bucket (burst 1):
//!   `node_eviction_rate` per second, `secondary_node_eviction_rate` (or none, in small zones) in
//!   partial disruption; when every zone is fully disrupted, none, and the taints go.
//! - `doNoScheduleTaintingPass`, promptly after every node change: Ready=False → `not-ready`,
//!   Ready=Unknown → `unreachable`, the pressure conditions and `spec.unschedulable` → their
//!   NoSchedule taints; cleared conditions remove them.
//!
//! Owns Leases, the condition → taint map, zones and their tainting queues; knows nothing of
//! pods beyond marking them not Ready, and nothing of DaemonSets.

use k8s_openapi::api::core::v1::{Node, NodeCondition, ObjectReference, Taint};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use controller::keys::taints;

use crate::engine::{period, plus, seconds_between, Ev, Sched};
use crate::scheduler::pod_key;
use crate::store::{reference, Obj, Recorder, Store, WatchEvent, WatchKind};
use crate::timing::Timing;

/// The node lifecycle controller's event source (`v1.EventSource{Component: "node-controller"}`).
const COMPONENT: &str = "node-controller";

/// `scheduler.NodeEvictionPeriod`: `doNoExecuteTaintingPass` runs every 100 ms.
const NODE_EVICTION_PERIOD_NANOS: i128 = 100_000_000;

/// `labelNodeDisruptionExclusion`: nodes with this label count in no zone.
const LABEL_EXCLUDE_DISRUPTION: &str = "node.kubernetes.io/exclude-disruption";

/// A kubelet's Lease (coordination.k8s.io), renewed every `node_lease_period` while the
/// kubelet runs. Renewals are implicit: the last one is computed, not stored.
#[derive(Debug, Clone, Copy)]
struct Lease {
    running: bool,
    anchor: Timestamp,
    stopped_at: Option<Timestamp>,
    /// When the kubelet first created it (kept across stops and starts).
    created: Timestamp,
    /// The controller's probe timestamp was reset here (leaving master disruption mode):
    /// the grace period counts from it when it is later than the last renewal.
    probe_reset: Option<Timestamp>,
}

/// The node's Lease is older than the grace period (`tryUpdateNodeHealth`).
fn is_stale(lease: &Lease, now: Timestamp, t: &Timing) -> bool {
    seconds_between(now, lease.last_probe(now, t.node_lease_period)) > t.node_monitor_grace
}

impl Lease {
    /// The last renewal at or before `now`.
    fn last_renew(&self, now: Timestamp, period: f64) -> Timestamp {
        let end = if self.running {
            now
        } else {
            self.stopped_at.unwrap_or(now)
        };
        let elapsed = seconds_between(end, self.anchor).max(0.0);
        let k = if period > 0.0 {
            (elapsed / period).floor()
        } else {
            0.0
        };
        plus(self.anchor, k * period)
    }

    /// The controller's last probe of the node at or before `now`: its last renewal, or a
    /// later probe reset.
    fn last_probe(&self, now: Timestamp, period: f64) -> Timestamp {
        let renewed = self.last_renew(now, period);
        self.probe_reset.map_or(renewed, |r| r.max(renewed))
    }
}

/// Per name of `names` (strictly increasing), its entry of `map`: one walk beside the map's
/// name order instead of a tree search per name (a dozen comparisons of names that share long
/// prefixes, each a cache miss at thousands of nodes).
#[cfg(not(target_arch = "wasm32"))]
fn aligned<'m, V>(
    map: &'m BTreeMap<String, V>,
    names: impl Iterator<Item = &'m str>,
) -> impl Iterator<Item = Option<&'m V>> {
    let mut entries = map.iter().peekable();
    let mut last: Option<&str> = None;
    names.map(move |name| {
        debug_assert!(last.is_none_or(|l| l < name), "names not in order");
        last = Some(name);
        while entries.next_if(|(k, _)| k.as_str() < name).is_some() {}
        entries.next_if(|(k, _)| k.as_str() == name).map(|(_, v)| v)
    })
}

/// `ZoneState`: what `ComputeZoneState` says of a zone's nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZoneState {
    /// Seen, not computed yet.
    Initial,
    Normal,
    /// At least `unhealthy_zone_threshold` of the zone's nodes, and more than two, not Ready.
    PartialDisruption,
    /// No node of the zone Ready.
    FullDisruption,
}

impl ZoneState {
    pub fn as_str(self) -> &'static str {
        match self {
            ZoneState::Initial => "Initial",
            ZoneState::Normal => "Normal",
            ZoneState::PartialDisruption => "PartialDisruption",
            ZoneState::FullDisruption => "FullDisruption",
        }
    }
}

/// flowcontrol's token bucket with burst 1 (`NewTokenBucketRateLimiter(qps, 1)`), on the
/// virtual clock; a rate of 0 or less is `NewFakeNeverRateLimiter`, which accepts nothing.
/// With one token the bucket is just the instant it is full again.
#[derive(Debug, Clone)]
struct TokenBucket {
    qps: f64,
    /// When the bucket holds its token again; None: it is full.
    full_at: Option<Timestamp>,
}

impl TokenBucket {
    fn new(qps: f64) -> Self {
        TokenBucket {
            qps: if qps.is_finite() && qps > 0.0 {
                qps
            } else {
                0.0
            },
            full_at: None,
        }
    }

    /// `QPS()`: the never-limiter reports 1, so `SwapLimiter(1)` leaves a stopped zone stopped,
    /// as upstream does.
    fn reported_qps(&self) -> f64 {
        if self.qps > 0.0 {
            self.qps
        } else {
            1.0
        }
    }

    /// `TryAccept`: takes the token if the bucket has it.
    fn try_accept(&mut self, now: Timestamp) -> bool {
        if self.qps <= 0.0 || self.full_at.is_some_and(|t| now < t) {
            return false;
        }
        self.full_at = Some(plus(now, 1.0 / self.qps));
        true
    }

    /// When `try_accept` can next succeed; None: never.
    fn next_token(&self, now: Timestamp) -> Option<Timestamp> {
        (self.qps > 0.0).then(|| self.full_at.map_or(now, |t| t.max(now)))
    }
}

/// `RateLimitedTimedQueue` (`nodelifecycle/scheduler/rate_limited_queue.go`): a unique queue of
/// node names ordered by when to process them, behind a token bucket. A processed name stays
/// in the set, so it is not queued again until `remove`d (the node became Ready).
#[derive(Debug, Clone)]
struct RateLimitedTimedQueue {
    /// (processAt, node name) → node uid. Upstream's heap leaves equal times in no useful
    /// order; ours takes them by name (R-SIM-1).
    queue: BTreeMap<(Timestamp, String), String>,
    set: BTreeSet<String>,
    limiter: TokenBucket,
}

impl RateLimitedTimedQueue {
    fn new(qps: f64) -> Self {
        RateLimitedTimedQueue {
            queue: BTreeMap::new(),
            set: BTreeSet::new(),
            limiter: TokenBucket::new(qps),
        }
    }

    /// `Add`: queues `value` to be processed now unless it is in the set.
    fn add(&mut self, value: &str, uid: &str, now: Timestamp) -> bool {
        if !self.set.insert(value.to_string()) {
            return false;
        }
        self.queue.insert((now, value.to_string()), uid.to_string());
        true
    }

    /// `Remove`: out of the queue and the set, so it may be added again.
    fn remove(&mut self, value: &str) -> bool {
        if !self.set.remove(value) {
            return false;
        }
        self.remove_from_queue(value);
        true
    }

    /// `RemoveFromQueue`: out of the queue, still in the set.
    fn remove_from_queue(&mut self, value: &str) -> Option<String> {
        let key = self.queue.keys().find(|(_, v)| v == value).cloned()?;
        self.queue.remove(&key)
    }

    fn head(&self) -> Option<(Timestamp, String)> {
        self.queue.keys().next().cloned()
    }

    /// `Try`: while the limiter gives a token and the head is due, `f` processes the head;
    /// done, it leaves the queue; not done, it waits `f`'s retry delay (plus 1 ns).
    /// The token is taken before the head's time is checked, as upstream does.
    fn try_process(&mut self, now: Timestamp, mut f: impl FnMut(&str) -> (bool, f64)) {
        while let Some((at, value)) = self.head() {
            if !self.limiter.try_accept(now) || now < at {
                break;
            }
            let (done, wait) = f(&value);
            let uid = self.remove_from_queue(&value).unwrap_or_default();
            if !done {
                let retry = plus(now, wait) + std::time::Duration::from_nanos(1);
                self.queue.insert((retry, value), uid);
            }
        }
    }

    /// `SwapLimiter`: a new bucket when the rate differs; one that starts empty when the old
    /// one had no token (right for burst 1, says upstream).
    fn swap_limiter(&mut self, qps: f64, now: Timestamp) {
        if self.limiter.reported_qps() == qps {
            return;
        }
        let mut new = TokenBucket::new(qps);
        if new.qps > 0.0 && !self.limiter.try_accept(now) {
            new.try_accept(now);
        }
        self.limiter = new;
    }

    /// When a `Try` can next process something; None: nothing waits, or the limiter never
    /// accepts.
    fn next_due(&self, now: Timestamp) -> Option<Timestamp> {
        let (at, _) = self.queue.keys().next()?;
        Some(self.limiter.next_token(now)?.max(*at))
    }
}

#[derive(Debug, Clone, Default)]
pub(crate) struct NodeLifecycle {
    leases: BTreeMap<String, Lease>,
    /// `knownNodeSet`: node name → uid.
    known: BTreeMap<String, String>,
    /// `zoneStates`, by zone key.
    zone_states: BTreeMap<String, ZoneState>,
    /// `zoneNoExecuteTainter`, by zone key.
    tainters: BTreeMap<String, RateLimitedTimedQueue>,
    /// When the next `doNoExecuteTaintingPass` is scheduled (None: none is).
    tainting_pass_at: Option<Timestamp>,
    /// What the last monitor pass read off each node object (shared by checkpoints).
    #[cfg(not(target_arch = "wasm32"))]
    memo: Arc<NodeMemo>,
    /// The store's `nodes_stamp` when `memo`'s nodes were listed (0: none).
    #[cfg(not(target_arch = "wasm32"))]
    memo_stamp: u64,
    /// `memo` is not used: see [`NodeLifecycle::set_memo`].
    memo_off: bool,
    /// Counts the changes of `leases` (for `NativeMemo::leases`).
    #[cfg(not(target_arch = "wasm32"))]
    leases_version: u64,
}

/// Whether `monitor` keeps what it read off node objects between passes (`NodeMemo`). Native
/// builds only: the page is at its size budget, and this saves time at thousands of nodes,
/// which the page's renderer does not reach yet; there every pass reads every node, as with
/// the memo off.
const MEMO: bool = cfg!(not(target_arch = "wasm32"));

/// Natively, each node's (known, stale) (`known_and_stale`).
#[cfg(not(target_arch = "wasm32"))]
type Walked = Option<Vec<(bool, bool)>>;

/// Natively, the nodes a monitor pass visits, with their index and zone key.
#[cfg(not(target_arch = "wasm32"))]
type Visit<'a> = Box<dyn Iterator<Item = (usize, (&'a Arc<Node>, &'a String))> + 'a>;

/// A pass's `NodeMemo` and, natively, each node's (known, stale) (`known_and_stale`).
#[cfg(not(target_arch = "wasm32"))]
type NodeReads = (Arc<NodeMemo>, Walked);
#[cfg(target_arch = "wasm32")]
type NodeReads = (NodeMemo, Option<Vec<(bool, bool)>>);

/// What `monitor` reads off node objects, per node of its last pass in the store's order, kept
/// while a node object is the same (the store replaces a node object whenever it changes). It
/// decides nothing: it spares reading labels, conditions and taints by key every 5 s for every
/// node, which at thousands of nodes cost more than the rest of a pass.
#[derive(Clone, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Debug))]
struct NodeMemo {
    nodes: Vec<Arc<Node>>,
    /// Per node: its zone key (`zone_key`).
    zones: Vec<String>,
    /// Per node: left out of its zone's counts (`LABEL_EXCLUDE_DISRUPTION`).
    excluded: Vec<bool>,
    /// Per node: its Ready condition is True and it has neither NoExecute condition taint,
    /// so a pass has nothing to do for it but count it as Ready in its zone, unless its Lease
    /// went stale or it is queued for tainting. (Never set without `MEMO`.)
    quiet: Vec<bool>,
    /// Native builds only (`MEMO`).
    #[cfg(not(target_arch = "wasm32"))]
    native: NativeMemo,
}

/// The part of `NodeMemo` that only native builds keep.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Clone, Default)]
struct NativeMemo {
    /// The nodes have the names of the last pass's, in the same order (so `known` holds
    /// exactly them: each pass makes it so).
    same_names: bool,
    /// Per node: its zone key's index in `zone_names` (the distinct zone keys).
    zone_ix: Vec<usize>,
    zone_names: Vec<String>,
    /// Per node its Lease, as of `leases_version` (`NodeLifecycle::leases_version`).
    leases: Vec<Option<Lease>>,
    leases_version: u64,
    /// What a repeat pass over these nodes skips (`RepeatPlan`), worked out when first needed.
    plan: std::sync::OnceLock<RepeatPlan>,
}

/// Natively: a monitor pass over the same node objects and Leases as the last pass, with no
/// node queued for tainting (a *repeat* pass), takes the whole way only for the nodes that
/// are not quiet or whose Lease may go stale; every other node is only counted, so it is not
/// visited at all. Every node was known to the last pass (which made `known` its nodes), so
/// classifying adds and removes nothing; each zone with nodes is ensured its tainter, as a
/// full pass does.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Clone)]
struct RepeatPlan {
    /// The Lease period and monitor grace period it was worked out for.
    timing: (f64, f64),
    /// The nodes a repeat pass visits, in order: every node but those that are quiet and
    /// whose Lease cannot go stale (none, or renewed more often than the grace period), which
    /// it only counts. Without them a pass over a cluster at rest costs the zones, not the
    /// nodes.
    visit: Vec<usize>,
    /// Per zone (`zone_names`): the skipped nodes that count as Ready in it.
    counted: Vec<usize>,
    /// The zones (indices into `zone_names`) that have nodes.
    zones: Vec<usize>,
}

#[cfg(not(target_arch = "wasm32"))]
impl RepeatPlan {
    fn new(memo: &NodeMemo, t: &Timing) -> Self {
        // A running Lease's last renewal is less than a period old (plus rounding): with a
        // grace period over a second longer, it is never stale.
        let never_stale = |l: &Option<Lease>| {
            l.as_ref()
                .is_none_or(|l| l.running && t.node_lease_period + 1.0 < t.node_monitor_grace)
        };
        let native = &memo.native;
        let mut plan = RepeatPlan {
            timing: (t.node_lease_period, t.node_monitor_grace),
            visit: Vec::new(),
            counted: vec![0; native.zone_names.len()],
            zones: Vec::new(),
        };
        let mut has_nodes = vec![false; native.zone_names.len()];
        for i in 0..memo.nodes.len() {
            let skip = memo.quiet[i] && never_stale(&native.leases[i]);
            if !skip {
                plan.visit.push(i);
            }
            let zone = native.zone_ix[i];
            has_nodes[zone] = true;
            if skip && !memo.excluded[i] {
                plan.counted[zone] += 1;
            }
        }
        plan.zones = (0..has_nodes.len()).filter(|&z| has_nodes[z]).collect();
        plan
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl NativeMemo {
    /// For `nodes` and their zone keys `zones`, taking what still holds from `last`.
    fn new(nodes: &[Arc<Node>], zones: &[String], last: &NodeMemo) -> Self {
        let same_list = last.nodes.len() == nodes.len();
        let mut native = NativeMemo {
            same_names: same_list,
            zone_names: if same_list {
                last.native.zone_names.clone()
            } else {
                Vec::new()
            },
            ..NativeMemo::default()
        };
        for (i, n) in nodes.iter().enumerate() {
            if same_list && Arc::ptr_eq(&last.nodes[i], n) {
                native.zone_ix.push(last.native.zone_ix[i]);
                continue;
            }
            native.same_names &= same_list && last.nodes[i].metadata.name == n.metadata.name;
            let ix = match native.zone_names.iter().position(|z| *z == zones[i]) {
                Some(ix) => ix,
                None => {
                    native.zone_names.push(zones[i].clone());
                    native.zone_names.len() - 1
                }
            };
            native.zone_ix.push(ix);
        }
        native
    }
}

impl NodeMemo {
    /// Reads `nodes`, taking what still holds from `last`.
    fn new(nodes: Vec<Arc<Node>>, last: &NodeMemo) -> Self {
        let same_list = MEMO && last.nodes.len() == nodes.len();
        let mut memo = NodeMemo::default();
        for (i, n) in nodes.iter().enumerate() {
            if same_list && Arc::ptr_eq(&last.nodes[i], n) {
                memo.zones.push(last.zones[i].clone());
                memo.excluded.push(last.excluded[i]);
                memo.quiet.push(last.quiet[i]);
                continue;
            }
            memo.zones.push(zone_key(n));
            memo.excluded.push(
                n.metadata
                    .labels
                    .as_ref()
                    .is_some_and(|l| l.contains_key(LABEL_EXCLUDE_DISRUPTION)),
            );
            memo.quiet.push(
                MEMO && condition(n, "Ready") == Some("True")
                    && !has_taint(n, taints::NOT_READY, "NoExecute")
                    && !has_taint(n, taints::UNREACHABLE, "NoExecute"),
            );
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            memo.native = NativeMemo::new(&nodes, &memo.zones, last);
        }
        memo.nodes = nodes;
        memo
    }

    /// Per node: its zone's index in `zone_names` (natively).
    fn zone_ix(&self, i: usize) -> usize {
        #[cfg(not(target_arch = "wasm32"))]
        return self.native.zone_ix[i];
        #[cfg(target_arch = "wasm32")]
        return i;
    }

    /// The distinct zone keys (natively; none in the page).
    fn zone_names(&self) -> &[String] {
        #[cfg(not(target_arch = "wasm32"))]
        return &self.native.zone_names;
        #[cfg(target_arch = "wasm32")]
        return &[];
    }
}

/// `GetZoneKey` (component-helpers `node/topology`): the node's region and zone labels (the
/// deprecated `failure-domain.beta…` ones first), or "" when it has neither.
pub(crate) fn zone_key(node: &Node) -> String {
    let Some(labels) = node.metadata.labels.as_ref() else {
        return String::new();
    };
    let get = |beta: &str, ga: &str| {
        labels
            .get(beta)
            .or_else(|| labels.get(ga))
            .map_or("", String::as_str)
    };
    let zone = get(
        "failure-domain.beta.kubernetes.io/zone",
        "topology.kubernetes.io/zone",
    );
    let region = get(
        "failure-domain.beta.kubernetes.io/region",
        "topology.kubernetes.io/region",
    );
    if region.is_empty() && zone.is_empty() {
        return String::new();
    }
    // The NUL keeps a colon in a region or zone from making two keys equal.
    format!("{region}:\0:{zone}")
}

/// Taints the NoSchedule pass owns: (key, effect).
const MANAGED: [(&str, &str); 7] = [
    (taints::NOT_READY, "NoSchedule"),
    (taints::UNREACHABLE, "NoSchedule"),
    (taints::UNSCHEDULABLE, "NoSchedule"),
    (taints::MEMORY_PRESSURE, "NoSchedule"),
    (taints::DISK_PRESSURE, "NoSchedule"),
    (taints::PID_PRESSURE, "NoSchedule"),
    (taints::NETWORK_UNAVAILABLE, "NoSchedule"),
];

fn condition<'a>(node: &'a Node, type_: &str) -> Option<&'a str> {
    node.status
        .as_ref()?
        .conditions
        .as_ref()?
        .iter()
        .find(|c| c.type_ == type_)
        .map(|c| c.status.as_str())
}

fn has_taint(node: &Node, key: &str, effect: &str) -> bool {
    node.spec
        .as_ref()
        .and_then(|s| s.taints.as_ref())
        .is_some_and(|ts| ts.iter().any(|t| t.key == key && t.effect == effect))
}

/// R-NLC-2: the NoSchedule taints the node's conditions call for (`doNoScheduleTaintingPass`).
fn desired(node: &Node) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    match condition(node, "Ready") {
        Some("False") => out.push((taints::NOT_READY, "NoSchedule")),
        Some("Unknown") => out.push((taints::UNREACHABLE, "NoSchedule")),
        _ => {}
    }
    for (cond, key) in [
        ("MemoryPressure", taints::MEMORY_PRESSURE),
        ("DiskPressure", taints::DISK_PRESSURE),
        ("PIDPressure", taints::PID_PRESSURE),
        ("NetworkUnavailable", taints::NETWORK_UNAVAILABLE),
    ] {
        if condition(node, cond) == Some("True") {
            out.push((key, "NoSchedule"));
        }
    }
    if node
        .spec
        .as_ref()
        .and_then(|s| s.unschedulable)
        .unwrap_or(false)
    {
        out.push((taints::UNSCHEDULABLE, "NoSchedule"));
    }
    out
}

fn is_managed(t: &Taint) -> bool {
    MANAGED.iter().any(|(k, e)| t.key == *k && t.effect == *e)
}

fn current(node: &Node) -> Vec<(String, String)> {
    node.spec
        .as_ref()
        .and_then(|s| s.taints.as_ref())
        .map(|ts| {
            ts.iter()
                .filter(|t| is_managed(t))
                .map(|t| (t.key.clone(), t.effect.clone()))
                .collect()
        })
        .unwrap_or_default()
}

fn needs_reconcile(node: &Node) -> bool {
    let mut want: Vec<(String, String)> = desired(node)
        .into_iter()
        .map(|(k, e)| (k.to_string(), e.to_string()))
        .collect();
    let mut have = current(node);
    sort::sort(&mut want);
    sort::sort(&mut have);
    want != have
}

/// Adds and removes managed NoSchedule taints so they match the conditions. Returns whether
/// it changed.
fn reconcile(node: &mut Node) -> bool {
    let want = desired(node);
    let taints = node
        .spec
        .get_or_insert_with(Default::default)
        .taints
        .get_or_insert_with(Vec::new);
    let before = taints.len();
    let mut changed = false;
    taints.retain(|t| !is_managed(t) || want.iter().any(|(k, e)| t.key == *k && t.effect == *e));
    changed |= taints.len() != before;
    for (k, e) in want {
        if !taints.iter().any(|t| t.key == k && t.effect == e) {
            taints.push(Taint {
                key: k.to_string(),
                effect: e.to_string(),
                value: None,
                time_added: None,
            });
            changed = true;
        }
    }
    drop_empty_taints(node);
    changed
}

fn drop_empty_taints(node: &mut Node) {
    if let Some(s) = node.spec.as_mut() {
        if s.taints.as_ref().is_some_and(Vec::is_empty) {
            s.taints = None;
        }
    }
}

/// `SwapNodeControllerTaint` with NoExecute `add` (stamped `timeAdded` now; one already there
/// is replaced in place, as `AddOrUpdateTaint` does when it differs) and `remove`.
fn swap_no_execute_taint(node: &mut Node, add: &str, remove: &str, now: Timestamp) {
    let taints = node
        .spec
        .get_or_insert_with(Default::default)
        .taints
        .get_or_insert_with(Vec::new);
    let new = Taint {
        key: add.to_string(),
        effect: "NoExecute".to_string(),
        value: None,
        time_added: Some(Time(now)),
    };
    match taints
        .iter_mut()
        .find(|t| t.key == add && t.effect == "NoExecute")
    {
        Some(t) => *t = new,
        None => taints.push(new),
    }
    taints.retain(|t| !(t.key == remove && t.effect == "NoExecute"));
    drop_empty_taints(node);
}

/// `RemoveTaintOffNode` of both NoExecute condition taints (`markNodeAsReachable`).
fn remove_no_execute_taints(node: &mut Node) {
    if let Some(ts) = node.spec.as_mut().and_then(|s| s.taints.as_mut()) {
        ts.retain(|t| {
            !(t.effect == "NoExecute"
                && (t.key == taints::NOT_READY || t.key == taints::UNREACHABLE))
        });
    }
    drop_empty_taints(node);
}

/// `ComputeZoneState` over a zone's Ready conditions (`ready` True, `not_ready` anything else
/// or none): no node Ready is full disruption; more than two not Ready and at least
/// `unhealthy_threshold` of them is partial disruption.
pub(crate) fn compute_zone_state(
    ready: usize,
    not_ready: usize,
    unhealthy_threshold: f64,
) -> ZoneState {
    if ready == 0 && not_ready > 0 {
        ZoneState::FullDisruption
    } else if not_ready > 2 && not_ready as f64 / (not_ready + ready) as f64 >= unhealthy_threshold
    {
        ZoneState::PartialDisruption
    } else {
        ZoneState::Normal
    }
}

/// `ReducedQPSFunc`: the secondary rate for zones larger than the large-cluster threshold,
/// none for smaller ones.
fn reduced_qps(zone_size: usize, t: &Timing) -> f64 {
    if zone_size > t.large_cluster_size_threshold as usize {
        t.secondary_node_eviction_rate.0
    } else {
        0.0
    }
}

/// `HealthyQPSFunc`: the normal rate (a fully disrupted zone, while others are not, is
/// tainted at it).
fn healthy_qps(_zone_size: usize, t: &Timing) -> f64 {
    t.node_eviction_rate.0
}

/// The first `doNoExecuteTaintingPass` tick after `now`, at or after `due`. Its 100 ms ticks
/// fall on the clock's tenths of a second.
fn tainting_tick(due: Timestamp, now: Timestamp) -> Timestamp {
    let p = NODE_EVICTION_PERIOD_NANOS;
    let due = due.as_nanosecond();
    let after_now = (now.as_nanosecond().div_euclid(p) + 1) * p;
    let at_due = due.div_euclid(p) * p + if due.rem_euclid(p) == 0 { 0 } else { p };
    Timestamp::from_nanosecond(after_now.max(at_due)).unwrap_or(now)
}

fn node_reference(name: &str, uid: &str) -> ObjectReference {
    ObjectReference {
        api_version: Some("v1".into()),
        kind: Some("Node".into()),
        name: Some(name.to_string()),
        uid: Some(uid.to_string()),
        ..Default::default()
    }
}

/// `RecordNodeEvent`: "Node X event: …" on the node.
fn record_node_event(store: &mut Store, name: &str, uid: &str, reason: &str, event: &str) {
    store.record_event(
        node_reference(name, uid),
        "Normal",
        reason,
        format!("Node {name} event: {event}"),
        Recorder::LateController(COMPONENT),
    );
}

impl NodeLifecycle {
    /// This pass's `NodeMemo`, kept for the next.
    #[cfg(not(target_arch = "wasm32"))]
    fn read_nodes(&mut self, nodes: Vec<Arc<Node>>, now: Timestamp, t: &Timing) -> NodeReads {
        let mut memo = NodeMemo::new(nodes, &self.memo);
        let walked = self.known_and_stale(&mut memo, now, t);
        let memo = Arc::new(memo);
        if !self.memo_off {
            self.memo = memo.clone();
        }
        (memo, walked)
    }

    /// This pass's `NodeMemo` and (known, stale) per node, and whether it is a repeat pass
    /// (`RepeatPlan`): then the last pass's memo is kept without listing the nodes, and only
    /// the nodes a repeat pass visits are checked for staleness.
    #[cfg(not(target_arch = "wasm32"))]
    fn read_nodes_from(
        &mut self,
        store: &Store,
        now: Timestamp,
        t: &Timing,
    ) -> (Arc<NodeMemo>, Walked, bool) {
        let objects = store.objects();
        if !self.memo_off
            && self.memo.native.leases_version == self.leases_version
            && self.tainters.values().all(|q| q.set.is_empty())
            && store.nodes_stamp == self.memo_stamp
        {
            debug_assert!(
                objects.nodes_are(&self.memo.nodes),
                "nodes changed, stamp not"
            );
            let memo = self.memo.clone();
            let plan = memo.native.plan.get_or_init(|| RepeatPlan::new(&memo, t));
            if plan.timing == (t.node_lease_period, t.node_monitor_grace) {
                let mut walked = vec![(true, false); memo.nodes.len()];
                for &i in &plan.visit {
                    walked[i].1 = memo.native.leases[i]
                        .as_ref()
                        .is_some_and(|l| is_stale(l, now, t));
                }
                return (memo, Some(walked), true);
            }
        }
        let listed: Vec<Arc<Node>> = objects.all_nodes().cloned().collect();
        let (memo, walked) = self.read_nodes(listed, now, t);
        self.memo_stamp = if self.memo_off { 0 } else { store.nodes_stamp };
        (memo, walked, false)
    }

    /// Per node of `memo` (in name order): whether `known` has it, and whether its Lease is
    /// stale, found by walking `known` and `leases` beside the node list (see `MEMO`; none
    /// with the memo off).
    #[cfg(not(target_arch = "wasm32"))]
    fn known_and_stale(
        &self,
        memo: &mut NodeMemo,
        now: Timestamp,
        t: &Timing,
    ) -> Option<Vec<(bool, bool)>> {
        if self.memo_off {
            return None;
        }
        let names = || {
            memo.nodes
                .iter()
                .map(|n| n.metadata.name.as_deref().unwrap_or_default())
        };
        let same_names = memo.native.same_names;
        let reuse = same_names && self.memo.native.leases_version == self.leases_version;
        let leases = if reuse {
            self.memo.native.leases.clone()
        } else {
            aligned(&self.leases, names()).map(|l| l.copied()).collect()
        };
        let known: Vec<bool> = if same_names {
            vec![true; memo.nodes.len()]
        } else {
            aligned(&self.known, names()).map(|k| k.is_some()).collect()
        };
        let walked = known
            .into_iter()
            .zip(&leases)
            .map(|(k, l)| (k, l.as_ref().is_some_and(|l| is_stale(l, now, t))))
            .collect();
        memo.native.leases = leases;
        memo.native.leases_version = self.leases_version;
        Some(walked)
    }

    /// This pass's `NodeMemo`, read afresh (see `MEMO`).
    #[cfg(target_arch = "wasm32")]
    fn read_nodes(&mut self, nodes: Vec<Arc<Node>>, _: Timestamp, _: &Timing) -> NodeReads {
        (NodeMemo::new(nodes, &NodeMemo::default()), None)
    }

    /// With `false`, every monitor pass reads every node afresh and takes the whole way for
    /// each, as upstream's does (`NodeMemo` off): the same behaviour, for differential tests.
    pub(crate) fn set_memo(&mut self, on: bool) {
        self.memo_off = !on;
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.memo = Arc::default();
            self.memo_stamp = 0;
        }
    }

    /// A kubelet started (or restarted) renewing its Lease.
    pub(crate) fn lease_start(&mut self, node: &str, now: Timestamp) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.leases_version += 1;
        }
        let created = self.leases.get(node).map_or(now, |l| l.created);
        self.leases.insert(
            node.to_string(),
            Lease {
                running: true,
                anchor: now,
                stopped_at: None,
                created,
                probe_reset: None,
            },
        );
    }

    pub(crate) fn lease_stop(&mut self, node: &str, now: Timestamp) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.leases_version += 1;
        }
        if let Some(l) = self.leases.get_mut(node) {
            if l.running {
                l.running = false;
                l.stopped_at = Some(now);
            }
        }
    }

    pub(crate) fn forget(&mut self, node: &str) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.leases_version += 1;
        }
        self.leases.remove(node);
    }

    /// The Lease object of `node` (uid `node_uid`): held by the node, 40 s long, renewed at the
    /// last renewal at or before `now`, owned by its Node, as the kubelet's lease controller
    /// writes it (`setNodeOwnerFunc`; no acquireTime).
    pub(crate) fn lease_object(
        &self,
        node: &str,
        node_uid: &str,
        now: Timestamp,
        timing: &crate::Timing,
    ) -> Option<k8s_openapi::api::coordination::v1::Lease> {
        use k8s_openapi::api::coordination::v1::{Lease as LeaseObject, LeaseSpec};
        use k8s_openapi::apimachinery::pkg::apis::meta::v1::{
            MicroTime, ObjectMeta, OwnerReference, Time,
        };
        let l = self.leases.get(node)?;
        let renewed = self.last_renew(node, now, timing.node_lease_period)?;
        Some(LeaseObject {
            metadata: ObjectMeta {
                name: Some(node.to_string()),
                namespace: Some("kube-node-lease".into()),
                uid: Some(crate::rng::uuid_of(&format!("lease/{node_uid}"))),
                creation_timestamp: Some(Time(l.created)),
                owner_references: Some(vec![OwnerReference {
                    api_version: "v1".into(),
                    kind: "Node".into(),
                    name: node.to_string(),
                    uid: node_uid.to_string(),
                    ..Default::default()
                }]),
                ..Default::default()
            },
            spec: Some(LeaseSpec {
                holder_identity: Some(node.to_string()),
                lease_duration_seconds: Some(40),
                renew_time: Some(MicroTime(renewed)),
                ..Default::default()
            }),
        })
    }

    /// The last Lease renewal at or before `now`.
    fn last_renew(&self, node: &str, now: Timestamp, period: f64) -> Option<Timestamp> {
        Some(self.leases.get(node)?.last_renew(now, period))
    }

    /// Each zone's state, by zone key (`GetZoneKey`: "" for nodes without zone labels).
    pub(crate) fn zone_states(&self) -> Vec<(String, ZoneState)> {
        self.zone_states
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect()
    }

    /// Prompt reaction to node writes: the NoSchedule pass when conditions and taints
    /// disagree.
    pub(crate) fn observe(&mut self, ev: &WatchEvent, s: &mut Sched) {
        if let (WatchKind::Added | WatchKind::Modified, Obj::Node(n)) = (&ev.kind, &ev.obj) {
            if needs_reconcile(n) {
                let node = n.metadata.name.clone().unwrap_or_default();
                s.after_watch(0.0, Ev::NodeLifecycleSync { node });
            }
        }
    }

    /// `doNoScheduleTaintingPass` for one node.
    pub(crate) fn sync(&mut self, node: &str, store: &mut Store) -> String {
        let Some(n) = store.node(node) else {
            return format!("node {node} is gone");
        };
        if !needs_reconcile(&n) {
            return format!("node {node}: taints already match conditions");
        }
        let _ = store.update_node(node, |n| {
            reconcile(n);
        });
        format!("node {node}: condition taints reconciled")
    }

    /// `addPodEvictorForNewZone`: a new zone starts Initial with a full bucket at the normal
    /// rate.
    fn add_evictor_for_new_zone(&mut self, zone: &str, t: &Timing) {
        if !self.zone_states.contains_key(zone) {
            self.zone_states
                .insert(zone.to_string(), ZoneState::Initial);
            self.tainters.insert(
                zone.to_string(),
                RateLimitedTimedQueue::new(t.node_eviction_rate.0),
            );
        }
    }

    fn tainter(&mut self, zone: &str, t: &Timing) -> &mut RateLimitedTimedQueue {
        self.tainters
            .entry(zone.to_string())
            .or_insert_with(|| RateLimitedTimedQueue::new(t.node_eviction_rate.0))
    }

    /// `markNodeAsReachable`: both NoExecute condition taints off the node, and out of its
    /// zone's queue. `node` is the node as listed (its zone key `zone`).
    fn mark_node_as_reachable(&mut self, store: &mut Store, node: &Node, zone: &str) -> bool {
        let name = node.metadata.name.as_deref().unwrap_or_default();
        // `RemoveTaintOffNode` writes only when a taint is there.
        if has_taint(node, taints::NOT_READY, "NoExecute")
            || has_taint(node, taints::UNREACHABLE, "NoExecute")
        {
            let _ = store.update_node(name, remove_no_execute_taints);
        }
        self.tainters.get_mut(zone).is_some_and(|q| q.remove(name))
    }

    /// `markNodeForTainting`: queue the node for the NoExecute taint of its Ready `status`
    /// (afresh when it lacks that taint).
    fn mark_node_for_tainting(
        &mut self,
        node: &Node,
        zone: &str,
        status: &str,
        now: Timestamp,
        t: &Timing,
    ) {
        let name = node.metadata.name.as_deref().unwrap_or_default();
        let uid = node.metadata.uid.as_deref().unwrap_or_default();
        let key = match status {
            "False" => taints::NOT_READY,
            _ => taints::UNREACHABLE,
        };
        let q = self.tainter(zone, t);
        if !has_taint(node, key, "NoExecute") {
            q.remove(name);
        }
        q.add(name, uid, now);
    }

    /// `processTaintBaseEviction`, on the Ready status observed before this pass: a node with
    /// the other NoExecute taint has it swapped at once; one without is queued for tainting;
    /// a Ready node is untainted.
    fn process_taint_base_eviction(
        &mut self,
        store: &mut Store,
        node: &Node,
        zone: &str,
        observed: &str,
        now: Timestamp,
        t: &Timing,
    ) {
        let (mine, other) = match observed {
            "False" => (taints::NOT_READY, taints::UNREACHABLE),
            "Unknown" => (taints::UNREACHABLE, taints::NOT_READY),
            "True" => {
                self.mark_node_as_reachable(store, node, zone);
                return;
            }
            _ => return,
        };
        if has_taint(node, other, "NoExecute") {
            let name = node.metadata.name.as_deref().unwrap_or_default();
            let _ = store.update_node(name, |n| swap_no_execute_taint(n, mine, other, now));
        } else {
            self.mark_node_for_tainting(node, zone, observed, now, t);
        }
    }

    /// `monitorNodeHealth`: new and removed nodes, stale Leases → conditions Unknown and pods
    /// not Ready, NoExecute taints queued or removed, zone states and their rates. It runs
    /// every 5 s over every node, so a node that needs nothing costs no allocation.
    pub(crate) fn monitor(&mut self, store: &mut Store, s: &mut Sched) -> String {
        let now = s.now;
        let t = s.timing;
        #[cfg(target_arch = "wasm32")]
        let listed: Vec<Arc<Node>> = store.objects().all_nodes().cloned().collect();
        // Read before anything below writes (nothing below changes a Lease; `known` changes
        // after the loop that reads it).
        #[cfg(target_arch = "wasm32")]
        let (memo, walked) = self.read_nodes(listed, now, t);
        // Natively, a repeat pass (`RepeatPlan`) visits only some nodes.
        #[cfg(not(target_arch = "wasm32"))]
        let (memo, walked, repeat) = self.read_nodes_from(store, now, t);
        #[cfg(not(target_arch = "wasm32"))]
        let plan = if repeat { memo.native.plan.get() } else { None };
        let (nodes, zone_keys) = (&memo.nodes, &memo.zones);
        let mut notes = Vec::new();

        // classifyNodes
        let mut added = Vec::new();
        let mut ensured = vec![false; memo.zone_names().len()];
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(plan) = plan {
            for &z in &plan.zones {
                self.add_evictor_for_new_zone(&memo.zone_names()[z], t);
            }
        }
        for (i, (n, zone)) in nodes.iter().zip(zone_keys).enumerate() {
            #[cfg(not(target_arch = "wasm32"))]
            if plan.is_some() {
                // A repeat pass: every node is known, and its zone was ensured above.
                break;
            }
            let name = n.metadata.name.as_deref().unwrap_or_default();
            let known = match &walked {
                Some(w) => w[i].0,
                None => self.known.contains_key(name),
            };
            if !known {
                added.push(i);
            } else if walked.is_none() || !std::mem::replace(&mut ensured[memo.zone_ix(i)], true) {
                // (Natively once per zone: ensuring it again does nothing.)
                self.add_evictor_for_new_zone(zone, t);
            }
        }
        let deleted: Vec<(String, String)> = if self.known.len() + added.len() != nodes.len() {
            let present: BTreeSet<&str> = nodes
                .iter()
                .filter_map(|n| n.metadata.name.as_deref())
                .collect();
            self.known
                .iter()
                .filter(|(name, _)| !present.contains(name.as_str()))
                .map(|(n, u)| (n.clone(), u.clone()))
                .collect()
        } else {
            Vec::new()
        };
        for &i in &added {
            let n = &nodes[i];
            let name = n.metadata.name.clone().unwrap_or_default();
            let uid = n.metadata.uid.clone().unwrap_or_default();
            record_node_event(
                store,
                &name,
                &uid,
                "RegisteredNode",
                &format!("Registered Node {name} in Controller"),
            );
            self.add_evictor_for_new_zone(&zone_keys[i], t);
            self.known.insert(name, uid);
            self.mark_node_as_reachable(store, n, &zone_keys[i]);
        }
        if !added.is_empty() {
            notes.push(format!("{} new", added.len()));
        }
        for (name, uid) in &deleted {
            record_node_event(
                store,
                name,
                uid,
                "RemovingNode",
                &format!("Removing Node {name} from Controller"),
            );
            self.known.remove(name);
        }

        // tryUpdateNodeHealth and what follows it, per node. A quiet node (see `NodeMemo`)
        // whose Lease is fresh and that is not queued for tainting is only counted (with the
        // memo off every node takes the whole way).
        let none_queued = MEMO && self.tainters.values().all(|q| q.set.is_empty());
        let mut zones: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        let mut quiet_ready = vec![0; memo.zone_names().len()];
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(plan) = plan {
            quiet_ready.clone_from(&plan.counted);
        }
        let mut lost = Vec::new();
        let visit = nodes.iter().zip(zone_keys).enumerate();
        #[cfg(not(target_arch = "wasm32"))]
        let visit: Visit<'_> = match plan {
            Some(p) => Box::new(p.visit.iter().map(|&i| (i, (&nodes[i], &zone_keys[i])))),
            None => Box::new(visit),
        };
        for (i, (n, zone)) in visit {
            let name = n.metadata.name.as_deref().unwrap_or_default();
            let stale = match &walked {
                Some(w) => w[i].1,
                None => self.leases.get(name).is_some_and(|l| is_stale(l, now, t)),
            };
            let queued = || {
                !none_queued
                    && self
                        .tainters
                        .get(zone)
                        .is_some_and(|q| q.set.contains(name))
            };
            if MEMO && memo.quiet[i] && walked.is_some() && !stale && !queued() {
                if !memo.excluded[i] {
                    quiet_ready[memo.zone_ix(i)] += 1;
                }
                continue;
            }
            let observed = condition(n, "Ready");
            let current = if observed != Some("Unknown") && stale {
                let _ = store.update_node(name, |n| mark_unknown(n, now));
                Some("Unknown")
            } else {
                observed
            };
            if !memo.excluded[i] {
                let counts = zones.entry(zone.as_str()).or_default();
                if current == Some("True") {
                    counts.0 += 1;
                } else {
                    counts.1 += 1;
                }
            }
            let (Some(current), Some(observed)) = (current, observed) else {
                continue;
            };
            self.process_taint_base_eviction(store, n, zone, observed, now, t);
            if current != "True" && observed == "True" {
                let uid = n.metadata.uid.as_deref().unwrap_or_default();
                record_node_status_change(store, name, uid, "NodeNotReady");
                mark_pods_not_ready(store, name, now);
                lost.push(name);
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        for (zone, ready) in memo.zone_names().iter().zip(quiet_ready) {
            if ready > 0 {
                zones.entry(zone.as_str()).or_default().0 += ready;
            }
        }
        if !lost.is_empty() {
            notes.push(format!("{} stopped posting status", lost.join(", ")));
        }
        if let Some(note) = self.handle_disruption(&zones, nodes, zone_keys, store, now, t) {
            notes.push(note);
        }
        self.schedule_tainting_pass(s);
        s.after(period(s.timing.node_monitor_period), Ev::NodeMonitorTick);
        if notes.is_empty() {
            "node monitor: all leases fresh".to_string()
        } else {
            format!("node monitor: {}", notes.join("; "))
        }
    }

    /// `handleDisruption`: each zone's new state from its nodes' Ready conditions. When every
    /// zone becomes fully disrupted, the controller assumes its own connectivity is at fault:
    /// every node loses its NoExecute condition taints and no zone taints any more. When that
    /// ends, the grace period restarts for every node and each zone gets its state's rate.
    /// Otherwise a zone whose state changed gets its state's rate (`setLimiterInZone`).
    fn handle_disruption(
        &mut self,
        zones: &BTreeMap<&str, (usize, usize)>,
        nodes: &[Arc<Node>],
        zone_keys: &[String],
        store: &mut Store,
        now: Timestamp,
        t: &Timing,
    ) -> Option<String> {
        let mut new_states: BTreeMap<&str, ZoneState> = BTreeMap::new();
        let mut all_are_fully_disrupted = true;
        for (zone, (ready, not_ready)) in zones {
            let state = compute_zone_state(*ready, *not_ready, t.unhealthy_zone_threshold.0);
            if state != ZoneState::FullDisruption {
                all_are_fully_disrupted = false;
            }
            new_states.insert(zone, state);
            if !self.zone_states.contains_key(*zone) {
                self.zone_states
                    .insert(zone.to_string(), ZoneState::Initial);
            }
        }
        // In a steady state nothing below changes anything: say so without allocating.
        if !all_are_fully_disrupted
            && self.zone_states.len() == new_states.len()
            && self
                .zone_states
                .iter()
                .zip(&new_states)
                .all(|((k, v), (nk, nv))| k == nk && v == nv)
        {
            return None;
        }
        // Upstream walks a Go map and stops at the first zone not fully disrupted, dropping
        // the zones without nodes it met before; we walk in key order (R-SIM-1).
        let mut all_were_fully_disrupted = true;
        let keys: Vec<String> = self.zone_states.keys().cloned().collect();
        for k in keys {
            if !zones.contains_key(k.as_str()) {
                self.zone_states.remove(&k);
                continue;
            }
            if self.zone_states.get(&k) != Some(&ZoneState::FullDisruption) {
                all_were_fully_disrupted = false;
                break;
            }
        }
        if all_are_fully_disrupted && all_were_fully_disrupted {
            return None;
        }
        let size = |k: &str| zones.get(k).map_or(0, |(r, n)| r + n);
        if all_are_fully_disrupted {
            for (n, zone) in nodes.iter().zip(zone_keys) {
                let fresh = n.metadata.name.as_deref().and_then(|name| store.node(name));
                if let Some(fresh) = fresh {
                    self.mark_node_as_reachable(store, &fresh, zone);
                }
            }
            let keys: Vec<String> = self.zone_states.keys().cloned().collect();
            for k in keys {
                self.tainter(&k, t).swap_limiter(0.0, now);
                self.zone_states.insert(k, ZoneState::FullDisruption);
            }
            return Some("every zone fully disrupted: NoExecute tainting stopped".into());
        }
        if all_were_fully_disrupted {
            #[cfg(not(target_arch = "wasm32"))]
            {
                self.leases_version += 1;
            }
            for l in self.leases.values_mut() {
                l.probe_reset = Some(now);
            }
            let keys: Vec<String> = self.zone_states.keys().cloned().collect();
            for k in keys {
                if let Some(state) = new_states.get(k.as_str()).copied() {
                    self.set_limiter_in_zone(&k, size(&k), state, now, t);
                    self.zone_states.insert(k, state);
                }
            }
            return Some("some zone has a Ready node: NoExecute tainting resumes".into());
        }
        let mut changed = Vec::new();
        let keys: Vec<String> = self.zone_states.keys().cloned().collect();
        for k in keys {
            // A zone kept by the early stop above has no new state; upstream's zero value
            // matches no case of setLimiterInZone, so it is left alone.
            let Some(state) = new_states.get(k.as_str()).copied() else {
                continue;
            };
            if self.zone_states.get(&k) == Some(&state) {
                continue;
            }
            self.set_limiter_in_zone(&k, size(&k), state, now, t);
            self.zone_states.insert(k.clone(), state);
            changed.push(format!("zone {:?} {}", k.replace('\0', ""), state.as_str()));
        }
        (!changed.is_empty()).then(|| changed.join(", "))
    }

    /// `setLimiterInZone`: the zone's tainting rate for its state.
    fn set_limiter_in_zone(
        &mut self,
        zone: &str,
        zone_size: usize,
        state: ZoneState,
        now: Timestamp,
        t: &Timing,
    ) {
        let qps = match state {
            ZoneState::Normal => t.node_eviction_rate.0,
            ZoneState::PartialDisruption => reduced_qps(zone_size, t),
            ZoneState::FullDisruption => healthy_qps(zone_size, t),
            ZoneState::Initial => return,
        };
        self.tainter(zone, t).swap_limiter(qps, now);
    }

    /// `doNoExecuteTaintingPass`: each zone (in key order) taints its due nodes while its
    /// bucket gives tokens. A node Ready again is dropped; one without a Ready condition is
    /// retried in 50 ms.
    pub(crate) fn tainting_pass(
        &mut self,
        at: Timestamp,
        store: &mut Store,
        s: &mut Sched,
    ) -> String {
        if self.tainting_pass_at != Some(at) {
            return "stale tainting pass".into();
        }
        self.tainting_pass_at = None;
        let now = s.now;
        let mut tainted = Vec::new();
        for q in self.tainters.values_mut() {
            q.try_process(now, |name| {
                let Some(node) = store.node(name) else {
                    return (true, 0.0);
                };
                let (add, other) = match condition(&node, "Ready") {
                    None => return (false, 0.05),
                    Some("False") => (taints::NOT_READY, taints::UNREACHABLE),
                    Some("Unknown") => (taints::UNREACHABLE, taints::NOT_READY),
                    Some(_) => return (true, 0.0),
                };
                let _ = store.update_node(name, |n| swap_no_execute_taint(n, add, other, now));
                tainted.push(format!("{name} {add}:NoExecute"));
                (true, 0.0)
            });
        }
        self.schedule_tainting_pass(s);
        if tainted.is_empty() {
            "NoExecute tainting pass: nothing due".into()
        } else {
            format!("NoExecute tainting pass: {}", tainted.join(", "))
        }
    }

    /// Makes sure a tainting pass runs at the first 100 ms tick at which some zone's queue
    /// can make progress (upstream polls every 100 ms; we wake only when something is due).
    fn schedule_tainting_pass(&mut self, s: &mut Sched) {
        let now = s.now;
        let Some(due) = self.tainters.values().filter_map(|q| q.next_due(now)).min() else {
            return;
        };
        let at = tainting_tick(due, now);
        if self
            .tainting_pass_at
            .is_some_and(|cur| cur <= at && cur > now)
        {
            return;
        }
        self.tainting_pass_at = Some(at);
        s.at(at, Ev::NoExecuteTaintingPass { at });
    }

    /// Whether a monitor tick or a tainting pass still has something to do: a stopped kubelet
    /// whose node is not Unknown yet, a node to register or forget, a node whose NoExecute
    /// taints its Ready condition will change, or a zone queue whose bucket will let a node
    /// through.
    pub(crate) fn has_pending_work(&self, store: &Store) -> bool {
        if self
            .tainters
            .values()
            .any(|q| !q.queue.is_empty() && q.limiter.qps > 0.0)
        {
            return true;
        }
        if self.leases.iter().any(|(name, l)| {
            !l.running
                && store
                    .node(name)
                    .is_some_and(|n| condition(&n, "Ready") != Some("Unknown"))
        }) {
            return true;
        }
        let mut count = 0;
        for n in store.objects().all_nodes() {
            count += 1;
            let name = n.metadata.name.as_deref().unwrap_or_default();
            if !self.known.contains_key(name) {
                return true;
            }
            let queued = || {
                self.tainters
                    .get(&zone_key(n))
                    .is_some_and(|q| q.set.contains(name))
            };
            let pending = match condition(n, "Ready") {
                Some("True") => {
                    has_taint(n, taints::NOT_READY, "NoExecute")
                        || has_taint(n, taints::UNREACHABLE, "NoExecute")
                }
                Some("False") => has_taint(n, taints::UNREACHABLE, "NoExecute") || !queued(),
                Some("Unknown") => has_taint(n, taints::NOT_READY, "NoExecute") || !queued(),
                _ => false,
            };
            if pending {
                return true;
            }
        }
        count != self.known.len()
    }
}

/// `RecordNodeStatusChange`: "Node X status is now: …" on the node.
fn record_node_status_change(store: &mut Store, name: &str, uid: &str, new_status: &str) {
    store.record_event(
        node_reference(name, uid),
        "Normal",
        new_status,
        format!("Node {name} status is now: {new_status}"),
        Recorder::LateController(COMPONENT),
    );
}

const UNKNOWN_CONDITIONS: [&str; 4] = ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"];

fn mark_unknown(node: &mut Node, now: Timestamp) {
    let conds = node
        .status
        .get_or_insert_with(Default::default)
        .conditions
        .get_or_insert_with(Vec::new);
    for type_ in UNKNOWN_CONDITIONS {
        let c = NodeCondition {
            type_: type_.to_string(),
            status: "Unknown".into(),
            reason: Some("NodeStatusUnknown".into()),
            message: Some("Kubelet stopped posting node status.".into()),
            last_transition_time: Some(Time(now)),
            last_heartbeat_time: None,
        };
        match conds.iter_mut().find(|x| x.type_ == type_) {
            Some(existing) => {
                let hb = existing.last_heartbeat_time.take();
                *existing = NodeCondition {
                    last_heartbeat_time: hb,
                    ..c
                };
            }
            None => conds.push(c),
        }
    }
}

/// `MarkPodsNotReady`: every pod on the node whose Ready condition is not False gets it False,
/// and a `NodeNotReady` warning "Node is not ready".
fn mark_pods_not_ready(store: &mut Store, node: &str, now: Timestamp) {
    for p in store.pods_on_node(node) {
        let changes = p
            .status
            .as_ref()
            .and_then(|s| s.conditions.as_ref())
            .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Ready" && c.status != "False"));
        if !changes {
            continue;
        }
        store.mutate_pod(&pod_key(&p), |p| {
            let ready = p
                .status
                .as_mut()
                .and_then(|s| s.conditions.as_mut())
                .and_then(|cs| cs.iter_mut().find(|c| c.type_ == "Ready"));
            if let Some(c) = ready {
                c.status = "False".into();
                c.last_transition_time = Some(Time(now));
            }
        });
        store.record_event(
            reference("Pod", "v1", &p.metadata),
            "Warning",
            "NodeNotReady",
            "Node is not ready".into(),
            Recorder::LateController(COMPONENT),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node_with(ready: &str, unschedulable: bool) -> Node {
        Node {
            spec: Some(k8s_openapi::api::core::v1::NodeSpec {
                unschedulable: Some(unschedulable),
                ..Default::default()
            }),
            status: Some(k8s_openapi::api::core::v1::NodeStatus {
                conditions: Some(vec![NodeCondition {
                    type_: "Ready".into(),
                    status: ready.into(),
                    ..Default::default()
                }]),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    fn at(secs: f64) -> Timestamp {
        Timestamp::from_nanosecond((secs * 1e9).round() as i128).unwrap()
    }

    #[test]
    fn do_no_schedule_tainting_pass_gives_unknown_the_unreachable_taint_and_ready_clears_it() {
        let mut n = node_with("Unknown", false);
        assert!(reconcile(&mut n));
        assert_eq!(
            current(&n),
            vec![(taints::UNREACHABLE.to_string(), "NoSchedule".to_string())]
        );
        n.status = node_with("True", false).status;
        assert!(reconcile(&mut n));
        assert!(current(&n).is_empty());
        assert!(!reconcile(&mut n));
    }

    /// The NoSchedule pass leaves NoExecute taints to `doNoExecuteTaintingPass`.
    #[test]
    fn do_no_schedule_tainting_pass_leaves_no_execute_taints_alone() {
        let mut n = node_with("True", false);
        swap_no_execute_taint(&mut n, taints::UNREACHABLE, taints::NOT_READY, at(1.0));
        assert!(!needs_reconcile(&n));
        assert!(!reconcile(&mut n));
        assert!(has_taint(&n, taints::UNREACHABLE, "NoExecute"));
    }

    #[test]
    fn do_no_schedule_tainting_pass_adds_unschedulable_on_cordon_and_user_taints_stay() {
        let mut n = node_with("True", true);
        n.spec.as_mut().unwrap().taints = Some(vec![Taint {
            key: "k42".into(),
            value: Some("x".into()),
            effect: "NoSchedule".into(),
            time_added: None,
        }]);
        assert!(reconcile(&mut n));
        let ts = n.spec.as_ref().unwrap().taints.as_ref().unwrap();
        assert_eq!(ts.len(), 2);
        assert!(ts.iter().any(|t| t.key == taints::UNSCHEDULABLE));
    }

    /// `SwapNodeControllerTaint`: the new taint stamped now, the opposite one gone; re-adding
    /// one already there restamps it in place (`AddOrUpdateTaint`).
    #[test]
    fn swap_node_controller_taint_makes_not_ready_and_unreachable_exclusive() {
        let mut n = node_with("Unknown", false);
        swap_no_execute_taint(&mut n, taints::NOT_READY, taints::UNREACHABLE, at(1.0));
        swap_no_execute_taint(&mut n, taints::UNREACHABLE, taints::NOT_READY, at(2.0));
        let ts = n.spec.as_ref().unwrap().taints.clone().unwrap();
        assert_eq!(ts.len(), 1);
        assert_eq!(ts[0].key, taints::UNREACHABLE);
        assert_eq!(ts[0].time_added, Some(Time(at(2.0))));
        swap_no_execute_taint(&mut n, taints::UNREACHABLE, taints::NOT_READY, at(3.0));
        let ts = n.spec.as_ref().unwrap().taints.clone().unwrap();
        assert_eq!(ts[0].time_added, Some(Time(at(3.0))));
        remove_no_execute_taints(&mut n);
        assert_eq!(n.spec.as_ref().unwrap().taints, None);
    }

    #[test]
    fn get_zone_key_is_empty_without_labels_and_joins_region_and_zone() {
        let mut n = node_with("True", false);
        assert_eq!(zone_key(&n), "");
        n.metadata.labels = Some(sort::map([(
            "topology.kubernetes.io/zone".to_string(),
            "a".to_string(),
        )]));
        assert_eq!(zone_key(&n), ":\0:a");
        let labels = n.metadata.labels.as_mut().unwrap();
        labels.insert("topology.kubernetes.io/region".into(), "r".into());
        labels.insert("failure-domain.beta.kubernetes.io/zone".into(), "b".into());
        assert_eq!(zone_key(&n), "r:\0:b", "the beta label wins");
    }

    #[test]
    fn compute_zone_state_full_partial_and_normal() {
        use ZoneState::*;
        assert_eq!(compute_zone_state(0, 1, 0.55), FullDisruption);
        assert_eq!(compute_zone_state(0, 0, 0.55), Normal, "an empty zone");
        // More than two not Ready, and at least 55 % of the zone.
        assert_eq!(compute_zone_state(2, 3, 0.55), PartialDisruption);
        assert_eq!(compute_zone_state(3, 3, 0.55), Normal, "50 %");
        assert_eq!(compute_zone_state(1, 2, 0.55), Normal, "67 % but only two");
        assert_eq!(
            compute_zone_state(45, 55, 0.55),
            PartialDisruption,
            "exactly 55 %"
        );
    }

    #[test]
    fn reduced_qps_func_is_the_secondary_rate_above_the_large_cluster_threshold_else_zero() {
        let t = Timing::default();
        assert_eq!(reduced_qps(51, &t), 0.01);
        assert_eq!(reduced_qps(50, &t), 0.0);
        assert_eq!(healthy_qps(3, &t), 0.1, "HealthyQPSFunc");
    }

    /// `NewTokenBucketRateLimiter(0.1, 1)`: full at first, then one token every 10 s.
    #[test]
    fn rate_limited_timed_queue_try_lets_one_node_through_per_token() {
        let mut q = RateLimitedTimedQueue::new(0.1);
        for name in ["c", "a", "b"] {
            assert!(q.add(name, "uid", at(0.0)));
        }
        assert!(!q.add("a", "uid", at(0.0)), "already queued");
        let mut seen = Vec::new();
        for secs in [0.0, 0.1, 9.9, 10.0, 15.0, 20.0, 30.0] {
            q.try_process(at(secs), |v| {
                seen.push((secs, v.to_string()));
                (true, 0.0)
            });
        }
        assert_eq!(
            seen,
            vec![
                (0.0, "a".to_string()),
                (10.0, "b".to_string()),
                (20.0, "c".to_string())
            ]
        );
        assert!(
            !q.add("a", "uid", at(31.0)),
            "processed values stay in the set"
        );
        assert!(q.remove("a"));
        assert!(q.add("a", "uid", at(31.0)));
        assert_eq!(q.next_due(at(31.0)), Some(at(31.0)));
    }

    #[test]
    fn rate_limited_timed_queue_try_retries_a_value_after_its_wait() {
        let mut q = RateLimitedTimedQueue::new(10.0);
        q.add("a", "uid", at(0.0));
        q.try_process(at(0.0), |_| (false, 0.05));
        assert_eq!(
            q.head().map(|(t, _)| t),
            Some(plus(at(0.0), 0.05) + std::time::Duration::from_nanos(1))
        );
        let mut n = 0;
        q.try_process(at(0.2), |_| {
            n += 1;
            (true, 0.0)
        });
        assert_eq!(n, 1);
        assert!(q.queue.is_empty());
    }

    /// `SwapLimiter`: 0 stops the queue (and the never-limiter reports 1); a new bucket starts
    /// empty when the old one had no token.
    #[test]
    fn rate_limited_timed_queue_swap_limiter_drains_the_new_bucket_when_the_old_was_empty() {
        let mut q = RateLimitedTimedQueue::new(0.1);
        q.add("a", "uid", at(0.0));
        q.add("b", "uid", at(0.0));
        q.try_process(at(0.0), |_| (true, 0.0));
        q.swap_limiter(0.0, at(1.0));
        assert_eq!(q.next_due(at(1.0)), None, "never");
        assert_eq!(q.limiter.reported_qps(), 1.0);
        q.swap_limiter(0.5, at(2.0));
        assert_eq!(
            q.next_due(at(2.0)),
            Some(at(4.0)),
            "drained: a token in 2 s"
        );
        let mut q = RateLimitedTimedQueue::new(0.1);
        q.add("a", "uid", at(0.0));
        q.swap_limiter(0.01, at(0.0));
        assert_eq!(
            q.next_due(at(0.0)),
            Some(at(0.0)),
            "the old bucket was full"
        );
    }

    #[test]
    fn do_no_execute_tainting_pass_runs_on_the_next_100_ms_tick() {
        assert_eq!(tainting_tick(at(5.0), at(5.0)), at(5.1));
        assert_eq!(tainting_tick(at(15.0), at(5.1)), at(15.0));
        assert_eq!(tainting_tick(at(15.03), at(5.1)), at(15.1));
        assert_eq!(tainting_tick(at(1.0), at(5.25)), at(5.3));
    }
}
