//! The `dsplay` binary as users and CI run it (DESIGN §4.2): outputs, files and exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

const F1: &str = "presets/f1-one-pod-per-node.yaml";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// Runs `dsplay` from the repository root.
fn dsplay(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dsplay"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run dsplay")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

fn f1_text() -> String {
    std::fs::read_to_string(root().join(F1)).expect("F-1 preset")
}

fn script_len(file: &str, text: &str) -> usize {
    scenario::parse(file, text).expect("parses").script.len()
}

/// Bad input: exit 2, an `error:` with a hint, no panic.
fn assert_bad_input(o: &Output, must_contain: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(err.contains("error: "), "{err}");
    assert!(err.contains("hint: "), "{err}");
    assert!(err.contains(must_contain), "{must_contain:?} not in {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn run_text_prints_a_transcript_of_times_commands_and_outputs() {
    let o = dsplay(&["run", F1]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(
            "[   0.0s] $ kubectl apply -f fluentd.yaml\ndaemonset.apps/fluentd created\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("$ kubectl get ds -n kube-system\nNAME "),
        "{out}"
    );
    assert!(out.contains("successfully rolled out"), "{out}");
}

#[test]
fn run_json_is_one_array_with_one_element_per_script_line() {
    let o = dsplay(&["run", F1, "--output", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
    let items = v.as_array().expect("an array");
    assert_eq!(items.len(), script_len(F1, &f1_text()));
    let mut last_t = 0.0;
    for item in items {
        let obj = item.as_object().expect("objects");
        let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["command", "ok", "output", "t"]);
        let t = obj["t"].as_f64().expect("t is a number");
        assert!(t >= last_t, "time goes forward");
        last_t = t;
        assert!(obj["command"].is_string() && obj["output"].is_string());
        assert_eq!(obj["ok"], serde_json::Value::Bool(true));
    }
    assert_eq!(items[0]["command"], "kubectl apply -f fluentd.yaml");
}

#[test]
fn trace_flag_writes_json_lines_with_t_and_kind() {
    let dir = scratch("trace");
    let path = dir.join("trace.jsonl");
    let o = dsplay(&[
        "run",
        F1,
        "--until-settled",
        "--trace",
        path.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&path).expect("trace written");
    let mut kinds = std::collections::BTreeSet::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
        assert!(v["t"].is_number(), "{line}");
        kinds.insert(v["kind"].as_str().expect("kind").to_string());
    }
    for k in ["DaemonSetStatus", "Pod", "Node"] {
        assert!(kinds.contains(k), "{k} missing from {kinds:?}");
    }
}

/// Every preset's expectations pass. In debug builds the 5,000-node preset runs scaled to 500
/// nodes (the unoptimised binary needs 4 min for it at full size, 10 s scaled); `cargo test
/// --release` runs it as it is.
#[test]
fn test_on_the_presets_ends_with_all_passed() {
    let o = if cfg!(debug_assertions) {
        let dir = scratch("presets-scaled").join("presets");
        std::fs::create_dir_all(&dir).expect("scratch presets");
        for entry in std::fs::read_dir(root().join("presets")).expect("list presets") {
            let path = entry.expect("entry").path();
            let text =
                common::scaled_5000_to_500(&std::fs::read_to_string(&path).expect("read preset"));
            std::fs::write(dir.join(path.file_name().expect("a name")), text).expect("copy");
        }
        dsplay_in(dir.parent().expect("scratch"), &["test", "presets"])
    } else {
        dsplay(&["test", "presets"])
    };
    let out = stdout(&o);
    let last = out.lines().last().unwrap_or("");
    let (passed, failed) = last.split_once(" passed, ").expect("summary line");
    assert!(passed.parse::<usize>().expect("a count") > 0, "{out}");
    assert_eq!(failed, "0 failed", "{out}\n{}", stderr(&o));
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn a_broken_expectation_fails_with_its_line_and_the_observed_value() {
    let dir = scratch("broken");
    let text = f1_text().replace("equals: \"4\"", "equals: \"5\"");
    let path = dir.join("broken.yaml");
    std::fs::write(&path, &text).expect("write copy");
    let line = 1 + text
        .lines()
        .position(|l| l.contains("expect: kubectl get ds fluentd"))
        .expect("the expect line");
    let p = path.to_str().expect("utf-8");
    let o = dsplay(&["test", p]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let want = format!(
        "{p}:{line}:5: expect `kubectl get ds fluentd -n kube-system -o jsonpath={{.status.numberReady}}` equals \"5\", observed \"4\"\n"
    );
    assert!(out.contains(&want), "{want:?} not in\n{out}");
    assert!(out.ends_with("1 passed, 1 failed\n"), "{out}");

    // `run` exits 1 too and says where.
    let o = dsplay(&["run", p]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(&format!("{p}:{line}:5: expect")));
}

#[test]
fn explain_on_the_f1_control_plane_shows_the_untolerated_taint() {
    let o = dsplay(&["explain", F1, "control-plane"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("DaemonSet kube-system/fluentd on node control-plane: gets no daemon pod"),
        "{out}"
    );
    assert!(
        out.contains("[FAIL] R-ELG-3 taint node-role.kubernetes.io/control-plane:NoSchedule"),
        "{out}"
    );
    assert!(out.contains("not tolerated"), "{out}");
    assert!(out.contains("summary: no pod is placed here"), "{out}");

    let o = dsplay(&["explain", F1, "worker2"]);
    let out = stdout(&o);
    assert!(out.contains("on node worker2: gets a daemon pod"), "{out}");
    assert!(out.contains("its pods on worker2 now: fluentd-"), "{out}");
}

#[test]
fn explain_says_when_the_pod_a_node_should_run_is_refused() {
    // F-1 with a PriorityClass the cluster lacks: every worker should run a pod, none has one.
    let text = f1_text().replacen(
        "          containers:",
        "          priorityClassName: team-high\n          containers:",
        1,
    );
    assert_ne!(text, f1_text(), "the template changed");
    let dir = scratch("explain-refused");
    let file = dir.join("refused.yaml");
    std::fs::write(&file, &text).expect("written");
    let file = file.to_str().expect("utf-8 path");
    let o = dsplay(&["explain", file, "worker2"]);
    let out = stdout(&o);
    assert!(out.contains("on node worker2: gets a daemon pod"), "{out}");
    assert!(out.contains("its pods on worker2 now: none"), "{out}");
    assert!(
        out.contains(
            "but the controller's create fails: pods \"fluentd-\" is forbidden: no PriorityClass with name team-high was found"
        ),
        "{out}"
    );
    // The preset as it is: its pods run, and there is nothing to add.
    let out = stdout(&dsplay(&["explain", F1, "worker2"]));
    assert!(!out.contains("create fails"), "{out}");
}

const EXPORT_SCENARIO: &str = r#"scenario: export-me
title: Everything export must carry
nodes:
  - name: cp
    labels: {node-role.kubernetes.io/control-plane: ""}
    taints: ["node-role.kubernetes.io/control-plane:NoSchedule"]
  - {pool: gpu, count: 2, labels: {accelerator: nvidia, node-role.kubernetes.io/gpu: ""}, taints: ["dedicated=gpu:NoSchedule", "maintenance:NoExecute"]}
  - {name: plain, capacity: {cpu: "8"}}
files:
  ds.yaml: |
    apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: agent}
    spec:
      selector: {matchLabels: {app: agent}}
      template:
        metadata: {labels: {app: agent}}
        spec:
          containers: [{name: a, image: "busybox:1.36"}]
script:
  - kubectl apply -f ds.yaml
  - kubectl rollout status ds/agent
  - sleep 1m30s
  - node stop plain
  - node start plain
  - node add late --label zone=b
  - node remove gpu2
  - pod fail agent-xyz
  - kubectl get pods --field-selector spec.nodeName=plain -o name
  - expect: kubectl get ds agent -o jsonpath={.status.desiredNumberScheduled}
    equals: "1"
  - expect: kubectl get ds agent -o 'jsonpath={.metadata.name} $HOME'
    contains: "it's $HOME"
"#;

fn yaml(text: &str) -> serde_yaml::Value {
    serde_yaml::from_str(text).unwrap_or_else(|e| panic!("invalid YAML: {e}\n{text}"))
}

#[test]
fn export_kind_writes_a_valid_kind_config_manifests_and_a_bash_script() {
    let dir = scratch("export");
    let file = dir.join("export-me.yaml");
    std::fs::write(&file, EXPORT_SCENARIO).expect("write scenario");
    let out_dir = dir.join("out");
    let o = dsplay(&[
        "export",
        "kind",
        file.to_str().expect("utf-8"),
        "--out",
        out_dir.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));

    let config = yaml(&std::fs::read_to_string(out_dir.join("kind-config.yaml")).expect("config"));
    assert_eq!(config["kind"], "Cluster");
    assert_eq!(config["apiVersion"], "kind.x-k8s.io/v1alpha4");
    let nodes = config["nodes"].as_sequence().expect("nodes");
    let roles: Vec<&str> = nodes
        .iter()
        .map(|n| n["role"].as_str().expect("role"))
        .collect();
    assert_eq!(roles, ["control-plane", "worker", "worker", "worker"]);
    let taints_of = |n: &serde_yaml::Value| -> (String, Vec<String>) {
        let patch = yaml(n["kubeadmConfigPatches"][0].as_str().expect("patch text"));
        let taints = patch["nodeRegistration"]["taints"]
            .as_sequence()
            .expect("taints list")
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
        (patch["kind"].as_str().unwrap_or("").to_string(), taints)
    };
    assert_eq!(
        taints_of(&nodes[0]),
        (
            "InitConfiguration".into(),
            vec!["node-role.kubernetes.io/control-plane:NoSchedule".into()]
        )
    );
    for gpu in &nodes[1..3] {
        assert_eq!(gpu["labels"]["accelerator"], "nvidia");
        assert_eq!(
            taints_of(gpu),
            (
                "JoinConfiguration".into(),
                vec![
                    "dedicated=gpu:NoSchedule".into(),
                    "maintenance:NoExecute".into()
                ]
            )
        );
    }
    assert_eq!(taints_of(&nodes[3]), ("JoinConfiguration".into(), vec![]));

    let ds = std::fs::read_to_string(out_dir.join("ds.yaml")).expect("manifest");
    assert!(ds.contains("kind: DaemonSet"));

    let replay = out_dir.join("replay.sh");
    let script = std::fs::read_to_string(&replay).expect("replay.sh");
    let check = Command::new("bash")
        .arg("-n")
        .arg(&replay)
        .output()
        .expect("bash");
    assert!(
        check.status.success(),
        "bash -n: {}\n{script}",
        stderr(&check)
    );
    assert!(script.contains("set -euo pipefail"));
    // A label the kubelet may not set itself is applied with kubectl.
    assert!(
        script.contains(
            "kubectl label node export-me-worker node-role.kubernetes.io/gpu= --overwrite"
        ),
        "{script}"
    );
    let body: Vec<&str> = script
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect();
    let pos = |needle: &str| {
        body.iter()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("{needle:?} not in\n{script}"))
    };
    assert!(pos("kubectl apply -f ds.yaml") < pos("kubectl rollout status ds/agent"));
    assert!(pos("kubectl rollout status") < pos("sleep 90"));
    assert!(pos("sleep 90") < pos("systemctl stop kubelet"));
    assert!(
        script.contains("exec export-me-worker3 systemctl stop kubelet"),
        "{script}"
    );
    assert!(script.contains("# node add late --label zone=b"));
    assert!(script.contains("# pod fail agent-xyz"));
    assert!(
        script.contains("spec.nodeName=export-me-worker3 -o name"),
        "{script}"
    );
    assert!(script.contains(
        "test \"$(kubectl get ds agent -o 'jsonpath={.status.desiredNumberScheduled}')\" = \"1\" || expect_failed"
    ), "{script}");

    // Without --out, the same files go to stdout behind headers.
    let o = dsplay(&["export", "kind", file.to_str().expect("utf-8")]);
    let out = stdout(&o);
    for h in [
        "==> kind-config.yaml <==",
        "==> ds.yaml <==",
        "==> replay.sh <==",
    ] {
        assert!(out.contains(h), "{h} missing");
    }
}

#[test]
fn export_kind_of_the_f1_preset_is_valid() {
    let dir = scratch("export-f1");
    let o = dsplay(&["export", "kind", F1, "--out", dir.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let config = yaml(&std::fs::read_to_string(dir.join("kind-config.yaml")).expect("config"));
    assert_eq!(config["nodes"].as_sequence().map(Vec::len), Some(5));
    let check = Command::new("bash")
        .arg("-n")
        .arg(dir.join("replay.sh"))
        .output()
        .expect("bash");
    assert!(check.status.success(), "{}", stderr(&check));
}

/// Each command refuses a broken file as bad input, naming it. Each kind of bad input and its
/// exact message is in the catalogue, `tests/bad_inputs.rs` (`docs/bad-inputs.md`).
#[test]
fn a_broken_file_is_bad_input_for_every_command() {
    let dir = scratch("bad");
    let broken = dir.join("broken.yaml");
    std::fs::write(&broken, "scenario: x\nnodes: [a, {\n").expect("write");
    let b = broken.to_str().expect("utf-8");
    for args in [
        vec!["run", b],
        vec!["test", b],
        vec!["explain", b, "a"],
        vec!["export", "kind", b],
    ] {
        assert_bad_input(&dsplay(&args), &format!("{b}:"));
    }
}

#[test]
fn help_and_version() {
    let o = dsplay(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("dsplay run FILE"));
    let o = dsplay(&["help", "run"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("--until-settled"));
    let o = dsplay(&["export", "--help"]);
    assert!(stdout(&o).contains("replay.sh"));
    let o = dsplay(&["--version"]);
    assert_eq!(
        stdout(&o),
        format!("dsplay {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// `dsplay` run in `dir` (for commands that write relative to it).
fn dsplay_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dsplay"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run dsplay")
}

/// The last line of `dsplay test`: (passed, failed).
fn summary(o: &Output) -> (usize, usize) {
    let out = stdout(o);
    let last = out.lines().last().unwrap_or("");
    let parse = || -> Option<(usize, usize)> {
        let (p, f) = last.split_once(" passed, ")?;
        Some((p.parse().ok()?, f.strip_suffix(" failed")?.parse().ok()?))
    };
    parse().unwrap_or_else(|| panic!("no summary in {out}"))
}

#[test]
fn test_on_the_lessons_ends_with_all_passed() {
    let o = dsplay(&["test", "lessons"]);
    let (passed, failed) = summary(&o);
    assert!(passed >= 16, "{}", stdout(&o));
    assert_eq!(failed, 0, "{}\n{}", stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(0));
}

/// A lesson written by `dsplay new lesson` in a scratch folder; returns its path and text.
fn new_lesson(dir: &Path, name: &str) -> (String, String) {
    let path = dir.join(format!("{name}.yaml"));
    let p = path.to_str().expect("utf-8").to_string();
    let o = dsplay(&["new", "lesson", &p]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&path).expect("written");
    (p, text)
}

#[test]
fn new_lesson_writes_a_lesson_that_passes_and_never_overwrites() {
    let dir = scratch("new-lesson");
    let (p, text) = new_lesson(&dir, "taints-101");
    assert!(text.contains("scenario: taints-101"), "{text}");
    let o = dsplay(&["test", &p]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    assert_eq!(summary(&o), (2, 0));

    std::fs::write(&p, "scenario: mine\n").expect("the author's edits");
    let o = dsplay(&["new", "lesson", &p]);
    assert_bad_input(&o, "already exists; not overwriting it");
    assert_eq!(
        std::fs::read_to_string(&p).ok().as_deref(),
        Some("scenario: mine\n")
    );

    // A bare NAME goes to lessons/NAME.yaml, the folder made if need be.
    let o = dsplay_in(&dir, &["new", "lesson", "nodes-201"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("wrote lessons/nodes-201.yaml\n"),
        "{}",
        stdout(&o)
    );
    assert!(dir.join("lessons/nodes-201.yaml").is_file());

    // A bad name writes nothing (the catalogue, tests/bad_inputs.rs, has the messages).
    assert_bad_input(
        &dsplay_in(&dir, &["new", "lesson", "Taints"]),
        "contains 'T'",
    );
    assert!(!dir.join("lessons/Taints.yaml").exists());
}

#[test]
fn a_lesson_whose_check_holds_before_the_solution_fails() {
    let dir = scratch("lesson-early");
    let (p, text) = new_lesson(&dir, "early");
    // Checks of what is true before the learner does anything: worker2 runs its pod and the
    // DaemonSet wants all three workers.
    let text = text.replacen(
        "jsonpath={.status.desiredNumberScheduled}\n          equals: \"2\"",
        "jsonpath={.status.desiredNumberScheduled}\n          equals: \"3\"",
        1,
    );
    let text = text.replacen(
        "spec.nodeName=worker2 -o name\n          equals: \"\"",
        "spec.nodeName=worker2 -o name\n          contains: \"pod/agent-\"",
        1,
    );
    std::fs::write(&p, &text).expect("write");
    let line = 1 + text
        .lines()
        .position(|l| l.contains("- expect: kubectl get pods -l app=agent"))
        .expect("the check");
    let o = dsplay(&["test", &p]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let want = format!(
        "{p}:{line}:11: step 3 (\"Send the agent away from worker2\"): the task's check already holds before its solution is played; it cannot tell whether the learner did the task\n"
    );
    assert!(
        stdout(&o).contains(&want),
        "{want:?} not in\n{}",
        stdout(&o)
    );
    assert_eq!(summary(&o), (1, 1));
}

#[test]
fn a_lesson_whose_solution_never_satisfies_its_check_fails_naming_the_check() {
    let dir = scratch("lesson-never");
    let (p, text) = new_lesson(&dir, "never");
    // NoSchedule leaves the running pod where it is: the check never holds.
    let text = text.replacen(
        "- kubectl taint node worker2 dedicated=infra:NoExecute",
        "- kubectl taint node worker2 dedicated=infra:NoSchedule",
        1,
    );
    std::fs::write(&p, &text).expect("write");
    let line = 1 + text
        .lines()
        .position(|l| l.contains("- expect: kubectl get pods -l app=agent"))
        .expect("the check");
    let o = dsplay(&["test", &p]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let want = format!(
        "{p}:{line}:11: step 3 (\"Send the agent away from worker2\"): the check never held within 600 s after the solution: expect `kubectl get pods -l app=agent --field-selector spec.nodeName=worker2 -o name` equals \"\", last observed \"pod/agent-"
    );
    assert!(out.contains(&want), "{want:?} not in\n{out}");
    assert_eq!(summary(&o), (1, 1));
}

#[test]
fn a_bad_lesson_file_is_bad_input_with_its_location() {
    let dir = scratch("lesson-bad");
    let (p, text) = new_lesson(&dir, "bad");
    let text = text.replacen("      answer: \"3\"", "      answer: \"5\"", 1);
    std::fs::write(&p, &text).expect("write");
    let line = 1 + text
        .lines()
        .position(|l| l.contains("answer: \"5\""))
        .expect("the answer");
    let o = dsplay(&["test", &p]);
    assert_bad_input(
        &o,
        &format!("{p}:{line}:15: answer \"5\" is not one of the choices"),
    );
    // `run` reads a lesson file as the scenario it is, and refuses a broken one the same way.
    assert_bad_input(&dsplay(&["run", &p]), "is not one of the choices");
}

/// `dsplay predict` (issue 25 part 4): F-4's rollout per update strategy, at the preset's size
/// and grown; bad input explained.
#[test]
fn predict_prints_the_rollout_per_strategy_and_grows_the_cluster() {
    let f4 = "presets/f4-rolling-update-max-unavailable-1.yaml";
    let o = dsplay(&["predict", f4]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("Rollout of default/ru1 on 5 nodes"),
        "{out}"
    );
    let row = |out: &str, label: &str| {
        out.lines()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("no {label} row in {out}"))
            .split_whitespace()
            .rev()
            .take(4)
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    // F-4 measured about 27 s; one pod at a time, in four waves.
    assert_eq!(row(&out, "maxUnavailable 1 ")[..2], ["1", "4"], "{out}");
    assert!(
        row(&out, "maxUnavailable 1 ")[3].starts_with("27."),
        "{out}"
    );
    assert_eq!(row(&out, "maxSurge 1")[0], "0", "{out}");

    let o = dsplay(&["predict", f4, "--nodes", "21"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("Rollout of default/ru1 on 21 nodes"),
        "{out}"
    );
    // 25 % of 20 workers: five at a time.
    assert_eq!(row(&out, "maxUnavailable 25%")[0], "5", "{out}");

    assert_bad_input(
        &dsplay(&["predict", f4, "--nodes", "0"]),
        "0 nodes is out of range",
    );
    assert_bad_input(&dsplay(&["predict", F1]), "never changes a DaemonSet");
    assert_bad_input(&dsplay(&["predict"]), "takes one FILE");
    let help = stdout(&dsplay(&["help", "predict"]));
    assert!(help.starts_with("Usage: dsplay predict FILE"), "{help}");
}
