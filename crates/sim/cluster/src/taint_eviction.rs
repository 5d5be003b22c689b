//! The NoExecute taint eviction controller (R-TE-1..7): for every pod bound to a node with
//! NoExecute taints, an untolerated taint evicts now; tolerated taints with `tolerationSeconds`
//! schedule an eviction at the smallest of them (an eviction already scheduled keeps its time);
//! no NoExecute taints left cancels it. Eviction = `TaintManagerEviction` event, condition
//! `DisruptionTarget=True/DeletionByTaintManager`, delete with the default grace period.
//!
//! Owns the eviction schedule; knows nothing of DaemonSets (R-TE-7's evict/recreate loop
//! emerges from the controller recreating what this deletes).

use k8s_openapi::api::core::v1::{Node, ObjectReference, Pod, Taint, Toleration};
use k8s_openapi::jiff::Timestamp;
use std::collections::BTreeMap;

use controller::pod_util::node_name;
use controller::predicates::toleration_tolerates_taint;

use crate::engine::{plus, Ev, PodKey, Sched};
use crate::scheduler::{pod_key, set_pod_condition};
use crate::store::{reference, Obj, Recorder, Store, WatchEvent, WatchKind};

const COMPONENT: &str = "taint-eviction-controller";

#[derive(Debug, Clone, Default)]
pub(crate) struct TaintEviction {
    /// Pod → (scheduled at, fires at).
    scheduled: BTreeMap<PodKey, (Timestamp, Timestamp)>,
}

fn no_execute(node: &Node) -> Vec<Taint> {
    node.spec
        .as_ref()
        .and_then(|s| s.taints.as_ref())
        .map(|ts| {
            ts.iter()
                .filter(|t| t.effect == "NoExecute")
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

fn tolerations(p: &Pod) -> &[Toleration] {
    p.spec
        .as_ref()
        .and_then(|s| s.tolerations.as_deref())
        .unwrap_or(&[])
}

/// `getMinTolerationTime`: None = forever; Some(0) = now.
fn min_toleration_seconds(used: &[&Toleration]) -> Option<i64> {
    if used.is_empty() {
        return Some(0);
    }
    let mut min: Option<i64> = None;
    for t in used {
        if let Some(secs) = t.toleration_seconds {
            if secs <= 0 {
                return Some(0);
            }
            min = Some(min.map_or(secs, |m| m.min(secs)));
        }
    }
    min
}

impl TaintEviction {
    pub(crate) fn observe(&mut self, ev: &WatchEvent, s: &mut Sched) {
        match (&ev.kind, &ev.obj) {
            (WatchKind::Added, Obj::Node(n)) if !no_execute(n).is_empty() => {
                let node = n.metadata.name.clone().unwrap_or_default();
                s.after_watch(0.0, Ev::TaintNode { node });
            }
            (WatchKind::Modified, Obj::Node(n)) => {
                let before = match &ev.old {
                    Some(Obj::Node(o)) => no_execute(o),
                    _ => Vec::new(),
                };
                if before != no_execute(n) {
                    let node = n.metadata.name.clone().unwrap_or_default();
                    s.after_watch(0.0, Ev::TaintNode { node });
                }
            }
            (WatchKind::Deleted, Obj::Node(n)) => {
                let node = n.metadata.name.clone().unwrap_or_default();
                s.after_watch(0.0, Ev::TaintNode { node });
            }
            (WatchKind::Added, Obj::Pod(p)) if !node_name(p).is_empty() => {
                s.after_watch(0.0, Ev::TaintPod { key: pod_key(p) });
            }
            (WatchKind::Modified, Obj::Pod(p)) => {
                let newly_bound = match &ev.old {
                    Some(Obj::Pod(o)) => node_name(o).is_empty() && !node_name(p).is_empty(),
                    _ => false,
                };
                if newly_bound {
                    s.after_watch(0.0, Ev::TaintPod { key: pod_key(p) });
                }
            }
            (WatchKind::Deleted, Obj::Pod(p)) if self.scheduled.contains_key(&pod_key(p)) => {
                s.after_watch(0.0, Ev::TaintPod { key: pod_key(p) });
            }
            _ => {}
        }
    }

    /// `handleNodeUpdate`: re-evaluate every pod on the node. A node that is gone is only
    /// forgotten (upstream drops it from `taintedNodes`): its pods' scheduled evictions stand,
    /// and fire unless the pods are deleted first (pod GC, R-GC-1), which cancels them.
    pub(crate) fn handle_node(&mut self, node: &str, store: &mut Store, s: &mut Sched) -> String {
        let Some(n) = store.node(node) else {
            return format!("node {node} gone: its pods' scheduled evictions stand");
        };
        let pods = store.pods_on_node(node);
        let taints = no_execute(&n);
        let mut evicted = 0;
        for p in &pods {
            if self.process(p, &taints, store, s) {
                evicted += 1;
            }
        }
        format!("node {node}: {evicted} pod(s) evicted")
    }

    /// `handlePodUpdate`: a deleted pod's eviction is cancelled; a pod on a node that is gone
    /// or has no NoExecute taint (not in upstream's `taintedNodes`) is left as it is, its
    /// scheduled eviction included (the node's own update cancels when taints go away).
    pub(crate) fn handle_pod(&mut self, key: &PodKey, store: &mut Store, s: &mut Sched) -> String {
        let Some(pod) = store.pod_by_key(key) else {
            self.cancel(key, store);
            return format!("pod {} gone", key.name);
        };
        let Some(node) = store.node(node_name(&pod)) else {
            return format!("pod {}: node gone", key.name);
        };
        let taints = no_execute(&node);
        if taints.is_empty() {
            return format!("pod {}: node has no NoExecute taint", key.name);
        }
        if self.process(&pod, &taints, store, s) {
            format!("pod {} evicted", key.name)
        } else {
            format!("pod {} may stay", key.name)
        }
    }

    /// `processPodOnNode`. Returns whether the pod was evicted now.
    fn process(&mut self, pod: &Pod, taints: &[Taint], store: &mut Store, s: &mut Sched) -> bool {
        let key = pod_key(pod);
        if pod.metadata.deletion_timestamp.is_some() {
            return false;
        }
        if taints.is_empty() {
            self.cancel(&key, store);
            return false;
        }
        let mut used = Vec::new();
        for t in taints {
            match tolerations(pod)
                .iter()
                .find(|tol| toleration_tolerates_taint(tol, t))
            {
                Some(tol) => used.push(tol),
                None => {
                    self.scheduled.remove(&key);
                    evict(&key, store);
                    return true;
                }
            }
        }
        match min_toleration_seconds(&used) {
            None => {
                self.cancel(&key, store);
                false
            }
            Some(0) => {
                self.scheduled.remove(&key);
                evict(&key, store);
                true
            }
            Some(secs) => {
                if !self.scheduled.contains_key(&key) {
                    let fire = plus(s.now, secs as f64);
                    self.scheduled.insert(key.clone(), (s.now, fire));
                    s.at(fire, Ev::TaintEvict { key, at: fire });
                }
                false
            }
        }
    }

    /// A scheduled eviction fires (unless cancelled or replaced meanwhile).
    pub(crate) fn fire(&mut self, key: &PodKey, at: Timestamp, store: &mut Store) -> String {
        if self.scheduled.get(key).map(|x| x.1) != Some(at) {
            return format!("eviction of {} was cancelled", key.name);
        }
        self.scheduled.remove(key);
        evict(key, store);
        format!("pod {} evicted after tolerationSeconds", key.name)
    }

    fn cancel(&mut self, key: &PodKey, store: &mut Store) {
        if self.scheduled.remove(key).is_some() {
            let involved = match store.pod_by_key(key) {
                Some(p) => reference("Pod", "v1", &p.metadata),
                None => ObjectReference {
                    kind: Some("Pod".into()),
                    api_version: Some("v1".into()),
                    namespace: Some(key.ns.clone()),
                    name: Some(key.name.clone()),
                    uid: Some(key.uid.clone()),
                    ..Default::default()
                },
            };
            store.record_event(
                involved,
                "Normal",
                "TaintManagerEviction",
                format!("Cancelling deletion of Pod {}/{}", key.ns, key.name),
                Recorder::Controller(COMPONENT),
            );
        }
    }

    pub(crate) fn scheduled_count(&self) -> usize {
        self.scheduled.len()
    }
}

/// R-TE-6.
fn evict(key: &PodKey, store: &mut Store) {
    let Some(pod) = store.pod_by_key(key) else {
        return;
    };
    store.record_event(
        reference("Pod", "v1", &pod.metadata),
        "Normal",
        "TaintManagerEviction",
        format!("Marking for deletion Pod {}/{}", key.ns, key.name),
        Recorder::Controller(COMPONENT),
    );
    set_pod_condition(
        store,
        key,
        ("DisruptionTarget", "True"),
        Some((
            "DeletionByTaintManager",
            "Taint manager: deleting due to NoExecute taint",
        )),
    );
    let _ = store.delete_pod(&key.ns, &key.name, None);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tol(secs: Option<i64>) -> Toleration {
        Toleration {
            operator: Some("Exists".into()),
            toleration_seconds: secs,
            ..Default::default()
        }
    }

    #[test]
    fn min_toleration_time_follows_upstream() {
        assert_eq!(min_toleration_seconds(&[]), Some(0));
        assert_eq!(min_toleration_seconds(&[&tol(None)]), None);
        assert_eq!(
            min_toleration_seconds(&[&tol(Some(30)), &tol(Some(10))]),
            Some(10)
        );
        assert_eq!(
            min_toleration_seconds(&[&tol(None), &tol(Some(5))]),
            Some(5)
        );
        assert_eq!(min_toleration_seconds(&[&tol(Some(-1))]), Some(0));
    }
}
