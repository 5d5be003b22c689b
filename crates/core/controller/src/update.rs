//! `update.go` rolling update: `rollingUpdate`, `updatedDesiredNodeCounts`,
//! `findUpdatedPodsOnNode` (R-RU-1..15). The map is visited in the order the driver gives
//! for the sync (`map_order`, R-SIM-1).

use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use std::sync::Arc;

use crate::client::Client;
use crate::daemon_controller::{
    DaemonSetsController, NodeToDaemonPods, NodeView, PerNode, SyncError,
};
use crate::map_order::Site;
use crate::util::{get_template_generation, is_pod_updated, surge_count, unavailable_count};

/// What `findUpdatedPodsOnNode` found on one node.
#[derive(Debug, Clone, Copy)]
pub struct NodePods<'a> {
    pub new_pod: Option<&'a Pod>,
    pub old_pod: Option<&'a Pod>,
}

/// R-RU-5 `findUpdatedPodsOnNode`: `None` when the node has two new or two old live pods.
pub fn find_updated_pods_on_node<'a>(
    pods: &'a [Arc<Pod>],
    hash: &str,
    generation: Option<i64>,
) -> Option<NodePods<'a>> {
    find_updated_pods_on_node_by(pods, |pod| {
        (pod.metadata.deletion_timestamp.is_none()).then(|| is_pod_updated(pod, hash, generation))
    })
}

/// `find_updated_pods_on_node` with the test supplied: `None` for a pod with a
/// deletionTimestamp (skipped), else whether it is updated (the controller answers both from
/// its remembered per-pod facts).
fn find_updated_pods_on_node_by<'a>(
    pods: &'a [Arc<Pod>],
    mut live_updated: impl FnMut(&Arc<Pod>) -> Option<bool>,
) -> Option<NodePods<'a>> {
    let mut found = NodePods {
        new_pod: None,
        old_pod: None,
    };
    for pod in pods {
        let Some(updated) = live_updated(pod) else {
            continue;
        };
        let slot = if updated {
            &mut found.new_pod
        } else {
            &mut found.old_pod
        };
        if slot.is_some() {
            return None;
        }
        *slot = Some(pod);
    }
    Some(found)
}

/// One node of the rolling update: its name and its daemon pods.
type Entry<'m> = (&'m str, &'m [Arc<Pod>]);

/// R-RU-1: the map's entries and an empty one for each desired node without pods, in node-name
/// order, one per name; and the number of desired nodes.
fn entries_by_name<'m>(
    map: &'m NodeToDaemonPods,
    nodes: &'m NodeView,
    per_node: &'m [Vec<Arc<Pod>>],
) -> (Vec<Entry<'m>>, i32) {
    let mut entries: Vec<Entry> = map
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_slice()))
        .collect();
    let mut desired = 0;
    let mut without_pods = false;
    let named = nodes.names.iter().zip(nodes.should.iter());
    for ((name, should), pods) in named.zip(PerNode::slices(per_node)) {
        if should.should_run {
            desired += 1;
            if pods.is_none() {
                without_pods = true;
                entries.push((name.as_str(), &[]));
            }
        }
    }
    if without_pods {
        // Stable: a name listed twice keeps its first entry (the map's, if it has one).
        sort::sort_by(&mut entries, |a, b| a.0.cmp(b.0));
        entries.dedup_by(|later, first| later.0 == first.0);
    }
    (entries, desired)
}

/// R-RU-1..3 `updatedDesiredNodeCounts`: (maxSurge, maxUnavailable, desiredNumberScheduled).
pub fn updated_desired_node_counts(
    ds: &DaemonSet,
    desired: i32,
) -> Result<(i32, i32, i32), SyncError> {
    let mut max_unavailable = unavailable_count(ds, desired).map_err(|e| {
        SyncError::Message(format!(
            "couldn't get unavailable numbers: invalid value for MaxUnavailable: {e}"
        ))
    })?;
    let max_surge = surge_count(ds, desired).map_err(|e| {
        SyncError::Message(format!(
            "couldn't get unavailable numbers: invalid value for MaxSurge: {e}"
        ))
    })?;
    if desired > 0 && max_unavailable == 0 && max_surge == 0 {
        max_unavailable = 1;
    }
    Ok((max_surge, max_unavailable, desired))
}

impl DaemonSetsController {
    /// R-RU-6..13 `rollingUpdate`.
    pub(crate) fn rolling_update<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        nodes: &Arc<NodeView>,
        hash: &str,
        now: Timestamp,
    ) -> Result<(), SyncError> {
        let map = self.get_nodes_to_daemon_pods(c, ds, false, now)?;
        // R-RU-1: every desired node gets an entry, empty if it has no pods. Entries are built
        // in node-name order, one per name, then visited in the sync's map order (below).
        let per_node = self.per_node(ds, nodes, &map, 0);
        // Native builds: the deletions and creations from the per-node digests
        // (`node_digest.rs`); debug builds find them both ways and compare.
        #[cfg(not(target_arch = "wasm32"))]
        let from_digests =
            self.replacements_from_digests(c, ds, nodes, &map, &per_node, hash, now)?;
        #[cfg(all(not(target_arch = "wasm32"), not(debug_assertions)))]
        if let Some((delete, create)) = &from_digests {
            return self.sync_nodes(c, ds, delete, create, hash, now);
        }
        let (entries, desired) = if nodes.lists_every_entry(&per_node, &map) {
            // The map's entries and the desired nodes without one, in node-list order (which
            // is name order): no merge of names needed.
            let mut entries = Vec::with_capacity(per_node.len());
            let mut desired = 0;
            let named = nodes.names.iter().zip(nodes.should.iter());
            for ((name, should), pods) in named.zip(PerNode::slices(&per_node)) {
                desired += should.should_run as i32;
                match pods {
                    Some(pods) => entries.push((name.as_str(), pods)),
                    None if should.should_run => entries.push((name.as_str(), &[])),
                    None => {}
                }
            }
            debug_assert!(
                (&entries, desired) == (&entries_by_name(&map, nodes, &per_node).0, desired),
                "rolling update entries in node-list order differ from the merged ones"
            );
            (entries, desired)
        } else {
            entries_by_name(&map, nodes, &per_node)
        };
        // `rollingUpdate` ranges over `nodeToDaemonPods`, a Go map (R-RU-5, R-SIM-1): the
        // visiting order picks which available old pods are deleted within maxUnavailable and
        // which nodes surge within maxSurge. Counts do not depend on it.
        let mut entries = entries;
        self.order.shuffle(Site::RollingUpdate, &mut entries);
        let (max_surge, max_unavailable, desired) = updated_desired_node_counts(ds, desired)?;
        let generation = get_template_generation(ds).unwrap_or(None);
        let mrs = ds.spec.min_ready_seconds.unwrap_or(0);
        // Updated-ness and availability come from the remembered per-pod facts (same rules).
        let facts = self
            .pod_facts
            .entry(crate::daemon_controller::ds_key(ds))
            .or_default();
        let facts = std::cell::RefCell::new(facts);
        let available = |p: &Pod| facts.borrow_mut().available(p, mrs, now);
        let updated = |p: &Arc<Pod>| facts.borrow_mut().live_updated(p, hash, generation);

        if max_surge == 0 {
            // R-RU-6..8
            let mut num_unavailable = 0;
            let mut allowed_replacements: Vec<String> = Vec::new();
            // Only the candidates taken are named (most of them are not, mid-rollout).
            let mut candidates: Vec<&Pod> = Vec::new();
            for &(_, pods) in &entries {
                let Some(found) = find_updated_pods_on_node_by(pods, updated) else {
                    num_unavailable += 1;
                    continue;
                };
                match (found.new_pod, found.old_pod) {
                    (None, None) | (Some(_), Some(_)) => num_unavailable += 1,
                    (Some(new), None) => {
                        if !available(new) {
                            num_unavailable += 1;
                        }
                    }
                    (None, Some(old)) => {
                        if !available(old) {
                            allowed_replacements
                                .push(old.metadata.name.clone().unwrap_or_default());
                            num_unavailable += 1;
                        } else if num_unavailable >= max_unavailable {
                            continue;
                        } else {
                            candidates.push(old);
                        }
                    }
                }
            }
            let remaining = (max_unavailable - num_unavailable).clamp(0, candidates.len() as i32);
            allowed_replacements.extend(
                candidates
                    .into_iter()
                    .take(remaining as usize)
                    .map(|p| p.metadata.name.clone().unwrap_or_default()),
            );
            #[cfg(not(target_arch = "wasm32"))]
            assert!(
                from_digests.is_none_or(|r| r.0 == allowed_replacements && r.1.is_empty()),
                "replacements from the digests differ"
            );
            return self.sync_nodes(c, ds, &allowed_replacements, &[], hash, now);
        }

        // R-RU-11..13
        let mut old_pods_to_delete: Vec<String> = Vec::new();
        let mut should_not_run_pods_to_delete: Vec<String> = Vec::new();
        let mut candidate_new_nodes: Vec<String> = Vec::new();
        let mut allowed_new_nodes: Vec<String> = Vec::new();
        let mut num_surge = 0;
        let mut num_available = 0;
        let predicate = crate::predicates::DaemonPodPredicate::new(ds);
        for &(node_name, pods) in &entries {
            let Some(found) = find_updated_pods_on_node_by(pods, updated) else {
                num_surge += 1;
                continue;
            };
            match (found.old_pod, found.new_pod) {
                (Some(old), _) if available(old) => num_available += 1,
                (None, Some(new)) if available(new) => num_available += 1,
                _ => {}
            }
            let should_run = |c: &mut C| -> Result<bool, SyncError> {
                // R-NODE-3: a node missing from the cache fails this sync.
                let node = c.node(node_name).ok_or_else(|| {
                    SyncError::Message(format!(
                        "couldn't get node for nodeName {node_name:?}: node {node_name:?} not found"
                    ))
                })?;
                Ok(predicate.evaluate(&node).should_run)
            };
            match (found.old_pod, found.new_pod) {
                (None, _) => {}
                (Some(old), None) => {
                    if !available(old) {
                        if !should_run(c)? {
                            old_pods_to_delete.push(old.metadata.name.clone().unwrap_or_default());
                            continue;
                        }
                        allowed_new_nodes.push(node_name.to_string());
                    } else {
                        if !should_run(c)? {
                            should_not_run_pods_to_delete
                                .push(old.metadata.name.clone().unwrap_or_default());
                            continue;
                        }
                        if num_surge >= max_surge {
                            continue;
                        }
                        candidate_new_nodes.push(node_name.to_string());
                    }
                }
                (Some(old), Some(new)) => {
                    if !available(new) {
                        num_surge += 1;
                        continue;
                    }
                    old_pods_to_delete.push(old.metadata.name.clone().unwrap_or_default());
                }
            }
        }
        // R-RU-12
        let deletable = num_available - desired;
        if deletable > 0 {
            let ns = ds.metadata.namespace.as_deref().unwrap_or("");
            let n = (deletable as usize).min(should_not_run_pods_to_delete.len());
            for name in &should_not_run_pods_to_delete[..n] {
                if c.pod(ns, name).is_some() {
                    old_pods_to_delete.push(name.clone());
                }
            }
        }
        let remaining = (max_surge - num_surge).clamp(0, candidate_new_nodes.len() as i32);
        allowed_new_nodes.extend(candidate_new_nodes.into_iter().take(remaining as usize));
        #[cfg(not(target_arch = "wasm32"))]
        assert!(
            from_digests.is_none_or(|r| r.0 == old_pods_to_delete && r.1 == allowed_new_nodes),
            "surge replacements from the digests differ"
        );
        self.sync_nodes(c, ds, &old_pods_to_delete, &allowed_new_nodes, hash, now)
    }
}
