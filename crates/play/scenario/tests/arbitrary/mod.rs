//! Random scenarios for the round-trip tests: every field `scenario::parse` can produce, with
//! the awkward text YAML and links must carry (quotes, colons, `#`, YAML 1.1 words, numbers,
//! unicode, multi-line manifests with trailing newlines).
#![allow(dead_code)]

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Taint;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use scenario::{Check, NodeEntry, Scenario, ScriptLine, Step};
use serde_json::{Map, Value};

/// Text of one line: ordinary words and the characters that trip YAML writers.
pub fn awkward() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 ._/=-]{0,24}",
        "[ -~]{0,24}",
        Just("yes".to_string()),
        Just("No".to_string()),
        Just("null".to_string()),
        Just("~".to_string()),
        Just("1.5".to_string()),
        Just("0x1F".to_string()),
        Just("1e3".to_string()),
        Just("12:30".to_string()),
        Just("- a".to_string()),
        Just("a: b".to_string()),
        Just("a #b".to_string()),
        Just("\"quoted\" and 'single'".to_string()),
        Just("tab\there".to_string()),
        Just("café ünïcödé 日本 🚀".to_string()),
        Just("{.status.numberReady}".to_string()),
        Just(" leading and trailing ".to_string()),
        Just("\u{85}nel\u{2028}ls".to_string()),
    ]
}

/// Long prose: words with single or double spaces, sometimes a colon or a `#`.
pub fn prose() -> impl Strategy<Value = String> {
    vec(
        prop_oneof![
            "[a-zA-Z0-9,.()-]{1,12}",
            Just("note:".to_string()),
            Just("#tag".to_string()),
            Just("".to_string()),
            Just("- item".to_string()),
        ],
        8..60,
    )
    .prop_map(|w| w.join(" "))
}

/// Text that may span lines (descriptions, manifests, expected outputs).
pub fn multiline() -> impl Strategy<Value = String> {
    prop_oneof![
        awkward(),
        prose(),
        (vec(awkward(), 1..6), 0usize..4).prop_map(|(lines, trailing)| {
            let mut s = lines.join("\n");
            s.push_str(&"\n".repeat(trailing));
            s
        }),
        Just("apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: x\n  # comment\n\n  labels: {a: \"1\"}\n".to_string()),
    ]
}

/// A script command: never blank, no surrounding whitespace (the parser trims them).
fn command() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("kubectl apply -f ds.yaml".to_string()),
        Just("kubectl get ds x -o jsonpath={.status.numberReady}".to_string()),
        Just("kubectl get ds x -o 'jsonpath={.metadata.name} $HOME'".to_string()),
        Just("sleep 30s".to_string()),
        Just("node add n --label zone=a --taint k=v:NoSchedule".to_string()),
        awkward(),
    ]
    .prop_map(|s| s.trim().to_string())
    .prop_filter("a command is not blank", |s| !s.is_empty())
}

fn label_key() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-z0-9.-]{0,10}(/[a-z][a-z0-9._-]{0,10})?",
        Just("node-role.kubernetes.io/control-plane".to_string()),
        Just("yes".to_string()),
        Just("1".to_string()),
    ]
}

fn labels() -> impl Strategy<Value = BTreeMap<String, String>> {
    btree_map(label_key(), awkward(), 0..12)
}

fn quantities() -> impl Strategy<Value = BTreeMap<String, Quantity>> {
    btree_map(
        prop_oneof![
            Just("cpu".to_string()),
            Just("memory".to_string()),
            Just("pods".to_string()),
            Just("nvidia.com/gpu".to_string())
        ],
        prop_oneof![
            Just("8"),
            Just("3920m"),
            Just("32Gi"),
            Just("110"),
            Just("1.5")
        ]
        .prop_map(|q| Quantity(q.to_string())),
        0..3,
    )
}

fn taint() -> impl Strategy<Value = Taint> {
    (
        "[a-z][a-z0-9./-]{0,12}",
        proptest::option::of("[a-zA-Z0-9 _.:=-]{1,8}"),
        prop_oneof![
            Just("NoSchedule"),
            Just("PreferNoSchedule"),
            Just("NoExecute")
        ],
    )
        .prop_map(|(key, value, effect)| Taint {
            key,
            value,
            effect: effect.to_string(),
            time_added: None,
        })
}

fn conditions() -> impl Strategy<Value = BTreeMap<String, String>> {
    btree_map(
        prop_oneof![
            Just("MemoryPressure".to_string()),
            Just("DiskPressure".to_string()),
            Just("Ready".to_string())
        ],
        prop_oneof![Just("True"), Just("False"), Just("Unknown")].prop_map(str::to_string),
        0..3,
    )
}

/// A node entry; `i` keeps its names apart from every other entry's.
fn node_entry(i: usize) -> impl Strategy<Value = NodeEntry> {
    let names = prop_oneof![
        "[a-z]{0,6}".prop_map(move |s| vec![format!("n{i}x{s}")]),
        ("[a-z]{0,4}", 0u64..4, 0u64..120).prop_map(move |(p, count, from)| {
            (from..from + count)
                .map(|k| format!("p{i}-{p}{k}"))
                .collect()
        }),
    ];
    (
        names,
        labels(),
        vec(taint(), 0..6),
        quantities(),
        quantities(),
        any::<bool>(),
        conditions(),
    )
        .prop_map(
            |(names, labels, taints, capacity, allocatable, unschedulable, conditions)| NodeEntry {
                names,
                labels,
                taints,
                capacity,
                allocatable,
                unschedulable,
                conditions,
            },
        )
}

fn nodes() -> impl Strategy<Value = Vec<NodeEntry>> {
    (0usize..5).prop_flat_map(|n| (0..n).map(node_entry).collect::<Vec<_>>())
}

fn timing() -> impl Strategy<Value = Map<String, Value>> {
    let defaults = serde_json::to_value(cluster::Timing::default()).unwrap_or(Value::Null);
    let fields: Vec<(String, Value)> = defaults
        .as_object()
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    proptest::sample::subsequence(fields.clone(), 0..4).prop_flat_map(|chosen| {
        chosen
            .into_iter()
            .map(|(k, default)| {
                let v: BoxedStrategy<Value> = if default.is_boolean() {
                    any::<bool>().prop_map(Value::Bool).boxed()
                } else if default.is_u64() {
                    // A count (large_cluster_size_threshold): whole numbers only.
                    (0u32..100_000).prop_map(Value::from).boxed()
                } else {
                    prop_oneof![
                        (0u32..100_000).prop_map(|n| Value::from(n as f64 / 1000.0)),
                        (0u32..100).prop_map(Value::from),
                        Just(Value::from(1.0)),
                        Just(Value::from(1e-7)),
                    ]
                    .boxed()
                };
                v.prop_map(move |v| (k.clone(), v))
            })
            .collect::<Vec<_>>()
            .prop_map(|kv| kv.into_iter().collect::<Map<_, _>>())
    })
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => command().prop_map(Step::Run),
        1 => (command(), multiline(), any::<bool>()).prop_map(|(command, want, eq)| Step::Expect {
            command,
            check: if eq { Check::Equals(want) } else { Check::Contains(want) },
        }),
    ]
}

/// A random scenario as `parse` could have produced it (positions aside).
pub fn scenario() -> impl Strategy<Value = Scenario> {
    (
        awkward(),
        proptest::option::of(prop_oneof![multiline(), prose()]),
        multiline(),
        vec(
            awkward().prop_filter("a suggestion has words", |t| !t.trim().is_empty()),
            0..=3,
        ),
        prop_oneof![Just(1u64), any::<u64>()],
        timing(),
        nodes(),
        btree_map(
            prop_oneof!["[a-z][a-z0-9-]{0,8}\\.yaml", awkward()],
            multiline(),
            0..3,
        ),
        vec(step(), 0..8),
    )
        .prop_map(
            |(id, title, description, try_this, seed, timing, nodes, files, steps)| Scenario {
                source_name: "generated".into(),
                title: title.unwrap_or_else(|| id.clone()),
                id,
                description,
                try_this,
                seed,
                timing,
                images: Default::default(),
                nodes,
                files,
                script: steps
                    .into_iter()
                    .enumerate()
                    .map(|(i, step)| ScriptLine {
                        line: i + 1,
                        column: 1,
                        step,
                    })
                    .collect(),
            },
        )
}
