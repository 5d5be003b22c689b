//! `dsplay` with a real cluster's nodes (`--nodes`), share links (`share`, `open`) and
//! `export yaml`: outputs, exit codes, and errors with a location and a hint.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const F1: &str = "presets/f1-one-pod-per-node.yaml";
const GKE: &str = "crates/play/scenario/tests/fixtures/gke-nodes.yaml";
const GPU_NODE: &str = "gke-prod-gpu-pool-5d19e2b7-w2lf";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

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

fn ok(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    stdout(o)
}

fn assert_bad_input(o: &Output, must_contain: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(err.contains("error: ") && err.contains("hint: "), "{err}");
    assert!(err.contains(must_contain), "{must_contain:?} not in {err}");
    assert!(!err.contains("panicked"), "{err}");
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-share-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

#[test]
fn a_scenario_runs_on_a_real_clusters_nodes() {
    // F-1's log collector on the GKE nodes: every node but the tainted GPU node (the cordoned
    // one included) — four, as on the kind cluster the preset describes.
    let out = ok(&dsplay(&["test", F1, "--nodes", GKE]));
    assert!(out.ends_with("2 passed, 0 failed\n"), "{out}");
    let out = ok(&dsplay(&["run", F1, "--nodes", GKE]));
    assert!(out.contains("gke-prod-default-pool-8f2a1c3e-q9vd"), "{out}");
    let out = ok(&dsplay(&["explain", F1, GPU_NODE, "--nodes", GKE]));
    assert!(out.contains("gets no daemon pod"), "{out}");
    assert!(out.contains("nvidia.com/gpu=present:NoSchedule"), "{out}");
}

#[test]
fn add_nodes_keeps_the_scenarios_own() {
    let out = ok(&dsplay(&["explain", F1, "worker2", "--add-nodes", GKE]));
    assert!(out.contains("on node worker2: gets a daemon pod"), "{out}");
}

#[test]
fn export_yaml_writes_a_scenario_file_with_the_imported_nodes() {
    let out = ok(&dsplay(&["export", "yaml", F1, "--nodes", GKE]));
    let s = scenario::parse("exported.yaml", &out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    assert_eq!(s.node_objects().len(), 5);
    assert!(out.contains("unschedulable: true"), "{out}");
    assert!(!out.contains("managedFields"), "{out}");
    let dir = scratch("export-yaml");
    let file = dir.join("gke.yaml");
    std::fs::write(&file, &out).expect("write");
    let out = ok(&dsplay(&["test", file.to_str().expect("utf-8")]));
    assert!(out.ends_with("2 passed, 0 failed\n"), "{out}");
}

#[test]
fn share_prints_a_link_that_open_reads_back() {
    let link = ok(&dsplay(&[
        "share",
        F1,
        "--at",
        "12.5",
        "--base",
        "https://example.org/play/",
    ]));
    let link = link.trim();
    assert!(link.starts_with("https://example.org/play/#s=1."), "{link}");
    assert!(link.ends_with("&t=12.5"), "{link}");
    let fragment = link.split_once('#').map(|(_, f)| f.len() + 1).unwrap_or(0);
    assert!(fragment < 1_000, "default preset link {fragment}");
    let yaml = ok(&dsplay(&["open", link]));
    assert!(
        yaml.starts_with("# Opened from a share link; it opens at t=12.5s\n"),
        "{yaml}"
    );
    let opened = scenario::parse("opened.yaml", &yaml).unwrap_or_else(|e| panic!("{e}"));
    let text = std::fs::read_to_string(root().join(F1)).expect("F-1");
    let original = scenario::parse(F1, &text).unwrap_or_else(|e| panic!("{e}"));
    assert!(opened.same_content(&original));
}

#[test]
fn share_table_lists_every_preset() {
    let out = ok(&dsplay(&["share", "--table"]));
    assert_eq!(
        out.lines().count(),
        2 + scenario::presets::ALL.len(),
        "{out}"
    );
    assert!(out.contains("| f1-one-pod-per-node | 5 |"), "{out}");
    let out = ok(&dsplay(&["share", "--table", "presets"]));
    assert!(out.contains("| presets/f3-taints.yaml | 5 |"), "{out}");
}

/// A bad node file is bad input for every command that takes `--nodes`, located in that file.
/// Each kind of bad input and its exact message is in the catalogue, `tests/bad_inputs.rs`.
#[test]
fn a_bad_node_file_is_bad_input_for_every_command() {
    let dir = scratch("bad-nodes");
    let bad = dir.join("nodes.yaml");
    std::fs::write(
        &bad,
        "apiVersion: v1\nkind: List\nitems:\n- kind: Node\n  metadata: {name: a}\n  spec:\n    taints: [{key: k, effect: Never}]\n",
    )
    .expect("write");
    let b = bad.to_str().expect("utf-8");
    for args in [
        vec!["run", F1, "--nodes", b],
        vec!["test", F1, "--nodes", b],
        vec!["explain", F1, "a", "--nodes", b],
        vec!["export", "kind", F1, "--nodes", b],
        vec!["export", "yaml", F1, "--nodes", b],
        vec!["share", F1, "--nodes", b],
    ] {
        let o = dsplay(&args);
        if args[0] == "test" {
            // `test` reports bad input per file and exits 2 at the end.
            assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
            assert!(stderr(&o).contains(&format!("{b}:7:")), "{}", stderr(&o));
            continue;
        }
        assert_bad_input(&o, &format!("{b}:7:"));
        assert!(
            stderr(&o).contains("\"Never\" is not one of"),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn help_documents_nodes_share_and_open() {
    let out = ok(&dsplay(&["--help"]));
    for want in [
        "--nodes NODES.yaml",
        "kubectl get nodes -o yaml",
        "dsplay share FILE",
        "dsplay open LINK",
    ] {
        assert!(out.contains(want), "{want:?} not in\n{out}");
    }
    assert!(ok(&dsplay(&["help", "run"])).contains("--add-nodes"));
    assert!(ok(&dsplay(&["share", "--help"])).contains("--table"));
    assert!(ok(&dsplay(&["help", "open"])).contains("Decodes a share link"));
}
