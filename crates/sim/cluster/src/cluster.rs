//! The façade: [`Cluster`] wires the store, the controller's informer and worker, and the
//! other actors onto one virtual clock, and offers the verbs a user (or `kubectl`, or a
//! scenario script) has: apply, delete, node add/remove/stop/start, pod fail, and time:
//! `step`, `advance`, `run_until`, `settle`. Reads return the store's objects.
//!
//! Owns the clock, the event queue, the RNG for jitter, and the order in which actors react.
//! Knows nothing of kubectl output or the UI.

use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
use k8s_openapi::api::core::v1::{Node, NodeAddress, NodeStatus, NodeSystemInfo, Pod};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::jiff::Timestamp;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use apiserver::decode::Manifest;
use apiserver::strategy::PropagationPolicy;
use controller::client::Listers;
use controller::{DaemonSetsController, MapOrder};

use crate::engine::{period, plus, seconds_between, Ev, EventQueue, Sched};
use crate::garbage_collector::GarbageCollector;
use crate::informer::{ControllerClient, Informer};
use crate::kubelet::{not_ready_conditions, ready_conditions, Kubelet};
use crate::node_lifecycle::NodeLifecycle;
use crate::podgc::PodGc;
use crate::rng::Rng;
use crate::scheduler::{pod_key, Scheduler};
use crate::store::{Objects, Store, DAEMON_SETS, NODES, PODS};
use crate::taint_eviction::TaintEviction;
use crate::timing::{sane, Timing};
use crate::trace::TraceEntry;
use k8s_base::ApiError;
use k8s_base::ApplyOutcome;

/// 2026-01-01T00:00:00Z: every run starts here.
pub const EPOCH_SECONDS: i64 = 1_767_225_600;

/// No single call processes more events than this (a guard against feedback loops with
/// zero latencies; never reached by sane timings).
const MAX_STEPS_PER_CALL: u64 = 50_000_000;

/// Anything `apply` accepts.
#[derive(Debug, Clone, PartialEq)]
pub enum Object {
    DaemonSet(Box<DaemonSet>),
    Pod(Box<Pod>),
    Node(Box<Node>),
    ControllerRevision(Box<ControllerRevision>),
}

impl From<Manifest> for Object {
    fn from(m: Manifest) -> Self {
        match m {
            Manifest::DaemonSet(o, _) => Object::DaemonSet(o),
            Manifest::Node(o, _) => Object::Node(o),
            Manifest::Pod(o, _) => Object::Pod(o),
            Manifest::ControllerRevision(o, _) => Object::ControllerRevision(o),
        }
    }
}

/// `Object::from(pod)`: each kind into its own variant, boxed.
macro_rules! object_from {
    ($($kind:ident),*) => {$(
        impl From<$kind> for Object {
            fn from(o: $kind) -> Self {
                Object::$kind(Box::new(o))
            }
        }
    )*};
}
object_from!(DaemonSet, Pod, Node, ControllerRevision);

/// Who acted in a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Actor {
    Informer,
    Controller,
    Scheduler,
    Kubelet,
    NodeLifecycle,
    TaintEviction,
    PodGc,
    GarbageCollector,
}

impl Actor {
    pub fn as_str(self) -> &'static str {
        match self {
            Actor::Informer => "informer",
            Actor::Controller => "daemonset-controller",
            Actor::Scheduler => "default-scheduler",
            Actor::Kubelet => "kubelet",
            Actor::NodeLifecycle => "node-lifecycle-controller",
            Actor::TaintEviction => "taint-eviction-controller",
            Actor::PodGc => "pod-garbage-collector",
            Actor::GarbageCollector => "garbage-collector",
        }
    }
}

/// What one [`Cluster::step`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct StepReport {
    /// Virtual seconds since the start.
    pub t: f64,
    pub actor: Actor,
    pub what: String,
}

/// The virtual cluster.
#[derive(Debug, Clone)]
pub struct Cluster {
    seed: u64,
    timing: Timing,
    rng: Rng,
    /// The seeds of the controller's Go-map orders, one per sync (a stream of its own, so
    /// that the other draws stay where they were).
    map_order_rng: Rng,
    start: Timestamp,
    now: Timestamp,
    /// The clock has moved (nodes added later are new nodes, not pre-existing ones).
    started: bool,
    queue: EventQueue,
    store: Store,
    informer: Informer,
    controller: DaemonSetsController,
    worker_gen: u64,
    worker_at: Option<Timestamp>,
    scheduler: Scheduler,
    kubelet: Kubelet,
    lifecycle: NodeLifecycle,
    taints: TaintEviction,
    podgc: PodGc,
    gc: GarbageCollector,
    /// The controllers forget their caches before each sync and pass (see
    /// [`Cluster::set_controller_caches`]).
    cold_controller: bool,
}

/// The scheduling handle over the cluster's clock, timing, RNG and queue (disjoint borrows).
macro_rules! sched {
    ($self:ident) => {
        Sched {
            now: $self.now,
            timing: &$self.timing,
            rng: &mut $self.rng,
            queue: &mut $self.queue,
        }
    };
}

fn ns_or_default(ns: &str) -> &str {
    if ns.is_empty() {
        "default"
    } else {
        ns
    }
}

impl Cluster {
    /// An empty cluster at 2026-01-01T00:00:00Z.
    pub fn new(seed: u64, timing: Timing) -> Self {
        let start = Timestamp::from_second(EPOCH_SECONDS).unwrap_or(Timestamp::UNIX_EPOCH);
        let mut c = Cluster {
            seed,
            timing,
            rng: Rng::new(seed, 0x5eed_0002),
            map_order_rng: Rng::new(seed, 0x5eed_0de5),
            start,
            now: start,
            started: false,
            queue: EventQueue::default(),
            store: Store::new(seed, start),
            informer: Informer::new(start),
            controller: DaemonSetsController::new(),
            worker_gen: 0,
            worker_at: None,
            scheduler: Scheduler::default(),
            kubelet: Kubelet::default(),
            lifecycle: NodeLifecycle::default(),
            taints: TaintEviction::default(),
            podgc: PodGc::default(),
            gc: GarbageCollector::default(),
            cold_controller: false,
        };
        let monitor = period(c.timing.node_monitor_period);
        let gc = period(c.timing.pod_gc_period);
        c.queue.push(plus(start, monitor), Ev::NodeMonitorTick);
        c.queue.push(plus(start, gc), Ev::PodGcTick);
        c
    }

    // ----- clock -----

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn timing(&self) -> &Timing {
        &self.timing
    }

    pub fn now(&self) -> Timestamp {
        self.now
    }

    pub fn start_time(&self) -> Timestamp {
        self.start
    }

    /// Virtual seconds since the start.
    pub fn elapsed_seconds(&self) -> f64 {
        seconds_between(self.now, self.start)
    }

    // ----- writes -----

    /// Create, or update what the object sets (spec, labels; annotations are merged),
    /// reporting created / configured / unchanged: the shortcut tests and benches use, and
    /// the create behind `kubectl::Api::create`. `kubectl apply` itself is a three-way merge
    /// that the kubectl crate computes and sends through the `update_*` methods.
    pub fn apply(&mut self, obj: impl Into<Object>) -> Result<ApplyOutcome, ApiError> {
        let r = match obj.into() {
            Object::DaemonSet(ds) => self.apply_daemon_set(*ds),
            Object::Pod(p) => self.apply_pod(*p),
            Object::Node(n) => self.apply_node(*n),
            Object::ControllerRevision(r) => self.apply_revision(*r),
        };
        self.dispatch();
        r
    }

    fn apply_daemon_set(&mut self, ds: DaemonSet) -> Result<ApplyOutcome, ApiError> {
        let ns = ns_or_default(ds.metadata.namespace.as_deref().unwrap_or("")).to_string();
        let name = ds.metadata.name.clone().unwrap_or_default();
        let Some(old) = self
            .store
            .daemon_set(&ns, &name)
            .filter(|_| !name.is_empty())
        else {
            return self
                .store
                .create_daemon_set(ds)
                .map(|_| ApplyOutcome::Created);
        };
        let mut new = (*old).clone();
        new.spec = ds.spec;
        new.metadata.labels = ds.metadata.labels;
        merge_annotations(&mut new.metadata.annotations, ds.metadata.annotations);
        if ds.metadata.owner_references.is_some() {
            new.metadata.owner_references = ds.metadata.owner_references;
        }
        self.store.update_daemon_set(new).map(|(_, o)| o)
    }

    fn apply_pod(&mut self, pod: Pod) -> Result<ApplyOutcome, ApiError> {
        let ns = ns_or_default(pod.metadata.namespace.as_deref().unwrap_or("")).to_string();
        let name = pod.metadata.name.clone().unwrap_or_default();
        let Some(old) = self.store.pod(&ns, &name).filter(|_| !name.is_empty()) else {
            return self
                .store
                .create_pod(&ns, pod)
                .map(|_| ApplyOutcome::Created);
        };
        let key = pod_key(&old);
        let before = old.metadata.resource_version.clone();
        let labels = pod.metadata.labels;
        let annotations = pod.metadata.annotations;
        let after = self.store.mutate_pod(&key, |p| {
            p.metadata.labels = labels;
            merge_annotations(&mut p.metadata.annotations, annotations);
        });
        Ok(outcome(
            before,
            after.and_then(|p| p.metadata.resource_version.clone()),
        ))
    }

    fn apply_node(&mut self, node: Node) -> Result<ApplyOutcome, ApiError> {
        let name = node.metadata.name.clone().unwrap_or_default();
        let Some(old) = self.store.node(&name).filter(|_| !name.is_empty()) else {
            return self.add_node(node).map(|_| ApplyOutcome::Created);
        };
        let before = old.metadata.resource_version.clone();
        let after = self.store.update_node(&name, |n| {
            n.metadata.labels = node.metadata.labels;
            merge_annotations(&mut n.metadata.annotations, node.metadata.annotations);
            if node.spec.is_some() {
                n.spec = node.spec;
            }
        })?;
        Ok(outcome(before, after.metadata.resource_version.clone()))
    }

    fn apply_revision(&mut self, rev: ControllerRevision) -> Result<ApplyOutcome, ApiError> {
        let ns = ns_or_default(rev.metadata.namespace.as_deref().unwrap_or("")).to_string();
        let name = rev.metadata.name.clone().unwrap_or_default();
        if !name.is_empty()
            && self
                .store
                .objects()
                .revisions
                .contains_key(&(ns.clone(), name))
        {
            return Ok(ApplyOutcome::Unchanged);
        }
        self.store
            .create_revision(&ns, rev)
            .map(|_| ApplyOutcome::Created)
    }

    /// Edit a DaemonSet in place (`kubectl edit`, `set env`, `set image`, `patch` …). The
    /// closure sees the stored object; status changes are ignored.
    pub fn update_daemon_set(
        &mut self,
        ns: &str,
        name: &str,
        f: impl FnOnce(&mut DaemonSet),
    ) -> Result<ApplyOutcome, ApiError> {
        let ns = ns_or_default(ns);
        let old = self
            .store
            .daemon_set(ns, name)
            .ok_or_else(|| ApiError::not_found(DAEMON_SETS, name))?;
        let mut new = (*old).clone();
        f(&mut new);
        new.metadata.namespace = Some(ns.to_string());
        new.metadata.name = Some(name.to_string());
        let r = self.store.update_daemon_set(new).map(|(_, o)| o);
        self.dispatch();
        r
    }

    /// `kubectl delete ds NAME --cascade=background|foreground|orphan`.
    pub fn delete_daemon_set(
        &mut self,
        ns: &str,
        name: &str,
        propagation: PropagationPolicy,
    ) -> Result<(), ApiError> {
        let r = self
            .store
            .delete_daemon_set(ns_or_default(ns), name, propagation);
        self.dispatch();
        r
    }

    /// `kubectl delete pod NAME` (graceful, the pod's own grace period).
    pub fn delete_pod(&mut self, ns: &str, name: &str) -> Result<(), ApiError> {
        self.delete_pod_with_grace(ns, name, None)
    }

    /// `kubectl delete pod NAME --grace-period=N` (0: `--force`).
    pub fn delete_pod_with_grace(
        &mut self,
        ns: &str,
        name: &str,
        grace: Option<i64>,
    ) -> Result<(), ApiError> {
        let r = self.store.delete_pod(ns_or_default(ns), name, grace);
        self.dispatch();
        r
    }

    /// `node add`: registers a node and its kubelet. Missing capacity defaults to
    /// cpu 4, memory 8Gi, pods 110. A node added after the clock has moved starts NotReady with
    /// the `not-ready:NoSchedule` taint for `node_ready_after_register` seconds (R-ELG-7).
    pub fn add_node(&mut self, mut node: Node) -> Result<(), ApiError> {
        let delay = if self.started {
            sane(self.timing.node_ready_after_register)
        } else {
            0.0
        };
        let status = node.status.get_or_insert_with(NodeStatus::default);
        if status.capacity.is_none() {
            status.capacity = Some(sort::map([
                ("cpu".to_string(), Quantity("4".into())),
                ("memory".to_string(), Quantity("8Gi".into())),
                ("pods".to_string(), Quantity("110".into())),
            ]));
        }
        // The kubelet reports its addresses when it registers; kind's nodes sit on the docker
        // network 172.18.0.0/16 from .2 on, in the order they join. An imported node keeps its own.
        let name = node.metadata.name.clone().unwrap_or_default();
        if status.addresses.is_none() {
            let host = self.kubelet.registered() + 2;
            status.addresses = Some(vec![
                NodeAddress {
                    type_: "InternalIP".into(),
                    address: format!("172.18.{}.{}", host / 256 % 256, host % 256),
                },
                NodeAddress {
                    type_: "Hostname".into(),
                    address: name.clone(),
                },
            ]);
        }
        // …and its machine: kind's node image, with a machine-id and two UUIDs.
        let info = status.node_info.get_or_insert_with(|| NodeSystemInfo {
            kubelet_version: "v1.37.0".into(),
            kube_proxy_version: "v1.37.0".into(),
            container_runtime_version: "containerd://2.1.4".into(),
            operating_system: "linux".into(),
            architecture: "amd64".into(),
            os_image: "Debian GNU/Linux 12 (bookworm)".into(),
            kernel_version: "6.8.0".into(),
            ..Default::default()
        });
        if info.machine_id.is_empty() {
            let registration = self.kubelet.registered() + 1;
            info.machine_id = crate::rng::hex_id(&format!("machine/{name}"), 2);
            info.system_uuid = crate::rng::uuid_of(&format!("system/{name}"));
            info.boot_id = crate::rng::uuid_of(&format!("boot/{name}/{registration}"));
        }
        let conditions = if delay > 0.0 {
            not_ready_conditions(self.now)
        } else {
            ready_conditions(self.now)
        };
        let conds = status.conditions.get_or_insert_with(Vec::new);
        conds.retain(|c| !conditions.iter().any(|k| k.type_ == c.type_));
        conds.extend(conditions);
        let created = self.store.create_node(node, delay > 0.0)?;
        let name = created.metadata.name.clone().unwrap_or_default();
        self.lifecycle.lease_start(&name, self.now);
        let mut s = sched!(self);
        self.kubelet.register(&name, delay, &self.store, &mut s);
        self.dispatch();
        Ok(())
    }

    /// `node remove`: the Node object disappears (its VM is gone, kubelet included).
    pub fn remove_node(&mut self, name: &str) -> Result<(), ApiError> {
        self.store.delete_node(name)?;
        self.kubelet.forget(name);
        self.lifecycle.forget(name);
        self.dispatch();
        Ok(())
    }

    /// `node stop`: the kubelet stops posting status and acting on pods.
    pub fn stop_node(&mut self, name: &str) -> Result<(), ApiError> {
        if self.store.node(name).is_none() {
            return Err(ApiError::not_found(NODES, name));
        }
        self.kubelet.stop(name);
        self.lifecycle.lease_stop(name, self.now);
        Ok(())
    }

    /// `node start`: the kubelet resumes (posts Ready, resyncs its pods).
    pub fn start_node(&mut self, name: &str) -> Result<(), ApiError> {
        if self.store.node(name).is_none() {
            return Err(ApiError::not_found(NODES, name));
        }
        if !self.kubelet.is_running(name) {
            self.lifecycle.lease_start(name, self.now);
            let mut s = sched!(self);
            self.kubelet.start(name, &mut self.store, &mut s);
        }
        self.dispatch();
        Ok(())
    }

    /// The registry's behaviour per image (the scenario's `images:`); images not listed are
    /// present on every node.
    pub fn set_images(&mut self, images: crate::images::Images) {
        self.kubelet.set_images(images);
    }

    /// `pod crash`: the pod's (first running) container exits once with `exit_code`; its
    /// kubelet restarts it with the usual back-off (restartPolicy Always).
    pub fn crash_pod(&mut self, ns: &str, name: &str, exit_code: i32) -> Result<(), ApiError> {
        let pod = self.running_pod(ns, name, "crash")?;
        let r = {
            let mut s = sched!(self);
            self.kubelet
                .crash(&pod_key(&pod), exit_code, &mut self.store, &mut s)
        };
        self.dispatch();
        r.map(|_| ()).map_err(|e| {
            ApiError::BadRequest(format!(
                "{e}\n  hint: a container crashes while it runs; `kubectl get pod {name}` shows its state"
            ))
        })
    }

    /// `pod fail`: the kubelet evicts the pod (node memory pressure): phase Failed, reason
    /// Evicted.
    pub fn fail_pod(&mut self, ns: &str, name: &str) -> Result<(), ApiError> {
        let pod = self.running_pod(ns, name, "fail")?;
        self.kubelet.fail(&pod_key(&pod), &mut self.store);
        self.dispatch();
        Ok(())
    }

    /// `pod fail --reason OutOfcpu|OutOfmemory` (`resource` is `cpu` or `memory`): the node's
    /// allocatable `resource` drops to just below what its pods request (a raised
    /// `kube-reserved`, applied by a kubelet restart), and the kubelet, admitting its pods
    /// again, rejects this one (`predicateAdmitHandler.Admit`: `InsufficientResourceError`,
    /// reason `OutOfcpu`; `rejectPod`). The node keeps the smaller allocatable, so the
    /// scheduler finds no room for a replacement, as on a real cluster.
    pub fn reject_pod(&mut self, ns: &str, name: &str, resource: &str) -> Result<(), ApiError> {
        let pod = self.running_pod(ns, name, "fail")?;
        let node = controller::pod_util::node_name(&pod).to_string();
        let amount = |p: &Pod| {
            let (cpu, mem) = crate::scheduler::requests(p);
            if resource == "cpu" {
                cpu
            } else {
                mem
            }
        };
        let requested = amount(&pod);
        if requested <= 0 {
            return Err(ApiError::BadRequest(format!(
                "pod {name:?} requests no {resource}, so no kubelet rejects it for want of \
                 {resource}\n  hint: give the template resources.requests.{resource}, or use \
                 `pod fail {name}` (eviction)"
            )));
        }
        let used: i128 = self
            .store
            .pods_on_node(&node)
            .iter()
            .filter(|p| p.metadata.uid != pod.metadata.uid)
            .filter(|p| !controller::pod_util::is_pod_terminal(p))
            .map(|p| amount(p))
            .sum();
        // Go's InsufficientResourceError prints MilliValue() for cpu and Value() for the rest.
        let (unit, scale) = if resource == "cpu" {
            (1, "m")
        } else {
            (1000, "")
        };
        let whole = |milli: i128| (milli + unit - 1) / unit;
        let (req, used) = (whole(requested), whole(used));
        let capacity = used + req - 1;
        self.store.update_node(&node, |n| {
            let st = n.status.get_or_insert_with(Default::default);
            st.allocatable
                .get_or_insert_with(Default::default)
                .insert(resource.to_string(), Quantity(format!("{capacity}{scale}")));
        })?;
        let message = format!(
            "Node didn't have enough resource: {resource}, requested: {req}, used: {used}, \
             capacity: {capacity}"
        );
        self.kubelet.reject(
            &pod_key(&pod),
            &format!("OutOf{resource}"),
            message,
            &mut self.store,
        );
        self.dispatch();
        Ok(())
    }

    /// A pod that a kubelet runs, for `pod crash|fail` (`verb`); otherwise why not.
    fn running_pod(&self, ns: &str, name: &str, verb: &str) -> Result<Arc<Pod>, ApiError> {
        let pod = self
            .store
            .pod(ns_or_default(ns), name)
            .ok_or_else(|| ApiError::not_found(PODS, name))?;
        // Only the kubelet of the pod's node can see its container exit.
        let node = controller::pod_util::node_name(&pod);
        if node.is_empty() {
            return Err(ApiError::BadRequest(format!(
                "pod {name:?} is not on a node yet, so it has no container to {verb}\n  \
                 hint: a pod fails once the scheduler has bound it and its node's kubelet runs it"
            )));
        }
        if self.store.node(node).is_none() {
            return Err(ApiError::BadRequest(format!(
                "pod {name:?} is bound to node {node:?}, which no longer exists: no kubelet \
                 reports for it\n  hint: pod GC deletes such pods; `kubectl delete pod {name}` \
                 does it now"
            )));
        }
        if !self.kubelet.is_running(node) {
            return Err(ApiError::BadRequest(format!(
                "the kubelet on {node:?} is stopped, so nothing reports pod {name:?}'s container \
                 exiting\n  hint: `node start {node}` first"
            )));
        }
        if controller::pod_util::is_pod_terminal(&pod) {
            let phase = controller::pod_util::phase(&pod);
            return Err(ApiError::BadRequest(format!(
                "pod {name:?} has already finished (phase {phase}): none of its containers runs \
                 any more\n  hint: {verb} a running pod; the DaemonSet controller replaces this one"
            )));
        }
        Ok(pod)
    }

    /// Edit a node (labels, taints, `spec.unschedulable` for cordon/uncordon).
    pub fn update_node(&mut self, name: &str, f: impl FnOnce(&mut Node)) -> Result<(), ApiError> {
        let r = self.store.update_node(name, f).map(|_| ());
        self.dispatch();
        r
    }

    /// Edit a pod's labels and annotations (`kubectl label`, `patch`, `apply`); its spec and
    /// status are the scheduler's and the kubelet's, and only these two fields are taken.
    pub fn update_pod_metadata(
        &mut self,
        ns: &str,
        name: &str,
        labels: Option<BTreeMap<String, String>>,
        annotations: Option<BTreeMap<String, String>>,
    ) -> Result<(), ApiError> {
        let old = self
            .store
            .pod(ns_or_default(ns), name)
            .ok_or_else(|| ApiError::not_found(PODS, name))?;
        self.store.mutate_pod(&pod_key(&old), |p| {
            p.metadata.labels = labels;
            p.metadata.annotations = annotations;
        });
        self.dispatch();
        Ok(())
    }

    // ----- time -----

    /// With `false`, the controller starts every sync without the caches it keeps across
    /// syncs, and the node lifecycle controller every monitor pass without what it read off
    /// node objects in the last (slower, same behaviour: the caches decide nothing). For
    /// differential tests.
    pub fn set_controller_caches(&mut self, on: bool) {
        self.cold_controller = !on;
        self.lifecycle.set_memo(on);
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.controller.set_incremental(on);
            self.podgc.set_cache(on);
        }
    }

    /// Processes the next event; None when nothing is scheduled at all.
    pub fn step(&mut self) -> Option<StepReport> {
        let (t, ev) = self.queue.pop()?;
        self.now = t.max(self.now);
        self.store.now = self.now;
        self.started = true;
        let (actor, what) = self.handle(ev);
        self.dispatch();
        self.schedule_worker();
        Some(StepReport {
            t: self.store.t(),
            actor,
            what,
        })
    }

    /// Processes every event up to `now + d`, then sets the clock to `now + d`.
    pub fn advance(&mut self, d: Duration) {
        let end = plus(self.now, d.as_secs_f64());
        let mut steps = 0;
        while self.queue.peek_time().is_some_and(|t| t <= end) && steps < MAX_STEPS_PER_CALL {
            self.step();
            steps += 1;
        }
        self.set_clock(end);
    }

    /// Steps until `pred` holds (true) or `max` of virtual time has passed (false; the clock
    /// then stands at the deadline).
    pub fn run_until(&mut self, mut pred: impl FnMut(&Cluster) -> bool, max: Duration) -> bool {
        let end = plus(self.now, max.as_secs_f64());
        let mut steps = 0;
        loop {
            if pred(self) {
                return true;
            }
            match self.queue.peek_time() {
                Some(t) if t <= end && steps < MAX_STEPS_PER_CALL => {
                    self.step();
                    steps += 1;
                }
                _ => {
                    self.set_clock(end);
                    return pred(self);
                }
            }
        }
    }

    /// Steps until nothing but idle housekeeping loops is pending (true), or `max` passed.
    pub fn settle(&mut self, max: Duration) -> bool {
        self.run_until(Cluster::is_settled, max)
    }

    /// Nothing is in flight: no watch event, sync, start, probe, termination or eviction is
    /// scheduled, and the periodic loops have nothing left to do.
    pub fn is_settled(&self) -> bool {
        self.queue.iter().all(|(_, ev)| ev.is_housekeeping())
            && !self.lifecycle.has_pending_work(&self.store)
            && !self.podgc.has_pending_work(&self.store)
    }

    /// When the next event is due, if any.
    pub fn next_event_time(&self) -> Option<Timestamp> {
        self.queue.peek_time()
    }

    fn set_clock(&mut self, t: Timestamp) {
        if t > self.now {
            self.now = t;
            self.store.now = t;
        }
        self.started = true;
    }

    fn handle(&mut self, ev: Ev) -> (Actor, String) {
        match ev {
            Ev::InformerDeliver => (
                Actor::Informer,
                self.informer.deliver(&mut self.controller, self.now),
            ),
            Ev::ControllerWorker { gen } => {
                if gen != self.worker_gen {
                    return (Actor::Controller, "stale wakeup".into());
                }
                self.worker_at = None;
                if self.cold_controller {
                    self.controller.forget_caches();
                }
                let seed = (u64::from(self.map_order_rng.next_u32()) << 32)
                    | u64::from(self.map_order_rng.next_u32());
                let mut client = ControllerClient {
                    cache: self.informer.cache(),
                    store: &mut self.store,
                    map_order: MapOrder::Seeded(seed),
                };
                let what = match self
                    .controller
                    .process_next_work_item(&mut client, self.now)
                {
                    Some((key, Ok(()))) => format!("synced {key}"),
                    Some((key, Err(e))) => format!("sync of {key} failed: {e}"),
                    None => "no key ready".to_string(),
                };
                (Actor::Controller, what)
            }
            Ev::SchedulerTry { key } => (
                Actor::Scheduler,
                self.scheduler.try_schedule(&key, &mut self.store),
            ),
            Ev::KubeletObserve { key } => {
                let mut s = sched!(self);
                (
                    Actor::Kubelet,
                    self.kubelet.sync_pod(&key, &mut self.store, &mut s),
                )
            }
            Ev::ContainerStart { key, epoch } => {
                let mut s = sched!(self);
                (
                    Actor::Kubelet,
                    self.kubelet
                        .container_start(&key, epoch, &mut self.store, &mut s),
                )
            }
            Ev::Probe {
                key,
                epoch,
                idx,
                kind,
                run,
            } => {
                let mut s = sched!(self);
                (
                    Actor::Kubelet,
                    self.kubelet
                        .probe(&key, (epoch, idx, kind, run), &mut self.store, &mut s),
                )
            }
            Ev::ContainerExit {
                key,
                epoch,
                idx,
                run,
            } => {
                let mut s = sched!(self);
                (
                    Actor::Kubelet,
                    self.kubelet
                        .container_exit(&key, (epoch, idx, run), &mut self.store, &mut s),
                )
            }
            Ev::ImagePulled { key, epoch, idx } => {
                let mut s = sched!(self);
                (
                    Actor::Kubelet,
                    self.kubelet
                        .image_pulled(&key, epoch, idx, &mut self.store, &mut s),
                )
            }
            Ev::PodResync { key, epoch, gen } => {
                let mut s = sched!(self);
                (
                    Actor::Kubelet,
                    self.kubelet
                        .resync(&key, (epoch, gen), &mut self.store, &mut s),
                )
            }
            Ev::PodTerminated { key, epoch } => (
                Actor::Kubelet,
                self.kubelet
                    .terminated(&key, epoch, &mut self.store, self.timing.sigterm_honoured),
            ),
            Ev::KubeletReady { node, epoch } => (
                Actor::Kubelet,
                self.kubelet.kubelet_ready(&node, epoch, &mut self.store),
            ),
            Ev::NodeLifecycleSync { node } => (
                Actor::NodeLifecycle,
                self.lifecycle.sync(&node, &mut self.store),
            ),
            Ev::NodeMonitorTick => {
                let mut s = sched!(self);
                (
                    Actor::NodeLifecycle,
                    self.lifecycle.monitor(&mut self.store, &mut s),
                )
            }
            Ev::NoExecuteTaintingPass { at } => {
                let mut s = sched!(self);
                (
                    Actor::NodeLifecycle,
                    self.lifecycle.tainting_pass(at, &mut self.store, &mut s),
                )
            }
            Ev::TaintNode { node } => {
                let mut s = sched!(self);
                (
                    Actor::TaintEviction,
                    self.taints.handle_node(&node, &mut self.store, &mut s),
                )
            }
            Ev::TaintPod { key } => {
                let mut s = sched!(self);
                (
                    Actor::TaintEviction,
                    self.taints.handle_pod(&key, &mut self.store, &mut s),
                )
            }
            Ev::TaintEvict { key, at } => (
                Actor::TaintEviction,
                self.taints.fire(&key, at, &mut self.store),
            ),
            Ev::PodGcTick => {
                let mut s = sched!(self);
                (Actor::PodGc, self.podgc.tick(&mut self.store, &mut s))
            }
            Ev::GcCollect { uid } => (
                Actor::GarbageCollector,
                self.gc.collect(&uid, &mut self.store),
            ),
        }
    }

    /// Hands every new watch event to its watchers.
    fn dispatch(&mut self) {
        let events = std::mem::take(&mut self.store.outbox);
        for ev in &events {
            let mut s = sched!(self);
            self.informer.push(ev, &mut s);
            self.scheduler.observe(ev, &mut s);
            self.kubelet.observe(ev, &mut s);
            self.lifecycle.observe(ev, &mut s);
            self.taints.observe(ev, &mut s);
            self.gc.observe(ev, &self.store, &mut s);
        }
    }

    /// Makes sure the controller's worker runs `controller_sync` after a key is ready (now,
    /// or when a delayed key comes due).
    fn schedule_worker(&mut self) {
        let q = &self.controller.queue;
        let base = if !q.is_empty() {
            self.now
        } else {
            match q.next_wakeup() {
                Some(w) => w.max(self.now),
                None => return,
            }
        };
        let latest = plus(
            base,
            sane(self.timing.controller_sync) * (1.0 + sane(self.timing.jitter).min(1.0)),
        );
        if self.worker_at.is_some_and(|cur| cur <= latest) {
            return;
        }
        let d = {
            let mut s = sched!(self);
            s.jittered(s.timing.controller_sync)
        };
        let at = plus(base, d);
        self.worker_gen += 1;
        self.worker_at = Some(at);
        self.queue.push(
            at,
            Ev::ControllerWorker {
                gen: self.worker_gen,
            },
        );
    }

    // ----- reads -----

    pub fn daemon_sets(&self) -> Vec<Arc<DaemonSet>> {
        self.store.objects().all_daemon_sets()
    }

    pub fn daemon_set(&self, ns: &str, name: &str) -> Option<Arc<DaemonSet>> {
        self.store.daemon_set(ns_or_default(ns), name)
    }

    /// Every pod, ordered by (namespace, name).
    pub fn pods(&self) -> Vec<Arc<Pod>> {
        self.store.objects().all_pods().cloned().collect()
    }

    pub fn pod(&self, ns: &str, name: &str) -> Option<Arc<Pod>> {
        self.store.pod(ns_or_default(ns), name)
    }

    /// Every node, ordered by name.
    pub fn nodes(&self) -> Vec<Arc<Node>> {
        self.store.objects().nodes()
    }

    pub fn node(&self, name: &str) -> Option<Arc<Node>> {
        self.store.node(name)
    }

    pub fn revisions(&self) -> Vec<Arc<ControllerRevision>> {
        self.store.objects().all_revisions().cloned().collect()
    }

    /// Events in the order first recorded (repeats bump `count`).
    pub fn events(&self) -> &crate::store::EventLog {
        self.store.events()
    }

    /// For a node that no longer exists but still has pods bound to it: when pod GC first saw
    /// it missing, and when it will force-delete those pods (R-NODE-2). `None` before pod GC has
    /// noticed.
    pub fn pod_gc_collection(&self, node: &str) -> Option<(Timestamp, Timestamp)> {
        self.podgc.collection(node, &self.timing)
    }

    pub fn trace(&self) -> &[TraceEntry] {
        &self.store.trace
    }

    /// Hands over the trace recorded so far and goes on with an empty one (time travel keeps
    /// one copy of the history instead of one per checkpoint).
    pub fn take_trace(&mut self) -> Vec<TraceEntry> {
        std::mem::take(&mut self.store.trace)
    }

    /// The stored objects, for listers-style reads.
    pub fn objects(&self) -> &Objects {
        self.store.objects()
    }

    /// The controller's state (work queue, expectations), for inspection.
    pub fn controller(&self) -> &DaemonSetsController {
        &self.controller
    }

    /// What the controller currently sees (its informer cache).
    pub fn controller_view(&self) -> &Objects {
        self.informer.cache()
    }

    /// The node's Lease in `kube-node-lease`, as its kubelet last renewed it. Renewals are not
    /// stored (one write per node every 10 s would dominate a 5,000-node run); the object is
    /// made from the lease's state when read, and is what node lifecycle reads.
    pub fn node_lease(&self, node: &str) -> Option<k8s_openapi::api::coordination::v1::Lease> {
        let uid = self.store.node(node)?.metadata.uid.clone()?;
        self.lifecycle
            .lease_object(node, &uid, self.now, &self.timing)
    }

    /// Whether the node's kubelet is running.
    pub fn kubelet_running(&self, node: &str) -> bool {
        self.kubelet.is_running(node)
    }

    /// Pods the scheduler currently leaves unschedulable.
    pub fn unschedulable_pods(&self) -> usize {
        self.scheduler.unschedulable_count()
    }

    /// The node lifecycle controller's zones and their states, by zone key (`GetZoneKey`:
    /// `region:\0:zone`, "" for nodes without zone labels); empty before its first pass.
    pub fn zone_states(&self) -> Vec<(String, crate::ZoneState)> {
        self.lifecycle.zone_states()
    }

    /// Evictions the taint manager has scheduled (finite `tolerationSeconds`).
    pub fn scheduled_evictions(&self) -> usize {
        self.taints.scheduled_count()
    }
}

fn merge_annotations(
    into: &mut Option<BTreeMap<String, String>>,
    from: Option<BTreeMap<String, String>>,
) {
    if let Some(from) = from {
        into.get_or_insert_with(BTreeMap::new).extend(from);
    }
}

fn outcome(before: Option<String>, after: Option<String>) -> ApplyOutcome {
    if before == after {
        ApplyOutcome::Unchanged
    } else {
        ApplyOutcome::Configured
    }
}
