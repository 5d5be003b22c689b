//! The mutating admission a pod meets on a real cluster after defaulting (kind runs the
//! `Priority` and `ServiceAccount` plugins): what makes a daemon pod's YAML show
//! `priority: 0`, `serviceAccountName: default` and its `kube-api-access-…` token volume.
//!
//! Pure: the caller gives the random suffix of the token volume's name, so the cluster decides
//! where its randomness comes from. Pods only: the DaemonSet's own template is never admitted.

use k8s_openapi::api::core::v1::{
    ConfigMapProjection, Container, DownwardAPIProjection, DownwardAPIVolumeFile, KeyToPath,
    ObjectFieldSelector, Pod, PodSpec, ProjectedVolumeSource, ServiceAccountTokenProjection,
    Volume, VolumeMount, VolumeProjection,
};

/// Where the ServiceAccount plugin mounts the API credentials in every container.
pub const TOKEN_MOUNT_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";
/// The token volume's name is this, a dash and five random characters.
pub const TOKEN_VOLUME_PREFIX: &str = "kube-api-access";
/// The projected token's lifetime the plugin asks for (an hour and 7 s of skew).
pub const TOKEN_EXPIRATION_SECONDS: i64 = 3607;
/// `PreemptLowerPriority`, the preemption policy of the default and the system classes.
pub const PREEMPT_LOWER_PRIORITY: &str = "PreemptLowerPriority";

/// The priority classes every cluster has, and their values.
const SYSTEM_PRIORITY_CLASSES: [(&str, i32); 2] = [
    ("system-node-critical", 2_000_001_000),
    ("system-cluster-critical", 2_000_000_000),
];

/// Runs the `Priority` and `ServiceAccount` admission plugins on a pod being created.
/// `suffix` gives five random characters for a new token volume's name. A refusal is the
/// plugin's reason, as the API server words it after `pods "agent-" is forbidden: `; the pod is
/// then left as it was.
pub fn admit_pod(pod: &mut Pod, suffix: impl FnOnce() -> String) -> Result<(), String> {
    let Some(spec) = pod.spec.as_mut() else {
        return Ok(());
    };
    admit_priority(spec)?;
    admit_service_account(spec, suffix);
    Ok(())
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
}
