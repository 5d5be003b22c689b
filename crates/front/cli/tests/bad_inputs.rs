//! `docs/bad-inputs.md`, the catalogue of bad inputs and the message each gets, is generated
//! here so that it stays true: the inputs of `crates/play/scenario/tests/common/bad_inputs.rs` run
//! through the functions the page and `dsplay` call, then `dsplay`'s own command-line mistakes
//! run through the binary. The test fails when the document differs from what it renders;
//! `UPDATE_GOLDEN=1 cargo test -p dsplay-cli --test bad_inputs` rewrites it.

#[path = "../../../play/scenario/tests/common/bad_inputs.rs"]
mod catalogue;

use std::path::{Path, PathBuf};
use std::process::Command;

use catalogue::{Group, Row};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// A directory holding the files the command lines name, so that messages name them as typed.
fn workdir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bad-inputs-cli");
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("empty-dir")).expect("scratch dir");
    let f1 = std::fs::read_to_string(root().join("presets/f1-one-pod-per-node.yaml")).expect("F-1");
    let lesson = catalogue::lesson_with("      answer: \"2\"", "      answer: \"5\"");
    let files: [(&str, &[u8]); 7] = [
        ("f1.yaml", f1.as_bytes()),
        ("typo.yaml", b"scenario: x\nnodse: []\n"),
        ("broken.yaml", b"scenario: x\nnodes: [a, {\n"),
        ("latin1.yaml", b"scenario: x\ntitle: caf\xe9\n"),
        ("lesson.yaml", lesson.as_bytes()),
        (
            "nodes.yaml",
            b"apiVersion: v1\nkind: List\nitems:\n- kind: Node\n  metadata: {name: a}\n  spec:\n    taints: [{key: k, effect: Never}]\n",
        ),
        ("empty.yaml", b""),
    ];
    for (name, text) in files {
        std::fs::write(d.join(name), text).expect("write");
    }
    d
}

/// `dsplay`'s command-line mistakes: each must exit 2 with `error:` and a hint on stderr.
fn cli() -> Group {
    let dir = workdir();
    let cases: &[(&str, &[&str])] = &[
        ("no command", &[]),
        ("a misspelt command", &["rnu", "f1.yaml"]),
        ("`run` without a file", &["run"]),
        ("`run` of a file that does not exist", &["run", "nope.yaml"]),
        ("`run` of a directory", &["run", "empty-dir"]),
        (
            "`run` of a file with a misspelt key (`typo.yaml`: `scenario: x`, `nodse: []`)",
            &["run", "typo.yaml"],
        ),
        (
            "`run` of a file with a YAML error (`broken.yaml`: `scenario: x`, `nodes: [a, {`)",
            &["run", "broken.yaml"],
        ),
        (
            "`run` of a file that is not UTF-8 (`latin1.yaml`: `title: café` in Latin-1)",
            &["run", "latin1.yaml"],
        ),
        ("`run` of an empty file", &["run", "empty.yaml"]),
        ("a misspelt flag", &["run", "f1.yaml", "--outptu", "json"]),
        (
            "an unknown output format",
            &["run", "f1.yaml", "--output", "yaml"],
        ),
        ("a flag without its value", &["run", "f1.yaml", "--trace"]),
        (
            "a trace file that cannot be written",
            &["run", "f1.yaml", "--trace", "no/such/dir/t.jsonl"],
        ),
        (
            "`explain` of a misspelt node",
            &["explain", "f1.yaml", "wroker2"],
        ),
        (
            "`export` to an unknown target",
            &["export", "minikube", "f1.yaml"],
        ),
        (
            "`export yaml` with `--out`",
            &["export", "yaml", "f1.yaml", "--out", "x"],
        ),
        ("`test` of a path that does not exist", &["test", "nope"]),
        (
            "`test` of a directory without scenario files",
            &["test", "empty-dir"],
        ),
        (
            "`test` of a lesson whose answer is not a choice (`lesson.yaml`)",
            &["test", "lesson.yaml"],
        ),
        (
            "`share` at a time that is not a number",
            &["share", "f1.yaml", "--at", "soon"],
        ),
        (
            "`open` of a link of an unknown format",
            &["open", "#s=2.abc"],
        ),
        (
            "`open` of an address without a link",
            &["open", "https://example.org/"],
        ),
        (
            "`--nodes` of a file that does not exist",
            &["run", "f1.yaml", "--nodes", "no/such.yaml"],
        ),
        (
            "`--nodes` with a bad taint (`nodes.yaml`: `effect: Never`)",
            &["run", "f1.yaml", "--nodes", "nodes.yaml"],
        ),
        (
            "`--add-nodes` of a scenario file",
            &["run", "f1.yaml", "--add-nodes", "f1.yaml"],
        ),
        (
            "`serve-api` on a port out of range",
            &["serve-api", "f1.yaml", "--port", "99999"],
        ),
        (
            "`new lesson` over a file that exists",
            &["new", "lesson", "f1.yaml"],
        ),
        (
            "`new lesson` with an upper-case name",
            &["new", "lesson", "Taints"],
        ),
        (
            "`new lesson` with a name ending in `-`",
            &["new", "lesson", "taints-"],
        ),
        (
            "`new lesson` at a path whose file name is not a lesson id",
            &["new", "lesson", "x/My_Lesson.yaml"],
        ),
    ];
    let rows = cases
        .iter()
        .map(|(what, args)| {
            let line = std::iter::once("dsplay")
                .chain(args.iter().copied())
                .map(|a| {
                    if a.is_empty() || a.contains(|c: char| " #&'\"".contains(c)) {
                        format!("'{a}'")
                    } else {
                        a.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ");
            let mut problems = Vec::new();
            let mut row = Row::run(*what, line, || {
                let o = Command::new(env!("CARGO_BIN_EXE_dsplay"))
                    .args(*args)
                    .current_dir(&dir)
                    .output()
                    .expect("run dsplay");
                let err = String::from_utf8_lossy(&o.stderr).trim_end().to_string();
                if o.status.code() != Some(2) {
                    problems.push(format!("exits {:?}, not 2 (bad input)", o.status.code()));
                }
                if !err.contains("error: ") {
                    problems.push("no `error: ` on stderr".into());
                }
                if o.status.success() {
                    Ok(String::from_utf8_lossy(&o.stdout).into_owned())
                } else {
                    Err(err)
                }
            });
            row.problems = problems;
            row
        })
        .collect();
    Group {
        title: "dsplay command line",
        intro: "`dsplay` run in a directory holding the files the rows name (`f1.yaml` is the \
                F-1 preset). What it prints on stderr; each exits with status 2, bad input."
            .into(),
        location: false,
        hint: true,
        rows,
    }
}

#[test]
fn docs_bad_inputs_md_is_what_the_code_prints() {
    let mut groups = catalogue::groups();
    groups.push(cli());
    let problems = catalogue::problems(&groups);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let rows: usize = groups.iter().map(|g| g.rows.len()).sum();
    assert!(rows >= 100, "only {rows} bad inputs");

    let path = root().join(catalogue::DOC);
    let want = catalogue::render_doc(&groups);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{} is stale: run `{}`",
        path.display(),
        catalogue::REGENERATE
    );
}

#[test]
fn table_cells_escape_pipes_backticks_and_control_characters() {
    use catalogue::{cell, code};
    assert_eq!(code("a|b"), "`a\\|b`");
    assert_eq!(code("say `x`"), "`` say `x` ``");
    assert_eq!(code("``"), "``` `` ```");
    assert_eq!(code("  hint: x"), "`  hint: x`");
    assert_eq!(code(" x "), "`  x  `");
    assert_eq!(code("a\tb\0c\u{1b}"), "`a␉b␀c␛`");
    assert_eq!(code("\u{feff}x"), "`⟨U+FEFF⟩x`");
    assert_eq!(cell("a\nb\n"), "`a`<br>`b`");
    assert_eq!(cell("a\n\nb"), "`a`<br><br>`b`");
    assert_eq!(cell(""), "*(empty)*");
    assert!(catalogue::has_location("s.yaml:3:1: bad"));
    assert!(catalogue::has_location("x\n13:14: bad"));
    assert!(!catalogue::has_location("at 10:30 today"));
}
