//! Defaulting (R-DEF-1..5): after `set_defaults_*`, objects look as `kubectl get -o yaml`
//! shows them on a real cluster.

mod common;

use apiserver::defaults::{set_defaults_daemon_set, set_defaults_node, set_defaults_pod};
use apiserver::validation::validate_daemon_set;
use apiserver::{decode_manifests, Manifest};
use common::{decode, defaulted, DS_YAML};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde_json::json;

fn strategy_of(yaml: &str) -> serde_json::Value {
    let mut ds = decode(yaml);
    set_defaults_daemon_set(&mut ds);
    serde_json::to_value(&ds.spec.update_strategy).unwrap_or_default()
}

#[test]
fn r_def_1_update_strategy_type_defaults_to_rolling_update() {
    assert_eq!(strategy_of(DS_YAML)["type"], "RollingUpdate");
}

#[test]
fn r_def_2_rolling_update_gets_max_unavailable_1_and_max_surge_0() {
    assert_eq!(
        strategy_of(DS_YAML),
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}})
    );
    let explicit = DS_YAML.replace(
        "spec:\n  selector:",
        "spec:\n  updateStrategy:\n    rollingUpdate:\n      maxUnavailable: 25%\n  selector:",
    );
    assert_eq!(
        strategy_of(&explicit)["rollingUpdate"],
        json!({"maxUnavailable": "25%", "maxSurge": 0})
    );
}

#[test]
fn r_def_2_on_delete_gets_no_rolling_update_block() {
    let yaml = DS_YAML.replace(
        "spec:\n  selector:",
        "spec:\n  updateStrategy:\n    type: OnDelete\n  selector:",
    );
    assert_eq!(strategy_of(&yaml), json!({"type": "OnDelete"}));
}

#[test]
fn r_def_3_revision_history_limit_defaults_to_10_and_keeps_an_explicit_0() {
    assert_eq!(defaulted().spec.revision_history_limit, Some(10));
    let mut ds = decode(&DS_YAML.replace(
        "spec:\n  selector:",
        "spec:\n  revisionHistoryLimit: 0\n  selector:",
    ));
    set_defaults_daemon_set(&mut ds);
    assert_eq!(ds.spec.revision_history_limit, Some(0));
}

#[test]
fn r_def_4_min_ready_seconds_has_no_default() {
    assert_eq!(defaulted().spec.min_ready_seconds, None);
}

#[test]
fn r_def_4_pod_template_gets_the_core_defaults_a_cluster_shows() {
    let ds = defaulted();
    let template = serde_json::to_value(&ds.spec.template.spec).unwrap_or_default();
    assert_eq!(
        template,
        json!({
            "containers": [{
                "name": "app",
                "image": "busybox:1.36",
                "command": ["sleep", "infinity"],
                "imagePullPolicy": "IfNotPresent",
                "terminationMessagePath": "/dev/termination-log",
                "terminationMessagePolicy": "File"
            }],
            "dnsPolicy": "ClusterFirst",
            "nodeSelector": {"k42": "yes"},
            "restartPolicy": "Always",
            "schedulerName": "default-scheduler",
            "securityContext": {},
            "terminationGracePeriodSeconds": 30
        })
    );
}

#[test]
fn r_def_4_probes_ports_and_volumes_get_their_defaults() {
    let yaml = DS_YAML.replace(
        "        command: [\"sleep\", \"infinity\"]\n",
        "        ports:\n        - containerPort: 9100\n        readinessProbe:\n          httpGet: {port: 9100}\n        env:\n        - name: NODE\n          valueFrom: {fieldRef: {fieldPath: spec.nodeName}}\n      volumes:\n      - name: root\n        hostPath: {path: /}\n      - name: cfg\n        configMap: {name: cfg}\n      - name: scratch\n",
    );
    let mut ds = decode(&yaml);
    set_defaults_daemon_set(&mut ds);
    let spec = serde_json::to_value(&ds.spec.template.spec).unwrap_or_default();
    let c = &spec["containers"][0];
    assert_eq!(
        c["ports"],
        json!([{"containerPort": 9100, "protocol": "TCP"}])
    );
    assert_eq!(
        c["readinessProbe"],
        json!({"httpGet": {"path": "/", "port": 9100, "scheme": "HTTP"},
               "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3})
    );
    assert_eq!(
        c["env"][0]["valueFrom"]["fieldRef"],
        json!({"apiVersion": "v1", "fieldPath": "spec.nodeName"})
    );
    assert_eq!(
        spec["volumes"],
        json!([
            {"name": "root", "hostPath": {"path": "/", "type": ""}},
            {"name": "cfg", "configMap": {"name": "cfg", "defaultMode": 420}},
            {"name": "scratch", "emptyDir": {}}
        ])
    );
}

#[test]
fn r_def_4_image_pull_policy_follows_the_tag() {
    for (image, policy) in [
        ("busybox", "Always"),
        ("busybox:latest", "Always"),
        ("busybox:1.36", "IfNotPresent"),
        ("registry:5000/busybox", "Always"),
        ("busybox@sha256:0123", "IfNotPresent"),
    ] {
        let mut ds = decode(&DS_YAML.replace("busybox:1.36", image));
        set_defaults_daemon_set(&mut ds);
        let spec = ds.spec.template.spec.unwrap_or_default();
        assert_eq!(
            spec.containers[0].image_pull_policy.as_deref(),
            Some(policy),
            "{image}"
        );
    }
}

#[test]
fn r_def_5_max_surge_alone_is_rejected_because_max_unavailable_defaults_to_1() {
    let yaml = DS_YAML.replace(
        "spec:\n  selector:",
        "spec:\n  updateStrategy:\n    rollingUpdate:\n      maxSurge: 1\n  selector:",
    );
    let mut ds = decode(&yaml);
    set_defaults_daemon_set(&mut ds);
    let rolling = ds
        .spec
        .update_strategy
        .as_ref()
        .and_then(|s| s.rolling_update.as_ref());
    assert_eq!(
        rolling.and_then(|r| r.max_unavailable.clone()),
        Some(IntOrString::Int(1))
    );
    let err = match validate_daemon_set(&ds) {
        Ok(()) => panic!("maxSurge with the defaulted maxUnavailable must be rejected"),
        Err(e) => e,
    };
    assert_eq!(
        err.to_string(),
        "The DaemonSet \"ds1\" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:\"\"}: may not be set when maxUnavailable is non-zero"
    );
    assert!(err.hint().unwrap_or_default().contains("maxUnavailable: 0"));

    let fixed = yaml.replace("maxSurge: 1\n", "maxSurge: 1\n      maxUnavailable: 0\n");
    let mut ds = decode(&fixed);
    set_defaults_daemon_set(&mut ds);
    assert_eq!(validate_daemon_set(&ds), Ok(()));
}

#[test]
fn defaulting_twice_changes_nothing() {
    let once = defaulted();
    let mut twice = once.clone();
    set_defaults_daemon_set(&mut twice);
    assert_eq!(once, twice);
}

#[test]
fn pods_get_the_shared_pod_spec_defaults_and_their_own() {
    let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  hostNetwork: true\n  containers:\n  - name: c\n    image: nginx\n    ports: [{containerPort: 80}]\n    resources: {limits: {cpu: 500m}}\n";
    let Ok(mut m) = decode_manifests("pod.yaml", yaml) else {
        panic!("pod fixture")
    };
    let Some(Manifest::Pod(mut pod, _)) = m.pop() else {
        panic!("expected a Pod")
    };
    set_defaults_pod(&mut pod);
    let spec = serde_json::to_value(&pod.spec).unwrap_or_default();
    assert_eq!(spec["restartPolicy"], "Always");
    assert_eq!(spec["enableServiceLinks"], true);
    assert_eq!(spec["containers"][0]["imagePullPolicy"], "Always");
    assert_eq!(
        spec["containers"][0]["ports"][0],
        json!({"containerPort": 80, "hostPort": 80, "protocol": "TCP"})
    );
    assert_eq!(
        spec["containers"][0]["resources"]["requests"],
        json!({"cpu": "500m"})
    );
}

#[test]
fn nodes_get_allocatable_from_capacity() {
    let yaml = "apiVersion: v1\nkind: Node\nmetadata: {name: w1}\nstatus:\n  capacity: {cpu: \"4\", pods: \"110\"}\n";
    let Ok(mut m) = decode_manifests("node.yaml", yaml) else {
        panic!("node fixture")
    };
    let Some(Manifest::Node(mut node, _)) = m.pop() else {
        panic!("expected a Node")
    };
    set_defaults_node(&mut node);
    let status = node.status.unwrap_or_default();
    assert_eq!(status.allocatable, status.capacity);
}
