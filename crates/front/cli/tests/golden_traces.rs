//! Every preset's and lesson's behaviour, pinned: a refactor must leave each one byte-identical.
//!
//! For each file in `presets/` and `lessons/`, `dsplay run FILE --until-settled --trace T` is
//! run; the SHA-256 of its transcript (stdout) and of its cluster trace (every change, one JSON
//! line each) are compared with `tests/golden/traces.txt`. A change meant to keep behaviour
//! (a refactor, a faster path) must pass unchanged. A change meant to alter behaviour
//! regenerates the file with `UPDATE_GOLDEN=1 cargo test -p dsplay-cli --test golden_traces`
//! and says why in its commit; `git diff` then shows which files moved.
//!
//! The digests stand for 2.8 MB of traces. To see *what* changed, run the same command with a
//! binary built at the previous commit and `diff` the two traces.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

mod common;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn golden_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/traces.txt")
}

fn hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .fold(String::new(), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// `presets/x.yaml` and `lessons/y.yaml`, sorted, as paths relative to the repository root.
fn scenario_files() -> Vec<String> {
    let mut files = Vec::new();
    for dir in ["presets", "lessons"] {
        for entry in std::fs::read_dir(root().join(dir)).expect("list scenario dir") {
            let name = entry.expect("dir entry").file_name();
            let name = name.to_string_lossy();
            if name.ends_with(".yaml") {
                files.push(format!("{dir}/{name}"));
            }
        }
    }
    files.sort();
    files
}

/// The 5,000-node preset is pinned at 500 nodes ([`common::scaled_5000_to_500`]). It plays
/// at full size in the e2e tests and its own expectations (`dsplay test presets` in release
/// builds).
const SCALED: &str = "presets/cluster-5000-nodes.yaml";

/// Where a scenario file is run from: the repository, or for [`SCALED`] a scaled copy under
/// `scratch` at the same relative path.
fn run_from(file: &str, scratch: &Path) -> PathBuf {
    if file != SCALED {
        return root();
    }
    let text = std::fs::read_to_string(root().join(file)).expect("read the preset");
    let scaled = common::scaled_5000_to_500(&text);
    assert_ne!(scaled, text, "{file}: nothing to scale");
    let dir = scratch.join("scaled");
    let copy = dir.join(file);
    std::fs::create_dir_all(copy.parent().expect("a folder")).expect("scaled dir");
    std::fs::write(&copy, scaled).expect("write the scaled copy");
    dir
}

/// The two digests of one file's run: `(transcript, trace)`.
fn run(file: &str, scratch: &Path) -> (String, String) {
    let trace = scratch.join(file.replace('/', "_") + ".jsonl");
    let out = Command::new(env!("CARGO_BIN_EXE_dsplay"))
        .args(["run", file, "--until-settled", "--trace"])
        .arg(&trace)
        .current_dir(run_from(file, scratch))
        .output()
        .expect("run dsplay");
    assert!(
        out.status.code() == Some(0),
        "`dsplay run {file}` exited with {:?}:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    let trace_bytes = std::fs::read(&trace).expect("read the trace");
    assert!(!trace_bytes.is_empty(), "{file}: an empty trace");
    (hex(&out.stdout), hex(&trace_bytes))
}

#[test]
fn every_preset_and_lesson_plays_byte_identically_to_the_golden_digests() {
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("golden-traces");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("scratch dir");

    let files = scenario_files();
    assert!(
        files.len() >= 29,
        "found only {} scenario files",
        files.len()
    );
    let mut now = BTreeMap::new();
    for file in &files {
        now.insert(file.clone(), run(file, &scratch));
    }
    let text: String = now
        .iter()
        .map(|(file, (out, trace))| format!("{file} {out} {trace}\n"))
        .collect();

    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(golden_file().parent().unwrap()).expect("golden dir");
        std::fs::write(golden_file(), &text).expect("write golden digests");
        return;
    }
    let golden = std::fs::read_to_string(golden_file()).expect(
        "tests/golden/traces.txt is missing: UPDATE_GOLDEN=1 cargo test -p dsplay-cli --test golden_traces",
    );
    let mut problems = Vec::new();
    let mut seen = 0;
    for line in golden.lines() {
        let mut parts = line.split(' ');
        let (Some(file), Some(out), Some(trace)) = (parts.next(), parts.next(), parts.next())
        else {
            problems.push(format!("malformed golden line {line:?}"));
            continue;
        };
        seen += 1;
        match now.get(file) {
            None => problems.push(format!("{file}: in the golden file, no longer in the tree")),
            Some((o, t)) => {
                if o != out {
                    problems.push(format!("{file}: the transcript changed"));
                }
                if t != trace {
                    problems.push(format!("{file}: the cluster trace changed"));
                }
            }
        }
    }
    if seen != now.len() {
        problems.push(format!(
            "{} files in the golden file, {} in the tree (a new preset or lesson needs UPDATE_GOLDEN=1)",
            seen,
            now.len()
        ));
    }
    assert!(
        problems.is_empty(),
        "behaviour changed:\n  {}\nIf it was meant to, regenerate with UPDATE_GOLDEN=1 and say why in the commit.",
        problems.join("\n  ")
    );
}
