//! The default preset until the scenario crate owns the library: the five nodes of field
//! measurement F-1 (a kind cluster: one tainted control plane, four workers) and a
//! fluentd-style log-collector DaemonSet without a control-plane toleration.
//!
//! Both are YAML, decoded by the same API-server rules a user's paste will go through.

use apiserver::decode::{decode_daemon_set, decode_manifests, Manifest};
use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::Node;

pub const NODES_YAML: &str = r#"apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: control-plane
    labels:
      kubernetes.io/hostname: control-plane
      kubernetes.io/os: linux
      kubernetes.io/arch: amd64
      node-role.kubernetes.io/control-plane: ""
  spec:
    taints:
    - key: node-role.kubernetes.io/control-plane
      effect: NoSchedule
- apiVersion: v1
  kind: Node
  metadata:
    name: worker
    labels: {kubernetes.io/hostname: worker, kubernetes.io/os: linux, kubernetes.io/arch: amd64}
- apiVersion: v1
  kind: Node
  metadata:
    name: worker2
    labels: {kubernetes.io/hostname: worker2, kubernetes.io/os: linux, kubernetes.io/arch: amd64}
- apiVersion: v1
  kind: Node
  metadata:
    name: worker3
    labels: {kubernetes.io/hostname: worker3, kubernetes.io/os: linux, kubernetes.io/arch: amd64}
- apiVersion: v1
  kind: Node
  metadata:
    name: worker4
    labels: {kubernetes.io/hostname: worker4, kubernetes.io/os: linux, kubernetes.io/arch: amd64}
"#;

pub const DAEMON_SET_YAML: &str = r#"apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: fluentd
  namespace: kube-system
  labels:
    k8s-app: fluentd-logging
spec:
  selector:
    matchLabels:
      name: fluentd
  template:
    metadata:
      labels:
        name: fluentd
    spec:
      containers:
      - name: fluentd
        image: busybox:1.36
        command: ["sh", "-c", "sleep 1000000"]
        resources:
          requests: {cpu: 100m, memory: 200Mi}
          limits: {memory: 200Mi}
        readinessProbe:
          exec: {command: ["true"]}
          initialDelaySeconds: 3
          periodSeconds: 1
      terminationGracePeriodSeconds: 3
"#;

/// A cluster and one DaemonSet, ready to show.
#[derive(Debug, Clone)]
pub struct Preset {
    pub id: &'static str,
    pub title: &'static str,
    pub story: &'static str,
    pub nodes: Vec<Node>,
    pub daemon_set: DaemonSet,
    pub daemon_set_yaml: &'static str,
}

/// Decodes the default preset; an error names the file, line and column.
pub fn default_preset() -> Result<Preset, String> {
    let nodes = decode_manifests("nodes.yaml", NODES_YAML)
        .map_err(|e| e.to_string())?
        .into_iter()
        .filter_map(|m| match m {
            Manifest::Node(n, _) => Some(*n),
            _ => None,
        })
        .collect();
    let (mut daemon_set, _) =
        decode_daemon_set("fluentd.yaml", DAEMON_SET_YAML).map_err(|e| e.to_string())?;
    apiserver::defaults::set_defaults_daemon_set(&mut daemon_set);
    Ok(Preset {
        id: "f1-one-pod-per-node",
        title: "One pod per eligible node",
        story: "A kind cluster: one control-plane node tainted NoSchedule and four workers. \
                The log collector has no toleration for the control-plane taint, so the \
                controller places exactly one pod on each worker and none on the control plane.",
        nodes,
        daemon_set,
        daemon_set_yaml: DAEMON_SET_YAML,
    })
}
