//! ControllerRevision history (`update.go`: constructHistory, controlledHistories,
//! dedupCurHistories, snapshot, Match, getPatch, cleanupHistory; `controller.ComputeHash`).
//! Rules R-HIS-1..10.

use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
use k8s_openapi::api::core::v1::PodTemplateSpec;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use k8s_openapi::jiff::Timestamp;
use serde_json::Value;
use std::collections::HashSet;
use std::sync::Arc;

use crate::client::{ApiError, Client, ObjectPatch};
use crate::controller_ref::{new_controller_ref, ClaimKind, ControllerRefManager};
use crate::daemon_controller::{DaemonSetsController, SyncError};
use crate::keys::CONTROLLER_REVISION_HASH_LABEL;
use k8s_base::Selector;

const SAFE_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// `rand.SafeEncodeString`: every byte mapped into an alphabet without vowels or look-alikes.
pub fn safe_encode_string(s: &str) -> String {
    s.bytes()
        .map(|b| SAFE_ALPHABET[b as usize % SAFE_ALPHABET.len()] as char)
        .collect()
}

/// 32-bit FNV-1a.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// R-HIS-5 `ComputeHash`: FNV-32a over a deterministic dump of the template (our dump is its
/// JSON with sorted keys, R-SIM-4), then the collision count as 8 bytes little-endian, printed
/// in decimal and safe-encoded.
///
/// Why not the real cluster's hash for the same template: upstream's dump is
/// `dump.ForHash`, go-spew's `%#v` of the Go value: every field of every struct in Go's
/// declaration order, with Go type names, nil pointers, and the unexported internals of
/// `resource.Quantity` (its int64/inf.Dec amount and cached string) and `time.Time`. That text
/// depends on the Go struct layout of the exact k8s.io/api version and on how the decoder
/// filled Quantity's internals, neither of which is in our types; and with no Go toolchain
/// here there is no reference to check a reimplementation against. Names therefore differ
/// from a real cluster's (`agent-7d4b9c8f5`), while everything that depends on them — equal
/// templates, equal hashes; any change, a new hash; collisions handled by `collisionCount` —
/// behaves the same.
pub fn compute_hash(template: &PodTemplateSpec, collision_count: Option<i32>) -> String {
    // Through a `Value` (keys sorted): the same bytes as writing the template directly, and the
    // web app keeps one serializer of the Kubernetes types instead of two.
    let mut bytes = serde_json::to_vec(&codec::to_json(template)).unwrap_or_default();
    if let Some(c) = collision_count {
        let mut buf = [0u8; 8];
        buf[..4].copy_from_slice(&(c as u32).to_le_bytes());
        bytes.extend_from_slice(&buf);
    }
    safe_encode_string(&fnv1a32(&bytes).to_string())
}

/// R-HIS-3 `getPatch`: `{"spec":{"template":{…,"$patch":"replace"}}}`.
pub fn revision_patch(ds: &DaemonSet) -> Value {
    let mut template = match codec::to_json(&ds.spec.template) {
        Value::Object(m) => m,
        _ => serde_json::Map::new(),
    };
    template.insert("$patch".into(), Value::String("replace".into()));
    // Built by hand: `json!` with a `Value` inside serializes it again (serde's Value
    // serializer, otherwise unused in the web app).
    let mut spec = serde_json::Map::new();
    spec.insert("template".into(), Value::Object(template));
    let mut patch = serde_json::Map::new();
    patch.insert("spec".into(), Value::Object(spec));
    Value::Object(patch)
}

fn revision_number(r: &ControllerRevision) -> i64 {
    r.revision.unwrap_or(0)
}

fn hash_label(meta: &ObjectMeta) -> Option<&str> {
    meta.labels
        .as_ref()
        .and_then(|l| l.get(CONTROLLER_REVISION_HASH_LABEL))
        .map(String::as_str)
}

/// `maxRevision`.
pub fn max_revision(revs: &[Arc<ControllerRevision>]) -> i64 {
    revs.iter().map(|r| revision_number(r)).max().unwrap_or(0)
}

fn ns_name(ds: &DaemonSet) -> (&str, &str) {
    (
        ds.metadata.namespace.as_deref().unwrap_or(""),
        ds.metadata.name.as_deref().unwrap_or(""),
    )
}

impl DaemonSetsController {
    /// R-HIS-1 `controlledHistories`: claim every revision in the DS namespace (adopting
    /// matching orphans, releasing owned ones that no longer match) and return the claimed
    /// ones. Public so the upstream unit case `TestControlledHistories` can call it directly.
    pub fn controlled_histories<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
    ) -> Result<Vec<Arc<ControllerRevision>>, SyncError> {
        let (ns, _) = ns_name(ds);
        let selector = Selector::from_label_selector(&ds.spec.selector)
            .map_err(|e| SyncError::Message(e.to_string()))?;
        let mut cm = ControllerRefManager::new(ds, selector);
        let mut claimed = Vec::new();
        let mut errors = Vec::new();
        for rev in c.revisions(ns) {
            match cm.claim_object(c, &rev.metadata, ClaimKind::ControllerRevision) {
                Ok(true) => claimed.push(rev),
                Ok(false) => {}
                Err(e) => errors.push(SyncError::Message(e)),
            }
        }
        SyncError::aggregate(errors)?;
        Ok(claimed)
    }

    /// R-HIS-2..6 `constructHistory`: the current revision (created or renumbered as needed)
    /// and the old ones.
    pub(crate) fn construct_history<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        patch: &Value,
    ) -> Result<(Arc<ControllerRevision>, Vec<Arc<ControllerRevision>>), SyncError> {
        let histories = self.controlled_histories(c, ds)?;
        let mut current = Vec::new();
        let mut old = Vec::new();
        for mut history in histories {
            if hash_label(&history.metadata).is_none() {
                // R-HIS-2: the legacy label gets the revision's own name.
                let mut to_update = (*history).clone();
                let name = to_update.metadata.name.clone().unwrap_or_default();
                to_update
                    .metadata
                    .labels
                    .get_or_insert_with(Default::default)
                    .insert(CONTROLLER_REVISION_HASH_LABEL.into(), name);
                history = Arc::new(c.update_revision(&to_update)?);
            }
            if history.data.0 == *patch {
                current.push(history);
            } else {
                old.push(history);
            }
        }
        let next = max_revision(&old) + 1;
        let cur = if current.is_empty() {
            self.snapshot(c, ds, next, patch)?
        } else {
            let cur = self.dedup_cur_histories(c, ds, current)?;
            if revision_number(&cur) < next {
                // R-HIS-4: a rollback renumbers the matching old revision.
                let mut to_update = (*cur).clone();
                to_update.revision = Some(next);
                Arc::new(c.update_revision(&to_update)?)
            } else {
                cur
            }
        };
        Ok((cur, old))
    }

    /// R-HIS-6 `dedupCurHistories`.
    fn dedup_cur_histories<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        current: Vec<Arc<ControllerRevision>>,
    ) -> Result<Arc<ControllerRevision>, SyncError> {
        if current.len() == 1 {
            return Ok(current[0].clone());
        }
        let mut keep = current[0].clone();
        let mut max = 0;
        for r in &current {
            if revision_number(r) >= max {
                keep = r.clone();
                max = revision_number(r);
            }
        }
        let keep_hash = hash_label(&keep.metadata).unwrap_or("").to_string();
        let (ns, _) = ns_name(ds);
        for r in &current {
            if r.metadata.name == keep.metadata.name {
                continue;
            }
            let pods = c.pods(ns);
            let claimed = self.claim_pods(c, ds, &pods)?;
            for pod in claimed {
                if hash_label(&pod.metadata) != Some(keep_hash.as_str()) {
                    self.writes += 1;
                    c.patch_pod(
                        ns,
                        pod.metadata.name.as_deref().unwrap_or(""),
                        &ObjectPatch::SetLabel {
                            key: CONTROLLER_REVISION_HASH_LABEL.into(),
                            value: keep_hash.clone(),
                        },
                    )?;
                }
            }
            c.delete_revision(ns, r.metadata.name.as_deref().unwrap_or(""))?;
        }
        Ok(keep)
    }

    /// R-HIS-5, R-HIS-7 `snapshot`: create the revision for the current template.
    fn snapshot<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        revision: i64,
        patch: &Value,
    ) -> Result<Arc<ControllerRevision>, SyncError> {
        let (ns, ds_name) = ns_name(ds);
        let template = &ds.spec.template;
        let collision_count = ds.status.as_ref().and_then(|s| s.collision_count);
        let hash = compute_hash(template, collision_count);
        let name = format!("{ds_name}-{hash}");
        let mut labels = template
            .metadata
            .as_ref()
            .and_then(|m| m.labels.clone())
            .unwrap_or_default();
        labels.insert(CONTROLLER_REVISION_HASH_LABEL.into(), hash.clone());
        let history = ControllerRevision {
            metadata: ObjectMeta {
                name: Some(name.clone()),
                namespace: Some(ns.to_string()),
                labels: Some(labels),
                annotations: ds.metadata.annotations.clone(),
                owner_references: Some(vec![new_controller_ref(ds)]),
                ..Default::default()
            },
            data: RawExtension(patch.clone()),
            revision: Some(revision),
        };
        match c.create_revision(ns, history) {
            Ok(r) => Ok(Arc::new(r)),
            Err(outer @ ApiError::AlreadyExists { .. }) => {
                let existing = c.get_revision(ns, &name)?;
                if existing.data.0 == *patch {
                    return Ok(Arc::new(existing));
                }
                let mut curr = c.get_daemon_set(ns, ds_name)?;
                let live = curr.status.as_ref().and_then(|s| s.collision_count);
                if live != collision_count {
                    return Err(SyncError::Message(format!(
                        "found a stale collision count ({}, expected {}) of DaemonSet {ds_name:?} while processing; will retry until it is updated",
                        collision_count.unwrap_or(0),
                        live.unwrap_or(0)
                    )));
                }
                let status = curr.status.get_or_insert_with(Default::default);
                status.collision_count = Some(live.unwrap_or(0) + 1);
                c.update_daemon_set_status(&curr)?;
                Err(SyncError::Api(outer))
            }
            Err(e) => Err(SyncError::Api(e)),
        }
    }

    /// R-HIS-8 `cleanupHistory`.
    pub(crate) fn cleanup_history<C: Client + ?Sized>(
        &mut self,
        c: &mut C,
        ds: &DaemonSet,
        old: &[Arc<ControllerRevision>],
        now: Timestamp,
    ) -> Result<(), SyncError> {
        let limit = ds.spec.revision_history_limit.unwrap_or(10) as i64;
        let mut to_kill = old.len() as i64 - limit;
        if to_kill <= 0 {
            return Ok(());
        }
        let map = self.get_nodes_to_daemon_pods(c, ds, true, now)?;
        let live: HashSet<&str> = map
            .values()
            .flatten()
            .filter_map(|p| hash_label(&p.metadata))
            .filter(|h| !h.is_empty())
            .collect();
        let mut sorted: Vec<&Arc<ControllerRevision>> = old.iter().collect();
        sort::sort_by_key(&mut sorted, |r| revision_number(r));
        let (ns, _) = ns_name(ds);
        for r in sorted {
            if to_kill <= 0 {
                break;
            }
            if hash_label(&r.metadata).is_some_and(|h| live.contains(h)) {
                continue;
            }
            c.delete_revision(ns, r.metadata.name.as_deref().unwrap_or(""))?;
            to_kill -= 1;
        }
        Ok(())
    }
}
