//! Per-node digests of a DaemonSet's pods: what `podsShouldBeOnNode`, `updateDaemonSetStatus`
//! and `rollingUpdate` read of one node's pods, kept per node of the sync's node view and
//! recomputed only for the nodes whose pods changed. A sync then costs what changed plus one
//! pass over a compact array, instead of a per-pod fact lookup (a cache miss each) on every
//! node in each of the three passes.
//!
//! Native builds only (the page is at its size budget; it runs the upstream-shaped passes
//! alone). Like the other caches it decides nothing: each pass keeps its upstream-shaped loop,
//! asks here first, and in debug builds runs that loop too and asserts the same outcome.
//! `Cluster::set_controller_caches(false)` turns it off (`set_incremental`), the reference of
//! the differential test `crates/sim/cluster/tests/caches.rs`.
//!
//! What a digest holds is a function of the node's pod objects (a changed pod is a new
//! object) and of the template hash and generation that decide updated-ness; the pod map's
//! per-node slots (`PerNode`) log which nodes an update touched, so only those are read again.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;

use super::{ds_key, DaemonSetsController, NodeToDaemonPods, NodeView, StatusCounts, SyncError};
use crate::client::Client;
use crate::map_order::Site;
use crate::pod_facts::{Phase, PodFacts};
use crate::pod_util::{by_creation_timestamp_and_phase, ready_long_enough};
use crate::predicates::ShouldRun;
use crate::update::updated_desired_node_counts;
use crate::util::{allows_surge, get_template_generation};

/// A fresh lineage number for a newly built `PerNode` (its edit log starts empty).
pub(super) fn next_lineage() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A pod's Ready condition as R-AVL-1 reads it: True or not, and since when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Readiness {
    ready: bool,
    since: Option<Timestamp>,
}

impl Readiness {
    /// `IsPodAvailable` from the remembered condition (R-AVL-1).
    fn available(self, min_ready_seconds: i32, now: Timestamp) -> bool {
        self.ready && ready_long_enough(self.since, min_ready_seconds, now)
    }
}

/// R-RU-5 `findUpdatedPodsOnNode` over the node's live pods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Found {
    /// Two new or two old live pods: `None` upstream.
    Conflict,
    Neither,
    /// One updated and one old live pod: the updated one's readiness, the old one's, and the
    /// old one's index among the node's pods.
    Both(Readiness, Readiness, u32),
    /// Only an updated pod.
    New(Readiness),
    /// Only an old pod: its readiness and its index among the node's pods.
    Old(Readiness, u32),
}

/// What the passes of a sync read of one node's pods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Digest {
    /// The node has an entry in the pod map.
    exists: bool,
    /// Live pods (no deletionTimestamp) in phase Failed or Succeeded, at most 2.
    live_terminal: u8,
    /// Live pods in any other phase, at most 2.
    running: u8,
    /// The oldest pod (`by_creation_timestamp_and_phase`): its readiness and updated-ness.
    oldest: Option<(Readiness, bool)>,
    found: Found,
}

impl Digest {
    const EMPTY: Digest = Digest {
        exists: false,
        live_terminal: 0,
        running: 0,
        oldest: None,
        found: Found::Neither,
    };

    fn of(facts: &mut PodFacts, pods: &[Arc<Pod>], hash: &str, generation: Option<i64>) -> Digest {
        if pods.is_empty() {
            return Digest::EMPTY;
        }
        let mut d = Digest {
            exists: true,
            ..Digest::EMPTY
        };
        let (mut new, mut old) = (None, None);
        let mut conflict = false;
        for (i, pod) in pods.iter().enumerate() {
            let (deleting, phase) = facts.deleting_and_phase(pod);
            if !deleting {
                let count = if phase == Phase::Other {
                    &mut d.running
                } else {
                    &mut d.live_terminal
                };
                *count = (*count + 1).min(2);
            }
            if let Some(updated) = facts.live_updated(pod, hash, generation) {
                let slot = if updated { &mut new } else { &mut old };
                conflict |= slot.is_some();
                slot.get_or_insert(i);
            }
        }
        let readiness = |facts: &mut PodFacts, i: usize| {
            let (ready, since) = facts.readiness(&pods[i]);
            Readiness { ready, since }
        };
        d.found = match (conflict, new, old) {
            (true, _, _) => Found::Conflict,
            (false, None, None) => Found::Neither,
            (false, Some(n), Some(o)) => {
                Found::Both(readiness(facts, n), readiness(facts, o), o as u32)
            }
            (false, Some(n), None) => Found::New(readiness(facts, n)),
            (false, None, Some(o)) => Found::Old(readiness(facts, o), o as u32),
        };
        let oldest = pods
            .iter()
            .enumerate()
            .min_by(|a, b| by_creation_timestamp_and_phase(a.1, b.1))
            .map(|(i, _)| i);
        d.oldest = oldest.map(|i| {
            let (_, _, updated) =
                facts.ready_available_updated(&pods[i], 0, Timestamp::UNIX_EPOCH, hash, generation);
            (readiness(facts, i), updated)
        });
        d
    }

    /// `podsShouldBeOnNode` does nothing on this node, whatever the time (R-MAN-1..7): no
    /// create is needed, no live pod has ended, and at most one runs (none where a surging
    /// DaemonSet should run one), or, where none may stay, no pod is live.
    pub(crate) fn quiet_in_manage(&self, should: ShouldRun, surge: bool) -> bool {
        if should.should_run && !self.exists {
            return false;
        }
        if !should.should_continue_running {
            return self.live_terminal == 0 && self.running == 0;
        }
        self.live_terminal == 0
            && match self.running {
                0 => !(surge && should.should_run),
                1 => true,
                _ => false,
            }
    }
}

/// Sums over a node view of what each node adds to the status counters (R-ST-1..5) and to
/// `rollingUpdate`'s counts (R-RU-6..8) where minReadySeconds is 0 (then availability is
/// readiness, whatever the time). Kept with the digests: an edited node's old share is taken
/// out and its new one put in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Totals {
    desired: i32,
    current: i32,
    misscheduled: i32,
    ready: i32,
    updated: i32,
    /// Nodes with an entry in the pod map.
    entries: i32,
    /// `rollingUpdate`'s entries (nodes with pods, and desired nodes) that count as unavailable
    /// whatever the time: two pods of a kind, none, or both kinds.
    unsettled: i32,
    new_ready: i32,
    new_unready: i32,
    old_ready: i32,
    old_unready: i32,
}

impl Totals {
    /// Adds (`sign` 1) or takes out (-1) one node's share.
    fn add(&mut self, d: &Digest, should: ShouldRun, sign: i32) {
        if should.should_run {
            self.desired += sign;
            if let Some((readiness, updated)) = d.oldest {
                self.current += sign;
                self.ready += sign * readiness.ready as i32;
                self.updated += sign * updated as i32;
            }
        } else {
            self.misscheduled += sign * d.exists as i32;
        }
        self.entries += sign * d.exists as i32;
        if !(d.exists || should.should_run) {
            return;
        }
        let count = match d.found {
            Found::Conflict | Found::Neither | Found::Both(..) => &mut self.unsettled,
            Found::New(r) if r.ready => &mut self.new_ready,
            Found::New(_) => &mut self.new_unready,
            Found::Old(r, _) if r.ready => &mut self.old_ready,
            Found::Old(..) => &mut self.old_unready,
        };
        *count += sign;
    }
}

/// One DaemonSet's digests, per node of the `PerNode` lineage they follow, and what they sum to.
#[derive(Debug, Clone)]
pub(super) struct DigestSet {
    lineage: u64,
    /// How many of the lineage's edits are folded in.
    consumed: usize,
    /// The template hash and generation updated-ness was read for.
    update_key: (String, Option<i64>),
    /// The node view the totals and `loud` were summed over (held: compared by address).
    view: Option<Arc<NodeView>>,
    /// Whether the DaemonSet surged when `loud` was found.
    surge: bool,
    digests: Arc<Vec<Digest>>,
    totals: Totals,
    /// The nodes that are not quiet in `manage`, in node order.
    loud: Arc<std::collections::BTreeSet<u32>>,
    /// `rollingUpdate`'s entries (nodes with pods, and desired nodes), in node order; `None`
    /// after an edit changed which nodes they are (made again when next asked).
    entries: Option<Arc<Vec<u32>>>,
}

/// The pods of a sync's node view, per node, as `PerNode` keeps them, with its edit log.
pub(super) struct Slots<'a> {
    pub lineage: u64,
    pub edits: &'a [u32],
    pub pods: &'a [Vec<Arc<Pod>>],
}

/// This sync's digests of one DaemonSet's pods over its node view.
#[derive(Debug, Clone)]
pub(crate) struct DigestView {
    digests: Arc<Vec<Digest>>,
    totals: Totals,
    loud: Arc<std::collections::BTreeSet<u32>>,
    entries: Arc<Vec<u32>>,
}

impl DigestView {
    /// How many nodes have pods in the map (`NodeView::lists_every_entry`'s count).
    pub(crate) fn entries_with_pods(&self) -> usize {
        self.totals.entries as usize
    }

    /// `podsShouldBeOnNode` does nothing on node `i` (see `Digest::quiet_in_manage`).
    pub(crate) fn quiet(&self, i: usize, should: ShouldRun, surge: bool) -> bool {
        self.digests[i].quiet_in_manage(should, surge)
    }
}

impl DaemonSetsController {
    /// Turns the digests on or off (off: every pass takes its upstream-shaped loop alone).
    pub fn set_incremental(&mut self, on: bool) {
        self.incremental = on;
        self.digests.clear();
    }

    /// This sync's per-node digests of `ds`'s pods over `nodes`, for the pod map `map` of slot
    /// 0 (`include_deleted_terminal` false), brought up to date with the nodes whose pods
    /// changed; `None` when off, outside a sync, or without the map's per-node slots.
    pub(crate) fn node_digests(
        &mut self,
        ds: &DaemonSet,
        nodes: &Arc<NodeView>,
        map: &Arc<NodeToDaemonPods>,
        hash: &str,
    ) -> Option<DigestView> {
        if !self.incremental {
            return None;
        }
        let generation = get_template_generation(ds).unwrap_or(None);
        let surge = allows_surge(ds);
        let key = ds_key(ds);
        let facts = self.pod_facts.entry(key.clone()).or_default();
        let slots = super::pod_map_cache::slots_of(&self.map_memo[0], self.syncing, nodes, map)?;
        let set = self.digests.entry(key).or_insert_with(|| DigestSet {
            lineage: 0,
            consumed: 0,
            update_key: (String::new(), None),
            view: None,
            surge,
            digests: Arc::new(Vec::new()),
            totals: Totals::default(),
            loud: Arc::default(),
            entries: None,
        });
        let same_key = set.update_key.0 == hash && set.update_key.1 == generation;
        let same_view = set.view.as_ref().is_some_and(|v| Arc::ptr_eq(v, nodes));
        let n = slots.pods.len();
        if set.lineage != slots.lineage
            || !same_key
            || !same_view
            || set.surge != surge
            || set.digests.len() != n
            || set.consumed > slots.edits.len()
        {
            set.digests = Arc::new(
                slots
                    .pods
                    .iter()
                    .map(|pods| Digest::of(facts, pods, hash, generation))
                    .collect(),
            );
            set.lineage = slots.lineage;
            set.update_key = (hash.to_string(), generation);
            set.view = Some(nodes.clone());
            set.surge = surge;
            set.totals = Totals::default();
            for (d, &should) in set.digests.iter().zip(&nodes.should) {
                set.totals.add(d, should, 1);
            }
            set.loud = Arc::new(
                (0..n)
                    .filter(|&i| !set.digests[i].quiet_in_manage(nodes.should[i], surge))
                    .map(|i| i as u32)
                    .collect(),
            );
            set.entries = None;
        } else if set.consumed < slots.edits.len() {
            let digests = Arc::make_mut(&mut set.digests);
            let loud = Arc::make_mut(&mut set.loud);
            for &i in &slots.edits[set.consumed..] {
                let (at, should) = (i as usize, nodes.should[i as usize]);
                let was_entry = digests[at].exists;
                set.totals.add(&digests[at], should, -1);
                digests[at] = Digest::of(facts, &slots.pods[at], hash, generation);
                set.totals.add(&digests[at], should, 1);
                if digests[at].exists != was_entry && !should.should_run {
                    set.entries = None;
                }
                if digests[at].quiet_in_manage(should, surge) {
                    loud.remove(&i);
                } else {
                    loud.insert(i);
                }
            }
        }
        set.consumed = slots.edits.len();
        #[cfg(debug_assertions)]
        {
            let fresh: Vec<Digest> = slots
                .pods
                .iter()
                .map(|pods| Digest::of(facts, pods, hash, generation))
                .collect();
            assert!(*set.digests == fresh, "digests kept differ from fresh ones");
            let mut totals = Totals::default();
            for (d, &should) in fresh.iter().zip(&nodes.should) {
                totals.add(d, should, 1);
            }
            assert_eq!(set.totals, totals, "totals kept differ from fresh ones");
            let loud = (0..n).filter(|&i| !fresh[i].quiet_in_manage(nodes.should[i], surge));
            assert!(
                set.loud.iter().map(|&i| i as usize).eq(loud),
                "quiet nodes kept differ"
            );
            if let Some(entries) = &set.entries {
                let fresh = (0..n).filter(|&i| fresh[i].exists || nodes.should[i].should_run);
                assert!(
                    entries.iter().map(|&i| i as usize).eq(fresh),
                    "entries kept differ"
                );
            }
        }
        let digests = &set.digests;
        let entries = set.entries.get_or_insert_with(|| {
            let entry = |i: &usize| digests[*i].exists || nodes.should[*i].should_run;
            Arc::new((0..n).filter(entry).map(|i| i as u32).collect())
        });
        Some(DigestView {
            digests: set.digests.clone(),
            totals: set.totals,
            loud: set.loud.clone(),
            entries: entries.clone(),
        })
    }

    /// R-RU-6..13 from the digests: what `rolling_update` passes to `sync_nodes`, the pods to
    /// delete and the nodes to create an updated pod on. `None` where the digests do not
    /// apply: off, or a pod map entry of a node not listed (the upstream-shaped pass handles
    /// those).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn replacements_from_digests<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        nodes: &Arc<NodeView>,
        map: &Arc<NodeToDaemonPods>,
        per_node: &[Vec<Arc<Pod>>],
        hash: &str,
        now: Timestamp,
    ) -> Result<Option<Replacements>, SyncError> {
        let Some(view) = self.node_digests(ds, nodes, map, hash) else {
            return Ok(None);
        };
        let t = view.totals;
        if !nodes.sorted || t.entries != map.len() as i32 {
            // An entry of a node not listed, or a node name listed twice.
            return Ok(None);
        }
        let (max_surge, max_unavailable, desired) = updated_desired_node_counts(ds, t.desired)?;
        let mrs = ds.spec.min_ready_seconds.unwrap_or(0);
        if max_surge != 0 {
            let surge = Surge {
                max_surge,
                desired,
                min_ready_seconds: mrs,
                now,
            };
            return Ok(Some(
                self.surge_from_digests(c, ds, &view, nodes, per_node, surge),
            ));
        }
        let deletions = self.deletions_from_digests(&view, per_node, max_unavailable, mrs, now);
        Ok(Some((deletions, Vec::new())))
    }

    /// R-RU-6..8 from the digests, for a DaemonSet that does not surge: the old pods to
    /// replace within maxUnavailable.
    fn deletions_from_digests(
        &mut self,
        view: &DigestView,
        per_node: &[Vec<Arc<Pod>>],
        max_unavailable: i32,
        mrs: i32,
        now: Timestamp,
    ) -> Vec<String> {
        let t = view.totals;
        let digests = &view.digests;
        // The order only picks which unavailable old pods are listed first and which available
        // ones are taken: with neither to do, the answer is empty in any order, and the
        // shuffle is not drawn. Without minReadySeconds the counts are the totals'.
        let (unavailable, old_unavailable, old_available) = if mrs <= 0 {
            (t.unsettled + t.new_unready, t.old_unready, t.old_ready)
        } else {
            let mut counts = (0, 0, 0);
            for &i in view.entries.iter() {
                match digests[i as usize].found {
                    Found::Conflict | Found::Neither | Found::Both(..) => counts.0 += 1,
                    Found::New(r) => counts.0 += !r.available(mrs, now) as i32,
                    Found::Old(r, _) if r.available(mrs, now) => counts.2 += 1,
                    Found::Old(..) => counts.1 += 1,
                }
            }
            counts
        };
        let remaining = max_unavailable - unavailable - old_unavailable;
        if old_unavailable == 0 && (remaining <= 0 || old_available == 0) {
            return Vec::new();
        }
        let order = self.entries_in_map_order(view);
        let deletions = if old_unavailable == 0 {
            // With something left to take, the count of unavailable nodes never reaches
            // maxUnavailable on the way: the first available old pods in the order are taken.
            let available_old = |&i: &u32| match digests[i as usize].found {
                Found::Old(r, at) if r.available(mrs, now) => {
                    Some(pod_name(&per_node[i as usize][at as usize]))
                }
                _ => None,
            };
            let taken = order
                .iter()
                .filter_map(available_old)
                .take(remaining as usize);
            taken.collect()
        } else {
            replacements(digests, per_node, &order, max_unavailable, mrs, now)
        };
        self.entry_order = order;
        deletions
    }

    /// R-RU-11..13 from the digests, for a DaemonSet that surges: the old pods to delete and
    /// the nodes to surge onto. The surge in use (two pods of a kind on a node, or an updated
    /// pod not yet available beside an old one) does not depend on the order; where it has
    /// reached maxSurge and no node has anything else to do, the answer is empty in any order
    /// and the shuffle is not drawn. Otherwise the nodes are visited as `rolling_update`
    /// visits them, each answering from its digest and its view's `ShouldRun` (the
    /// `NodeShouldRunDaemonPod` of the same node object the lister returns).
    fn surge_from_digests<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        view: &DigestView,
        nodes: &NodeView,
        per_node: &[Vec<Arc<Pod>>],
        surge: Surge,
    ) -> Replacements {
        let digests = &view.digests;
        let available = |r: Readiness| r.available(surge.min_ready_seconds, surge.now);
        let (mut surging, mut acting, mut num_available, mut misplaced) = (0, 0, 0, 0);
        for &i in view.entries.iter() {
            let should_run = nodes.should[i as usize].should_run;
            match digests[i as usize].found {
                Found::Conflict => surging += 1,
                Found::Neither => {}
                Found::New(r) => num_available += available(r) as i32,
                Found::Old(r, _) if available(r) => {
                    num_available += 1;
                    misplaced += !should_run as i32;
                }
                Found::Old(..) => acting += 1,
                Found::Both(new, old, _) => {
                    num_available += available(old) as i32;
                    if available(new) {
                        acting += 1;
                    } else {
                        surging += 1;
                    }
                }
            }
        }
        if surging >= surge.max_surge
            && acting == 0
            && (misplaced == 0 || num_available <= surge.desired)
        {
            return (Vec::new(), Vec::new());
        }
        let order = self.entries_in_map_order(view);
        let mut old_pods_to_delete = Vec::new();
        let mut should_not_run_pods_to_delete = Vec::new();
        // By node position: upstream collects every candidate's name and then takes the first
        // few (at most maxSurge); naming them all cost a string per node in every sync.
        let mut candidate_new_nodes: Vec<usize> = Vec::new();
        let mut allowed_new_nodes = Vec::new();
        let mut num_surge = 0;
        for &i in &order {
            let i = i as usize;
            let old_name = |at: u32| pod_name(&per_node[i][at as usize]);
            let should_run = nodes.should[i].should_run;
            match digests[i].found {
                Found::Conflict => num_surge += 1,
                Found::Neither | Found::New(_) => {}
                Found::Old(r, at) if !available(r) => {
                    if should_run {
                        allowed_new_nodes.push(nodes.names[i].clone());
                    } else {
                        old_pods_to_delete.push(old_name(at));
                    }
                }
                Found::Old(_, at) => {
                    if !should_run {
                        should_not_run_pods_to_delete.push(old_name(at));
                    } else if num_surge < surge.max_surge {
                        candidate_new_nodes.push(i);
                    }
                }
                Found::Both(new, _, _) if !available(new) => num_surge += 1,
                Found::Both(_, _, at) => old_pods_to_delete.push(old_name(at)),
            }
        }
        debug_assert_eq!(num_surge, surging, "the surge in use depends on the order");
        // R-RU-12..13 as `rolling_update` ends, line for line: a helper shared with it put the
        // page 71 B (packed) over its size budget, so the upstream-shaped lines stay as they are.
        let deletable = num_available - surge.desired;
        if deletable > 0 {
            let ns = ds.metadata.namespace.as_deref().unwrap_or("");
            let n = (deletable as usize).min(should_not_run_pods_to_delete.len());
            for name in &should_not_run_pods_to_delete[..n] {
                if c.pod(ns, name).is_some() {
                    old_pods_to_delete.push(name.clone());
                }
            }
        }
        let remaining = (surge.max_surge - num_surge).clamp(0, candidate_new_nodes.len() as i32);
        let taken = candidate_new_nodes.into_iter().take(remaining as usize);
        allowed_new_nodes.extend(taken.map(|i| nodes.names[i].clone()));
        self.entry_order = order;
        (old_pods_to_delete, allowed_new_nodes)
    }

    /// R-RU-1's entries (nodes with pods, and desired nodes) in the order `rolling_update`
    /// visits them: the same shuffle of as many entries, made in the kept buffer (given back
    /// with `self.entry_order = order` after use).
    fn entries_in_map_order(&mut self, view: &DigestView) -> Vec<u32> {
        let mut order = std::mem::take(&mut self.entry_order);
        order.clear();
        order.extend_from_slice(&view.entries);
        self.order.shuffle(Site::RollingUpdate, &mut order);
        order
    }

    /// R-ST-1..5 from the digests: the totals without minReadySeconds, else one pass over
    /// the digests.
    pub(crate) fn status_from_digests(
        &mut self,
        ds: &DaemonSet,
        nodes: &Arc<NodeView>,
        map: &Arc<NodeToDaemonPods>,
        hash: &str,
        now: Timestamp,
    ) -> Option<StatusCounts> {
        let view = self.node_digests(ds, nodes, map, hash)?;
        let mrs = ds.spec.min_ready_seconds.unwrap_or(0);
        if mrs > 0 {
            return Some(status_counts(&view.digests, nodes, mrs, now));
        }
        let t = view.totals;
        Some(StatusCounts {
            desired_number_scheduled: t.desired,
            current_number_scheduled: t.current,
            number_misscheduled: t.misscheduled,
            number_ready: t.ready,
            updated_number_scheduled: t.updated,
            number_available: t.ready,
            number_unavailable: t.desired - t.ready,
        })
    }

    /// The nodes `manage` visits, in its order (R-MAN-8): every node in the sync's order; in a
    /// release build with digests only the nodes that are not quiet, in that order, drawn only
    /// when there are two or more (one node has one order). Debug builds visit every node, and
    /// `manage` checks each quiet one against `podsShouldBeOnNode`.
    pub(crate) fn manage_visit(&self, digests: Option<&DigestView>, n: usize) -> Vec<usize> {
        let Some(view) = digests.filter(|_| !cfg!(debug_assertions)) else {
            return self.order.permutation(Site::NodeList, n);
        };
        if view.loud.len() < 2 {
            return view.loud.iter().map(|&i| i as usize).collect();
        }
        let mut visit = self.order.permutation(Site::NodeList, n);
        visit.retain(|&i| view.loud.contains(&(i as u32)));
        visit
    }
}

/// R-ST-1..5 from the digests: the counters `compute_status_counts` makes.
fn status_counts(
    digests: &[Digest],
    nodes: &NodeView,
    min_ready_seconds: i32,
    now: Timestamp,
) -> StatusCounts {
    let mut s = StatusCounts::default();
    for (d, should) in digests.iter().zip(&nodes.should) {
        if !should.should_run {
            s.number_misscheduled += d.exists as i32;
            continue;
        }
        s.desired_number_scheduled += 1;
        let Some((readiness, updated)) = d.oldest else {
            continue;
        };
        s.current_number_scheduled += 1;
        if readiness.ready {
            s.number_ready += 1;
            s.number_available += readiness.available(min_ready_seconds, now) as i32;
        }
        s.updated_number_scheduled += updated as i32;
    }
    s.number_unavailable = s.desired_number_scheduled - s.number_available;
    s
}

/// R-RU-6..8 over the digests, for a DaemonSet without surge: the old pods to replace within
/// maxUnavailable, as `rolling_update` finds them. `order` is the node indices of the map's
/// entries (desired nodes without pods included), in the sync's map order.
fn replacements(
    digests: &[Digest],
    per_node: &[Vec<Arc<Pod>>],
    order: &[u32],
    max_unavailable: i32,
    min_ready_seconds: i32,
    now: Timestamp,
) -> Vec<String> {
    let mut num_unavailable = 0;
    let mut allowed = Vec::new();
    let mut candidates: Vec<(usize, u32)> = Vec::new();
    for &i in order {
        let i = i as usize;
        match digests[i].found {
            Found::Conflict | Found::Neither | Found::Both(..) => num_unavailable += 1,
            Found::New(r) => num_unavailable += !r.available(min_ready_seconds, now) as i32,
            Found::Old(r, at) => {
                if !r.available(min_ready_seconds, now) {
                    allowed.push(pod_name(&per_node[i][at as usize]));
                    num_unavailable += 1;
                } else if num_unavailable < max_unavailable {
                    candidates.push((i, at));
                }
            }
        }
    }
    let remaining = (max_unavailable - num_unavailable).clamp(0, candidates.len() as i32);
    allowed.extend(
        candidates
            .into_iter()
            .take(remaining as usize)
            .map(|(i, at)| pod_name(&per_node[i][at as usize])),
    );
    allowed
}

fn pod_name(pod: &Pod) -> String {
    pod.metadata.name.clone().unwrap_or_default()
}

/// What `rolling_update` hands `sync_nodes`: the pods to delete, the nodes to create on.
pub(crate) type Replacements = (Vec<String>, Vec<String>);

/// A surging rolling update's numbers (R-RU-1..3) and the time availability is read at.
#[derive(Debug, Clone, Copy)]
struct Surge {
    max_surge: i32,
    desired: i32,
    min_ready_seconds: i32,
    now: Timestamp,
}

/// The digests kept per DaemonSet key.
pub(super) type Digests = BTreeMap<String, DigestSet>;
