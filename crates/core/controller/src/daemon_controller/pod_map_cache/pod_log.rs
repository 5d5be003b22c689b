//! Native builds: the pod map kept across syncs brought up to date from the informer cache's
//! change log (`Listers::pods_changed_since`) instead of a new listing of every pod of the
//! namespace. Listing 5,000 pods to find the two that changed touched 5,000 pod objects (a
//! reference count up, and down when the listing was dropped: a cache miss each) in every
//! sync; the log names the changed pods, and only those are looked up.
//!
//! It decides nothing: the changes are the same `(removed, added)` pair `pod_list_diff` finds
//! between the kept listing and a new one, applied by the same `update_map_across`; debug
//! builds compare the listing it keeps with the cache's.

use std::borrow::Borrow;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::Pod;

use super::{pod_list_key, MapAcross};
use crate::client::Client;
use crate::daemon_controller::{DaemonSetsController, NodeToDaemonPods, SyncError};

/// A kept listing's pods by name (a listing is of one namespace, the DaemonSet's): a changed
/// name costs a hash and a probe, where a binary search of the listing read a pod object at
/// each of its steps (13 cache misses per changed pod at 5,000 pods).
#[derive(Debug, Clone)]
pub(super) struct ByName(HashSet<Named>);

/// A pod, hashed and compared by its name (and looked up by `&str`).
#[derive(Debug, Clone)]
struct Named(Arc<Pod>);

impl Named {
    fn name(&self) -> &str {
        self.0.metadata.name.as_deref().unwrap_or("")
    }
}

impl PartialEq for Named {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Named {}

impl Hash for Named {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl Borrow<str> for Named {
    fn borrow(&self) -> &str {
        self.name()
    }
}

impl ByName {
    fn of(listing: &[Arc<Pod>]) -> Self {
        ByName(listing.iter().map(|p| Named(p.clone())).collect())
    }

    fn get(&self, name: &str) -> Option<&Arc<Pod>> {
        self.0.get(name).map(|n| &n.0)
    }
}

/// Brings the kept listing up to date with the change log: the objects `removed` taken out
/// of its index by name, the objects `added` put in. The listing itself is left behind
/// (emptied, so that it holds no old objects) until a full listing is compared with it: kept
/// in order, each change moved the rest of a 5,000-pod listing and found its place by
/// reading a pod object at each step of a binary search.
pub(super) fn relist(across: &mut MapAcross, removed: &[Arc<Pod>], added: &[Arc<Pod>]) {
    let index = across
        .by_name
        .get_or_insert_with(|| ByName::of(&across.pods));
    for pod in removed {
        let name = pod_list_key(pod).1;
        if index.get(name).is_some_and(|kept| Arc::ptr_eq(kept, pod)) {
            index.0.remove(name);
        }
    }
    for pod in added {
        index.0.replace(Named(pod.clone()));
    }
    across.pods = Vec::new();
    across.listing_behind = true;
}

/// An index's pods in (namespace, name) order.
pub(super) fn sorted(index: Option<&ByName>) -> Vec<Arc<Pod>> {
    let mut pods: Vec<Arc<Pod>> =
        index.map_or_else(Vec::new, |i| i.0.iter().map(|n| n.0.clone()).collect());
    pods.sort_unstable_by(|a, b| pod_list_key(a).cmp(&pod_list_key(b)));
    pods
}

/// The kept listing in order again, from its index, before a full listing is compared with
/// it (once after any number of changes from the log).
pub(super) fn catch_up(across: &mut MapAcross) {
    if across.listing_behind {
        across.pods = sorted(across.by_name.as_ref());
        across.listing_behind = false;
    }
}

impl DaemonSetsController {
    /// `update_map_across` with the changes read from the cache's change log since the kept
    /// listing's `pods_version`: per changed name, the kept object out and the cached one in
    /// (in listing order, as a new listing would give them). `None` when this does not apply:
    /// no map kept for these claim inputs, or a log that does not reach back that far.
    pub(super) fn update_map_from_log<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        across_key: &(String, bool),
        version: Option<u64>,
        include_deleted_terminal: bool,
    ) -> Result<Option<Arc<NodeToDaemonPods>>, SyncError> {
        // (`update_map_across` checks the claim inputs before it changes anything.)
        let Some(across) = self.maps_across.get_mut(across_key).filter(|a| a.sorted) else {
            return Ok(None);
        };
        let ns = ds.metadata.namespace.as_deref().unwrap_or("");
        let Some(since) = across.version.filter(|_| version.is_some()) else {
            return Ok(None);
        };
        let Some(mut names) = c.pods_changed_since(ns, since) else {
            return Ok(None);
        };
        names.sort_unstable();
        names.dedup();
        let by_name = across
            .by_name
            .get_or_insert_with(|| ByName::of(&across.pods));
        let (mut removed, mut added) = (Vec::new(), Vec::new());
        for name in &names {
            let kept = by_name.get(name);
            debug_assert!(kept.is_none_or(|p| pod_list_key(p) == (ns, name.as_str())));
            let cached = c.pod(ns, name);
            match (kept, cached) {
                (Some(k), Some(n)) if Arc::ptr_eq(k, &n) => {}
                (k, n) => {
                    removed.extend(k.cloned());
                    added.extend(n);
                }
            }
        }
        let map = self.update_map_across(
            c,
            ds,
            across_key,
            &mut Vec::new(),
            version,
            include_deleted_terminal,
            Some((removed, added)),
        )?;
        #[cfg(debug_assertions)]
        if let Some(across) = self.maps_across.get(across_key) {
            let listed = c.pods(ns);
            let kept = across.listed();
            assert!(
                kept.len() == listed.len()
                    && kept.iter().zip(&listed).all(|(a, b)| Arc::ptr_eq(a, b)),
                "the listing kept from the change log differs from the cache's"
            );
        }
        Ok(map)
    }
}
