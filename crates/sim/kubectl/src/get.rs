//! `kubectl get`: the table printers of `pkg/printers/internalversion/printers.go` for
//! DaemonSets, Pods, Nodes, ControllerRevisions and Events, and the generic printers (`-o
//! yaml|json|name|jsonpath=…`).

use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
use k8s_openapi::api::core::v1::{Event, Node, Pod};
use k8s_openapi::jiff::Timestamp;
use serde_json::Value;

use crate::api::{Api, ApiError};
use crate::columns::Columns;
use crate::object::{self, format_labels, Object};
use crate::parse::{Command, ParseError};
use crate::resource::{self, Resource};
use crate::sort_by::{self, SortBy};
use crate::table::{age, age_ts, TabWriter};
use crate::{CommandResult, Fail};
use k8s_base::labels::format_label_selector;
use k8s_base::{FieldSelector, Selector};

/// How to print what was found.
#[derive(Debug)]
pub(crate) enum Output {
    Table {
        wide: bool,
    },
    Yaml,
    Json,
    Name,
    /// `-o jsonpath=` (`json: false`) or `-o jsonpath-as-json=` (`json: true`).
    JsonPath {
        template: String,
        json: bool,
    },
    CustomColumns(Columns),
}

pub(crate) fn output_format(cmd: &Command) -> Result<Output, Fail> {
    let Some(o) = cmd.flag("output") else {
        return Ok(Output::Table { wide: false });
    };
    Ok(match o {
        "wide" => Output::Table { wide: true },
        "yaml" => Output::Yaml,
        "json" => Output::Json,
        "name" => Output::Name,
        other => {
            if let Some(spec) = other.strip_prefix("custom-columns=") {
                Output::CustomColumns(Columns::parse(spec)?)
            } else if other == "custom-columns" {
                Output::CustomColumns(Columns::parse("")?)
            } else if let Some(t) = other.strip_prefix("jsonpath=") {
                Output::JsonPath {
                    template: t.to_string(),
                    json: false,
                }
            } else if let Some(t) = other.strip_prefix("jsonpath-as-json=") {
                Output::JsonPath {
                    template: t.to_string(),
                    json: true,
                }
            } else if other == "jsonpath" || other == "jsonpath-as-json" {
                return Err(
                    Fail::new("error: template format specified but no template given").hint(
                        format!(
                            "write the template after `=`: -o {other}='{{.status.numberReady}}'"
                        ),
                    ),
                );
            } else {
                return Err(Fail::new(format!(
                    "error: unable to match a printer suitable for the output format {other:?}, allowed formats are: custom-columns,json,jsonpath,jsonpath-as-json,jsonpath-file,name,yaml,wide"
                ))
                .hint("the playground prints -o wide, yaml, json, name, jsonpath=TEMPLATE, jsonpath-as-json=TEMPLATE and custom-columns=HEADER:PATH,…"));
            }
        }
    })
}

/// The field selectors the API server accepts for a kind (`--field-selector`, `fieldSelector=`).
pub fn field_labels(r: Resource) -> &'static [&'static str] {
    match r {
        Resource::Pod => &[
            "metadata.name",
            "metadata.namespace",
            "spec.nodeName",
            "spec.restartPolicy",
            "spec.schedulerName",
            "spec.serviceAccountName",
            "status.phase",
            "status.podIP",
            "status.nominatedNodeName",
        ],
        Resource::Node => &["metadata.name", "spec.unschedulable"],
        Resource::Event => &[
            "metadata.name",
            "metadata.namespace",
            "involvedObject.kind",
            "involvedObject.name",
            "involvedObject.namespace",
            "involvedObject.uid",
            "involvedObject.apiVersion",
            "involvedObject.resourceVersion",
            "involvedObject.fieldPath",
            "reason",
            "reportingComponent",
            "type",
        ],
        _ => &["metadata.name", "metadata.namespace"],
    }
}

fn gvr(r: Resource) -> &'static str {
    match r {
        Resource::DaemonSet => "apps/v1, Resource=daemonsets",
        Resource::ControllerRevision => "apps/v1, Resource=controllerrevisions",
        Resource::Pod => "/v1, Resource=pods",
        Resource::Node => "/v1, Resource=nodes",
        Resource::Event => "/v1, Resource=events",
    }
}

pub(crate) fn get(api: &dyn Api, cmd: &Command) -> Result<CommandResult, Fail> {
    if cmd.is_set("watch") {
        return Err(Fail::new("error: --watch is not supported in this playground")
            .hint("use `kubectl rollout status ds/NAME` to follow a rollout, or run `get` again after time advances"));
    }
    let output = output_format(cmd)?;
    let targets = resource::targets(&cmd.args)?;
    if targets.types.is_empty() && targets.named.is_empty() {
        return Err(Fail::new("error: Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).\nSee 'kubectl get -h' for help and examples")
            .hint("say what to list: `kubectl get ds`, `kubectl get pods -o wide`, `kubectl get nodes`"));
    }
    let all_ns = cmd.is_set("all-namespaces");
    let ns = cmd.namespace().to_string();
    let labels = Selector::parse(cmd.flag("selector").unwrap_or(""))
        .map_err(|e| Fail::new(format!("error: {e}")))?;
    let now = api.now();

    // Collect per type, keeping the order the user gave.
    let mut groups: Vec<(Resource, Vec<Object>)> = Vec::new();
    let mut errors = Vec::new();
    let single_item = targets.named.len() == 1 && targets.types.is_empty();
    for r in &targets.types {
        let fields = FieldSelector::parse(cmd.flag("field-selector").unwrap_or(""), field_labels(*r))
            .map_err(|e| {
                Fail::new(format!(
                    "Error from server (BadRequest): Unable to find \"{}\" that match label selector \"{}\", field selector \"{}\": {e}",
                    gvr(*r),
                    cmd.flag("selector").unwrap_or(""),
                    cmd.flag("field-selector").unwrap_or("")
                ))
                .hint(format!("field selectors for {}: {}", r.plural(), field_labels(*r).join(", ")))
            })?;
        let items: Vec<Object> = object::list(api, *r)
            .into_iter()
            .filter(|o| all_ns || !r.namespaced() || o.namespace() == ns)
            .filter(|o| labels.matches(o.labels()))
            .filter(|o| fields.matches(&o.to_json()))
            .collect();
        groups.push((*r, items));
    }
    for (r, name) in &targets.named {
        match object::get(api, *r, &ns, name) {
            Some(o) => match groups.iter_mut().find(|(g, _)| g == r) {
                Some((_, items)) => items.push(o),
                None => groups.push((*r, vec![o])),
            },
            None => errors.push(ApiError::not_found(r.plural(), name)),
        }
    }

    let sort_by = match cmd.flag("sort-by").filter(|f| !f.is_empty()) {
        Some(f) => Some(SortBy::parse(f)?),
        None => None,
    };
    let mut res = CommandResult::default();
    let total: usize = groups.iter().map(|(_, v)| v.len()).sum();
    match &output {
        Output::Table { wide } => {
            let several = groups.len() > 1;
            let mut tables = Vec::new();
            for (r, items) in &mut groups {
                if items.is_empty() {
                    continue;
                }
                // A table per type, each sorted on its own.
                if let Some(s) = &sort_by {
                    let json: Vec<Value> = items.iter().map(Object::to_json).collect();
                    sort_by::arrange(items, &s.order(&json)?);
                }
                tables.push(table(
                    *r,
                    items,
                    *wide,
                    all_ns && r.namespaced(),
                    several,
                    cmd,
                    now,
                ));
            }
            res.stdout = tables.join("\n");
            if total == 0 && errors.is_empty() {
                let namespaced = groups.iter().any(|(r, _)| r.namespaced());
                res.stderr = if namespaced && !all_ns {
                    format!("No resources found in {ns} namespace.\n")
                } else {
                    "No resources found\n".to_string()
                };
            }
        }
        other => {
            // One list of every type, sorted as a whole.
            let mut names: Vec<(Resource, &Object)> = groups
                .iter()
                .flat_map(|(r, v)| v.iter().map(move |o| (*r, o)))
                .collect();
            let mut items: Vec<Value> = names.iter().map(|(_, o)| o.to_json()).collect();
            if let Some(s) = &sort_by {
                let order = s.order(&items)?;
                sort_by::arrange(&mut names, &order);
                sort_by::arrange(&mut items, &order);
            }
            // Custom columns read each item; the other printers read the list `doc` below.
            let columns_text = match other {
                Output::CustomColumns(columns) => columns.render(&items, cmd.is_set("no-headers")),
                _ => String::new(),
            };
            let doc = if single_item && items.len() == 1 {
                items.into_iter().next().unwrap_or(Value::Null)
            } else {
                // By hand, not `json!`, which would serialize `items` again into a Value.
                let mut metadata = serde_json::Map::new();
                metadata.insert("resourceVersion".into(), Value::String(String::new()));
                let mut list = serde_json::Map::new();
                list.insert("apiVersion".into(), Value::String("v1".into()));
                list.insert("items".into(), Value::Array(items));
                list.insert("kind".into(), Value::String("List".into()));
                list.insert("metadata".into(), Value::Object(metadata));
                Value::Object(list)
            };
            match other {
                Output::Yaml => {
                    if total > 0 || errors.is_empty() {
                        res.stdout = k8s_base::yaml::to_yaml(&doc);
                    }
                }
                Output::Json => {
                    if total > 0 || errors.is_empty() {
                        res.stdout = pretty_json(&doc);
                    }
                }
                Output::Name => {
                    for (r, o) in &names {
                        res.stdout
                            .push_str(&format!("{}/{}\n", r.singular(), o.name()));
                    }
                }
                Output::JsonPath { template, json } => {
                    if total > 0 || errors.is_empty() {
                        let render = if *json {
                            crate::jsonpath::render_json
                        } else {
                            crate::jsonpath::render
                        };
                        res.stdout = render(template, &doc).map_err(|e| {
                            Fail::new(format!("error: {e}")).hint(
                                "templates look like {.status.numberReady} or {.items[*].metadata.name}",
                            )
                        })?;
                    }
                }
                Output::CustomColumns(_) => {
                    if total > 0 || errors.is_empty() {
                        res.stdout = columns_text;
                    }
                }
                Output::Table { .. } => {}
            }
        }
    }
    for e in &errors {
        res.stderr.push_str(&e.to_string());
        res.stderr.push('\n');
        res.exit_code = 1;
        if res.hint.is_none() {
            res.hint = e.hint();
        }
    }
    Ok(res)
}

/// `json.MarshalIndent(obj, "", "    ")` plus the newline kubectl adds.
pub(crate) fn pretty_json(v: &Value) -> String {
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    if serde::Serialize::serialize(v, &mut ser).is_err() {
        return String::new();
    }
    let mut s = String::from_utf8(buf).unwrap_or_default();
    s.push('\n');
    s
}

fn table(
    r: Resource,
    items: &[Object],
    wide: bool,
    with_ns: bool,
    kind_prefix: bool,
    cmd: &Command,
    now: Timestamp,
) -> String {
    let mut w = TabWriter::table();
    let show_labels = cmd.is_set("show-labels");
    let mut header: Vec<&str> = Vec::new();
    if with_ns {
        header.push("NAMESPACE");
    }
    header.extend_from_slice(headers(r, wide));
    if show_labels {
        header.push("LABELS");
    }
    if !cmd.is_set("no-headers") {
        w.row(&header);
    }
    for o in items {
        let mut cells = Vec::new();
        if with_ns {
            cells.push(o.namespace().to_string());
        }
        let mut row = row(o, wide, now);
        if kind_prefix {
            if let Some(first) = row.first_mut() {
                if !matches!(o, Object::Event(_)) {
                    *first = format!("{}/{}", r.singular(), first);
                }
            }
        }
        cells.append(&mut row);
        if show_labels {
            cells.push(format_labels(o.labels()));
        }
        w.row(&cells);
    }
    w.finish()
}

/// One object's cells, as `kubectl get` (and the API server's Table) has them.
pub(crate) fn row(o: &Object, wide: bool, now: Timestamp) -> Vec<String> {
    match o {
        Object::DaemonSet(d) => ds_row(d, wide, now),
        Object::Pod(p) => pod_row(p, wide, now),
        Object::Node(n) => node_row(n, wide, now),
        Object::ControllerRevision(c) => revision_row(c, now),
        Object::Event(e) => event_row(e, wide, now),
    }
}

pub(crate) fn headers(r: Resource, wide: bool) -> &'static [&'static str] {
    match (r, wide) {
        (Resource::DaemonSet, false) => &[
            "NAME",
            "DESIRED",
            "CURRENT",
            "READY",
            "UP-TO-DATE",
            "AVAILABLE",
            "NODE SELECTOR",
            "AGE",
        ],
        (Resource::DaemonSet, true) => &[
            "NAME",
            "DESIRED",
            "CURRENT",
            "READY",
            "UP-TO-DATE",
            "AVAILABLE",
            "NODE SELECTOR",
            "AGE",
            "CONTAINERS",
            "IMAGES",
            "SELECTOR",
        ],
        (Resource::Pod, false) => &["NAME", "READY", "STATUS", "RESTARTS", "AGE"],
        (Resource::Pod, true) => &[
            "NAME",
            "READY",
            "STATUS",
            "RESTARTS",
            "AGE",
            "IP",
            "NODE",
            "NOMINATED NODE",
            "READINESS GATES",
        ],
        (Resource::Node, false) => &["NAME", "STATUS", "ROLES", "AGE", "VERSION"],
        (Resource::Node, true) => &[
            "NAME",
            "STATUS",
            "ROLES",
            "AGE",
            "VERSION",
            "INTERNAL-IP",
            "EXTERNAL-IP",
            "OS-IMAGE",
            "KERNEL-VERSION",
            "CONTAINER-RUNTIME",
        ],
        (Resource::ControllerRevision, _) => &["NAME", "CONTROLLER", "REVISION", "AGE"],
        (Resource::Event, false) => &["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"],
        (Resource::Event, true) => &[
            "LAST SEEN",
            "TYPE",
            "REASON",
            "OBJECT",
            "SUBOBJECT",
            "SOURCE",
            "MESSAGE",
            "FIRST SEEN",
            "COUNT",
            "NAME",
        ],
    }
}

fn ds_row(d: &DaemonSet, wide: bool, now: Timestamp) -> Vec<String> {
    let st = d.status.clone().unwrap_or_default();
    let spec = d.spec.clone();
    let pod_spec = spec.template.spec.clone().unwrap_or_default();
    let mut row = vec![
        d.metadata.name.clone().unwrap_or_default(),
        st.desired_number_scheduled.to_string(),
        st.current_number_scheduled.to_string(),
        st.number_ready.to_string(),
        st.updated_number_scheduled.unwrap_or(0).to_string(),
        st.number_available.unwrap_or(0).to_string(),
        format_labels(pod_spec.node_selector.as_ref()),
        age(d.metadata.creation_timestamp.as_ref(), now),
    ];
    if wide {
        let names: Vec<&str> = pod_spec
            .containers
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        let images: Vec<&str> = pod_spec
            .containers
            .iter()
            .map(|c| c.image.as_deref().unwrap_or(""))
            .collect();
        row.push(names.join(","));
        row.push(images.join(","));
        row.push(format_label_selector(&spec.selector));
    }
    row
}

/// kubectl's pod STATUS, READY and RESTARTS (`printPod`).
/// What `kubectl get pods` shows for one pod.
pub struct PodSummary {
    pub ready: String,
    pub status: String,
    pub restarts: String,
}

/// The READY, STATUS and RESTARTS columns of `kubectl get pods` for one pod: `printPod`
/// (`pkg/printers/internalversion/printers.go`). Restartable init containers (sidecars) count
/// as containers; once the pod is initialized their restarts and the app containers' are
/// what RESTARTS shows, with the age of the latest termination.
pub fn pod_summary(p: &Pod, now: Timestamp) -> PodSummary {
    let status = p.status.clone().unwrap_or_default();
    let spec = p.spec.clone().unwrap_or_default();
    let init_specs = spec.init_containers.unwrap_or_default();
    let is_sidecar = |name: &str| {
        init_specs
            .iter()
            .any(|c| c.name == name && c.restart_policy.as_deref() == Some("Always"))
    };
    let mut total = spec.containers.len();
    total += init_specs
        .iter()
        .filter(|c| c.restart_policy.as_deref() == Some("Always"))
        .count();
    let mut reason = status.phase.clone().unwrap_or_default();
    if let Some(r) = status.reason.as_deref().filter(|r| !r.is_empty()) {
        reason = r.to_string();
    }
    let conditions = status.conditions.clone().unwrap_or_default();
    if conditions
        .iter()
        .any(|c| c.type_ == "PodScheduled" && c.reason.as_deref() == Some("SchedulingGated"))
    {
        reason = "SchedulingGated".into();
    }
    let last_terminated = |c: &k8s_openapi::api::core::v1::ContainerStatus| {
        c.last_state
            .as_ref()
            .and_then(|s| s.terminated.as_ref())
            .map(|t| t.finished_at.as_ref().map(|f| f.0))
    };
    // Go's zero time stands for "no termination seen": a later one replaces it.
    let later = |acc: Option<Timestamp>, t: Option<Option<Timestamp>>| match (acc, t.flatten()) {
        (Some(a), Some(t)) if t > a => Some(t),
        (None, Some(t)) => Some(t),
        (acc, _) => acc,
    };
    let mut restarts: i64 = 0;
    let mut sidecar_restarts: i64 = 0;
    let mut ready_containers = 0;
    let mut last_restart: Option<Timestamp> = None;
    let mut last_sidecar_restart: Option<Timestamp> = None;
    let mut initializing = false;
    let init_statuses = status.init_container_statuses.clone().unwrap_or_default();
    let n_init = init_specs.len();
    for (i, c) in init_statuses.iter().enumerate() {
        restarts += i64::from(c.restart_count);
        last_restart = later(last_restart, last_terminated(c));
        let sidecar = is_sidecar(&c.name);
        if sidecar {
            sidecar_restarts += i64::from(c.restart_count);
            last_sidecar_restart = later(last_sidecar_restart, last_terminated(c));
        }
        let state = c.state.clone().unwrap_or_default();
        if state.terminated.as_ref().is_some_and(|t| t.exit_code == 0) {
            continue;
        }
        if sidecar && c.started == Some(true) {
            if c.ready {
                ready_containers += 1;
            }
            continue;
        }
        initializing = true;
        reason = if let Some(t) = &state.terminated {
            match t.reason.as_deref().filter(|r| !r.is_empty()) {
                Some(r) => format!("Init:{r}"),
                None => match t.signal.filter(|s| *s != 0) {
                    Some(s) => format!("Init:Signal:{s}"),
                    None => format!("Init:ExitCode:{}", t.exit_code),
                },
            }
        } else if let Some(r) = state
            .waiting
            .as_ref()
            .and_then(|w| w.reason.as_deref())
            .filter(|r| !r.is_empty() && *r != "PodInitializing")
        {
            format!("Init:{r}")
        } else {
            format!("Init:{i}/{n_init}")
        };
        break;
    }
    let initialized = conditions
        .iter()
        .any(|c| c.type_ == "Initialized" && c.status == "True");
    if !initializing || initialized {
        restarts = sidecar_restarts;
        last_restart = last_sidecar_restart;
        let mut has_running = false;
        for c in status.container_statuses.iter().flatten().rev() {
            restarts += i64::from(c.restart_count);
            last_restart = later(last_restart, last_terminated(c));
            let state = c.state.clone().unwrap_or_default();
            if let Some(r) = state
                .waiting
                .as_ref()
                .and_then(|w| w.reason.clone())
                .filter(|r| !r.is_empty())
            {
                reason = r;
            } else if let Some(t) = &state.terminated {
                reason = match t.reason.as_deref().filter(|r| !r.is_empty()) {
                    Some(r) => r.to_string(),
                    None => match t.signal.filter(|s| *s != 0) {
                        Some(s) => format!("Signal:{s}"),
                        None => format!("ExitCode:{}", t.exit_code),
                    },
                };
            } else if c.ready && state.running.is_some() {
                has_running = true;
                ready_containers += 1;
            }
        }
        if reason == "Completed" && has_running {
            reason = if conditions
                .iter()
                .any(|c| c.type_ == "Ready" && c.status == "True")
            {
                "Running".into()
            } else {
                "NotReady".into()
            };
        }
    }
    let phase = status.phase.as_deref().unwrap_or("");
    if p.metadata.deletion_timestamp.is_some() && status.reason.as_deref() == Some("NodeLost") {
        reason = "Unknown".into();
    } else if p.metadata.deletion_timestamp.is_some() && phase != "Succeeded" && phase != "Failed" {
        reason = "Terminating".into();
    }
    let restarts = match last_restart {
        Some(t) if restarts != 0 => format!("{restarts} ({} ago)", age_ts(t, now)),
        _ => restarts.to_string(),
    };
    PodSummary {
        ready: format!("{ready_containers}/{total}"),
        status: reason,
        restarts,
    }
}

fn pod_row(p: &Pod, wide: bool, now: Timestamp) -> Vec<String> {
    let s = pod_summary(p, now);
    let mut row = vec![
        p.metadata.name.clone().unwrap_or_default(),
        s.ready,
        s.status,
        s.restarts,
        age(p.metadata.creation_timestamp.as_ref(), now),
    ];
    if wide {
        let st = p.status.clone().unwrap_or_default();
        let none = |s: Option<String>| {
            s.filter(|s| !s.is_empty())
                .unwrap_or_else(|| "<none>".into())
        };
        // printPod reads the first of podIPs, not podIP.
        row.push(none(
            st.pod_ips
                .as_ref()
                .and_then(|ips| ips.first())
                .map(|ip| ip.ip.clone()),
        ));
        row.push(none(p.spec.as_ref().and_then(|s| s.node_name.clone())));
        row.push(none(st.nominated_node_name.clone()));
        let gates = p
            .spec
            .as_ref()
            .and_then(|s| s.readiness_gates.clone())
            .unwrap_or_default();
        if gates.is_empty() {
            row.push("<none>".into());
        } else {
            let conds = st.conditions.clone().unwrap_or_default();
            let ok = gates
                .iter()
                .filter(|g| {
                    conds
                        .iter()
                        .any(|c| c.type_ == g.condition_type && c.status == "True")
                })
                .count();
            row.push(format!("{ok}/{}", gates.len()));
        }
    }
    row
}

/// `Ready`, `NotReady`, `Unknown`, plus `,SchedulingDisabled`.
pub fn node_status(n: &Node) -> String {
    let mut status = Vec::new();
    if let Some(c) = n
        .status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .and_then(|cs| cs.iter().find(|c| c.type_ == "Ready"))
    {
        status.push(if c.status == "True" {
            "Ready"
        } else {
            "NotReady"
        });
    }
    if status.is_empty() {
        status.push("Unknown");
    }
    if n.spec.as_ref().and_then(|s| s.unschedulable) == Some(true) {
        status.push("SchedulingDisabled");
    }
    status.join(",")
}

/// ROLES from `node-role.kubernetes.io/<role>` and `kubernetes.io/role` labels.
pub(crate) fn node_roles(n: &Node) -> String {
    let mut roles: Vec<&str> = Vec::new();
    for (k, v) in n.metadata.labels.iter().flatten() {
        if let Some(role) = k.strip_prefix("node-role.kubernetes.io/") {
            if !role.is_empty() {
                roles.push(role);
            }
        } else if k == "kubernetes.io/role" && !v.is_empty() {
            roles.push(v);
        }
    }
    sort::sort(&mut roles);
    roles.dedup();
    if roles.is_empty() {
        "<none>".into()
    } else {
        roles.join(",")
    }
}

fn node_row(n: &Node, wide: bool, now: Timestamp) -> Vec<String> {
    let info = n
        .status
        .as_ref()
        .and_then(|s| s.node_info.clone())
        .unwrap_or_default();
    let mut row = vec![
        n.metadata.name.clone().unwrap_or_default(),
        node_status(n),
        node_roles(n),
        age(n.metadata.creation_timestamp.as_ref(), now),
        info.kubelet_version.clone(),
    ];
    if wide {
        let addr = |t: &str| {
            n.status
                .as_ref()
                .and_then(|s| s.addresses.as_ref())
                .and_then(|a| a.iter().find(|a| a.type_ == t))
                .map(|a| a.address.clone())
                .unwrap_or_else(|| "<none>".into())
        };
        let unknown = |s: &str| {
            if s.is_empty() {
                "<unknown>".to_string()
            } else {
                s.to_string()
            }
        };
        row.push(addr("InternalIP"));
        row.push(addr("ExternalIP"));
        row.push(unknown(&info.os_image));
        row.push(unknown(&info.kernel_version));
        row.push(unknown(&info.container_runtime_version));
    }
    row
}

fn revision_row(c: &ControllerRevision, now: Timestamp) -> Vec<String> {
    let controller = c
        .metadata
        .owner_references
        .iter()
        .flatten()
        .find(|o| o.controller == Some(true))
        .map(|o| {
            let group = o.api_version.split_once('/').map(|(g, _)| g).unwrap_or("");
            if group.is_empty() {
                format!("{}/{}", apiserver::gofmt::to_lower(&o.kind), o.name)
            } else {
                format!("{}.{group}/{}", apiserver::gofmt::to_lower(&o.kind), o.name)
            }
        })
        .unwrap_or_else(|| "<none>".into());
    vec![
        c.metadata.name.clone().unwrap_or_default(),
        controller,
        c.revision.unwrap_or(0).to_string(),
        age(c.metadata.creation_timestamp.as_ref(), now),
    ]
}

/// Event times as `printEvent` computes them: (first seen, last seen, count).
pub(crate) fn event_times(e: &Event, now: Timestamp) -> (String, String, i32) {
    let first = match (&e.first_timestamp, &e.event_time) {
        (Some(t), _) => age_ts(t.0, now),
        (None, Some(t)) => age_ts(t.0, now),
        (None, None) => "<unknown>".into(),
    };
    let mut last = match &e.last_timestamp {
        Some(t) => age_ts(t.0, now),
        None => first.clone(),
    };
    let mut count = e.count.unwrap_or(0);
    if let Some(s) = &e.series {
        if let Some(t) = &s.last_observed_time {
            last = age_ts(t.0, now);
        }
        count = s.count.unwrap_or(0);
    } else if count == 0 {
        count = 1;
    }
    (first, last, count)
}

/// One row of `kubectl get events` (the wide columns with `wide`).
pub fn event_row(e: &Event, wide: bool, now: Timestamp) -> Vec<String> {
    let (first, last, count) = event_times(e, now);
    let io = &e.involved_object;
    let target = event_object(e);
    let message = e.message.clone().unwrap_or_default().trim().to_string();
    let ty = e.type_.clone().unwrap_or_default();
    let reason = e.reason.clone().unwrap_or_default();
    if !wide {
        return vec![last, ty, reason, target, message];
    }
    let source = {
        let src = e.source.clone().unwrap_or_default();
        let component = src
            .component
            .filter(|c| !c.is_empty())
            .or_else(|| e.reporting_component.clone())
            .unwrap_or_default();
        // formatEventSource: the reporting instance stands in for an empty host.
        match src
            .host
            .filter(|h| !h.is_empty())
            .or_else(|| e.reporting_instance.clone().filter(|h| !h.is_empty()))
        {
            Some(h) => format!("{component}, {h}"),
            None => component,
        }
    };
    vec![
        last,
        ty,
        reason,
        target,
        io.field_path.clone().unwrap_or_default(),
        source,
        message,
        first,
        count.to_string(),
        e.metadata.name.clone().unwrap_or_default(),
    ]
}

/// The OBJECT column of an event: its involved object as `kind/name` (`pod/agent-x7k2p`).
pub fn event_object(e: &Event) -> String {
    let io = &e.involved_object;
    let kind = apiserver::gofmt::to_lower(io.kind.as_deref().unwrap_or_default());
    match io.name.as_deref().filter(|n| !n.is_empty()) {
        Some(n) => format!("{kind}/{n}"),
        None => kind,
    }
}

impl From<ParseError> for Fail {
    fn from(e: ParseError) -> Fail {
        Fail {
            message: e.message,
            hint: e.hint,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn summary(v: serde_json::Value) -> PodSummary {
        let p: Pod = serde_json::from_value(v).expect("test pod");
        pod_summary(&p, "2024-05-01T12:00:00Z".parse().expect("time"))
    }

    #[test]
    fn print_pod_counts_a_started_sidecar_as_a_ready_container_with_its_restarts() {
        let s = summary(json!({
            "spec": {"initContainers": [{"name": "proxy", "restartPolicy": "Always"}],
                "containers": [{"name": "app"}]},
            "status": {"phase": "Running",
                "conditions": [{"type": "Initialized", "status": "True"}, {"type": "Ready", "status": "True"}],
                "initContainerStatuses": [{"name": "proxy", "ready": true, "started": true, "restartCount": 2,
                    "image": "", "imageID": "",
                    "lastState": {"terminated": {"exitCode": 1, "finishedAt": "2024-05-01T11:59:48Z"}},
                    "state": {"running": {}}}],
                "containerStatuses": [{"name": "app", "ready": true, "restartCount": 1, "image": "", "imageID": "",
                    "lastState": {"terminated": {"exitCode": 1, "finishedAt": "2024-05-01T11:50:00Z"}},
                    "state": {"running": {}}}]}
        }));
        assert_eq!(s.ready, "2/2");
        assert_eq!(s.status, "Running");
        assert_eq!(s.restarts, "3 (12s ago)");
    }

    #[test]
    fn print_pod_shows_crash_loop_back_off_with_humanized_last_restart() {
        let s = summary(json!({
            "spec": {"containers": [{"name": "app"}]},
            "status": {"phase": "Running",
                "containerStatuses": [{"name": "app", "ready": false, "restartCount": 3, "image": "", "imageID": "",
                    "lastState": {"terminated": {"exitCode": 1, "reason": "Error", "finishedAt": "2024-05-01T11:57:30Z"}},
                    "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]}
        }));
        assert_eq!(
            (s.ready.as_str(), s.status.as_str(), s.restarts.as_str()),
            ("0/1", "CrashLoopBackOff", "3 (2m30s ago)")
        );
    }

    #[test]
    fn print_pod_prints_no_age_when_there_are_no_restarts() {
        let s = summary(json!({
            "spec": {"containers": [{"name": "app"}]},
            "status": {"phase": "Running",
                "containerStatuses": [{"name": "app", "ready": true, "restartCount": 0, "image": "", "imageID": "",
                    "lastState": {"terminated": {"exitCode": 0, "finishedAt": "2024-05-01T11:57:30Z"}},
                    "state": {"running": {}}}]}
        }));
        assert_eq!(s.restarts, "0");
    }

    #[test]
    fn print_pod_turns_completed_into_not_ready_while_another_container_runs() {
        let s = summary(json!({
            "spec": {"containers": [{"name": "a"}, {"name": "b"}]},
            "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "False"}],
                "containerStatuses": [
                    {"name": "a", "ready": true, "restartCount": 0, "image": "", "imageID": "", "state": {"running": {}}},
                    {"name": "b", "ready": false, "restartCount": 0, "image": "", "imageID": "",
                        "state": {"terminated": {"exitCode": 0, "reason": "Completed"}}}]}
        }));
        assert_eq!((s.ready.as_str(), s.status.as_str()), ("1/2", "NotReady"));
    }

    #[test]
    fn print_pod_reports_scheduling_gated_from_the_condition_reason() {
        let s = summary(json!({
            "spec": {"containers": [{"name": "a"}]},
            "status": {"phase": "Pending",
                "conditions": [{"type": "PodScheduled", "status": "False", "reason": "SchedulingGated"}]}
        }));
        assert_eq!(s.status, "SchedulingGated");
    }

    #[test]
    fn format_event_source_falls_back_to_the_reporting_instance() {
        let e: Event = serde_json::from_value(json!({
            "metadata": {"name": "x.1"}, "involvedObject": {"kind": "Pod", "name": "x"},
            "reportingComponent": "kubelet", "reportingInstance": "worker"
        }))
        .expect("test event");
        let row = event_row(&e, true, "2024-05-01T12:00:00Z".parse().expect("time"));
        assert_eq!(row[5], "kubelet, worker");
    }
}
