//! Native builds: the pod map kept across syncs brought up to date from the informer cache's
//! change log (`Listers::pods_changed_since`) instead of a new listing of every pod of the
//! namespace. Listing 5,000 pods to find the two that changed touched 5,000 pod objects (a
//! reference count up, and down when the listing was dropped: a cache miss each) in every
//! sync; the log names the changed pods, and only those are looked up.
//!
//! It decides nothing: the changes are the same `(removed, added)` pair `pod_list_diff` finds
//! between the kept listing and a new one, applied by the same `update_map_across`; debug
//! builds compare the listing it keeps with the cache's.

use std::sync::Arc;

use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::Pod;

use super::pod_list_key;
use crate::client::Client;
use crate::daemon_controller::{DaemonSetsController, NodeToDaemonPods, SyncError};

/// Makes `listing` (in (namespace, name) order) the listing after the change: the objects
/// `removed` taken out, the objects `added` put in at their places.
pub(super) fn relist(listing: &mut Vec<Arc<Pod>>, removed: &[Arc<Pod>], added: &[Arc<Pod>]) {
    for pod in removed {
        if let Ok(i) = listing.binary_search_by(|p| pod_list_key(p).cmp(&pod_list_key(pod))) {
            if Arc::ptr_eq(&listing[i], pod) {
                listing.remove(i);
            }
        }
    }
    for pod in added {
        match listing.binary_search_by(|p| pod_list_key(p).cmp(&pod_list_key(pod))) {
            Ok(i) => listing[i] = pod.clone(),
            Err(i) => listing.insert(i, pod.clone()),
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
        let Some(across) = self.maps_across.get(across_key).filter(|a| a.sorted) else {
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
        let (mut removed, mut added) = (Vec::new(), Vec::new());
        for name in &names {
            let kept = across
                .pods
                .binary_search_by(|p| pod_list_key(p).cmp(&(ns, name.as_str())))
                .ok()
                .map(|i| &across.pods[i]);
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
        }
        Ok(map)
    }
}
