//! The kubelets, one per node: they post node status (Ready after registration or restart),
//! start the containers of bound pods (`container_start`), run readiness probes
//! (`initialDelaySeconds` after start plus a first-probe phase, then every `periodSeconds`,
//! Ready after `successThreshold` successes; probes succeed unless the pod failed), and
//! terminate deleted pods (SIGTERM, then the grace period unless the container honours
//! SIGTERM) before removing them from the API. A stopped kubelet does nothing: its pods and its
//! node status freeze, and its Lease stops being renewed.
//!
//! It records the events a kubelet records for each container, with the container's field path:
//! `Pulled` (every image is already on every node), `Created` and `Started` when the
//! containers start, init containers first, and `Killing` when a running pod is deleted. An
//! image whose `imagePullPolicy` is `Always` would be pulled again, with `Pulling` and a
//! `Pulled` that gives the pull's time and the image's size: registries are not simulated, so
//! such a container gets no image event rather than an invented one.
//!
//! Owns per-pod work in flight and per-node kubelet state; knows nothing of controllers.

use k8s_openapi::api::core::v1::{
    Container, ContainerState, ContainerStateRunning, ContainerStateTerminated, ContainerStatus,
    HostIP, Node, NodeCondition, ObjectReference, Pod, PodCondition, PodIP, Probe,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;
use std::collections::BTreeMap;

use controller::pod_util::{is_pod_ready, node_name, phase};

use crate::engine::{Ev, PodKey, Sched};
use crate::scheduler::{pod_key, set_condition};
use crate::store::{reference, Obj, Store, WatchEvent, WatchKind};

#[derive(Debug, Clone)]
struct KNode {
    running: bool,
    /// Bumped on every stop/start: work scheduled before is void.
    epoch: u64,
    index: u32,
    next_ip: u32,
}

#[derive(Debug, Clone, Default)]
struct Work {
    node: String,
    starting: bool,
    probing: bool,
    killing: bool,
    successes: i32,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Kubelet {
    nodes: BTreeMap<String, KNode>,
    /// Pod UID → what the kubelet is doing for it.
    work: BTreeMap<String, Work>,
    next_index: u32,
}

/// The readiness probe the kubelet runs for the pod (the first container that has one).
fn readiness_probe(p: &Pod) -> Option<&Probe> {
    p.spec
        .as_ref()?
        .containers
        .iter()
        .find_map(|c| c.readiness_probe.as_ref())
}

fn unready_names(p: &Pod) -> Vec<String> {
    p.spec
        .iter()
        .flat_map(|s| s.containers.iter())
        .filter(|c| c.readiness_probe.is_some())
        .map(|c| c.name.clone())
        .collect()
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

    pub(crate) fn is_running(&self, node: &str) -> bool {
        self.nodes.get(node).is_some_and(|k| k.running)
    }

    /// How many nodes have registered so far (the next one is number `registered() + 1`).
    pub(crate) fn registered(&self) -> u32 {
        self.next_index
    }

    /// A kubelet joins with its node; it posts Ready after `ready_after` seconds (0: already).
    pub(crate) fn register(&mut self, node: &str, ready_after: f64, s: &mut Sched) {
        self.next_index += 1;
        let k = KNode {
            running: true,
            epoch: 1,
            index: self.next_index,
            next_ip: 2,
        };
        self.nodes.insert(node.to_string(), k);
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
            work.probing = false;
            let grace = pod
                .metadata
                .deletion_grace_period_seconds
                .unwrap_or(30)
                .max(0) as f64;
            let running = phase(&pod) == "Running";
            if running {
                for (field, c) in containers(&pod).filter(|(f, _)| *f == "containers") {
                    store.record_kubelet_event(
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
            "Pending" | "" if !work.starting => {
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
            "Running" if !is_pod_ready(&pod) && !work.probing => {
                // After a restart or MarkPodsNotReady: probe again from now.
                match readiness_probe(&pod) {
                    None => {
                        let now = store.now;
                        store.mutate_pod(key, |p| set_ready(p, true, now));
                        format!("{} ready again", key.name)
                    }
                    Some(probe) => {
                        let period = f64::from(probe.period_seconds.unwrap_or(10).max(1));
                        work.probing = true;
                        work.successes = 0;
                        let phase = s.rng.next_f64() * s.timing.probe_phase.clamp(0.0, 1.0);
                        s.after(
                            phase * period,
                            Ev::Probe {
                                key: key.clone(),
                                epoch,
                            },
                        );
                        format!("probing {} again", key.name)
                    }
                }
            }
            _ => format!("nothing to do for {}", key.name),
        }
    }

    /// Containers are running: phase Running; Ready at once without a readiness probe,
    /// otherwise after the probes.
    pub(crate) fn container_start(
        &mut self,
        key: &PodKey,
        epoch: u64,
        store: &mut Store,
        s: &mut Sched,
    ) -> String {
        let Some(pod) = store.pod_by_key(key) else {
            return format!("pod {} is gone", key.name);
        };
        let node = node_name(&pod).to_string();
        if !self.alive(&node, epoch) {
            return format!("kubelet on {node} is not running");
        }
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
        for (field, c) in containers(&pod) {
            let r = container_ref(&pod, field, c);
            if c.image_pull_policy.as_deref() != Some("Always") {
                let image = apiserver::gofmt::quote(c.image.as_deref().unwrap_or_default());
                store.record_kubelet_event(
                    r.clone(),
                    "Pulled",
                    format!(
                        "Container image {image} already present on machine and can be \
                         accessed by the pod"
                    ),
                    &node,
                );
            }
            store.record_kubelet_event(r.clone(), "Created", "Container created".into(), &node);
            store.record_kubelet_event(r, "Started", "Container started".into(), &node);
        }
        let probe = readiness_probe(&pod).cloned();
        let ready = probe.is_none();
        let unready = unready_names(&pod);
        let init = completed_init_statuses(&pod, now);
        store.mutate_pod(key, |p| {
            let statuses = new_container_statuses(p, Some(now));
            let st = p.status.get_or_insert_with(Default::default);
            st.phase = Some("Running".into());
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
                set_condition(
                    p,
                    PodCondition {
                        type_: type_.into(),
                        status: "True".into(),
                        last_transition_time: Some(Time(now)),
                        ..Default::default()
                    },
                );
            }
            if ready {
                set_ready(p, true, now);
            } else {
                let msg = format!("containers with unready status: [{}]", unready.join(" "));
                for type_ in ["ContainersReady", "Ready"] {
                    set_condition(
                        p,
                        PodCondition {
                            type_: type_.into(),
                            status: "False".into(),
                            reason: Some("ContainersNotReady".into()),
                            message: Some(msg.clone()),
                            last_transition_time: Some(Time(now)),
                            ..Default::default()
                        },
                    );
                }
            }
        });
        let w = self.work.entry(key.uid.clone()).or_default();
        w.node = node;
        w.starting = false;
        if let Some(probe) = probe {
            let delay = f64::from(probe.initial_delay_seconds.unwrap_or(0).max(0));
            let period = f64::from(probe.period_seconds.unwrap_or(10).max(1));
            let phase = s.rng.next_f64() * s.timing.probe_phase.clamp(0.0, 1.0);
            w.probing = true;
            w.successes = 0;
            s.after(
                delay + phase * period,
                Ev::Probe {
                    key: key.clone(),
                    epoch,
                },
            );
            format!("started {} (probing)", key.name)
        } else {
            format!("started {} (ready)", key.name)
        }
    }

    /// One readiness probe.
    pub(crate) fn probe(
        &mut self,
        key: &PodKey,
        epoch: u64,
        store: &mut Store,
        s: &mut Sched,
    ) -> String {
        let Some(pod) = store.pod_by_key(key) else {
            return format!("pod {} is gone", key.name);
        };
        let node = node_name(&pod).to_string();
        if !self.alive(&node, epoch) {
            return format!("kubelet on {node} is not running");
        }
        let Some(w) = self.work.get_mut(&key.uid).filter(|w| w.probing) else {
            return format!("{} is not being probed", key.name);
        };
        if pod.metadata.deletion_timestamp.is_some() || phase(&pod) != "Running" {
            w.probing = false;
            return format!("stopped probing {}", key.name);
        }
        let Some(probe) = readiness_probe(&pod) else {
            w.probing = false;
            return format!("{} has no readiness probe", key.name);
        };
        w.successes += 1;
        if w.successes >= probe.success_threshold.unwrap_or(1).max(1) {
            w.probing = false;
            let now = store.now;
            store.mutate_pod(key, |p| set_ready(p, true, now));
            return format!("{} is ready", key.name);
        }
        let period = f64::from(probe.period_seconds.unwrap_or(10).max(1));
        s.after(
            period,
            Ev::Probe {
                key: key.clone(),
                epoch,
            },
        );
        format!("probe of {} succeeded ({} so far)", key.name, w.successes)
    }

    /// The container exited after deletion: the kubelet removes the pod from the API.
    pub(crate) fn terminated(&mut self, key: &PodKey, epoch: u64, store: &mut Store) -> String {
        let Some(pod) = store.pod_by_key(key) else {
            return format!("pod {} is gone", key.name);
        };
        let node = node_name(&pod).to_string();
        if !self.alive(&node, epoch) {
            return format!("kubelet on {node} is not running");
        }
        self.work.remove(&key.uid);
        store.remove_pod(&key.ns, &key.name);
        format!("{} terminated and removed", key.name)
    }

    /// `pod fail`: the container exits non-zero; phase Failed.
    pub(crate) fn fail(&mut self, key: &PodKey, store: &mut Store) {
        if let Some(w) = self.work.get_mut(&key.uid) {
            w.probing = false;
            w.starting = false;
        }
        let now = store.now;
        store.mutate_pod(key, |p| {
            // Containers that had not started yet (the caller checked the pod is bound to a
            // running kubelet's node): they exit at once, as when the command fails, and the
            // kubelet reports them so.
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
            for cs in st.container_statuses.iter_mut().flatten() {
                let started = cs
                    .state
                    .as_ref()
                    .and_then(|s| s.running.as_ref())
                    .and_then(|r| r.started_at.clone());
                cs.ready = false;
                cs.started = Some(false);
                cs.state = Some(ContainerState {
                    terminated: Some(ContainerStateTerminated {
                        exit_code: 1,
                        reason: Some("Error".into()),
                        started_at: started,
                        finished_at: Some(Time(now)),
                        container_id: cs.container_id.clone(),
                        ..Default::default()
                    }),
                    ..Default::default()
                });
            }
            set_ready(p, false, now);
        });
    }
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
/// pod's uid and the container's place, so a replay gives the same and no random number is drawn.
fn container_id(pod_uid: &str, index: usize) -> String {
    format!(
        "containerd://{}",
        crate::rng::hex_id(&format!("{pod_uid}/{index}"), 4)
    )
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
            ..status_of(c, container_id(uid, i))
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
            let id = container_id(&format!("{uid}/init"), i);
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
        set_condition(
            p,
            PodCondition {
                type_: type_.into(),
                status: status.into(),
                last_transition_time: Some(Time(now)),
                ..Default::default()
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
