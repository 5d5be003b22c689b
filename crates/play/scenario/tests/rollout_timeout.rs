//! `kubectl rollout status --timeout` in a script: a rollout that cannot finish (its new pods
//! request more CPU than a node has, so they never schedule) waits the script's default cap, or exactly the `--timeout` given when there is
//! one, longer or shorter than the cap, and ends with kubectl's timeout error.

mod common;

use scenario::run::WAIT_LIMIT;

fn stuck_rollout(status_line: &str) -> String {
    format!(
        r#"scenario: stuck-rollout
nodes: [{{name: worker}}, {{name: worker2}}]
files:
  agent.yaml: |
    apiVersion: apps/v1
    kind: DaemonSet
    metadata: {{name: agent}}
    spec:
      selector: {{matchLabels: {{app: agent}}}}
      template:
        metadata: {{labels: {{app: agent}}}}
        spec:
          containers: [{{name: a, image: "busybox:1.36"}}]
  agent-v2.yaml: |
    apiVersion: apps/v1
    kind: DaemonSet
    metadata: {{name: agent}}
    spec:
      selector: {{matchLabels: {{app: agent}}}}
      template:
        metadata: {{labels: {{app: agent}}}}
        spec:
          containers: [{{name: a, image: "busybox:1.37", resources: {{requests: {{cpu: "512"}}}}}}]
script:
  - kubectl apply -f agent.yaml
  - kubectl rollout status ds/agent
  - kubectl apply -f agent-v2.yaml
  - {status_line}
  - kubectl get ds agent
"#
    )
}

/// How long the script's (last) `status_line` waited, and what it printed and whether it succeeded.
fn waited(status_line: &str) -> (f64, String, bool) {
    let s =
        scenario::parse("s.yaml", &stuck_rollout(status_line)).unwrap_or_else(|e| panic!("{e}"));
    let out = common::run_with_seed(&s, 1);
    let rec = out
        .records
        .iter()
        .rev()
        .find(|r| r.command == status_line)
        .unwrap_or_else(|| panic!("no record of {status_line:?}"));
    let after = common::t_of(&out, "kubectl get ds agent");
    (after - rec.t, rec.output.clone(), rec.ok)
}

#[test]
fn rollout_status_without_timeout_gives_up_at_the_scripts_cap() {
    let (secs, output, ok) = waited("kubectl rollout status ds/agent");
    assert!(!ok);
    assert!(
        output.ends_with("error: timed out waiting for the condition\n"),
        "{output}"
    );
    let cap = WAIT_LIMIT.as_secs_f64();
    assert!((cap..cap + 60.0).contains(&secs), "waited {secs} s");
}

#[test]
fn rollout_status_timeout_longer_than_the_cap_waits_that_long() {
    let (secs, output, ok) = waited("kubectl rollout status ds/agent --timeout=2h");
    assert!(!ok);
    assert!(
        output.ends_with("error: timed out waiting for the condition\n"),
        "{output}"
    );
    assert!((7200.0..7260.0).contains(&secs), "waited {secs} s");
}

#[test]
fn rollout_status_timeout_shorter_than_the_cap_ends_the_wait_early() {
    let (secs, output, ok) = waited("kubectl rollout status ds/agent --timeout=30s");
    assert!(!ok);
    assert!(
        output.ends_with("error: timed out waiting for the condition\n"),
        "{output}"
    );
    assert!((30.0..60.0).contains(&secs), "waited {secs} s");
}
