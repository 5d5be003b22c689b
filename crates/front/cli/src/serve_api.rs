//! `dsplay serve-api FILE [--at SECONDS] [--port N]`: the cluster a scenario leaves, frozen and
//! served read-only as a Kubernetes API on 127.0.0.1, so that a real kubectl can read it (and
//! the parity test can compare the real kubectl's output with ours on the same objects).
//!
//! What kubectl 1.37 asks of a server for `get` and `describe`, and what it gets here:
//! - discovery: it asks `/api` and `/apis` for the aggregated form first
//!   (`Accept: …;as=APIGroupDiscoveryList,application/json`) and falls back to the plain one,
//!   which is what we send (`APIVersions`, `APIGroupList`, then `APIResourceList` per group);
//! - `/version`; the OpenAPI documents are not served (404: `get` and `describe` do without);
//! - GET of one object or a list (namespaced or across namespaces) of pods, nodes, events,
//!   daemonsets and controllerrevisions, filtered by `labelSelector` and `fieldSelector` with
//!   kubectl's own selector parsers, encoded as the API server encodes them (`Object::to_json`,
//!   i.e. `codec::to_json`);
//! - `kubectl get` asks for a Table (`Accept: application/json;as=Table;…`): it has no printers
//!   of its own for these kinds, the server has. Its columns and cells come from our kubectl's
//!   printers (`kubectl::table_cells`), ages counted to the simulation's clock;
//! - writes and watches: 405 MethodNotAllowed, as a `Status`.
//!
//! Architecture invariant: the handler reads an immutable snapshot taken once; it never moves
//! the simulation, and it knows no printer or selector of its own.

use std::collections::BTreeMap;
use std::sync::Arc;

use httpd::{Request, Response, Server};
use k8s_base::{FieldSelector, Selector};
use k8s_openapi::jiff::Timestamp;
use kubectl::{Object, Resource};
use serde_json::{json, Map, Value};

use crate::commands::{load_with_nodes, NodesArg};
use crate::{emit, CliError, Verdict};

/// How a kind is served: its group, resource name, kind and short names (for discovery).
struct Kind {
    resource: Resource,
    group: &'static str,
    plural: &'static str,
    kind: &'static str,
    short_names: &'static [&'static str],
}

const KINDS: &[Kind] = &[
    Kind {
        resource: Resource::Pod,
        group: "",
        plural: "pods",
        kind: "Pod",
        short_names: &["po"],
    },
    Kind {
        resource: Resource::Node,
        group: "",
        plural: "nodes",
        kind: "Node",
        short_names: &["no"],
    },
    Kind {
        resource: Resource::Event,
        group: "",
        plural: "events",
        kind: "Event",
        short_names: &["ev"],
    },
    Kind {
        resource: Resource::DaemonSet,
        group: "apps",
        plural: "daemonsets",
        kind: "DaemonSet",
        short_names: &["ds"],
    },
    Kind {
        resource: Resource::ControllerRevision,
        group: "apps",
        plural: "controllerrevisions",
        kind: "ControllerRevision",
        short_names: &[],
    },
];

impl Kind {
    fn group_version(&self) -> &'static str {
        if self.group.is_empty() {
            "v1"
        } else {
            "apps/v1"
        }
    }

    /// `pods` or `daemonsets.apps`, as in `daemonsets.apps "x" not found`.
    fn qualified(&self) -> String {
        if self.group.is_empty() {
            self.plural.to_string()
        } else {
            format!("{}.{}", self.plural, self.group)
        }
    }
}

/// The cluster as served: every object with its JSON form, and the clock tables count ages to.
pub struct Snapshot {
    now: Timestamp,
    objects: BTreeMap<Resource, Vec<(Object, Value)>>,
    /// The nodes' Leases in `kube-node-lease` (name, JSON): `describe node` reads them.
    leases: Vec<(String, Value)>,
    resource_version: String,
}

impl Snapshot {
    pub fn of(api: &dyn kubectl::Api) -> Snapshot {
        let mut objects = BTreeMap::new();
        let mut latest: u64 = 0;
        for k in KINDS {
            let items: Vec<(Object, Value)> = kubectl::list_objects(api, k.resource)
                .into_iter()
                .map(|o| {
                    let json = o.to_json();
                    (o, json)
                })
                .collect();
            for (o, _) in &items {
                let rv = o.meta().resource_version.as_deref().unwrap_or("0");
                latest = latest.max(rv.parse().unwrap_or(0));
            }
            objects.insert(k.resource, items);
        }
        let leases = api
            .nodes()
            .iter()
            .filter_map(|n| n.metadata.name.clone())
            .filter_map(|n| {
                let lease = api.node_lease(&n)?;
                let mut json = codec::to_json(&lease);
                json["kind"] = Value::String("Lease".into());
                json["apiVersion"] = Value::String("coordination.k8s.io/v1".into());
                Some((n, json))
            })
            .collect();
        Snapshot {
            now: api.now(),
            objects,
            leases,
            resource_version: latest.to_string(),
        }
    }

    /// The response to one request.
    pub fn answer(&self, req: &Request) -> Response {
        if req.method != "GET" && req.method != "HEAD" {
            return status(
                405,
                "MethodNotAllowed",
                "the server does not allow this method on the requested resource: \
                 dsplay serve-api serves a simulation read-only",
            );
        }
        let Some(path) = req.path() else {
            return status(400, "BadRequest", "the request path is not valid UTF-8");
        };
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        match segments.as_slice() {
            ["api"] => ok(json!({
                "kind": "APIVersions",
                "versions": ["v1"],
                "serverAddressByClientCIDRs": [],
            })),
            ["apis"] => ok(json!({
                "kind": "APIGroupList",
                "apiVersion": "v1",
                "groups": [{
                    "name": "apps",
                    "versions": [{"groupVersion": "apps/v1", "version": "v1"}],
                    "preferredVersion": {"groupVersion": "apps/v1", "version": "v1"},
                }],
            })),
            ["api", "v1"] => ok(resource_list("")),
            ["apis", "apps", "v1"] => ok(resource_list("apps")),
            ["version"] => ok(json!({
                "major": "1",
                "minor": "37",
                "gitVersion": concat!("v1.37.0-dsplay.", env!("CARGO_PKG_VERSION")),
                "gitCommit": "",
                "gitTreeState": "clean",
                "buildDate": "1970-01-01T00:00:00Z",
                "goVersion": "",
                "compiler": "dsplay",
                "platform": "linux/amd64",
            })),
            ["api", "v1", rest @ ..] => self.resource(req, "", rest),
            ["apis", "apps", "v1", rest @ ..] => self.resource(req, "apps", rest),
            ["apis", "coordination.k8s.io", "v1", "namespaces", "kube-node-lease", "leases", name] => {
                match self.leases.iter().find(|(n, _)| n == name) {
                    Some((_, json)) => ok(json.clone()),
                    None => {
                        let mut body = status_body(
                            404,
                            "NotFound",
                            &format!("leases.coordination.k8s.io \"{name}\" not found"),
                        );
                        body["details"] =
                            json!({"name": name, "group": "coordination.k8s.io", "kind": "leases"});
                        respond(404, body)
                    }
                }
            }
            _ => not_found_path(),
        }
    }

    /// `[namespaces/NS/]PLURAL[/NAME]` under a group.
    fn resource(&self, req: &Request, group: &str, rest: &[&str]) -> Response {
        let (namespace, plural, name) = match rest {
            ["namespaces", ns, plural] => (Some(*ns), *plural, None),
            ["namespaces", ns, plural, name] => (Some(*ns), *plural, Some(*name)),
            [plural] => (None, *plural, None),
            [plural, name] => (None, *plural, Some(*name)),
            _ => return not_found_path(),
        };
        let Some(kind) = KINDS
            .iter()
            .find(|k| k.group == group && k.plural == plural)
        else {
            return not_found_path();
        };
        // A namespaced kind is listed across namespaces without one, but named only within one.
        let namespaced = kind.resource.namespaced();
        let misaddressed = matches!(
            (namespaced, namespace, name),
            (false, Some(_), _) | (true, None, Some(_))
        );
        if misaddressed {
            return not_found_path();
        }
        if matches!(req.query_value("watch").as_deref(), Some("true" | "1")) {
            return status(
                405,
                "MethodNotAllowed",
                "watch is not supported: dsplay serve-api serves a frozen snapshot",
            );
        }
        let all = self
            .objects
            .get(&kind.resource)
            .map_or(&[][..], Vec::as_slice);
        let in_namespace = |o: &Object| namespace.is_none_or(|ns| o.namespace() == ns);
        let table = wants_table(req);
        if let Some(name) = name {
            return match all
                .iter()
                .find(|(o, _)| o.name() == name && in_namespace(o))
            {
                Some(item) if table => ok(self.table(req, kind, std::slice::from_ref(item))),
                Some((_, json)) => ok(json.clone()),
                None => {
                    let mut details = json!({"name": name, "kind": kind.plural});
                    if !kind.group.is_empty() {
                        details["group"] = Value::String(kind.group.into());
                    }
                    let mut body = status_body(
                        404,
                        "NotFound",
                        &format!("{} \"{name}\" not found", kind.qualified()),
                    );
                    body["details"] = details;
                    respond(404, body)
                }
            };
        }
        let labels = match Selector::parse(&req.query_value("labelSelector").unwrap_or_default()) {
            Ok(l) => l,
            Err(e) => return status(400, "BadRequest", &e),
        };
        let fields = match FieldSelector::parse(
            &req.query_value("fieldSelector").unwrap_or_default(),
            kubectl::field_labels(kind.resource),
        ) {
            Ok(f) => f,
            Err(e) => return status(400, "BadRequest", &e),
        };
        let items: Vec<(Object, Value)> = all
            .iter()
            .filter(|(o, json)| {
                in_namespace(o) && labels.matches(o.labels()) && fields.matches(json)
            })
            .cloned()
            .collect();
        if table {
            return ok(self.table(req, kind, &items));
        }
        let mut list = Map::new();
        list.insert("kind".into(), Value::String(format!("{}List", kind.kind)));
        list.insert(
            "apiVersion".into(),
            Value::String(kind.group_version().into()),
        );
        list.insert(
            "metadata".into(),
            json!({"resourceVersion": self.resource_version}),
        );
        list.insert(
            "items".into(),
            Value::Array(items.into_iter().map(|(_, json)| json).collect()),
        );
        ok(Value::Object(list))
    }

    /// A `meta.k8s.io/v1` Table of the objects, with each row's object as `includeObject` asks
    /// (`Metadata` by default, `Object`, or `None`).
    fn table(&self, req: &Request, kind: &Kind, items: &[(Object, Value)]) -> Value {
        let columns: Vec<Value> = kubectl::table_columns(kind.resource)
            .iter()
            .map(|c| {
                json!({
                    "name": c.name,
                    "type": if c.integer { "integer" } else { "string" },
                    "format": if c.name == "NAME" { "name" } else { "" },
                    "description": "",
                    "priority": c.priority,
                })
            })
            .collect();
        let integer: Vec<bool> = kubectl::table_columns(kind.resource)
            .iter()
            .map(|c| c.integer)
            .collect();
        let include = req
            .query_value("includeObject")
            .unwrap_or_else(|| "Metadata".into());
        let rows: Vec<Value> = items
            .iter()
            .map(|(o, json)| {
                let cells: Vec<Value> = kubectl::table_cells(o, self.now)
                    .into_iter()
                    .zip(&integer)
                    .map(|(cell, &int)| match cell.parse::<i64>() {
                        Ok(n) if int => Value::from(n),
                        _ => Value::String(cell),
                    })
                    .collect();
                let mut row = Map::new();
                row.insert("cells".into(), Value::Array(cells));
                match include.as_str() {
                    "None" => {}
                    "Object" => {
                        row.insert("object".into(), json.clone());
                    }
                    _ => {
                        row.insert(
                            "object".into(),
                            json!({
                                "kind": "PartialObjectMetadata",
                                "apiVersion": "meta.k8s.io/v1",
                                "metadata": json.get("metadata").cloned().unwrap_or(Value::Null),
                            }),
                        );
                    }
                }
                Value::Object(row)
            })
            .collect();
        json!({
            "kind": "Table",
            "apiVersion": "meta.k8s.io/v1",
            "metadata": {"resourceVersion": self.resource_version},
            "columnDefinitions": columns,
            "rows": rows,
        })
    }
}

/// kubectl asks for a Table with `Accept: application/json;as=Table;v=v1;g=meta.k8s.io,…`.
fn wants_table(req: &Request) -> bool {
    req.header("accept").is_some_and(|accept| {
        accept.split(',').any(|t| {
            let params: Vec<&str> = t.split(';').map(str::trim).collect();
            params.contains(&"as=Table") && params.contains(&"g=meta.k8s.io")
        })
    })
}

fn resource_list(group: &str) -> Value {
    let resources: Vec<Value> = KINDS
        .iter()
        .filter(|k| k.group == group)
        .map(|k| {
            json!({
                "name": k.plural,
                "singularName": k.kind.to_ascii_lowercase(),
                "namespaced": k.resource.namespaced(),
                "kind": k.kind,
                "verbs": ["get", "list"],
                "shortNames": k.short_names,
            })
        })
        .collect();
    json!({
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": if group.is_empty() { "v1" } else { "apps/v1" },
        "resources": resources,
    })
}

fn ok(body: Value) -> Response {
    Response::new(200, "OK", "application/json", body.to_string().into_bytes())
}

fn reason_phrase(code: u16) -> &'static str {
    match code {
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        _ => "Error",
    }
}

/// A `Status` failure, as the API server sends it.
fn status(code: u16, reason: &str, message: &str) -> Response {
    respond(code, status_body(code, reason, message))
}

fn status_body(code: u16, reason: &str, message: &str) -> Value {
    json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
        "code": code,
    })
}

fn respond(code: u16, body: Value) -> Response {
    Response::new(
        code,
        reason_phrase(code),
        "application/json",
        body.to_string().into_bytes(),
    )
}

fn not_found_path() -> Response {
    status(
        404,
        "NotFound",
        "the server could not find the requested resource",
    )
}

/// `dsplay serve-api`: runs the scenario, prints the address, serves until killed.
pub fn serve(
    file: &str,
    at: Option<f64>,
    port: u16,
    nodes: &NodesArg,
) -> Result<Verdict, CliError> {
    let s = load_with_nodes(file, nodes)?;
    let session = scenario::session_at(&s, at)?;
    let snapshot = Arc::new(Snapshot::of(&session));
    let elapsed = session.cluster.elapsed_seconds();
    let server = Server::start(port, move |req| snapshot.answer(req)).map_err(|e| {
        CliError::new(format!("cannot listen on 127.0.0.1:{port}: {e}"))
            .hint("pick another --port, or --port 0 for any free one")
    })?;
    emit(&format!(
        "serving {file} at t={elapsed:.1}s on http://{}\n  kubectl --server http://{} get pods -o wide\nCtrl-C stops.\n",
        server.addr(),
        server.addr()
    ));
    loop {
        std::thread::park();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot() -> Snapshot {
        let preset = scenario::presets::ALL
            .iter()
            .find(|p| p.id == "f4-rolling-update-max-unavailable-1")
            .expect("the F-4 preset");
        let s = scenario::parse(preset.file, preset.text).expect("parse");
        Snapshot::of(&scenario::session_at(&s, None).expect("run"))
    }

    fn get(snap: &Snapshot, method: &str, target: &str, accept: &str) -> (u16, Value) {
        let req = Request {
            method: method.into(),
            target: target.into(),
            headers: vec![("accept".into(), accept.into())],
        };
        let r = snap.answer(&req);
        (r.status, serde_json::from_slice(&r.body).expect("JSON"))
    }

    #[test]
    fn lists_filter_by_namespace_and_selectors_and_errors_are_statuses() {
        let snap = snapshot();
        let (code, pods) = get(&snap, "GET", "/api/v1/namespaces/default/pods", "");
        assert_eq!((code, pods["kind"].as_str()), (200, Some("PodList")));
        let all = pods["items"].as_array().map_or(0, Vec::len);
        assert!(all > 1);
        let node = pods["items"][0]["spec"]["nodeName"].as_str().unwrap_or("");
        let (_, one) = get(
            &snap,
            "GET",
            &format!("/api/v1/pods?fieldSelector=spec.nodeName%3D{node}"),
            "",
        );
        assert_eq!(one["items"].as_array().map(Vec::len), Some(1));
        let (_, none) = get(&snap, "GET", "/api/v1/namespaces/other/pods", "");
        assert_eq!(none["items"].as_array().map(Vec::len), Some(0));

        let (code, bad) = get(&snap, "GET", "/api/v1/pods?fieldSelector=spec.x%3Dy", "");
        assert_eq!((code, bad["reason"].as_str()), (400, Some("BadRequest")));
        assert_eq!(bad["message"], "field label not supported: spec.x");
        let (code, missing) = get(
            &snap,
            "GET",
            "/apis/apps/v1/namespaces/default/daemonsets/x",
            "",
        );
        assert_eq!(code, 404);
        assert_eq!(missing["message"], "daemonsets.apps \"x\" not found");
        assert_eq!(missing["details"]["group"], "apps");
        let (code, refused) = get(&snap, "DELETE", "/api/v1/nodes/worker", "");
        assert_eq!(
            (code, refused["reason"].as_str()),
            (405, Some("MethodNotAllowed"))
        );
        let (code, _) = get(&snap, "GET", "/api/v1/namespaces/default/nodes", "");
        assert_eq!(code, 404, "nodes are cluster-scoped");
    }

    #[test]
    fn kubectl_get_receives_a_table_with_wide_columns_at_priority_one() {
        let snap = snapshot();
        let accept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
        let (code, table) = get(&snap, "GET", "/apis/apps/v1/daemonsets", accept);
        assert_eq!((code, table["kind"].as_str()), (200, Some("Table")));
        let columns = table["columnDefinitions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let desired = columns.iter().find(|c| c["name"] == "DESIRED");
        assert_eq!(desired.map(|c| c["type"].clone()), Some(json!("integer")));
        let images = columns.iter().find(|c| c["name"] == "IMAGES");
        assert_eq!(images.map(|c| c["priority"].clone()), Some(json!(1)));
        let row = &table["rows"][0];
        assert!(row["cells"][1].is_number(), "{row}");
        assert_eq!(row["object"]["kind"], "PartialObjectMetadata");
        let (_, discovery) = get(&snap, "GET", "/api/v1", "");
        assert!(discovery["resources"].as_array().is_some_and(|r| r
            .iter()
            .any(|r| r["name"] == "pods" && r["namespaced"] == true)));
    }
}
