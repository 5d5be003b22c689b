//! Defaulting, as the API server applies it before validation (`SetDefaults_*` in
//! `pkg/apis/apps/v1/defaults.go` and `pkg/apis/core/v1/defaults.go`).
//!
//! After defaulting, an object looks the way `kubectl get -o yaml` shows it on a real cluster.
//! Owns R-DEF-1..4; R-DEF-5 (surge without `maxUnavailable: 0` is rejected) falls out of R-DEF-2
//! plus validation. Knows nothing of validation or of the cluster's state.

use k8s_openapi::api::apps::v1::{DaemonSet, DaemonSetUpdateStrategy, RollingUpdateDaemonSet};
use k8s_openapi::api::core::v1::{
    Container, HTTPGetAction, Lifecycle, LifecycleHandler, Node, ObjectFieldSelector, Pod,
    PodSecurityContext, PodSpec, Probe, Volume,
};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

/// `RollingUpdate` — the apps/v1 default strategy (R-DEF-1).
pub const ROLLING_UPDATE: &str = "RollingUpdate";
/// `OnDelete` strategy type.
pub const ON_DELETE: &str = "OnDelete";
/// R-DEF-3.
pub const DEFAULT_REVISION_HISTORY_LIMIT: i32 = 10;
pub const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS: i64 = 30;
pub const DEFAULT_SCHEDULER_NAME: &str = "default-scheduler";
pub const TERMINATION_MESSAGE_PATH: &str = "/dev/termination-log";
/// 0644, the default mode of secret, configMap, downwardAPI and projected volumes.
const DEFAULT_VOLUME_MODE: i32 = 0o644;

fn set_if_empty(field: &mut Option<String>, value: &str) {
    if field.as_deref().is_none_or(str::is_empty) {
        *field = Some(value.to_string());
    }
}

/// `SetDefaults_DaemonSet` plus the core defaults of its pod template (R-DEF-1..4).
pub fn set_defaults_daemon_set(ds: &mut DaemonSet) {
    let spec = &mut ds.spec;
    let strategy = spec
        .update_strategy
        .get_or_insert_with(DaemonSetUpdateStrategy::default);
    set_if_empty(&mut strategy.type_, ROLLING_UPDATE);
    if strategy.type_.as_deref() == Some(ROLLING_UPDATE) {
        let ru = strategy
            .rolling_update
            .get_or_insert_with(RollingUpdateDaemonSet::default);
        ru.max_unavailable.get_or_insert(IntOrString::Int(1));
        ru.max_surge.get_or_insert(IntOrString::Int(0));
    }
    spec.revision_history_limit
        .get_or_insert(DEFAULT_REVISION_HISTORY_LIMIT);
    set_defaults_pod_spec(spec.template.spec.get_or_insert_with(PodSpec::default));
}

/// `SetDefaults_Pod`: the pod-spec defaults, plus what only pods (not templates) get.
pub fn set_defaults_pod(pod: &mut Pod) {
    let spec = pod.spec.get_or_insert_with(PodSpec::default);
    set_defaults_pod_spec(spec);
    // Requests default to limits, for pods only.
    for c in spec
        .containers
        .iter_mut()
        .chain(spec.init_containers.iter_mut().flatten())
    {
        if let Some(resources) = c.resources.as_mut() {
            if let Some(limits) = &resources.limits {
                let requests = resources.requests.get_or_insert_with(Default::default);
                for (k, v) in limits {
                    requests.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
        }
    }
    spec.enable_service_links.get_or_insert(true);
    if spec.host_network == Some(true) {
        for c in spec
            .containers
            .iter_mut()
            .chain(spec.init_containers.iter_mut().flatten())
        {
            for p in c.ports.iter_mut().flatten() {
                if p.host_port.unwrap_or(0) == 0 {
                    p.host_port = Some(p.container_port);
                }
            }
        }
    }
}

/// `SetDefaults_NodeStatus`: allocatable defaults to capacity.
pub fn set_defaults_node(node: &mut Node) {
    if let Some(status) = node.status.as_mut() {
        if status.allocatable.is_none() {
            status.allocatable = status.capacity.clone();
        }
    }
}

/// `SetDefaults_PodSpec` and the defaults of everything inside it (containers, probes, ports,
/// volumes). Shared by pods and pod templates.
pub fn set_defaults_pod_spec(spec: &mut PodSpec) {
    set_if_empty(&mut spec.dns_policy, "ClusterFirst");
    set_if_empty(&mut spec.restart_policy, "Always");
    spec.security_context
        .get_or_insert_with(PodSecurityContext::default);
    spec.termination_grace_period_seconds
        .get_or_insert(DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS);
    set_if_empty(&mut spec.scheduler_name, DEFAULT_SCHEDULER_NAME);
    for c in spec
        .containers
        .iter_mut()
        .chain(spec.init_containers.iter_mut().flatten())
    {
        set_defaults_container(c);
    }
    for v in spec.volumes.iter_mut().flatten() {
        set_defaults_volume(v);
    }
}

/// `SetDefaults_Container` and friends.
fn set_defaults_container(c: &mut Container) {
    if c.image_pull_policy.as_deref().is_none_or(str::is_empty) {
        let policy = if image_tag(c.image.as_deref().unwrap_or("")) == Some("latest") {
            "Always"
        } else {
            "IfNotPresent"
        };
        c.image_pull_policy = Some(policy.into());
    }
    set_if_empty(&mut c.termination_message_path, TERMINATION_MESSAGE_PATH);
    set_if_empty(&mut c.termination_message_policy, "File");
    for p in c.ports.iter_mut().flatten() {
        set_if_empty(&mut p.protocol, "TCP");
    }
    for probe in [
        &mut c.liveness_probe,
        &mut c.readiness_probe,
        &mut c.startup_probe,
    ]
    .into_iter()
    .flatten()
    {
        set_defaults_probe(probe);
    }
    if let Some(Lifecycle {
        post_start,
        pre_stop,
        ..
    }) = c.lifecycle.as_mut()
    {
        for h in [post_start, pre_stop].into_iter().flatten() {
            set_defaults_handler(h);
        }
    }
    for env in c.env.iter_mut().flatten() {
        if let Some(f) = env.value_from.as_mut().and_then(|v| v.field_ref.as_mut()) {
            set_defaults_field_selector(f);
        }
    }
}

/// The tag of an image reference, as `parsers.ParseImageName` sees it: a reference without
/// tag and without digest means `latest`; with a digest and no tag there is no tag.
fn image_tag(image: &str) -> Option<&str> {
    let (name, digest) = match image.split_once('@') {
        Some((n, d)) => (n, Some(d)),
        None => (image, None),
    };
    let last = name.rsplit('/').next().unwrap_or(name);
    match last.rsplit_once(':') {
        Some((_, tag)) => Some(tag),
        None if digest.is_some() => None,
        None => Some("latest"),
    }
}

fn set_defaults_probe(p: &mut Probe) {
    p.timeout_seconds.get_or_insert(1);
    p.period_seconds.get_or_insert(10);
    p.success_threshold.get_or_insert(1);
    p.failure_threshold.get_or_insert(3);
    if let Some(h) = p.http_get.as_mut() {
        set_defaults_http_get(h);
    }
}

fn set_defaults_handler(h: &mut LifecycleHandler) {
    if let Some(g) = h.http_get.as_mut() {
        set_defaults_http_get(g);
    }
}

fn set_defaults_http_get(h: &mut HTTPGetAction) {
    set_if_empty(&mut h.path, "/");
    set_if_empty(&mut h.scheme, "HTTP");
}

fn set_defaults_field_selector(f: &mut ObjectFieldSelector) {
    set_if_empty(&mut f.api_version, "v1");
}

fn set_defaults_volume(v: &mut Volume) {
    if !has_volume_source(v) {
        v.empty_dir = Some(Default::default());
    }
    if let Some(h) = v.host_path.as_mut() {
        // HostPathUnset: the type is present and empty.
        h.type_.get_or_insert_with(String::new);
    }
    if let Some(s) = v.secret.as_mut() {
        s.default_mode.get_or_insert(DEFAULT_VOLUME_MODE);
    }
    if let Some(c) = v.config_map.as_mut() {
        c.default_mode.get_or_insert(DEFAULT_VOLUME_MODE);
    }
    if let Some(d) = v.downward_api.as_mut() {
        d.default_mode.get_or_insert(DEFAULT_VOLUME_MODE);
        for item in d.items.iter_mut().flatten() {
            if let Some(f) = item.field_ref.as_mut() {
                set_defaults_field_selector(f);
            }
        }
    }
    if let Some(p) = v.projected.as_mut() {
        p.default_mode.get_or_insert(DEFAULT_VOLUME_MODE);
        for source in p.sources.iter_mut().flatten() {
            if let Some(t) = source.service_account_token.as_mut() {
                t.expiration_seconds.get_or_insert(3600);
            }
            if let Some(d) = source.downward_api.as_mut() {
                for item in d.items.iter_mut().flatten() {
                    if let Some(f) = item.field_ref.as_mut() {
                        set_defaults_field_selector(f);
                    }
                }
            }
        }
    }
}

fn has_volume_source(v: &Volume) -> bool {
    v.aws_elastic_block_store.is_some()
        || v.azure_disk.is_some()
        || v.azure_file.is_some()
        || v.cephfs.is_some()
        || v.cinder.is_some()
        || v.config_map.is_some()
        || v.csi.is_some()
        || v.downward_api.is_some()
        || v.empty_dir.is_some()
        || v.ephemeral.is_some()
        || v.fc.is_some()
        || v.flex_volume.is_some()
        || v.flocker.is_some()
        || v.gce_persistent_disk.is_some()
        || v.git_repo.is_some()
        || v.glusterfs.is_some()
        || v.host_path.is_some()
        || v.image.is_some()
        || v.iscsi.is_some()
        || v.nfs.is_some()
        || v.persistent_volume_claim.is_some()
        || v.photon_persistent_disk.is_some()
        || v.portworx_volume.is_some()
        || v.projected.is_some()
        || v.quobyte.is_some()
        || v.rbd.is_some()
        || v.scale_io.is_some()
        || v.secret.is_some()
        || v.storageos.is_some()
        || v.vsphere_volume.is_some()
}

#[cfg(test)]
mod tests {
    use super::image_tag;

    #[test]
    fn image_tags_are_parsed_like_kubernetes() {
        assert_eq!(image_tag("busybox"), Some("latest"));
        assert_eq!(image_tag("busybox:1.36"), Some("1.36"));
        assert_eq!(image_tag("localhost:5000/busybox"), Some("latest"));
        assert_eq!(image_tag("localhost:5000/busybox:1"), Some("1"));
        assert_eq!(image_tag("busybox@sha256:abc"), None);
        assert_eq!(image_tag("busybox:1@sha256:abc"), Some("1"));
    }
}
