//! The controller's caches, behind one seam beside the upstream-shaped code of
//! `daemon_controller.rs`: the node view of a DaemonSet's last sync, and its pod map kept
//! within a sync (while no pod write was issued) and across syncs (while the listed pod
//! objects and the DaemonSet's claim inputs are the same, or updated for the pods that changed).
//!
//! They decide nothing: `getNodesToDaemonPods` asks [`DaemonSetsController::reuse_map`] first
//! and hands what it built to [`DaemonSetsController::remember_map`]; everything else reads as
//! upstream's does. A controller that calls [`DaemonSetsController::forget_caches`] before every
//! sync behaves the same, which `crates/sim/cluster/tests/caches.rs` checks trace for trace, and
//! debug builds compare every incrementally updated map with a full rebuild.

use std::sync::Arc;

use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::Pod;

use super::{
    ds_key, map_context, map_target, DaemonSetsController, NodeToDaemonPods, NodeView, SyncError,
};
use crate::client::{Client, Listers};
use crate::util::get_target_node_name;
#[cfg(debug_assertions)]
use crate::{controller_ref::get_controller_of, pod_facts::PodFacts};
#[cfg(debug_assertions)]
use k8s_base::Selector;

#[cfg(not(target_arch = "wasm32"))]
mod pod_log;

/// What [`DaemonSetsController::reuse_map`] found: a map that still holds, or the pods listed
/// (and the listers' version then) for a fresh claim.
pub(super) enum Reuse {
    Map(Arc<NodeToDaemonPods>),
    Listed {
        pods: Vec<Arc<Pod>>,
        version: Option<u64>,
    },
}

/// A pod map built during the current sync, and when.
#[derive(Debug, Clone)]
pub(super) struct MapMemo {
    /// `DaemonSetsController::writes` once the map was built.
    writes: u64,
    /// The claim that built the map adopted or released something.
    claim_wrote: bool,
    map: Arc<NodeToDaemonPods>,
    /// `map` per node of a node view, once asked for.
    per_node: Option<PerNode>,
}

/// A pod map's entries in the order of a node view's nodes (`pods_per_node`), owned so that
/// it can be kept and updated with the map.
#[derive(Debug, Clone)]
pub(crate) struct PerNode {
    /// The node view it is aligned with (held: compared by address).
    view: Arc<NodeView>,
    /// Per node its entry of the map; empty when it has none (entries are never empty).
    pods: Arc<Vec<Vec<Arc<Pod>>>>,
    /// Native builds: this value's lineage (fresh when built, kept while updated) and the
    /// nodes each update touched since, in order (the digests follow them, `node_digest.rs`).
    /// The log is shared by the clones a sync's memo takes, not copied: it grows to one entry
    /// per node, and a copy in every sync cost O(nodes).
    #[cfg(not(target_arch = "wasm32"))]
    lineage: u64,
    #[cfg(not(target_arch = "wasm32"))]
    edits: Arc<Vec<u32>>,
}

impl PerNode {
    /// For `view`'s nodes: each one's entry of `map`.
    fn new(view: &Arc<NodeView>, map: &NodeToDaemonPods) -> Self {
        let pods = view
            .pods_per_node(map)
            .into_iter()
            .map(|e| e.map(<[Arc<Pod>]>::to_vec).unwrap_or_default())
            .collect();
        PerNode {
            view: view.clone(),
            pods: Arc::new(pods),
            #[cfg(not(target_arch = "wasm32"))]
            lineage: super::node_digest::next_lineage(),
            #[cfg(not(target_arch = "wasm32"))]
            edits: Arc::default(),
        }
    }

    /// Logs the nodes whose pods an update changed; past one entry per node the log starts
    /// a new lineage instead (the digests then read every node once more).
    #[cfg(not(target_arch = "wasm32"))]
    fn log_edits(&mut self, touched: &[u32]) {
        if self.edits.len() + touched.len() > self.pods.len() {
            self.lineage = super::node_digest::next_lineage();
            self.edits = Arc::default();
        } else {
            // Unshared here: the sync's memo let go of its clone before the update.
            Arc::make_mut(&mut self.edits).extend_from_slice(touched);
        }
    }

    /// Each node's pods as `pods_per_node` gives them (`None`: no entry).
    #[cfg(debug_assertions)]
    fn entries(&self) -> impl Iterator<Item = Option<&[Arc<Pod>]>> {
        Self::slices(&self.pods)
    }

    /// Per node its pods as `pods_per_node` gives them (`None`: no entry).
    pub(crate) fn slices(pods: &[Vec<Arc<Pod>>]) -> impl Iterator<Item = Option<&[Arc<Pod>]>> {
        pods.iter().map(|v| (!v.is_empty()).then_some(v.as_slice()))
    }
}

/// A pod map kept across syncs, with the inputs that decide it.
#[derive(Debug, Clone)]
pub(super) struct MapAcross {
    /// The listed pods it was built from, held so their addresses cannot be reused.
    pods: Vec<Arc<Pod>>,
    /// `pods` strictly increase by (namespace, name), as the cluster's listers list them.
    sorted: bool,
    /// The listers' `pods_version` when `pods` was listed.
    version: Option<u64>,
    uid: Option<String>,
    deleting: bool,
    selector: k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector,
    map: Arc<NodeToDaemonPods>,
    /// `map` per node of the node view last asked for, updated with `map`.
    per_node: Option<PerNode>,
    /// Native builds: `pods` by name, for the change log's lookups (`pod_log`); built when
    /// first asked for, dropped when `pods` is replaced. The change log updates only this
    /// index; `pods` is then empty and `listing_behind` set until a full listing is compared
    /// with it (`pod_log::catch_up`).
    #[cfg(not(target_arch = "wasm32"))]
    by_name: Option<pod_log::ByName>,
    #[cfg(not(target_arch = "wasm32"))]
    listing_behind: bool,
}

impl MapAcross {
    /// This sync's memo when the map kept across syncs still holds (claiming wrote nothing).
    fn reused(&self, writes: u64) -> MapMemo {
        MapMemo {
            writes,
            claim_wrote: false,
            map: self.map.clone(),
            per_node: self.per_node.clone(),
        }
    }

    /// The kept listing, in (namespace, name) order.
    #[cfg(debug_assertions)]
    fn listed(&self) -> std::borrow::Cow<'_, [Arc<Pod>]> {
        #[cfg(not(target_arch = "wasm32"))]
        if self.listing_behind {
            return std::borrow::Cow::Owned(pod_log::sorted(self.by_name.as_ref()));
        }
        std::borrow::Cow::Borrowed(&self.pods)
    }

    /// The same claim inputs of the DaemonSet (R-CLM: identity, deletion state, selector).
    fn same_claim_inputs(&self, ds: &DaemonSet) -> bool {
        self.uid == ds.metadata.uid
            && self.deleting == ds.metadata.deletion_timestamp.is_some()
            && self.selector == ds.spec.selector
    }

    /// Same pod objects in the same order, and the same claim inputs of the DaemonSet.
    fn still_holds(&self, ds: &DaemonSet, pods: &[Arc<Pod>]) -> bool {
        self.same_claim_inputs(ds)
            && self.pods.len() == pods.len()
            && self.pods.iter().zip(pods).all(|(a, b)| Arc::ptr_eq(a, b))
    }
}

/// (namespace, name): the order the listers list pods in.
fn pod_list_key(p: &Pod) -> (&str, &str) {
    (
        p.metadata.namespace.as_deref().unwrap_or(""),
        p.metadata.name.as_deref().unwrap_or(""),
    )
}

/// Whether `pods` strictly increase by (namespace, name).
fn pods_sorted(pods: &[Arc<Pod>]) -> bool {
    pods.windows(2)
        .all(|w| pod_list_key(&w[0]) < pod_list_key(&w[1]))
}

/// Pods (removed, added) between two listings.
type ListDiff = (Vec<Arc<Pod>>, Vec<Arc<Pod>>);

/// What changed between two pod listings: the objects of `old` that are not in `new`, and the
/// objects of `new` that are not in `old` (in `new`'s order). A changed pod is a new object, so
/// it appears in both. `old` must strictly increase by (namespace, name); `None` when `new`
/// does not (then the caller starts over). Unchanged runs cost one pointer comparison per pod;
/// only the objects around a change are read.
fn pod_list_diff(old: &[Arc<Pod>], new: &[Arc<Pod>]) -> Option<ListDiff> {
    let mut removed = Vec::new();
    let mut added = Vec::new();
    let (mut i, mut j) = (0, 0);
    // `new[j]` is not one of `old`'s objects: it must sit strictly between its neighbours
    // (pairs of unchanged objects keep `old`'s order).
    let in_order = |j: usize| {
        let k = pod_list_key(&new[j]);
        (j == 0 || pod_list_key(&new[j - 1]) < k)
            && new.get(j + 1).is_none_or(|n| k < pod_list_key(n))
    };
    loop {
        match (old.get(i), new.get(j)) {
            (None, None) => break,
            (Some(o), Some(n)) if Arc::ptr_eq(o, n) => {
                i += 1;
                j += 1;
            }
            (Some(o), Some(n)) => match pod_list_key(o).cmp(&pod_list_key(n)) {
                std::cmp::Ordering::Equal => {
                    if !in_order(j) {
                        return None;
                    }
                    removed.push(o.clone());
                    added.push(n.clone());
                    i += 1;
                    j += 1;
                }
                std::cmp::Ordering::Less => {
                    removed.push(o.clone());
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    if !in_order(j) {
                        return None;
                    }
                    added.push(n.clone());
                    j += 1;
                }
            },
            (Some(o), None) => {
                removed.push(o.clone());
                i += 1;
            }
            (None, Some(n)) => {
                if !in_order(j) {
                    return None;
                }
                added.push(n.clone());
                j += 1;
            }
        }
    }
    Some((removed, added))
}

/// Native builds: the per-node slots of this sync's pod map `map` over `nodes` (from the memo
/// of slot 0), with their edit log; `None` when not in a sync or not kept.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn slots_of<'a>(
    memo: &'a Option<MapMemo>,
    syncing: bool,
    nodes: &Arc<NodeView>,
    map: &Arc<NodeToDaemonPods>,
) -> Option<super::node_digest::Slots<'a>> {
    let memo = memo
        .as_ref()
        .filter(|m| syncing && Arc::ptr_eq(&m.map, map))?;
    let p = memo
        .per_node
        .as_ref()
        .filter(|p| Arc::ptr_eq(&p.view, nodes))?;
    Some(super::node_digest::Slots {
        lineage: p.lineage,
        edits: &p.edits,
        pods: &p.pods,
    })
}

/// The key of a DaemonSet's pod map kept across syncs.
pub(super) fn across_key_of(ds: &DaemonSet, include_deleted_terminal: bool) -> (String, bool) {
    (ds_key(ds), include_deleted_terminal)
}

/// Debug builds: an incrementally updated pod map equals the map built from scratch (claim
/// answers that need no API call, grouped in listing order). Skipped when some pod's claim
/// would need a write.
#[cfg(debug_assertions)]
fn debug_check_map(
    ds: &DaemonSet,
    pods: &[Arc<Pod>],
    map: &NodeToDaemonPods,
    facts: &mut PodFacts,
    include_deleted_terminal: bool,
) {
    let Ok(selector) = Selector::from_label_selector(&ds.spec.selector) else {
        return;
    };
    let uid = ds.metadata.uid.as_deref().unwrap_or("");
    let deleting = ds.metadata.deletion_timestamp.is_some();
    let mut expected = NodeToDaemonPods::new();
    for pod in pods {
        let matches = selector.matches(pod.metadata.labels.as_ref());
        let ours = match get_controller_of(&pod.metadata) {
            Some(r) if r.uid != uid => false,
            Some(_) if matches => true,
            Some(_) if deleting => false,
            Some(_) => return,
            None if deleting || !matches || pod.metadata.deletion_timestamp.is_some() => false,
            None => return,
        };
        if !ours {
            continue;
        }
        if let Some(node) = map_target(facts, pod, include_deleted_terminal) {
            expected
                .entry(node.to_string())
                .or_default()
                .push(pod.clone());
        }
    }
    let same = expected.len() == map.len()
        && expected.iter().zip(map).all(|((ka, va), (kb, vb))| {
            ka == kb && va.len() == vb.len() && va.iter().zip(vb).all(|(a, b)| Arc::ptr_eq(a, b))
        });
    assert!(
        same,
        "incrementally updated pod map differs from a full rebuild"
    );
}

impl DaemonSetsController {
    /// The node view of this sync. Eligibility depends only on the node objects and the pod
    /// template (R-ELG), so when both are the same as last sync (the caches replace a node
    /// object whenever it changes) the previous view is reused instead of evaluating every
    /// node again.
    /// When the listers tell that no node changed since (`nodes_version`), the nodes are not
    /// even listed.
    pub(super) fn node_view(
        &mut self,
        l: &(impl Listers + ?Sized),
        ds: &DaemonSet,
    ) -> Arc<NodeView> {
        let key = ds_key(ds);
        let version = l.nodes_version();
        let cached = self
            .node_views
            .get_mut(&key)
            .filter(|(template, _, _)| *template == ds.spec.template);
        if let Some((_, view, seen)) = cached {
            if version.is_some() && *seen == version {
                return view.clone();
            }
            let nodes = l.nodes();
            if view.nodes.len() == nodes.len()
                && view
                    .nodes
                    .iter()
                    .zip(&nodes)
                    .all(|(a, b)| Arc::ptr_eq(a, b))
            {
                *seen = version;
                return view.clone();
            }
            let view = Arc::new(NodeView::new(nodes, ds));
            self.node_views
                .insert(key, (ds.spec.template.clone(), view.clone(), version));
            return view;
        }
        let view = Arc::new(NodeView::new(l.nodes(), ds));
        self.node_views
            .insert(key, (ds.spec.template.clone(), view.clone(), version));
        view
    }

    /// Drops every cache kept across syncs (per-pod facts, node views, pod maps). They
    /// decide nothing, so a controller that forgets them before each sync behaves the same:
    /// the differential test of the caches.
    pub fn forget_caches(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        self.digests.clear();
        self.pod_facts.clear();
        self.node_views.clear();
        self.maps_across.clear();
    }

    /// `get_nodes_to_daemon_pods` from the map of the last sync when only some pods changed:
    /// the map is a function of each listed pod's claim answer and target node, and a pod
    /// object's claim answer (with the same claim inputs of the DaemonSet) does not change, so
    /// only the pods that left the listing are taken out and only the new objects are claimed
    /// (in listing order, as a full claim would: unchanged pods need no API call) and put in,
    /// each at its listing position on its node. `None` when this does not apply (no map of the
    /// last sync for these claim inputs, or a listing not in (namespace, name) order).
    #[cfg_attr(
        not(target_arch = "wasm32"),
        allow(
            clippy::too_many_arguments,
            reason = "natively, the diff from the change log"
        )
    )]
    fn update_map_across<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        across_key: &(String, bool),
        pods: &mut Vec<Arc<Pod>>,
        version: Option<u64>,
        include_deleted_terminal: bool,
        #[cfg(not(target_arch = "wasm32"))] from_log: Option<ListDiff>,
    ) -> Result<Option<Arc<NodeToDaemonPods>>, SyncError> {
        let Some(across) = self
            .maps_across
            .get(across_key)
            .filter(|a| a.sorted && a.same_claim_inputs(ds))
        else {
            return Ok(None);
        };
        #[cfg(not(target_arch = "wasm32"))]
        let by_log = from_log.is_some();
        #[cfg(not(target_arch = "wasm32"))]
        let Some((removed, added)) = from_log.or_else(|| pod_list_diff(&across.pods, pods)) else {
            return Ok(None);
        };
        #[cfg(target_arch = "wasm32")]
        let Some((removed, added)) = pod_list_diff(&across.pods, pods) else {
            return Ok(None);
        };
        let writes_before = self.writes;
        let claimed = self
            .claim_some_pods(c, ds, &added, false)
            .map_err(|e| map_context(e, ds))?;
        // This sync's memo of the map is replaced below: natively, let go of it first, so that
        // the map and its per-node slots are changed in place, not copied (`make_mut`).
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.map_memo[include_deleted_terminal as usize] = None;
        }
        let facts = self.pod_facts.entry(ds_key(ds)).or_default();
        let Some(across) = self.maps_across.get_mut(across_key) else {
            return Ok(None);
        };
        let map = Arc::make_mut(&mut across.map);
        // The per-node view moves with the map (a node it does not list has no slot there);
        // over a node list not in strictly increasing name order it is recomputed when asked.
        if across.per_node.as_ref().is_some_and(|p| !p.view.sorted) {
            across.per_node = None;
        }
        let mut per_node = across
            .per_node
            .as_mut()
            .map(|a| (&*a.view, Arc::make_mut(&mut a.pods)));
        #[cfg(not(target_arch = "wasm32"))]
        let mut touched: Vec<u32> = Vec::new();
        for pod in &removed {
            if let Ok(node) = get_target_node_name(pod) {
                if let Some(on_node) = map.get_mut(node) {
                    on_node.retain(|p| !Arc::ptr_eq(p, pod));
                    if on_node.is_empty() {
                        map.remove(node);
                    }
                }
                if let Some((view, slots)) = per_node.as_mut() {
                    if let Some(i) = view.position(node) {
                        slots[i].retain(|p| !Arc::ptr_eq(p, pod));
                        #[cfg(not(target_arch = "wasm32"))]
                        touched.push(i as u32);
                    }
                }
            }
            facts.forget(pod);
        }
        for pod in claimed {
            let Some(node) = map_target(facts, pod, include_deleted_terminal) else {
                continue;
            };
            let on_node = map.entry(node.to_string()).or_default();
            let at = on_node.partition_point(|p| pod_list_key(p) < pod_list_key(pod));
            on_node.insert(at, pod.clone());
            if let Some((view, slots)) = per_node.as_mut() {
                if let Some(i) = view.position(node) {
                    let at = slots[i].partition_point(|p| pod_list_key(p) < pod_list_key(pod));
                    slots[i].insert(at, pod.clone());
                    #[cfg(not(target_arch = "wasm32"))]
                    touched.push(i as u32);
                }
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(p) = across.per_node.as_mut() {
            p.log_edits(&touched);
        }
        // The new listing is kept (the old one is dropped by the caller); natively, one from
        // the change log is the kept one changed by name.
        #[cfg(not(target_arch = "wasm32"))]
        if by_log {
            pod_log::relist(across, &removed, &added);
        } else {
            std::mem::swap(&mut across.pods, pods);
            across.by_name = None;
            across.listing_behind = false;
        }
        #[cfg(target_arch = "wasm32")]
        std::mem::swap(&mut across.pods, pods);
        across.version = version;
        let map = across.map.clone();
        #[cfg(debug_assertions)]
        debug_check_map(ds, &across.listed(), &map, facts, include_deleted_terminal);
        #[cfg(debug_assertions)]
        if let Some(a) = across.per_node.as_ref() {
            let fresh = PerNode::new(&a.view, &map);
            assert!(
                fresh.entries().eq(a.entries()),
                "incrementally updated per-node pods differ from the map's"
            );
        }
        let per_node = across.per_node.clone();
        let claim_wrote = self.writes != writes_before;
        if claim_wrote {
            self.maps_across.remove(across_key);
        }
        self.map_memo[include_deleted_terminal as usize] = Some(MapMemo {
            writes: self.writes,
            claim_wrote,
            map: map.clone(),
            per_node,
        });
        Ok(Some(map))
    }

    /// `nodes.pods_per_node(map)` for a map this sync's `get_nodes_to_daemon_pods` returned
    /// (`slot`: its `include_deleted_terminal`): kept with the map, within the sync and across
    /// syncs, instead of matching every node name against the map's keys in each phase.
    pub(crate) fn per_node(
        &mut self,
        ds: &DaemonSet,
        nodes: &Arc<NodeView>,
        map: &Arc<NodeToDaemonPods>,
        slot: usize,
    ) -> Arc<Vec<Vec<Arc<Pod>>>> {
        let fits = |p: &Option<PerNode>| {
            p.as_ref()
                .filter(|p| Arc::ptr_eq(&p.view, nodes))
                .map(|p| p.pods.clone())
        };
        let syncing = self.syncing;
        let memo = self.map_memo[slot]
            .as_mut()
            .filter(|m| syncing && Arc::ptr_eq(&m.map, map));
        let Some(memo) = memo else {
            return PerNode::new(nodes, map).pods;
        };
        if let Some(pods) = fits(&memo.per_node) {
            return pods;
        }
        let fresh = PerNode::new(nodes, map);
        memo.per_node = Some(fresh.clone());
        if let Some(across) = self
            .maps_across
            .get_mut(&(ds_key(ds), slot == 1))
            .filter(|a| Arc::ptr_eq(&a.map, map))
        {
            across.per_node = Some(fresh.clone());
        }
        fresh.pods
    }

    /// The seam's first half of `get_nodes_to_daemon_pods`: this sync's map while it holds,
    /// the last sync's map when no pod changed (or the same pod objects are listed), or that
    /// map updated for the pods that changed; else the listing to claim from.
    pub(super) fn reuse_map<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        include_deleted_terminal: bool,
    ) -> Result<Reuse, SyncError> {
        let slot = include_deleted_terminal as usize;
        if let Some(memo) = self.map_memo[slot].as_ref().filter(|_| self.syncing) {
            // Unchanged caches give the same claim and map. They are unchanged if no pod write
            // was issued since, or if our writes cannot reach them during this sync and the
            // claim that built the map wrote nothing (re-claiming would then write nothing
            // either): one map per sync in a real cluster instead of one per phase.
            if memo.writes == self.writes || (!memo.claim_wrote && !c.caches_see_own_writes()) {
                return Ok(Reuse::Map(memo.map.clone()));
            }
        }
        let ns = ds.metadata.namespace.as_deref().unwrap_or("");
        let version = c.pods_version();
        // No pod changed in the caches since the last map was listed: the same listing, so
        // the same map (as below), without listing.
        if self.syncing {
            if let Some(across) = self
                .maps_across
                .get(&across_key_of(ds, include_deleted_terminal))
                .filter(|a| version.is_some() && a.version == version && a.same_claim_inputs(ds))
            {
                let memo = across.reused(self.writes);
                let map = memo.map.clone();
                self.map_memo[slot] = Some(memo);
                return Ok(Reuse::Map(map));
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        if self.syncing {
            let across_key = across_key_of(ds, include_deleted_terminal);
            if let Some(map) =
                self.update_map_from_log(c, ds, &across_key, version, include_deleted_terminal)?
            {
                return Ok(Reuse::Map(map));
            }
        }
        let mut pods = c.pods(ns);
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(across) = self
            .maps_across
            .get_mut(&across_key_of(ds, include_deleted_terminal))
        {
            pod_log::catch_up(across);
        }
        // Across syncs: the claim and the map are functions of the listed pod objects and the
        // DaemonSet's uid, deletion state and selector, as long as claiming wrote nothing (an
        // adoption or release would change the pods, and re-checks the DaemonSet live). The
        // caches replace an object whenever it changes, so the same objects mean the same
        // pods; in a steady cluster every sync then skips claiming and grouping 5,000 pods.
        let across_key = across_key_of(ds, include_deleted_terminal);
        if self.syncing {
            if let Some(across) = self
                .maps_across
                .get_mut(&across_key)
                .filter(|a| a.still_holds(ds, &pods))
            {
                across.version = version;
                let memo = across.reused(self.writes);
                let map = memo.map.clone();
                self.map_memo[slot] = Some(memo);
                return Ok(Reuse::Map(map));
            }
            if let Some(map) = self.update_map_across(
                c,
                ds,
                &across_key,
                &mut pods,
                version,
                include_deleted_terminal,
                #[cfg(not(target_arch = "wasm32"))]
                None,
            )? {
                return Ok(Reuse::Map(map));
            }
        }
        Ok(Reuse::Listed { pods, version })
    }

    /// The seam's second half: keeps a map `get_nodes_to_daemon_pods` built from `pods` for the
    /// rest of the sync and, when its claim wrote nothing, for the next one.
    pub(super) fn remember_map(
        &mut self,
        ds: &DaemonSet,
        include_deleted_terminal: bool,
        pods: Vec<Arc<Pod>>,
        version: Option<u64>,
        writes_before: u64,
        map: &Arc<NodeToDaemonPods>,
    ) {
        if !self.syncing {
            return;
        }
        let across_key = across_key_of(ds, include_deleted_terminal);
        let claim_wrote = self.writes != writes_before;
        self.map_memo[include_deleted_terminal as usize] = Some(MapMemo {
            writes: self.writes,
            claim_wrote,
            map: map.clone(),
            per_node: None,
        });
        if claim_wrote {
            self.maps_across.remove(&across_key);
        } else {
            self.maps_across.insert(
                across_key,
                MapAcross {
                    sorted: pods_sorted(&pods),
                    version,
                    pods,
                    uid: ds.metadata.uid.clone(),
                    deleting: ds.metadata.deletion_timestamp.is_some(),
                    selector: ds.spec.selector.clone(),
                    map: map.clone(),
                    per_node: None,
                    #[cfg(not(target_arch = "wasm32"))]
                    by_name: None,
                    #[cfg(not(target_arch = "wasm32"))]
                    listing_behind: false,
                },
            );
        }
    }
}
