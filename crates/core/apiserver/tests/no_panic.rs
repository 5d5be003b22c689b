//! No input makes the decoder, defaults or validation panic (DESIGN §6).

mod common;

use apiserver::defaults::set_defaults_daemon_set;
use apiserver::validation::validate_daemon_set;
use apiserver::{decode_manifests, Manifest};
use common::DS_YAML;
use proptest::prelude::*;

/// Runs the whole create path on whatever decodes; only errors are allowed, never a panic.
fn submit(text: &str) {
    match decode_manifests("fuzz.yaml", text) {
        Ok(manifests) => {
            for m in manifests {
                if let Manifest::DaemonSet(mut ds, map) = m {
                    set_defaults_daemon_set(&mut ds);
                    if let Err(e) = validate_daemon_set(&ds) {
                        for fe in &e.errors {
                            let _ = map.locate(&fe.path);
                        }
                        let _ = (e.to_string(), e.hint());
                    }
                }
            }
        }
        Err(e) => {
            assert!(e.line >= 1 && e.column >= 1);
            let _ = e.to_string();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(text in "\\PC{0,200}") {
        submit(&text);
    }

    #[test]
    fn yaml_like_text_never_panics(text in "[ \\t\\n:\\-{}\\[\\],'\"&*!|>#%@`a-z0-9.~?<]{0,300}") {
        submit(&text);
    }

    #[test]
    fn truncations_of_a_valid_manifest_never_panic(cut in 0usize..DS_YAML.len()) {
        let end = (0..=cut).rev().find(|i| DS_YAML.is_char_boundary(*i)).unwrap_or(0);
        submit(&DS_YAML[..end]);
    }

    #[test]
    fn single_byte_corruptions_of_a_valid_manifest_never_panic(
        at in 0usize..DS_YAML.len(),
        with in prop::sample::select(vec![' ', '\t', ':', '-', '"', '\'', '[', '{', '}', '&', '*', '\n', '#', 'y']),
    ) {
        let mut text = DS_YAML.to_string();
        if text.is_char_boundary(at) && text.is_char_boundary(at + 1) {
            text.replace_range(at..at + 1, &with.to_string());
        }
        submit(&text);
    }
}

#[test]
fn pathological_inputs_are_errors_not_panics() {
    for text in [
        "\u{feff}",
        "\0",
        "---\n...\n---",
        "? [a, b]\n: c\n",
        "? {a: 1}\n: c\n",
        "~: x\n",
        "a: !!int foo\n",
        "a: .nan\n",
        "a: *missing\n",
        "<<: 1\n",
        "apiVersion: apps/v1\nkind: DaemonSet\nspec: {template: {spec: {containers: [null, {}, 1]}}}\n",
        "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {creationTimestamp: 2024-13-45T99:99:99Z}\n",
        "apiVersion: apps/v1\nkind: DaemonSet\nspec: {updateStrategy: {rollingUpdate: {maxUnavailable: \"99999999999999999999999%\"}}}\n",
        "apiVersion: v1\nkind: List\nitems: 5\n",
        "apiVersion: v1\nkind: List\nitems: [[], 1, {kind: Pod}]\n",
    ] {
        submit(text);
    }
}
