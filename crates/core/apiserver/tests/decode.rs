//! Decoding manifests the way `kubectl apply -f` reads them: YAML 1.1, strict fields, located
//! errors with hints.

mod common;

use apiserver::{decode_daemon_set, decode_manifests, yaml_to_json, DecodeErrorKind, Manifest};
use common::DS_YAML;

fn decode_err(text: &str) -> apiserver::DecodeError {
    match decode_manifests("ds.yaml", text) {
        Ok(m) => panic!("expected an error, decoded {} objects", m.len()),
        Err(e) => e,
    }
}

#[test]
fn f2_unquoted_yes_is_rejected_like_kubectl_with_location_and_hint() {
    let text = DS_YAML.replace("k42: \"yes\"", "k42: yes");
    let e = decode_err(&text);
    assert_eq!(e.kind, DecodeErrorKind::TypeMismatch);
    assert_eq!((e.line, e.column), (16, 14));
    assert_eq!(
        e.path.as_deref(),
        Some("spec.template.spec.nodeSelector.k42")
    );
    assert_eq!(
        e.message,
        "Error from server (BadRequest): error when creating \"ds.yaml\": DaemonSet in version \"v1\" cannot be handled as a DaemonSet: json: cannot unmarshal bool into Go struct field PodSpec.spec.template.spec.nodeSelector of type string"
    );
    assert_eq!(
        e.hint.as_deref(),
        Some("quote the value: k42: \"yes\" — YAML 1.1 (which kubectl uses) reads unquoted yes/no/on/off/true/false as booleans")
    );
    assert_eq!(
        e.to_string(),
        format!(
            "ds.yaml:16:14: {}\n  hint: {}",
            e.message,
            e.hint.as_deref().unwrap_or("")
        )
    );
}

#[test]
fn f2_quoted_yes_is_accepted_as_the_string_yes() {
    let (ds, map) = match decode_daemon_set("ds.yaml", DS_YAML) {
        Ok(x) => x,
        Err(e) => panic!("{e}"),
    };
    let selector = ds.spec.template.spec.and_then(|s| s.node_selector);
    assert_eq!(
        selector.and_then(|s| s.get("k42").cloned()).as_deref(),
        Some("yes")
    );
    assert_eq!(
        map.locate("spec.template.spec.nodeSelector.k42"),
        Some((16, 14))
    );
}

#[test]
fn every_yaml_1_1_boolean_spelling_is_rejected_for_a_string_field() {
    for word in [
        "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
        "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF",
    ] {
        let e = decode_err(&DS_YAML.replace("k42: \"yes\"", &format!("k42: {word}")));
        assert_eq!(e.kind, DecodeErrorKind::TypeMismatch, "{word}");
        assert!(
            e.hint
                .as_deref()
                .unwrap_or("")
                .contains(&format!("k42: \"{word}\"")),
            "{word}"
        );
    }
}

#[test]
fn unquoted_number_for_a_label_value_says_to_quote_it() {
    let e = decode_err(&DS_YAML.replace(
        "app: ds1\n    spec:",
        "app: ds1\n        version: 1.20\n    spec:",
    ));
    assert!(e.message.ends_with(
        "json: cannot unmarshal number into Go struct field ObjectMeta.spec.template.metadata.labels of type string"
    ), "{e}");
    assert_eq!((e.line, e.column), (14, 18));
    assert!(
        e.hint
            .as_deref()
            .unwrap_or("")
            .starts_with("quote the value: version: \"1.20\""),
        "{e}"
    );
}

#[test]
fn string_where_an_int_is_expected_is_located_and_says_remove_the_quotes() {
    let text = DS_YAML.replace(
        "        command:",
        "        ports:\n        - containerPort: \"8080\"\n        command:",
    );
    let e = decode_err(&text);
    assert!(e.message.ends_with(
        "json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32"
    ), "{e}");
    assert_eq!((e.line, e.column), (21, 26));
    assert_eq!(
        e.path.as_deref(),
        Some("spec.template.spec.containers[0].ports[0].containerPort")
    );
    assert_eq!(
        e.hint.as_deref(),
        Some("remove the quotes: containerPort: 8080 — this field takes a number (int32)")
    );
}

#[test]
fn a_mapping_where_a_list_is_expected_names_the_go_slice_type() {
    let text = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: x}\nspec:\n  template:\n    spec:\n      containers:\n        name: a\n";
    let e = decode_err(text);
    assert!(e.message.ends_with(
        "cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container"
    ), "{e}");
    assert_eq!((e.line, e.column), (8, 9));
    assert_eq!(
        e.hint.as_deref(),
        Some("`containers` takes a list: start each item with \"- \"")
    );
}

#[test]
fn a_number_too_large_for_int32_is_reported_with_its_value() {
    let e =
        decode_err("apiVersion: apps/v1\nkind: DaemonSet\nspec:\n  minReadySeconds: 3000000000\n");
    assert!(e.message.ends_with(
        "json: cannot unmarshal number 3000000000 into Go struct field DaemonSetSpec.spec.minReadySeconds of type int32"
    ), "{e}");
    assert_eq!((e.line, e.column), (4, 20));
}

#[test]
fn unknown_fields_are_strict_decoding_errors_with_a_suggestion() {
    let text = DS_YAML.replace("image: busybox", "imagee: busybox");
    let e = decode_err(&text);
    assert_eq!(e.kind, DecodeErrorKind::UnknownField);
    assert_eq!(
        e.message,
        "Error from server (BadRequest): error when creating \"ds.yaml\": DaemonSet in version \"v1\" cannot be handled as a DaemonSet: strict decoding error: unknown field \"spec.template.spec.containers[0].imagee\""
    );
    assert_eq!((e.line, e.column), (19, 9));
    assert_eq!(
        e.hint.as_deref(),
        Some("did you mean `image`? Container has no field `imagee`")
    );
}

#[test]
fn a_pod_field_written_under_the_daemonset_spec_says_where_it_belongs() {
    let text = DS_YAML.replace("  template:\n", "  tolerations: []\n  template:\n");
    let e = decode_err(&text);
    assert!(
        e.message
            .ends_with("strict decoding error: unknown field \"spec.tolerations\""),
        "{e}"
    );
    assert!(
        e.hint
            .as_deref()
            .unwrap_or("")
            .contains("belongs under spec.template.spec"),
        "{e}"
    );
}

#[test]
fn yaml_syntax_errors_carry_the_parsers_line_and_column() {
    let e = decode_err("apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: a: b\n");
    assert_eq!(e.kind, DecodeErrorKind::Syntax);
    assert_eq!((e.line, e.column), (4, 10));
    assert_eq!(
        e.message,
        "error: error parsing ds.yaml: error converting YAML to JSON: yaml: line 4: mapping values are not allowed in this context"
    );
    assert!(e.hint.is_some());
}

#[test]
fn bad_indentation_is_a_located_syntax_error() {
    let e =
        decode_err("apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: a\n namespace: b\n");
    assert_eq!(e.kind, DecodeErrorKind::Syntax);
    assert_eq!(e.line, 5);
    assert!(e.message.contains("did not find expected key"), "{e}");
}

#[test]
fn tabs_used_for_indentation_point_at_the_tab() {
    let e = decode_err("apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n\tname: a\n");
    assert_eq!(e.kind, DecodeErrorKind::Tab);
    assert_eq!((e.line, e.column), (4, 1));
    assert!(e
        .message
        .ends_with("yaml: line 4: found character that cannot start any token"));
    assert_eq!(
        e.hint.as_deref(),
        Some("indent with spaces: YAML does not allow tab characters in indentation")
    );
}

#[test]
fn control_characters_are_refused_as_go_yaml_refuses_them() {
    // go-yaml's reader checks every character before parsing: a NUL (a binary file), an
    // escape from a terminal, DEL or a C1 control anywhere, even in a quoted string.
    for (text, at, c) in [
        ("\u{0}\u{1}PK\u{3}\u{4}", (1, 1), "U+0000"),
        (
            "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: \"a\u{1b}[0m\"\n",
            (4, 11),
            "U+001B",
        ),
        (
            "apiVersion: apps/v1\nkind: Daemon\u{7f}Set\n",
            (2, 13),
            "U+007F",
        ),
        ("a: \u{9b}b\n", (1, 4), "U+009B"),
        ("a: b\u{fffe}\n", (1, 5), "U+FFFE"),
    ] {
        let e = decode_err(text);
        assert_eq!(e.kind, DecodeErrorKind::Syntax, "{text:?}");
        assert_eq!((e.line, e.column), at, "{text:?}");
        assert!(
            e.message.ends_with(
                "error converting YAML to JSON: yaml: control characters are not allowed"
            ),
            "{e}"
        );
        let hint = e.hint.as_deref().unwrap_or_default();
        assert!(
            hint.starts_with(&format!("remove the control character {c} here")),
            "{hint}"
        );
    }
    // What YAML allows: tab (outside indentation), CR, NEL, no-break space, BMP and astral text.
    for ok in [
        "a: \"b\tc\"\r\n",
        "a: b\u{85}\n",
        "a: b\u{a0}c\n",
        "a: ✓ 🐳\n",
        "\u{feff}a: b\n",
    ] {
        assert!(apiserver::yaml_to_json("x.yaml", ok).is_ok(), "{ok:?}");
    }
}

#[test]
fn duplicate_keys_are_rejected_at_the_second_key() {
    let e = decode_err("apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: a\n  name: b\n");
    assert_eq!(e.kind, DecodeErrorKind::DuplicateKey);
    assert_eq!((e.line, e.column), (5, 3));
    assert!(
        e.message
            .ends_with("line 5: key \"name\" already set in map"),
        "{e}"
    );
    assert!(e.hint.as_deref().unwrap_or("").contains("line 4"));
}

#[test]
fn an_empty_file_is_no_objects_passed_to_apply() {
    for text in ["", "\n# only a comment\n", "---\n---\n"] {
        let e = decode_err(text);
        assert_eq!(e.kind, DecodeErrorKind::Empty);
        assert_eq!(
            e.to_string().lines().next(),
            Some("ds.yaml:1:1: error: no objects passed to apply")
        );
    }
}

#[test]
fn a_document_that_is_not_a_mapping_is_rejected() {
    let e = decode_err("- a\n- b\n");
    assert_eq!(e.kind, DecodeErrorKind::NotAnObject);
    assert!(e
        .message
        .ends_with("json: cannot unmarshal array into Go value of type map[string]interface {}"));
}

#[test]
fn missing_kind_is_reported_like_kubectl_validation() {
    let e = decode_err("apiVersion: apps/v1\nmetadata:\n  name: a\n");
    assert_eq!(e.kind, DecodeErrorKind::KindNotSet);
    assert_eq!(
        e.message,
        "error: error validating \"ds.yaml\": error validating data: kind not set; if you choose to ignore these errors, turn validation off with --validate=false"
    );
    let e = decode_err("metadata:\n  name: a\n");
    assert!(e.message.contains("[apiVersion not set, kind not set]"));
}

#[test]
fn unknown_kind_is_a_resource_mapping_error_with_a_hint() {
    let e = decode_err("apiVersion: apps/v1\nkind: Foo\nmetadata:\n  name: x\n");
    assert_eq!(e.kind, DecodeErrorKind::UnknownKind);
    assert_eq!((e.line, e.column), (2, 7));
    assert_eq!(
        e.message,
        "error: resource mapping not found for name: \"x\" namespace: \"\" from \"ds.yaml\": no matches for kind \"Foo\" in version \"apps/v1\"\nensure CRDs are installed first"
    );
    let e = decode_err("apiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata:\n  name: x\n");
    assert!(
        e.hint
            .as_deref()
            .unwrap_or("")
            .contains("apiVersion: apps/v1"),
        "{e}"
    );
    let e = decode_err("apiVersion: apps/v1\nkind: daemonset\nmetadata:\n  name: x\n");
    assert!(
        e.hint.as_deref().unwrap_or("").contains("case-sensitive"),
        "{e}"
    );
}

#[test]
fn multi_document_streams_decode_in_order() {
    let text = format!(
        "{DS_YAML}---\napiVersion: v1\nkind: Node\nmetadata:\n  name: worker\n  labels: {{k42: \"yes\"}}\n---\n---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: default}}\nspec:\n  containers: [{{name: c, image: busybox}}]\n"
    );
    let m = match decode_manifests("all.yaml", &text) {
        Ok(m) => m,
        Err(e) => panic!("{e}"),
    };
    let kinds: Vec<_> = m.iter().map(|m| (m.kind(), m.name())).collect();
    assert_eq!(
        kinds,
        [("DaemonSet", "ds1"), ("Node", "worker"), ("Pod", "p")]
    );
    assert_eq!(m[1].source_map().document(), 1);
    assert_eq!(
        m[1].source_map().locate("metadata.labels.k42"),
        Some((26, 17))
    );
}

#[test]
fn a_list_decodes_each_item_with_item_relative_source_maps() {
    let text = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n1\n- apiVersion: apps/v1\n  kind: ControllerRevision\n  metadata: {name: r1}\n  revision: 2\n  data: {spec: {template: {x: [1, 2.5, yes]}}}\n";
    let m = match decode_manifests("nodes.yaml", text) {
        Ok(m) => m,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(m.len(), 2);
    assert_eq!(m[0].source_map().locate("metadata.name"), Some((7, 11)));
    let Manifest::ControllerRevision(cr, _) = &m[1] else {
        panic!("expected a ControllerRevision")
    };
    assert_eq!(cr.revision, Some(2));
    assert_eq!(
        cr.data.0,
        serde_json::json!({"spec": {"template": {"x": [1, 2.5, true]}}})
    );
}

#[test]
fn errors_inside_a_list_item_are_relative_to_that_item() {
    let text = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n1\n    labels: {a: on}\n";
    let e = decode_err(text);
    assert_eq!((e.line, e.column), (8, 17));
    assert_eq!(e.path.as_deref(), Some("metadata.labels.a"));
    assert!(e
        .message
        .contains("Node in version \"v1\" cannot be handled as a Node"));
}

#[test]
fn json_is_yaml() {
    let json = r#"{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","labels":{"a":"b"}},
      "status":{"capacity":{"cpu":"4","pods":110}}}"#;
    let m = match decode_manifests("node.json", json) {
        Ok(m) => m,
        Err(e) => panic!("{e}"),
    };
    let Manifest::Node(node, _) = &m[0] else {
        panic!("expected a Node")
    };
    let cap = node
        .status
        .as_ref()
        .and_then(|s| s.capacity.clone())
        .unwrap_or_default();
    assert_eq!(cap.get("pods").map(|q| q.0.as_str()), Some("110"));
}

/// The manifest with `resources: {…}` (a flow mapping's entries) on its container.
fn with_resources(entries: &str) -> String {
    DS_YAML.replace(
        "        command:",
        &format!("        resources: {{{entries}}}\n        command:"),
    )
}

/// The container's limits as decoded, each quantity's text.
fn decoded_limits(text: &str) -> Vec<(String, String)> {
    let (ds, _) = match decode_daemon_set("ds.yaml", text) {
        Ok(x) => x,
        Err(e) => panic!("{e}"),
    };
    let c = &ds.spec.template.spec.unwrap_or_default().containers[0];
    let limits = c.resources.as_ref().and_then(|r| r.limits.clone());
    limits
        .unwrap_or_default()
        .into_iter()
        .map(|(k, q)| (k, q.0))
        .collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(k, q)| (k.to_string(), q.to_string()))
        .collect()
}

#[test]
fn unquoted_quantities_are_accepted_like_go() {
    assert_eq!(
        decoded_limits(&with_resources("limits: {cpu: 1, memory: 1.5}")),
        pairs(&[("cpu", "1"), ("memory", "1.5")])
    );
}

/// Text that is no quantity fails decoding as `Quantity.UnmarshalJSON` fails it: the server's
/// message is `ParseQuantity`'s error, without a field path (`1K`: no such suffix; `K` is not
/// `k`). Ours adds the location and a hint.
#[test]
fn invalid_quantities_are_refused_by_the_decoder_with_upstreams_errors() {
    const PREFIX: &str = "Error from server (BadRequest): error when creating \"ds.yaml\": DaemonSet in version \"v1\" cannot be handled as a DaemonSet: ";
    const FORMAT_WRONG: &str = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    for (value, error) in [
        ("1K", "unable to parse quantity's suffix"),
        ("32MMi", "unable to parse quantity's suffix"),
        ("1mi", "unable to parse quantity's suffix"),
        ("\"\"", FORMAT_WRONG),
        ("10%", FORMAT_WRONG),
        ("1.1.1", FORMAT_WRONG),
        ("Ei", "unable to parse numeric part of quantity"),
    ] {
        let e = decode_err(&with_resources(&format!("limits: {{cpu: {value}}}")));
        assert_eq!(e.kind, DecodeErrorKind::InvalidValue, "{value}");
        assert_eq!(e.message, format!("{PREFIX}{error}"), "{value}");
        assert_eq!(
            e.path.as_deref(),
            Some("spec.template.spec.containers[0].resources.limits.cpu"),
            "{value}"
        );
    }
    assert_eq!(
        decode_err(&with_resources("requests: {memory: 512K}"))
            .hint
            .as_deref(),
        Some("`memory`: write k (1000) or Ki (1024); suffixes are case-sensitive and K is neither")
    );
}

/// What `ParseQuantity` accepts is accepted as written, and `UnmarshalJSON`'s trimming too.
#[test]
fn valid_quantities_are_kept_as_written() {
    for value in [
        "1n", "1u", ".5", "5.", "1e3", "1E3", "-1", "+1", "1.5Gi", " 250m ",
    ] {
        let text = with_resources(&format!("limits: {{cpu: \"{value}\"}}"));
        assert_eq!(decoded_limits(&text), pairs(&[("cpu", value)]), "{value}");
    }
}

#[test]
fn source_map_locates_validation_paths_and_falls_back_to_ancestors() {
    let (_, map) = match decode_daemon_set("ds.yaml", DS_YAML) {
        Ok(x) => x,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(map.source_name(), "ds.yaml");
    assert_eq!(
        map.locate("spec.template.spec.containers[0].image"),
        Some((19, 16))
    );
    // A block mapping is located at its key.
    assert_eq!(map.locate("spec.template.metadata.labels"), Some((12, 7)));
    // Bracketed keys, as field errors write them.
    assert_eq!(
        map.locate("spec.template.metadata.labels[app]"),
        Some((13, 14))
    );
    // Unwritten fields fall back to the nearest written ancestor.
    assert_eq!(
        map.locate("spec.template.spec.containers[0].imagePullPolicy"),
        Some((18, 9))
    );
    assert_eq!(
        map.locate("spec.updateStrategy.rollingUpdate.maxSurge"),
        Some((6, 1))
    );
    assert!(map.contains("spec.selector.matchLabels.app"));
    assert!(!map.contains("spec.minReadySeconds"));
}

#[test]
fn decode_daemon_set_rejects_other_kinds() {
    let e = match decode_daemon_set(
        "n.yaml",
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n",
    ) {
        Ok(_) => panic!("a Node is not a DaemonSet"),
        Err(e) => e,
    };
    assert_eq!(e.kind, DecodeErrorKind::WrongKind);
    assert_eq!(
        e.message,
        "error: expected a DaemonSet in \"n.yaml\", found Node \"n1\""
    );
}

#[test]
fn yaml_to_json_applies_yaml_1_1_and_merge_keys() {
    let text = "base: &b {a: 0x10, b: 0755}\nx:\n  <<: *b\n  c: off\n  d: 1.0\n";
    let docs = match yaml_to_json("x.yaml", text) {
        Ok(d) => d,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(
        docs[0]["x"],
        serde_json::json!({"a": 16, "b": 493, "c": false, "d": 1})
    );
}

#[test]
fn excessive_aliasing_is_refused_not_expanded() {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let p = i - 1;
        text.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    let e = decode_err(&text);
    assert_eq!(e.kind, DecodeErrorKind::UnsupportedYaml);
}

#[test]
fn deep_nesting_is_refused_not_recursed() {
    let text = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
    let e = decode_err(&text);
    assert!(
        matches!(
            e.kind,
            DecodeErrorKind::UnsupportedYaml | DecodeErrorKind::Syntax
        ),
        "{e}"
    );
}

#[test]
fn a_node_named_n_is_the_yaml_1_1_boolean_false() {
    let e = decode_err("apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n");
    assert!(e.message.ends_with(
        "json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.name of type string"
    ), "{e}");
    assert_eq!((e.line, e.column), (4, 9));
    assert!(e
        .hint
        .as_deref()
        .unwrap_or("")
        .starts_with("quote the value: name: \"n\""));
}

#[test]
fn bool_and_number_keys_become_strings_like_sigs_k8s_io_yaml() {
    let docs = match yaml_to_json("x.yaml", "on: 1\n5: x\n") {
        Ok(d) => d,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(docs[0], serde_json::json!({"true": 1, "5": "x"}));
}
