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
use crate::table::{age_ts, TabWriter};
use crate::{CommandResult, Fail};
use k8s_base::Selector;

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
    let labels = Selector::parse(cmd.flag("selector").unwrap_or(""))
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

/// `printAnnotationsMultiline`: sorted keys; a value that is long (key and value over
/// `maxAnnotationLen`, 140 bytes) or spans lines goes under its key, a line at a time, each cut
/// at 138 bytes with `...`.
fn annotations_multiline(w: &mut String, title: &str, ann: Option<&BTreeMap<String, String>>) {
    const MAX_ANNOTATION_LEN: usize = 140;
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
        let value = v.strip_suffix('\n').unwrap_or(v);
        if value.len() + k.len() + 2 > MAX_ANNOTATION_LEN || value.contains('\n') {
            w.push_str(&format!("{k}:\n"));
            for line in value.split('\n') {
                w.push_str(&format!("\t  {}\n", shorten(line, MAX_ANNOTATION_LEN - 2)));
            }
        } else {
            w.push_str(&format!("{k}: {value}\n"));
        }
    }
}

/// `shorten`: the first `max` bytes and `...` (cut back to a character boundary, where Go
/// would cut a character in two).
fn shorten(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

fn tolerations_multiline(w: &mut String, title: &str, tolerations: &[Toleration]) {
    w.push_str(&format!("{title}:\t"));
    if tolerations.is_empty() {
        w.push_str("<none>\n");
        return;
    }
    // printTolerationsMultilineWithIndent sorts by key (sort.Slice: insertion sort, so stable,
    // for the dozen tolerations a pod has).
    let mut sorted: Vec<&Toleration> = tolerations.iter().collect();
    sort::sort_by(&mut sorted, |a, b| {
        a.key
            .as_deref()
            .unwrap_or("")
            .cmp(b.key.as_deref().unwrap_or(""))
    });
    for (i, t) in sorted.iter().enumerate() {
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
        w.push_str(&k8s_base::objects::taint_string(t));
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
        containers(w, "Init Containers", init, &[], None, "  ");
    }
    containers(w, "Containers", &spec.containers, &[], None, "  ");
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

/// `describeContainers`. `pod` resolves `fieldRef` environment values as
/// `EnvValueRetriever(pod)` does; a pod template has none.
fn containers(
    w: &mut String,
    label: &str,
    cs: &[Container],
    statuses: &[ContainerStatus],
    pod: Option<&Pod>,
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
        // describeContainerPorts / describeContainerHostPorts: a named port says its name.
        let port_list = |host: bool| -> String {
            c.ports
                .iter()
                .flatten()
                .map(|p| {
                    let number = if host {
                        p.host_port.unwrap_or(0)
                    } else {
                        p.container_port
                    };
                    let protocol = p.protocol.as_deref().unwrap_or("");
                    match p.name.as_deref().filter(|n| !n.is_empty()) {
                        Some(n) => format!("{number}/{protocol} ({n})"),
                        None => format!("{number}/{protocol}"),
                    }
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let or_none = |s: String| {
            if s.is_empty() {
                "<none>".to_string()
            } else {
                s
            }
        };
        let ports = port_list(false);
        if ports.contains(',') {
            w.push_str(&format!("{L2}Ports:\t{ports}\n"));
        } else {
            w.push_str(&format!("{L2}Port:\t{}\n", or_none(ports)));
        }
        let host_ports = port_list(true);
        if host_ports.contains(',') {
            w.push_str(&format!("{L2}Host Ports:\t{host_ports}\n"));
        } else {
            w.push_str(&format!("{L2}Host Port:\t{}\n", or_none(host_ports)));
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
            // describeContainerState: Last State only when it is a termination.
            container_state(w, "State", s.state.as_ref());
            if let Some(last) = s.last_state.as_ref().filter(|l| l.terminated.is_some()) {
                container_state(w, "Last State", Some(last));
            }
            w.push_str(&format!("{L2}Ready:\t{}\n", print_bool(s.ready)));
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
                            "{L3}{}:\t{} ({}:{})\n",
                            e.name,
                            pod.map(|p| field_ref_value(p, &f.field_path))
                                .unwrap_or_default(),
                            f.api_version.as_deref().unwrap_or(""),
                            f.field_path
                        ));
                    } else if let Some(r) = &from.resource_field_ref {
                        let mut value = container_resource_value(r, c).unwrap_or_default();
                        if value == "0"
                            && (r.resource == "limits.cpu" || r.resource == "limits.memory")
                        {
                            value = "node allocatable".into();
                        }
                        w.push_str(&format!("{L3}{}:\t{value} ({})\n", e.name, r.resource));
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

/// `printBool`.
fn print_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// A `metav1.Time` as `Format(time.RFC1123Z)` prints it; an unset one is Go's zero time.
fn rfc1123z(t: Option<&k8s_openapi::apimachinery::pkg::apis::meta::v1::Time>) -> String {
    t.map(|t| codec::format_rfc1123z(t.0))
        .unwrap_or_else(|| "Mon, 01 Jan 0001 00:00:00 +0000".into())
}

/// `describeStatus`: running, then waiting (its reason only: kubectl prints no message for
/// a waiting container), then terminated; no state at all reads as Waiting.
fn container_state(w: &mut String, name: &str, state: Option<&ContainerState>) {
    let state = state.cloned().unwrap_or_default();
    if let Some(r) = &state.running {
        w.push_str(&format!("{L2}{name}:\tRunning\n"));
        w.push_str(&format!(
            "{L3}Started:\t{}\n",
            rfc1123z(r.started_at.as_ref())
        ));
    } else if let Some(wt) = &state.waiting {
        w.push_str(&format!("{L2}{name}:\tWaiting\n"));
        if let Some(r) = wt.reason.as_deref().filter(|r| !r.is_empty()) {
            w.push_str(&format!("{L3}Reason:\t{r}\n"));
        }
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
        w.push_str(&format!(
            "{L3}Started:\t{}\n",
            rfc1123z(t.started_at.as_ref())
        ));
        w.push_str(&format!(
            "{L3}Finished:\t{}\n",
            rfc1123z(t.finished_at.as_ref())
        ));
    } else {
        w.push_str(&format!("{L2}{name}:\tWaiting\n"));
    }
}

/// `EnvValueRetriever(pod)`: kubectl converts the field path with its client scheme, which
/// registers no field-label conversions for pods, so only `metadata.name` and
/// `metadata.namespace` resolve; every other path prints empty.
fn field_ref_value(p: &Pod, path: &str) -> String {
    match path {
        "metadata.name" => p.metadata.name.clone().unwrap_or_default(),
        "metadata.namespace" => p.metadata.namespace.clone().unwrap_or_default(),
        _ => String::new(),
    }
}

/// `ExtractContainerResourceValue` (`kubectl/pkg/util/resource`): the container's request or
/// limit divided by the divisor (1 when unset), rounded up. `None` for other resources.
fn container_resource_value(
    r: &k8s_openapi::api::core::v1::ResourceFieldSelector,
    c: &Container,
) -> Option<String> {
    let (list, name) = r.resource.split_once('.')?;
    let res = c.resources.clone().unwrap_or_default();
    let quantities = match list {
        "limits" => res.limits.unwrap_or_default(),
        "requests" => res.requests.unwrap_or_default(),
        _ => return None,
    };
    let cpu = match name {
        "cpu" => true,
        "memory" | "ephemeral-storage" => false,
        _ => return None,
    };
    let value = quantities.get(name).map_or(0.0, |q| quantity_value(q, cpu));
    let divisor = r
        .divisor
        .as_ref()
        .map(|d| quantity_value(d, cpu))
        .filter(|d| *d != 0.0)
        .unwrap_or(if cpu { 1000.0 } else { 1.0 });
    Some(format!("{}", (value / divisor).ceil() as i64))
}

/// `DescribeProbe` (1.37 names the thresholds `successThreshold=`/`failureThreshold=`; older
/// kubectl printed `#success=`/`#failure=`).
fn describe_probe(p: &Probe) -> String {
    let attrs = format!(
        "delay={}s timeout={}s period={}s successThreshold={} failureThreshold={}",
        // Unset fields as the API server defaults them.
        p.initial_delay_seconds.unwrap_or(0),
        p.timeout_seconds.unwrap_or(1),
        p.period_seconds.unwrap_or(10),
        p.success_threshold.unwrap_or(1),
        p.failure_threshold.unwrap_or(3)
    );
    if let Some(e) = &p.exec {
        return format!(
            "exec [{}] {attrs}",
            e.command.clone().unwrap_or_default().join(" ")
        );
    }
    if let Some(h) = &p.http_get {
        return format!("http-get {} {attrs}", probe_url(h));
    }
    if let Some(t) = &p.tcp_socket {
        return format!(
            "tcp-socket {}:{} {attrs}",
            t.host.as_deref().unwrap_or(""),
            int_or_string(&t.port)
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

/// `intstr.IntOrString.String()`.
fn int_or_string(v: &k8s_openapi::apimachinery::pkg::util::intstr::IntOrString) -> String {
    match v {
        k8s_openapi::apimachinery::pkg::util::intstr::IntOrString::Int(i) => i.to_string(),
        k8s_openapi::apimachinery::pkg::util::intstr::IntOrString::String(s) => s.clone(),
    }
}

/// The `url.URL` `DescribeProbe` builds for an HTTP probe: lower-case scheme,
/// `net.JoinHostPort(host, port)` (brackets around an IPv6 host), the path as given.
fn probe_url(h: &k8s_openapi::api::core::v1::HTTPGetAction) -> String {
    let scheme = apiserver::gofmt::to_lower(h.scheme.as_deref().unwrap_or(""));
    let host = h.host.as_deref().unwrap_or("");
    let port = int_or_string(&h.port);
    let authority = if port.is_empty() {
        host.to_string()
    } else if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    };
    let path = h.path.as_deref().unwrap_or("");
    let mut url = String::new();
    if !scheme.is_empty() {
        url.push_str(&scheme);
        url.push(':');
    }
    if !scheme.is_empty() || !authority.is_empty() {
        url.push_str("//");
        url.push_str(&authority);
    }
    if !path.is_empty() && !path.starts_with('/') && !authority.is_empty() {
        url.push('/');
    }
    url.push_str(path);
    url
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
                h.type_.as_deref().unwrap_or("<none>")
            ));
        } else if let Some(e) = &v.empty_dir {
            w.push_str(&format!(
                "{L2}Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n{L2}Medium:\t{}\n{L2}SizeLimit:\t{}\n",
                e.medium.as_deref().unwrap_or(""),
                // A zero limit is no limit (`SizeLimit.Cmp(resource.Quantity{}) > 0`).
                e.size_limit
                    .as_ref()
                    .filter(|q| {
                        k8s_base::Quantity::parse_trimmed(&q.0).is_ok_and(|v| v.sign() > 0)
                    })
                    .map(|q| q.0.clone())
                    .unwrap_or_else(|| "<unset>".into())
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

/// `printProjectedVolumeSource`: a line or two per source; an unset `optional` is false.
fn projected_sources(w: &mut String, sources: &[k8s_openapi::api::core::v1::VolumeProjection]) {
    for src in sources {
        if let Some(s) = &src.secret {
            w.push_str(&format!(
                "{L2}SecretName:\t{}\n{L2}Optional:\t{}\n",
                s.name,
                s.optional.unwrap_or(false)
            ));
        } else if src.downward_api.is_some() {
            w.push_str(&format!("{L2}DownwardAPI:\ttrue\n"));
        } else if let Some(c) = &src.config_map {
            w.push_str(&format!(
                "{L2}ConfigMapName:\t{}\n{L2}Optional:\t{}\n",
                c.name,
                c.optional.unwrap_or(false)
            ));
        } else if let Some(t) = &src.service_account_token {
            w.push_str(&format!(
                "{L2}TokenExpirationSeconds:\t{}\n",
                t.expiration_seconds.unwrap_or(3600)
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
    let v: Vec<&Event> = events
        .iter()
        .filter(|e| {
            let io = &e.involved_object;
            io.kind.as_deref() == Some(kind)
                && io.name.as_deref() == Some(name)
                && io.namespace.as_deref().unwrap_or("") == ns
                && (uid.is_none() || io.uid.is_none() || io.uid.as_deref() == uid)
        })
        .collect();
    // event.SortableEvents orders by lastTimestamp alone: events that only carry an eventTime
    // (the events.k8s.io API) have a zero one and come first. It is Go's sort.Sort, not stable:
    // events of one second end up where Go's pdqsort leaves them.
    let key = |e: &Event| e.last_timestamp.as_ref().map(|t| t.0);
    sort::go_order(v.len(), &mut |a, b| key(v[a]) < key(v[b]))
        .into_iter()
        .map(|i| v[i])
        .collect()
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
                    .map_or_else(|| "<unknown>".into(), |t| age_ts(t.0, now)),
                s.count.unwrap_or(0)
            )
        } else if e.count.unwrap_or(0) > 1 {
            format!(
                "{} (x{} over {first})",
                e.last_timestamp
                    .as_ref()
                    .map_or_else(|| "<unknown>".into(), |t| age_ts(t.0, now)),
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
    let sel = k8s_base::Selector::from_label_selector(&spec.selector).ok();
    let (mut running, mut waiting, mut succeeded, mut failed) = (0, 0, 0, 0);
    for p in api.pods() {
        if p.metadata.namespace.as_deref().unwrap_or("") != ns {
            continue;
        }
        if !sel
            .as_ref()
            .is_some_and(|s| s.matches(p.metadata.labels.as_ref()))
        {
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
            .unwrap_or("")
        {
            "Running" => running += 1,
            "Pending" => waiting += 1,
            "Succeeded" => succeeded += 1,
            "Failed" => failed += 1,
            _ => {}
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

/// `labels.Selector.String()` of a DS selector (`app=x,tier in (a,b)`); empty when it selects
/// everything (kubectl would stop at the conversion error of a bad one).
fn selector_string(sel: &k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector) -> String {
    Selector::from_label_selector(sel)
        .map(|s| s.to_text())
        .unwrap_or_default()
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
            Some(p),
            "",
        );
    }
    containers(
        &mut s,
        "Containers",
        &spec.containers,
        st.container_statuses.as_deref().unwrap_or(&[]),
        Some(p),
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

/// CPU in millicores (`MilliValue`) or memory in bytes (`Value`), as kubectl reads them: exact,
/// rounded up. Text that is no quantity reads as 0, as an absent one: the API server refuses
/// it in every object it decodes, and only a scenario's node capacity can still hold one.
fn quantity_value(q: &Quantity, cpu: bool) -> f64 {
    match k8s_base::Quantity::parse_trimmed(&q.0) {
        Ok(v) if cpu => v.milli_value() as f64,
        Ok(v) => v.value() as f64,
        Err(_) => 0.0,
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
    // `describeNode`: the node's Lease, as its kubelet last renewed it.
    let name = n.metadata.name.as_deref().unwrap_or_default();
    match api.node_lease(name) {
        Some(lease) => {
            let spec = lease.spec.unwrap_or_default();
            let time = |t: Option<k8s_openapi::jiff::Timestamp>| {
                t.map_or_else(|| "<unset>".to_string(), codec::format_rfc1123z)
            };
            s.push_str("Lease:\n");
            s.push_str(&format!(
                "{L1}HolderIdentity:\t{}\n",
                spec.holder_identity.as_deref().unwrap_or("<unset>")
            ));
            s.push_str(&format!(
                "{L1}AcquireTime:\t{}\n",
                time(spec.acquire_time.map(|t| t.0))
            ));
            s.push_str(&format!(
                "{L1}RenewTime:\t{}\n",
                time(spec.renew_time.map(|t| t.0))
            ));
        }
        None => s.push_str(&format!(
            "Lease:\tFailed to get lease: leases.coordination.k8s.io \"{name}\" not found\n"
        )),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn from<T: serde::de::DeserializeOwned>(v: serde_json::Value) -> T {
        serde_json::from_value(v).expect("test object")
    }

    /// kubectl reads `MilliValue` for cpu and `Value` for memory: every suffix, rounded up.
    /// Text that is no quantity (a scenario's node capacity) counts as none, not as its digits.
    #[test]
    fn quantities_are_read_as_kubectl_reads_them() {
        let q = |s: &str| Quantity(s.to_string());
        for (text, cpu, milli_or_bytes) in [
            ("250m", true, 250.0),
            ("2", true, 2000.0),
            ("500u", true, 1.0),
            ("1n", true, 1.0),
            ("1e3", true, 1_000_000.0),
            ("128Mi", false, 134_217_728.0),
            ("1.5", false, 2.0),
            ("1P", false, 1e15),
            ("1K", false, 0.0),
            ("abc", true, 0.0),
        ] {
            assert_eq!(quantity_value(&q(text), cpu), milli_or_bytes, "{text}");
        }
    }

    fn container(v: serde_json::Value) -> String {
        let c: Container = from(v);
        let mut w = String::new();
        containers(&mut w, "Containers", &[c], &[], None, "");
        w
    }

    #[test]
    fn describe_probe_names_thresholds_as_1_37() {
        let p: Probe = from(json!({
            "httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"},
            "initialDelaySeconds": 5, "timeoutSeconds": 1, "periodSeconds": 10,
            "successThreshold": 1, "failureThreshold": 3
        }));
        assert_eq!(
            describe_probe(&p),
            "http-get http://:8080/healthz delay=5s timeout=1s period=10s successThreshold=1 failureThreshold=3"
        );
        let p: Probe = from(json!({"exec": {"command": ["cat", "/tmp/ok"]}, "periodSeconds": 5}));
        assert_eq!(
            describe_probe(&p),
            "exec [cat /tmp/ok] delay=0s timeout=1s period=5s successThreshold=1 failureThreshold=3"
        );
        let p: Probe = from(json!({"tcpSocket": {"port": "metrics"}}));
        assert_eq!(
            describe_probe(&p),
            "tcp-socket :metrics delay=0s timeout=1s period=10s successThreshold=1 failureThreshold=3"
        );
    }

    #[test]
    fn describe_probe_joins_an_ipv6_host_with_brackets_as_net_join_host_port() {
        let p: Probe = from(
            json!({"httpGet": {"host": "::1", "path": "ready", "port": 80, "scheme": "HTTPS"}}),
        );
        assert!(describe_probe(&p).starts_with("http-get https://[::1]:80/ready delay=0s"));
    }

    #[test]
    fn print_projected_volume_source_prints_optional_false_for_the_token_volume() {
        let v: Volume = from(
            json!({"name": "kube-api-access-x2k9p", "projected": {"defaultMode": 420, "sources": [
                {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
                {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}}
            ]}}),
        );
        let mut w = String::new();
        volumes(&mut w, &[v], "");
        assert_eq!(
            w,
            "Volumes:\n  kube-api-access-x2k9p:\n    Type:\tProjected (a volume that contains injected data from multiple sources)\n    TokenExpirationSeconds:\t3607\n    ConfigMapName:\tkube-root-ca.crt\n    Optional:\tfalse\n    DownwardAPI:\ttrue\n"
        );
    }

    #[test]
    fn print_host_path_volume_source_says_none_for_an_unset_type() {
        let v: Volume = from(json!({"name": "proc", "hostPath": {"path": "/proc"}}));
        let mut w = String::new();
        volumes(&mut w, &[v], "");
        assert!(w.contains("    HostPathType:\t<none>\n"), "{w}");
    }

    #[test]
    fn describe_status_prints_a_waiting_reason_and_no_message() {
        let s: ContainerState = from(json!({"waiting": {"reason": "CrashLoopBackOff",
            "message": "back-off 20s restarting failed container=app pod=agent-x_default(uid)"}}));
        let mut w = String::new();
        container_state(&mut w, "State", Some(&s));
        assert_eq!(w, "    State:\tWaiting\n      Reason:\tCrashLoopBackOff\n");
    }

    #[test]
    fn describe_status_prints_go_zero_time_for_a_running_container_without_start() {
        let s: ContainerState = from(json!({"running": {}}));
        let mut w = String::new();
        container_state(&mut w, "State", Some(&s));
        assert_eq!(
            w,
            "    State:\tRunning\n      Started:\tMon, 01 Jan 0001 00:00:00 +0000\n"
        );
    }

    #[test]
    fn describe_container_ports_name_each_named_port() {
        let w = container(json!({"name": "app", "image": "x", "ports": [
            {"containerPort": 9100, "hostPort": 9100, "name": "metrics", "protocol": "TCP"}]}));
        assert!(w.contains("    Port:\t9100/TCP (metrics)\n"), "{w}");
        assert!(w.contains("    Host Port:\t9100/TCP (metrics)\n"), "{w}");
    }

    #[test]
    fn describe_container_env_vars_resolve_resource_field_refs() {
        let w = container(json!({"name": "app", "image": "x",
        "resources": {"requests": {"cpu": "250m", "memory": "64Mi"}},
        "env": [
            {"name": "CPU_LIMIT", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu"}}},
            {"name": "CPU_REQ", "valueFrom": {"resourceFieldRef": {"resource": "requests.cpu", "divisor": "1m"}}},
            {"name": "MEM_REQ", "valueFrom": {"resourceFieldRef": {"resource": "requests.memory", "divisor": "1Mi"}}}
        ]}));
        assert!(
            w.contains("      CPU_LIMIT:\tnode allocatable (limits.cpu)\n"),
            "{w}"
        );
        assert!(w.contains("      CPU_REQ:\t250 (requests.cpu)\n"), "{w}");
        assert!(w.contains("      MEM_REQ:\t64 (requests.memory)\n"), "{w}");
    }

    #[test]
    fn env_value_retriever_resolves_only_name_and_namespace() {
        let p: Pod = from(
            json!({"metadata": {"name": "agent-x", "namespace": "default"},
            "spec": {"nodeName": "worker", "containers": []}}),
        );
        assert_eq!(field_ref_value(&p, "metadata.name"), "agent-x");
        assert_eq!(field_ref_value(&p, "metadata.namespace"), "default");
        assert_eq!(field_ref_value(&p, "spec.nodeName"), "");
    }

    #[test]
    fn print_tolerations_multiline_with_indent_sorts_by_key() {
        let ts: Vec<Toleration> = from(json!([
            {"key": "b", "operator": "Exists"}, {"key": "a", "operator": "Exists", "effect": "NoSchedule"}]));
        let mut w = String::new();
        tolerations_multiline(&mut w, "Tolerations", &ts);
        assert_eq!(w, "Tolerations:\ta:NoSchedule op=Exists\n\tb op=Exists\n");
    }

    #[test]
    fn print_annotations_multiline_puts_a_long_value_under_its_key() {
        let long = "x".repeat(150);
        let ann = BTreeMap::from([
            ("a".to_string(), "short".to_string()),
            ("b".to_string(), long.clone()),
            ("c".to_string(), "one\ntwo\n".to_string()),
        ]);
        let mut w = String::new();
        annotations_multiline(&mut w, "Annotations", Some(&ann));
        assert_eq!(
            w,
            format!(
                "Annotations:\ta: short\n\tb:\n\t  {}...\n\tc:\n\t  one\n\t  two\n",
                &long[..138]
            )
        );
    }

    #[test]
    fn labels_selector_string_orders_requirements_by_key() {
        let sel: k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector = from(json!({
            "matchLabels": {"z": "1"},
            "matchExpressions": [{"key": "a", "operator": "In", "values": ["y", "x"]}]}));
        assert_eq!(selector_string(&sel), "a in (x,y),z=1");
        assert_eq!(selector_string(&Default::default()), "");
    }
}
