//! The crates' layers, checked: a crate depends only on crates of its own layer or below.
//!
//! The layers, bottom up (ARCHITECTURE.md, "Layers"):
//!
//! 0. **base**: helpers with no crate of ours below them (sorting, the object codec, HTTP, LZMA,
//!    apimachinery in `k8s_base`, which uses `sort`).
//! 1. **core**: the API server's rules and the controller, sans-IO.
//! 2. **sim**: the virtual cluster and kubectl over it.
//! 3. **scenario**: scenario files, lessons, the timeline and the view model.
//! 4. **front**: the page and the CLI.
//! 5. **tools**: xtask.
//!
//! The test reads every `crates/**/Cargo.toml`, takes the path dependencies of its
//! `[dependencies]` and `[target.….dependencies]` tables (dev-dependencies are test code, which
//! may use a higher layer's helpers), and fails, naming each edge, when one points up, or when a
//! crate is in no layer (a new crate must be given one here). The checker is tested on a planted
//! upward edge below, so a broken reader cannot pass by finding no edges.

use std::fs;
use std::path::{Path, PathBuf};

/// Each crate of ours and its layer (the index in [`LAYER_NAMES`]).
const LAYERS: &[(&str, usize)] = &[
    ("dsplay-sort", 0),
    ("dsplay-codec", 0),
    ("dsplay-httpd", 0),
    ("dsplay-unlzma", 0),
    ("dsplay-k8s", 0),
    ("dsplay-apiserver", 1),
    ("dsplay-controller", 1),
    ("dsplay-cluster", 2),
    ("dsplay-kubectl", 2),
    ("dsplay-scenario", 3),
    ("dsplay-app", 4),
    ("dsplay-cli", 4),
    ("xtask", 5),
];
const LAYER_NAMES: &[&str] = &["base", "core", "sim", "scenario", "front", "tools"];

/// A crate as its manifest declares it: its name and the names of its path dependencies.
#[derive(Debug)]
struct Manifest {
    file: String,
    name: String,
    deps: Vec<String>,
}

/// Reads a manifest's package name and the package names of its path dependencies (a renamed
/// dependency, `x = { package = "dsplay-x", path = … }`, counts by its package name).
fn parse(file: &str, text: &str) -> Manifest {
    let mut name = String::new();
    let mut deps = Vec::new();
    let mut section = "";
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
            continue;
        }
        let value = |key: &str| {
            let from = line.find(&format!("{key} = \""))? + key.len() + 4;
            Some(line[from..from + line[from..].find('"')?].to_string())
        };
        if section == "[package]" && line.starts_with("name") {
            name = value("name").unwrap_or_default();
        }
        let runtime = section == "[dependencies]"
            || (section.starts_with("[target.") && section.ends_with(".dependencies]"));
        if runtime && line.contains("path = \"") {
            let key = line.split(['=', ' ', '.']).next().unwrap_or_default();
            deps.push(value("package").unwrap_or_else(|| key.to_string()));
        }
    }
    Manifest {
        file: file.to_string(),
        name,
        deps,
    }
}

fn layer(name: &str) -> Option<usize> {
    LAYERS.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
}

/// Every edge that points up, and every crate in no layer, in words.
fn violations(manifests: &[Manifest]) -> Vec<String> {
    let mut out = Vec::new();
    for m in manifests {
        let Some(from) = layer(&m.name) else {
            out.push(format!(
                "{}: crate `{}` is in no layer; give it one in crates/xtask/tests/layers.rs",
                m.file, m.name
            ));
            continue;
        };
        for d in &m.deps {
            match layer(d) {
                Some(to) if to > from => out.push(format!(
                    "{}: `{}` ({}) depends on `{d}` ({}), a higher layer",
                    m.file, m.name, LAYER_NAMES[from], LAYER_NAMES[to]
                )),
                Some(_) => {}
                None => out.push(format!(
                    "{}: `{}` depends on `{d}`, a crate in no layer",
                    m.file, m.name
                )),
            }
        }
    }
    out
}

fn manifests_under(dir: &Path, root: &Path, out: &mut Vec<Manifest>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            let skip = path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n == "target" || n.starts_with('.') || n == "fuzz");
            if !skip {
                manifests_under(&path, root, out);
            }
        } else if path.file_name().is_some_and(|n| n == "Cargo.toml") {
            let text = fs::read_to_string(&path).unwrap_or_default();
            let file = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string();
            out.push(parse(&file, &text));
        }
    }
}

#[test]
fn no_crate_depends_on_a_higher_layer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut manifests = Vec::new();
    manifests_under(&root.join("crates"), &root, &mut manifests);
    assert!(
        manifests.len() >= 12,
        "read only {} manifests under crates/",
        manifests.len()
    );
    let edges: usize = manifests.iter().map(|m| m.deps.len()).sum();
    assert!(edges >= 15, "read only {edges} dependency edges");
    let bad = violations(&manifests);
    assert!(bad.is_empty(), "layering broken:\n{}", bad.join("\n"));
}

#[test]
fn a_planted_upward_dependency_fails_the_check() {
    let controller = parse(
        "crates/controller/Cargo.toml",
        "[package]\nname = \"dsplay-controller\"\n\n[dependencies]\n\
         sort = { package = \"dsplay-sort\", path = \"../sort\" }\n\
         scenario = { package = \"dsplay-scenario\", path = \"../scenario\" }\n\n\
         [dev-dependencies]\ncli = { package = \"dsplay-cli\", path = \"../cli\" }\n",
    );
    assert_eq!(controller.deps, ["dsplay-sort", "dsplay-scenario"]);
    assert_eq!(
        violations(&[controller]),
        [
            "crates/controller/Cargo.toml: `dsplay-controller` (core) depends on \
          `dsplay-scenario` (scenario), a higher layer"
        ]
    );
}

#[test]
fn target_specific_and_plain_path_dependencies_are_read_and_a_new_crate_needs_a_layer() {
    let m = parse(
        "crates/new/Cargo.toml",
        "[package]\nname = \"dsplay-new\"\n\
         [target.'cfg(not(target_arch = \"wasm32\"))'.dependencies]\n\
         dsplay-httpd = { path = \"../httpd\" }\nserde = \"1\"\n",
    );
    assert_eq!(m.deps, ["dsplay-httpd"]);
    assert_eq!(
        violations(&[m]),
        [
            "crates/new/Cargo.toml: crate `dsplay-new` is in no layer; give it one in \
          crates/xtask/tests/layers.rs"
        ]
    );
}
