//! The kind export: the config is valid YAML and carries every node's labels and taints (the
//! labels a kubelet may not set itself are applied by replay.sh), and replay.sh is valid bash.

use std::collections::BTreeSet;
use std::process::Command;

use scenario::export::{kind_bundle, ExportFile, KIND_CONFIG, REPLAY};
use scenario::import::{self, Merge};
use scenario::{presets, write, Scenario};
use serde_json::Value;

fn yaml(name: &str, text: &str) -> Value {
    let docs = apiserver::yaml_to_json(name, text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(docs.len(), 1, "{name}");
    docs.into_iter().next().unwrap_or(Value::Null)
}

fn file<'a>(files: &'a [ExportFile], name: &str) -> &'a str {
    files
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.contents.as_str())
        .unwrap_or_else(|| panic!("no {name}"))
}

fn bash_n(script: &str) {
    use std::io::Write;
    use std::process::Stdio;
    // The script goes through stdin, so the test leaves no file behind.
    let child = Command::new("bash")
        .arg("-n")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = child.unwrap_or_else(|e| panic!("bash: {e}"));
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(script.as_bytes())
            .unwrap_or_else(|e| panic!("bash stdin: {e}"));
    }
    let out = child.wait_with_output();
    let out = out.unwrap_or_else(|e| panic!("bash: {e}"));
    assert!(
        out.status.success(),
        "bash -n: {}\n{script}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every label and taint of every scenario node is in the kind config (labels the kubelet
/// may set, taints through kubeadm) or, for the other labels, in a `kubectl label` of replay.sh.
fn carries_everything(s: &Scenario) {
    let files = kind_bundle(s, "a test").unwrap_or_else(|e| panic!("{e}"));
    let config = yaml(KIND_CONFIG, file(&files, KIND_CONFIG));
    let script = file(&files, REPLAY);
    bash_n(script);
    assert_eq!(config["kind"], "Cluster");
    assert_eq!(config["apiVersion"], "kind.x-k8s.io/v1alpha4");
    let kind_nodes = config["nodes"].as_array().cloned().unwrap_or_default();
    let scenario_nodes = s.node_objects();
    // kind adds a control plane when the scenario has none.
    let offset = kind_nodes.len() - scenario_nodes.len();
    assert!(offset <= 1);
    let text = file(&files, KIND_CONFIG);
    let kind_names: Vec<String> = text
        .lines()
        .filter_map(|l| l.split_once(", kind names it ").map(|(_, k)| k.to_string()))
        .collect();
    assert_eq!(kind_names.len(), scenario_nodes.len());
    for ((node, kn), kind_name) in scenario_nodes
        .iter()
        .zip(&kind_nodes[offset..])
        .zip(&kind_names)
    {
        let patch = kn["kubeadmConfigPatches"][0].as_str().unwrap_or("");
        let patch = yaml("patch", patch);
        let taints: BTreeSet<String> = patch["nodeRegistration"]["taints"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|t| {
                let v = t["value"]
                    .as_str()
                    .map(|v| format!("={v}"))
                    .unwrap_or_default();
                format!(
                    "{}{v}:{}",
                    t["key"].as_str().unwrap_or(""),
                    t["effect"].as_str().unwrap_or("")
                )
            })
            .collect();
        let want: BTreeSet<String> = node
            .spec
            .as_ref()
            .and_then(|s| s.taints.clone())
            .unwrap_or_default()
            .iter()
            .map(write::taint_string)
            .collect();
        assert_eq!(taints, want, "{kind_name}");
        // The labels the scenario declares (kind sets hostname, arch and os itself).
        let name = node.metadata.name.clone().unwrap_or_default();
        let declared = s
            .nodes
            .iter()
            .find(|e| e.names.contains(&name))
            .map(|e| e.labels.clone())
            .unwrap_or_default();
        for (k, v) in declared {
            if k == "node-role.kubernetes.io/control-plane" {
                continue; // kubeadm's
            }
            let in_config = kn["labels"][&k].as_str() == Some(v.as_str());
            let by_kubectl = script.contains(&format!("kubectl label node {kind_name} {k}={v}"))
                || script.contains(&format!("kubectl label node {kind_name} '{k}={v}'"));
            assert!(
                in_config || by_kubectl,
                "{kind_name}: label {k}={v} is carried nowhere"
            );
        }
        if node.spec.as_ref().and_then(|s| s.unschedulable) == Some(true) {
            assert!(
                script.contains(&format!("kubectl cordon {kind_name}")),
                "{script}"
            );
        }
    }
}

#[test]
fn every_preset_exports_valid_yaml_and_bash_with_every_label_and_taint() {
    for p in presets::ALL {
        let s = scenario::parse(p.file, p.text).unwrap_or_else(|e| panic!("{e}"));
        if s.node_objects().len() > 20 {
            continue; // kind clusters of hundreds of nodes are not a thing
        }
        carries_everything(&s);
    }
}

#[test]
fn an_imported_gke_cluster_exports_with_its_labels_taints_and_cordon() {
    let mut s = scenario::parse(
        "s.yaml",
        "scenario: gke\nscript:\n  - node stop gke-prod-gpu-pool-5d19e2b7-w2lf\n  - sleep 1m\n  - kubectl get nodes\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let nodes = import::import_nodes("gke", include_str!("fixtures/gke-nodes.yaml"))
        .unwrap_or_else(|e| panic!("{e}"));
    import::merge_nodes(&mut s, nodes, Merge::Replace, "gke").unwrap_or_else(|e| panic!("{e}"));
    carries_everything(&s);
    let files = kind_bundle(&s, "a test").unwrap_or_else(|e| panic!("{e}"));
    let script = file(&files, REPLAY);
    // Simulation verbs become their real equivalent on kind.
    assert!(
        script.contains("exec gke-worker5 systemctl stop kubelet"),
        "{script}"
    );
    assert!(script.contains("\nsleep 60\n"), "{script}");
    assert!(
        file(&files, KIND_CONFIG).contains("cpu=8"),
        "capacity is noted"
    );
}

#[test]
fn bad_manifest_names_are_refused_with_a_hint() {
    let s = scenario::parse("s.yaml", "scenario: x\nfiles:\n  ../x.yaml: a\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let e = kind_bundle(&s, "t")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        e.contains("not a plain file name") && e.contains("hint:"),
        "{e}"
    );
    let s = scenario::parse("s.yaml", "scenario: x\nfiles:\n  replay.sh: a\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let e = kind_bundle(&s, "t")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("clashes"), "{e}");
}
