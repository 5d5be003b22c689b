//! Pod template and pod spec validation (`pkg/apis/core/validation`: `ValidatePodTemplateSpec`,
//! `ValidatePodSpec` and the container, volume, toleration and affinity checks a DaemonSet
//! author runs into). A subset: checks for fields the playground does not model are left out.

use std::collections::HashSet;

use k8s_openapi::api::core::v1::{
    Affinity, Container, EnvVar, NodeSelectorRequirement, NodeSelectorTerm, PodSpec,
    PodTemplateSpec, Probe, ResourceRequirements, Toleration, Volume,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use super::field::{FieldError, Path, Raw};
use super::meta::{
    negative, validate_annotations, validate_label_name, validate_labels,
    validate_nonnegative_fields,
};
use super::names::{
    inclusive_range_error, is_dns1123_subdomain, is_valid_label_value, is_valid_port_name,
    is_valid_port_num, validate_dns1123_label,
};
use crate::gofmt::{self, quote};

/// `ValidatePodTemplateSpec`. Note the template's labels are reported on `<path>.labels`, not
/// `<path>.metadata.labels` (upstream does the same).
pub(crate) fn validate_pod_template_spec(t: &PodTemplateSpec, path: &Path) -> Vec<FieldError> {
    let meta = t.metadata.as_ref();
    let mut errs = validate_labels(meta.and_then(|m| m.labels.as_ref()), &path.child("labels"));
    errs.extend(validate_annotations(
        meta.and_then(|m| m.annotations.as_ref()),
        &path.child("annotations"),
    ));
    let empty = PodSpec::default();
    let spec = t.spec.as_ref().unwrap_or(&empty);
    errs.extend(validate_pod_spec(spec, &path.child("spec")));
    if spec
        .ephemeral_containers
        .as_ref()
        .is_some_and(|e| !e.is_empty())
    {
        errs.push(FieldError::forbidden(
            &path.child("spec").child("ephemeralContainers"),
            "ephemeral containers not allowed in pod template",
        ));
    }
    errs
}

/// `ValidatePodSpec` (subset).
pub(crate) fn validate_pod_spec(spec: &PodSpec, path: &Path) -> Vec<FieldError> {
    let (volume_names, mut errs) =
        validate_volumes(spec.volumes.as_deref(), &path.child("volumes"));
    errs.extend(validate_containers(
        &spec.containers,
        &volume_names,
        &path.child("containers"),
    ));
    errs.extend(validate_init_containers(
        spec.init_containers.as_deref().unwrap_or_default(),
        &spec.containers,
        &volume_names,
        &path.child("initContainers"),
    ));
    errs.extend(one_of(
        spec.restart_policy.as_deref(),
        &["Always", "OnFailure", "Never"],
        &path.child("restartPolicy"),
    ));
    errs.extend(one_of(
        spec.dns_policy.as_deref(),
        &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
        &path.child("dnsPolicy"),
    ));
    errs.extend(validate_labels(
        spec.node_selector.as_ref(),
        &path.child("nodeSelector"),
    ));
    if let Some(a) = &spec.affinity {
        errs.extend(validate_affinity(a, &path.child("affinity")));
    }
    for (field, value) in [
        ("serviceAccountName", &spec.service_account_name),
        ("nodeName", &spec.node_name),
        ("priorityClassName", &spec.priority_class_name),
    ] {
        if let Some(v) = value.as_deref().filter(|v| !v.is_empty()) {
            for msg in is_dns1123_subdomain(v) {
                errs.push(FieldError::invalid(&path.child(field), v, &msg));
            }
        }
    }
    if let Some(v) = spec.active_deadline_seconds {
        if !(1..=i64::from(i32::MAX)).contains(&v) {
            errs.push(FieldError::invalid(
                &path.child("activeDeadlineSeconds"),
                v,
                &inclusive_range_error(1, i64::from(i32::MAX)),
            ));
        }
    }
    for (field, value) in [("hostname", &spec.hostname), ("subdomain", &spec.subdomain)] {
        if let Some(v) = value.as_deref().filter(|v| !v.is_empty()) {
            errs.extend(validate_dns1123_label(v, &path.child(field)));
        }
    }
    if let Some(t) = spec.termination_grace_period_seconds.filter(|t| *t < 0) {
        errs.push(negative(&path.child("terminationGracePeriodSeconds"), t));
    }
    errs.extend(validate_tolerations(
        spec.tolerations.as_deref().unwrap_or_default(),
        &path.child("tolerations"),
    ));
    errs
}

/// An enum-like string field: empty → Required, unknown → NotSupported.
fn one_of(value: Option<&str>, supported: &[&str], path: &Path) -> Vec<FieldError> {
    match value.unwrap_or("") {
        "" => vec![FieldError::required(path, "")],
        v if supported.contains(&v) => Vec::new(),
        v => vec![FieldError::not_supported(path, v, supported)],
    }
}

fn validate_volumes(volumes: Option<&[Volume]>, path: &Path) -> (HashSet<String>, Vec<FieldError>) {
    let mut names = HashSet::new();
    let mut errs = Vec::new();
    for (i, v) in volumes.unwrap_or_default().iter().enumerate() {
        let p = path.index(i);
        let mut el = validate_volume_source(v, &p);
        let name_path = p.child("name");
        if v.name.is_empty() {
            el.push(FieldError::required(&name_path, ""));
        } else {
            el.extend(validate_dns1123_label(&v.name, &name_path));
        }
        if names.contains(&v.name) {
            el.push(FieldError::duplicate(&name_path, &v.name));
        }
        if el.is_empty() {
            names.insert(v.name.clone());
        } else {
            errs.extend(el);
        }
    }
    (names, errs)
}

fn validate_volume_source(v: &Volume, path: &Path) -> Vec<FieldError> {
    let sources = [
        ("hostPath", v.host_path.is_some()),
        ("emptyDir", v.empty_dir.is_some()),
        ("secret", v.secret.is_some()),
        ("configMap", v.config_map.is_some()),
        ("persistentVolumeClaim", v.persistent_volume_claim.is_some()),
        ("downwardAPI", v.downward_api.is_some()),
        ("projected", v.projected.is_some()),
        ("csi", v.csi.is_some()),
        ("ephemeral", v.ephemeral.is_some()),
        ("image", v.image.is_some()),
        ("nfs", v.nfs.is_some()),
        ("iscsi", v.iscsi.is_some()),
        ("fc", v.fc.is_some()),
        ("gitRepo", v.git_repo.is_some()),
        ("awsElasticBlockStore", v.aws_elastic_block_store.is_some()),
        ("gcePersistentDisk", v.gce_persistent_disk.is_some()),
        ("azureDisk", v.azure_disk.is_some()),
        ("azureFile", v.azure_file.is_some()),
        ("cephfs", v.cephfs.is_some()),
        ("cinder", v.cinder.is_some()),
        ("flexVolume", v.flex_volume.is_some()),
        ("flocker", v.flocker.is_some()),
        ("glusterfs", v.glusterfs.is_some()),
        ("photonPersistentDisk", v.photon_persistent_disk.is_some()),
        ("portworxVolume", v.portworx_volume.is_some()),
        ("quobyte", v.quobyte.is_some()),
        ("rbd", v.rbd.is_some()),
        ("scaleIO", v.scale_io.is_some()),
        ("storageos", v.storageos.is_some()),
        ("vsphereVolume", v.vsphere_volume.is_some()),
    ];
    let mut errs = exactly_one(sources, path, "volume type");
    if let Some(h) = &v.host_path {
        if h.path.is_empty() {
            errs.push(FieldError::required(
                &path.child("hostPath").child("path"),
                "",
            ));
        }
        let supported = [
            "",
            "BlockDevice",
            "CharDevice",
            "Directory",
            "DirectoryOrCreate",
            "File",
            "FileOrCreate",
            "Socket",
        ];
        if let Some(t) = h.type_.as_deref().filter(|t| !supported.contains(t)) {
            errs.push(FieldError::not_supported(
                &path.child("hostPath").child("type"),
                t,
                &supported,
            ));
        }
    }
    if let Some(s) = &v.secret {
        if s.secret_name.as_deref().unwrap_or("").is_empty() {
            errs.push(FieldError::required(
                &path.child("secret").child("secretName"),
                "",
            ));
        }
    }
    if let Some(c) = &v.config_map {
        if c.name.is_empty() {
            errs.push(FieldError::required(
                &path.child("configMap").child("name"),
                "",
            ));
        }
    }
    if let Some(c) = &v.persistent_volume_claim {
        if c.claim_name.is_empty() {
            errs.push(FieldError::required(
                &path.child("persistentVolumeClaim").child("claimName"),
                "",
            ));
        }
    }
    errs
}

fn validate_containers(
    containers: &[Container],
    volumes: &HashSet<String>,
    path: &Path,
) -> Vec<FieldError> {
    if containers.is_empty() {
        return vec![FieldError::required(path, "")
            .with_hint("a pod needs at least one container under spec.template.spec.containers")];
    }
    let mut errs = Vec::new();
    let mut names = HashSet::new();
    for (i, c) in containers.iter().enumerate() {
        let p = path.index(i);
        errs.extend(validate_container_common(c, volumes, &p));
        if !names.insert(c.name.as_str()) {
            errs.push(FieldError::duplicate(&p.child("name"), &c.name));
        }
        if let Some(probe) = &c.liveness_probe {
            errs.extend(validate_probe(probe, &p.child("livenessProbe")));
            errs.extend(success_threshold_is_one(probe, &p.child("livenessProbe")));
        }
        if let Some(probe) = &c.startup_probe {
            errs.extend(validate_probe(probe, &p.child("startupProbe")));
            errs.extend(success_threshold_is_one(probe, &p.child("startupProbe")));
        }
        if let Some(probe) = &c.readiness_probe {
            let rp = p.child("readinessProbe");
            errs.extend(validate_probe(probe, &rp));
            if probe.termination_grace_period_seconds.is_some() {
                errs.push(FieldError::invalid(
                    &rp.child("terminationGracePeriodSeconds"),
                    probe.termination_grace_period_seconds.unwrap_or(0),
                    "must not be set for readinessProbes",
                ));
            }
        }
        if c.restart_policy.is_some() {
            errs.push(FieldError::forbidden(
                &p.child("restartPolicy"),
                "may not be set for non-init containers",
            ));
        }
    }
    errs
}

fn validate_init_containers(
    init: &[Container],
    regular: &[Container],
    volumes: &HashSet<String>,
    path: &Path,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut names: HashSet<&str> = regular.iter().map(|c| c.name.as_str()).collect();
    for (i, c) in init.iter().enumerate() {
        let p = path.index(i);
        errs.extend(validate_container_common(c, volumes, &p));
        if !names.insert(c.name.as_str()) {
            errs.push(FieldError::duplicate(&p.child("name"), &c.name));
        }
        if let Some(rp) = c.restart_policy.as_deref() {
            if rp != "Always" {
                errs.push(FieldError::not_supported(
                    &p.child("restartPolicy"),
                    rp,
                    &["Always"],
                ));
            }
        }
    }
    errs
}

fn validate_container_common(
    c: &Container,
    volumes: &HashSet<String>,
    p: &Path,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let name_path = p.child("name");
    if c.name.is_empty() {
        errs.push(FieldError::required(&name_path, ""));
    } else {
        errs.extend(validate_dns1123_label(&c.name, &name_path));
    }
    if c.image.as_deref().unwrap_or("").is_empty() {
        errs.push(FieldError::required(&p.child("image"), ""));
    }
    errs.extend(one_of(
        c.termination_message_policy.as_deref(),
        &["File", "FallbackToLogsOnError"],
        &p.child("terminationMessagePolicy"),
    ));
    errs.extend(validate_ports(c, &p.child("ports")));
    errs.extend(validate_env(
        c.env.as_deref().unwrap_or_default(),
        &p.child("env"),
    ));
    for (i, m) in c.volume_mounts.iter().flatten().enumerate() {
        let mp = p.child("volumeMounts").index(i);
        if m.name.is_empty() {
            errs.push(FieldError::required(&mp.child("name"), ""));
        } else if !volumes.contains(&m.name) {
            errs.push(FieldError::not_found(&mp.child("name"), &m.name).with_hint(format!(
                "volumeMounts refer to volumes by name: add a volume named {} under spec.template.spec.volumes",
                quote(&m.name)
            )));
        }
        if m.mount_path.is_empty() {
            errs.push(FieldError::required(&mp.child("mountPath"), ""));
        }
    }
    errs.extend(one_of(
        c.image_pull_policy.as_deref(),
        &["Always", "IfNotPresent", "Never"],
        &p.child("imagePullPolicy"),
    ));
    if let Some(r) = &c.resources {
        errs.extend(validate_resources(r, &p.child("resources")));
    }
    errs
}

fn validate_ports(c: &Container, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut names = HashSet::new();
    for (i, port) in c.ports.iter().flatten().enumerate() {
        let p = path.index(i);
        if let Some(name) = port.name.as_deref().filter(|n| !n.is_empty()) {
            let msgs = is_valid_port_name(name);
            if !msgs.is_empty() {
                for msg in msgs {
                    errs.push(FieldError::invalid(&p.child("name"), name, &msg));
                }
            } else if !names.insert(name) {
                errs.push(FieldError::duplicate(&p.child("name"), name));
            }
        }
        if port.container_port == 0 {
            errs.push(FieldError::required(&p.child("containerPort"), ""));
        } else {
            for msg in is_valid_port_num(i64::from(port.container_port)) {
                errs.push(FieldError::invalid(
                    &p.child("containerPort"),
                    port.container_port,
                    &msg,
                ));
            }
        }
        if let Some(hp) = port.host_port.filter(|h| *h != 0) {
            for msg in is_valid_port_num(i64::from(hp)) {
                errs.push(FieldError::invalid(&p.child("hostPort"), hp, &msg));
            }
        }
        match port.protocol.as_deref().unwrap_or("") {
            "" => errs.push(FieldError::required(&p.child("protocol"), "")),
            "SCTP" | "TCP" | "UDP" => {}
            other => errs.push(FieldError::not_supported(
                &p.child("protocol"),
                other,
                &["SCTP", "TCP", "UDP"],
            )),
        }
    }
    errs
}

const ENV_FIELD_PATHS: &[&str] = &[
    "metadata.annotations",
    "metadata.labels",
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.serviceAccountName",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];

fn validate_env(env: &[EnvVar], path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (i, e) in env.iter().enumerate() {
        let p = path.index(i);
        if e.name.is_empty() {
            errs.push(FieldError::required(&p.child("name"), ""));
        } else if !e
            .name
            .bytes()
            .all(|c| (0x20..0x7f).contains(&c) && c != b'=')
        {
            errs.push(FieldError::invalid(
                &p.child("name"),
                &e.name,
                "a valid environment variable name must consist only of printable ASCII characters other than '='",
            ));
        }
        let Some(from) = &e.value_from else {
            continue;
        };
        let vp = p.child("valueFrom");
        let sources = [
            from.field_ref.is_some(),
            from.resource_field_ref.is_some(),
            from.config_map_key_ref.is_some(),
            from.secret_key_ref.is_some(),
            from.file_key_ref.is_some(),
        ]
        .iter()
        .filter(|s| **s)
        .count();
        match sources {
            0 => errs.push(FieldError::invalid(
                &vp,
                Raw(String::new()),
                "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
            )),
            1 => {}
            _ => errs.push(FieldError::invalid(
                &vp,
                Raw(String::new()),
                "may not have more than one field specified at a time",
            )),
        }
        if e.value.as_deref().is_some_and(|v| !v.is_empty()) {
            errs.push(FieldError::invalid(
                &vp,
                Raw(String::new()),
                "may not be specified when `value` is not empty",
            ));
        }
        if let Some(f) = &from.field_ref {
            let fp = vp.child("fieldRef");
            if f.api_version.as_deref().unwrap_or("").is_empty() {
                errs.push(FieldError::required(&fp.child("apiVersion"), ""));
            }
            if f.field_path.is_empty() {
                errs.push(FieldError::required(&fp.child("fieldPath"), ""));
            } else {
                let base = f.field_path.split('[').next().unwrap_or("");
                let subscripted = f.field_path.contains('[');
                let ok = if subscripted {
                    base == "metadata.labels" || base == "metadata.annotations"
                } else {
                    ENV_FIELD_PATHS.contains(&base)
                };
                if !ok {
                    errs.push(FieldError::not_supported(
                        &fp.child("fieldPath"),
                        &f.field_path,
                        ENV_FIELD_PATHS,
                    ));
                }
            }
        }
    }
    errs
}

/// Upstream's count of the members set in a one-of union (a volume's source, a probe's
/// handler): `Required` when none is, `Forbidden` on each one after the first.
fn exactly_one<const N: usize>(
    members: [(&str, bool); N],
    path: &Path,
    what: &str,
) -> Vec<FieldError> {
    let set: Vec<&str> = members
        .into_iter()
        .filter_map(|(n, set)| set.then_some(n))
        .collect();
    match set.as_slice() {
        [] => vec![FieldError::required(
            path,
            &format!("must specify a {what}"),
        )],
        [_, rest @ ..] => rest
            .iter()
            .map(|extra| {
                FieldError::forbidden(
                    &path.child(extra),
                    &format!("may not specify more than 1 {what}"),
                )
            })
            .collect(),
    }
}

fn validate_probe(probe: &Probe, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let handlers = [
        ("exec", probe.exec.is_some()),
        ("httpGet", probe.http_get.is_some()),
        ("tcpSocket", probe.tcp_socket.is_some()),
        ("grpc", probe.grpc.is_some()),
    ];
    errs.extend(exactly_one(handlers, path, "handler type"));
    if let Some(exec) = &probe.exec {
        if exec.command.as_ref().is_none_or(|c| c.is_empty()) {
            errs.push(FieldError::required(
                &path.child("exec").child("command"),
                "",
            ));
        }
    }
    if let Some(h) = &probe.http_get {
        let hp = path.child("httpGet");
        if h.path.as_deref().unwrap_or("").is_empty() {
            errs.push(FieldError::required(&hp.child("path"), ""));
        }
        errs.extend(validate_port_num_or_name(&h.port, &hp.child("port")));
        match h.scheme.as_deref().unwrap_or("") {
            "HTTP" | "HTTPS" => {}
            s => errs.push(FieldError::not_supported(
                &hp.child("scheme"),
                s,
                &["HTTP", "HTTPS"],
            )),
        }
    }
    if let Some(t) = &probe.tcp_socket {
        errs.extend(validate_port_num_or_name(
            &t.port,
            &path.child("tcpSocket").child("port"),
        ));
    }
    errs.extend(validate_nonnegative_fields(
        path,
        &[
            ("initialDelaySeconds", probe.initial_delay_seconds),
            ("timeoutSeconds", probe.timeout_seconds),
            ("periodSeconds", probe.period_seconds),
            ("successThreshold", probe.success_threshold),
            ("failureThreshold", probe.failure_threshold),
        ],
    ));
    if let Some(t) = probe.termination_grace_period_seconds.filter(|t| *t <= 0) {
        errs.push(FieldError::invalid(
            &path.child("terminationGracePeriodSeconds"),
            t,
            "must be greater than 0",
        ));
    }
    errs
}

fn success_threshold_is_one(probe: &Probe, path: &Path) -> Vec<FieldError> {
    match probe.success_threshold {
        Some(v) if v != 1 => vec![FieldError::invalid(
            &path.child("successThreshold"),
            v,
            "must be 1",
        )],
        _ => Vec::new(),
    }
}

fn validate_port_num_or_name(port: &IntOrString, path: &Path) -> Vec<FieldError> {
    match port {
        IntOrString::Int(n) => is_valid_port_num(i64::from(*n))
            .into_iter()
            .map(|msg| FieldError::invalid(path, *n, &msg))
            .collect(),
        IntOrString::String(s) => is_valid_port_name(s)
            .into_iter()
            .map(|msg| FieldError::invalid(path, s, &msg))
            .collect(),
    }
}

/// Requests ≤ limits (`ValidateResourceRequirements`), compared by value as `Quantity.Cmp`
/// does. Quantity syntax is not checked here: upstream's decoder refuses text that is no
/// quantity before validation runs, and so does ours (`de.rs`).
fn validate_resources(r: &ResourceRequirements, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let (Some(limits), Some(requests)) = (&r.limits, &r.requests) else {
        return errs;
    };
    let parse = |q: &Quantity| k8s_base::Quantity::parse_trimmed(&q.0).ok();
    for (name, req) in requests {
        let Some(limit) = limits.get(name) else {
            continue;
        };
        if let (Some(rq), Some(lq)) = (parse(req), parse(limit)) {
            if rq > lq {
                errs.push(FieldError::invalid(
                    &path.child("requests").key(name),
                    &req.0,
                    &format!("must be less than or equal to {name} limit of {}", limit.0),
                ));
            }
        }
    }
    errs
}

/// `ValidateTolerations`.
pub(crate) fn validate_tolerations(tolerations: &[Toleration], path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (i, t) in tolerations.iter().enumerate() {
        let p = path.index(i);
        let key = t.key.as_deref().unwrap_or("");
        let op = t.operator.as_deref().unwrap_or("");
        let value = t.value.as_deref().unwrap_or("");
        let effect = t.effect.as_deref().unwrap_or("");
        if !key.is_empty() {
            errs.extend(validate_label_name(key, &p.child("key")));
        }
        if key.is_empty() && op != "Exists" {
            errs.push(
                FieldError::invalid(
                    &p.child("operator"),
                    op,
                    "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
                )
                .with_hint("to tolerate every taint write `- operator: Exists`; otherwise give the toleration a key"),
            );
        }
        if t.toleration_seconds.is_some() && effect != "NoExecute" {
            errs.push(
                FieldError::invalid(
                    &p.child("effect"),
                    effect,
                    "effect must be 'NoExecute' when `tolerationSeconds` is set",
                )
                .with_hint("tolerationSeconds only limits how long a pod stays on a node with a NoExecute taint"),
            );
        }
        match op {
            "" | "Equal" => {
                let msgs = is_valid_label_value(value);
                if !msgs.is_empty() {
                    errs.push(FieldError::invalid(
                        &p.child("operator"),
                        value,
                        &msgs.join(";"),
                    ));
                }
            }
            "Exists" => {
                if !value.is_empty() {
                    errs.push(
                        FieldError::invalid(
                            &p.child("operator"),
                            Raw(go_toleration(t)),
                            "value must be empty when `operator` is 'Exists'",
                        )
                        .with_hint("`operator: Exists` matches any value: drop `value`, or use `operator: Equal`"),
                    );
                }
            }
            other => errs.push(FieldError::not_supported(
                &p.child("operator"),
                other,
                &["Equal", "Exists"],
            )),
        }
        errs.extend(validate_taint_effect(effect, true, &p.child("effect")));
    }
    errs
}

/// `validateTaintEffect`: one of the three effects; empty only where `allow_empty` (a
/// toleration may match every effect, a taint must have one).
pub(crate) fn validate_taint_effect(
    effect: &str,
    allow_empty: bool,
    path: &Path,
) -> Option<FieldError> {
    const EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];
    if effect.is_empty() {
        return (!allow_empty).then(|| FieldError::required(path, ""));
    }
    (!EFFECTS.contains(&effect)).then(|| FieldError::not_supported(path, effect, &EFFECTS))
}

fn go_toleration(t: &Toleration) -> String {
    format!(
        "core.Toleration{{Key:{}, Operator:{}, Value:{}, Effect:{}, TolerationSeconds:{}}}",
        quote(t.key.as_deref().unwrap_or("")),
        quote(t.operator.as_deref().unwrap_or("")),
        quote(t.value.as_deref().unwrap_or("")),
        quote(t.effect.as_deref().unwrap_or("")),
        gofmt::pointer("int64", t.toleration_seconds.is_some())
    )
}

fn validate_affinity(a: &Affinity, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let Some(na) = &a.node_affinity else {
        return errs;
    };
    let np = path.child("nodeAffinity");
    if let Some(required) = &na.required_during_scheduling_ignored_during_execution {
        let tp = np
            .child("requiredDuringSchedulingIgnoredDuringExecution")
            .child("nodeSelectorTerms");
        if required.node_selector_terms.is_empty() {
            errs.push(FieldError::required(
                &tp,
                "must have at least one node selector term",
            ));
        }
        for (i, term) in required.node_selector_terms.iter().enumerate() {
            errs.extend(validate_node_selector_term(term, false, &tp.index(i)));
        }
    }
    for (i, pref) in na
        .preferred_during_scheduling_ignored_during_execution
        .iter()
        .flatten()
        .enumerate()
    {
        let pp = np
            .child("preferredDuringSchedulingIgnoredDuringExecution")
            .index(i);
        if !(1..=100).contains(&pref.weight) {
            errs.push(FieldError::invalid(
                &pp.child("weight"),
                pref.weight,
                "must be in the range 1-100",
            ));
        }
        errs.extend(validate_node_selector_term(
            &pref.preference,
            true,
            &pp.child("preference"),
        ));
    }
    errs
}

fn validate_node_selector_term(
    term: &NodeSelectorTerm,
    allow_invalid_values: bool,
    path: &Path,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (j, req) in term.match_expressions.iter().flatten().enumerate() {
        errs.extend(validate_node_selector_requirement(
            req,
            allow_invalid_values,
            &path.child("matchExpressions").index(j),
        ));
    }
    for (j, req) in term.match_fields.iter().flatten().enumerate() {
        errs.extend(validate_node_field_selector_requirement(
            req,
            &path.child("matchFields").index(j),
        ));
    }
    errs
}

/// `ValidateNodeSelectorRequirement`. Upstream checks the *number* of values for Gt/Lt; that
/// the value is an integer is only discovered when the scheduler evaluates it.
pub(crate) fn validate_node_selector_requirement(
    req: &NodeSelectorRequirement,
    allow_invalid_values: bool,
    path: &Path,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let values = req.values.as_deref().unwrap_or_default();
    match req.operator.as_str() {
        "In" | "NotIn" => {
            if values.is_empty() {
                errs.push(FieldError::required(
                    &path.child("values"),
                    "must be specified when `operator` is 'In' or 'NotIn'",
                ));
            }
        }
        "Exists" | "DoesNotExist" => {
            if !values.is_empty() {
                errs.push(FieldError::forbidden(
                    &path.child("values"),
                    "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                ));
            }
        }
        "Gt" | "Lt" => {
            if values.len() != 1 {
                errs.push(FieldError::required(
                    &path.child("values"),
                    "must be specified single value when `operator` is 'Lt' or 'Gt'",
                ));
            }
        }
        op => errs.push(
            FieldError::invalid(&path.child("operator"), op, "not a valid selector operator")
                .with_hint(
                    "node selector operators are In, NotIn, Exists, DoesNotExist, Gt and Lt",
                ),
        ),
    }
    errs.extend(validate_label_name(&req.key, &path.child("key")));
    if !allow_invalid_values {
        for (i, v) in values.iter().enumerate() {
            for msg in is_valid_label_value(v) {
                errs.push(FieldError::invalid(&path.child("values").index(i), v, &msg));
            }
        }
    }
    errs
}

fn validate_node_field_selector_requirement(
    req: &NodeSelectorRequirement,
    path: &Path,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let values = req.values.as_deref().unwrap_or_default();
    match req.operator.as_str() {
        "In" | "NotIn" => {
            if values.len() != 1 {
                errs.push(FieldError::required(
                    &path.child("values"),
                    "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
                ));
            }
        }
        op => errs.push(FieldError::invalid(
            &path.child("operator"),
            op,
            "not a valid selector operator",
        )),
    }
    if req.key != "metadata.name" {
        errs.push(FieldError::invalid(
            &path.child("key"),
            &req.key,
            "not a valid field selector key",
        ));
    } else {
        for (i, v) in values.iter().enumerate() {
            for msg in is_dns1123_subdomain(v) {
                errs.push(FieldError::invalid(&path.child("values").index(i), v, &msg));
            }
        }
    }
    errs
}
