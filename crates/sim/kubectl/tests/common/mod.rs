//! An in-memory `Api`: a kind-like cluster (control-plane + worker..worker4) with one
//! DaemonSet, its pods, two revisions and events, at fixed times. `tick` moves a rollout one
//! step, standing in for the controller while a `rollout status` waits.

#![allow(dead_code)]

use apiserver::Manifest;
use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
use k8s_openapi::api::core::v1::{Event, Node, Pod};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;
use kubectl::{Api, ApiError, Cascade};
use serde_json::{json, Value};

pub struct Fake {
    pub now: Timestamp,
    pub daemon_sets: Vec<DaemonSet>,
    pub pods: Vec<Pod>,
    pub nodes: Vec<Node>,
    pub revisions: Vec<ControllerRevision>,
    pub events: Vec<Event>,
    pub files: Vec<(String, String)>,
    rv: u64,
}

fn ts(s: &str) -> Timestamp {
    s.parse().expect("fixture timestamp")
}

fn from<T: serde::de::DeserializeOwned>(v: Value) -> T {
    serde_json::from_value(v).expect("fixture object")
}

const DS_YAML: &str = "apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-exporter
  labels:
    app: node-exporter
spec:
  selector:
    matchLabels:
      app: node-exporter
  template:
    metadata:
      labels:
        app: node-exporter
    spec:
      containers:
      - name: node-exporter
        image: prom/node-exporter:v1.8.1
        ports:
        - containerPort: 9100
          hostPort: 9100
";

const NEW_DS_YAML: &str = "apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: log-agent
spec:
  selector:
    matchLabels:
      app: log-agent
  template:
    metadata:
      labels:
        app: log-agent
    spec:
      tolerations:
      - key: node-role.kubernetes.io/control-plane
        operator: Exists
        effect: NoSchedule
      containers:
      - name: agent
        image: fluent/fluent-bit:3.0
";

const BAD_YAML: &str = "apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: broken
 spec:
  selector: {}
";

const INVALID_YAML: &str = "apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: mismatch
spec:
  selector:
    matchLabels:
      app: one
  template:
    metadata:
      labels:
        app: two
    spec:
      containers:
      - name: c
        image: busybox
";

fn template(image: &str, hash: Option<&str>) -> Value {
    let mut labels = json!({"app": "node-exporter"});
    if let Some(h) = hash {
        labels["controller-revision-hash"] = json!(h);
    }
    json!({
        "metadata": {"labels": labels},
        "spec": {
            "containers": [{
                "name": "node-exporter", "image": image,
                "ports": [{"containerPort": 9100, "hostPort": 9100, "protocol": "TCP"}],
                "resources": {"requests": {"cpu": "100m", "memory": "50Mi"}, "limits": {"memory": "50Mi"}},
                "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
                "imagePullPolicy": "IfNotPresent"
            }],
            "restartPolicy": "Always", "dnsPolicy": "ClusterFirst", "schedulerName": "default-scheduler",
            "terminationGracePeriodSeconds": 30, "securityContext": {}
        }
    })
}

const HASH1: &str = "6d4b9c7f8";
const HASH2: &str = "5c8f6b9d4";

impl Fake {
    pub fn new() -> Fake {
        let now = ts("2024-05-01T12:00:00Z");
        let mut nodes = Vec::new();
        for (i, name) in ["control-plane", "worker", "worker2", "worker3", "worker4"]
            .iter()
            .enumerate()
        {
            let mut labels = json!({
                "beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux",
                "kubernetes.io/arch": "amd64", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux"
            });
            let mut taints = json!([]);
            if i == 0 {
                labels["node-role.kubernetes.io/control-plane"] = json!("");
                taints = json!([{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]);
            }
            let ip = format!("172.18.0.{}", i + 2);
            let hb = "2024-05-01T11:59:30Z";
            nodes.push(from::<Node>(json!({
                "apiVersion": "v1", "kind": "Node",
                "metadata": {"name": name, "uid": format!("node-uid-{i}"), "labels": labels,
                    "annotations": {"node.alpha.kubernetes.io/ttl": "0"},
                    "creationTimestamp": "2024-05-01T10:00:00Z", "resourceVersion": "100"},
                "spec": {"podCIDR": format!("10.244.{i}.0/24"), "podCIDRs": [format!("10.244.{i}.0/24")],
                    "providerID": format!("kind://docker/kind/{name}"), "taints": taints},
                "status": {
                    "addresses": [{"type": "InternalIP", "address": ip}, {"type": "Hostname", "address": name}],
                    "capacity": {"cpu": "4", "memory": "16Gi", "pods": "110"},
                    "allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"},
                    "conditions": [
                        {"type": "MemoryPressure", "status": "False", "lastHeartbeatTime": hb, "lastTransitionTime": "2024-05-01T10:00:00Z", "reason": "KubeletHasSufficientMemory", "message": "kubelet has sufficient memory available"},
                        {"type": "DiskPressure", "status": "False", "lastHeartbeatTime": hb, "lastTransitionTime": "2024-05-01T10:00:00Z", "reason": "KubeletHasNoDiskPressure", "message": "kubelet has no disk pressure"},
                        {"type": "PIDPressure", "status": "False", "lastHeartbeatTime": hb, "lastTransitionTime": "2024-05-01T10:00:00Z", "reason": "KubeletHasSufficientPID", "message": "kubelet has sufficient PID available"},
                        {"type": "Ready", "status": "True", "lastHeartbeatTime": hb, "lastTransitionTime": "2024-05-01T10:00:20Z", "reason": "KubeletReady", "message": "kubelet is posting ready status"}
                    ],
                    "nodeInfo": {"machineID": format!("m{i}"), "systemUUID": format!("u{i}"), "bootID": format!("b{i}"),
                        "kernelVersion": "6.5.0-1025-azure", "osImage": "Debian GNU/Linux 12 (bookworm)",
                        "containerRuntimeVersion": "containerd://1.7.18", "kubeletVersion": "v1.31.0",
                        "kubeProxyVersion": "v1.31.0", "operatingSystem": "linux", "architecture": "amd64"}
                }
            })));
        }
        let ds: DaemonSet = from(json!({
            "apiVersion": "apps/v1", "kind": "DaemonSet",
            "metadata": {"name": "node-exporter", "namespace": "default", "uid": "ds-uid-1",
                "labels": {"app": "node-exporter"}, "generation": 2, "resourceVersion": "500",
                "annotations": {"deprecated.daemonset.template.generation": "2"},
                "creationTimestamp": "2024-05-01T11:50:00Z"},
            "spec": {"selector": {"matchLabels": {"app": "node-exporter"}}, "template": template("prom/node-exporter:v1.8.1", None),
                "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}},
                "revisionHistoryLimit": 10},
            "status": {"currentNumberScheduled": 4, "desiredNumberScheduled": 4, "numberAvailable": 4,
                "numberMisscheduled": 0, "numberReady": 4, "observedGeneration": 2, "updatedNumberScheduled": 4}
        }));
        let owner = |kind: &str, name: &str, uid: &str, api: &str| json!([{"apiVersion": api, "kind": kind, "name": name, "uid": uid, "controller": true, "blockOwnerDeletion": true}]);
        let mut revisions = Vec::new();
        for (rev, hash, image, cause) in [
            (1, HASH1, "prom/node-exporter:v1.8.0", None),
            (
                2,
                HASH2,
                "prom/node-exporter:v1.8.1",
                Some("kubectl set image ds/node-exporter node-exporter=prom/node-exporter:v1.8.1"),
            ),
        ] {
            let mut t = template(image, None);
            t["$patch"] = json!("replace");
            let mut ann = json!({"deprecated.daemonset.template.generation": rev.to_string()});
            if let Some(c) = cause {
                ann["kubernetes.io/change-cause"] = json!(c);
            }
            revisions.push(from::<ControllerRevision>(json!({
                "apiVersion": "apps/v1", "kind": "ControllerRevision",
                "metadata": {"name": format!("node-exporter-{hash}"), "namespace": "default",
                    "labels": {"app": "node-exporter", "controller-revision-hash": hash},
                    "annotations": ann,
                    "ownerReferences": owner("DaemonSet", "node-exporter", "ds-uid-1", "apps/v1"),
                    "creationTimestamp": if rev == 1 { "2024-05-01T11:50:00Z" } else { "2024-05-01T11:55:00Z" }},
                "data": {"spec": {"template": t}},
                "revision": rev
            })));
        }
        let mut pods = Vec::new();
        let suffixes = ["4kx2p", "9w7zt", "b2m8q", "t6vln"];
        for (i, node) in ["worker", "worker2", "worker3", "worker4"]
            .iter()
            .enumerate()
        {
            let name = format!("node-exporter-{}", suffixes[i]);
            let mut spec = template("prom/node-exporter:v1.8.1", Some(HASH2))["spec"].clone();
            spec["nodeName"] = json!(node);
            spec["serviceAccountName"] = json!("default");
            spec["priority"] = json!(0);
            spec["tolerations"] = json!([
                {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"},
                {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute"},
                {"key": "node.kubernetes.io/disk-pressure", "operator": "Exists", "effect": "NoSchedule"},
                {"key": "node.kubernetes.io/memory-pressure", "operator": "Exists", "effect": "NoSchedule"},
                {"key": "node.kubernetes.io/pid-pressure", "operator": "Exists", "effect": "NoSchedule"},
                {"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"},
                {"key": "node.kubernetes.io/network-unavailable", "operator": "Exists", "effect": "NoSchedule"}
            ]);
            let ip = format!("10.244.{}.{}", i + 1, 2 + i);
            let started = format!("2024-05-01T11:55:{:02}Z", 10 + i * 5);
            pods.push(from::<Pod>(json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": name, "namespace": "default", "uid": format!("pod-uid-{i}"),
                    "labels": {"app": "node-exporter", "controller-revision-hash": HASH2, "pod-template-generation": "2"},
                    "ownerReferences": owner("DaemonSet", "node-exporter", "ds-uid-1", "apps/v1"),
                    "creationTimestamp": format!("2024-05-01T11:55:{:02}Z", i * 5)},
                "spec": spec,
                "status": {"phase": "Running", "hostIP": format!("172.18.0.{}", i + 3), "podIP": ip, "podIPs": [{"ip": ip}],
                    "startTime": format!("2024-05-01T11:55:{:02}Z", i * 5), "qosClass": "Burstable",
                    "conditions": [
                        {"type": "Initialized", "status": "True"}, {"type": "Ready", "status": "True"},
                        {"type": "ContainersReady", "status": "True"}, {"type": "PodScheduled", "status": "True"}],
                    "containerStatuses": [{"name": "node-exporter", "ready": true, "restartCount": if i == 2 { 1 } else { 0 },
                        "image": "docker.io/prom/node-exporter:v1.8.1", "imageID": "docker.io/prom/node-exporter@sha256:4cb2",
                        "containerID": format!("containerd://c{i}"), "started": true,
                        "lastState": if i == 2 { json!({"terminated": {"exitCode": 137, "reason": "Error", "startedAt": "2024-05-01T11:55:20Z", "finishedAt": "2024-05-01T11:57:00Z"}}) } else { json!({}) },
                        "state": {"running": {"startedAt": started}}}]}
            })));
        }
        pods.push(from::<Pod>(json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "web-7d4b9c6f5-x2k9p", "namespace": "default", "uid": "web-uid",
                "labels": {"app": "web", "pod-template-hash": "7d4b9c6f5"},
                "ownerReferences": owner("ReplicaSet", "web-7d4b9c6f5", "rs-uid", "apps/v1"),
                "creationTimestamp": "2024-05-01T11:00:00Z"},
            "spec": {"nodeName": "worker", "containers": [{"name": "nginx", "image": "nginx:1.27"}]},
            "status": {"phase": "Running", "podIP": "10.244.1.9", "podIPs": [{"ip": "10.244.1.9"}], "conditions": [{"type": "Ready", "status": "True"}],
                "containerStatuses": [{"name": "nginx", "ready": true, "restartCount": 0, "image": "nginx:1.27", "imageID": "",
                    "state": {"running": {"startedAt": "2024-05-01T11:00:05Z"}}}]}
        })));
        pods.push(from::<Pod>(json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "pending-pod", "namespace": "default", "uid": "pend-uid",
                "creationTimestamp": "2024-05-01T11:59:48Z"},
            "spec": {"containers": [{"name": "app", "image": "busybox"}]},
            "status": {"phase": "Pending"}
        })));
        pods.push(from::<Pod>(json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "coredns-7db6d8ff4d-lq2xv", "namespace": "kube-system", "uid": "dns-uid",
                "labels": {"k8s-app": "kube-dns"},
                "ownerReferences": owner("ReplicaSet", "coredns-7db6d8ff4d", "rs2", "apps/v1"),
                "creationTimestamp": "2024-05-01T10:00:30Z"},
            "spec": {"nodeName": "control-plane", "containers": [{"name": "coredns", "image": "registry.k8s.io/coredns/coredns:v1.11.1"}]},
            "status": {"phase": "Running", "podIP": "10.244.0.3", "podIPs": [{"ip": "10.244.0.3"}],
                "containerStatuses": [{"name": "coredns", "ready": true, "restartCount": 0, "image": "", "imageID": "",
                    "state": {"running": {"startedAt": "2024-05-01T10:00:40Z"}}}]}
        })));
        let mut events = Vec::new();
        for (i, s) in suffixes.iter().enumerate() {
            let t = format!("2024-05-01T11:55:{:02}Z", i * 5);
            events.push(from::<Event>(json!({
                "apiVersion": "v1", "kind": "Event",
                "metadata": {"name": format!("node-exporter.17c9a{i}"), "namespace": "default"},
                "involvedObject": {"kind": "DaemonSet", "name": "node-exporter", "namespace": "default", "uid": "ds-uid-1", "apiVersion": "apps/v1"},
                "reason": "SuccessfulCreate", "message": format!("Created pod: node-exporter-{s}"), "type": "Normal",
                "source": {"component": "daemonset-controller"}, "firstTimestamp": t, "lastTimestamp": t, "count": 1
            })));
        }
        events.push(from::<Event>(json!({
            "apiVersion": "v1", "kind": "Event",
            "metadata": {"name": "node-exporter-b2m8q.17c9b", "namespace": "default"},
            "involvedObject": {"kind": "Pod", "name": "node-exporter-b2m8q", "namespace": "default", "uid": "pod-uid-2", "apiVersion": "v1", "fieldPath": "spec.containers{node-exporter}"},
            "reason": "BackOff", "message": "Back-off restarting failed container node-exporter in pod node-exporter-b2m8q_default(pod-uid-2)", "type": "Warning",
            "source": {"component": "kubelet", "host": "worker3"}, "firstTimestamp": "2024-05-01T11:56:00Z", "lastTimestamp": "2024-05-01T11:57:00Z", "count": 3
        })));
        Fake {
            now,
            daemon_sets: vec![ds],
            pods,
            nodes,
            revisions,
            events,
            files: vec![
                ("ds.yaml".into(), DS_YAML.into()),
                ("new-ds.yaml".into(), NEW_DS_YAML.into()),
                ("bad.yaml".into(), BAD_YAML.into()),
                ("invalid.yaml".into(), INVALID_YAML.into()),
            ],
            rv: 1000,
        }
    }

    /// `new()` plus the pod failure states the kubelet produces, on worker..worker4: a
    /// container in CrashLoopBackOff (`agent-x`, with the kubelet's events about it), one
    /// terminated with Error, one Completed, two Pending on image pulls, and a Running pod that
    /// restarted.
    pub fn failures() -> Fake {
        let mut f = Fake::new();
        let owner = json!([{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "agent", "uid": "agent-ds-uid", "controller": true, "blockOwnerDeletion": true}]);
        let token_volume = json!({"name": "kube-api-access-7xq2f", "projected": {"defaultMode": 420, "sources": [
            {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
            {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
            {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}}]}});
        let spec = |node: &str, image: &str| {
            json!({
                "nodeName": node, "serviceAccountName": "default", "priority": 0,
                "restartPolicy": "Always", "volumes": [token_volume.clone()],
                "containers": [{"name": "app", "image": image,
                    "ports": [{"containerPort": 8080, "name": "http", "protocol": "TCP"}],
                    "livenessProbe": {"httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"},
                        "initialDelaySeconds": 5, "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3},
                    "readinessProbe": {"tcpSocket": {"port": "http"},
                        "timeoutSeconds": 1, "periodSeconds": 5, "successThreshold": 1, "failureThreshold": 3},
                    "env": [{"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
                            {"name": "NODE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "spec.nodeName"}}}],
                    "volumeMounts": [{"name": "kube-api-access-7xq2f", "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "readOnly": true}]}],
                "tolerations": [
                    {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute"},
                    {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"}]
            })
        };
        let conditions = |ready: &str| {
            json!([
            {"type": "PodReadyToStartContainers", "status": "True"}, {"type": "Initialized", "status": "True"},
            {"type": "Ready", "status": ready}, {"type": "ContainersReady", "status": ready},
            {"type": "PodScheduled", "status": "True"}])
        };
        let pods = [
            (
                "agent-x",
                "worker",
                "agent-uid-x",
                "registry.example/agent:v2",
                "Running",
                "False",
                3,
                json!({"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 20s restarting failed container=app pod=agent-x_default(agent-uid-x)"}}),
                json!({"terminated": {"exitCode": 1, "reason": "Error", "startedAt": "2024-05-01T11:59:20Z", "finishedAt": "2024-05-01T11:59:40Z", "containerID": "containerd://x3"}}),
            ),
            (
                "agent-err",
                "worker2",
                "agent-uid-e",
                "registry.example/agent:v2",
                "Running",
                "False",
                1,
                json!({"terminated": {"exitCode": 1, "reason": "Error", "startedAt": "2024-05-01T11:59:50Z", "finishedAt": "2024-05-01T11:59:55Z"}}),
                json!({"terminated": {"exitCode": 1, "reason": "Error", "startedAt": "2024-05-01T11:58:00Z", "finishedAt": "2024-05-01T11:58:10Z"}}),
            ),
            (
                "agent-done",
                "worker3",
                "agent-uid-d",
                "registry.example/agent:v2",
                "Succeeded",
                "False",
                0,
                json!({"terminated": {"exitCode": 0, "reason": "Completed", "startedAt": "2024-05-01T11:50:05Z", "finishedAt": "2024-05-01T11:51:05Z"}}),
                json!({}),
            ),
            (
                "agent-pull",
                "worker4",
                "agent-uid-p",
                "registry.example/agent:v9",
                "Pending",
                "False",
                0,
                json!({"waiting": {"reason": "ErrImagePull", "message": "failed to pull and unpack image \"registry.example/agent:v9\": not found"}}),
                json!({}),
            ),
            (
                "agent-backoff",
                "worker",
                "agent-uid-b",
                "registry.example/agent:v9",
                "Pending",
                "False",
                0,
                json!({"waiting": {"reason": "ImagePullBackOff", "message": "Back-off pulling image \"registry.example/agent:v9\""}}),
                json!({}),
            ),
            (
                "agent-restarts",
                "worker2",
                "agent-uid-r",
                "registry.example/agent:v2",
                "Running",
                "True",
                5,
                json!({"running": {"startedAt": "2024-05-01T11:56:00Z"}}),
                json!({"terminated": {"exitCode": 137, "reason": "OOMKilled", "startedAt": "2024-05-01T11:52:00Z", "finishedAt": "2024-05-01T11:55:58Z"}}),
            ),
        ];
        for (i, (name, node, uid, image, phase, ready, restarts, state, last)) in
            pods.into_iter().enumerate()
        {
            let ip = format!("10.244.{}.{}", i % 4 + 1, 20 + i);
            let running = state.get("running").is_some();
            // Nodes register in order: control-plane 172.18.0.2, worker .3, worker2 .4, …
            let host_ip = match node {
                "worker" => "172.18.0.3",
                "worker2" => "172.18.0.4",
                "worker3" => "172.18.0.5",
                _ => "172.18.0.6",
            };
            let mut status = json!({"phase": phase, "hostIP": host_ip, "hostIPs": [{"ip": host_ip}],
                "startTime": "2024-05-01T11:50:00Z", "qosClass": "BestEffort", "conditions": conditions(ready),
                "containerStatuses": [{"name": "app", "ready": ready == "True", "started": running,
                    "restartCount": restarts, "image": image, "imageID": if phase == "Pending" { "" } else { "registry.example/agent@sha256:9f1c" },
                    "containerID": if phase == "Pending" { json!(null) } else { json!(format!("containerd://{uid}")) },
                    "state": state, "lastState": last}]});
            if phase != "Pending" {
                status["podIP"] = json!(ip);
                status["podIPs"] = json!([{"ip": ip}]);
            }
            f.pods.push(from::<Pod>(json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": name, "namespace": "default", "uid": uid,
                    "labels": {"app": "agent", "controller-revision-hash": "84c5d7f9b"},
                    "ownerReferences": owner.clone(), "creationTimestamp": "2024-05-01T11:50:00Z"},
                "spec": spec(node, image),
                "status": status
            })));
        }
        let kubelet_event = |name: &str,
                             pod: &str,
                             uid: &str,
                             ty: &str,
                             reason: &str,
                             message: &str,
                             first: &str,
                             last: &str,
                             count: i32| {
            from::<Event>(json!({
                "apiVersion": "v1", "kind": "Event",
                "metadata": {"name": name, "namespace": "default"},
                "involvedObject": {"kind": "Pod", "name": pod, "namespace": "default", "uid": uid, "apiVersion": "v1",
                    "fieldPath": "spec.containers{app}"},
                "reason": reason, "message": message, "type": ty,
                "source": {"component": "kubelet", "host": "worker"},
                "firstTimestamp": first, "lastTimestamp": last, "count": count,
                "reportingComponent": "kubelet", "reportingInstance": "worker"
            }))
        };
        f.events.extend([
            kubelet_event("agent-x.17c9c10", "agent-x", "agent-uid-x", "Normal", "Pulled",
                "Container image \"registry.example/agent:v2\" already present on machine", "2024-05-01T11:50:02Z", "2024-05-01T11:59:20Z", 4),
            kubelet_event("agent-x.17c9c11", "agent-x", "agent-uid-x", "Normal", "Created",
                "Created container: app", "2024-05-01T11:50:02Z", "2024-05-01T11:59:20Z", 4),
            kubelet_event("agent-x.17c9c12", "agent-x", "agent-uid-x", "Normal", "Started",
                "Started container app", "2024-05-01T11:50:03Z", "2024-05-01T11:59:20Z", 4),
            kubelet_event("agent-x.17c9c13", "agent-x", "agent-uid-x", "Warning", "Unhealthy",
                "Liveness probe failed: Get \"http://10.244.1.20:8080/healthz\": dial tcp 10.244.1.20:8080: connect: connection refused",
                "2024-05-01T11:50:10Z", "2024-05-01T11:59:35Z", 9),
            kubelet_event("agent-x.17c9c14", "agent-x", "agent-uid-x", "Normal", "Killing",
                "Container app failed liveness probe, will be restarted", "2024-05-01T11:50:30Z", "2024-05-01T11:59:35Z", 3),
            kubelet_event("agent-x.17c9c15", "agent-x", "agent-uid-x", "Warning", "BackOff",
                "Back-off restarting failed container app in pod agent-x_default(agent-uid-x)", "2024-05-01T11:52:00Z", "2024-05-01T11:59:45Z", 6),
            kubelet_event("agent-pull.17c9c20", "agent-pull", "agent-uid-p", "Warning", "Failed",
                "(combined from similar events): Failed to pull image \"registry.example/agent:v9\": rpc error: code = NotFound desc = failed to pull and unpack image \"registry.example/agent:v9\": not found",
                "2024-05-01T11:50:01Z", "2024-05-01T11:59:30Z", 11),
        ]);
        f
    }

    fn next_rv(&mut self) -> String {
        self.rv += 1;
        self.rv.to_string()
    }

    /// One step of a rollout: observe the spec, then update one pod, then make it available.
    pub fn tick(&mut self) {
        self.now = self
            .now
            .checked_add(k8s_openapi::jiff::SignedDuration::from_secs(5))
            .unwrap_or(self.now);
        let rv = self.next_rv();
        for ds in &mut self.daemon_sets {
            let gen = ds.metadata.generation.unwrap_or(0);
            let st = ds.status.get_or_insert_with(Default::default);
            let desired = st.desired_number_scheduled;
            if st.observed_generation.unwrap_or(0) < gen {
                st.observed_generation = Some(gen);
                st.updated_number_scheduled = Some(0);
            } else if st.number_available.unwrap_or(0) < st.updated_number_scheduled.unwrap_or(0)
                || st.updated_number_scheduled.unwrap_or(0) >= desired
            {
                st.number_available = Some((st.number_available.unwrap_or(0) + 1).min(desired));
                st.number_ready = st.number_available.unwrap_or(0);
            } else {
                st.updated_number_scheduled = Some(st.updated_number_scheduled.unwrap_or(0) + 1);
                st.number_available = Some(
                    st.number_available
                        .unwrap_or(0)
                        .saturating_sub(1)
                        .max(desired - 1),
                );
                st.number_ready = st.number_available.unwrap_or(0);
            }
            ds.metadata.resource_version = Some(rv.clone());
        }
    }
}

impl Api for Fake {
    fn now(&self) -> Timestamp {
        self.now
    }
    fn daemon_sets(&self) -> Vec<DaemonSet> {
        self.daemon_sets.clone()
    }
    fn pods(&self) -> Vec<Pod> {
        self.pods.clone()
    }
    fn nodes(&self) -> Vec<Node> {
        self.nodes.clone()
    }
    fn revisions(&self) -> Vec<ControllerRevision> {
        self.revisions.clone()
    }
    fn events(&self) -> Vec<Event> {
        self.events.clone()
    }
    fn file(&self, name: &str) -> Option<String> {
        self.files
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.clone())
    }
    /// Every node's kubelet renewed its Lease 4 s ago.
    fn node_lease(&self, node: &str) -> Option<k8s_openapi::api::coordination::v1::Lease> {
        use k8s_openapi::apimachinery::pkg::apis::meta::v1::MicroTime;
        self.nodes
            .iter()
            .any(|n| n.metadata.name.as_deref() == Some(node))
            .then(|| k8s_openapi::api::coordination::v1::Lease {
                metadata: Default::default(),
                spec: Some(k8s_openapi::api::coordination::v1::LeaseSpec {
                    holder_identity: Some(node.to_string()),
                    lease_duration_seconds: Some(40),
                    renew_time: Some(MicroTime(
                        self.now - k8s_openapi::jiff::SignedDuration::from_secs(4),
                    )),
                    ..Default::default()
                }),
            })
    }

    fn create(&mut self, m: Manifest) -> Result<(), ApiError> {
        let Manifest::DaemonSet(ds, _) = m else {
            return Err(ApiError::Other(
                "error: the fake creates DaemonSets only".into(),
            ));
        };
        let mut ds = *ds;
        apiserver::defaults::set_defaults_daemon_set(&mut ds);
        apiserver::validation::validate_daemon_set(&ds).map_err(ApiError::from)?;
        let name = ds.metadata.name.clone().unwrap_or_default();
        if self
            .daemon_sets
            .iter()
            .any(|d| d.metadata.name.as_deref() == Some(&name))
        {
            return Err(ApiError::AlreadyExists {
                resource: "daemonsets.apps".into(),
                name,
            });
        }
        let rv = self.next_rv();
        ds.metadata.namespace = Some("default".into());
        ds.metadata.uid = Some(format!("uid-{name}"));
        ds.metadata.generation = Some(1);
        ds.metadata.resource_version = Some(rv);
        ds.metadata.creation_timestamp = Some(Time(self.now));
        self.daemon_sets.push(ds);
        Ok(())
    }

    fn update_daemon_set(&mut self, ds: DaemonSet) -> Result<DaemonSet, ApiError> {
        let rv = self.next_rv();
        let name = ds.metadata.name.clone().unwrap_or_default();
        let cur = self
            .daemon_sets
            .iter_mut()
            .find(|d| d.metadata.name == ds.metadata.name)
            .ok_or_else(|| ApiError::not_found("daemonsets.apps", &name))?;
        let spec_changed =
            serde_json::to_value(&cur.spec).ok() != serde_json::to_value(&ds.spec).ok();
        let gen = cur.metadata.generation.unwrap_or(0) + i64::from(spec_changed);
        let status = cur.status.clone();
        *cur = ds;
        cur.status = status;
        cur.metadata.generation = Some(gen);
        cur.metadata.resource_version = Some(rv);
        Ok(cur.clone())
    }

    fn update_node(&mut self, node: Node) -> Result<Node, ApiError> {
        let name = node.metadata.name.clone().unwrap_or_default();
        let cur = self
            .nodes
            .iter_mut()
            .find(|n| n.metadata.name == node.metadata.name)
            .ok_or_else(|| ApiError::not_found("nodes", &name))?;
        *cur = node;
        Ok(cur.clone())
    }

    fn update_pod(&mut self, pod: Pod) -> Result<Pod, ApiError> {
        let name = pod.metadata.name.clone().unwrap_or_default();
        let cur = self
            .pods
            .iter_mut()
            .find(|p| {
                p.metadata.name == pod.metadata.name
                    && p.metadata.namespace == pod.metadata.namespace
            })
            .ok_or_else(|| ApiError::not_found("pods", &name))?;
        *cur = pod;
        Ok(cur.clone())
    }

    fn delete_daemon_set(
        &mut self,
        ns: &str,
        name: &str,
        cascade: Cascade,
    ) -> Result<(), ApiError> {
        let before = self.daemon_sets.len();
        self.daemon_sets.retain(|d| {
            !(d.metadata.name.as_deref() == Some(name)
                && d.metadata.namespace.as_deref() == Some(ns))
        });
        if before == self.daemon_sets.len() {
            return Err(ApiError::not_found("daemonsets.apps", name));
        }
        if cascade != Cascade::Orphan {
            self.pods.retain(|p| {
                !p.metadata
                    .owner_references
                    .iter()
                    .flatten()
                    .any(|o| o.kind == "DaemonSet" && o.name == name)
            });
        }
        Ok(())
    }

    fn delete_pod(&mut self, ns: &str, name: &str) -> Result<(), ApiError> {
        let before = self.pods.len();
        self.pods.retain(|p| {
            !(p.metadata.name.as_deref() == Some(name)
                && p.metadata.namespace.as_deref() == Some(ns))
        });
        if before == self.pods.len() {
            return Err(ApiError::not_found("pods", name));
        }
        Ok(())
    }

    fn delete_node(&mut self, name: &str) -> Result<(), ApiError> {
        let before = self.nodes.len();
        self.nodes
            .retain(|n| n.metadata.name.as_deref() != Some(name));
        if before == self.nodes.len() {
            return Err(ApiError::not_found("nodes", name));
        }
        Ok(())
    }
}
