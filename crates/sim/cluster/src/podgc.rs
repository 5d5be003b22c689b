//! The pod garbage collector (R-GC-1): every `pod_gc_period` it looks for pods bound to nodes
//! that no longer exist; once such a node has been missing for `pod_gc_quarantine` the pods are
//! marked Failed with a `DisruptionTarget` condition (`DeletionByPodGC`) and force-deleted
//! (`gcOrphaned`, `markFailedAndDeletePodWithCondition`). Beyond `terminatedPodThreshold`
//! (12 500) terminated pods, the oldest are deleted, evicted ones first (`gcTerminated`).
//! Terminating pods on NotReady nodes tainted `node.kubernetes.io/out-of-service` (non-graceful
//! node shutdown: their kubelet will never finish them) are marked Failed and force-deleted
//! (`gcTerminating`, `podgc/gc_controller.go`).
//!
//! Owns the quarantine clock per vanished node; knows nothing of owners or controllers.

use k8s_openapi::api::core::v1::{Node, Pod};
use k8s_openapi::jiff::Timestamp;
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::engine::{period, seconds_between, Ev, Sched};
use crate::scheduler::{pod_condition, pod_key};
use crate::store::Store;

/// `--terminated-pod-gc-threshold`'s default.
const TERMINATED_POD_THRESHOLD: usize = 12_500;

/// `markFailedAndDeletePodWithCondition`: a pod not yet terminal is first patched to phase
/// Failed with the DisruptionTarget condition `DeletionByPodGC`, then deleted with grace 0.
fn mark_failed_and_delete(store: &mut Store, p: &Pod, now: Timestamp) -> Option<String> {
    let key = crate::scheduler::pod_key(p);
    if !controller::pod_util::is_pod_terminal(p) {
        store.mutate_pod(&key, |p| {
            p.status.get_or_insert_with(Default::default).phase = Some("Failed".into());
            crate::scheduler::set_condition(
                p,
                pod_condition(
                    "DisruptionTarget",
                    "True",
                    Some(("DeletionByPodGC", "PodGC: node no longer exists")),
                    now,
                ),
            );
        });
    }
    store.remove_pod(&key.ns, &key.name).map(|_| key.name)
}

/// `gcTerminated`: beyond `threshold` terminated (Failed or Succeeded) pods, deletes the excess,
/// evicted pods first, then the oldest (`byEvictionAndCreationTimestamp`).
fn gc_terminated(store: &mut Store, now: Timestamp, threshold: usize) -> Vec<String> {
    // Natively the store counts its terminal pods: below the threshold, nothing to list.
    #[cfg(not(target_arch = "wasm32"))]
    if store.terminal_pods <= threshold {
        debug_assert_eq!(
            store.terminal_pods,
            store
                .objects()
                .all_pods()
                .filter(|p| controller::pod_util::is_pod_terminal(p))
                .count(),
            "the store's count of terminal pods is off"
        );
        return Vec::new();
    }
    let mut terminated: Vec<std::sync::Arc<Pod>> = store
        .objects()
        .all_pods()
        .filter(|p| controller::pod_util::is_pod_terminal(p))
        .cloned()
        .collect();
    if terminated.len() <= threshold {
        return Vec::new();
    }
    let evicted = |p: &Pod| p.status.as_ref().and_then(|s| s.reason.as_deref()) == Some("Evicted");
    sort::sort_by(&mut terminated, |a, b| {
        evicted(b).cmp(&evicted(a)).then_with(|| {
            let t = |p: &Pod| p.metadata.creation_timestamp.as_ref().map(|t| t.0);
            t(a).cmp(&t(b))
        })
    });
    let excess = terminated.len() - threshold;
    terminated
        .iter()
        .take(excess)
        .filter_map(|p| mark_failed_and_delete(store, p, now))
        .collect()
}

/// `v1.TaintNodeOutOfService`: an administrator's word that the node is shut down for good.
const TAINT_NODE_OUT_OF_SERVICE: &str = "node.kubernetes.io/out-of-service";

#[derive(Debug, Clone, Default)]
pub(crate) struct PodGc {
    /// Vanished node → first tick that saw it missing.
    missing_since: BTreeMap<String, Timestamp>,
    /// Native builds: what the last tick found of the stored nodes (a cache).
    #[cfg(not(target_arch = "wasm32"))]
    seen: Option<NodesSeen>,
    #[cfg(not(target_arch = "wasm32"))]
    cache_off: bool,
}

/// Natively: the stored nodes a tick saw (by the store's `nodes_stamp`), and the orphaned
/// nodes found with them as of `Store::stray_key_changes` (the same nodes and no key of a node
/// not stored added or removed since: the same orphaned nodes).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Clone)]
struct NodesSeen {
    /// The store's `nodes_stamp` at that tick.
    stamp: u64,
    /// Debug builds: the node objects, to check the stamp against.
    #[cfg(debug_assertions)]
    nodes: Vec<Arc<Node>>,
    orphans: Option<(u64, Vec<String>)>,
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

/// `IsNodeReady`: the Ready condition is True.
fn is_node_ready(node: &Node) -> bool {
    node.status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
}

fn node_name(node: &Node) -> &str {
    node.metadata.name.as_deref().unwrap_or_default()
}

/// Natively: the nodes gcTerminating looks at (out of service and not Ready), counted by the
/// store.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn out_of_service_not_ready(node: &Node) -> bool {
    out_of_service(node) && !is_node_ready(node)
}

fn out_of_service(node: &Node) -> bool {
    node.spec
        .as_ref()
        .and_then(|s| s.taints.as_ref())
        .is_some_and(|ts| ts.iter().any(|t| t.key == TAINT_NODE_OUT_OF_SERVICE))
}

/// `gcTerminating`'s pods: terminating, on a node that is not Ready and carries the
/// out-of-service taint (any effect), in `byEvictionAndCreationTimestamp` order (evicted
/// first, then oldest, then by name). The nodes are walked beside the nodes with pods, both in
/// name order (a lookup per node allocated its key, every tick, for every node).
fn terminating_out_of_service(store: &Store) -> Vec<Arc<Pod>> {
    // Natively the store counts the nodes out of service and not Ready: without one, no walk.
    #[cfg(not(target_arch = "wasm32"))]
    if store.out_of_service_not_ready == 0 {
        debug_assert!(
            !store
                .objects()
                .all_nodes()
                .any(|n| out_of_service_not_ready(n)),
            "the store's count of out-of-service nodes is off"
        );
        return Vec::new();
    }
    let mut pods = Vec::new();
    let mut nodes = store.objects().all_nodes().peekable();
    for name in store.nodes_with_pods() {
        while nodes.next_if(|n| node_name(n) < name.as_str()).is_some() {}
        let Some(node) = nodes.next_if(|n| node_name(n) == name.as_str()) else {
            continue;
        };
        if !out_of_service(node) || is_node_ready(node) {
            continue;
        }
        pods.extend(
            store
                .pods_on_node(name)
                .into_iter()
                .filter(|p| p.metadata.deletion_timestamp.is_some()),
        );
    }
    let evicted = |p: &Pod| {
        p.status.as_ref().is_some_and(|s| {
            s.phase.as_deref() == Some("Failed") && s.reason.as_deref() == Some("Evicted")
        })
    };
    sort::sort_by(&mut pods, |a, b| {
        evicted(b)
            .cmp(&evicted(a))
            .then_with(|| {
                let t = |p: &Pod| p.metadata.creation_timestamp.clone().map(|t| t.0);
                t(a).cmp(&t(b))
            })
            .then_with(|| a.metadata.name.cmp(&b.metadata.name))
    });
    pods
}

impl PodGc {
    /// Natively: what this tick finds of the stored nodes, kept while the node objects are
    /// the same.
    #[cfg(not(target_arch = "wasm32"))]
    fn nodes_seen(&mut self, store: &Store) -> &mut NodesSeen {
        let same = self
            .seen
            .as_ref()
            .is_some_and(|seen| seen.stamp == store.nodes_stamp);
        let seen = match self.seen.take() {
            Some(seen) if same && !self.cache_off => {
                #[cfg(debug_assertions)]
                assert!(
                    store.objects().nodes_are(&seen.nodes),
                    "nodes changed, stamp not"
                );
                seen
            }
            _ => NodesSeen {
                stamp: store.nodes_stamp,
                #[cfg(debug_assertions)]
                nodes: store.objects().all_nodes().cloned().collect(),
                orphans: None,
            },
        };
        self.seen.insert(seen)
    }

    /// Natively, with `false` every tick walks the nodes afresh (the caches' differential
    /// test).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn set_cache(&mut self, on: bool) {
        self.cache_off = !on;
        self.seen = None;
    }

    /// Natively: `orphan_nodes`, kept while the nodes and `Store::stray_key_changes` are the
    /// same (debug builds check it against a fresh walk).
    #[cfg(not(target_arch = "wasm32"))]
    fn orphans(&mut self, store: &Store) -> Vec<String> {
        let changes = store.stray_key_changes;
        let cache_off = self.cache_off;
        let seen = self.nodes_seen(store);
        let orphans = match &seen.orphans {
            Some((at, orphans)) if *at == changes && !cache_off => orphans.clone(),
            _ => {
                let orphans = orphan_nodes(store);
                seen.orphans = Some((changes, orphans.clone()));
                orphans
            }
        };
        debug_assert_eq!(orphans, orphan_nodes(store), "kept orphaned nodes differ");
        orphans
    }

    pub(crate) fn tick(&mut self, store: &mut Store, s: &mut Sched) -> String {
        let now = s.now;
        // `gc` runs gcTerminated, gcTerminating, then gcOrphaned.
        let mut deleted = gc_terminated(store, now, TERMINATED_POD_THRESHOLD);
        // gcTerminating: `markFailedAndDeletePod` (phase Failed, then delete with grace 0).
        for p in terminating_out_of_service(store) {
            let ns = p.metadata.namespace.clone().unwrap_or_default();
            let name = p.metadata.name.clone().unwrap_or_default();
            if !controller::pod_util::is_pod_terminal(&p) {
                store.mutate_pod(&pod_key(&p), |p| {
                    p.status.get_or_insert_with(Default::default).phase = Some("Failed".into());
                });
            }
            if store.remove_pod(&ns, &name).is_some() {
                deleted.push(name);
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        let missing = self.orphans(store);
        #[cfg(target_arch = "wasm32")]
        let missing = orphan_nodes(store);
        self.missing_since.retain(|n, _| missing.contains(n));
        for node in missing {
            let since = *self.missing_since.entry(node.clone()).or_insert(now);
            if seconds_between(now, since) >= s.timing.pod_gc_quarantine {
                for p in store.pods_on_node(&node) {
                    if let Some(name) = mark_failed_and_delete(store, &p, now) {
                        deleted.push(name);
                    }
                }
            }
        }
        s.after(period(s.timing.pod_gc_period), Ev::PodGcTick);
        let did = match deleted.as_slice() {
            [] => "nothing to collect".to_string(),
            names => format!("force-deleted {}", names.join(", ")),
        };
        format!("pod GC: {did}")
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

    /// Pods on vanished nodes, or terminating on out-of-service nodes, still wait for
    /// collection.
    pub(crate) fn has_pending_work(&self, store: &Store) -> bool {
        !orphan_nodes(store).is_empty() || !terminating_out_of_service(store).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::{Container, PodSpec, PodStatus};
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

    fn pod(name: &str, phase: &str, reason: Option<&str>) -> Pod {
        Pod {
            metadata: ObjectMeta {
                name: Some(name.into()),
                ..Default::default()
            },
            spec: Some(PodSpec {
                containers: vec![Container {
                    name: "c".into(),
                    image: Some("busybox".into()),
                    ..Default::default()
                }],
                ..Default::default()
            }),
            status: Some(PodStatus {
                phase: Some(phase.into()),
                reason: reason.map(str::to_string),
                ..Default::default()
            }),
        }
    }

    #[test]
    fn gc_terminated_deletes_evicted_then_oldest_beyond_the_threshold() {
        let start = Timestamp::from_second(1_767_225_600).unwrap();
        let mut store = Store::new(1, start);
        for (i, (name, phase, reason)) in [
            ("old-failed", "Failed", None),
            ("running", "Running", None),
            ("done", "Succeeded", None),
            ("evicted", "Failed", Some("Evicted")),
            ("new-failed", "Failed", None),
        ]
        .into_iter()
        .enumerate()
        {
            store.now = Timestamp::from_second(1_767_225_600 + i as i64).unwrap();
            let want = pod(name, phase, reason);
            let created = store.create_pod("default", want.clone()).unwrap();
            // The API server ignores status on create: it is written as the kubelet would.
            store.mutate_pod(&crate::scheduler::pod_key(&created), |p| {
                p.status = want.status
            });
        }
        let now = store.now;
        assert_eq!(gc_terminated(&mut store, now, 4), Vec::<String>::new());
        assert_eq!(gc_terminated(&mut store, now, 2), ["evicted", "old-failed"]);
        let left: Vec<_> = store
            .objects()
            .all_pods()
            .filter_map(|p| p.metadata.name.clone())
            .collect();
        assert_eq!(left, ["done", "new-failed", "running"]);
    }

    /// `gcTerminating` picks terminating pods on nodes both not Ready and out of service, among
    /// nodes named so that walking them beside the nodes with pods must skip some (a node
    /// without pods, pods bound to a node that is gone).
    #[test]
    fn gc_terminating_picks_terminating_pods_on_not_ready_out_of_service_nodes() {
        use k8s_openapi::api::core::v1::{NodeCondition, NodeSpec, NodeStatus, Taint};
        let start = Timestamp::from_second(1_767_225_600).unwrap();
        let mut store = Store::new(1, start);
        // (node, Ready, out of service, pods on it)
        let nodes = [
            ("a-ready-oos", "True", true, true),
            ("b-no-pods", "False", true, false),
            ("c-oos", "False", true, true),
            ("d-in-service", "Unknown", false, true),
            ("e-oos", "Unknown", true, true),
        ];
        for (name, ready, oos, with_pods) in nodes {
            let node = Node {
                metadata: ObjectMeta {
                    name: Some(name.into()),
                    ..Default::default()
                },
                spec: Some(NodeSpec {
                    taints: oos.then(|| {
                        vec![Taint {
                            key: TAINT_NODE_OUT_OF_SERVICE.into(),
                            effect: "NoExecute".into(),
                            ..Default::default()
                        }]
                    }),
                    ..Default::default()
                }),
                status: None,
            };
            store.create_node(node, false).unwrap();
            // Status is the kubelet's to write.
            store
                .update_node(name, |n| {
                    n.status = Some(NodeStatus {
                        conditions: Some(vec![NodeCondition {
                            type_: "Ready".into(),
                            status: ready.into(),
                            ..Default::default()
                        }]),
                        ..Default::default()
                    })
                })
                .unwrap();
            if !with_pods {
                continue;
            }
            for (suffix, deleting) in [("live", false), ("gone", true)] {
                let mut want = pod(&format!("{name}-{suffix}"), "Running", None);
                want.spec.as_mut().unwrap().node_name = Some(name.into());
                let created = store.create_pod("default", want).unwrap();
                if deleting {
                    let pod_name = created.metadata.name.clone().unwrap();
                    store.delete_pod("default", &pod_name, Some(30)).unwrap();
                }
            }
        }
        // A terminating pod bound to a node that is not stored (orphaned, not this pass's).
        let mut orphan = pod("c2-vanished-gone", "Running", None);
        orphan.spec.as_mut().unwrap().node_name = Some("c2-vanished".into());
        store.create_pod("default", orphan).unwrap();
        store
            .delete_pod("default", "c2-vanished-gone", Some(30))
            .unwrap();
        let picked: Vec<_> = terminating_out_of_service(&store)
            .iter()
            .filter_map(|p| p.metadata.name.clone())
            .collect();
        assert_eq!(picked, ["c-oos-gone", "e-oos-gone"]);
    }
}
