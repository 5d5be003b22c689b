//! Validation (R-VAL-1..8 and the pod-template rules a DaemonSet author meets): each case
//! asserts the exact text the API server returns through kubectl.

mod common;

use apiserver::defaults::set_defaults_daemon_set;
use apiserver::strategy::{prepare_for_status_update, prepare_for_update};
use apiserver::validation::{
    validate_daemon_set, validate_daemon_set_status_update, validate_daemon_set_update,
};
use apiserver::{decode_daemon_set, FieldErrorKind, Invalid};
use common::{decode, defaulted, DS_YAML};
use k8s_openapi::api::apps::v1::DaemonSet;

/// DS_YAML with each `(from, to)` replaced, decoded and defaulted.
fn manifest(edits: &[(&str, &str)]) -> DaemonSet {
    let mut yaml = DS_YAML.to_string();
    for (from, to) in edits {
        assert!(yaml.contains(from), "fixture has no {from:?}");
        yaml = yaml.replacen(from, to, 1);
    }
    let mut ds = decode(&yaml);
    set_defaults_daemon_set(&mut ds);
    ds
}

fn rejection(ds: &DaemonSet) -> Invalid {
    match validate_daemon_set(ds) {
        Ok(()) => panic!("expected the DaemonSet to be rejected"),
        Err(e) => e,
    }
}

/// The message kubectl prints for a manifest with these edits.
fn message(edits: &[(&str, &str)]) -> String {
    rejection(&manifest(edits)).to_string()
}

const SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SPEC_AT: &str = "spec:\n  selector:";

#[test]
fn the_field_experiment_daemon_set_is_valid() {
    assert_eq!(validate_daemon_set(&defaulted()), Ok(()));
}

#[test]
fn r_val_1_name_must_be_a_dns_1123_subdomain() {
    assert_eq!(
        message(&[("name: ds1", "name: Bad_Name")]),
        format!("The DaemonSet \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": {SUBDOMAIN}")
    );
    assert_eq!(
        message(&[("  name: ds1\n", "")]),
        "The DaemonSet \"\" is invalid: metadata.name: Required value: name or generateName is required"
    );
}

#[test]
fn namespace_must_be_a_dns_1123_label() {
    assert_eq!(
        message(&[("namespace: default", "namespace: kube.system")]),
        format!("The DaemonSet \"ds1\" is invalid: metadata.namespace: Invalid value: \"kube.system\": {LABEL}")
    );
}

#[test]
fn r_val_2_selector_must_match_template_labels() {
    let ds = manifest(&[("app: ds1\n  template:", "app: other\n  template:")]);
    let err = rejection(&ds);
    assert_eq!(
        err.to_string(),
        "The DaemonSet \"ds1\" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"ds1\"}: `selector` does not match template `labels`"
    );
    assert_eq!(
        err.hint().as_deref(),
        Some("the selector must select the DaemonSet's own pods: add app: other to spec.template.metadata.labels (or change spec.selector)")
    );
}

#[test]
fn r_val_2_selector_expressions_are_matched_too() {
    let ds = manifest(&[(
        "    matchLabels:\n      app: ds1\n",
        "    matchExpressions:\n    - {key: tier, operator: In, values: [node]}\n",
    )]);
    assert_eq!(
        rejection(&ds).errors[0].to_string(),
        "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"ds1\"}: `selector` does not match template `labels`"
    );
}

#[test]
fn r_val_2_empty_selector_is_invalid_for_daemonset() {
    assert_eq!(
        message(&[("    matchLabels:\n      app: ds1\n", "    {}\n")]),
        "The DaemonSet \"ds1\" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset"
    );
}

#[test]
fn r_val_2_selector_operators_are_validated_and_skip_the_match_check() {
    assert_eq!(
        message(&[(
            "    matchLabels:\n      app: ds1\n",
            "    matchExpressions:\n    - {key: app, operator: Is, values: [ds1]}\n",
        )]),
        "The DaemonSet \"ds1\" is invalid: spec.selector.matchExpressions[0].operator: Invalid value: \"Is\": not a valid selector operator"
    );
    assert_eq!(
        message(&[(
            "    matchLabels:\n      app: ds1\n",
            "    matchExpressions:\n    - {key: app, operator: In}\n",
        )]),
        "The DaemonSet \"ds1\" is invalid: spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"
    );
}

#[test]
fn r_val_3_restart_policy_must_be_always() {
    let err = rejection(&manifest(&[(
        "      nodeSelector:",
        "      restartPolicy: Never\n      nodeSelector:",
    )]));
    assert_eq!(
        err.to_string(),
        "The DaemonSet \"ds1\" is invalid: spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\""
    );
    assert_eq!(err.errors[0].kind, FieldErrorKind::NotSupported);
    assert!(err.hint().is_some());
}

#[test]
fn r_val_3_active_deadline_seconds_is_forbidden() {
    assert_eq!(
        message(&[("      nodeSelector:", "      activeDeadlineSeconds: 60\n      nodeSelector:")]),
        "The DaemonSet \"ds1\" is invalid: spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported"
    );
}

#[test]
fn r_val_3_pod_template_needs_containers_with_valid_unique_names_and_images() {
    assert_eq!(
        message(&[(
            "      - name: app\n        image: busybox:1.36\n        command: [\"sleep\", \"infinity\"]\n",
            "        []\n",
        )]),
        "The DaemonSet \"ds1\" is invalid: spec.template.spec.containers: Required value"
    );
    assert_eq!(
        message(&[(
            "        command: [\"sleep\", \"infinity\"]\n",
            "      - name: App\n      - name: app\n        image: b\n",
        )]),
        format!(
            "The DaemonSet \"ds1\" is invalid: \n* spec.template.spec.containers[1].name: Invalid value: \"App\": {LABEL}\n* spec.template.spec.containers[1].image: Required value\n* spec.template.spec.containers[2].name: Duplicate value: \"app\""
        )
    );
}

#[test]
fn template_labels_are_reported_on_spec_template_labels_like_upstream() {
    let err = rejection(&manifest(&[
        ("      app: ds1\n  template:", "      app: ds1\n  template:"),
        (
            "        app: ds1\n",
            "        app: ds1\n        bad key: x\n",
        ),
    ]));
    assert!(
        err.errors[0].to_string().starts_with("spec.template.labels: Invalid value: \"bad key\": name part must consist of alphanumeric characters"),
        "{err}"
    );
}

#[test]
fn r_val_4_counters_must_not_be_negative() {
    assert_eq!(
        message(&[(SPEC_AT, "spec:\n  minReadySeconds: -1\n  revisionHistoryLimit: -2\n  selector:")]),
        "The DaemonSet \"ds1\" is invalid: \n* spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0\n* spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0"
    );
    assert_eq!(
        message(&[("  namespace: default\n", "  namespace: default\n  annotations: {deprecated.daemonset.template.generation: \"-1\"}\n")]),
        "The DaemonSet \"ds1\" is invalid: spec.templateGeneration: Invalid value: -1: must be greater than or equal to 0"
    );
}

#[test]
fn r_val_4_zero_revision_history_limit_is_legal() {
    assert_eq!(
        validate_daemon_set(&manifest(&[(
            SPEC_AT,
            "spec:\n  revisionHistoryLimit: 0\n  selector:"
        )])),
        Ok(())
    );
}

#[test]
fn r_val_5_update_strategy_type_is_rolling_update_or_on_delete() {
    assert_eq!(
        message(&[(SPEC_AT, "spec:\n  updateStrategy: {type: Recreate}\n  selector:")]),
        "The DaemonSet \"ds1\" is invalid: spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:\"Recreate\", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: \"RollingUpdate\", \"OnDelete\""
    );
    assert_eq!(
        validate_daemon_set(&manifest(&[(
            SPEC_AT,
            "spec:\n  updateStrategy: {type: OnDelete}\n  selector:"
        )])),
        Ok(())
    );
}

#[test]
fn r_val_5_rolling_update_block_is_required_when_not_defaulted() {
    let mut ds = defaulted();
    if let Some(s) = ds.spec.update_strategy.as_mut() {
        s.rolling_update = None;
    }
    assert_eq!(
        rejection(&ds).to_string(),
        "The DaemonSet \"ds1\" is invalid: spec.updateStrategy.rollingUpdate: Required value"
    );
}

fn rolling(fields: &str) -> String {
    message(&[(
        SPEC_AT,
        &format!("spec:\n  updateStrategy:\n    rollingUpdate: {fields}\n  selector:"),
    )])
}

#[test]
fn r_val_6_both_zero_requires_max_unavailable() {
    let expected = "The DaemonSet \"ds1\" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0";
    assert_eq!(rolling("{maxUnavailable: 0}"), expected);
    assert_eq!(
        rolling("{maxUnavailable: \"0%\", maxSurge: \"0%\"}"),
        expected
    );
}

#[test]
fn r_val_6_both_non_zero_rejects_max_surge() {
    assert_eq!(
        rolling("{maxUnavailable: \"10%\", maxSurge: \"20%\"}"),
        "The DaemonSet \"ds1\" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"20%\"}: may not be set when maxUnavailable is non-zero"
    );
}

#[test]
fn r_val_6_surge_with_explicit_zero_unavailable_is_valid() {
    assert_eq!(validate_daemon_set(&manifest(&[(SPEC_AT, "spec:\n  updateStrategy:\n    rollingUpdate: {maxUnavailable: 0, maxSurge: 2}\n  selector:")])), Ok(()));
}

#[test]
fn r_val_6_percent_over_100_is_invalid() {
    let err = rejection(&manifest(&[(
        SPEC_AT,
        "spec:\n  updateStrategy:\n    rollingUpdate: {maxUnavailable: \"110%\"}\n  selector:",
    )]));
    assert_eq!(
        err.to_string(),
        "The DaemonSet \"ds1\" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"110%\"}: must not be greater than 100%"
    );
    assert_eq!(
        err.hint().as_deref(),
        Some("a percentage of nodes cannot exceed 100%")
    );
}

#[test]
fn r_val_6_malformed_percent_and_negative_int_are_invalid() {
    assert_eq!(
        rolling("{maxUnavailable: \"ten%\"}"),
        "The DaemonSet \"ds1\" is invalid: \n* spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"ten%\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')\n* spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"
    );
    assert_eq!(
        rolling("{maxUnavailable: -1}"),
        "The DaemonSet \"ds1\" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0"
    );
}

/// An update as the API server runs it: strategy first, then validation.
fn update(old: &DaemonSet, mut new: DaemonSet) -> Result<(), Invalid> {
    prepare_for_update(&mut new, old);
    validate_daemon_set_update(&new, old)
}

fn stored() -> DaemonSet {
    let mut ds = defaulted();
    apiserver::strategy::prepare_for_create(&mut ds);
    ds
}

#[test]
fn r_val_7_selector_is_immutable() {
    let old = stored();
    let new = manifest(&[
        ("app: ds1\n  template:", "app: ds2\n  template:"),
        ("        app: ds1\n", "        app: ds2\n"),
    ]);
    let err = match update(&old, new) {
        Ok(()) => panic!("changing the selector must be rejected"),
        Err(e) => e,
    };
    assert_eq!(
        err.to_string(),
        "The DaemonSet \"ds1\" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"ds2\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable"
    );
    assert!(err.hint().unwrap_or_default().contains("--cascade=orphan"));
}

#[test]
fn r_val_7_template_changes_are_valid_updates() {
    let old = stored();
    let new = manifest(&[("busybox:1.36", "busybox:1.37")]);
    assert_eq!(update(&old, new), Ok(()));
}

#[test]
fn r_val_8_status_counters_must_not_be_negative() {
    let old = stored();
    let mut new = old.clone();
    if let Some(s) = new.status.as_mut() {
        s.number_ready = -1;
        s.number_unavailable = Some(-2);
    }
    prepare_for_status_update(&mut new, &old);
    assert_eq!(
        validate_daemon_set_status_update(&new, &old).map_err(|e| e.to_string()),
        Err("The DaemonSet \"ds1\" is invalid: \n* status.numberReady: Invalid value: -1: must be greater than or equal to 0\n* status.numberUnavailable: Invalid value: -2: must be greater than or equal to 0".to_string())
    );
}

#[test]
fn r_val_8_collision_count_may_not_decrease() {
    let mut old = stored();
    if let Some(s) = old.status.as_mut() {
        s.collision_count = Some(2);
    }
    let mut new = old.clone();
    if let Some(s) = new.status.as_mut() {
        s.collision_count = Some(1);
    }
    assert_eq!(
        validate_daemon_set_status_update(&new, &old).map_err(|e| e.to_string()),
        Err("The DaemonSet \"ds1\" is invalid: status.collisionCount: Invalid value: 1: cannot be decremented".to_string())
    );
    if let Some(s) = new.status.as_mut() {
        s.collision_count = Some(3);
    }
    assert_eq!(validate_daemon_set_status_update(&new, &old), Ok(()));
}

#[test]
fn object_name_is_immutable_on_update() {
    let old = stored();
    let new = manifest(&[("name: ds1", "name: ds2")]);
    assert_eq!(
        update(&old, new).map_err(|e| e.to_string()),
        Err("The DaemonSet \"ds2\" is invalid: metadata.name: Invalid value: \"ds2\": field is immutable".to_string())
    );
}

/// Pod-template rules, one line each: (what, edit, the one error expected).
const TEMPLATE_CASES: &[(&str, &str, &str, &str)] = &[
    (
        "toleration with Exists and a value",
        "      nodeSelector:",
        "      tolerations:\n      - {key: k, operator: Exists, value: v, effect: NoSchedule}\n      nodeSelector:",
        "spec.template.spec.tolerations[0].operator: Invalid value: core.Toleration{Key:\"k\", Operator:\"Exists\", Value:\"v\", Effect:\"NoSchedule\", TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is 'Exists'",
    ),
    (
        "toleration with an empty key needs Exists",
        "      nodeSelector:",
        "      tolerations:\n      - {operator: Equal, value: v}\n      nodeSelector:",
        "spec.template.spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
    ),
    (
        "toleration effect must be a taint effect",
        "      nodeSelector:",
        "      tolerations:\n      - {key: k, operator: Exists, effect: NoEvict}\n      nodeSelector:",
        "spec.template.spec.tolerations[0].effect: Unsupported value: \"NoEvict\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
    ),
    (
        "tolerationSeconds only with NoExecute",
        "      nodeSelector:",
        "      tolerations:\n      - {key: k, operator: Exists, effect: NoSchedule, tolerationSeconds: 30}\n      nodeSelector:",
        "spec.template.spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
    ),
    (
        "toleration operator must be Equal or Exists",
        "      nodeSelector:",
        "      tolerations:\n      - {key: k, operator: In}\n      nodeSelector:",
        "spec.template.spec.tolerations[0].operator: Unsupported value: \"In\": supported values: \"Equal\", \"Exists\"",
    ),
    (
        "node selector requirement In needs values",
        "      nodeSelector:",
        "      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n            - matchExpressions: [{key: disk, operator: In}]\n      nodeSelector:",
        "spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ),
    (
        "node selector requirement Exists takes no values",
        "      nodeSelector:",
        "      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n            - matchExpressions: [{key: disk, operator: Exists, values: [ssd]}]\n      nodeSelector:",
        "spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ),
    (
        "node selector requirement Gt takes exactly one value",
        "      nodeSelector:",
        "      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n            - matchExpressions: [{key: cores, operator: Gt, values: [\"4\", \"8\"]}]\n      nodeSelector:",
        "spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'",
    ),
    (
        "node selector requirement operator must exist",
        "      nodeSelector:",
        "      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n            - matchExpressions: [{key: disk, operator: Equals, values: [ssd]}]\n      nodeSelector:",
        "spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: \"Equals\": not a valid selector operator",
    ),
    (
        "nodeSelector keys are label keys",
        "        k42: \"yes\"",
        "        k42: \"yes\"\n        -bad: x",
        "spec.template.spec.nodeSelector: Invalid value: \"-bad\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ),
    (
        "container ports are 1..65535",
        "        command:",
        "        ports: [{containerPort: 70000}]\n        command:",
        "spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
    ),
    (
        "volume mounts name an existing volume",
        "        command:",
        "        volumeMounts: [{name: logs, mountPath: /var/log}]\n        command:",
        "spec.template.spec.containers[0].volumeMounts[0].name: Not found: \"logs\"",
    ),
    (
        "image pull policy is one of three",
        "        command:",
        "        imagePullPolicy: Sometimes\n        command:",
        "spec.template.spec.containers[0].imagePullPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"IfNotPresent\", \"Never\"",
    ),
    (
        "requests may not exceed limits",
        "        command:",
        "        resources: {requests: {cpu: \"2\"}, limits: {cpu: 500m}}\n        command:",
        "spec.template.spec.containers[0].resources.requests[cpu]: Invalid value: \"2\": must be less than or equal to cpu limit of 500m",
    ),
    (
        "requests and limits compare by value, whatever the suffix",
        "        command:",
        "        resources: {requests: {memory: 1025Mi}, limits: {memory: 1Gi}}\n        command:",
        "spec.template.spec.containers[0].resources.requests[memory]: Invalid value: \"1025Mi\": must be less than or equal to memory limit of 1Gi",
    ),
    (
        "probes need a handler",
        "        command:",
        "        readinessProbe: {periodSeconds: 5}\n        command:",
        "spec.template.spec.containers[0].readinessProbe: Required value: must specify a handler type",
    ),
    (
        "hostPath volumes need a path",
        "      containers:",
        "      volumes: [{name: root, hostPath: {path: \"\"}}]\n      containers:",
        "spec.template.spec.volumes[0].hostPath.path: Required value",
    ),
];

#[test]
fn pod_template_rules_report_upstream_messages() {
    for (what, from, to, expected) in TEMPLATE_CASES {
        let err = rejection(&manifest(&[(from, to)]));
        let lines: Vec<String> = err.errors.iter().map(ToString::to_string).collect();
        assert_eq!(lines, [expected.to_string()], "{what}");
    }
}

#[test]
fn validation_errors_can_be_located_in_the_manifest() {
    let yaml = DS_YAML.replace(
        "      nodeSelector:",
        "      restartPolicy: Never\n      nodeSelector:",
    );
    let (mut ds, map) = match decode_daemon_set("ds.yaml", &yaml) {
        Ok(x) => x,
        Err(e) => panic!("{e}"),
    };
    set_defaults_daemon_set(&mut ds);
    let err = rejection(&ds);
    assert_eq!(map.locate(&err.errors[0].path), Some((15, 22)));
}

/// A node named `worker` with these taints (key, value, effect).
fn tainted(taints: &[(&str, &str, &str)]) -> k8s_openapi::api::core::v1::Node {
    use k8s_openapi::api::core::v1::{Node, NodeSpec, Taint};
    Node {
        metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta {
            name: Some("worker".into()),
            ..Default::default()
        },
        spec: Some(NodeSpec {
            taints: Some(
                taints
                    .iter()
                    .map(|(k, v, e)| Taint {
                        key: (*k).into(),
                        value: (!v.is_empty()).then(|| (*v).into()),
                        effect: (*e).into(),
                        time_added: None,
                    })
                    .collect(),
            ),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// `validateNodeTaints` (pkg/apis/core/validation/validation.go), run by `ValidateNode` on
/// `metadata.taints`: key a qualified name, value a label value, effect required and one of
/// three, one taint per key and effect (Duplicate, printed with Go's `%#v` of the taint).
#[test]
fn validate_node_taints_follows_upstream_validate_node_taints() {
    use apiserver::validation::validate_node;
    assert!(validate_node(
        &tainted(&[("k", "v", "NoSchedule"), ("k", "v", "NoExecute")]),
        None
    )
    .is_ok());
    let said = |t: &[(&str, &str, &str)]| {
        validate_node(&tainted(t), None)
            .expect_err("refused")
            .errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        said(&[("k", "", "")]),
        ["metadata.taints[0].effect: Required value"]
    );
    assert_eq!(
        said(&[("k", "", "Never")]),
        ["metadata.taints[0].effect: Unsupported value: \"Never\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""]
    );
    assert_eq!(
        said(&[("k", "a", "NoSchedule"), ("k", "b", "NoSchedule")]),
        ["metadata.taints[1]: Duplicate value: core.Taint{Key:\"k\", Value:\"b\", Effect:\"NoSchedule\", TimeAdded:<nil>}: taints must be unique by key and effect pair"]
    );
    let value = said(&[("k", "<b>", "NoSchedule")]);
    assert_eq!(value.len(), 1);
    assert!(
        value[0]
            .starts_with("metadata.taints[0].value: Invalid value: \"<b>\": a valid label must be"),
        "{value:?}"
    );
    let key = said(&[("bad key", "", "NoSchedule")]);
    assert!(
        key[0].starts_with("metadata.taints[0].key: Invalid value: \"bad key\": name part must"),
        "{key:?}"
    );
}
