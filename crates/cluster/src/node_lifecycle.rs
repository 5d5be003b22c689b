//! The node lifecycle controller (R-NLC-1..3) and the kubelet Leases it watches: every
//! `node_monitor_period` it checks each node whose kubelet stopped renewing its Lease; after
//! `node_monitor_grace` the node's conditions become Unknown (`NodeStatusUnknown`) and its pods
//! are marked not Ready. Promptly after every node change it reconciles the condition taints:
//! Ready=False → `not-ready`, Ready=Unknown → `unreachable` (NoSchedule and NoExecute), pressure
//! conditions and `spec.unschedulable` → their NoSchedule taints; cleared conditions remove
//! them. No zone rate limiting or full-disruption mode.
//!
//! Owns Leases and the condition → taint map; knows nothing of pods beyond marking them not
//! Ready, and nothing of DaemonSets.

use k8s_openapi::api::core::v1::{Node, NodeCondition, PodCondition, Taint};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;
use std::collections::BTreeMap;

use controller::keys::taints;

use crate::engine::{period, plus, seconds_between, Ev, Sched};
use crate::scheduler::{pod_key, set_condition};
use crate::store::{Obj, Store, WatchEvent, WatchKind};

/// A kubelet's Lease (coordination.k8s.io), renewed every `node_lease_period` while the
/// kubelet runs. Renewals are implicit: the last one is computed, not stored.
#[derive(Debug, Clone)]
struct Lease {
    running: bool,
    anchor: Timestamp,
    stopped_at: Option<Timestamp>,
    /// When the kubelet first created it (kept across stops and starts).
    created: Timestamp,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct NodeLifecycle {
    leases: BTreeMap<String, Lease>,
}

/// Taints this controller owns: (key, effect).
const MANAGED: [(&str, &str); 9] = [
    (taints::NOT_READY, "NoSchedule"),
    (taints::UNREACHABLE, "NoSchedule"),
    (taints::NOT_READY, "NoExecute"),
    (taints::UNREACHABLE, "NoExecute"),
    (taints::UNSCHEDULABLE, "NoSchedule"),
    (taints::MEMORY_PRESSURE, "NoSchedule"),
    (taints::DISK_PRESSURE, "NoSchedule"),
    (taints::PID_PRESSURE, "NoSchedule"),
    (taints::NETWORK_UNAVAILABLE, "NoSchedule"),
];

fn condition<'a>(node: &'a Node, type_: &str) -> Option<&'a str> {
    node.status
        .as_ref()?
        .conditions
        .as_ref()?
        .iter()
        .find(|c| c.type_ == type_)
        .map(|c| c.status.as_str())
}

/// R-NLC-2/3: the managed taints the node's conditions call for.
fn desired(node: &Node) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    match condition(node, "Ready") {
        Some("False") => {
            out.push((taints::NOT_READY, "NoSchedule"));
            out.push((taints::NOT_READY, "NoExecute"));
        }
        Some("Unknown") => {
            out.push((taints::UNREACHABLE, "NoSchedule"));
            out.push((taints::UNREACHABLE, "NoExecute"));
        }
        _ => {}
    }
    for (cond, key) in [
        ("MemoryPressure", taints::MEMORY_PRESSURE),
        ("DiskPressure", taints::DISK_PRESSURE),
        ("PIDPressure", taints::PID_PRESSURE),
        ("NetworkUnavailable", taints::NETWORK_UNAVAILABLE),
    ] {
        if condition(node, cond) == Some("True") {
            out.push((key, "NoSchedule"));
        }
    }
    if node
        .spec
        .as_ref()
        .and_then(|s| s.unschedulable)
        .unwrap_or(false)
    {
        out.push((taints::UNSCHEDULABLE, "NoSchedule"));
    }
    out
}

fn is_managed(t: &Taint) -> bool {
    MANAGED.iter().any(|(k, e)| t.key == *k && t.effect == *e)
}

fn current(node: &Node) -> Vec<(String, String)> {
    node.spec
        .as_ref()
        .and_then(|s| s.taints.as_ref())
        .map(|ts| {
            ts.iter()
                .filter(|t| is_managed(t))
                .map(|t| (t.key.clone(), t.effect.clone()))
                .collect()
        })
        .unwrap_or_default()
}

fn needs_reconcile(node: &Node) -> bool {
    let mut want: Vec<(String, String)> = desired(node)
        .into_iter()
        .map(|(k, e)| (k.to_string(), e.to_string()))
        .collect();
    let mut have = current(node);
    sort::sort(&mut want);
    sort::sort(&mut have);
    want != have
}

/// Adds and removes managed taints so they match the conditions. Returns whether it changed.
fn reconcile(node: &mut Node, now: Timestamp) -> bool {
    let want = desired(node);
    let taints = node
        .spec
        .get_or_insert_with(Default::default)
        .taints
        .get_or_insert_with(Vec::new);
    let before = taints.len();
    let mut changed = false;
    taints.retain(|t| !is_managed(t) || want.iter().any(|(k, e)| t.key == *k && t.effect == *e));
    changed |= taints.len() != before;
    for (k, e) in want {
        if !taints.iter().any(|t| t.key == k && t.effect == e) {
            taints.push(Taint {
                key: k.to_string(),
                effect: e.to_string(),
                value: None,
                time_added: (e == "NoExecute").then_some(Time(now)),
            });
            changed = true;
        }
    }
    if taints.is_empty() {
        if let Some(s) = node.spec.as_mut() {
            s.taints = None;
        }
    }
    changed
}

impl NodeLifecycle {
    /// A kubelet started (or restarted) renewing its Lease.
    pub(crate) fn lease_start(&mut self, node: &str, now: Timestamp) {
        let created = self.leases.get(node).map_or(now, |l| l.created);
        self.leases.insert(
            node.to_string(),
            Lease {
                running: true,
                anchor: now,
                stopped_at: None,
                created,
            },
        );
    }

    pub(crate) fn lease_stop(&mut self, node: &str, now: Timestamp) {
        if let Some(l) = self.leases.get_mut(node) {
            if l.running {
                l.running = false;
                l.stopped_at = Some(now);
            }
        }
    }

    pub(crate) fn forget(&mut self, node: &str) {
        self.leases.remove(node);
    }

    /// The Lease object of `node` (uid `node_uid`): held by the node, 40 s long, renewed at the
    /// last renewal at or before `now`, owned by its Node, as the kubelet's lease controller
    /// writes it (`setNodeOwnerFunc`; no acquireTime).
    pub(crate) fn lease_object(
        &self,
        node: &str,
        node_uid: &str,
        now: Timestamp,
        timing: &crate::Timing,
    ) -> Option<k8s_openapi::api::coordination::v1::Lease> {
        use k8s_openapi::api::coordination::v1::{Lease as LeaseObject, LeaseSpec};
        use k8s_openapi::apimachinery::pkg::apis::meta::v1::{
            MicroTime, ObjectMeta, OwnerReference, Time,
        };
        let l = self.leases.get(node)?;
        let renewed = self.last_renew(node, now, timing.node_lease_period)?;
        Some(LeaseObject {
            metadata: ObjectMeta {
                name: Some(node.to_string()),
                namespace: Some("kube-node-lease".into()),
                uid: Some(crate::rng::uuid_of(&format!("lease/{node_uid}"))),
                creation_timestamp: Some(Time(l.created)),
                owner_references: Some(vec![OwnerReference {
                    api_version: "v1".into(),
                    kind: "Node".into(),
                    name: node.to_string(),
                    uid: node_uid.to_string(),
                    ..Default::default()
                }]),
                ..Default::default()
            },
            spec: Some(LeaseSpec {
                holder_identity: Some(node.to_string()),
                lease_duration_seconds: Some(40),
                renew_time: Some(MicroTime(renewed)),
                ..Default::default()
            }),
        })
    }

    /// The last Lease renewal at or before `now`.
    fn last_renew(&self, node: &str, now: Timestamp, period: f64) -> Option<Timestamp> {
        let l = self.leases.get(node)?;
        let end = if l.running {
            now
        } else {
            l.stopped_at.unwrap_or(now)
        };
        let elapsed = seconds_between(end, l.anchor).max(0.0);
        let k = if period > 0.0 {
            (elapsed / period).floor()
        } else {
            0.0
        };
        Some(plus(l.anchor, k * period))
    }

    /// Prompt reaction to node writes: reconcile taints when conditions and taints disagree.
    pub(crate) fn observe(&mut self, ev: &WatchEvent, s: &mut Sched) {
        if let (WatchKind::Added | WatchKind::Modified, Obj::Node(n)) = (&ev.kind, &ev.obj) {
            if needs_reconcile(n) {
                let node = n.metadata.name.clone().unwrap_or_default();
                s.after_watch(0.0, Ev::NodeLifecycleSync { node });
            }
        }
    }

    /// The NoSchedule / NoExecute tainting passes for one node.
    pub(crate) fn sync(&mut self, node: &str, store: &mut Store) -> String {
        let now = store.now;
        let Some(n) = store.node(node) else {
            return format!("node {node} is gone");
        };
        if !needs_reconcile(&n) {
            return format!("node {node}: taints already match conditions");
        }
        let _ = store.update_node(node, |n| {
            reconcile(n, now);
        });
        format!("node {node}: condition taints reconciled")
    }

    /// `monitorNodeHealth`: stale Leases → conditions Unknown and pods not Ready.
    pub(crate) fn monitor(&mut self, store: &mut Store, s: &mut Sched) -> String {
        let now = s.now;
        let lease_period = s.timing.node_lease_period;
        let grace = s.timing.node_monitor_grace;
        let mut lost = Vec::new();
        for (name, lease) in &self.leases {
            if lease.running {
                continue;
            }
            let Some(node) = store.node(name) else {
                continue;
            };
            if condition(&node, "Ready") == Some("Unknown") {
                continue;
            }
            let Some(last) = self.last_renew(name, now, lease_period) else {
                continue;
            };
            if seconds_between(now, last) > grace {
                lost.push(name.clone());
            }
        }
        for name in &lost {
            let _ = store.update_node(name, |n| mark_unknown(n, now));
            mark_pods_not_ready(store, name, now);
        }
        s.after(period(s.timing.node_monitor_period), Ev::NodeMonitorTick);
        if lost.is_empty() {
            "node monitor: all leases fresh".to_string()
        } else {
            format!("node monitor: {} stopped posting status", lost.join(", "))
        }
    }

    /// Whether a monitor tick still has something to do (a stopped kubelet whose node is not
    /// Unknown yet).
    pub(crate) fn has_pending_work(&self, store: &Store) -> bool {
        self.leases.iter().any(|(name, l)| {
            !l.running
                && store
                    .node(name)
                    .is_some_and(|n| condition(&n, "Ready") != Some("Unknown"))
        })
    }
}

const UNKNOWN_CONDITIONS: [&str; 4] = ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"];

fn mark_unknown(node: &mut Node, now: Timestamp) {
    let conds = node
        .status
        .get_or_insert_with(Default::default)
        .conditions
        .get_or_insert_with(Vec::new);
    for type_ in UNKNOWN_CONDITIONS {
        let c = NodeCondition {
            type_: type_.to_string(),
            status: "Unknown".into(),
            reason: Some("NodeStatusUnknown".into()),
            message: Some("Kubelet stopped posting node status.".into()),
            last_transition_time: Some(Time(now)),
            last_heartbeat_time: None,
        };
        match conds.iter_mut().find(|x| x.type_ == type_) {
            Some(existing) => {
                let hb = existing.last_heartbeat_time.take();
                *existing = NodeCondition {
                    last_heartbeat_time: hb,
                    ..c
                };
            }
            None => conds.push(c),
        }
    }
}

/// `MarkPodsNotReady`: every pod on the node gets Ready=False.
fn mark_pods_not_ready(store: &mut Store, node: &str, now: Timestamp) {
    for p in store.pods_on_node(node) {
        let key = pod_key(&p);
        store.mutate_pod(&key, |p| {
            let ready = p
                .status
                .as_ref()
                .and_then(|s| s.conditions.as_ref())
                .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Ready" && c.status == "True"));
            if ready {
                set_condition(
                    p,
                    PodCondition {
                        type_: "Ready".into(),
                        status: "False".into(),
                        last_transition_time: Some(Time(now)),
                        ..Default::default()
                    },
                );
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node_with(ready: &str, unschedulable: bool) -> Node {
        Node {
            spec: Some(k8s_openapi::api::core::v1::NodeSpec {
                unschedulable: Some(unschedulable),
                ..Default::default()
            }),
            status: Some(k8s_openapi::api::core::v1::NodeStatus {
                conditions: Some(vec![NodeCondition {
                    type_: "Ready".into(),
                    status: ready.into(),
                    ..Default::default()
                }]),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[test]
    fn unknown_gets_unreachable_taints_and_ready_clears_them() {
        let now = Timestamp::UNIX_EPOCH;
        let mut n = node_with("Unknown", false);
        assert!(reconcile(&mut n, now));
        assert_eq!(
            current(&n),
            vec![
                (taints::UNREACHABLE.to_string(), "NoSchedule".to_string()),
                (taints::UNREACHABLE.to_string(), "NoExecute".to_string())
            ]
        );
        n.status = node_with("True", false).status;
        assert!(reconcile(&mut n, now));
        assert!(current(&n).is_empty());
        assert!(!reconcile(&mut n, now));
    }

    #[test]
    fn cordon_adds_unschedulable_and_user_taints_stay() {
        let now = Timestamp::UNIX_EPOCH;
        let mut n = node_with("True", true);
        n.spec.as_mut().unwrap().taints = Some(vec![Taint {
            key: "k42".into(),
            value: Some("x".into()),
            effect: "NoSchedule".into(),
            time_added: None,
        }]);
        assert!(reconcile(&mut n, now));
        let ts = n.spec.as_ref().unwrap().taints.as_ref().unwrap();
        assert_eq!(ts.len(), 2);
        assert!(ts.iter().any(|t| t.key == taints::UNSCHEDULABLE));
    }
}
