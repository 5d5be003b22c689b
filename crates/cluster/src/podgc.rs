//! The pod garbage collector (R-GC-1): every `pod_gc_period` it looks for pods bound to nodes
//! that no longer exist; once such a node has been missing for `pod_gc_quarantine` the pods are
//! force-deleted. (The terminated-pod threshold of 12 500 is not modelled.)
//!
//! Owns the quarantine clock per vanished node; knows nothing of owners or controllers.

use k8s_openapi::jiff::Timestamp;
use std::collections::BTreeMap;

use crate::engine::{period, seconds_between, Ev, Sched};
use crate::store::Store;

#[derive(Debug, Clone, Default)]
pub(crate) struct PodGc {
    /// Vanished node → first tick that saw it missing.
    missing_since: BTreeMap<String, Timestamp>,
}

/// Nodes with bound pods that are not stored (in name order). Both lists are walked side by
/// side in name order (a lookup per node allocated its key, once a tick, for every node).
fn orphan_nodes(store: &Store) -> Vec<String> {
    let mut stored = store.node_names().peekable();
    store
        .nodes_with_pods()
        .filter(|n| {
            while stored.next_if(|s| *s < n.as_str()).is_some() {}
            stored.peek() != Some(&n.as_str())
        })
        .cloned()
        .collect()
}

impl PodGc {
    pub(crate) fn tick(&mut self, store: &mut Store, s: &mut Sched) -> String {
        let now = s.now;
        let missing = orphan_nodes(store);
        self.missing_since.retain(|n, _| missing.contains(n));
        let mut deleted = Vec::new();
        for node in missing {
            let since = *self.missing_since.entry(node.clone()).or_insert(now);
            if seconds_between(now, since) >= s.timing.pod_gc_quarantine {
                for p in store.pods_on_node(&node) {
                    let ns = p.metadata.namespace.clone().unwrap_or_default();
                    let name = p.metadata.name.clone().unwrap_or_default();
                    if store.remove_pod(&ns, &name).is_some() {
                        deleted.push(name);
                    }
                }
            }
        }
        s.after(period(s.timing.pod_gc_period), Ev::PodGcTick);
        if deleted.is_empty() {
            "pod GC: nothing to collect".to_string()
        } else {
            format!("pod GC: force-deleted {}", deleted.join(", "))
        }
    }

    /// When pod GC first saw `node` missing, and when it will force-delete the pods still bound
    /// to it: at its first tick once the node has been missing for the quarantine. `None` until
    /// a tick has seen the node missing.
    pub(crate) fn collection(
        &self,
        node: &str,
        timing: &crate::Timing,
    ) -> Option<(Timestamp, Timestamp)> {
        let since = *self.missing_since.get(node)?;
        let p = period(timing.pod_gc_period);
        let ticks = (crate::timing::sane(timing.pod_gc_quarantine) / p).ceil();
        let at = since
            .checked_add(std::time::Duration::from_secs_f64(ticks * p))
            .unwrap_or(since);
        Some((since, at))
    }

    /// Pods on vanished nodes still wait for collection.
    pub(crate) fn has_pending_work(&self, store: &Store) -> bool {
        !orphan_nodes(store).is_empty()
    }
}
