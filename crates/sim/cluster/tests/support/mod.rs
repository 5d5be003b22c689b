//! The set-up of `reference/field-measurements.md`: a 5-node kind cluster and the busybox
//! DaemonSets of the experiments, plus helpers to read status tuples off a run.
#![allow(dead_code)]

use cluster::{Cluster, Timing, TraceKind};
use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::{Node, Pod, Taint};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

pub const WORKERS: [&str; 4] = ["worker", "worker2", "worker3", "worker4"];

pub fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(s)
}

pub fn node(name: &str, labels: &[(&str, &str)], taints: Vec<Taint>) -> Node {
    Node {
        metadata: ObjectMeta {
            name: Some(name.into()),
            labels: Some(
                labels
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .chain([("kubernetes.io/hostname".to_string(), name.to_string())])
                    .collect(),
            ),
            ..Default::default()
        },
        spec: Some(k8s_openapi::api::core::v1::NodeSpec {
            taints: (!taints.is_empty()).then_some(taints),
            ..Default::default()
        }),
        status: None,
    }
}

pub fn taint(key: &str, value: &str, effect: &str) -> Taint {
    Taint {
        key: key.into(),
        value: (!value.is_empty()).then(|| value.to_string()),
        effect: effect.into(),
        time_added: None,
    }
}

/// control-plane (tainted NoSchedule) + worker, worker2..4, all Ready at t=0.
pub fn kind_cluster(seed: u64) -> Cluster {
    kind_cluster_with(seed, Timing::default())
}

pub fn kind_cluster_with(seed: u64, timing: Timing) -> Cluster {
    let mut c = Cluster::new(seed, timing);
    c.add_node(node(
        "control-plane",
        &[("node-role.kubernetes.io/control-plane", "")],
        vec![taint(
            "node-role.kubernetes.io/control-plane",
            "",
            "NoSchedule",
        )],
    ))
    .expect("control plane");
    for w in WORKERS {
        c.add_node(node(w, &[], vec![])).expect("worker");
    }
    c
}

/// The busybox DaemonSet of the experiments, as YAML.
pub struct Busybox {
    pub name: &'static str,
    pub probe: bool,
    pub grace: Option<i64>,
    pub strategy: &'static str,
    pub node_selector: Option<&'static str>,
    pub extra_spec: &'static str,
}

impl Busybox {
    pub fn new(name: &'static str) -> Self {
        Busybox {
            name,
            probe: false,
            grace: None,
            strategy: "",
            node_selector: None,
            extra_spec: "",
        }
    }

    /// F-4/F-5 shape: readiness probe 3 s / 1 s, grace 3 s, RollingUpdate maxUnavailable n.
    pub fn rolling(name: &'static str, max_unavailable: u32) -> Self {
        let strategy: &'static str = match max_unavailable {
            1 => "  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxUnavailable: 1\n",
            _ => "  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxUnavailable: 2\n",
        };
        Busybox {
            name,
            probe: true,
            grace: Some(3),
            strategy,
            node_selector: None,
            extra_spec: "",
        }
    }

    pub fn yaml(&self) -> String {
        let mut y = format!(
            "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: {n}\nspec:\n  selector:\n    matchLabels:\n      app: {n}\n{s}  template:\n    metadata:\n      labels:\n        app: {n}\n    spec:\n",
            n = self.name,
            s = self.strategy
        );
        if let Some(g) = self.grace {
            y.push_str(&format!("      terminationGracePeriodSeconds: {g}\n"));
        }
        if let Some(sel) = self.node_selector {
            y.push_str(&format!("      nodeSelector:\n        {sel}\n"));
        }
        y.push_str(self.extra_spec);
        y.push_str("      containers:\n      - name: app\n        image: busybox:1.36\n        command: [\"sleep\", \"infinity\"]\n        env:\n        - name: FOO\n          value: \"1\"\n");
        if self.probe {
            y.push_str("        readinessProbe:\n          exec:\n            command: [\"true\"]\n          initialDelaySeconds: 3\n          periodSeconds: 1\n");
        }
        y
    }

    pub fn daemon_set(&self) -> DaemonSet {
        match apiserver::decode_manifests("ds.yaml", &self.yaml()) {
            Ok(ms) => match ms.into_iter().next() {
                Some(apiserver::Manifest::DaemonSet(ds, _)) => *ds,
                other => panic!("not a DaemonSet: {other:?}"),
            },
            Err(e) => panic!("{e}\n{}", self.yaml()),
        }
    }
}

/// (updatedNumberScheduled, numberReady, numberUnavailable) of the stored status.
pub type Tuple = (i32, i32, i32);

pub fn tuple(ds: &DaemonSet) -> Tuple {
    let s = ds.status.clone().unwrap_or_default();
    (
        s.updated_number_scheduled.unwrap_or(0),
        s.number_ready,
        s.number_unavailable.unwrap_or(0),
    )
}

pub fn status_of(c: &Cluster, name: &str) -> Tuple {
    c.daemon_set("default", name)
        .map(|d| tuple(&d))
        .unwrap_or((-1, -1, -1))
}

/// Status fully observed and equal to `t`.
pub fn status_is(c: &Cluster, name: &str, t: Tuple, desired: i32) -> bool {
    c.daemon_set("default", name).is_some_and(|d| {
        let s = d.status.clone().unwrap_or_default();
        tuple(&d) == t
            && s.desired_number_scheduled == desired
            && s.observed_generation == d.metadata.generation
    })
}

/// Every stored status change of `name` from trace index `from` on: (t, tuple).
pub fn status_changes(c: &Cluster, name: &str, from: usize) -> Vec<(f64, Tuple)> {
    let mut out: Vec<(f64, Tuple)> = Vec::new();
    for e in &c.trace()[from..] {
        if let TraceKind::DaemonSetStatus {
            name: n, status, ..
        } = &e.kind
        {
            if n == name {
                let t = (
                    status.updated_number_scheduled.unwrap_or(0),
                    status.number_ready,
                    status.number_unavailable.unwrap_or(0),
                );
                if out.last().map(|(_, x)| *x) != Some(t) {
                    out.push((e.t, t));
                }
            }
        }
    }
    out
}

/// What a poller sampling every 0.2 s (as in the experiment) reliably sees: states held for at
/// least `min_hold` seconds (the last state is always kept), consecutive repeats merged.
pub fn poller_view(changes: &[(f64, Tuple)], min_hold: f64) -> Vec<(f64, Tuple)> {
    let mut out: Vec<(f64, Tuple)> = Vec::new();
    for (i, (t, tup)) in changes.iter().enumerate() {
        let held = changes.get(i + 1).map_or(f64::INFINITY, |(n, _)| n - t);
        if held >= min_hold && out.last().map(|(_, x)| x) != Some(tup) {
            out.push((*t, *tup));
        }
    }
    out
}

/// Live (not terminating) pods of the cluster, by target node.
pub fn live_pods_by_node(c: &Cluster) -> BTreeMap<String, Vec<Arc<Pod>>> {
    let mut m: BTreeMap<String, Vec<Arc<Pod>>> = BTreeMap::new();
    for p in c.pods() {
        if p.metadata.deletion_timestamp.is_none() {
            let n = controller::util::get_target_node_name(&p)
                .unwrap_or("")
                .to_string();
            m.entry(n).or_default().push(p);
        }
    }
    m
}

pub fn live_pod_on(c: &Cluster, node: &str) -> Option<Arc<Pod>> {
    live_pods_by_node(c)
        .remove(node)
        .and_then(|v| v.into_iter().next())
}

pub fn bound_live_pod_on(c: &Cluster, node: &str) -> bool {
    live_pod_on(c, node).is_some_and(|p| controller::pod_util::node_name(&p) == node)
}

pub fn set_env(c: &mut Cluster, ds: &str, value: &str) {
    let v = value.to_string();
    c.update_daemon_set("default", ds, move |d| {
        if let Some(spec) = d.spec.template.spec.as_mut() {
            for ctr in &mut spec.containers {
                for e in ctr.env.iter_mut().flatten() {
                    if e.name == "FOO" {
                        e.value = Some(v.clone());
                    }
                }
            }
        }
    })
    .expect("update");
}

pub fn label_node(c: &mut Cluster, node: &str, key: &str, value: Option<&str>) {
    let (k, v) = (key.to_string(), value.map(str::to_string));
    c.update_node(node, move |n| {
        let labels = n.metadata.labels.get_or_insert_with(BTreeMap::new);
        match v {
            Some(v) => {
                labels.insert(k, v);
            }
            None => {
                labels.remove(&k);
            }
        }
    })
    .expect("label");
}

pub fn set_taints(c: &mut Cluster, node: &str, taints: Vec<Taint>) {
    c.update_node(node, move |n| {
        let spec = n.spec.get_or_insert_with(Default::default);
        let mut ts: Vec<Taint> = spec
            .taints
            .take()
            .unwrap_or_default()
            .into_iter()
            .filter(|t| t.key != "k42")
            .collect();
        ts.extend(taints);
        spec.taints = (!ts.is_empty()).then_some(ts);
    })
    .expect("taint");
}

/// Apply the DS and wait until all four workers run a ready pod.
pub fn start_ds(c: &mut Cluster, ds: &Busybox) {
    c.apply(ds.daemon_set()).expect("apply");
    assert!(
        c.run_until(|c| status_is(c, ds.name, (4, 4, 0), 4), secs(60.0)),
        "DS {} never became ready: {:?}",
        ds.name,
        status_of(c, ds.name)
    );
    assert!(c.settle(secs(60.0)));
}
