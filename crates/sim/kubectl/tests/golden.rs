//! Golden transcripts: every `tests/golden/*.txt` holds `$ kubectl …` lines followed by what
//! the command printed, run against a fresh fake cluster (tests/common; `Fake::failures` when
//! the file starts with `# fixture: failures`). `UPDATE_GOLDEN=1`
//! rewrites the outputs; the commands are the test vectors.
//!
//! Layout per command: stdout as is; then `[stderr]` and its text; `[hint] …`; `[exit N]`;
//! `[no newline at end]` when stdout does not end in a newline. `rollout status` is polled
//! with the fake advancing one rollout step between polls.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use kubectl::WaitState;

fn render(fake: &mut common::Fake, line: &str) -> String {
    let mut out = format!("$ {line}\n");
    let mut r = kubectl::run(fake, line);
    let mut stdout = std::mem::take(&mut r.stdout);
    if let Some(mut wait) = r.wait.take() {
        for _ in 0..100 {
            fake.tick();
            match wait.poll(fake) {
                WaitState::Pending(text) => stdout.push_str(&text),
                WaitState::Done(text) => {
                    stdout.push_str(&text);
                    break;
                }
                WaitState::Failed(f) => {
                    r.stderr.push_str(&f.stderr);
                    r.exit_code = f.exit_code;
                    r.hint = r.hint.or(f.hint);
                    break;
                }
            }
        }
    }
    out.push_str(&stdout);
    if !stdout.is_empty() && !stdout.ends_with('\n') {
        out.push_str("\n[no newline at end]\n");
    }
    if !r.stderr.is_empty() {
        out.push_str("[stderr]\n");
        out.push_str(&r.stderr);
        if !r.stderr.ends_with('\n') {
            out.push('\n');
        }
    }
    if let Some(h) = &r.hint {
        out.push_str(&format!("[hint] {h}\n"));
    }
    if r.exit_code != 0 {
        out.push_str(&format!("[exit {}]\n", r.exit_code));
    }
    out
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

#[test]
fn golden_transcripts_match() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut files: Vec<PathBuf> = fs::read_dir(golden_dir())
        .expect("tests/golden exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    for path in files {
        let text = fs::read_to_string(&path).expect("readable golden file");
        let mut actual = String::new();
        // A first line `# fixture: failures` picks the cluster with failing pods.
        let mut fake = match text.lines().next() {
            Some(line @ "# fixture: failures") => {
                actual.push_str(line);
                actual.push('\n');
                common::Fake::failures()
            }
            _ => common::Fake::new(),
        };
        for line in text.lines() {
            if let Some(cmd) = line.strip_prefix("$ ") {
                actual.push_str(&render(&mut fake, cmd));
            }
        }
        if actual != text {
            if update {
                fs::write(&path, &actual).expect("writable golden file");
            } else {
                failures.push(format!(
                    "--- {}\n--- expected\n{text}\n--- actual\n{actual}",
                    path.display()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden file(s) differ (UPDATE_GOLDEN=1 to accept):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
