//! One `syncDaemonSet` at 100, 1,000 and 5,000 nodes:
//! - `fresh`: a new DaemonSet, first sync (revision snapshot, up to 250 creates, status write);
//! - `steady`: every pod present, bound, Ready and current: nothing to do, no writes at all;
//! - `rollout`: template changed, maxUnavailable 10%, half the pods updated: one wave of
//!   deletes (capped at 250) and a status write;
//! - `rollout-warm`: maxUnavailable 1, half the pods updated, and the controller has synced
//!   this rollout before: the last wave's pod was replaced by an updated, Ready one since. One
//!   delete (the next wave) and a status write: the sync of each wave of a long rollout.
//!
//! The caches are the unit harness's `Fake`; pods live in an indexed store so that a delete
//! costs O(1) and the figures are the controller's, not the fake's linear scans. For
//! `rollout-warm` the pods are also kept by name and the lister tells what changed
//! (`pods_version`, `pods_changed_since`), as the virtual cluster's informer cache does.

#[path = "../tests/support/mod.rs"]
mod support;
use support::*;

use controller::client::{ApiError, Client, Listers, ObjectPatch, RecordedEvent};
use controller::keys::{POD_TEMPLATE_GENERATION_LABEL, TEMPLATE_GENERATION_ANNOTATION};
use controller::{DaemonSetsController, MapOrder};
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet, DaemonSetStatus};
use k8s_openapi::api::core::v1::{Node, Pod};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use std::collections::{BTreeMap, HashMap};
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

const SIZES: [usize; 3] = [100, 1_000, 5_000];
const DS: &str = "ds";
const KEY: &str = "default/ds";

/// The harness's caches, with pods indexed by name.
struct Cluster {
    fake: Fake,
    index: HashMap<String, usize>,
    seq: u64,
    creates: usize,
    deletes: usize,
    /// `rollout-warm`: the pods by name (listed in name order), and a change log.
    by_name: Option<BTreeMap<String, Arc<Pod>>>,
    version: u64,
    log: Vec<(u64, String)>,
}

impl Cluster {
    fn new(
        ds: &DaemonSet,
        nodes: &[Arc<Node>],
        pods: &[Arc<Pod>],
        revs: &[Arc<ControllerRevision>],
    ) -> Self {
        let mut fake = Fake::new();
        fake.add_ds(ds.clone());
        fake.nodes = nodes.to_vec();
        fake.pods = pods.to_vec();
        fake.revisions = revs.to_vec();
        let index = pods
            .iter()
            .enumerate()
            .map(|(i, p)| (p.metadata.name.clone().unwrap_or_default(), i))
            .collect();
        Cluster {
            fake,
            index,
            seq: 0,
            creates: 0,
            deletes: 0,
            by_name: None,
            version: 0,
            log: Vec::new(),
        }
    }

    /// Keeps the pods by name too, and logs changes (the `rollout-warm` lister). Created pods
    /// are numbered past the scenario's.
    fn logged(mut self) -> Self {
        let by_name = self
            .fake
            .pods
            .iter()
            .map(|p| (name(p), p.clone()))
            .collect();
        self.by_name = Some(by_name);
        self.seq = 1_000_000;
        self
    }

    /// Puts `pod` in place of the pod of the same name (or adds it).
    fn put(&mut self, pod: Arc<Pod>) {
        let name = name(&pod);
        match self.index.get(&name) {
            Some(&i) => self.fake.pods[i] = pod.clone(),
            None => {
                self.index.insert(name.clone(), self.fake.pods.len());
                self.fake.pods.push(pod.clone());
            }
        }
        if let Some(by_name) = self.by_name.as_mut() {
            by_name.insert(name.clone(), pod);
            self.version += 1;
            self.log.push((self.version, name));
        }
    }
}

fn name(pod: &Pod) -> String {
    pod.metadata.name.clone().unwrap_or_default()
}

impl Listers for Cluster {
    fn daemon_set(&self, namespace: &str, name: &str) -> Option<Arc<DaemonSet>> {
        self.fake.daemon_set(namespace, name)
    }
    fn daemon_sets(&self, namespace: &str) -> Vec<Arc<DaemonSet>> {
        self.fake.daemon_sets(namespace)
    }
    fn all_daemon_sets(&self) -> Vec<Arc<DaemonSet>> {
        self.fake.all_daemon_sets()
    }
    fn nodes(&self) -> Vec<Arc<Node>> {
        self.fake.nodes()
    }
    fn node(&self, name: &str) -> Option<Arc<Node>> {
        self.fake.node(name)
    }
    fn pods(&self, namespace: &str) -> Vec<Arc<Pod>> {
        match &self.by_name {
            Some(by_name) => by_name.values().cloned().collect(),
            None => self.fake.pods(namespace),
        }
    }
    fn pod(&self, _namespace: &str, name: &str) -> Option<Arc<Pod>> {
        self.index.get(name).map(|&i| self.fake.pods[i].clone())
    }
    fn revisions(&self, namespace: &str) -> Vec<Arc<ControllerRevision>> {
        self.fake.revisions(namespace)
    }
    fn pods_version(&self) -> Option<u64> {
        self.by_name.as_ref().map(|_| self.version)
    }
    fn pods_changed_since(&self, _namespace: &str, since: u64) -> Option<Vec<String>> {
        self.by_name.as_ref()?;
        let start = self.log.partition_point(|e| e.0 <= since);
        Some(self.log[start..].iter().map(|e| e.1.clone()).collect())
    }
}

impl Client for Cluster {
    /// A random Go-map order, as the virtual cluster gives each sync (the listing order
    /// would skip the shuffles).
    fn map_order(&mut self) -> MapOrder {
        MapOrder::Seeded(0x5eed)
    }
    fn get_daemon_set(&mut self, namespace: &str, name: &str) -> Result<DaemonSet, ApiError> {
        self.fake.get_daemon_set(namespace, name)
    }
    fn update_daemon_set_status(&mut self, ds: &DaemonSet) -> Result<DaemonSet, ApiError> {
        self.fake.update_daemon_set_status(ds)
    }
    fn create_pod(&mut self, namespace: &str, mut pod: Pod) -> Result<Pod, ApiError> {
        self.creates += 1;
        self.seq += 1;
        let name = format!(
            "{}{:05}",
            pod.metadata.generate_name.as_deref().unwrap_or(""),
            self.seq
        );
        pod.metadata.name = Some(name.clone());
        pod.metadata.namespace = Some(namespace.to_string());
        self.put(Arc::new(pod.clone()));
        Ok(pod)
    }
    fn delete_pod(&mut self, _namespace: &str, name: &str) -> Result<(), ApiError> {
        self.deletes += 1;
        let i = self.index.remove(name).ok_or_else(|| ApiError::NotFound {
            resource: "pods".into(),
            name: name.into(),
        })?;
        self.fake.pods.swap_remove(i);
        if let Some(moved) = self.fake.pods.get(i) {
            self.index
                .insert(moved.metadata.name.clone().unwrap_or_default(), i);
        }
        if let Some(by_name) = self.by_name.as_mut() {
            by_name.remove(name);
            self.version += 1;
            self.log.push((self.version, name.to_string()));
        }
        Ok(())
    }
    fn patch_pod(
        &mut self,
        namespace: &str,
        name: &str,
        patch: &ObjectPatch,
    ) -> Result<(), ApiError> {
        self.fake.patch_pod(namespace, name, patch)
    }
    fn create_revision(
        &mut self,
        namespace: &str,
        revision: ControllerRevision,
    ) -> Result<ControllerRevision, ApiError> {
        self.fake.create_revision(namespace, revision)
    }
    fn get_revision(
        &mut self,
        namespace: &str,
        name: &str,
    ) -> Result<ControllerRevision, ApiError> {
        self.fake.get_revision(namespace, name)
    }
    fn update_revision(
        &mut self,
        revision: &ControllerRevision,
    ) -> Result<ControllerRevision, ApiError> {
        self.fake.update_revision(revision)
    }
    fn patch_revision(
        &mut self,
        namespace: &str,
        name: &str,
        patch: &ObjectPatch,
    ) -> Result<(), ApiError> {
        self.fake.patch_revision(namespace, name, patch)
    }
    fn delete_revision(&mut self, namespace: &str, name: &str) -> Result<(), ApiError> {
        self.fake.delete_revision(namespace, name)
    }
    fn record_event(&mut self, event: RecordedEvent) {
        self.fake.record_event(event)
    }
    fn observes_synchronously(&self) -> bool {
        true
    }
}

/// A DaemonSet as the apiserver stores it: RollingUpdate, template-generation annotation.
fn daemon_set(max_unavailable: IntOrString, template_generation: i64) -> DaemonSet {
    let mut ds = new_daemon_set(DS);
    ds.spec.update_strategy = Some(update_unavailable(max_unavailable));
    ds.metadata.generation = Some(template_generation);
    ds.metadata.annotations = Some(BTreeMap::from([(
        TEMPLATE_GENERATION_ANNOTATION.to_string(),
        template_generation.to_string(),
    )]));
    ds
}

fn nodes(n: usize) -> Vec<Arc<Node>> {
    (0..n)
        .map(|i| {
            let name = format!("node-{i:05}");
            let l = labels(&[
                ("kubernetes.io/hostname", &name),
                ("kubernetes.io/os", "linux"),
                ("topology.kubernetes.io/zone", ["a", "b", "c"][i % 3]),
            ]);
            Arc::new(new_node(&name, Some(l)))
        })
        .collect()
}

/// The DS's ControllerRevisions, one per template in order, as the controller snapshots them.
fn revisions(templates: &[&DaemonSet]) -> Vec<Arc<ControllerRevision>> {
    let mut ctl = DaemonSetsController::new();
    let mut c = Cluster::new(templates[0], &[], &[], &[]);
    for (i, ds) in templates.iter().enumerate() {
        c.fake.add_ds((*ds).clone());
        ctl.sync_daemon_set(&mut c, KEY, at(i as i64))
            .expect("snapshot");
    }
    c.fake.revisions
}

/// A Running, Ready (long ago), bound pod of `ds`'s current template on `node`.
fn running_pod(i: usize, node: &Node, ds: &DaemonSet) -> Arc<Pod> {
    let node_name = node.metadata.name.as_deref().unwrap();
    let mut pod = new_pod(&format!("ds-{i:05}"), node_name, &l1(), ds);
    let generation = ds.metadata.generation.unwrap().to_string();
    pod.metadata
        .labels
        .get_or_insert_with(Default::default)
        .insert(POD_TEMPLATE_GENERATION_LABEL.into(), generation);
    pod.metadata.creation_timestamp = Some(time(-3600));
    pod.spec.get_or_insert_with(Default::default).affinity =
        Some(controller::util::replace_daemon_set_pod_node_name_node_affinity(None, node_name));
    set_phase(&mut pod, "Running");
    set_ready(&mut pod, true, Some(at(-3000)));
    Arc::new(pod)
}

fn status(n: usize, updated: usize, generation: i64) -> DaemonSetStatus {
    let n = n as i32;
    DaemonSetStatus {
        desired_number_scheduled: n,
        current_number_scheduled: n,
        number_ready: n,
        number_available: Some(n),
        number_unavailable: Some(0),
        number_misscheduled: 0,
        updated_number_scheduled: Some(updated as i32),
        observed_generation: Some(generation),
        ..Default::default()
    }
}

/// The inputs of one scenario, shared (Arc) between iterations.
struct Scenario {
    ds: DaemonSet,
    nodes: Vec<Arc<Node>>,
    pods: Vec<Arc<Pod>>,
    revisions: Vec<Arc<ControllerRevision>>,
}

impl Scenario {
    fn cluster(&self) -> Cluster {
        Cluster::new(&self.ds, &self.nodes, &self.pods, &self.revisions)
    }
}

fn fresh(n: usize) -> Scenario {
    Scenario {
        ds: daemon_set(IntOrString::Int(1), 1),
        nodes: nodes(n),
        pods: Vec::new(),
        revisions: Vec::new(),
    }
}

fn steady(n: usize) -> Scenario {
    let mut ds = daemon_set(IntOrString::Int(1), 1);
    let nodes = nodes(n);
    let pods = nodes
        .iter()
        .enumerate()
        .map(|(i, node)| running_pod(i, node, &ds))
        .collect();
    let revisions = revisions(&[&ds]);
    ds.status = Some(status(n, n, 1));
    Scenario {
        ds,
        nodes,
        pods,
        revisions,
    }
}

fn rollout(n: usize) -> Scenario {
    rollout_by(n, IntOrString::String("10%".into()))
}

fn rollout_by(n: usize, max_unavailable: IntOrString) -> Scenario {
    let v1 = daemon_set(max_unavailable, 1);
    let mut v2 = v1.clone();
    v2.metadata.generation = Some(2);
    v2.metadata
        .annotations
        .get_or_insert_with(Default::default)
        .insert(TEMPLATE_GENERATION_ANNOTATION.into(), "2".into());
    template_spec(&mut v2).containers[0].image = Some("foo/bar:v2".into());
    let nodes = nodes(n);
    let pods = nodes
        .iter()
        .enumerate()
        .map(|(i, node)| running_pod(i, node, if i % 2 == 0 { &v2 } else { &v1 }))
        .collect();
    let revisions = revisions(&[&v1, &v2]);
    v2.status = Some(status(n, n.div_ceil(2), 2));
    Scenario {
        ds: v2,
        nodes,
        pods,
        revisions,
    }
}

/// `rollout-warm`'s state: maxUnavailable 1, half the pods updated, a controller that has
/// synced the rollout so far, and the next sync's wave ready to go.
struct Warm {
    ctl: DaemonSetsController,
    c: Cluster,
    old_left: usize,
}

impl Warm {
    fn new(n: usize) -> Self {
        let s = rollout_by(n, IntOrString::Int(1));
        let mut w = Warm {
            ctl: DaemonSetsController::new(),
            c: s.cluster().logged(),
            old_left: n / 2,
        };
        w.next_wave();
        w
    }

    /// Until the next sync deletes an old pod: syncs (the first deletes one, the next
    /// creates its replacement), and the replacement turns Ready.
    fn next_wave(&mut self) {
        loop {
            let (creates, deletes, _) = sync(&mut self.ctl, &mut self.c);
            self.old_left -= deletes;
            if creates == 1 {
                let created = self.c.fake.pods.last().cloned().expect("the updated pod");
                let mut ready = (*created).clone();
                ready.metadata.creation_timestamp = Some(time(-1));
                set_phase(&mut ready, "Running");
                set_ready(&mut ready, true, Some(at(-1)));
                self.c.put(Arc::new(ready));
                return;
            }
            if self.old_left == 0 {
                return;
            }
        }
    }
}

/// The measured sync of `rollout-warm`: one delete and a status write.
fn ctl_sync(w: &mut Warm) {
    let (creates, deletes, writes) = sync(&mut w.ctl, black_box(&mut w.c));
    debug_assert_eq!((creates, deletes, writes), (0, 1, 1));
    w.old_left -= deletes;
}

/// One sync; returns (creates, deletes, status writes).
fn sync(ctl: &mut DaemonSetsController, c: &mut Cluster) -> (usize, usize, usize) {
    c.creates = 0;
    c.deletes = 0;
    c.fake.status_update_calls = 0;
    ctl.sync_daemon_set(c, KEY, at(0)).expect("sync");
    (c.creates, c.deletes, c.fake.status_update_calls)
}

fn bench(cr: &mut Criterion) {
    let mut group = cr.benchmark_group("controller_sync");
    group.measurement_time(Duration::from_secs(4));
    group.warm_up_time(Duration::from_secs(1));
    for n in SIZES {
        let s = fresh(n);
        let ctl = DaemonSetsController::new();
        assert_eq!(sync(&mut ctl.clone(), &mut s.cluster()), (n.min(250), 0, 1));
        group.bench_with_input(BenchmarkId::new("fresh", n), &n, |b, _| {
            b.iter_batched(
                || (ctl.clone(), s.cluster()),
                |(mut ctl, mut c)| {
                    ctl.sync_daemon_set(&mut c, KEY, at(0)).unwrap();
                    (ctl, c)
                },
                BatchSize::LargeInput,
            )
        });

        let s = steady(n);
        let mut ctl = DaemonSetsController::new();
        let mut c = s.cluster();
        let revisions_before = c.fake.revisions.len();
        assert_eq!(sync(&mut ctl, &mut c), (0, 0, 0));
        assert_eq!(c.fake.revisions.len(), revisions_before);
        assert!(c.fake.events.is_empty() && c.fake.pod_patches.is_empty());
        group.bench_with_input(BenchmarkId::new("steady", n), &n, |b, _| {
            b.iter(|| ctl.sync_daemon_set(black_box(&mut c), KEY, at(0)).unwrap())
        });
        assert_eq!(c.fake.status_update_calls, 0, "steady state must not write");

        let s = rollout(n);
        let ctl = DaemonSetsController::new();
        let wave = (n.div_ceil(10)).min(250);
        assert_eq!(sync(&mut ctl.clone(), &mut s.cluster()), (0, wave, 1));
        group.bench_with_input(BenchmarkId::new("rollout", n), &n, |b, _| {
            b.iter_batched(
                || (ctl.clone(), s.cluster()),
                |(mut ctl, mut c)| {
                    ctl.sync_daemon_set(&mut c, KEY, at(0)).unwrap();
                    (ctl, c)
                },
                BatchSize::LargeInput,
            )
        });

        // Warm: the measured sync deletes the next wave's old pod; between two measured
        // syncs (not timed) a sync creates the updated pod on the emptied node and the pod
        // turns Ready. One controller throughout, as in a cluster (a clone per iteration
        // would share the caches' `Arc`s and make every in-place update a copy).
        group.bench_with_input(BenchmarkId::new("rollout-warm", n), &n, |b, _| {
            let mut warm = Warm::new(n);
            b.iter_custom(|iters| {
                let mut timed = Duration::ZERO;
                for _ in 0..iters {
                    if warm.old_left == 0 {
                        warm = Warm::new(n);
                    }
                    let start = Instant::now();
                    ctl_sync(&mut warm);
                    timed += start.elapsed();
                    warm.next_wave();
                }
                timed
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
