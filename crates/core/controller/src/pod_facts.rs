//! Per-pod facts remembered across syncs (a performance cache; it decides nothing itself).
//!
//! A cache hands out the same `Arc<Pod>` until the pod changes (a change stores a new object),
//! so whatever the controller derives from one pod object alone, or from it and inputs that
//! are checked to be unchanged, need not be read from the pod again. At thousands of pods most
//! of a sync's time went to cache misses reading each pod's labels, owner references and
//! conditions (scattered over the heap) in claim, status and rolling update; a lookup by
//! address reads one compact entry instead.
//!
//! Each entry holds its `Arc`, so the address cannot be reused by another pod while the entry
//! lives; entries for pods that left the cache are dropped after each full claim.

use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use k8s_openapi::jiff::Timestamp;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use crate::pod_util::{is_pod_available, is_pod_ready, ready_condition, ready_long_enough};
use crate::util::is_pod_updated;

/// Hashes a pod address (already unique; SipHash would cost more than the lookup saves).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64 >> 4).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// What one DaemonSet's claim depends on besides the pod (see `ControllerRefManager`).
#[derive(Debug, Clone, PartialEq)]
struct ClaimKey {
    uid: Option<String>,
    namespace: Option<String>,
    deleting: bool,
    selector: LabelSelector,
}

impl ClaimKey {
    fn of(ds: &DaemonSet) -> Self {
        ClaimKey {
            uid: ds.metadata.uid.clone(),
            namespace: ds.metadata.namespace.clone(),
            deleting: ds.metadata.deletion_timestamp.is_some(),
            selector: ds.spec.selector.clone(),
        }
    }
}

#[derive(Debug, Clone)]
struct Entry {
    /// Held, never read: keeps the address from being reused while the entry lives.
    _pod: Arc<Pod>,
    /// The last claim pass that saw the pod.
    epoch: u64,
    /// `claim_object`'s answer when it needed no API call (valid for `claim_key`).
    claimed: Option<bool>,
    /// `is_pod_updated` (valid for `update_key`).
    updated: Option<bool>,
    /// R-AVL-1 inputs: the Ready condition is True, and since when.
    ready: bool,
    ready_since: Option<Timestamp>,
    /// The phase, as far as the controller distinguishes it.
    phase: Phase,
    /// Has a deletionTimestamp.
    deleting: bool,
}

impl Entry {
    /// `is_pod_available` by the same rules (R-AVL-1), from the remembered readiness.
    fn available(&self, min_ready_seconds: i32, now: Timestamp) -> bool {
        self.ready && ready_long_enough(self.ready_since, min_ready_seconds, now)
    }
}

/// `status.phase` as far as the controller distinguishes it (R-MAN-4/5, `IsPodTerminal`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    Failed,
    Succeeded,
    Other,
}

impl Phase {
    pub(crate) fn of(pod: &Pod) -> Phase {
        match crate::pod_util::phase(pod) {
            "Failed" => Phase::Failed,
            "Succeeded" => Phase::Succeeded,
            _ => Phase::Other,
        }
    }

    /// `IsPodTerminal`.
    pub(crate) fn is_terminal(self) -> bool {
        self != Phase::Other
    }
}

/// The facts of one DaemonSet's pods.
#[derive(Debug, Clone, Default)]
pub(crate) struct PodFacts {
    entries: HashMap<usize, Entry, BuildHasherDefault<AddressHasher>>,
    claim_key: Option<ClaimKey>,
    update_key: Option<(String, Option<i64>)>,
    epoch: u64,
}

fn address(pod: &Arc<Pod>) -> usize {
    Arc::as_ptr(pod) as usize
}

impl PodFacts {
    /// Starts a claim pass for `ds`: claim answers for another DaemonSet identity, namespace,
    /// deletion state or selector are forgotten.
    pub(crate) fn begin_claim(&mut self, ds: &DaemonSet) {
        let key = ClaimKey::of(ds);
        if self.claim_key.as_ref() != Some(&key) {
            self.entries.values_mut().for_each(|e| e.claimed = None);
            self.claim_key = Some(key);
        }
        self.epoch += 1;
    }

    fn entry(&mut self, pod: &Arc<Pod>) -> &mut Entry {
        let epoch = self.epoch;
        let e = self.entries.entry(address(pod)).or_insert_with(|| {
            let cond = ready_condition(pod);
            Entry {
                _pod: pod.clone(),
                epoch,
                claimed: None,
                updated: None,
                ready: cond.is_some_and(|c| c.status == "True"),
                ready_since: cond.and_then(|c| c.last_transition_time.as_ref().map(|t| t.0)),
                phase: Phase::of(pod),
                deleting: pod.metadata.deletion_timestamp.is_some(),
            }
        });
        e.epoch = epoch;
        e
    }

    /// The remembered claim answer for `pod`, marking it seen in this pass.
    pub(crate) fn claimed(&mut self, pod: &Arc<Pod>) -> Option<bool> {
        self.entry(pod).claimed
    }

    /// Remembers a claim answer that needed no API call.
    pub(crate) fn remember_claim(&mut self, pod: &Arc<Pod>, claimed: bool) {
        self.entry(pod).claimed = Some(claimed);
    }

    /// Ends a claim pass over every pod of the namespace: forgets pods it did not see.
    pub(crate) fn end_claim(&mut self) {
        let epoch = self.epoch;
        self.entries.retain(|_, e| e.epoch == epoch);
    }

    /// Forgets a pod that left the namespace's pods.
    pub(crate) fn forget(&mut self, pod: &Arc<Pod>) {
        self.entries.remove(&address(pod));
    }

    /// The entry of a pod seen by a claim pass (pods that reach status and rolling update
    /// were); `None` for any other pod, which is then read directly.
    fn seen(&mut self, pod: &Pod) -> Option<&mut Entry> {
        self.entries.get_mut(&(pod as *const Pod as usize))
    }

    /// Updated-ness answers for another (hash, generation) are forgotten.
    fn check_update_key(&mut self, hash: &str, generation: Option<i64>) {
        if self
            .update_key
            .as_ref()
            .is_none_or(|(h, g)| h != hash || *g != generation)
        {
            self.entries.values_mut().for_each(|e| e.updated = None);
            self.update_key = Some((hash.to_string(), generation));
        }
    }

    /// The pod's phase.
    pub(crate) fn phase(&mut self, pod: &Pod) -> Phase {
        match self.seen(pod) {
            Some(e) => e.phase,
            None => Phase::of(pod),
        }
    }

    /// `None` when the pod has a deletionTimestamp, else `updated`, in one lookup.
    pub(crate) fn live_updated(
        &mut self,
        pod: &Pod,
        hash: &str,
        generation: Option<i64>,
    ) -> Option<bool> {
        self.check_update_key(hash, generation);
        match self.seen(pod) {
            Some(e) if e.deleting => None,
            Some(e) => Some(
                *e.updated
                    .get_or_insert_with(|| is_pod_updated(pod, hash, generation)),
            ),
            None => (pod.metadata.deletion_timestamp.is_none())
                .then(|| is_pod_updated(pod, hash, generation)),
        }
    }

    /// (`deleting`, `phase`) in one lookup.
    pub(crate) fn deleting_and_phase(&mut self, pod: &Pod) -> (bool, Phase) {
        match self.seen(pod) {
            Some(e) => (e.deleting, e.phase),
            None => (pod.metadata.deletion_timestamp.is_some(), Phase::of(pod)),
        }
    }

    /// (`ready`, `available`, `updated`) in one lookup.
    pub(crate) fn ready_available_updated(
        &mut self,
        pod: &Pod,
        min_ready_seconds: i32,
        now: Timestamp,
        hash: &str,
        generation: Option<i64>,
    ) -> (bool, bool, bool) {
        self.check_update_key(hash, generation);
        match self.seen(pod) {
            Some(e) => {
                let available = e.available(min_ready_seconds, now);
                let updated = *e
                    .updated
                    .get_or_insert_with(|| is_pod_updated(pod, hash, generation));
                (e.ready, available, updated)
            }
            None => (
                is_pod_ready(pod),
                is_pod_available(pod, min_ready_seconds, now),
                is_pod_updated(pod, hash, generation),
            ),
        }
    }

    /// R-AVL-1's inputs: whether the Ready condition is True, and since when.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn readiness(&mut self, pod: &Pod) -> (bool, Option<Timestamp>) {
        match self.seen(pod) {
            Some(e) => (e.ready, e.ready_since),
            None => {
                let cond = ready_condition(pod);
                (
                    cond.is_some_and(|c| c.status == "True"),
                    cond.and_then(|c| c.last_transition_time.as_ref().map(|t| t.0)),
                )
            }
        }
    }

    /// Whether the pod has a deletionTimestamp.
    pub(crate) fn deleting(&mut self, pod: &Pod) -> bool {
        match self.seen(pod) {
            Some(e) => e.deleting,
            None => pod.metadata.deletion_timestamp.is_some(),
        }
    }

    /// `is_pod_available(pod, min_ready_seconds, now)`, by the same rules.
    pub(crate) fn available(&mut self, pod: &Pod, min_ready_seconds: i32, now: Timestamp) -> bool {
        match self.seen(pod) {
            Some(e) => e.available(min_ready_seconds, now),
            None => is_pod_available(pod, min_ready_seconds, now),
        }
    }
}
