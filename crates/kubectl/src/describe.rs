//! `kubectl describe ds|pod|node` (`pkg/describe/describe.go`): a faithful subset, laid out by
//! the same tab-aligned prefix writer (R-KC-9 for DaemonSets).

use std::collections::BTreeMap;

use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::{
    Container, ContainerState, ContainerStatus, Event, Node, Pod, PodTemplateSpec, Probe, Taint,
    Toleration, Volume,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::jiff::Timestamp;

use crate::api::{Api, ApiError};
use crate::object::{self, Object};
use crate::parse::Command;
use crate::resource::{self, Resource};
use crate::select::LabelSelector;
use crate::table::{age_ts, TabWriter};
use crate::{CommandResult, Fail};

const L1: &str = "  ";
const L2: &str = "    ";
const L3: &str = "      ";

pub(crate) fn describe(api: &dyn Api, cmd: &Command) -> Result<CommandResult, Fail> {
    let targets = resource::targets(&cmd.args)?;
    if targets.types.is_empty() && targets.named.is_empty() {
        return Err(Fail::new("error: You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.")
            .hint("e.g. `kubectl describe ds NAME`, `kubectl describe node worker`"));
    }
    let ns = cmd.namespace();
    let all_ns = cmd.is_set("all-namespaces");
    let labels = LabelSelector::parse(cmd.flag("selector").unwrap_or(""))
        .map_err(|e| Fail::new(format!("error: {e}")))?;
    let mut objects = Vec::new();
    let mut res = CommandResult::default();
    for r in &targets.types {
        objects.extend(
            object::list(api, *r)
                .into_iter()
                .filter(|o| all_ns || !r.namespaced() || o.namespace() == ns)
                .filter(|o| labels.matches(o.labels())),
        );
    }
    for (r, name) in &targets.named {
        // describe matches names by prefix when there is no exact match.
        let all: Vec<Object> = object::list(api, *r)
            .into_iter()
            .filter(|o| !r.namespaced() || o.namespace() == ns)
            .collect();
        match all.iter().find(|o| o.name() == name) {
            Some(o) => objects.push(o.clone()),
            None => {
                let prefixed: Vec<Object> = all
                    .into_iter()
                    .filter(|o| o.name().starts_with(name.as_str()))
                    .collect();
                if prefixed.is_empty() {
                    res.fail(ApiError::not_found(r.plural(), name).into());
                }
                objects.extend(prefixed);
            }
        }
    }
    let now = api.now();
    let events = api.events();
    let texts: Vec<String> = objects
        .iter()
        .map(|o| match o {
            Object::DaemonSet(d) => daemon_set(api, d, &events, now),
            Object::Pod(p) => pod(p, &events, now),
            Object::Node(n) => node(api, n, &events, now),
            other => generic(other, &events, now),
        })
        .collect();
    res.stdout = texts.join("\n\n");
    if objects.is_empty() && res.stderr.is_empty() {
        res.stderr = if all_ns || !targets.types.iter().any(|r| r.namespaced()) {
            "No resources found\n".into()
        } else {
            format!("No resources found in {ns} namespace.\n")
        };
    }
    Ok(res)
}

fn labels_multiline(w: &mut String, title: &str, labels: Option<&BTreeMap<String, String>>) {
    w.push_str(&format!("{title}:\t"));
    match labels {
        Some(l) if !l.is_empty() => {
            for (i, (k, v)) in l.iter().enumerate() {
                if i > 0 {
                    w.push('\t');
                }
                w.push_str(&format!("{k}={v}\n"));
            }
        }
        _ => w.push_str("<none>\n"),
    }
}

fn annotations_multiline(w: &mut String, title: &str, ann: Option<&BTreeMap<String, String>>) {
    w.push_str(&format!("{title}:\t"));
    let items: Vec<(&String, &String)> = ann
        .into_iter()
        .flatten()
        .filter(|(k, _)| k.as_str() != "kubectl.kubernetes.io/last-applied-configuration")
        .collect();
    if items.is_empty() {
        w.push_str("<none>\n");
        return;
    }
    for (i, (k, v)) in items.iter().enumerate() {
        if i > 0 {
            w.push('\t');
        }
        let line = format!("{k}: {v}");
        if line.chars().count() > 140 {
            let cut: String = line.chars().take(140).collect();
            w.push_str(&format!("{cut}...\n"));
        } else {
            w.push_str(&format!("{line}\n"));
        }
    }
}

fn tolerations_multiline(w: &mut String, title: &str, tolerations: &[Toleration]) {
    w.push_str(&format!("{title}:\t"));
    if tolerations.is_empty() {
        w.push_str("<none>\n");
        return;
    }
    for (i, t) in tolerations.iter().enumerate() {
        if i > 0 {
            w.push('\t');
        }
        let key = t.key.as_deref().unwrap_or("");
        let value = t.value.as_deref().unwrap_or("");
        let effect = t.effect.as_deref().unwrap_or("");
        w.push_str(key);
        if !value.is_empty() {
            w.push_str(&format!("={value}"));
        }
        if !effect.is_empty() {
            w.push_str(&format!(":{effect}"));
        }
        if t.operator.as_deref() == Some("Exists") && value.is_empty() {
            if !key.is_empty() || !effect.is_empty() {
                w.push_str(" op=Exists");
            } else {
                w.push_str("op=Exists");
            }
        }
        if let Some(s) = t.toleration_seconds {
            w.push_str(&format!(" for {s}s"));
        }
        w.push('\n');
    }
}

fn taints_multiline(w: &mut String, title: &str, taints: &[Taint]) {
    w.push_str(&format!("{title}:\t"));
    if taints.is_empty() {
        w.push_str("<none>\n");
        return;
    }
    let mut sorted: Vec<&Taint> = taints.iter().collect();
    sort::sort_by(&mut sorted, |a, b| {
        (&a.effect, &a.key).cmp(&(&b.effect, &b.key))
    });
    for (i, t) in sorted.iter().enumerate() {
        if i > 0 {
            w.push('\t');
        }
        w.push_str(&controller::predicates::describe_taint(t));
        w.push('\n');
    }
}

/// `DescribePodTemplate`, written with raw tabs as `rollout history --revision` prints it.
pub(crate) fn pod_template(t: &PodTemplateSpec) -> String {
    let mut w = String::new();
    write_pod_template(&mut w, t);
    w
}

fn write_pod_template(w: &mut String, t: &PodTemplateSpec) {
    w.push_str("Pod Template:\n");
    let meta = t.metadata.clone().unwrap_or_default();
    let spec = t.spec.clone().unwrap_or_default();
    labels_multiline(w, "  Labels", meta.labels.as_ref());
    if meta.annotations.as_ref().is_some_and(|a| !a.is_empty()) {
        annotations_multiline(w, "  Annotations", meta.annotations.as_ref());
    }
    if let Some(sa) = spec
        .service_account_name
        .as_deref()
        .filter(|s| !s.is_empty())
    {
        w.push_str(&format!("{L1}Service Account:\t{sa}\n"));
    }
    if let Some(init) = spec.init_containers.as_ref().filter(|c| !c.is_empty()) {
        containers(w, "Init Containers", init, &[], "  ");
    }
    containers(w, "Containers", &spec.containers, &[], "  ");
    volumes(w, spec.volumes.as_deref().unwrap_or(&[]), "  ");
    if let Some(p) = spec
        .priority_class_name
        .as_deref()
        .filter(|s| !s.is_empty())
    {
        w.push_str(&format!("{L1}Priority Class Name:\t{p}\n"));
    }
    labels_multiline(w, "  Node-Selectors", spec.node_selector.as_ref());
    tolerations_multiline(
        w,
        "  Tolerations",
        spec.tolerations.as_deref().unwrap_or(&[]),
    );
}

fn containers(
    w: &mut String,
    label: &str,
    cs: &[Container],
    statuses: &[ContainerStatus],
    space: &str,
) {
    w.push_str(&format!("{space}{label}:"));
    if cs.is_empty() {
        w.push_str(" <none>");
    }
    w.push('\n');
    let name_indent = if space.is_empty() { "" } else { " " };
    for c in cs {
        let status = statuses.iter().find(|s| s.name == c.name);
        w.push_str(&format!("{L1}{name_indent}{}:\n", c.name));
        if let Some(s) = status {
            w.push_str(&format!(
                "{L2}Container ID:\t{}\n",
                s.container_id.as_deref().unwrap_or("")
            ));
        }
        w.push_str(&format!(
            "{L2}Image:\t{}\n",
            c.image.as_deref().unwrap_or("")
        ));
        if let Some(s) = status {
            w.push_str(&format!("{L2}Image ID:\t{}\n", s.image_id));
        }
        let ports: Vec<String> = c
            .ports
            .iter()
            .flatten()
            .map(|p| {
                format!(
                    "{}/{}",
                    p.container_port,
                    p.protocol.as_deref().unwrap_or("TCP")
                )
            })
            .collect();
        let host_ports: Vec<String> = c
            .ports
            .iter()
            .flatten()
            .map(|p| {
                format!(
                    "{}/{}",
                    p.host_port.unwrap_or(0),
                    p.protocol.as_deref().unwrap_or("TCP")
                )
            })
            .collect();
        let or_none = |v: &[String]| {
            if v.is_empty() {
                "<none>".to_string()
            } else {
                v.join(", ")
            }
        };
        if ports.len() > 1 {
            w.push_str(&format!("{L2}Ports:\t{}\n", ports.join(", ")));
        } else {
            w.push_str(&format!("{L2}Port:\t{}\n", or_none(&ports)));
        }
        if host_ports.len() > 1 {
            w.push_str(&format!("{L2}Host Ports:\t{}\n", host_ports.join(", ")));
        } else {
            w.push_str(&format!("{L2}Host Port:\t{}\n", or_none(&host_ports)));
        }
        if let Some(cmd) = c.command.as_ref().filter(|c| !c.is_empty()) {
            w.push_str(&format!("{L2}Command:\n"));
            for part in cmd {
                for line in part.split('\n') {
                    w.push_str(&format!("{L3}{line}\n"));
                }
            }
        }
        if let Some(args) = c.args.as_ref().filter(|c| !c.is_empty()) {
            w.push_str(&format!("{L2}Args:\n"));
            for part in args {
                for line in part.split('\n') {
                    w.push_str(&format!("{L3}{line}\n"));
                }
            }
        }
        if let Some(s) = status {
            container_state(w, "State", s.state.as_ref());
            if let Some(last) = s.last_state.as_ref().filter(|l| l.terminated.is_some()) {
                container_state(w, "Last State", Some(last));
            }
            w.push_str(&format!(
                "{L2}Ready:\t{}\n",
                if s.ready { "True" } else { "False" }
            ));
            w.push_str(&format!("{L2}Restart Count:\t{}\n", s.restart_count));
        }
        if let Some(r) = &c.resources {
            for (title, list) in [("Limits", &r.limits), ("Requests", &r.requests)] {
                if let Some(l) = list.as_ref().filter(|l| !l.is_empty()) {
                    w.push_str(&format!("{L2}{title}:\n"));
                    for (k, v) in l {
                        w.push_str(&format!("{L3}{k}:\t{}\n", v.0));
                    }
                }
            }
        }
        for (title, probe) in [
            ("Liveness", &c.liveness_probe),
            ("Readiness", &c.readiness_probe),
            ("Startup", &c.startup_probe),
        ] {
            if let Some(p) = probe {
                w.push_str(&format!("{L2}{title}:\t{}\n", describe_probe(p)));
            }
        }
        let env = c.env.as_deref().unwrap_or(&[]);
        if env.is_empty() {
            w.push_str(&format!("{L2}Environment:\t<none>\n"));
        } else {
            w.push_str(&format!("{L2}Environment:\n"));
        }
        for e in env {
            match &e.value_from {
                None => {
                    for (i, line) in e.value.as_deref().unwrap_or("").split('\n').enumerate() {
                        if i == 0 {
                            w.push_str(&format!("{L3}{}:\t{line}\n", e.name));
                        } else {
                            w.push_str(&format!("{L3}\t{line}\n"));
                        }
                    }
                }
                Some(from) => {
                    if let Some(f) = &from.field_ref {
                        w.push_str(&format!(
                            "{L3}{}:\t ({}:{})\n",
                            e.name,
                            f.api_version.as_deref().unwrap_or("v1"),
                            f.field_path
                        ));
                    } else if let Some(r) = &from.resource_field_ref {
                        w.push_str(&format!(
                            "{L3}{}:\t{} ({})\n",
                            e.name,
                            r.resource,
                            r.container_name.as_deref().unwrap_or("")
                        ));
                    } else if let Some(s) = &from.secret_key_ref {
                        w.push_str(&format!(
                            "{L3}{}:\t<set to the key '{}' in secret '{}'>\tOptional: {}\n",
                            e.name,
                            s.key,
                            s.name,
                            s.optional.unwrap_or(false)
                        ));
                    } else if let Some(s) = &from.config_map_key_ref {
                        w.push_str(&format!(
                            "{L3}{}:\t<set to the key '{}' of config map '{}'>\tOptional: {}\n",
                            e.name,
                            s.key,
                            s.name,
                            s.optional.unwrap_or(false)
                        ));
                    }
                }
            }
        }
        let mut mounts = c.volume_mounts.clone().unwrap_or_default();
        if mounts.is_empty() {
            w.push_str(&format!("{L2}Mounts:\t<none>\n"));
        } else {
            w.push_str(&format!("{L2}Mounts:\n"));
        }
        sort::sort_by(&mut mounts, |a, b| a.mount_path.cmp(&b.mount_path));
        for m in mounts {
            let mut flags = vec![if m.read_only == Some(true) {
                "ro".to_string()
            } else {
                "rw".to_string()
            }];
            if let Some(sp) = m.sub_path.as_deref().filter(|s| !s.is_empty()) {
                flags.push(format!("path={sp:?}"));
            }
            w.push_str(&format!(
                "{L3}{} from {} ({})\n",
                m.mount_path,
                m.name,
                flags.join(",")
            ));
        }
    }
}

fn container_state(w: &mut String, name: &str, state: Option<&ContainerState>) {
    let state = state.cloned().unwrap_or_default();
    if let Some(r) = &state.running {
        w.push_str(&format!("{L2}{name}:\tRunning\n"));
        w.push_str(&format!(
            "{L3}Started:\t{}\n",
            r.started_at
                .as_ref()
                .map(|t| codec::format_rfc1123z(t.0))
                .unwrap_or_default()
        ));
    } else if let Some(t) = &state.terminated {
        w.push_str(&format!("{L2}{name}:\tTerminated\n"));
        if let Some(r) = t.reason.as_deref().filter(|r| !r.is_empty()) {
            w.push_str(&format!("{L3}Reason:\t{r}\n"));
        }
        if let Some(m) = t.message.as_deref().filter(|r| !r.is_empty()) {
            w.push_str(&format!("{L3}Message:\t{m}\n"));
        }
        w.push_str(&format!("{L3}Exit Code:\t{}\n", t.exit_code));
        if let Some(s) = t.signal.filter(|s| *s > 0) {
            w.push_str(&format!("{L3}Signal:\t{s}\n"));
        }
        let time = |x: &Option<k8s_openapi::apimachinery::pkg::apis::meta::v1::Time>| {
            x.as_ref()
                .map(|t| codec::format_rfc1123z(t.0))
                .unwrap_or_else(|| "Mon, 01 Jan 0001 00:00:00 +0000".into())
        };
        w.push_str(&format!("{L3}Started:\t{}\n", time(&t.started_at)));
        w.push_str(&format!("{L3}Finished:\t{}\n", time(&t.finished_at)));
    } else {
        w.push_str(&format!("{L2}{name}:\tWaiting\n"));
        if let Some(r) = state
            .waiting
            .as_ref()
            .and_then(|w| w.reason.as_deref())
            .filter(|r| !r.is_empty())
        {
            w.push_str(&format!("{L3}Reason:\t{r}\n"));
        }
    }
}

fn describe_probe(p: &Probe) -> String {
    let attrs = format!(
        "delay={}s timeout={}s period={}s #success={} #failure={}",
        p.initial_delay_seconds.unwrap_or(0),
        p.timeout_seconds.unwrap_or(1),
        p.period_seconds.unwrap_or(10),
        p.success_threshold.unwrap_or(1),
        p.failure_threshold.unwrap_or(3)
    );
    let port = |p: &k8s_openapi::apimachinery::pkg::util::intstr::IntOrString| match p {
        k8s_openapi::apimachinery::pkg::util::intstr::IntOrString::Int(i) => i.to_string(),
        k8s_openapi::apimachinery::pkg::util::intstr::IntOrString::String(s) => s.clone(),
    };
    if let Some(e) = &p.exec {
        return format!(
            "exec [{}] {attrs}",
            e.command.clone().unwrap_or_default().join(" ")
        );
    }
    if let Some(h) = &p.http_get {
        let scheme = apiserver::gofmt::to_lower(h.scheme.as_deref().unwrap_or("HTTP"));
        let host = h.host.as_deref().unwrap_or("");
        return format!(
            "http-get {scheme}://{host}:{}{} {attrs}",
            port(&h.port),
            h.path.as_deref().unwrap_or("")
        );
    }
    if let Some(t) = &p.tcp_socket {
        return format!(
            "tcp-socket {}:{} {attrs}",
            t.host.as_deref().unwrap_or(""),
            port(&t.port)
        );
    }
    if let Some(g) = &p.grpc {
        return format!(
            "grpc <pod>:{} {} {attrs}",
            g.port,
            g.service.as_deref().unwrap_or("")
        );
    }
    format!("unknown {attrs}")
}

fn volumes(w: &mut String, vols: &[Volume], space: &str) {
    if vols.is_empty() {
        w.push_str(&format!("{space}Volumes:\t<none>\n"));
        return;
    }
    w.push_str(&format!("{space}Volumes:\n"));
    let name_indent = if space.is_empty() { "" } else { " " };
    for v in vols {
        w.push_str(&format!("{L1}{name_indent}{}:\n", v.name));
        if let Some(h) = &v.host_path {
            w.push_str(&format!(
                "{L2}Type:\tHostPath (bare host directory volume)\n{L2}Path:\t{}\n{L2}HostPathType:\t{}\n",
                h.path,
                h.type_.as_deref().unwrap_or("")
            ));
        } else if let Some(e) = &v.empty_dir {
            w.push_str(&format!(
                "{L2}Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n{L2}Medium:\t{}\n{L2}SizeLimit:\t{}\n",
                e.medium.as_deref().unwrap_or(""),
                e.size_limit.as_ref().map(|q| q.0.clone()).unwrap_or_else(|| "<unset>".into())
            ));
        } else if let Some(c) = &v.config_map {
            w.push_str(&format!(
                "{L2}Type:\tConfigMap (a volume populated by a ConfigMap)\n{L2}Name:\t{}\n{L2}Optional:\t{}\n",
                c.name,
                c.optional.unwrap_or(false)
            ));
        } else if let Some(s) = &v.secret {
            w.push_str(&format!(
                "{L2}Type:\tSecret (a volume populated by a Secret)\n{L2}SecretName:\t{}\n{L2}Optional:\t{}\n",
                s.secret_name.as_deref().unwrap_or(""),
                s.optional.unwrap_or(false)
            ));
        } else if let Some(p) = &v.projected {
            w.push_str(&format!("{L2}Type:\tProjected (a volume that contains injected data from multiple sources)\n"));
            projected_sources(w, p.sources.as_deref().unwrap_or_default());
        } else {
            w.push_str(&format!("{L1}<unknown>\n"));
        }
    }
}

/// `printProjectedVolumeSource`: a line or two per source; an unset `optional` prints as Go
/// prints a nil *bool.
fn projected_sources(w: &mut String, sources: &[k8s_openapi::api::core::v1::VolumeProjection]) {
    let optional = |o: Option<bool>| o.map_or_else(|| "<nil>".to_string(), |b| b.to_string());
    for src in sources {
        if let Some(s) = &src.secret {
            w.push_str(&format!(
                "{L2}SecretName:\t{}\n{L2}SecretOptionalName:\t{}\n",
                s.name,
                optional(s.optional)
            ));
        } else if src.downward_api.is_some() {
            w.push_str(&format!("{L2}DownwardAPI:\ttrue\n"));
        } else if let Some(c) = &src.config_map {
            w.push_str(&format!(
                "{L2}ConfigMapName:\t{}\n{L2}ConfigMapOptional:\t{}\n",
                c.name,
                optional(c.optional)
            ));
        } else if let Some(t) = &src.service_account_token {
            w.push_str(&format!(
                "{L2}TokenExpirationSeconds:\t{}\n",
                t.expiration_seconds.unwrap_or_default()
            ));
        }
    }
}

/// Events about an object, oldest first (`DescribeEvents`).
fn events_for<'a>(
    events: &'a [Event],
    kind: &str,
    ns: &str,
    name: &str,
    uid: Option<&str>,
) -> Vec<&'a Event> {
    let mut v: Vec<&Event> = events
        .iter()
        .filter(|e| {
            let io = &e.involved_object;
            io.kind.as_deref() == Some(kind)
                && io.name.as_deref() == Some(name)
                && io.namespace.as_deref().unwrap_or("") == ns
                && (uid.is_none() || io.uid.is_none() || io.uid.as_deref() == uid)
        })
        .collect();
    sort::sort_by_key(&mut v, |e| {
        e.last_timestamp
            .as_ref()
            .map(|t| t.0)
            .or(e.event_time.as_ref().map(|t| t.0))
            .unwrap_or(Timestamp::UNIX_EPOCH)
    });
    v
}

fn write_events(w: &mut TabWriter, events: &[&Event], now: Timestamp) {
    if events.is_empty() {
        w.write("Events:\t<none>\n");
        return;
    }
    w.flush();
    w.write("Events:\n  Type\tReason\tAge\tFrom\tMessage\n");
    w.write(&format!("{L1}----\t------\t----\t----\t-------\n"));
    for e in events {
        let first = match (&e.event_time, &e.first_timestamp) {
            (Some(t), _) => age_ts(t.0, now),
            (None, Some(t)) => age_ts(t.0, now),
            (None, None) => "<unknown>".into(),
        };
        let interval = if let Some(s) = &e.series {
            format!(
                "{} (x{} over {first})",
                s.last_observed_time
                    .as_ref()
                    .map(|t| age_ts(t.0, now))
                    .unwrap_or_default(),
                s.count.unwrap_or(0)
            )
        } else if e.count.unwrap_or(0) > 1 {
            format!(
                "{} (x{} over {first})",
                e.last_timestamp
                    .as_ref()
                    .map(|t| age_ts(t.0, now))
                    .unwrap_or_default(),
                e.count.unwrap_or(0)
            )
        } else {
            first
        };
        let source = e
            .source
            .as_ref()
            .and_then(|s| s.component.clone())
            .filter(|c| !c.is_empty())
            .or_else(|| e.reporting_component.clone())
            .unwrap_or_default();
        // Events about one container of a pod (the kubelet's) name it first.
        let message = e.message.as_deref().unwrap_or("").trim();
        let message = match e.involved_object.field_path.as_deref() {
            Some(path) if !path.is_empty() => format!("{path}: {message}"),
            _ => message.to_string(),
        };
        w.write(&format!(
            "{L1}{}\t{}\t{interval}\t{source}\t{message}\n",
            e.type_.as_deref().unwrap_or(""),
            e.reason.as_deref().unwrap_or(""),
        ));
    }
}

fn daemon_set(api: &dyn Api, d: &DaemonSet, events: &[Event], now: Timestamp) -> String {
    let spec = d.spec.clone();
    let st = d.status.clone().unwrap_or_default();
    let name = d.metadata.name.as_deref().unwrap_or("");
    let ns = d.metadata.namespace.as_deref().unwrap_or("");
    let mut s = String::new();
    s.push_str(&format!("Name:\t{name}\n"));
    s.push_str(&format!("Namespace:\t{ns}\n"));
    s.push_str(&format!("Selector:\t{}\n", selector_string(&spec.selector)));
    s.push_str(&format!(
        "Node-Selector:\t{}\n",
        object::format_labels(
            spec.template
                .spec
                .as_ref()
                .and_then(|p| p.node_selector.as_ref())
        )
    ));
    labels_multiline(&mut s, "Labels", d.metadata.labels.as_ref());
    annotations_multiline(&mut s, "Annotations", d.metadata.annotations.as_ref());
    s.push_str(&format!(
        "Desired Number of Nodes Scheduled: {}\n",
        st.desired_number_scheduled
    ));
    s.push_str(&format!(
        "Current Number of Nodes Scheduled: {}\n",
        st.current_number_scheduled
    ));
    s.push_str(&format!(
        "Number of Nodes Scheduled with Up-to-date Pods: {}\n",
        st.updated_number_scheduled.unwrap_or(0)
    ));
    s.push_str(&format!(
        "Number of Nodes Scheduled with Available Pods: {}\n",
        st.number_available.unwrap_or(0)
    ));
    s.push_str(&format!(
        "Number of Nodes Misscheduled: {}\n",
        st.number_misscheduled
    ));
    // Pods the DaemonSet controls, by phase.
    let uid = d.metadata.uid.as_deref();
    let sel = controller::selectors::Selector::from_label_selector(&spec.selector).ok();
    let (mut running, mut waiting, mut succeeded, mut failed) = (0, 0, 0, 0);
    for p in api.pods() {
        if p.metadata.namespace.as_deref().unwrap_or("") != ns {
            continue;
        }
        if !sel.is_some_and(|s| s.matches(p.metadata.labels.as_ref())) {
            continue;
        }
        let owned = p
            .metadata
            .owner_references
            .iter()
            .flatten()
            .any(|o| o.controller == Some(true) && Some(o.uid.as_str()) == uid);
        if !owned {
            continue;
        }
        match p
            .status
            .as_ref()
            .and_then(|s| s.phase.as_deref())
            .unwrap_or("Pending")
        {
            "Running" => running += 1,
            "Succeeded" => succeeded += 1,
            "Failed" => failed += 1,
            _ => waiting += 1,
        }
    }
    s.push_str(&format!(
        "Pods Status:\t{running} Running / {waiting} Waiting / {succeeded} Succeeded / {failed} Failed\n"
    ));
    write_pod_template(&mut s, &spec.template);
    let mut w = TabWriter::describe();
    w.write(&s);
    let evs = events_for(events, "DaemonSet", ns, name, uid);
    write_events(&mut w, &evs, now);
    w.finish()
}

/// `labels.Selector.String()` of a DS selector (`app=x,tier in (a,b)`).
fn selector_string(sel: &k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector) -> String {
    object::format_label_selector(sel)
}

fn pod(p: &Pod, events: &[Event], now: Timestamp) -> String {
    let spec = p.spec.clone().unwrap_or_default();
    let st = p.status.clone().unwrap_or_default();
    let name = p.metadata.name.as_deref().unwrap_or("");
    let ns = p.metadata.namespace.as_deref().unwrap_or("");
    let mut s = String::new();
    s.push_str(&format!("Name:\t{name}\n"));
    s.push_str(&format!("Namespace:\t{ns}\n"));
    if let Some(pr) = spec.priority {
        s.push_str(&format!("Priority:\t{pr}\n"));
    }
    if let Some(pc) = spec
        .priority_class_name
        .as_deref()
        .filter(|x| !x.is_empty())
    {
        s.push_str(&format!("Priority Class Name:\t{pc}\n"));
    }
    if let Some(sa) = spec
        .service_account_name
        .as_deref()
        .filter(|x| !x.is_empty())
    {
        s.push_str(&format!("Service Account:\t{sa}\n"));
    }
    match spec.node_name.as_deref().filter(|n| !n.is_empty()) {
        Some(n) => s.push_str(&format!(
            "Node:\t{n}/{}\n",
            st.host_ip.as_deref().unwrap_or("")
        )),
        None => s.push_str("Node:\t<none>\n"),
    }
    if let Some(t) = &st.start_time {
        s.push_str(&format!("Start Time:\t{}\n", codec::format_rfc1123z(t.0)));
    }
    labels_multiline(&mut s, "Labels", p.metadata.labels.as_ref());
    annotations_multiline(&mut s, "Annotations", p.metadata.annotations.as_ref());
    let phase = st.phase.clone().unwrap_or_default();
    match &p.metadata.deletion_timestamp {
        Some(t) if phase != "Failed" && phase != "Succeeded" => {
            s.push_str(&format!(
                "Status:\tTerminating (lasts {})\n",
                age_ts(now, t.0)
            ));
            s.push_str(&format!(
                "Termination Grace Period:\t{}s\n",
                p.metadata.deletion_grace_period_seconds.unwrap_or(0)
            ));
        }
        _ => s.push_str(&format!("Status:\t{phase}\n")),
    }
    if let Some(r) = st.reason.as_deref().filter(|x| !x.is_empty()) {
        s.push_str(&format!("Reason:\t{r}\n"));
    }
    if let Some(m) = st.message.as_deref().filter(|x| !x.is_empty()) {
        s.push_str(&format!("Message:\t{m}\n"));
    }
    s.push_str(&format!("IP:\t{}\n", st.pod_ip.as_deref().unwrap_or("")));
    let ips = st.pod_ips.clone().unwrap_or_default();
    if ips.is_empty() {
        s.push_str("IPs:\t<none>\n");
    } else {
        s.push_str("IPs:\n");
        for ip in ips {
            s.push_str(&format!("{L1}IP:\t{}\n", ip.ip));
        }
    }
    if let Some(o) = p
        .metadata
        .owner_references
        .iter()
        .flatten()
        .find(|o| o.controller == Some(true))
    {
        s.push_str(&format!("Controlled By:\t{}/{}\n", o.kind, o.name));
    }
    if let Some(n) = st.nominated_node_name.as_deref().filter(|x| !x.is_empty()) {
        s.push_str(&format!("NominatedNodeName:\t{n}\n"));
    }
    if let Some(init) = spec.init_containers.as_ref().filter(|c| !c.is_empty()) {
        containers(
            &mut s,
            "Init Containers",
            init,
            st.init_container_statuses.as_deref().unwrap_or(&[]),
            "",
        );
    }
    containers(
        &mut s,
        "Containers",
        &spec.containers,
        st.container_statuses.as_deref().unwrap_or(&[]),
        "",
    );
    if let Some(conds) = st.conditions.as_ref().filter(|c| !c.is_empty()) {
        s.push_str("Conditions:\n  Type\tStatus\n");
        for c in conds {
            s.push_str(&format!("{L1}{} \t{} \n", c.type_, c.status));
        }
    }
    volumes(&mut s, spec.volumes.as_deref().unwrap_or(&[]), "");
    let qos = st
        .qos_class
        .clone()
        .unwrap_or_else(|| qos_class(&spec.containers));
    s.push_str(&format!("QoS Class:\t{qos}\n"));
    labels_multiline(&mut s, "Node-Selectors", spec.node_selector.as_ref());
    tolerations_multiline(
        &mut s,
        "Tolerations",
        spec.tolerations.as_deref().unwrap_or(&[]),
    );
    let mut w = TabWriter::describe();
    w.write(&s);
    let evs = events_for(events, "Pod", ns, name, p.metadata.uid.as_deref());
    write_events(&mut w, &evs, now);
    w.finish()
}

fn qos_class(cs: &[Container]) -> String {
    let mut any = false;
    let mut guaranteed = true;
    for c in cs {
        let r = c.resources.clone().unwrap_or_default();
        let req = r.requests.unwrap_or_default();
        let lim = r.limits.unwrap_or_default();
        if !req.is_empty() || !lim.is_empty() {
            any = true;
        }
        for k in ["cpu", "memory"] {
            let l = lim.get(k);
            let q = req.get(k).or(l);
            if l.is_none() || q != l {
                guaranteed = false;
            }
        }
    }
    if !any {
        "BestEffort".into()
    } else if guaranteed {
        "Guaranteed".into()
    } else {
        "Burstable".into()
    }
}

/// CPU in millicores or memory in bytes.
fn quantity_value(q: &Quantity, cpu: bool) -> f64 {
    let s = q.0.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .unwrap_or(s.len());
    let (num, suffix) = s.split_at(split);
    let n: f64 = num.parse().unwrap_or(0.0);
    let mult = match suffix {
        "" => 1.0,
        "m" => 0.001,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "Ki" => 1024.0,
        "Mi" => 1024.0 * 1024.0,
        "Gi" => 1024.0 * 1024.0 * 1024.0,
        "Ti" => 1024.0f64.powi(4),
        _ => 1.0,
    };
    if cpu {
        n * mult * 1000.0
    } else {
        n * mult
    }
}

fn format_cpu(milli: f64) -> String {
    let m = milli.round() as i64;
    if m % 1000 == 0 {
        (m / 1000).to_string()
    } else {
        format!("{m}m")
    }
}

fn format_memory(bytes: f64) -> String {
    let b = bytes.round() as i64;
    if b == 0 {
        return "0".into();
    }
    for (suffix, div) in [("Gi", 1i64 << 30), ("Mi", 1 << 20), ("Ki", 1 << 10)] {
        if b % div == 0 {
            return format!("{}{suffix}", b / div);
        }
    }
    b.to_string()
}

fn node(api: &dyn Api, n: &Node, events: &[Event], now: Timestamp) -> String {
    let spec = n.spec.clone().unwrap_or_default();
    let st = n.status.clone().unwrap_or_default();
    let name = n.metadata.name.as_deref().unwrap_or("");
    let mut s = String::new();
    s.push_str(&format!("Name:\t{name}\n"));
    s.push_str(&format!("Roles:\t{}\n", crate::get::node_roles(n)));
    labels_multiline(&mut s, "Labels", n.metadata.labels.as_ref());
    annotations_multiline(&mut s, "Annotations", n.metadata.annotations.as_ref());
    s.push_str(&format!(
        "CreationTimestamp:\t{}\n",
        n.metadata
            .creation_timestamp
            .as_ref()
            .map(|t| codec::format_rfc1123z(t.0))
            .unwrap_or_default()
    ));
    taints_multiline(&mut s, "Taints", spec.taints.as_deref().unwrap_or(&[]));
    s.push_str(&format!(
        "Unschedulable:\t{}\n",
        spec.unschedulable.unwrap_or(false)
    ));
    if let Some(conds) = st.conditions.as_ref().filter(|c| !c.is_empty()) {
        s.push_str(
            "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n",
        );
        s.push_str(&format!(
            "{L1}----\t------\t-----------------\t------------------\t------\t-------\n"
        ));
        let t = |x: &Option<k8s_openapi::apimachinery::pkg::apis::meta::v1::Time>| {
            x.as_ref()
                .map(|t| codec::format_rfc1123z(t.0))
                .unwrap_or_else(|| "Mon, 01 Jan 0001 00:00:00 +0000".into())
        };
        for c in conds {
            s.push_str(&format!(
                "{L1}{} \t{} \t{} \t{} \t{} \t{}\n",
                c.type_,
                c.status,
                t(&c.last_heartbeat_time),
                t(&c.last_transition_time),
                c.reason.as_deref().unwrap_or(""),
                c.message.as_deref().unwrap_or("")
            ));
        }
    }
    s.push_str("Addresses:\n");
    for a in st.addresses.iter().flatten() {
        s.push_str(&format!("{L1}{}:\t{}\n", a.type_, a.address));
    }
    for (title, list) in [("Capacity", &st.capacity), ("Allocatable", &st.allocatable)] {
        if let Some(l) = list.as_ref().filter(|l| !l.is_empty()) {
            s.push_str(&format!("{title}:\n"));
            for (k, v) in l {
                s.push_str(&format!("{L1}{k}:\t{}\n", v.0));
            }
        }
    }
    let info = st.node_info.clone().unwrap_or_default();
    s.push_str("System Info:\n");
    for (k, v) in [
        ("Machine ID", &info.machine_id),
        ("System UUID", &info.system_uuid),
        ("Boot ID", &info.boot_id),
        ("Kernel Version", &info.kernel_version),
        ("OS Image", &info.os_image),
        ("Operating System", &info.operating_system),
        ("Architecture", &info.architecture),
        ("Container Runtime Version", &info.container_runtime_version),
        ("Kubelet Version", &info.kubelet_version),
    ] {
        s.push_str(&format!("{L1}{k}:\t{v}\n"));
    }
    if let Some(c) = spec.pod_cidr.as_deref().filter(|c| !c.is_empty()) {
        s.push_str(&format!("PodCIDR:\t{c}\n"));
    }
    if let Some(cs) = spec.pod_cidrs.as_ref().filter(|c| !c.is_empty()) {
        s.push_str(&format!("PodCIDRs:\t{}\n", cs.join(",")));
    }
    if let Some(p) = spec.provider_id.as_deref().filter(|c| !c.is_empty()) {
        s.push_str(&format!("ProviderID:\t{p}\n"));
    }
    // Non-terminated pods and their requests, as percentages of allocatable.
    let mut pods: Vec<Pod> = api
        .pods()
        .into_iter()
        .filter(|p| p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(name))
        .filter(|p| {
            !matches!(
                p.status.as_ref().and_then(|s| s.phase.as_deref()),
                Some("Succeeded") | Some("Failed")
            )
        })
        .collect();
    sort::sort_by(&mut pods, |a, b| {
        (&a.metadata.namespace, &a.metadata.name).cmp(&(&b.metadata.namespace, &b.metadata.name))
    });
    let alloc = st
        .allocatable
        .clone()
        .or(st.capacity.clone())
        .unwrap_or_default();
    let alloc_cpu = alloc
        .get("cpu")
        .map(|q| quantity_value(q, true))
        .unwrap_or(0.0);
    let alloc_mem = alloc
        .get("memory")
        .map(|q| quantity_value(q, false))
        .unwrap_or(0.0);
    let pct = |v: f64, total: f64| {
        if total > 0.0 {
            (v / total * 100.0) as i64
        } else {
            0
        }
    };
    s.push_str(&format!(
        "Non-terminated Pods:\t({} in total)\n",
        pods.len()
    ));
    s.push_str(&format!(
        "{L1}Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n"
    ));
    s.push_str(&format!(
        "{L1}---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n"
    ));
    let (mut tcr, mut tcl, mut tmr, mut tml) = (0.0, 0.0, 0.0, 0.0);
    for p in &pods {
        let (mut cr, mut cl, mut mr, mut ml) = (0.0, 0.0, 0.0, 0.0);
        for c in p
            .spec
            .as_ref()
            .map(|s| s.containers.as_slice())
            .unwrap_or(&[])
        {
            let r = c.resources.clone().unwrap_or_default();
            let req = r.requests.unwrap_or_default();
            let lim = r.limits.unwrap_or_default();
            cr += req
                .get("cpu")
                .or(lim.get("cpu"))
                .map(|q| quantity_value(q, true))
                .unwrap_or(0.0);
            mr += req
                .get("memory")
                .or(lim.get("memory"))
                .map(|q| quantity_value(q, false))
                .unwrap_or(0.0);
            cl += lim
                .get("cpu")
                .map(|q| quantity_value(q, true))
                .unwrap_or(0.0);
            ml += lim
                .get("memory")
                .map(|q| quantity_value(q, false))
                .unwrap_or(0.0);
        }
        tcr += cr;
        tcl += cl;
        tmr += mr;
        tml += ml;
        s.push_str(&format!(
            "{L1}{}\t{}\t\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{}\n",
            p.metadata.namespace.as_deref().unwrap_or(""),
            p.metadata.name.as_deref().unwrap_or(""),
            format_cpu(cr),
            pct(cr, alloc_cpu),
            format_cpu(cl),
            pct(cl, alloc_cpu),
            format_memory(mr),
            pct(mr, alloc_mem),
            format_memory(ml),
            pct(ml, alloc_mem),
            crate::table::age(p.metadata.creation_timestamp.as_ref(), now)
        ));
    }
    s.push_str(
        "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n",
    );
    s.push_str(&format!("{L1}Resource\tRequests\tLimits\n"));
    s.push_str(&format!("{L1}--------\t--------\t------\n"));
    s.push_str(&format!(
        "{L1}cpu\t{} ({}%)\t{} ({}%)\n",
        format_cpu(tcr),
        pct(tcr, alloc_cpu),
        format_cpu(tcl),
        pct(tcl, alloc_cpu)
    ));
    s.push_str(&format!(
        "{L1}memory\t{} ({}%)\t{} ({}%)\n",
        format_memory(tmr),
        pct(tmr, alloc_mem),
        format_memory(tml),
        pct(tml, alloc_mem)
    ));
    s.push_str(&format!("{L1}ephemeral-storage\t0 (0%)\t0 (0%)\n"));
    let mut w = TabWriter::describe();
    w.write(&s);
    let evs = events_for(events, "Node", "", name, None);
    write_events(&mut w, &evs, now);
    w.finish()
}

/// ControllerRevisions and Events: name, namespace, labels, annotations.
fn generic(o: &Object, _events: &[Event], _now: Timestamp) -> String {
    let mut s = String::new();
    s.push_str(&format!("Name:\t{}\n", o.name()));
    if o.resource() != Resource::Node {
        s.push_str(&format!("Namespace:\t{}\n", o.namespace()));
    }
    labels_multiline(&mut s, "Labels", o.labels());
    annotations_multiline(&mut s, "Annotations", o.meta().annotations.as_ref());
    let mut w = TabWriter::describe();
    w.write(&s);
    w.finish()
}
