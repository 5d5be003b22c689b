//! Malformed input at every place it enters — scenario files, script and terminal lines,
//! kubectl, manifests, the YAML editor, the node and pod forms, share links, node imports,
//! lesson files, compare lists — gets a message with its location and a hint where the entry
//! point gives them, and nothing panics. The inputs are the catalogue of
//! `common/bad_inputs.rs`; the exact messages are pinned by `docs/bad-inputs.md`, which
//! `crates/front/cli/tests/bad_inputs.rs` generates (adding `dsplay`'s own errors).

#[path = "common/bad_inputs.rs"]
mod bad_inputs;

#[test]
fn every_bad_input_is_refused_with_a_message_that_says_where_and_what_to_do() {
    let groups = bad_inputs::groups();
    let problems = bad_inputs::problems(&groups);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// This crate's sections of the catalogue, as this build prints them, are the document's.
#[test]
fn docs_bad_inputs_md_has_the_messages_this_crate_prints() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../..")
        .join(bad_inputs::DOC);
    let doc = std::fs::read_to_string(&path).unwrap_or_default();
    let stale: Vec<String> = bad_inputs::groups()
        .iter()
        .enumerate()
        .map(|(i, g)| (g.title, bad_inputs::render_group(i + 1, g)))
        .filter(|(_, section)| !doc.contains(section.as_str()))
        .map(|(title, _)| title.to_string())
        .collect();
    assert!(
        stale.is_empty(),
        "{} is stale (sections {}): run `{}`",
        path.display(),
        stale.join(", "),
        bad_inputs::REGENERATE
    );
}

#[test]
fn a_failed_expect_names_its_line_and_what_was_observed() {
    let s = scenario::parse(
        "s.yaml",
        "scenario: x\nnodes: [{name: w}]\nscript:\n  - kubectl get ds\n  - expect: kubectl get nodes -o name\n    equals: node/v\n",
    )
    .expect("parses");
    let out = scenario::run(&s, false).expect("runs");
    assert_eq!(out.passed, 0);
    assert_eq!(
        out.failures
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["line 5:5: expect `kubectl get nodes -o name` equals \"node/v\", observed \"node/w\""]
    );
}
