//! Export to a real cluster: what it takes to replay a scenario on kind. `kind-config.yaml`
//! (one kind node per scenario node, with its labels and taints), the scenario's manifests, and
//! `replay.sh` (the script as bash: kubectl lines with their waits, sleeps, `expect:` checks;
//! simulator-only verbs mapped to their real equivalent or to a comment saying what to do).
//!
//! kind names nodes after the cluster (`<cluster>-control-plane`, `<cluster>-worker2` …), so
//! node names in kubectl lines are rewritten to kind's. The YAML is written by hand with every
//! scalar in JSON quoting (valid YAML), to keep the layout and comments a reader expects.
//!
//! Pure text in, text out: the CLI writes the files, the web app offers them for download.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use k8s_openapi::api::core::v1::Taint;

use crate::format::{Check, Scenario, ScenarioError, Step};

const CONTROL_PLANE_LABEL: &str = "node-role.kubernetes.io/control-plane";
/// The kind cluster config's file name.
pub const KIND_CONFIG: &str = "kind-config.yaml";
/// The replay script's file name.
pub const REPLAY: &str = "replay.sh";

/// One exported file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportFile {
    pub name: String,
    pub contents: String,
    /// The replay script: to be made executable.
    pub executable: bool,
}

/// A string as a YAML double-quoted scalar (JSON quoting is a subset of YAML's).
fn yq(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

/// A word as bash reads it back unchanged.
fn sh(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c));
    if safe {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// A value in double quotes when that is unambiguous (as in `test "$(…)" = "4"`), else single.
fn sh_value(s: &str) -> String {
    if s.chars().any(|c| "$`\\\"!".contains(c)) {
        format!("'{}'", s.replace('\'', r"'\''"))
    } else {
        format!("\"{s}\"")
    }
}

/// Labels the kubelet may set on its own node (`--node-labels`, which kind's `labels:` uses);
/// others in the kubernetes.io and k8s.io namespaces are refused by the NodeRestriction rules.
fn kubelet_may_set(key: &str) -> bool {
    let Some((prefix, _)) = key.split_once('/') else {
        return true;
    };
    let restricted = ["kubernetes.io", "k8s.io"]
        .iter()
        .any(|d| prefix == *d || prefix.ends_with(&format!(".{d}")));
    !restricted
        || prefix == "kubelet.kubernetes.io"
        || prefix == "node.kubernetes.io"
        || prefix.ends_with(".kubelet.kubernetes.io")
        || prefix.ends_with(".node.kubernetes.io")
        || [
            "kubernetes.io/hostname",
            "kubernetes.io/arch",
            "kubernetes.io/os",
            "topology.kubernetes.io/region",
            "topology.kubernetes.io/zone",
            "beta.kubernetes.io/arch",
            "beta.kubernetes.io/os",
            "beta.kubernetes.io/instance-type",
            "failure-domain.beta.kubernetes.io/region",
            "failure-domain.beta.kubernetes.io/zone",
        ]
        .contains(&key)
}

/// One kind node.
struct KindNode {
    /// The scenario's name for it (None: added because kind needs a control plane).
    scenario_name: Option<String>,
    kind_name: String,
    control_plane: bool,
    labels: BTreeMap<String, String>,
    taints: Vec<Taint>,
    capacity: Vec<String>,
    unschedulable: bool,
}

/// kind's cluster name: lower-case letters, digits and '-'.
fn cluster_name(id: &str) -> String {
    let mut s: String = id
        .to_ascii_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    s.truncate(40);
    let s = s.trim_matches('-').to_string();
    if s.is_empty() {
        "dsplay".into()
    } else {
        s
    }
}

fn kind_nodes(s: &Scenario, cluster: &str) -> Vec<KindNode> {
    let mut nodes = Vec::new();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut name_for = |role: &'static str| {
        let n = counts.entry(role).or_insert(0);
        *n += 1;
        if *n == 1 {
            format!("{cluster}-{role}")
        } else {
            format!("{cluster}-{role}{n}")
        }
    };
    let has_control_plane = s
        .nodes
        .iter()
        .any(|e| !e.names.is_empty() && e.labels.contains_key(CONTROL_PLANE_LABEL));
    if !has_control_plane {
        nodes.push(KindNode {
            scenario_name: None,
            kind_name: name_for("control-plane"),
            control_plane: true,
            labels: BTreeMap::new(),
            taints: vec![Taint {
                key: CONTROL_PLANE_LABEL.into(),
                effect: "NoSchedule".into(),
                ..Default::default()
            }],
            capacity: Vec::new(),
            unschedulable: false,
        });
    }
    for e in &s.nodes {
        let control_plane = e.labels.contains_key(CONTROL_PLANE_LABEL);
        for n in &e.names {
            nodes.push(KindNode {
                scenario_name: Some(n.clone()),
                kind_name: name_for(if control_plane {
                    "control-plane"
                } else {
                    "worker"
                }),
                control_plane,
                labels: e.labels.clone(),
                taints: e.taints.clone(),
                capacity: e
                    .capacity
                    .iter()
                    .chain(&e.allocatable)
                    .map(|(k, v)| format!("{k}={}", v.0))
                    .collect(),
                unschedulable: e.unschedulable,
            });
        }
    }
    nodes
}

fn kind_config(generated_by: &str, s: &Scenario, cluster: &str, nodes: &[KindNode]) -> String {
    let mut y = String::new();
    let _ = writeln!(y, "# kind cluster for scenario {:?}: {}", s.id, s.title);
    let _ = writeln!(
        y,
        "# Generated by {generated_by}; needs kind v0.20 or later."
    );
    y.push_str("#   kind create cluster --config kind-config.yaml && ./replay.sh\n");
    y.push_str(
        "# Labels a kubelet may not set on itself (kubernetes.io and k8s.io namespaces) are\n",
    );
    y.push_str("# applied by replay.sh with `kubectl label node`.\n");
    y.push_str("kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\n");
    let _ = writeln!(y, "name: {}", yq(cluster));
    y.push_str("nodes:\n");
    let mut first_control_plane = true;
    for n in nodes {
        let role = if n.control_plane {
            "control-plane"
        } else {
            "worker"
        };
        match &n.scenario_name {
            Some(sn) => {
                let _ = writeln!(y, "# scenario node {sn:?}, kind names it {}", n.kind_name);
            }
            None => {
                let _ = writeln!(
                    y,
                    "# not in the scenario: kind needs a control-plane node ({}); it is tainted\n# so that DaemonSets without a toleration leave it alone",
                    n.kind_name
                );
            }
        }
        let _ = writeln!(y, "- role: {role}");
        if !n.capacity.is_empty() {
            let _ = writeln!(
                y,
                "  # capacity {} cannot be set in kind: the node has the host's",
                n.capacity.join(" ")
            );
        }
        let by_kubectl: Vec<String> = n
            .labels
            .iter()
            .filter(|(k, _)| !kubelet_may_set(k))
            .filter(|(k, _)| !(n.control_plane && *k == CONTROL_PLANE_LABEL))
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        if !by_kubectl.is_empty() {
            let _ = writeln!(
                y,
                "  # labels set by replay.sh (the kubelet may not set them): {}",
                by_kubectl.join(" ")
            );
        }
        if n.unschedulable {
            y.push_str("  # cordoned: replay.sh runs `kubectl cordon` on it\n");
        }
        let labels: Vec<_> = n
            .labels
            .iter()
            .filter(|(k, _)| kubelet_may_set(k))
            .collect();
        if !labels.is_empty() {
            y.push_str("  labels:\n");
            for (k, v) in labels {
                let _ = writeln!(y, "    {}: {}", yq(k), yq(v));
            }
        }
        // The first control plane is set up by `kubeadm init`, every other node joins.
        let config = if n.control_plane && first_control_plane {
            first_control_plane = false;
            "InitConfiguration"
        } else {
            "JoinConfiguration"
        };
        y.push_str("  kubeadmConfigPatches:\n  - |\n");
        let _ = writeln!(y, "    kind: {config}");
        y.push_str("    nodeRegistration:\n");
        if n.taints.is_empty() {
            // An explicit empty list: kubeadm would otherwise taint a control plane.
            y.push_str("      taints: []\n");
        } else {
            y.push_str("      taints:\n");
            for t in &n.taints {
                let _ = writeln!(y, "      - key: {}", yq(&t.key));
                if let Some(v) = t.value.as_deref().filter(|v| !v.is_empty()) {
                    let _ = writeln!(y, "        value: {}", yq(v));
                }
                let _ = writeln!(y, "        effect: {}", yq(&t.effect));
            }
        }
    }
    y
}

/// Rewrites a word naming a scenario node (`worker2`, `spec.nodeName=worker2`, `node/worker2`).
fn rename(word: &str, names: &BTreeMap<&str, &str>) -> String {
    if let Some(k) = names.get(word) {
        return k.to_string();
    }
    for sep in ['=', '/'] {
        if let Some((pre, last)) = word.rsplit_once(sep) {
            if let Some(k) = names.get(last) {
                return format!("{pre}{sep}{k}");
            }
        }
    }
    word.to_string()
}

/// A kubectl line as bash, node names rewritten; None when it is not a kubectl line.
fn kubectl_line(cmd: &str, names: &BTreeMap<&str, &str>) -> Option<String> {
    let words = kubectl::split_words(cmd).ok()?;
    if words.first().map(String::as_str) != Some("kubectl") {
        return None;
    }
    Some(
        words
            .iter()
            .map(|w| sh(&rename(w, names)))
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// `# …` lines for text that may span lines.
fn comment(text: &str) -> String {
    text.lines().map(|l| format!("# {l}\n")).collect()
}

fn simulation_verb(cmd: &str, names: &BTreeMap<&str, &str>) -> String {
    let words = kubectl::split_words(cmd).unwrap_or_default();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let kind = |n: &str| names.get(n).map_or(n.to_string(), |k| k.to_string());
    match words.as_slice() {
        ["sleep", d] => match crate::script::parse_duration(d) {
            Ok(d) => {
                let secs = d.as_secs_f64();
                if secs.fract() == 0.0 {
                    format!("sleep {}\n", d.as_secs())
                } else {
                    format!("sleep {secs}\n")
                }
            }
            Err(e) => comment(&format!("{cmd}: {e}; skipped")),
        },
        ["node", "add", name, ..] => comment(&format!(
            "{cmd}\nBy hand: kind cannot add a node to a running cluster. Add a `- role: worker`\nnode for {name} to kind-config.yaml and recreate the cluster, or skip this step."
        )),
        ["node", "remove", name] => format!(
            "# {cmd}: the node's VM disappears (its container, then its Node object)\n{} rm -f {n}\nkubectl delete node {n} --ignore-not-found\n",
            "\"${KIND_PROVIDER:-docker}\"",
            n = sh(&kind(name))
        ),
        ["node", "stop", name] => format!(
            "# {cmd}: the kubelet stops posting status (NotReady, then Unknown)\n{} exec {} systemctl stop kubelet\n",
            "\"${KIND_PROVIDER:-docker}\"",
            sh(&kind(name))
        ),
        ["node", "start", name] => format!(
            "# {cmd}: the kubelet resumes\n{} exec {} systemctl start kubelet\n",
            "\"${KIND_PROVIDER:-docker}\"",
            sh(&kind(name))
        ),
        ["pod", "crash", ..] => comment(&format!(
            "{cmd}\nBy hand: make that pod's container exit, e.g. `kubectl exec POD -- kill 1`\nfor a process that handles SIGTERM; the kubelet restarts it. Pod names differ on a real\ncluster: find it with `kubectl get pods -o wide`."
        )),
        ["pod", "fail", ..] => comment(&format!(
            "{cmd}\nBy hand: a daemon pod fails when its kubelet evicts it under node pressure (memory,\ndisk), or rejects it at admission (OutOfcpu: raise kube-reserved and restart the kubelet);\nkubectl cannot do that. Pod names differ on a real cluster: find it with\n`kubectl get pods -o wide`."
        )),
        _ => comment(&format!("{cmd}\nNot a kubectl command or a known simulation verb; skipped.")),
    }
}

fn replay_script(generated_by: &str, s: &Scenario, cluster: &str, nodes: &[KindNode]) -> String {
    let file = s.source_name.as_str();
    let names: BTreeMap<&str, &str> = sort::map(
        nodes
            .iter()
            .filter_map(|n| Some((n.scenario_name.as_deref()?, n.kind_name.as_str()))),
    );
    let mut b = String::new();
    b.push_str("#!/usr/bin/env bash\n");
    let _ = writeln!(
        b,
        "# Replays scenario {:?} ({}) on a real kind cluster.",
        s.id, s.title
    );
    let _ = writeln!(b, "# Generated by {generated_by}.");
    let _ = writeln!(
        b,
        "#   kind create cluster --config kind-config.yaml   # cluster {cluster:?}, context kind-{cluster}"
    );
    b.push_str("#   ./replay.sh\n");
    b.push_str("# Node names are kind's (see kind-config.yaml); kubectl lines are rewritten to use them.\n");
    b.push_str("# Pod names and timings differ from the simulator's; waits may need longer on a real cluster.\n");
    b.push_str("set -euo pipefail\ncd \"$(dirname \"$0\")\"\n\n");
    b.push_str("expect_failed() {\n  echo \"replay.sh: $1: expectation did not hold: $2\" >&2\n  exit 1\n}\n\n");
    b.push_str("kubectl wait --for=condition=Ready nodes --all --timeout=300s\n");
    for n in nodes {
        for (k, v) in n.labels.iter().filter(|(k, _)| !kubelet_may_set(k)) {
            if n.control_plane && k == CONTROL_PLANE_LABEL {
                continue; // kubeadm sets it
            }
            let _ = writeln!(
                b,
                "kubectl label node {} {} --overwrite",
                sh(&n.kind_name),
                sh(&format!("{k}={v}"))
            );
        }
        if n.unschedulable {
            let _ = writeln!(b, "kubectl cordon {}", sh(&n.kind_name));
        }
    }
    let mut expectations = 0;
    for line in &s.script {
        let _ = writeln!(b, "\n# {file}:{}", line.line);
        match &line.step {
            Step::Run(cmd) => match kubectl_line(cmd, &names) {
                Some(k) => {
                    b.push_str(&k);
                    b.push('\n');
                }
                None => b.push_str(&simulation_verb(cmd, &names)),
            },
            Step::Expect { command, check } => {
                let Some(k) = kubectl_line(command, &names) else {
                    b.push_str(&comment(&format!(
                        "expect: {command}\nOnly kubectl commands can be checked on a real cluster; skipped."
                    )));
                    continue;
                };
                expectations += 1;
                let loc = sh(&format!("{file}:{}:{}", line.line, line.column));
                match check {
                    Check::Equals(want) => {
                        let want = want.trim();
                        let want = names.get(want).copied().unwrap_or(want);
                        let what = sh(&format!("`{command}` equals {want:?}"));
                        let _ = writeln!(
                            b,
                            "test \"$({k})\" = {} || expect_failed {loc} {what}",
                            sh_value(want)
                        );
                    }
                    Check::Contains(want) => {
                        let what = sh(&format!("`{command}` contains {want:?}"));
                        let _ = writeln!(
                            b,
                            "[[ \"$({k})\" == *{}* ]] || expect_failed {loc} {what}",
                            sh(want)
                        );
                    }
                }
            }
        }
    }
    let _ = writeln!(
        b,
        "\necho \"replay.sh: done, {expectations} expectation(s) held\""
    );
    b
}

/// Checks a manifest's name is a plain file name that does not clash with ours.
fn check_file_name(s: &Scenario, name: &str) -> Result<(), ScenarioError> {
    let err = |message: String, hint: &str| ScenarioError {
        source_name: s.source_name.clone(),
        line: 1,
        column: 1,
        message,
        hint: Some(hint.to_string()),
    };
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\', '\0'])
        && !name.chars().any(char::is_control);
    if !plain {
        return Err(err(
            format!("files: {name:?} is not a plain file name"),
            "name manifests like `ds.yaml`, without directories",
        ));
    }
    if name == KIND_CONFIG || name == REPLAY {
        return Err(err(
            format!("files: {name:?} clashes with a file the export writes"),
            "rename the manifest (and its `kubectl apply -f` lines)",
        ));
    }
    Ok(())
}

/// Every file of the kind export, in the order a reader wants them: the kind config, the
/// manifests, the replay script. `generated_by` says in their headers what made them (e.g.
/// "`dsplay export kind presets/f3-taints.yaml`" or "the DaemonSet Playground").
pub fn kind_bundle(s: &Scenario, generated_by: &str) -> Result<Vec<ExportFile>, ScenarioError> {
    let cluster = cluster_name(&s.id);
    let nodes = kind_nodes(s, &cluster);
    let file = |name: &str, contents: String, executable: bool| ExportFile {
        name: name.to_string(),
        contents,
        executable,
    };
    let mut out = vec![file(
        KIND_CONFIG,
        kind_config(generated_by, s, &cluster, &nodes),
        false,
    )];
    for (name, text) in &s.files {
        check_file_name(s, name)?;
        let mut text = text.clone();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        out.push(file(name, text, false));
    }
    out.push(file(
        REPLAY,
        replay_script(generated_by, s, &cluster, &nodes),
        true,
    ));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_quoting_round_trips_awkward_words() {
        assert_eq!(sh("get"), "get");
        assert_eq!(sh("jsonpath={.a}"), "'jsonpath={.a}'");
        assert_eq!(sh("it's"), r"'it'\''s'");
        assert_eq!(sh(""), "''");
    }

    #[test]
    fn kubelet_label_restrictions() {
        assert!(kubelet_may_set("disk"));
        assert!(kubelet_may_set("example.com/pool"));
        assert!(kubelet_may_set("node.kubernetes.io/instance-type"));
        assert!(!kubelet_may_set("node-role.kubernetes.io/control-plane"));
        assert!(!kubelet_may_set("foo.k8s.io/x"));
    }

    #[test]
    fn node_names_are_rewritten_in_words() {
        let names = BTreeMap::from([("worker2", "c-worker2")]);
        assert_eq!(rename("worker2", &names), "c-worker2");
        assert_eq!(
            rename("spec.nodeName=worker2", &names),
            "spec.nodeName=c-worker2"
        );
        assert_eq!(rename("node/worker2", &names), "node/c-worker2");
        assert_eq!(rename("worker", &names), "worker");
    }
}
