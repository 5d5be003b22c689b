//! The mutating admission a pod meets on a real cluster after defaulting (kind runs the
//! `Priority`, `ServiceAccount` and `DefaultTolerationSeconds` plugins): what makes a daemon
//! pod's YAML show `priority: 0`, `serviceAccountName: default` and its `kube-api-access-…`
//! token volume, and a bare pod's YAML the two 300 s not-ready/unreachable tolerations.
//!
//! Pure: the caller gives the random suffix of the token volume's name, so the cluster decides
//! where its randomness comes from. Pods only: the DaemonSet's own template is never admitted.

use k8s_openapi::api::core::v1::{
    ConfigMapProjection, Container, DownwardAPIProjection, DownwardAPIVolumeFile, KeyToPath,
    ObjectFieldSelector, Pod, PodSpec, ProjectedVolumeSource, ServiceAccountTokenProjection,
    Toleration, Volume, VolumeMount, VolumeProjection,
};

/// Where the ServiceAccount plugin mounts the API credentials in every container.
pub const TOKEN_MOUNT_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";
/// The token volume's name is this, a dash and five random characters.
pub const TOKEN_VOLUME_PREFIX: &str = "kube-api-access";
/// The projected token's lifetime the plugin asks for (an hour and 7 s of skew).
pub const TOKEN_EXPIRATION_SECONDS: i64 = 3607;
/// `PreemptLowerPriority`, the preemption policy of the default and the system classes.
pub const PREEMPT_LOWER_PRIORITY: &str = "PreemptLowerPriority";

/// `--default-not-ready-toleration-seconds` and `--default-unreachable-toleration-seconds`.
pub const DEFAULT_TOLERATION_SECONDS: i64 = 300;
/// The taint keys `DefaultTolerationSeconds` gives tolerations for (R-NLC-4).
const NOT_READY_TAINT: &str = "node.kubernetes.io/not-ready";
const UNREACHABLE_TAINT: &str = "node.kubernetes.io/unreachable";

/// The priority classes every cluster has, and their values.
const SYSTEM_PRIORITY_CLASSES: [(&str, i32); 2] = [
    ("system-node-critical", 2_000_001_000),
    ("system-cluster-critical", 2_000_000_000),
];

/// Runs the `Priority`, `ServiceAccount` and `DefaultTolerationSeconds` admission plugins on a
/// pod being created.
/// `suffix` gives five random characters for a new token volume's name. A refusal is the
/// plugin's reason, as the API server words it after `pods "agent-" is forbidden: `; the pod is
/// then left as it was.
pub fn admit_pod(pod: &mut Pod, suffix: impl FnOnce() -> String) -> Result<(), String> {
    let Some(spec) = pod.spec.as_mut() else {
        return Ok(());
    };
    admit_priority(spec)?;
    admit_service_account(spec, suffix);
    admit_default_toleration_seconds(spec);
    Ok(())
}

/// `DefaultTolerationSeconds` (`plugin/pkg/admission/defaulttolerationseconds`, `Admit`): a pod
/// that does not tolerate `not-ready` (or `unreachable`) NoExecute gets an `Exists` toleration
/// for it with 300 s, so the taint manager evicts it five minutes after its node is tainted
/// (R-NLC-4). A toleration counts when its key is that key or empty (any key) and its effect is
/// NoExecute or empty (any effect), whatever its operator or seconds: DaemonSet pods, which the
/// controller gives both tolerations without seconds (R-TOL-2), are left as they are.
fn admit_default_toleration_seconds(spec: &mut PodSpec) {
    let tolerates = |key: &str| {
        spec.tolerations.iter().flatten().any(|t| {
            let k = t.key.as_deref().unwrap_or_default();
            let e = t.effect.as_deref().unwrap_or_default();
            (k == key || k.is_empty()) && (e == "NoExecute" || e.is_empty())
        })
    };
    let missing: Vec<&str> = [NOT_READY_TAINT, UNREACHABLE_TAINT]
        .into_iter()
        .filter(|key| !tolerates(key))
        .collect();
    for key in missing {
        spec.tolerations
            .get_or_insert_with(Vec::new)
            .push(Toleration {
                key: Some(key.to_string()),
                operator: Some("Exists".into()),
                effect: Some("NoExecute".into()),
                toleration_seconds: Some(DEFAULT_TOLERATION_SECONDS),
                value: None,
            });
    }
}

/// `Priority`: no class (and no cluster default class) gives priority 0, a system class its
/// value, both with `PreemptLowerPriority`. The playground has no PriorityClass objects, so any
/// other class is refused as on a cluster that lacks it; so is a `priority` or a
/// `preemptionPolicy` written in the pod that differs from the class's.
fn admit_priority(spec: &mut PodSpec) -> Result<(), String> {
    let class = spec.priority_class_name.as_deref().unwrap_or_default();
    let value = if class.is_empty() {
        0
    } else {
        SYSTEM_PRIORITY_CLASSES
            .iter()
            .find(|(name, _)| *name == class)
            .map(|(_, v)| *v)
            .ok_or_else(|| format!("no PriorityClass with name {class} was found"))?
    };
    if let Some(given) = spec.priority.filter(|p| *p != value) {
        return Err(format!(
            "the integer value of priority ({given}) must not be provided in pod spec; \
             priority admission controller computed {value} from the given PriorityClass name"
        ));
    }
    if let Some(given) = spec
        .preemption_policy
        .as_deref()
        .filter(|p| *p != PREEMPT_LOWER_PRIORITY)
    {
        return Err(format!(
            "the string value of PreemptionPolicy ({given}) must not be provided in pod spec; \
             priority admission controller computed {PREEMPT_LOWER_PRIORITY} from the given \
             PriorityClass name"
        ));
    }
    spec.priority = Some(value);
    spec.preemption_policy = Some(PREEMPT_LOWER_PRIORITY.to_string());
    Ok(())
}

/// `ServiceAccount`: the `default` account unless one is named (and `serviceAccount`, the
/// deprecated twin, equal to it); unless the pod opts out, a projected token volume, mounted
/// read-only at [`TOKEN_MOUNT_PATH`] in every container that has nothing mounted there.
fn admit_service_account(spec: &mut PodSpec, suffix: impl FnOnce() -> String) {
    if spec
        .service_account_name
        .as_deref()
        .is_none_or(str::is_empty)
    {
        spec.service_account_name = Some("default".into());
    }
    spec.service_account = spec.service_account_name.clone();
    if spec.automount_service_account_token == Some(false) {
        return;
    }
    let prefix = format!("{TOKEN_VOLUME_PREFIX}-");
    let existing = spec
        .volumes
        .iter()
        .flatten()
        .find(|v| v.name.starts_with(&prefix))
        .map(|v| v.name.clone());
    let name = existing
        .clone()
        .unwrap_or_else(|| format!("{prefix}{}", suffix()));
    let mut mounted = false;
    let containers = spec.init_containers.iter_mut().flatten();
    for c in containers.chain(spec.containers.iter_mut()) {
        mounted |= mount_token(c, &name);
    }
    if mounted && existing.is_none() {
        spec.volumes
            .get_or_insert_with(Vec::new)
            .push(token_volume(name));
    }
}

/// Mounts the token volume unless the container already has a mount at its path.
fn mount_token(c: &mut Container, volume: &str) -> bool {
    let mounts = c.volume_mounts.get_or_insert_with(Vec::new);
    if mounts.iter().any(|m| m.mount_path == TOKEN_MOUNT_PATH) {
        return false;
    }
    mounts.push(VolumeMount {
        name: volume.to_string(),
        mount_path: TOKEN_MOUNT_PATH.into(),
        read_only: Some(true),
        ..Default::default()
    });
    true
}

/// The projected volume: a bound token, the cluster's CA and the pod's namespace.
fn token_volume(name: String) -> Volume {
    Volume {
        name,
        projected: Some(ProjectedVolumeSource {
            default_mode: Some(0o644),
            sources: Some(vec![
                VolumeProjection {
                    service_account_token: Some(ServiceAccountTokenProjection {
                        expiration_seconds: Some(TOKEN_EXPIRATION_SECONDS),
                        path: "token".into(),
                        ..Default::default()
                    }),
                    ..Default::default()
                },
                VolumeProjection {
                    config_map: Some(ConfigMapProjection {
                        name: "kube-root-ca.crt".into(),
                        items: Some(vec![KeyToPath {
                            key: "ca.crt".into(),
                            path: "ca.crt".into(),
                            ..Default::default()
                        }]),
                        optional: None,
                    }),
                    ..Default::default()
                },
                VolumeProjection {
                    downward_api: Some(DownwardAPIProjection {
                        items: Some(vec![DownwardAPIVolumeFile {
                            path: "namespace".into(),
                            field_ref: Some(ObjectFieldSelector {
                                api_version: Some("v1".into()),
                                field_path: "metadata.namespace".into(),
                            }),
                            ..Default::default()
                        }]),
                    }),
                    ..Default::default()
                },
            ]),
            ..Default::default()
        }),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::Container;

    fn pod(spec: PodSpec) -> Pod {
        Pod {
            spec: Some(spec),
            ..Default::default()
        }
    }

    fn container(name: &str) -> Container {
        Container {
            name: name.into(),
            ..Default::default()
        }
    }

    fn admitted(mut p: Pod) -> PodSpec {
        assert_eq!(admit_pod(&mut p, || "x7k2p".into()), Ok(()));
        p.spec.expect("spec")
    }

    #[test]
    fn a_plain_pod_gets_priority_0_the_default_account_and_its_token() {
        let s = admitted(pod(PodSpec {
            init_containers: Some(vec![container("init")]),
            containers: vec![container("app"), container("sidecar")],
            ..Default::default()
        }));
        assert_eq!(s.priority, Some(0));
        assert_eq!(s.preemption_policy.as_deref(), Some(PREEMPT_LOWER_PRIORITY));
        assert_eq!(s.service_account_name.as_deref(), Some("default"));
        assert_eq!(s.service_account.as_deref(), Some("default"));
        let vols = s.volumes.clone().unwrap_or_default();
        assert_eq!(vols.len(), 1);
        assert_eq!(vols[0].name, "kube-api-access-x7k2p");
        let sources = vols[0]
            .projected
            .clone()
            .and_then(|p| p.sources)
            .unwrap_or_default();
        assert_eq!(sources.len(), 3);
        assert_eq!(
            sources[0]
                .service_account_token
                .as_ref()
                .and_then(|t| t.expiration_seconds),
            Some(3607)
        );
        for c in s.init_containers.iter().flatten().chain(&s.containers) {
            let m = c.volume_mounts.clone().unwrap_or_default();
            assert_eq!(m.len(), 1, "{}", c.name);
            assert_eq!(
                (m[0].name.as_str(), m[0].mount_path.as_str()),
                ("kube-api-access-x7k2p", TOKEN_MOUNT_PATH)
            );
            assert_eq!(m[0].read_only, Some(true));
        }
    }

    #[test]
    fn classes_opt_outs_and_existing_mounts_are_respected() {
        let s = admitted(pod(PodSpec {
            priority_class_name: Some("system-node-critical".into()),
            service_account_name: Some("fluentd".into()),
            automount_service_account_token: Some(false),
            containers: vec![container("app")],
            ..Default::default()
        }));
        assert_eq!(s.priority, Some(2_000_001_000));
        assert_eq!(s.service_account.as_deref(), Some("fluentd"));
        assert!(s.volumes.is_none() && s.containers[0].volume_mounts.is_none());
        // A container with its own mount there keeps it.
        let mut own = container("own");
        own.volume_mounts = Some(vec![VolumeMount {
            name: "mine".into(),
            mount_path: TOKEN_MOUNT_PATH.into(),
            ..Default::default()
        }]);
        let s = admitted(pod(PodSpec {
            priority: Some(0),
            containers: vec![own.clone()],
            ..Default::default()
        }));
        assert_eq!(
            s.priority,
            Some(0),
            "the priority the plugin computes may be given"
        );
        assert!(s.volumes.is_none(), "nothing needs the token volume");
        assert_eq!(s.containers[0].volume_mounts, own.volume_mounts);
        // Admitting twice (an updated pod is not re-admitted, but a copy might be) adds nothing.
        let mut p = pod(PodSpec {
            containers: vec![container("app")],
            ..Default::default()
        });
        assert_eq!(admit_pod(&mut p, || "aaaaa".into()), Ok(()));
        let once = p.clone();
        assert_eq!(admit_pod(&mut p, || "bbbbb".into()), Ok(()));
        assert_eq!(p, once);
    }

    #[test]
    fn the_priority_plugin_refuses_unknown_classes_and_other_values() {
        let refused = |spec: PodSpec| {
            let mut p = pod(PodSpec {
                containers: vec![container("app")],
                ..spec
            });
            let before = p.clone();
            let e = admit_pod(&mut p, || unreachable!("no token for a refused pod"));
            assert_eq!(p, before, "a refused pod is left as it was");
            e.expect_err("refused")
        };
        assert_eq!(
            refused(PodSpec {
                priority_class_name: Some("team-high".into()),
                ..Default::default()
            }),
            "no PriorityClass with name team-high was found"
        );
        assert_eq!(
            refused(PodSpec {
                priority: Some(5),
                ..Default::default()
            }),
            "the integer value of priority (5) must not be provided in pod spec; priority \
             admission controller computed 0 from the given PriorityClass name"
        );
        assert_eq!(
            refused(PodSpec {
                priority_class_name: Some("system-node-critical".into()),
                priority: Some(0),
                ..Default::default()
            }),
            "the integer value of priority (0) must not be provided in pod spec; priority \
             admission controller computed 2000001000 from the given PriorityClass name"
        );
        assert_eq!(
            refused(PodSpec {
                preemption_policy: Some("Never".into()),
                ..Default::default()
            }),
            "the string value of PreemptionPolicy (Never) must not be provided in pod spec; \
             priority admission controller computed PreemptLowerPriority from the given \
             PriorityClass name"
        );
    }

    fn toleration(key: &str, effect: &str, seconds: Option<i64>) -> Toleration {
        Toleration {
            key: (!key.is_empty()).then(|| key.to_string()),
            operator: Some("Exists".into()),
            effect: (!effect.is_empty()).then(|| effect.to_string()),
            toleration_seconds: seconds,
            value: None,
        }
    }

    fn admitted_tolerations(tolerations: Option<Vec<Toleration>>) -> Vec<Toleration> {
        admitted(pod(PodSpec {
            containers: vec![container("app")],
            tolerations,
            ..Default::default()
        }))
        .tolerations
        .unwrap_or_default()
    }

    #[test]
    fn default_toleration_seconds_admit_gives_a_bare_pod_300_s_for_not_ready_and_unreachable() {
        assert_eq!(
            admitted_tolerations(None),
            vec![
                toleration(NOT_READY_TAINT, "NoExecute", Some(300)),
                toleration(UNREACHABLE_TAINT, "NoExecute", Some(300)),
            ]
        );
        // A toleration of something else is kept, and the two are added after it.
        let own = toleration("example.com/gpu", "NoSchedule", None);
        assert_eq!(
            admitted_tolerations(Some(vec![own.clone()])),
            vec![
                own,
                toleration(NOT_READY_TAINT, "NoExecute", Some(300)),
                toleration(UNREACHABLE_TAINT, "NoExecute", Some(300)),
            ]
        );
    }

    /// The controller's default tolerations (R-TOL-2: NoExecute, no seconds) count as
    /// tolerating, so a DaemonSet pod keeps them as they are: it is never evicted for them.
    #[test]
    fn default_toleration_seconds_admit_leaves_daemon_set_pods_alone() {
        let daemon = vec![
            toleration(NOT_READY_TAINT, "NoExecute", None),
            toleration(UNREACHABLE_TAINT, "NoExecute", None),
            toleration("node.kubernetes.io/disk-pressure", "NoSchedule", None),
        ];
        assert_eq!(admitted_tolerations(Some(daemon.clone())), daemon);
    }

    /// `Admit`'s conditions: a key or an effect left empty matches any; a NoSchedule toleration
    /// of the key does not count; the pod's own seconds stand.
    #[test]
    fn default_toleration_seconds_admit_skips_keys_already_tolerated_for_no_execute() {
        let everything = vec![toleration("", "", None)];
        assert_eq!(admitted_tolerations(Some(everything.clone())), everything);
        let any_key_no_execute = vec![toleration("", "NoExecute", Some(10))];
        assert_eq!(
            admitted_tolerations(Some(any_key_no_execute.clone())),
            any_key_no_execute
        );
        let own = toleration(NOT_READY_TAINT, "", Some(60));
        assert_eq!(
            admitted_tolerations(Some(vec![own.clone()])),
            vec![own, toleration(UNREACHABLE_TAINT, "NoExecute", Some(300))]
        );
        let no_schedule = toleration(UNREACHABLE_TAINT, "NoSchedule", None);
        assert_eq!(
            admitted_tolerations(Some(vec![no_schedule.clone()])),
            vec![
                no_schedule,
                toleration(NOT_READY_TAINT, "NoExecute", Some(300)),
                toleration(UNREACHABLE_TAINT, "NoExecute", Some(300)),
            ]
        );
    }
}
