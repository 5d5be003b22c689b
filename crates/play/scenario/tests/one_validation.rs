//! One validation on every path (issue 27): however a node, its labels or its taints enter the
//! store or change there — a scenario's `nodes:`, Import, `node add`, kubectl label, taint and
//! patch, the page's node edits — the API server's `validate_node` judges it, so a bad value
//! gets the same message on each path. A table: one row per (bad value, path).

use scenario::edit::Edit;
use scenario::Timeline;

const BASE: &str = "scenario: v\nnodes:\n  - name: worker\n";

/// A bad value, the API server's message for it, and the value as each path writes it.
struct Bad {
    what: &'static str,
    message: &'static str,
    /// The node entry of a scenario file (YAML flow map).
    entry: &'static str,
    /// The node in `kubectl get nodes -o json`'s shape, for Import.
    import: &'static str,
    /// Terminal lines, each on the existing node `worker` or adding one.
    lines: &'static [&'static str],
    /// The page's edits.
    edits: fn() -> Vec<Edit>,
}

const LABEL_MSG: &str = "metadata.labels: Invalid value: \"<script>alert(1)</script>\": a valid label must be an empty string or consist of alphanumeric characters";
const TAINT_MSG: &str = "metadata.taints[0].value: Invalid value: \"<b>\": a valid label must be an empty string or consist of alphanumeric characters";
const KEY_MSG: &str = "metadata.labels: Invalid value: \"bad key\": name part must consist of alphanumeric characters";

fn table() -> Vec<Bad> {
    vec![
        Bad {
            what: "a label value with markup",
            message: LABEL_MSG,
            entry: r#"{name: w9, labels: {x: "<script>alert(1)</script>"}}"#,
            import: r#"{"apiVersion":"v1","kind":"Node","metadata":{"name":"w9","labels":{"x":"<script>alert(1)</script>"}}}"#,
            lines: &[
                "kubectl label node worker x='<script>alert(1)</script>'",
                "kubectl patch node worker -p '{\"metadata\":{\"labels\":{\"x\":\"<script>alert(1)</script>\"}}}'",
                "node add w9 --label 'x=<script>alert(1)</script>'",
            ],
            edits: || {
                vec![
                    Edit::Label {
                        node: "worker".into(),
                        key: "x".into(),
                        value: Some("<script>alert(1)</script>".into()),
                    },
                    Edit::AddNodes {
                        prefix: "w9".into(),
                        count: 1,
                        labels: vec!["x=<script>alert(1)</script>".into()],
                        taints: vec![],
                        capacity: None,
                    },
                ]
            },
        },
        Bad {
            what: "a label key with a space",
            message: KEY_MSG,
            entry: r#"{name: w9, labels: {"bad key": v}}"#,
            import: r#"{"apiVersion":"v1","kind":"Node","metadata":{"name":"w9","labels":{"bad key":"v"}}}"#,
            lines: &[
                "kubectl label node worker 'bad key=v'",
                "kubectl patch node worker -p '{\"metadata\":{\"labels\":{\"bad key\":\"v\"}}}'",
                "node add w9 --label 'bad key=v'",
            ],
            edits: || {
                vec![Edit::Label {
                    node: "worker".into(),
                    key: "bad key".into(),
                    value: Some("v".into()),
                }]
            },
        },
        Bad {
            what: "a taint value with markup",
            message: TAINT_MSG,
            entry: r#"{name: w9, taints: ["k=<b>:NoSchedule"]}"#,
            import: r#"{"apiVersion":"v1","kind":"Node","metadata":{"name":"w9"},"spec":{"taints":[{"key":"k","value":"<b>","effect":"NoSchedule"}]}}"#,
            lines: &[
                "kubectl taint node worker 'k=<b>:NoSchedule'",
                "kubectl patch node worker -p '{\"spec\":{\"taints\":[{\"key\":\"k\",\"value\":\"<b>\",\"effect\":\"NoSchedule\"}]}}'",
                "node add w9 --taint 'k=<b>:NoSchedule'",
            ],
            edits: || {
                vec![
                    Edit::Taint {
                        node: "worker".into(),
                        taint: "k=<b>:NoSchedule".into(),
                        remove: false,
                    },
                    Edit::AddNodes {
                        prefix: "w9".into(),
                        count: 1,
                        labels: vec![],
                        taints: vec!["k=<b>:NoSchedule".into()],
                        capacity: None,
                    },
                ]
            },
        },
    ]
}

fn timeline() -> Timeline {
    Timeline::new(scenario::parse("v.yaml", BASE).expect("parses")).expect("starts")
}

#[test]
fn every_path_into_the_store_refuses_a_bad_node_with_the_api_servers_message() {
    let mut problems = Vec::new();
    let mut rows = 0;
    for bad in table() {
        let mut check = |path: String, outcome: Result<(), String>| {
            rows += 1;
            match outcome {
                Ok(()) => problems.push(format!("{} via {path}: accepted", bad.what)),
                Err(m) if !m.contains(bad.message) => {
                    problems.push(format!("{} via {path}: another message:\n{m}", bad.what))
                }
                Err(_) => {}
            }
        };
        // A scenario file's `nodes:`.
        let file = format!("{BASE}  - {}\n", bad.entry);
        let started = scenario::parse("v.yaml", &file)
            .map_err(|e| e.to_string())
            .and_then(|s| Timeline::new(s).map(drop).map_err(|e| e.to_string()));
        check("a scenario file".into(), started);
        // Import (`kubectl get nodes -o json`), then the page starts with those nodes.
        let imported = scenario::import::import_nodes("nodes.json", bad.import)
            .map_err(|e| e.to_string())
            .and_then(|entries| {
                let mut s = scenario::parse("v.yaml", BASE).expect("parses");
                s.nodes.extend(entries);
                Timeline::new(s).map(drop).map_err(|e| e.to_string())
            });
        check("Import".into(), imported);
        // The terminal (and a script line: the same function runs both).
        for line in bad.lines {
            let r = timeline().run_command(line);
            check(
                format!("`{line}`"),
                match r {
                    Ok(rec) if rec.ok => Ok(()),
                    Ok(rec) => Err(rec.output),
                    Err(e) => Err(e.output),
                },
            );
        }
        // The page's forms and buttons.
        for edit in (bad.edits)() {
            let r = timeline().apply_edit(&edit);
            check(
                format!("the edit {edit:?}"),
                r.map(drop).map_err(|e| e.output),
            );
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    assert_eq!(rows, 20, "every row of the table ran");
}
