//! `kubectl apply` against the virtual cluster: client-side apply with the
//! `last-applied-configuration` annotation, as kubectl's `applyOneObject` (apply.go) does it
//! with `CreateApplyAnnotation`/`GetModifiedConfiguration` (util/apply.go) and the three-way
//! strategic merge patch (`CreateThreeWayMergePatch`, applied as `StrategicMergePatch`).

use std::time::Duration;

use k8s_openapi::api::apps::v1::DaemonSet;
use scenario::Session;

const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

const SCENARIO: &str = r#"scenario: apply
title: apply
seed: 1
nodes:
  - name: worker
  - name: worker2
script:
  - sleep 1s
"#;

const V1: &str = r#"apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
  labels: {app: agent, tier: node}
spec:
  minReadySeconds: 5
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      tolerations:
      - {key: a, operator: Exists}
      containers:
      - name: app
        image: busybox:1.36
        command: ["sh", "-c", "sleep 1000000"]
        env:
        - {name: A, value: "1"}
        - {name: B, value: "2"}
        ports:
        - {containerPort: 80}
        - {containerPort: 81}
        volumeMounts:
        - {name: data, mountPath: /data}
      volumes:
      - name: data
        emptyDir: {}
"#;

/// V1 with a field, a label, an env var, a port, a mount and a volume dropped, one port
/// changed, a container added in front, the tolerations changed.
const V2: &str = r#"apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
  labels: {app: agent}
spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      tolerations:
      - {key: b, operator: Exists}
      containers:
      - name: sidecar
        image: busybox:1.36
        command: ["sh", "-c", "sleep 1000000"]
      - name: app
        image: busybox:1.36
        command: ["sh", "-c", "sleep 1000000"]
        env:
        - {name: A, value: "1"}
        ports:
        - {containerPort: 81, name: metrics}
"#;

/// A manifest without lists others append to, so that re-applying it is `unchanged`.
const PLAIN: &str = r#"apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: plain
spec:
  selector:
    matchLabels: {app: plain}
  template:
    metadata:
      labels: {app: plain}
    spec:
      containers:
      - name: app
        image: busybox:1.36
"#;

fn session() -> Session {
    let s = scenario::parse("apply.yaml", SCENARIO).expect("parses");
    let mut session = scenario::start(&s).expect("starts");
    for (name, text) in [("v1.yaml", V1), ("v2.yaml", V2), ("plain.yaml", PLAIN)] {
        session.files.insert(name.into(), text.into());
    }
    session
}

/// Runs one kubectl line; panics on a failure; returns (stdout, stderr).
fn kubectl(s: &mut Session, line: &str) -> (String, String) {
    let r = kubectl::run(s, line);
    assert_eq!(r.exit_code, 0, "{line}: {}{}", r.stdout, r.stderr);
    s.cluster.advance(Duration::from_secs(2));
    (r.stdout, r.stderr)
}

fn ds(s: &Session, name: &str) -> DaemonSet {
    (*s.cluster.daemon_set("default", name).expect("exists")).clone()
}

fn annotation(d: &DaemonSet, key: &str) -> Option<String> {
    d.metadata.annotations.as_ref()?.get(key).cloned()
}

fn container<'a>(d: &'a DaemonSet, name: &str) -> &'a k8s_openapi::api::core::v1::Container {
    let spec = d.spec.template.spec.as_ref().expect("pod spec");
    spec.containers
        .iter()
        .find(|c| c.name == name)
        .expect("container")
}

/// `CreateApplyAnnotation` on create: the manifest as `GetModifiedConfiguration` encodes it
/// (compact, keys sorted, the namespace kubectl filled in, `annotations: {}`, a newline).
#[test]
fn create_apply_annotation_records_the_manifest_on_create() {
    let mut s = session();
    let (out, err) = kubectl(&mut s, "kubectl apply -f plain.yaml");
    assert_eq!(out, "daemonset.apps/plain created\n");
    assert_eq!(err, "");
    assert_eq!(
        annotation(&ds(&s, "plain"), LAST_APPLIED).as_deref(),
        Some(concat!(
            r#"{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"annotations":{},"name":"plain","namespace":"default"},"#,
            r#""spec":{"selector":{"matchLabels":{"app":"plain"}},"template":{"metadata":{"labels":{"app":"plain"}},"#,
            r#""spec":{"containers":[{"image":"busybox:1.36","name":"app"}]}}}}"#,
            "\n"
        ))
    );
    // `kubectl create` (without --save-config) writes no annotation.
    let mut s = session();
    kubectl(&mut s, "kubectl create -f plain.yaml");
    assert_eq!(annotation(&ds(&s, "plain"), LAST_APPLIED), None);
}

/// `applyOneObject`: an empty `CreateThreeWayMergePatch` prints `unchanged` and writes
/// nothing; what `rollout restart`, `set env`, `label` and `patch` set stays.
#[test]
fn apply_one_object_reapplied_unchanged_keeps_what_other_commands_set() {
    let mut s = session();
    kubectl(&mut s, "kubectl apply -f plain.yaml");
    kubectl(&mut s, "kubectl rollout restart ds/plain");
    kubectl(&mut s, "kubectl set env ds/plain FOO=2");
    kubectl(&mut s, "kubectl label ds plain team=x");
    kubectl(
        &mut s,
        r#"kubectl patch ds plain -p '{"spec":{"minReadySeconds":3},"metadata":{"annotations":{"note":"n"}}}'"#,
    );
    let before = ds(&s, "plain");
    let (out, err) = kubectl(&mut s, "kubectl apply -f plain.yaml");
    assert_eq!(out, "daemonset.apps/plain unchanged\n");
    assert_eq!(err, "");
    let after = ds(&s, "plain");
    assert_eq!(
        after.metadata.resource_version, before.metadata.resource_version,
        "no write"
    );
    let template_annotations = after
        .spec
        .template
        .metadata
        .as_ref()
        .and_then(|m| m.annotations.as_ref());
    assert!(
        template_annotations.is_some_and(|a| a.contains_key("kubectl.kubernetes.io/restartedAt"))
    );
    let env = container(&after, "app").env.clone().unwrap_or_default();
    assert_eq!(env.len(), 1);
    assert_eq!(
        (env[0].name.as_str(), env[0].value.as_deref()),
        ("FOO", Some("2"))
    );
    assert_eq!(
        after
            .metadata
            .labels
            .as_ref()
            .and_then(|l| l.get("team"))
            .map(String::as_str),
        Some("x")
    );
    assert_eq!(annotation(&after, "note").as_deref(), Some("n"));
    assert_eq!(after.spec.min_ready_seconds, Some(3));
}

/// `CreateThreeWayMergePatch`: what the last applied manifest had and the new one lacks is
/// deleted (a field, a label, map and list entries); lists merge by their patch merge key
/// (containers and env by name, ports by containerPort, volumeMounts by mountPath, volumes by
/// name), tolerations (no patch strategy) are replaced; what `set env` added stays.
#[test]
fn create_three_way_merge_patch_deletes_dropped_fields_and_merges_lists_by_key() {
    let mut s = session();
    kubectl(&mut s, "kubectl apply -f v1.yaml");
    kubectl(&mut s, "kubectl set env ds/agent FOO=3");
    let (out, err) = kubectl(&mut s, "kubectl apply -f v2.yaml");
    assert_eq!(out, "daemonset.apps/agent configured\n");
    assert_eq!(err, "");
    let d = ds(&s, "agent");
    assert_eq!(d.spec.min_ready_seconds, None, "dropped field removed");
    let labels = d.metadata.labels.clone().unwrap_or_default();
    assert_eq!(
        labels.keys().collect::<Vec<_>>(),
        ["app"],
        "dropped label removed"
    );
    let spec = d.spec.template.spec.as_ref().expect("pod spec");
    let names: Vec<&str> = spec.containers.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["sidecar", "app"], "the manifest's order");
    let app = container(&d, "app");
    let env: Vec<(&str, Option<&str>)> = app
        .env
        .iter()
        .flatten()
        .map(|e| (e.name.as_str(), e.value.as_deref()))
        .collect();
    assert_eq!(env, [("A", Some("1")), ("FOO", Some("3"))]);
    let ports: Vec<(i32, Option<&str>, Option<&str>)> = app
        .ports
        .iter()
        .flatten()
        .map(|p| (p.container_port, p.name.as_deref(), p.protocol.as_deref()))
        .collect();
    assert_eq!(ports, [(81, Some("metrics"), Some("TCP"))]);
    assert_eq!(app.volume_mounts, None, "the only mount removed");
    assert_eq!(spec.volumes, None, "the only volume removed");
    let tolerations: Vec<Option<&str>> = spec
        .tolerations
        .iter()
        .flatten()
        .map(|t| t.key.as_deref())
        .collect();
    assert_eq!(tolerations, [Some("b")]);
    let last: serde_json::Value =
        serde_json::from_str(&annotation(&d, LAST_APPLIED).expect("annotation")).expect("JSON");
    assert_eq!(
        last.pointer("/spec/minReadySeconds"),
        None,
        "annotation is v2"
    );
    // The rollout the change started goes through.
    s.cluster.advance(Duration::from_secs(120));
    let (again, _) = kubectl(&mut s, "kubectl apply -f v2.yaml");
    assert_eq!(
        again, "daemonset.apps/agent configured\n",
        "FOO appended to env: kubectl sends $setElementOrder"
    );
    assert_eq!(
        ds(&s, "agent").metadata.generation,
        d.metadata.generation,
        "but nothing changes"
    );
}

/// `applyOneObject` on an object `kubectl create` made: kubectl's warning, a patch without
/// deletions (nothing was recorded as applied), the annotation written; the next apply knows
/// what it applied.
#[test]
fn apply_one_object_over_a_created_object_warns_and_adds_the_annotation() {
    let mut s = session();
    kubectl(&mut s, "kubectl create -f v1.yaml");
    let (out, err) = kubectl(&mut s, "kubectl apply -f v2.yaml");
    assert_eq!(out, "daemonset.apps/agent configured\n");
    assert_eq!(
        err,
        "Warning: resource daemonsets/agent is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n"
    );
    let d = ds(&s, "agent");
    assert_eq!(
        d.spec.min_ready_seconds,
        Some(5),
        "no original: nothing deleted"
    );
    assert!(d
        .metadata
        .labels
        .as_ref()
        .is_some_and(|l| l.contains_key("tier")));
    let tolerations: Vec<Option<&str>> = d
        .spec
        .template
        .spec
        .as_ref()
        .and_then(|p| p.tolerations.as_ref())
        .into_iter()
        .flatten()
        .map(|t| t.key.as_deref())
        .collect();
    assert_eq!(tolerations, [Some("b")], "atomic lists are still replaced");
    assert!(annotation(&d, LAST_APPLIED).is_some());
    let (out, err) = kubectl(&mut s, "kubectl apply -f v1.yaml");
    assert_eq!(out, "daemonset.apps/agent configured\n");
    assert_eq!(err, "", "the annotation is there now");
    let d = ds(&s, "agent");
    let names: Vec<&str> = d
        .spec
        .template
        .spec
        .as_ref()
        .map(|p| p.containers.iter().map(|c| c.name.as_str()).collect())
        .unwrap_or_default();
    assert_eq!(names, ["app"], "v2's sidecar deleted: v2 was applied");
}

/// Pods: a dropped annotation goes (labels and annotations are replaced on update, not merged).
#[test]
fn create_three_way_merge_patch_removes_a_dropped_pod_annotation() {
    let pod = |annotations: &str| {
        format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {{app: p}}\n  annotations: {annotations}\nspec:\n  containers:\n  - name: c\n    image: busybox:1.36\n")
    };
    let mut s = session();
    s.files
        .insert("p1.yaml".into(), pod("{a: \"1\", b: \"2\"}"));
    s.files.insert("p2.yaml".into(), pod("{b: \"2\"}"));
    assert_eq!(
        kubectl(&mut s, "kubectl apply -f p1.yaml").0,
        "pod/p created\n"
    );
    assert_eq!(
        kubectl(&mut s, "kubectl apply -f p2.yaml").0,
        "pod/p configured\n"
    );
    let p = s.cluster.pod("default", "p").expect("pod");
    let keys: Vec<&String> = p
        .metadata
        .annotations
        .iter()
        .flatten()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(keys, ["b", LAST_APPLIED]);
    assert_eq!(
        kubectl(&mut s, "kubectl apply -f p2.yaml").0,
        "pod/p unchanged\n"
    );
}

/// `applyOneObject` on every preset's manifests: applied twice in a row, the second is
/// `unchanged` (the API server keeps what a manifest sets, so the three-way patch is empty).
#[test]
fn apply_one_object_twice_is_unchanged_for_every_preset_manifest() {
    for p in scenario::presets::ALL {
        let s = scenario::parse(p.file, p.text).expect("preset parses");
        let mut session = scenario::start(&s).expect("starts");
        for name in s.files.keys() {
            let first = kubectl::run(&mut session, &format!("kubectl apply -f {name}"));
            if first.exit_code != 0 {
                continue; // the presets' deliberately broken manifests
            }
            let again = kubectl::run(&mut session, &format!("kubectl apply -f {name}"));
            assert_eq!(
                again.stdout,
                first
                    .stdout
                    .replace(" created\n", " unchanged\n")
                    .replace(" configured\n", " unchanged\n"),
                "{}: {name}",
                p.id
            );
        }
    }
}

/// `applyOneObject` calls `WarnIfDeleting` on the patched object: applying to a DaemonSet that
/// a foreground deletion holds warns, even when nothing changes.
#[test]
fn apply_one_object_warns_if_deleting() {
    let mut s = session();
    kubectl(&mut s, "kubectl apply -f plain.yaml");
    s.cluster.advance(Duration::from_secs(30));
    let r = kubectl::run(&mut s, "kubectl delete ds plain --cascade=foreground");
    assert_eq!(r.exit_code, 0, "{}", r.stderr);
    assert!(
        ds(&s, "plain").metadata.deletion_timestamp.is_some(),
        "held by its pods"
    );
    let r = kubectl::run(&mut s, "kubectl apply -f plain.yaml");
    assert_eq!(r.stdout, "daemonset.apps/plain unchanged\n");
    assert_eq!(
        r.stderr,
        "Warning: Detected changes to resource plain which is currently being deleted.\n"
    );
}
