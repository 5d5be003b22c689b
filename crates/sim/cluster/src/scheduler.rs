//! kube-scheduler, as far as DaemonSet pods meet it: an unbound pod is bound to its target node
//! (the controller's injected `metadata.name` affinity, R-POD-1) after `scheduler_bind`, if it
//! fits: unschedulable flag, node affinity/selector, NoSchedule/NoExecute taints, host ports,
//! and allocatable cpu/memory/pods minus the requests of pods already bound there. Otherwise the
//! pod stays Pending with `PodScheduled=False/Unschedulable` and a `FailedScheduling` event, and
//! is retried when something changes on that node. No preemption, no scoring.
//!
//! Owns the scheduling queue and the fit rules; knows nothing of DaemonSets or the controller.

use k8s_openapi::api::core::v1::{Node, Pod, PodCondition, Taint, Toleration};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use controller::pod_util::{is_pod_terminal, node_name};
use controller::predicates::toleration_tolerates_taint;
use controller::selectors::{node_selector_map_matches, node_selector_term_matches, TermMatch};

use crate::engine::{Ev, PodKey, Sched};
use crate::store::{reference, Obj, Recorder, Store, WatchEvent, WatchKind};

const COMPONENT: &str = "default-scheduler";
const AFFINITY_MISMATCH: &str = "node(s) didn't match Pod's node affinity/selector";

#[derive(Debug, Clone, Default)]
pub(crate) struct Scheduler {
    /// Pods with a scheduling attempt on the clock.
    in_flight: BTreeSet<PodKey>,
    /// Target node ("" for pods without one) → pods left Pending as unschedulable.
    unschedulable: BTreeMap<String, BTreeSet<PodKey>>,
}

pub(crate) fn pod_key(p: &Pod) -> PodKey {
    PodKey {
        ns: p.metadata.namespace.clone().unwrap_or_default(),
        name: p.metadata.name.clone().unwrap_or_default(),
        uid: p.metadata.uid.clone().unwrap_or_default(),
    }
}

fn wants_scheduling(p: &Pod) -> bool {
    let scheduler = p
        .spec
        .as_ref()
        .and_then(|s| s.scheduler_name.as_deref())
        .unwrap_or(COMPONENT);
    node_name(p).is_empty()
        && p.metadata.deletion_timestamp.is_none()
        && !is_pod_terminal(p)
        && scheduler == COMPONENT
}

impl Scheduler {
    /// Reacts to a watch event: new unbound pods are queued; freed capacity or a changed node
    /// retries the pods left unschedulable there.
    pub(crate) fn observe(&mut self, ev: &WatchEvent, s: &mut Sched) {
        match (&ev.kind, &ev.obj) {
            (WatchKind::Added, Obj::Pod(p)) if wants_scheduling(p) => self.queue(pod_key(p), s),
            (WatchKind::Deleted, Obj::Pod(p)) => {
                let key = pod_key(p);
                for set in self.unschedulable.values_mut() {
                    set.remove(&key);
                }
                let n = node_name(p).to_string();
                if !n.is_empty() {
                    self.retry(&n, s);
                }
            }
            (WatchKind::Modified, Obj::Pod(p)) => {
                let was_terminal = match &ev.old {
                    Some(Obj::Pod(o)) => is_pod_terminal(o),
                    _ => false,
                };
                let n = node_name(p).to_string();
                if !n.is_empty() && is_pod_terminal(p) && !was_terminal {
                    self.retry(&n, s);
                }
            }
            (WatchKind::Added | WatchKind::Modified, Obj::Node(n)) => {
                let name = n.metadata.name.clone().unwrap_or_default();
                self.retry(&name, s);
                self.retry("", s);
            }
            _ => {}
        }
    }

    fn queue(&mut self, key: PodKey, s: &mut Sched) {
        if self.in_flight.insert(key.clone()) {
            let bind = s.timing.scheduler_bind;
            s.after_watch(bind, Ev::SchedulerTry { key });
        }
    }

    fn retry(&mut self, node: &str, s: &mut Sched) {
        if let Some(set) = self.unschedulable.remove(node) {
            for k in set {
                self.queue(k, s);
            }
        }
    }

    /// Pods currently left unschedulable.
    pub(crate) fn unschedulable_count(&self) -> usize {
        self.unschedulable.values().map(BTreeSet::len).sum()
    }

    /// One scheduling attempt.
    pub(crate) fn try_schedule(&mut self, key: &PodKey, store: &mut Store) -> String {
        self.in_flight.remove(key);
        let Some(pod) = store.pod_by_key(key) else {
            return format!("pod {} is gone", key.name);
        };
        if !wants_scheduling(&pod) {
            return format!("pod {} needs no scheduling", key.name);
        }
        let target = controller::util::get_target_node_name(&pod)
            .ok()
            .map(str::to_string);
        let total = store.objects().nodes.len();
        let candidates: Vec<Arc<Node>> = match &target {
            Some(t) => store.node(t).into_iter().collect(),
            None => store.objects().all_nodes().cloned().collect(),
        };
        let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
        let mut resource_failures = 0;
        for node in &candidates {
            match fit(&pod, node, store) {
                Ok(()) => {
                    let node_name = node.metadata.name.clone().unwrap_or_default();
                    return self.bind(key, &pod, &node_name, store);
                }
                Err(Failure::Resources(rs)) => {
                    resource_failures += 1;
                    for r in rs {
                        *reasons.entry(r).or_default() += 1;
                    }
                }
                Err(Failure::Other(r)) => *reasons.entry(r).or_default() += 1,
            }
        }
        let unmatched = total.saturating_sub(candidates.len());
        if unmatched > 0 {
            *reasons.entry(AFFINITY_MISMATCH.to_string()).or_default() += unmatched;
        }
        let message = unschedulable_message(total, &reasons, resource_failures);
        set_pod_condition(
            store,
            key,
            ("PodScheduled", "False"),
            Some(("Unschedulable", &message)),
        );
        if let Some(p) = store.pod_by_key(key) {
            store.record_event(
                reference("Pod", "v1", &p.metadata),
                "Warning",
                "FailedScheduling",
                message,
                Recorder::Controller(COMPONENT),
            );
        }
        self.unschedulable
            .entry(target.unwrap_or_default())
            .or_default()
            .insert(key.clone());
        format!("pod {} unschedulable", key.name)
    }

    fn bind(&mut self, key: &PodKey, pod: &Pod, node: &str, store: &mut Store) -> String {
        let now = store.now;
        store.mutate_pod(key, |p| {
            p.spec.get_or_insert_with(Default::default).node_name = Some(node.to_string());
            set_condition(p, pod_condition("PodScheduled", "True", None, now));
        });
        store.record_event(
            reference("Pod", "v1", &pod.metadata),
            "Normal",
            "Scheduled",
            format!("Successfully assigned {}/{} to {node}", key.ns, key.name),
            Recorder::Controller(COMPONENT),
        );
        format!("bound {} to {node}", key.name)
    }
}

/// A pod condition of `type_` and `status` as of `now`, with its reason and message when it
/// has them (`Unschedulable`, `DisruptionTarget`'s `DeletionBy…`, `ContainersNotReady`).
pub(crate) fn pod_condition(
    type_: &str,
    status: &str,
    why: Option<(&str, &str)>,
    now: Timestamp,
) -> PodCondition {
    PodCondition {
        type_: type_.into(),
        status: status.into(),
        reason: why.map(|(r, _)| r.into()),
        message: why.map(|(_, m)| m.into()),
        last_transition_time: Some(Time(now)),
        ..Default::default()
    }
}

/// Writes a pod's condition (`type_`, `status`) as of now, with its reason and message.
pub(crate) fn set_pod_condition(
    store: &mut Store,
    key: &PodKey,
    (type_, status): (&str, &str),
    why: Option<(&str, &str)>,
) {
    let now = store.now;
    store.mutate_pod(key, |p| {
        set_condition(p, pod_condition(type_, status, why, now))
    });
}

/// Sets a condition, keeping `lastTransitionTime` when the status does not change.
pub(crate) fn set_condition(p: &mut Pod, mut c: PodCondition) {
    let conds = p
        .status
        .get_or_insert_with(Default::default)
        .conditions
        .get_or_insert_with(Vec::new);
    if let Some(existing) = conds.iter_mut().find(|x| x.type_ == c.type_) {
        if existing.status == c.status {
            c.last_transition_time
                .clone_from(&existing.last_transition_time);
        }
        *existing = c;
    } else {
        conds.push(c);
    }
}

fn unschedulable_message(
    total: usize,
    reasons: &BTreeMap<String, usize>,
    resource_failures: usize,
) -> String {
    let mut parts: Vec<String> = reasons.iter().map(|(r, n)| format!("{n} {r}")).collect();
    sort::sort(&mut parts);
    let mut preemption = Vec::new();
    if resource_failures > 0 {
        preemption.push(format!(
            "{resource_failures} No preemption victims found for incoming pod"
        ));
    }
    let others = total.saturating_sub(resource_failures);
    if others > 0 {
        preemption.push(format!("{others} Preemption is not helpful for scheduling"));
    }
    if parts.is_empty() {
        return format!("0/{total} nodes are available.");
    }
    format!(
        "0/{total} nodes are available: {}. preemption: 0/{total} nodes are available: {}.",
        parts.join(", "),
        preemption.join(", ")
    )
}

enum Failure {
    Resources(Vec<String>),
    Other(String),
}

fn tolerations(p: &Pod) -> &[Toleration] {
    p.spec
        .as_ref()
        .and_then(|s| s.tolerations.as_deref())
        .unwrap_or(&[])
}

fn tolerated(p: &Pod, taint: &Taint) -> bool {
    tolerations(p)
        .iter()
        .any(|t| toleration_tolerates_taint(t, taint))
}

/// Requests (cpu milli, memory milli-bytes) of a pod: containers summed, init containers as
/// their maximum.
pub(crate) fn requests(p: &Pod) -> (i128, i128) {
    let Some(spec) = p.spec.as_ref() else {
        return (0, 0);
    };
    let req = |c: &k8s_openapi::api::core::v1::Container, r: &str| -> i128 {
        c.resources
            .as_ref()
            .and_then(|x| x.requests.as_ref())
            .and_then(|m| m.get(r))
            .and_then(milli)
            .unwrap_or(0)
            .max(0)
    };
    let mut cpu: i128 = spec.containers.iter().map(|c| req(c, "cpu")).sum();
    let mut mem: i128 = spec.containers.iter().map(|c| req(c, "memory")).sum();
    for c in spec.init_containers.iter().flatten() {
        cpu = cpu.max(req(c, "cpu"));
        mem = mem.max(req(c, "memory"));
    }
    (cpu, mem)
}

fn host_ports(p: &Pod) -> Vec<(i32, String)> {
    p.spec
        .iter()
        .flat_map(|s| s.containers.iter())
        .flat_map(|c| c.ports.iter().flatten())
        .filter_map(|port| {
            port.host_port.filter(|h| *h > 0).map(|h| {
                (
                    h,
                    port.protocol.clone().unwrap_or_else(|| "TCP".to_string()),
                )
            })
        })
        .collect()
}

fn allocatable(node: &Node, r: &str) -> Option<i128> {
    node.status
        .as_ref()
        .and_then(|s| s.allocatable.as_ref().or(s.capacity.as_ref()))
        .and_then(|m| m.get(r))
        .and_then(milli)
}

/// A quantity in thousandths of its unit, rounded up (`MilliValue`, in an `i128` so a node's
/// memory in milli-bytes cannot overflow); `None` if the text is no quantity — possible only
/// for a node's capacity, which scenario files and `node add --capacity` give unchecked.
fn milli(q: &Quantity) -> Option<i128> {
    k8s_base::Quantity::parse_trimmed(&q.0)
        .ok()?
        .as_scaled_i128(-3)
}

/// The scheduler's filters for one node, in upstream order; the first failing plugin wins.
fn fit(pod: &Pod, node: &Node, store: &Store) -> Result<(), Failure> {
    let spec = node.spec.as_ref();
    if spec.and_then(|s| s.unschedulable).unwrap_or(false) {
        let t = Taint {
            key: controller::keys::taints::UNSCHEDULABLE.into(),
            effect: "NoSchedule".into(),
            value: None,
            time_added: None,
        };
        if !tolerated(pod, &t) {
            return Err(Failure::Other("node(s) were unschedulable".into()));
        }
    }
    for t in spec.and_then(|s| s.taints.as_deref()).unwrap_or(&[]) {
        if matches!(t.effect.as_str(), "NoSchedule" | "NoExecute") && !tolerated(pod, t) {
            return Err(Failure::Other(format!(
                "node(s) had untolerated taint {{{}: {}}}",
                t.key,
                t.value.as_deref().unwrap_or("")
            )));
        }
    }
    let pspec = pod.spec.as_ref();
    let selector_ok = node_selector_map_matches(pspec.and_then(|s| s.node_selector.as_ref()), node);
    let affinity_ok = match pspec
        .and_then(|s| s.affinity.as_ref())
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|na| {
            na.required_during_scheduling_ignored_during_execution
                .as_ref()
        }) {
        None => true,
        Some(sel) => sel
            .node_selector_terms
            .iter()
            .any(|t| node_selector_term_matches(t, node) == TermMatch::Matches),
    };
    if !selector_ok || !affinity_ok {
        return Err(Failure::Other(AFFINITY_MISMATCH.into()));
    }
    let node_name = node.metadata.name.as_deref().unwrap_or("");
    let others: Vec<Arc<Pod>> = store
        .pods_on_node(node_name)
        .into_iter()
        .filter(|p| !is_pod_terminal(p) && p.metadata.uid != pod.metadata.uid)
        .collect();
    let wanted = host_ports(pod);
    if !wanted.is_empty() {
        let used: BTreeSet<(i32, String)> = sort::set(others.iter().flat_map(|p| host_ports(p)));
        if wanted.iter().any(|w| used.contains(w)) {
            return Err(Failure::Other(
                "node(s) didn't have free ports for the requested pod ports".into(),
            ));
        }
    }
    let (cpu, mem) = requests(pod);
    let (used_cpu, used_mem) = others.iter().fold((0, 0), |(c, m), p| {
        let (pc, pm) = requests(p);
        (c + pc, m + pm)
    });
    let mut insufficient = Vec::new();
    if let Some(max_pods) = allocatable(node, "pods") {
        if (others.len() as i128 + 1) * 1000 > max_pods {
            insufficient.push("Too many pods".to_string());
        }
    }
    if cpu > 0 && allocatable(node, "cpu").is_some_and(|a| used_cpu + cpu > a) {
        insufficient.push("Insufficient cpu".to_string());
    }
    if mem > 0 && allocatable(node, "memory").is_some_and(|a| used_mem + mem > a) {
        insufficient.push("Insufficient memory".to_string());
    }
    if insufficient.is_empty() {
        Ok(())
    } else {
        Err(Failure::Resources(insufficient))
    }
}
