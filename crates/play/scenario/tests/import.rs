//! Importing a real cluster's nodes (`kubectl get nodes -o yaml|json`): what is kept, what is
//! dropped, where daemon pods land on the imported cluster, and the time 2,000 nodes take. Bad
//! node files and their messages (line:column and a hint) are in the bad-input catalogue
//! (`common/bad_inputs.rs`, `docs/bad-inputs.md` §"Node import").

use std::collections::BTreeMap;

use controller::pod_util::node_name;
use scenario::import::{self, Merge};
use scenario::share::{self, ShareView};
use scenario::{write, NodeEntry, Scenario};

#[path = "fixtures/many.rs"]
mod many;

use many::{many_nodes, GKE};

const FIXTURE: &str = "fixtures/gke-nodes.yaml";

const CPU_NODE: &str = "gke-prod-default-pool-8f2a1c3e-x7k2";
const CORDONED: &str = "gke-prod-default-pool-8f2a1c3e-q9vd";
const GPU_NODE: &str = "gke-prod-gpu-pool-5d19e2b7-w2lf";

fn gke() -> Vec<NodeEntry> {
    import::import_nodes(FIXTURE, GKE).unwrap_or_else(|e| panic!("{e}"))
}

fn entry<'a>(entries: &'a [NodeEntry], name: &str) -> &'a NodeEntry {
    entries
        .iter()
        .find(|e| e.names == [name])
        .unwrap_or_else(|| panic!("no {name}"))
}

#[test]
fn a_gke_node_list_keeps_what_placement_needs_and_drops_the_noise() {
    let nodes = gke();
    assert_eq!(nodes.len(), 5);
    let cpu = entry(&nodes, CPU_NODE);
    assert_eq!(cpu.labels["topology.kubernetes.io/zone"], "europe-west1-b");
    assert_eq!(
        cpu.labels["node.kubernetes.io/instance-type"],
        "e2-standard-4"
    );
    assert_eq!(cpu.labels["cloud.google.com/gke-nodepool"], "default-pool");
    assert_eq!(cpu.labels["cloud.google.com/gke-max-pods-per-node"], "110");
    // Implicit: every scenario node gets them with these values.
    assert!(!cpu.labels.contains_key("kubernetes.io/hostname"));
    assert!(!cpu.labels.contains_key("kubernetes.io/os"));
    assert!(cpu.taints.is_empty() && !cpu.unschedulable);
    assert_eq!(cpu.capacity["cpu"].0, "4");
    assert_eq!(cpu.capacity["memory"].0, "16393116Ki");
    // Allocatable only where it differs from capacity.
    assert_eq!(cpu.allocatable["cpu"].0, "3920m");
    assert_eq!(cpu.allocatable["memory"].0, "13310364Ki");
    assert!(!cpu.allocatable.contains_key("pods"));
    assert_eq!(cpu.conditions.len(), 10);
    assert_eq!(cpu.conditions["MemoryPressure"], "False");
    assert_eq!(cpu.conditions["Ready"], "True");

    let gpu = entry(&nodes, GPU_NODE);
    assert_eq!(
        gpu.taints
            .iter()
            .map(write::taint_string)
            .collect::<Vec<_>>(),
        ["nvidia.com/gpu=present:NoSchedule"]
    );
    assert_eq!(gpu.capacity["nvidia.com/gpu"].0, "1");

    let cordoned = entry(&nodes, CORDONED);
    assert!(cordoned.unschedulable);
    assert_eq!(cordoned.taints[0].key, "node.kubernetes.io/unschedulable");
    assert_eq!(cordoned.taints[0].time_added, None);

    // The Node objects the simulation starts from.
    let node = cpu.node(CPU_NODE);
    let status = node.status.unwrap_or_default();
    assert_eq!(status.allocatable.unwrap_or_default()["pods"].0, "110");
    assert!(node.metadata.annotations.is_none() && node.metadata.managed_fields.is_none());
    assert!(status.images.is_none());
    let labels = node.metadata.labels.unwrap_or_default();
    assert_eq!(labels["kubernetes.io/hostname"], CPU_NODE);
    assert_eq!(
        entry(&nodes, CORDONED)
            .node(CORDONED)
            .spec
            .and_then(|s| s.unschedulable),
        Some(true)
    );
}

fn with_nodes(yaml: &str, nodes: Vec<NodeEntry>) -> Scenario {
    let mut s = scenario::parse("s.yaml", yaml).unwrap_or_else(|e| panic!("{e}"));
    import::merge_nodes(&mut s, nodes, Merge::Replace, FIXTURE).unwrap_or_else(|e| panic!("{e}"));
    s
}

const DAEMON_SETS: &str = r#"scenario: gke-import
nodes: [{name: placeholder}]
files:
  agent.yaml: |
    apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: agent}
    spec:
      selector: {matchLabels: {app: agent}}
      template:
        metadata: {labels: {app: agent}}
        spec:
          containers: [{name: a, image: "busybox:1.36"}]
  gpu.yaml: |
    apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: gpu-driver}
    spec:
      selector: {matchLabels: {app: gpu-driver}}
      template:
        metadata: {labels: {app: gpu-driver}}
        spec:
          nodeSelector: {cloud.google.com/gke-accelerator: nvidia-tesla-t4}
          tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
          containers: [{name: d, image: "busybox:1.36"}]
script:
  - kubectl apply -f agent.yaml
  - kubectl apply -f gpu.yaml
  - kubectl rollout status ds/agent
  - kubectl rollout status ds/gpu-driver
  - expect: kubectl get ds agent -o jsonpath={.status.desiredNumberScheduled}
    equals: "4"
  - expect: kubectl get ds gpu-driver -o jsonpath={.status.numberReady}
    equals: "1"
"#;

#[test]
fn daemon_pods_land_where_they_would_on_the_real_cluster() {
    let s = with_nodes(DAEMON_SETS, gke());
    let out = scenario::run(&s, true).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.failures.is_empty(), "{:?}", out.failures);
    let mut placed: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for p in out.session.cluster.pods() {
        let app = p
            .metadata
            .labels
            .as_ref()
            .and_then(|l| l.get("app").cloned())
            .unwrap_or_default();
        placed
            .entry(app)
            .or_default()
            .push(node_name(&p).to_string());
    }
    for v in placed.values_mut() {
        v.sort();
    }
    // The agent: every node but the GPU node (its taint is not tolerated). The cordoned node
    // gets one: daemon pods tolerate node.kubernetes.io/unschedulable.
    assert_eq!(
        placed["agent"],
        [
            "gke-prod-default-pool-2b7e9d41-m4tc",
            CORDONED,
            CPU_NODE,
            "gke-prod-default-pool-c03f6a58-hz8n",
        ]
    );
    // The driver: only the GPU node (node selector + toleration).
    assert_eq!(placed["gpu-driver"], [GPU_NODE]);
}

#[test]
fn kubectl_json_output_imports_the_same_as_yaml() {
    let docs = apiserver::yaml_to_json(FIXTURE, GKE).unwrap_or_else(|e| panic!("{e}"));
    let json = serde_json::to_string_pretty(&docs[0]).unwrap_or_default();
    let from_json = import::import_nodes("nodes.json", &json).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(from_json, gke());
}

#[test]
fn single_manifests_and_several_documents_import_too() {
    let docs = apiserver::yaml_to_json(FIXTURE, GKE).unwrap_or_else(|e| panic!("{e}"));
    let items = docs[0]["items"].as_array().cloned().unwrap_or_default();
    // One Node as JSON.
    let one = serde_json::to_string(&items[4]).unwrap_or_default();
    let nodes = import::import_nodes("node.json", &one).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(nodes[0].names, [GPU_NODE]);
    // A stream of YAML documents (JSON is YAML), one per node.
    let stream = items
        .iter()
        .map(|i| serde_json::to_string(i).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n---\n");
    let nodes = import::import_nodes("nodes.yaml", &stream).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(nodes, gke());
    // A minimal hand-written Node.
    let nodes = import::import_nodes(
        "n.yaml",
        "apiVersion: v1\nkind: Node\nmetadata:\n  name: edge-1\n  labels: {site: lab}\nspec:\n  taints:\n  - {key: edge, effect: NoExecute}\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(nodes[0].labels["site"], "lab");
    assert_eq!(write::taint_string(&nodes[0].taints[0]), "edge:NoExecute");
}

#[test]
fn an_imported_cluster_round_trips_through_yaml_and_a_share_link() {
    let s = with_nodes(DAEMON_SETS, gke());
    let yaml = write::to_yaml(&s);
    assert!(yaml.contains("    unschedulable: true\n"), "{yaml}");
    assert!(
        yaml.contains("    conditions:\n      DiskPressure: \"False\"\n"),
        "{yaml}"
    );
    let back = scenario::parse("s.yaml", &yaml).unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    assert!(back.same_content(&s));
    assert_eq!(back.node_objects(), s.node_objects());
    let link = share::fragment(&s, &ShareView::default(), None);
    let opened = share::decode(&link).unwrap_or_else(|e| panic!("{e}"));
    assert!(opened.scenario.same_content(&s));
    println!(
        "5 imported GKE nodes + 2 DaemonSets: link of {} characters",
        link.len()
    );
}

#[test]
fn numbered_nodes_are_compacted_into_a_pool() {
    let mut text = String::from("apiVersion: v1\nkind: List\nitems:\n");
    for i in 1..=40 {
        text.push_str(&format!(
            "- {{apiVersion: v1, kind: Node, metadata: {{name: worker{i}, labels: {{pool: a}}}}}}\n"
        ));
    }
    let mut s = scenario::parse("s.yaml", "scenario: x\nnodes: [{name: cp}]\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let nodes = import::import_nodes("n.yaml", &text).unwrap_or_else(|e| panic!("{e}"));
    import::merge_nodes(&mut s, nodes, Merge::Add, "n.yaml").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.nodes.len(), 2);
    assert_eq!(s.nodes[1].names.len(), 40);
    let yaml = write::to_yaml(&s);
    assert!(
        yaml.contains("  - pool: worker\n    count: 40\n    labels: {pool: a}\n"),
        "{yaml}"
    );
    // Adding a name the scenario has is refused.
    let again = import::import_nodes("n.yaml", &text).unwrap_or_else(|e| panic!("{e}"));
    let e = import::merge_nodes(&mut s, again, Merge::Add, "n.yaml").err();
    assert!(e.is_some_and(|e| e.message.contains("\"worker1\" is already in scenario")));
}

/// A debug-build figure (docs/performance.md's is `cargo bench -p dsplay-scenario --bench import`);
/// nothing is asserted on time.
#[test]
fn many_nodes_import_the_same_from_yaml_and_json() {
    // 2,000 in an optimised build; a debug build imports 200 (it is ~15× slower).
    let n = if cfg!(debug_assertions) { 200 } else { 2_000 };
    let yaml = many_nodes(n);
    let started = std::time::Instant::now();
    let nodes = import::import_nodes("nodes.yaml", &yaml).unwrap_or_else(|e| panic!("{e}"));
    let yaml_time = started.elapsed();
    assert_eq!(nodes.len(), n);
    let docs = apiserver::yaml_to_json("nodes.yaml", &yaml).unwrap_or_else(|e| panic!("{e}"));
    let json = serde_json::to_string_pretty(&docs[0]).unwrap_or_default();
    let started = std::time::Instant::now();
    let from_json = import::import_nodes("nodes.json", &json).unwrap_or_else(|e| panic!("{e}"));
    let json_time = started.elapsed();
    assert_eq!(from_json, nodes);
    println!(
        "import of {n} nodes ({}): -o yaml {:.1} MB in {:?}, -o json {:.1} MB in {:?}",
        if cfg!(debug_assertions) {
            "debug build"
        } else {
            "optimised build"
        },
        yaml.len() as f64 / 1e6,
        yaml_time,
        json.len() as f64 / 1e6,
        json_time
    );
}
