//! The kubelets, one per node: they post node status (Ready after registration or restart),
//! sync the pods bound to their node (at registration and restart too, as a real kubelet's pod
//! source lists them), pull images (`images:` in a scenario: missing images, pull times, the
//! image back-off; unlisted images are present), run containers as the process model of
//! `process.rs` says (exits, restarts under the crash-loop back-off), run startup, liveness and
//! readiness probes (exec probes against the container's files; a liveness or startup failure
//! kills and restarts), reject pods at admission when the node's resources no longer fit
//! (OutOfcpu), evict on `pod fail`, and terminate deleted pods (SIGTERM, then the grace period
//! unless the container honours SIGTERM) before removing them from the API. A stopped kubelet
//! does nothing: its pods and its node status freeze, and its Lease stops being renewed.
//!
//! It records the events a kubelet records for each container, with the container's field path
//! (Pulling, Pulled, Failed, BackOff, Created, Started, Killing, Unhealthy, Evicted, …), as
//! `docs/workloads.md` lists them.
//!
//! Owns per-pod work in flight and per-node kubelet state; knows nothing of controllers.

use k8s_openapi::api::core::v1::{
    Container, ContainerState, ContainerStateRunning, ContainerStateTerminated,
    ContainerStateWaiting, ContainerStatus, HostIP, Node, NodeCondition, ObjectReference, Pod,
    PodCondition, PodIP, Probe,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use controller::pod_util::{is_pod_ready, node_name, phase};

use crate::engine::{plus, seconds_between, Ev, PodKey, ProbeKind, Sched};
use crate::images::Images;
use crate::process::{exec_probe, End, ProbeResult, Program};
use crate::scheduler::{pod_condition, pod_key, set_condition};
use crate::store::{reference, Obj, Store, WatchEvent, WatchKind};

#[derive(Debug, Clone)]
struct KNode {
    running: bool,
    /// Bumped on every stop/start: work scheduled before is void.
    epoch: u64,
    index: u32,
    next_ip: u32,
    /// Images pulled on this node (those of the scenario's `images:` that are not missing).
    pulled: BTreeSet<String>,
}

/// Where one container is in its life, as its kubelet sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum CPhase {
    /// Not started yet.
    #[default]
    New,
    /// Its image is being pulled.
    Pulling,
    /// Its image could not be pulled (ErrImagePull / ImagePullBackOff / ErrImageNeverPull).
    ImageFailed,
    Running,
    /// A probe failed: the kubelet is stopping it, to restart it.
    Killing,
    /// Its process ended; the kubelet restarts it, after its back-off.
    Exited,
}

/// `flowcontrol.Backoff`'s entry for one key, as the kubelet uses it (10 s doubling to 5 min,
/// no jitter; an entry untouched for twice the maximum has expired).
#[derive(Debug, Clone, Copy, PartialEq)]
struct BackOff {
    period: f64,
    last_update: Timestamp,
}

/// `plegRelistPeriod`: how often the kubelet lists the runtime's containers.
const PLEG_RELIST: f64 = 1.0;

/// `MaxContainerBackOff` and the kubelet's initial back-off (`backOffPeriod`).
const BACKOFF_INITIAL: f64 = 10.0;
const BACKOFF_MAX: f64 = 300.0;

impl BackOff {
    /// `hasExpired`: stable when `event_time` is more than twice the maximum past the entry's
    /// last update.
    fn expired(entry: Option<BackOff>, event_time: Timestamp) -> bool {
        entry.is_none_or(|e| seconds_between(event_time, e.last_update) > 2.0 * BACKOFF_MAX)
    }

    /// `Backoff.IsInBackOffSince(id, eventTime)`.
    fn in_back_off_since(entry: Option<BackOff>, event_time: Timestamp, now: Timestamp) -> bool {
        match entry {
            Some(e) if !BackOff::expired(entry, event_time) => {
                seconds_between(now, event_time) < e.period
            }
            _ => false,
        }
    }

    /// `Backoff.IsInBackOffSinceUpdate(id, now)`.
    fn in_back_off_since_update(entry: Option<BackOff>, now: Timestamp) -> bool {
        match entry {
            Some(e) if !BackOff::expired(entry, now) => {
                seconds_between(now, e.last_update) < e.period
            }
            _ => false,
        }
    }

    /// `Backoff.Next(id, eventTime)`: the first period, or twice the last up to the maximum.
    fn next(entry: Option<BackOff>, event_time: Timestamp, now: Timestamp) -> BackOff {
        let period = match entry {
            Some(e) if !BackOff::expired(entry, event_time) => (e.period * 2.0).min(BACKOFF_MAX),
            _ => BACKOFF_INITIAL,
        };
        BackOff {
            period,
            last_update: now,
        }
    }
}

/// One container of a pod, as its kubelet tracks it.
#[derive(Debug, Clone, Default)]
struct Ctr {
    phase: CPhase,
    /// Bumped at every start: events of an earlier run are void.
    run: u32,
    started_at: Option<Timestamp>,
    finished_at: Option<Timestamp>,
    program: Option<Program>,
    restarts: i32,
    /// The exit code of a kill the kubelet ordered (143 or 137), instead of the program's.
    kill_code: Option<i32>,
    crash_back_off: Option<BackOff>,
    pull_back_off: Option<BackOff>,
    /// Why the last pull failed (the waiting message).
    pull_error: Option<String>,
    /// The startup probe passed (or there is none) in this run.
    started: bool,
    ready: bool,
    /// Per probe kind: consecutive successes and failures in this run.
    streak: [(i32, i32); 3],
    /// Per probe kind: a probe of this run is scheduled.
    ticking: [bool; 3],
    /// Started since the kubelet last scheduled its probes and exit.
    fresh: bool,
}

#[derive(Debug, Clone, Default)]
struct Work {
    node: String,
    starting: bool,
    killing: bool,
    /// One per container of the pod's spec, once the kubelet started the pod.
    ctrs: Vec<Ctr>,
    /// The pod worker's next sync (PodResync) is the one carrying this number.
    resync_gen: u64,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Kubelet {
    nodes: BTreeMap<String, KNode>,
    /// Pod UID → what the kubelet is doing for it.
    work: BTreeMap<String, Work>,
    next_index: u32,
    /// The scenario's registry behaviour per image.
    images: Arc<Images>,
}

fn main_containers(p: &Pod) -> &[Container] {
    p.spec.as_ref().map_or(&[], |s| s.containers.as_slice())
}

fn probe_of(c: &Container, kind: ProbeKind) -> Option<&Probe> {
    match kind {
        ProbeKind::Startup => c.startup_probe.as_ref(),
        ProbeKind::Liveness => c.liveness_probe.as_ref(),
        ProbeKind::Readiness => c.readiness_probe.as_ref(),
    }
}

fn probe_period(p: &Probe) -> f64 {
    f64::from(p.period_seconds.unwrap_or(10).max(1))
}

/// `format.Pod`: how the kubelet names a pod in its messages, `name_namespace(uid)`.
fn pod_full_name(p: &Pod) -> String {
    format!(
        "{}_{}({})",
        p.metadata.name.as_deref().unwrap_or_default(),
        p.metadata.namespace.as_deref().unwrap_or("default"),
        p.metadata.uid.as_deref().unwrap_or_default()
    )
}

/// How a container's exit is reported: `Completed` for 0, `Error` otherwise.
fn exit_reason(code: i32) -> &'static str {
    if code == 0 {
        "Completed"
    } else {
        "Error"
    }
}

/// Node conditions a healthy kubelet posts.
pub(crate) fn ready_conditions(now: Timestamp) -> Vec<NodeCondition> {
    let c = |type_: &str, status: &str, reason: &str, message: &str| NodeCondition {
        type_: type_.into(),
        status: status.into(),
        reason: Some(reason.into()),
        message: Some(message.into()),
        last_heartbeat_time: Some(Time(now)),
        last_transition_time: Some(Time(now)),
    };
    vec![
        c(
            "MemoryPressure",
            "False",
            "KubeletHasSufficientMemory",
            "kubelet has sufficient memory available",
        ),
        c(
            "DiskPressure",
            "False",
            "KubeletHasNoDiskPressure",
            "kubelet has no disk pressure",
        ),
        c(
            "PIDPressure",
            "False",
            "KubeletHasSufficientPID",
            "kubelet has sufficient PID available",
        ),
        c(
            "Ready",
            "True",
            "KubeletReady",
            "kubelet is posting ready status",
        ),
    ]
}

/// The conditions of a kubelet that registered but is not ready yet.
pub(crate) fn not_ready_conditions(now: Timestamp) -> Vec<NodeCondition> {
    let mut cs = ready_conditions(now);
    if let Some(r) = cs.iter_mut().find(|c| c.type_ == "Ready") {
        r.status = "False".into();
        r.reason = Some("KubeletNotReady".into());
        r.message = Some("container runtime status check may not have completed yet".into());
    }
    cs
}

/// Replaces the four kubelet conditions, keeping transition times of unchanged statuses.
fn post_conditions(node: &mut Node, new: Vec<NodeCondition>) {
    let conds = node
        .status
        .get_or_insert_with(Default::default)
        .conditions
        .get_or_insert_with(Vec::new);
    for mut c in new {
        match conds.iter_mut().find(|x| x.type_ == c.type_) {
            Some(existing) => {
                if existing.status == c.status {
                    c.last_transition_time
                        .clone_from(&existing.last_transition_time);
                }
                *existing = c;
            }
            None => conds.push(c),
        }
    }
}

impl Kubelet {
    fn alive(&self, node: &str, epoch: u64) -> bool {
        self.nodes
            .get(node)
            .is_some_and(|k| k.running && k.epoch == epoch)
    }

    fn epoch_of(&self, node: &str) -> Option<u64> {
        self.nodes.get(node).filter(|k| k.running).map(|k| k.epoch)
    }

    /// The pod of `key` and its node, while the kubelet that scheduled this work (`epoch`)
    /// still runs; otherwise why the work is void.
    fn live_pod(
        &self,
        key: &PodKey,
        epoch: u64,
        store: &Store,
    ) -> Result<(Arc<Pod>, String), String> {
        let Some(pod) = store.pod_by_key(key) else {
            return Err(format!("pod {} is gone", key.name));
        };
        let node = node_name(&pod).to_string();
        if !self.alive(&node, epoch) {
            return Err(format!("kubelet on {node} is not running"));
        }
        Ok((pod, node))
    }

    /// [`Kubelet::live_pod`] and its main container number `idx` (a pull's or a probe's).
    fn live_container(
        &self,
        key: &PodKey,
        epoch: u64,
        idx: usize,
        store: &Store,
    ) -> Result<(Arc<Pod>, String, Container), String> {
        let (pod, node) = self.live_pod(key, epoch, store)?;
        let Some(c) = main_containers(&pod).get(idx).cloned() else {
            return Err(format!("{} has no container {idx}", key.name));
        };
        Ok((pod, node, c))
    }

    pub(crate) fn is_running(&self, node: &str) -> bool {
        self.nodes.get(node).is_some_and(|k| k.running)
    }

    /// How many nodes have registered so far (the next one is number `registered() + 1`).
    pub(crate) fn registered(&self) -> u32 {
        self.next_index
    }

    /// A kubelet joins with its node; it posts Ready after `ready_after` seconds (0: already).
    /// Like a real kubelet starting (its pod config source lists the pods bound to its node
    /// before any watch event), it syncs the pods already bound to the node: a node removed
    /// and added again under the same name before pod GC collected them (R-GC-1) finishes the
    /// ones terminating there and runs the others anew, instead of leaving them as they were.
    pub(crate) fn register(&mut self, node: &str, ready_after: f64, store: &Store, s: &mut Sched) {
        self.next_index += 1;
        let k = KNode {
            running: true,
            epoch: 1,
            index: self.next_index,
            next_ip: 2,
            pulled: BTreeSet::new(),
        };
        self.nodes.insert(node.to_string(), k);
        for p in store.pods_on_node(node) {
            s.after_watch(0.0, Ev::KubeletObserve { key: pod_key(&p) });
        }
        if ready_after > 0.0 {
            s.after(
                ready_after,
                Ev::KubeletReady {
                    node: node.to_string(),
                    epoch: 1,
                },
            );
        }
    }

    /// The registration delay is over: post Ready.
    pub(crate) fn kubelet_ready(&mut self, node: &str, epoch: u64, store: &mut Store) -> String {
        if !self.alive(node, epoch) {
            return format!("kubelet on {node} is not running");
        }
        let now = store.now;
        let _ = store.update_node(node, |n| post_conditions(n, ready_conditions(now)));
        format!("kubelet on {node} posts Ready")
    }

    /// `node stop`: the kubelet stops; everything it had scheduled is void.
    pub(crate) fn stop(&mut self, node: &str) {
        if let Some(k) = self.nodes.get_mut(node) {
            k.running = false;
            k.epoch += 1;
        }
        self.work.retain(|_, w| w.node != node);
    }

    /// `node start`: the kubelet resumes, posts Ready and resyncs its pods.
    pub(crate) fn start(&mut self, node: &str, store: &mut Store, s: &mut Sched) {
        let Some(k) = self.nodes.get_mut(node) else {
            return;
        };
        if k.running {
            return;
        }
        k.running = true;
        k.epoch += 1;
        let now = store.now;
        let _ = store.update_node(node, |n| post_conditions(n, ready_conditions(now)));
        for p in store.pods_on_node(node) {
            s.after_watch(0.0, Ev::KubeletObserve { key: pod_key(&p) });
        }
    }

    /// The node object is gone (its VM deleted).
    pub(crate) fn forget(&mut self, node: &str) {
        self.nodes.remove(node);
        self.work.retain(|_, w| w.node != node);
    }

    /// Watch: a pod newly bound to a node, or newly being deleted, wakes its kubelet.
    pub(crate) fn observe(&mut self, ev: &WatchEvent, s: &mut Sched) {
        let Obj::Pod(p) = &ev.obj else {
            return;
        };
        if node_name(p).is_empty() {
            return;
        }
        let wake = match (&ev.kind, &ev.old) {
            (WatchKind::Added, _) => true,
            (WatchKind::Modified, Some(Obj::Pod(old))) => {
                node_name(old).is_empty()
                    || (old.metadata.deletion_timestamp.is_none()
                        && p.metadata.deletion_timestamp.is_some())
            }
            _ => false,
        };
        if wake && self.is_running(node_name(p)) {
            s.after_watch(0.0, Ev::KubeletObserve { key: pod_key(p) });
        }
    }

    /// The scenario's `images:` (each kubelet asks the same registry).
    pub(crate) fn set_images(&mut self, images: Images) {
        self.images = Arc::new(images);
    }

    /// `syncPod`: decide the next step for a pod of this kubelet.
    pub(crate) fn sync_pod(&mut self, key: &PodKey, store: &mut Store, s: &mut Sched) -> String {
        let Some(pod) = store.pod_by_key(key) else {
            return format!("pod {} is gone", key.name);
        };
        let node = node_name(&pod).to_string();
        let Some(epoch) = self.epoch_of(&node) else {
            return format!("kubelet on {node} is not running");
        };
        let work = self.work.entry(key.uid.clone()).or_insert_with(|| Work {
            node: node.clone(),
            ..Default::default()
        });
        if pod.metadata.deletion_timestamp.is_some() {
            if work.killing {
                return format!("pod {} already terminating", key.name);
            }
            work.killing = true;
            for c in &mut work.ctrs {
                c.ticking = [false; 3];
            }
            let grace = pod
                .metadata
                .deletion_grace_period_seconds
                .unwrap_or(30)
                .max(0) as f64;
            let running = phase(&pod) == "Running";
            if running {
                for (field, c) in containers(&pod).filter(|(f, _)| *f == "containers") {
                    store.record_kubelet(
                        "Normal",
                        container_ref(&pod, field, c),
                        "Killing",
                        format!("Stopping container {}", c.name),
                        &node,
                    );
                }
            }
            let exit = if running {
                if s.timing.sigterm_honoured {
                    s.timing.sigterm_exit.min(grace)
                } else {
                    grace
                }
            } else {
                0.0
            };
            let cleanup = s.jittered(s.timing.pod_cleanup);
            s.after(
                exit + cleanup,
                Ev::PodTerminated {
                    key: key.clone(),
                    epoch,
                },
            );
            return format!("SIGTERM to {} (exits in {exit:.1}s)", key.name);
        }
        match phase(&pod) {
            "Pending" | "" if !work.starting && work.ctrs.is_empty() => {
                work.starting = true;
                let d = s.jittered(s.timing.container_start);
                s.after(
                    d,
                    Ev::ContainerStart {
                        key: key.clone(),
                        epoch,
                    },
                );
                format!("starting containers of {}", key.name)
            }
            "Running" if !is_pod_ready(&pod) => {
                if work.ctrs.is_empty() {
                    // The kubelet restarted: it finds the containers as the runtime has them.
                    work.ctrs = adopt_containers(&pod, store.now);
                    for (idx, ctr) in work.ctrs.iter().enumerate() {
                        let now = s.now;
                        schedule_exit(ctr, (key, epoch, idx), now, s);
                    }
                    if work.ctrs.iter().any(|c| c.phase == CPhase::Exited) {
                        let d = s.jittered(s.timing.pleg_relist);
                        resync_after(work, key, epoch, s, d);
                    }
                }
                // After a restart or MarkPodsNotReady: probe again from now.
                let mut what = format!("nothing to do for {}", key.name);
                let mut ready_now = false;
                for (idx, c) in main_containers(&pod).iter().enumerate() {
                    let Some(ctr) = work.ctrs.get_mut(idx) else {
                        continue;
                    };
                    if ctr.phase != CPhase::Running || !ctr.started {
                        continue;
                    }
                    let r = ProbeKind::Readiness;
                    match probe_of(c, r) {
                        None => {
                            ctr.ready = true;
                            ready_now = true;
                            what = format!("{} ready again", key.name);
                        }
                        Some(_) if ctr.ticking[r.index()] => {}
                        Some(probe) => {
                            ctr.ready = false;
                            ctr.streak[r.index()] = (0, 0);
                            ctr.ticking[r.index()] = true;
                            let period = probe_period(probe);
                            let phase = s.rng.next_f64() * s.timing.probe_phase.clamp(0.0, 1.0);
                            s.after(phase * period, probe_ev(key, epoch, idx, r, ctr.run));
                            what = format!("probing {} again", key.name);
                        }
                    }
                }
                if ready_now {
                    let ctrs = work.ctrs.clone();
                    let now = store.now;
                    store.mutate_pod(key, |p| refresh_pod(p, &ctrs, now));
                }
                what
            }
            _ => format!("nothing to do for {}", key.name),
        }
    }

    /// The pod's containers start: phase Running; each container Ready at once without a
    /// readiness probe, otherwise after its probes. A container whose image must be pulled
    /// first waits for it (`ContainerCreating`, or the pull's error).
    pub(crate) fn container_start(
        &mut self,
        key: &PodKey,
        epoch: u64,
        store: &mut Store,
        s: &mut Sched,
    ) -> String {
        let (pod, node) = match self.live_pod(key, epoch, store) {
            Ok(found) => found,
            Err(void) => return void,
        };
        if pod.metadata.deletion_timestamp.is_some() || phase(&pod) != "Pending" {
            return format!("{} no longer needs starting", key.name);
        }
        let now = store.now;
        // The node's InternalIP is the pod's hostIP, and its podIP too with hostNetwork (as
        // node agents and CNI plugins run). Other pods get the next address of the node's pod
        // CIDR: kind's node IPAM gives the n-th node to register 10.244.(n-1).0/24.
        let host_ip = store.node(&node).and_then(|n| internal_ip(&n));
        let host_network = pod
            .spec
            .as_ref()
            .is_some_and(|s| s.host_network == Some(true));
        let ip = match (self.nodes.get_mut(&node), &host_ip) {
            (_, Some(h)) if host_network => h.clone(),
            (Some(k), _) => {
                let ip = format!("10.244.{}.{}", (k.index - 1) % 256, k.next_ip);
                k.next_ip = if k.next_ip >= 254 { 2 } else { k.next_ip + 1 };
                ip
            }
            (None, _) => String::new(),
        };
        // Init containers run to completion in the same instant (the simulated start covers
        // them all); their images are taken as present.
        for (field, c) in containers(&pod).filter(|(f, _)| *f == "initContainers") {
            let r = container_ref(&pod, field, c);
            if c.image_pull_policy.as_deref() != Some("Always") {
                store.record_kubelet("Normal", r.clone(), "Pulled", already_present(c), &node);
            }
            store.record_kubelet(
                "Normal",
                r.clone(),
                "Created",
                "Container created".into(),
                &node,
            );
            store.record_kubelet("Normal", r, "Started", "Container started".into(), &node);
        }
        let mut ctrs = vec![Ctr::default(); main_containers(&pod).len()];
        let mut statuses = Vec::new();
        let mut pulls = Vec::new();
        for (idx, c) in main_containers(&pod).iter().enumerate() {
            let status = match self.ensure_image(&pod, c, &node, &mut ctrs[idx], store) {
                ImageStep::Present => {
                    start_container(&pod, idx, c, &mut ctrs[idx], store, &node, false)
                }
                ImageStep::Pull(after) => {
                    pulls.push((idx, after));
                    waiting_status(&pod, idx, c, &ctrs[idx], "ContainerCreating", None)
                }
                ImageStep::Failed(reason, message) => {
                    waiting_status(&pod, idx, c, &ctrs[idx], reason, Some(message))
                }
            };
            statuses.push(status);
        }
        let init = completed_init_statuses(&pod, now);
        let all_started = ctrs.iter().all(|c| c.phase == CPhase::Running);
        store.mutate_pod(key, |p| {
            let st = p.status.get_or_insert_with(Default::default);
            st.start_time = Some(Time(now));
            st.pod_ip = Some(ip.clone());
            st.pod_ips = Some(vec![PodIP { ip: ip.clone() }]);
            st.host_ip = host_ip.clone();
            st.host_ips = host_ip.clone().map(|ip| vec![HostIP { ip }]);
            st.container_statuses = Some(statuses);
            if !init.is_empty() {
                st.init_container_statuses = Some(init.clone());
            }
            for type_ in ["PodReadyToStartContainers", "Initialized"] {
                set_condition(p, pod_condition(type_, "True", None, now));
            }
            refresh_pod(p, &ctrs, now);
        });
        let w = self.work.entry(key.uid.clone()).or_default();
        w.node = node;
        w.starting = false;
        w.ctrs = ctrs;
        schedule_pulls(&pulls, key, epoch, s);
        schedule_lifecycle(w, &pod, key, epoch, s);
        if w.ctrs.iter().any(|c| c.phase == CPhase::ImageFailed) {
            let d = pod_worker_back_off(s);
            resync_after(w, key, epoch, s, d);
        }
        let probing = w.ctrs.iter().any(|c| c.ticking.iter().any(|t| *t));
        match (all_started, probing) {
            (false, _) => format!("{} waits for its images", key.name),
            (true, true) => format!("started {} (probing)", key.name),
            (true, false) => format!("started {} (ready)", key.name),
        }
    }

    /// `EnsureImageExists` for one container: present, to be pulled (in how many seconds), or
    /// failed (reason and message), with the kubelet's image events.
    fn ensure_image(
        &mut self,
        pod: &Pod,
        c: &Container,
        node: &str,
        ctr: &mut Ctr,
        store: &mut Store,
    ) -> ImageStep {
        let image = c.image.clone().unwrap_or_default();
        let r = container_ref(pod, "containers", c);
        let Some(behaviour) = self.images.get(&image).cloned() else {
            return ImageStep::Present;
        };
        let policy = c.image_pull_policy.as_deref().unwrap_or("IfNotPresent");
        let present = !behaviour.missing
            && self
                .nodes
                .get(node)
                .is_some_and(|k| k.pulled.contains(&image));
        let quoted = apiserver::gofmt::quote(&image);
        if policy == "Never" || (present && policy != "Always") {
            if present {
                return ImageStep::Present;
            }
            let msg = format!("Container image {quoted} is not present with pull policy of Never");
            store.record_kubelet("Warning", r.clone(), "ErrImageNeverPull", msg.clone(), node);
            store.record_kubelet(
                "Warning",
                r,
                "Failed",
                "Error: ErrImageNeverPull".into(),
                node,
            );
            ctr.phase = CPhase::ImageFailed;
            return ImageStep::Failed("ErrImageNeverPull", msg);
        }
        let now = store.now;
        if BackOff::in_back_off_since_update(ctr.pull_back_off, now) {
            store.record_kubelet(
                "Normal",
                r.clone(),
                "BackOff",
                format!("Back-off pulling image {quoted}"),
                node,
            );
            store.record_kubelet(
                "Warning",
                r,
                "Failed",
                "Error: ImagePullBackOff".into(),
                node,
            );
            ctr.phase = CPhase::ImageFailed;
            let why = ctr.pull_error.clone().unwrap_or_default();
            return ImageStep::Failed(
                "ImagePullBackOff",
                format!("Back-off pulling image {quoted}: ErrImagePull: {why}"),
            );
        }
        store.record_kubelet(
            "Normal",
            r,
            "Pulling",
            format!("Pulling image {quoted}"),
            node,
        );
        ctr.phase = CPhase::Pulling;
        ImageStep::Pull(behaviour.pull_seconds.unwrap_or(1.0).max(0.0))
    }

    /// A pull ends: the image is on the node and the container starts, or the pull failed
    /// (ErrImagePull) and is retried after the image back-off.
    pub(crate) fn image_pulled(
        &mut self,
        key: &PodKey,
        epoch: u64,
        idx: usize,
        store: &mut Store,
        s: &mut Sched,
    ) -> String {
        let (pod, node, c) = match self.live_container(key, epoch, idx, store) {
            Ok(found) => found,
            Err(void) => return void,
        };
        let image = c.image.clone().unwrap_or_default();
        let behaviour = self.images.get(&image).cloned().unwrap_or_default();
        let Some(w) = self.work.get_mut(&key.uid).filter(|w| !w.killing) else {
            return format!("{} is not being started", key.name);
        };
        let Some(ctr) = w.ctrs.get_mut(idx).filter(|c| c.phase == CPhase::Pulling) else {
            return format!("{} is not pulling", key.name);
        };
        let r = container_ref(&pod, "containers", &c);
        let quoted = apiserver::gofmt::quote(&image);
        let now = store.now;
        let what;
        let status = if behaviour.missing {
            let (name, _) = pulled_image(&image);
            let error = format!(
                "failed to pull and unpack image {q}: failed to resolve reference {q}: {name}: not found",
                q = apiserver::gofmt::quote(&name)
            );
            let rpc = format!("rpc error: code = NotFound desc = {error}");
            store.record_kubelet(
                "Warning",
                r.clone(),
                "Failed",
                format!("Failed to pull image {quoted}: {rpc}"),
                &node,
            );
            store.record_kubelet("Warning", r, "Failed", "Error: ErrImagePull".into(), &node);
            ctr.pull_back_off = Some(BackOff::next(ctr.pull_back_off, now, now));
            ctr.pull_error = Some(rpc.clone());
            ctr.phase = CPhase::ImageFailed;
            what = format!("pull of {image} for {} failed", key.name);
            waiting_status(&pod, idx, &c, ctr, "ErrImagePull", Some(rpc))
        } else {
            let secs = behaviour.pull_seconds.unwrap_or(0.0);
            let took = apiserver::gofmt::duration(secs);
            let size = image_size(&image);
            store.record_kubelet(
                "Normal",
                r,
                "Pulled",
                format!(
                    "Successfully pulled image {quoted} in {took} ({took} including waiting). \
                     Image size: {size} bytes."
                ),
                &node,
            );
            if let Some(k) = self.nodes.get_mut(&node) {
                k.pulled.insert(image.clone());
            }
            ctr.pull_back_off = None;
            what = format!("pulled {image} for {}", key.name);
            start_container(&pod, idx, &c, ctr, store, &node, true)
        };
        let ctrs = w.ctrs.clone();
        store.mutate_pod(key, |p| {
            set_status(p, idx, status);
            refresh_pod(p, &ctrs, now);
        });
        schedule_lifecycle(w, &pod, key, epoch, s);
        if w.ctrs[idx].phase == CPhase::ImageFailed {
            let d = pod_worker_back_off(s);
            resync_after(w, key, epoch, s, d);
        }
        what
    }

    /// One probe of one container, as the kubelet's prober worker runs it: the result counts
    /// towards `successThreshold`/`failureThreshold`; a failure is recorded as `Unhealthy`; a
    /// failed liveness or startup probe has the container killed and restarted; readiness
    /// follows the readiness probe. The next probe is scheduled until the result can no
    /// longer change (the container's files settled and the probe passes).
    pub(crate) fn probe(
        &mut self,
        key: &PodKey,
        (epoch, idx, kind, run): (u64, usize, ProbeKind, u32),
        store: &mut Store,
        s: &mut Sched,
    ) -> String {
        let (pod, node, c) = match self.live_container(key, epoch, idx, store) {
            Ok(found) => found,
            Err(void) => return void,
        };
        let Some(w) = self.work.get_mut(&key.uid) else {
            return format!("{} is not being probed", key.name);
        };
        let killing = w.killing;
        let Some(ctr) = w.ctrs.get_mut(idx).filter(|c| c.run == run) else {
            return format!("{} is not being probed", key.name);
        };
        ctr.ticking[kind.index()] = false;
        if killing || ctr.phase != CPhase::Running || pod.metadata.deletion_timestamp.is_some() {
            return format!("stopped probing {}", key.name);
        }
        let Some(probe) = probe_of(&c, kind).cloned() else {
            return format!("{} has no {} probe", key.name, kind.title());
        };
        let now = store.now;
        let since = ctr.started_at.map_or(0.0, |t| seconds_between(now, t));
        let result = match (&probe.exec, &ctr.program) {
            (Some(e), program) => {
                let files = program
                    .as_ref()
                    .map(|p| p.files_at(since))
                    .unwrap_or_default();
                let timeout = f64::from(probe.timeout_seconds.unwrap_or(1).max(1));
                exec_probe(e.command.as_deref().unwrap_or_default(), &files, timeout)
            }
            // httpGet, tcpSocket and grpc answer while the container runs.
            (None, _) => ProbeResult::Success,
        };
        let streak = &mut ctr.streak[kind.index()];
        let success_threshold = probe.success_threshold.unwrap_or(1).max(1);
        let failure_threshold = probe.failure_threshold.unwrap_or(3).max(1);
        let r = container_ref(&pod, "containers", &c);
        let mut changed = false;
        let mut kill = None;
        let what;
        match &result {
            ProbeResult::Success => {
                *streak = (streak.0.saturating_add(1), 0);
                what = format!("{} probe of {} succeeded", kind.title(), key.name);
                if streak.0 >= success_threshold {
                    match kind {
                        ProbeKind::Startup if !ctr.started => {
                            ctr.started = true;
                            changed = true;
                        }
                        ProbeKind::Readiness if !ctr.ready => {
                            ctr.ready = true;
                            changed = true;
                        }
                        _ => {}
                    }
                }
            }
            ProbeResult::Failure(out) => {
                *streak = (0, streak.1.saturating_add(1));
                store.record_kubelet(
                    "Warning",
                    r.clone(),
                    "Unhealthy",
                    format!("{} probe failed: {}", kind.title(), out.trim_end()),
                    &node,
                );
                what = format!("{} probe of {} failed", kind.title(), key.name);
                if streak.1 >= failure_threshold {
                    match kind {
                        ProbeKind::Readiness if ctr.ready => {
                            ctr.ready = false;
                            changed = true;
                        }
                        ProbeKind::Liveness | ProbeKind::Startup => kill = Some(kind),
                        _ => {}
                    }
                }
            }
        }
        if let Some(kind) = kill {
            let which = if kind == ProbeKind::Startup {
                "startup"
            } else {
                "liveness"
            };
            store.record_kubelet(
                "Normal",
                r,
                "Killing",
                format!(
                    "Container {} failed {which} probe, will be restarted",
                    c.name
                ),
                &node,
            );
            ctr.phase = CPhase::Killing;
            ctr.ticking = [false; 3];
            let grace = pod
                .spec
                .as_ref()
                .and_then(|s| s.termination_grace_period_seconds)
                .unwrap_or(30)
                .max(0) as f64;
            let (exit, code) = if s.timing.sigterm_honoured {
                (s.timing.sigterm_exit.min(grace), 143)
            } else {
                (grace, 137)
            };
            ctr.kill_code = Some(code);
            let run = ctr.run;
            s.after(
                exit,
                Ev::ContainerExit {
                    key: key.clone(),
                    epoch,
                    idx,
                    run,
                },
            );
            return format!("{what}: killing {}", c.name);
        }
        // The probe's result can no longer change once the files settled and it passes.
        let settled = ctr
            .program
            .as_ref()
            .is_none_or(|p| since >= p.files_settle_at());
        let steady = result == ProbeResult::Success
            && settled
            && match kind {
                ProbeKind::Startup => ctr.started,
                ProbeKind::Readiness => ctr.ready,
                ProbeKind::Liveness => true,
            };
        let run = ctr.run;
        if kind == ProbeKind::Startup && changed {
            // Started: liveness and readiness probes begin.
            start_probes(ctr, &c, key, epoch, idx, s, false);
        } else if !steady {
            ctr.ticking[kind.index()] = true;
            s.after(probe_period(&probe), probe_ev(key, epoch, idx, kind, run));
        }
        if changed {
            let ctrs = w.ctrs.clone();
            store.mutate_pod(key, |p| {
                if let Some(cs) = p
                    .status
                    .as_mut()
                    .and_then(|st| st.container_statuses.as_mut())
                    .and_then(|v| v.get_mut(idx))
                {
                    cs.ready = ctrs[idx].ready;
                    cs.started = Some(ctrs[idx].started);
                }
                refresh_pod(p, &ctrs, now);
            });
        }
        what
    }

    /// A container's process ended (by itself, or killed after a failed probe): it is
    /// `Terminated` with its exit code until the pod worker restarts it.
    pub(crate) fn container_exit(
        &mut self,
        key: &PodKey,
        (epoch, idx, run): (u64, usize, u32),
        store: &mut Store,
        s: &mut Sched,
    ) -> String {
        let (pod, _) = match self.live_pod(key, epoch, store) {
            Ok(found) => found,
            Err(void) => return void,
        };
        let Some(w) = self.work.get_mut(&key.uid).filter(|w| !w.killing) else {
            return format!("{} is being deleted", key.name);
        };
        let Some(ctr) = w
            .ctrs
            .get_mut(idx)
            .filter(|c| c.run == run && matches!(c.phase, CPhase::Running | CPhase::Killing))
        else {
            return format!("{} run {run} is over", key.name);
        };
        let code = ctr
            .kill_code
            .take()
            .unwrap_or(match ctr.program.as_ref().map(|p| p.end) {
                Some(End::Exit { code, .. }) => code,
                _ => 0,
            });
        let what = exit_container(ctr, code, store.now);
        let status = terminated_status(&pod, idx, ctr, code);
        let ctrs = w.ctrs.clone();
        let now = store.now;
        store.mutate_pod(key, |p| {
            set_status(p, idx, status);
            refresh_pod(p, &ctrs, now);
        });
        let d = s.jittered(s.timing.pleg_relist);
        resync_after(w, key, epoch, s, d);
        format!(
            "{} of {}: {what}",
            main_containers(&pod)[idx].name,
            key.name
        )
    }

    /// The pod worker syncs a pod with containers to restart or images to pull again:
    /// `doBackOff` for each exited container (CrashLoopBackOff while the back-off since its exit
    /// lasts, else a restart), `EnsureImageExists` again for each failed image. While anything
    /// is still in back-off, the worker comes back after `wait.Jitter(10s, 0.5)`.
    pub(crate) fn resync(
        &mut self,
        key: &PodKey,
        (epoch, gen): (u64, u64),
        store: &mut Store,
        s: &mut Sched,
    ) -> String {
        let (pod, node) = match self.live_pod(key, epoch, store) {
            Ok(found) => found,
            Err(void) => return void,
        };
        let Some(mut w) = self
            .work
            .remove(&key.uid)
            .filter(|w| !w.killing && w.resync_gen == gen)
        else {
            return format!("{}: stale pod sync", key.name);
        };
        let now = store.now;
        let full = pod_full_name(&pod);
        let mut updates = Vec::new();
        let mut pulls = Vec::new();
        let mut waiting = false;
        let mut what = Vec::new();
        for (idx, c) in main_containers(&pod).iter().enumerate() {
            let Some(ctr) = w.ctrs.get_mut(idx) else {
                continue;
            };
            match ctr.phase {
                CPhase::Exited => {
                    let finished = ctr.finished_at.unwrap_or(now);
                    if BackOff::in_back_off_since(ctr.crash_back_off, finished, now) {
                        let period = ctr.crash_back_off.map_or(BACKOFF_INITIAL, |b| b.period);
                        store.record_kubelet(
                            "Warning",
                            container_ref(&pod, "containers", c),
                            "BackOff",
                            format!(
                                "Back-off restarting failed container {} in pod {full}",
                                c.name
                            ),
                            &node,
                        );
                        let msg = format!(
                            "back-off {} restarting failed container={} pod={full}",
                            apiserver::gofmt::duration(period),
                            c.name
                        );
                        updates.push((
                            idx,
                            waiting_status(&pod, idx, c, ctr, "CrashLoopBackOff", Some(msg)),
                        ));
                        waiting = true;
                        what.push(format!("{} in CrashLoopBackOff", c.name));
                    } else {
                        ctr.crash_back_off = Some(BackOff::next(ctr.crash_back_off, finished, now));
                        ctr.restarts += 1;
                        updates
                            .push((idx, start_container(&pod, idx, c, ctr, store, &node, false)));
                        what.push(format!("restarted {}", c.name));
                    }
                }
                CPhase::ImageFailed => match self.ensure_image(&pod, c, &node, ctr, store) {
                    ImageStep::Present => {
                        updates
                            .push((idx, start_container(&pod, idx, c, ctr, store, &node, false)));
                    }
                    ImageStep::Pull(after) => {
                        pulls.push((idx, after));
                        what.push(format!(
                            "pulling {}",
                            c.image.as_deref().unwrap_or_default()
                        ));
                    }
                    ImageStep::Failed(reason, message) => {
                        updates.push((
                            idx,
                            waiting_status(&pod, idx, c, ctr, reason, Some(message)),
                        ));
                        waiting = true;
                        what.push(format!("{} in {reason}", c.name));
                    }
                },
                _ => {}
            }
        }
        let ctrs = w.ctrs.clone();
        store.mutate_pod(key, |p| {
            for (idx, st) in updates {
                set_status(p, idx, st);
            }
            refresh_pod(p, &ctrs, now);
        });
        schedule_pulls(&pulls, key, epoch, s);
        schedule_lifecycle(&mut w, &pod, key, epoch, s);
        if waiting {
            let d = pod_worker_back_off(s);
            resync_after(&mut w, key, epoch, s, d);
        }
        self.work.insert(key.uid.clone(), w);
        if what.is_empty() {
            format!("{}: nothing to restart", key.name)
        } else {
            format!("{}: {}", key.name, what.join(", "))
        }
    }

    /// The container has exited after deletion: the kubelet removes the pod from the API.
    ///
    /// First the kubelet reports the pod terminal (`generateAPIPodStatus` once every container
    /// stopped: Succeeded when all exited 0, else Failed; a running container killed exits 143
    /// on SIGTERM or 137 when it outlived the grace period), then its status manager deletes it
    /// (`canBeDeleted` → grace 0).
    pub(crate) fn terminated(
        &mut self,
        key: &PodKey,
        epoch: u64,
        store: &mut Store,
        sigterm_honoured: bool,
    ) -> String {
        let (pod, _) = match self.live_pod(key, epoch, store) {
            Ok(found) => found,
            Err(void) => return void,
        };
        self.work.remove(&key.uid);
        let now = store.now;
        let killed = if sigterm_honoured { 143 } else { 137 };
        if !controller::pod_util::is_pod_terminal(&pod) {
            store.mutate_pod(key, |p| {
                let st = p.status.get_or_insert_with(Default::default);
                let mut all_zero = true;
                for cs in st.container_statuses.iter_mut().flatten() {
                    let state = cs.state.clone().unwrap_or_default();
                    let terminated = match (state.running, state.terminated) {
                        (Some(r), _) => ContainerStateTerminated {
                            exit_code: killed,
                            reason: Some("Error".into()),
                            started_at: r.started_at,
                            finished_at: Some(Time(now)),
                            container_id: cs.container_id.clone(),
                            ..Default::default()
                        },
                        (None, Some(t)) => t,
                        // Never started: as `convertToAPIContainerStatuses` reports it.
                        (None, None) => ContainerStateTerminated {
                            exit_code: 137,
                            reason: Some("ContainerStatusUnknown".into()),
                            message: Some(
                                "The container could not be located when the pod was terminated"
                                    .into(),
                            ),
                            finished_at: Some(Time(now)),
                            ..Default::default()
                        },
                    };
                    all_zero &= terminated.exit_code == 0;
                    cs.ready = false;
                    cs.started = Some(false);
                    cs.state = Some(ContainerState {
                        terminated: Some(terminated),
                        ..Default::default()
                    });
                }
                st.phase = Some(if all_zero { "Succeeded" } else { "Failed" }.into());
                set_ready(p, false, now);
            });
        }
        store.remove_pod(&key.ns, &key.name);
        format!("{} terminated and removed", key.name)
    }

    /// `pod crash`: the first running container's process exits now with `code`; the kubelet
    /// restarts it as for any exit.
    pub(crate) fn crash(
        &mut self,
        key: &PodKey,
        code: i32,
        store: &mut Store,
        s: &mut Sched,
    ) -> Result<String, String> {
        let pod = store
            .pod_by_key(key)
            .ok_or_else(|| format!("pod {} is gone", key.name))?;
        let node = node_name(&pod).to_string();
        let epoch = self
            .epoch_of(&node)
            .ok_or_else(|| format!("the kubelet on {node:?} is stopped"))?;
        let w = self
            .work
            .get_mut(&key.uid)
            .filter(|w| !w.killing)
            .ok_or_else(|| format!("pod {:?} has no running container", key.name))?;
        let (idx, ctr) = w
            .ctrs
            .iter_mut()
            .enumerate()
            .find(|(_, c)| c.phase == CPhase::Running)
            .ok_or_else(|| format!("pod {:?} has no running container", key.name))?;
        ctr.kill_code = Some(code);
        let run = ctr.run;
        Ok(self.container_exit(key, (epoch, idx, run), store, s))
    }

    /// `pod fail`: the kubelet's eviction manager evicts the pod for node memory pressure
    /// (`evictPod`): its containers are killed, phase Failed, reason Evicted, a DisruptionTarget
    /// condition and an `Evicted` event. This is how a DaemonSet pod becomes Failed.
    pub(crate) fn fail(&mut self, key: &PodKey, store: &mut Store) {
        let Some(pod) = self.stop_work(key, store) else {
            return;
        };
        let node = node_name(&pod).to_string();
        let used: Vec<String> = main_containers(&pod)
            .iter()
            .map(|c| {
                let kib = 180_000 + u64::from_str_radix(&crate::rng::hex_id(&c.name, 1)[..4], 16).unwrap_or(0);
                format!(
                    "Container {} was using {kib}Ki, request is 0, has larger consumption of memory. ",
                    c.name
                )
            })
            .collect();
        let message = format!(
            "The node was low on resource: memory. Threshold quantity: 100Mi, available: 94208Ki. {}",
            used.concat()
        );
        store.record_kubelet(
            "Warning",
            reference("Pod", "v1", &pod.metadata),
            "Evicted",
            message.clone(),
            &node,
        );
        record_killing(&pod, &node, store);
        let condition = pod_condition(
            "DisruptionTarget",
            "True",
            Some(("TerminationByKubelet", &message)),
            store.now,
        );
        terminal_status(key, "Evicted", message, Some(condition), store);
    }

    /// `pod fail --reason OutOfcpu|OutOfmemory`: the kubelet rejects the pod when it admits it
    /// again (`HandlePodAdditions` → `canAdmitPod` → `rejectPod`), as after a restart that
    /// found less allocatable than its pods request: a Warning event with the predicate's
    /// reason and message, phase Failed, reason `OutOf…`, message `Pod was rejected: …`, and
    /// its containers killed. No DisruptionTarget condition: `rejectPod` sets none.
    pub(crate) fn reject(
        &mut self,
        key: &PodKey,
        reason: &str,
        message: String,
        store: &mut Store,
    ) {
        let Some(pod) = self.stop_work(key, store) else {
            return;
        };
        let node = node_name(&pod).to_string();
        store.record_kubelet(
            "Warning",
            reference("Pod", "v1", &pod.metadata),
            reason,
            message.clone(),
            &node,
        );
        record_killing(&pod, &node, store);
        terminal_status(
            key,
            reason,
            format!("Pod was rejected: {message}"),
            None,
            store,
        );
    }

    /// The pod's containers stop for good (its work ends); the pod as it is now.
    fn stop_work(&mut self, key: &PodKey, store: &Store) -> Option<Arc<Pod>> {
        let pod = store.pod_by_key(key)?;
        if let Some(w) = self.work.get_mut(&key.uid) {
            for c in &mut w.ctrs {
                c.ticking = [false; 3];
                c.phase = CPhase::Exited;
                c.run += 1;
            }
            w.starting = false;
            w.resync_gen += 1;
        }
        Some(pod)
    }
}

/// `Killing` "Stopping container X" for each container of a running pod the kubelet stops.
fn record_killing(pod: &Pod, node: &str, store: &mut Store) {
    if phase(pod) == "Running" {
        for c in main_containers(pod) {
            store.record_kubelet(
                "Normal",
                container_ref(pod, "containers", c),
                "Killing",
                format!("Stopping container {}", c.name),
                node,
            );
        }
    }
}

/// A pod the kubelet ends: phase Failed with `reason` and `message`, each container terminated
/// (137 if it ran), `condition` if any, and not Ready.
fn terminal_status(
    key: &PodKey,
    reason: &str,
    message: String,
    condition: Option<PodCondition>,
    store: &mut Store,
) {
    let now = store.now;
    store.mutate_pod(key, |p| {
        // Containers that had not started yet exit at once with the pod; the kubelet
        // reports each as it finds it.
        let unstarted = p
            .status
            .as_ref()
            .is_none_or(|st| st.container_statuses.as_ref().is_none_or(Vec::is_empty));
        if unstarted {
            let statuses = new_container_statuses(p, None);
            p.status
                .get_or_insert_with(Default::default)
                .container_statuses = Some(statuses);
        }
        let st = p.status.get_or_insert_with(Default::default);
        st.phase = Some("Failed".into());
        st.reason = Some(reason.into());
        st.message = Some(message.clone());
        for cs in st.container_statuses.iter_mut().flatten() {
            let started = cs
                .state
                .as_ref()
                .and_then(|s| s.running.as_ref())
                .and_then(|r| r.started_at.clone());
            // Killed (SIGKILL) if it ran; one that never ran is reported as
            // `convertToAPIContainerStatuses` reports a container missing from a terminal pod.
            let (reason, message) = match &started {
                Some(_) => ("Error", None),
                None => (
                    "ContainerStatusUnknown",
                    Some("The container could not be located when the pod was terminated".into()),
                ),
            };
            cs.ready = false;
            cs.started = Some(false);
            cs.state = Some(ContainerState {
                terminated: Some(ContainerStateTerminated {
                    exit_code: 137,
                    reason: Some(reason.into()),
                    message,
                    started_at: started,
                    finished_at: Some(Time(now)),
                    container_id: cs.container_id.clone(),
                    ..Default::default()
                }),
                ..Default::default()
            });
        }
        if let Some(c) = condition {
            set_condition(p, c);
        }
        set_ready(p, false, now);
    });
}

/// What `EnsureImageExists` found.
enum ImageStep {
    Present,
    /// A pull is under way; it ends after this many seconds.
    Pull(f64),
    /// Waiting reason and message.
    Failed(&'static str, String),
}

/// `Container image "…" already present on machine and can be accessed by the pod`.
fn already_present(c: &Container) -> String {
    let image = apiserver::gofmt::quote(c.image.as_deref().unwrap_or_default());
    format!("Container image {image} already present on machine and can be accessed by the pod")
}

/// A pulled image's size in bytes, as the registry would report it: follows from the name.
fn image_size(image: &str) -> u64 {
    let h = crate::rng::hex_id(image, 1);
    4_000_000 + u64::from_str_radix(&h[..6], 16).unwrap_or(0) * 3
}

/// The pod worker's retry after a sync that left something in back-off:
/// `wait.Jitter(backOffPeriod = 10s, 0.5)`.
fn pod_worker_back_off(s: &mut Sched) -> f64 {
    BACKOFF_INITIAL * (1.0 + 0.5 * s.rng.next_f64())
}

/// Schedules the pod worker's next sync of the pod after `secs` (an earlier one still
/// pending becomes stale: this one does its work).
/// Each image pull that started ends, `after` seconds on, in an `ImagePulled` for its container.
fn schedule_pulls(pulls: &[(usize, f64)], key: &PodKey, epoch: u64, s: &mut Sched) {
    for &(idx, after) in pulls {
        let key = key.clone();
        s.after(after, Ev::ImagePulled { key, epoch, idx });
    }
}

fn resync_after(w: &mut Work, key: &PodKey, epoch: u64, s: &mut Sched, secs: f64) {
    w.resync_gen += 1;
    s.after(
        secs,
        Ev::PodResync {
            key: key.clone(),
            epoch,
            gen: w.resync_gen,
        },
    );
}

/// For containers that just started: their first probes, and the end of their process.
fn schedule_lifecycle(w: &mut Work, pod: &Pod, key: &PodKey, epoch: u64, s: &mut Sched) {
    let now = s.now;
    for (idx, (ctr, c)) in w.ctrs.iter_mut().zip(main_containers(pod)).enumerate() {
        if !std::mem::take(&mut ctr.fresh) {
            continue;
        }
        if ctr.phase == CPhase::Exited {
            // Exited before the kubelet first saw it run: the pod worker syncs again.
            let d = s.jittered(s.timing.pleg_relist);
            w.resync_gen += 1;
            s.after(
                d,
                Ev::PodResync {
                    key: key.clone(),
                    epoch,
                    gen: w.resync_gen,
                },
            );
            continue;
        }
        if ctr.phase != CPhase::Running {
            continue;
        }
        start_probes(ctr, c, key, epoch, idx, s, true);
        schedule_exit(ctr, (key, epoch, idx), now, s);
    }
}

fn probe_ev(key: &PodKey, epoch: u64, idx: usize, kind: ProbeKind, run: u32) -> Ev {
    Ev::Probe {
        key: key.clone(),
        epoch,
        idx,
        kind,
        run,
    }
}

/// Schedules a container's first probes of a run: the startup probe alone while there is one
/// and it has not passed; otherwise readiness, then liveness, each after
/// `initialDelaySeconds` plus a phase in the probe period (`first` run of the pod: the delay
/// counts from the container's start, as after any start).
fn start_probes(
    ctr: &mut Ctr,
    c: &Container,
    key: &PodKey,
    epoch: u64,
    idx: usize,
    s: &mut Sched,
    from_start: bool,
) {
    let kinds: &[ProbeKind] = if !ctr.started && c.startup_probe.is_some() {
        &[ProbeKind::Startup]
    } else {
        &[ProbeKind::Readiness, ProbeKind::Liveness]
    };
    for &kind in kinds {
        let Some(probe) = probe_of(c, kind) else {
            continue;
        };
        let delay = if from_start {
            f64::from(probe.initial_delay_seconds.unwrap_or(0).max(0))
        } else {
            0.0
        };
        let period = probe_period(probe);
        let phase = s.rng.next_f64() * s.timing.probe_phase.clamp(0.0, 1.0);
        ctr.ticking[kind.index()] = true;
        ctr.streak[kind.index()] = (0, 0);
        s.after(
            delay + phase * period,
            probe_ev(key, epoch, idx, kind, ctr.run),
        );
    }
}

/// The kubelet starts (or restarts) container `idx`: a new run of its process, with the
/// events `Pulled` (image present; not when `just_pulled`: the pull said so), `Created` and
/// `Started`. Returns its running status.
fn start_container(
    pod: &Pod,
    idx: usize,
    c: &Container,
    ctr: &mut Ctr,
    store: &mut Store,
    node: &str,
    just_pulled: bool,
) -> ContainerStatus {
    let now = store.now;
    let r = container_ref(pod, "containers", c);
    if !just_pulled && c.image_pull_policy.as_deref() != Some("Always") {
        store.record_kubelet("Normal", r.clone(), "Pulled", already_present(c), node);
    }
    store.record_kubelet(
        "Normal",
        r.clone(),
        "Created",
        "Container created".into(),
        node,
    );
    store.record_kubelet("Normal", r, "Started", "Container started".into(), node);
    ctr.run += 1;
    ctr.phase = CPhase::Running;
    ctr.started_at = Some(now);
    ctr.program = Some(Program::of_container(
        c.command.as_deref(),
        c.args.as_deref(),
    ));
    ctr.started = c.startup_probe.is_none();
    ctr.ready = ctr.started && c.readiness_probe.is_none();
    ctr.streak = [(0, 0); 3];
    ctr.ticking = [false; 3];
    ctr.kill_code = None;
    ctr.fresh = true;
    // A process that ends before the PLEG's next relist is never seen running: the kubelet's
    // first report of it is its exit, so the pod is never Ready.
    if let Some(End::Exit { after, code }) = ctr.program.as_ref().map(|p| p.end) {
        if after < PLEG_RELIST {
            exit_container(ctr, code, plus(now, after));
            return terminated_status(pod, idx, ctr, code);
        }
    }
    let uid = pod.metadata.uid.as_deref().unwrap_or_default();
    let id = container_id(uid, idx, ctr.run);
    ContainerStatus {
        ready: ctr.ready,
        started: Some(ctr.started),
        restart_count: ctr.restarts,
        state: Some(ContainerState {
            running: Some(ContainerStateRunning {
                started_at: Some(Time(now)),
            }),
            ..Default::default()
        }),
        last_state: last_state(pod, idx),
        ..status_of(c, id)
    }
}

/// The process of a container ended with `code` at `now`.
fn exit_container(ctr: &mut Ctr, code: i32, now: Timestamp) -> String {
    ctr.phase = CPhase::Exited;
    ctr.finished_at = Some(now);
    ctr.ready = false;
    ctr.started = false;
    ctr.ticking = [false; 3];
    format!("exited with code {code}")
}

/// The status of a container whose process just ended.
fn terminated_status(pod: &Pod, idx: usize, ctr: &Ctr, code: i32) -> ContainerStatus {
    let uid = pod.metadata.uid.as_deref().unwrap_or_default();
    let id = container_id(uid, idx, ctr.run);
    let c = &main_containers(pod)[idx];
    ContainerStatus {
        ready: false,
        started: Some(false),
        restart_count: ctr.restarts,
        state: Some(ContainerState {
            terminated: Some(ContainerStateTerminated {
                exit_code: code,
                reason: Some(exit_reason(code).into()),
                started_at: ctr.started_at.map(Time),
                finished_at: ctr.finished_at.map(Time),
                container_id: Some(id.clone()),
                ..Default::default()
            }),
            ..Default::default()
        }),
        last_state: last_state(pod, idx),
        ..status_of(c, id)
    }
}

/// A waiting container's status: `reason` and `message`; its last run, if any, as
/// `lastState.terminated`.
fn waiting_status(
    pod: &Pod,
    idx: usize,
    c: &Container,
    ctr: &Ctr,
    reason: &str,
    message: Option<String>,
) -> ContainerStatus {
    let uid = pod.metadata.uid.as_deref().unwrap_or_default();
    let (last, id) = if ctr.run > 0 {
        (
            current_terminated(pod, idx).or_else(|| last_state(pod, idx)),
            Some(container_id(uid, idx, ctr.run)),
        )
    } else {
        (None, None)
    };
    ContainerStatus {
        ready: false,
        started: Some(false),
        restart_count: ctr.restarts,
        state: Some(ContainerState {
            waiting: Some(ContainerStateWaiting {
                reason: Some(reason.into()),
                message,
            }),
            ..Default::default()
        }),
        last_state: last,
        container_id: id,
        ..status_of(c, String::new())
    }
}

/// The container's current state, when it is `terminated`, as a last state.
fn current_terminated(pod: &Pod, idx: usize) -> Option<ContainerState> {
    let cs = pod.status.as_ref()?.container_statuses.as_ref()?.get(idx)?;
    cs.state
        .as_ref()
        .filter(|s| s.terminated.is_some())
        .map(|s| ContainerState {
            terminated: s.terminated.clone(),
            ..Default::default()
        })
}

/// What `lastState` a new status of container `idx` carries: the run that ended last.
fn last_state(pod: &Pod, idx: usize) -> Option<ContainerState> {
    let cs = pod.status.as_ref()?.container_statuses.as_ref()?.get(idx)?;
    current_terminated(pod, idx)
        .or_else(|| cs.last_state.clone().filter(|s| s.terminated.is_some()))
}

fn set_status(p: &mut Pod, idx: usize, status: ContainerStatus) {
    if let Some(v) = p
        .status
        .get_or_insert_with(Default::default)
        .container_statuses
        .as_mut()
    {
        if let Some(slot) = v.get_mut(idx) {
            *slot = status;
        }
    }
}

/// The pod's phase and readiness from its containers (`getPhase`, `GeneratePodReadyCondition`):
/// Pending while a container has never started; Ready and ContainersReady while every
/// container is ready, else False with the names of those that are not.
fn refresh_pod(p: &mut Pod, ctrs: &[Ctr], now: Timestamp) {
    let never_ran = ctrs.iter().any(|c| c.run == 0);
    let phase = if never_ran { "Pending" } else { "Running" };
    p.status.get_or_insert_with(Default::default).phase = Some(phase.into());
    let unready: Vec<String> = main_containers(p)
        .iter()
        .zip(ctrs)
        .filter(|(_, c)| !c.ready)
        .map(|(s, _)| s.name.clone())
        .collect();
    if unready.is_empty() {
        set_ready(p, true, now);
        return;
    }
    let msg = format!("containers with unready status: [{}]", unready.join(" "));
    for type_ in ["ContainersReady", "Ready"] {
        set_condition(
            p,
            pod_condition(type_, "False", Some(("ContainersNotReady", &msg)), now),
        );
    }
}

/// After a kubelet restart: the containers as the runtime still has them (running ones keep
/// their run; a finished one is restarted by the next pod sync).
fn adopt_containers(pod: &Pod, now: Timestamp) -> Vec<Ctr> {
    let statuses = pod
        .status
        .as_ref()
        .and_then(|s| s.container_statuses.clone())
        .unwrap_or_default();
    main_containers(pod)
        .iter()
        .enumerate()
        .map(|(idx, c)| {
            let cs = statuses.get(idx);
            let state = cs.and_then(|s| s.state.clone()).unwrap_or_default();
            let mut ctr = Ctr {
                run: 1,
                restarts: cs.map_or(0, |s| s.restart_count),
                program: Some(Program::of_container(
                    c.command.as_deref(),
                    c.args.as_deref(),
                )),
                ..Default::default()
            };
            if let Some(r) = state.running {
                ctr.phase = CPhase::Running;
                ctr.started_at = Some(r.started_at.map_or(now, |t| t.0));
                ctr.started = cs.and_then(|s| s.started).unwrap_or(true);
                ctr.ready = cs.is_some_and(|s| s.ready);
            } else {
                ctr.phase = CPhase::Exited;
                ctr.finished_at = state
                    .terminated
                    .and_then(|t| t.finished_at)
                    .map(|t| t.0)
                    .or(Some(now));
            }
            ctr
        })
        .collect()
}

/// The pod's init containers, then its containers, each with the field of the spec that holds
/// it: the order in which the kubelet starts them.
fn containers(pod: &Pod) -> impl Iterator<Item = (&'static str, &Container)> {
    let spec = pod.spec.as_ref();
    let init = spec
        .into_iter()
        .flat_map(|s| s.init_containers.iter().flatten());
    let main = spec.into_iter().flat_map(|s| s.containers.iter());
    init.map(|c| ("initContainers", c))
        .chain(main.map(|c| ("containers", c)))
}

/// The reference a kubelet's event gives for one container: the pod, with the field path
/// `spec.containers{name}` (or `spec.initContainers{name}`).
fn container_ref(pod: &Pod, field: &str, c: &Container) -> ObjectReference {
    ObjectReference {
        field_path: Some(format!("spec.{field}{{{}}}", c.name)),
        ..reference("Pod", "v1", &pod.metadata)
    }
}

/// `containerd://` and 64 hex digits, as containerd names a container: they follow from the
/// pod's uid, the container's place and its run (a restart is a new container), so a replay
/// gives the same and no random number is drawn.
fn container_id(pod_uid: &str, index: usize, run: u32) -> String {
    let seed = if run <= 1 {
        format!("{pod_uid}/{index}")
    } else {
        format!("{pod_uid}/{index}/{run}")
    };
    format!("containerd://{}", crate::rng::hex_id(&seed, 4))
}

/// A status per container of the pod's spec, as the kubelet first reports them: running since
/// `started` (ready at once without a readiness probe), or with no state yet.
fn new_container_statuses(p: &Pod, started: Option<Timestamp>) -> Vec<ContainerStatus> {
    let uid = p.metadata.uid.as_deref().unwrap_or_default();
    p.spec
        .iter()
        .flat_map(|s| s.containers.iter())
        .enumerate()
        .map(|(i, c)| ContainerStatus {
            ready: started.is_some() && c.readiness_probe.is_none(),
            started: Some(started.is_some()),
            state: started.map(|t| ContainerState {
                running: Some(ContainerStateRunning {
                    started_at: Some(Time(t)),
                }),
                ..Default::default()
            }),
            ..status_of(c, container_id(uid, i, 1))
        })
        .collect()
}

/// What every status of container `c` says whatever its state: its name, image, image ID and
/// container ID; restarts 0.
fn status_of(c: &Container, id: String) -> ContainerStatus {
    let (image, image_id) = pulled_image(c.image.as_deref().unwrap_or_default());
    ContainerStatus {
        name: c.name.clone(),
        image,
        image_id,
        container_id: Some(id),
        restart_count: 0,
        ..Default::default()
    }
}

/// An image reference as containerd reports it in a container's status (kind's runtime): the
/// name normalised as Docker's `ParseNormalizedNamed` does (`nginx:1.25` →
/// `docker.io/library/nginx:1.25`, `prom/x` → `docker.io/prom/x:latest`, a registry host —
/// a first component with `.` or `:`, or `localhost` — kept), and the image ID,
/// `<name>@sha256:<digest>`: the reference's own digest, or one that follows from the name
/// alone (the simulation pulls nothing).
fn pulled_image(reference: &str) -> (String, String) {
    let (name, digest) = match reference.split_once('@') {
        Some((name, digest)) => (name, Some(digest)),
        None => (reference, None),
    };
    let last_slash = name.rfind('/').map_or(0, |i| i + 1);
    let (path, tag) = match name[last_slash..].find(':') {
        Some(i) => (&name[..last_slash + i], Some(&name[last_slash + i + 1..])),
        None => (name, None),
    };
    let repository = match path.split_once('/') {
        Some((first, rest))
            if first.contains(['.', ':'])
                || first == "localhost"
                || first.bytes().any(|b| b.is_ascii_uppercase()) =>
        {
            let host = if first == "index.docker.io" {
                "docker.io"
            } else {
                first
            };
            format!("{host}/{rest}")
        }
        Some(_) => format!("docker.io/{path}"),
        None => format!("docker.io/library/{path}"),
    };
    let image = match (tag, digest) {
        (Some(tag), Some(digest)) => format!("{repository}:{tag}@{digest}"),
        (Some(tag), None) => format!("{repository}:{tag}"),
        (None, Some(digest)) => format!("{repository}@{digest}"),
        (None, None) => format!("{repository}:latest"),
    };
    let digest = match digest {
        Some(d) => d.to_string(),
        None => format!("sha256:{}", crate::rng::hex_id(&image, 4)),
    };
    (image, format!("{repository}@{digest}"))
}

/// The init containers' statuses once they have all run: each exited 0 (`Completed`) and is
/// ready, as the kubelet reports a finished init container. They run in the same instant as
/// the containers start: the simulated start time covers them all.
fn completed_init_statuses(p: &Pod, now: Timestamp) -> Vec<ContainerStatus> {
    let uid = p.metadata.uid.as_deref().unwrap_or_default();
    p.spec
        .iter()
        .flat_map(|s| s.init_containers.iter().flatten())
        .enumerate()
        .map(|(i, c)| {
            let id = container_id(&format!("{uid}/init"), i, 1);
            ContainerStatus {
                ready: true,
                started: Some(false),
                state: Some(ContainerState {
                    terminated: Some(ContainerStateTerminated {
                        exit_code: 0,
                        reason: Some("Completed".into()),
                        started_at: Some(Time(now)),
                        finished_at: Some(Time(now)),
                        container_id: Some(id.clone()),
                        ..Default::default()
                    }),
                    ..Default::default()
                }),
                ..status_of(c, id)
            }
        })
        .collect()
}

/// Ready and ContainersReady to `ready` (transition time kept when unchanged).
fn set_ready(p: &mut Pod, ready: bool, now: Timestamp) {
    let status = if ready { "True" } else { "False" };
    if let Some(st) = p.status.as_mut() {
        for cs in st.container_statuses.iter_mut().flatten() {
            if cs.state.as_ref().is_some_and(|s| s.running.is_some()) {
                cs.ready = ready;
            }
        }
    }
    for type_ in ["ContainersReady", "Ready"] {
        set_condition(p, pod_condition(type_, status, None, now));
    }
}

/// A running container whose program ends by itself exits when its run time is up, counted
/// from its start (a container found running after a kubelet restart keeps its start).
fn schedule_exit(
    ctr: &Ctr,
    (key, epoch, idx): (&PodKey, u64, usize),
    now: Timestamp,
    s: &mut Sched,
) {
    if let (CPhase::Running, Some(End::Exit { after, .. })) =
        (ctr.phase, ctr.program.as_ref().map(|p| p.end))
    {
        let ran = ctr.started_at.map_or(0.0, |t| seconds_between(now, t));
        s.after(
            (after - ran).max(0.0),
            Ev::ContainerExit {
                key: key.clone(),
                epoch,
                idx,
                run: ctr.run,
            },
        );
    }
}

/// A node's InternalIP, as its kubelet reports it.
fn internal_ip(node: &Node) -> Option<String> {
    node.status
        .as_ref()?
        .addresses
        .iter()
        .flatten()
        .find(|a| a.type_ == "InternalIP")
        .map(|a| a.address.clone())
}

#[cfg(test)]
mod tests {
    use super::pulled_image;

    #[test]
    fn an_image_is_reported_as_containerd_names_it() {
        let cases = [
            ("nginx", "docker.io/library/nginx:latest"),
            ("nginx:1.25", "docker.io/library/nginx:1.25"),
            (
                "prom/node-exporter:v1.8.1",
                "docker.io/prom/node-exporter:v1.8.1",
            ),
            ("registry.k8s.io/pause:3.9", "registry.k8s.io/pause:3.9"),
            ("localhost:5000/agent", "localhost:5000/agent:latest"),
            ("localhost/agent:v1", "localhost/agent:v1"),
            (
                "index.docker.io/library/busybox:1",
                "docker.io/library/busybox:1",
            ),
            ("quay.io/org/team/app:2", "quay.io/org/team/app:2"),
        ];
        for (reference, image) in cases {
            let (got, id) = pulled_image(reference);
            assert_eq!(got, image, "{reference}");
            let repository = image.rsplit_once(':').map_or(image, |(r, _)| r);
            let (id_repo, digest) = id.split_once("@sha256:").unwrap();
            assert_eq!(id_repo, repository, "{reference}");
            assert_eq!(digest.len(), 64, "{id}");
            assert!(digest
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        }
    }

    #[test]
    fn a_digest_in_the_reference_is_the_image_id() {
        let d = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
        let (image, id) = pulled_image(&format!("gke.gcr.io/agent@{d}"));
        assert_eq!(image, format!("gke.gcr.io/agent@{d}"));
        assert_eq!(id, format!("gke.gcr.io/agent@{d}"));
        let (image, id) = pulled_image(&format!("fluentd:v1@{d}"));
        assert_eq!(image, format!("docker.io/library/fluentd:v1@{d}"));
        assert_eq!(id, format!("docker.io/library/fluentd@{d}"));
    }

    #[test]
    fn the_same_name_gets_the_same_id_and_another_tag_another() {
        assert_eq!(
            pulled_image("nginx:1.25").1,
            pulled_image("docker.io/library/nginx:1.25").1
        );
        assert_ne!(pulled_image("nginx:1.25").1, pulled_image("nginx:1.26").1);
    }
}
