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

/// Makes `across.pods` (in (namespace, name) order) the listing after the change: the
/// objects `removed` taken out, the objects `added` put in at their places; its index by
/// name, if built, follows. A pod that changed (its old object removed, its new one added)
/// is replaced in place: most changes are of that kind, and taking it out and putting it
/// back moved the rest of the listing twice.
pub(super) fn relist(across: &mut MapAcross, removed: &[Arc<Pod>], added: &[Arc<Pod>]) {
    let listing = &mut across.pods;
    let mut by_name = across.by_name.as_mut();
    let mut placed = vec![false; added.len()];
    for pod in removed {
        let key = pod_list_key(pod);
        let Ok(i) = listing.binary_search_by(|p| pod_list_key(p).cmp(&key)) else {
            continue;
        };
        if !Arc::ptr_eq(&listing[i], pod) {
            continue;
        }
        let successor = added
            .iter()
            .position(|a| pod_list_key(a) == key)
            .filter(|&k| !placed[k]);
        match successor {
            Some(k) => {
                placed[k] = true;
                listing[i] = added[k].clone();
            }
            None => {
                listing.remove(i);
                if let Some(index) = by_name.as_mut() {
                    index.0.remove(key.1);
                }
            }
        }
    }
    for (pod, _) in added.iter().zip(&placed).filter(|(_, &done)| !done) {
        match listing.binary_search_by(|p| pod_list_key(p).cmp(&pod_list_key(pod))) {
            Ok(i) => listing[i] = pod.clone(),
            Err(i) => listing.insert(i, pod.clone()),
        }
    }
    if let Some(index) = by_name.as_mut() {
        for pod in added {
            index.0.replace(Named(pod.clone()));
        }
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
            assert!(
                across.pods.len() == listed.len()
                    && across
                        .pods
                        .iter()
                        .zip(&listed)
                        .all(|(a, b)| Arc::ptr_eq(a, b)),
                "the listing kept from the change log differs from the cache's"
            );
            if let Some(index) = across.by_name.as_ref() {
                assert!(
                    index.0.len() == across.pods.len()
                        && across.pods.iter().all(|p| index
                            .get(pod_list_key(p).1)
                            .is_some_and(|q| Arc::ptr_eq(p, q))),
                    "the kept listing's index by name differs from the listing"
                );
            }
        }
        Ok(map)
    }
}
