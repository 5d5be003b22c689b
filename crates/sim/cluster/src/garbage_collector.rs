//! The garbage collector for DaemonSet dependents (R-DEL-2): after a background delete it
//! deletes the pods and ControllerRevisions whose owner is gone; for a foreground delete it
//! deletes the blocking dependents and removes the DaemonSet once they have disappeared; for an
//! orphan delete it strips the owner references and then removes the DaemonSet.
//!
//! Owns the set of owners being collected; knows nothing of the controller.

use std::collections::BTreeSet;
use std::sync::Arc;

use apiserver::strategy::FOREGROUND_DELETION_FINALIZER;
use controller::client::ObjectPatch;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use crate::engine::{Ev, Sched};
use crate::store::{Meta, Obj, Store, WatchEvent, WatchKind, ORPHAN_FINALIZER};

#[derive(Debug, Clone, Default)]
pub(crate) struct GarbageCollector {
    pending: BTreeSet<String>,
}

fn owner_uids(meta: &ObjectMeta) -> impl Iterator<Item = &str> {
    meta.owner_references
        .iter()
        .flatten()
        .filter(|r| r.kind == "DaemonSet")
        .map(|r| r.uid.as_str())
}

/// The objects of one kind that `uid` owns, as the graph builder finds them.
fn dependents<'a, T: Meta + 'a>(all: impl Iterator<Item = &'a Arc<T>>, uid: &str) -> Vec<Arc<T>> {
    all.filter(|o| owned_by(o.meta(), uid)).cloned().collect()
}

fn owned_by(meta: &ObjectMeta, uid: &str) -> bool {
    owner_uids(meta).any(|u| u == uid)
}

impl GarbageCollector {
    pub(crate) fn observe(&mut self, ev: &WatchEvent, store: &Store, s: &mut Sched) {
        match (&ev.kind, &ev.obj) {
            (WatchKind::Deleted, Obj::DaemonSet(d)) => {
                if let Some(uid) = d.metadata.uid.clone() {
                    self.queue(uid, s);
                }
            }
            (WatchKind::Modified, Obj::DaemonSet(d)) => {
                let newly = match &ev.old {
                    Some(Obj::DaemonSet(o)) => o.metadata.deletion_timestamp.is_none(),
                    _ => true,
                };
                if newly && d.metadata.deletion_timestamp.is_some() {
                    if let Some(uid) = d.metadata.uid.clone() {
                        self.queue(uid, s);
                    }
                }
            }
            (kind, Obj::Pod(_) | Obj::Revision(_)) => {
                let meta = match &ev.obj {
                    Obj::Pod(p) => &p.metadata,
                    Obj::Revision(r) => &r.metadata,
                    _ => return,
                };
                let uids: Vec<String> = owner_uids(meta).map(str::to_string).collect();
                for uid in uids {
                    let owner = store.daemon_set_by_uid(&uid);
                    let interesting = match kind {
                        WatchKind::Added => owner.is_none(),
                        WatchKind::Deleted => {
                            owner.is_some_and(|o| o.metadata.deletion_timestamp.is_some())
                        }
                        WatchKind::Modified => false,
                    };
                    if interesting {
                        self.queue(uid, s);
                    }
                }
            }
            _ => {}
        }
    }

    fn queue(&mut self, uid: String, s: &mut Sched) {
        if self.pending.insert(uid.clone()) {
            s.after_watch(0.0, Ev::GcCollect { uid });
        }
    }

    /// Processes one owner.
    pub(crate) fn collect(&mut self, uid: &str, store: &mut Store) -> String {
        self.pending.remove(uid);
        let pods = dependents(store.objects().all_pods(), uid);
        let revs = dependents(store.objects().all_revisions(), uid);
        let key = |m: &ObjectMeta| {
            (
                m.namespace.clone().unwrap_or_default(),
                m.name.clone().unwrap_or_default(),
            )
        };
        let owner = store.daemon_set_by_uid(uid);
        let finalizers: Vec<String> = owner
            .as_ref()
            .and_then(|o| o.metadata.finalizers.clone())
            .unwrap_or_default();
        let deleting = owner
            .as_ref()
            .is_some_and(|o| o.metadata.deletion_timestamp.is_some());
        if owner.is_some() && !deleting {
            return "owner exists: nothing to collect".to_string();
        }
        if deleting && finalizers.iter().any(|f| f == ORPHAN_FINALIZER) {
            let patch = ObjectPatch::ReleaseFrom {
                uid: uid.to_string(),
            };
            for p in &pods {
                let (ns, n) = key(&p.metadata);
                let _ = store.patch_pod(&ns, &n, &patch);
            }
            for r in &revs {
                let (ns, n) = key(&r.metadata);
                let _ = store.patch_revision(&ns, &n, &patch);
            }
            if let Some(o) = &owner {
                let (ns, n) = key(&o.metadata);
                store.finalize_daemon_set(&ns, &n);
            }
            return format!("orphaned {} pod(s), {} revision(s)", pods.len(), revs.len());
        }
        let foreground = deleting
            && finalizers
                .iter()
                .any(|f| f == FOREGROUND_DELETION_FINALIZER);
        let mut deleted = 0;
        for p in &pods {
            if p.metadata.deletion_timestamp.is_none() {
                let (ns, n) = key(&p.metadata);
                if store.delete_pod(&ns, &n, None).is_ok() {
                    deleted += 1;
                }
            }
        }
        for r in &revs {
            let (ns, n) = key(&r.metadata);
            if store.delete_revision(&ns, &n).is_ok() {
                deleted += 1;
            }
        }
        if foreground {
            let remaining = store
                .objects()
                .all_pods()
                .any(|p| owned_by(&p.metadata, uid));
            if !remaining {
                if let Some(o) = &owner {
                    let (ns, n) = key(&o.metadata);
                    store.finalize_daemon_set(&ns, &n);
                    return format!("deleted {deleted} dependent(s); owner removed");
                }
            }
        }
        format!("deleted {deleted} dependent(s)")
    }
}
