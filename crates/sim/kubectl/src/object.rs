//! One object of any kind the playground serves, with what every printer needs: name,
//! namespace, labels, JSON form. Listing sorts as the API server lists (namespace, then name).

use std::collections::BTreeMap;

use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
use k8s_openapi::api::core::v1::{Event, Node, Pod};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use crate::api::Api;
use crate::resource::Resource;

#[derive(Debug, Clone)]
pub enum Object {
    DaemonSet(DaemonSet),
    Pod(Pod),
    Node(Node),
    ControllerRevision(ControllerRevision),
    Event(Event),
}

impl Object {
    pub fn meta(&self) -> &ObjectMeta {
        match self {
            Object::DaemonSet(o) => &o.metadata,
            Object::Pod(o) => &o.metadata,
            Object::Node(o) => &o.metadata,
            Object::ControllerRevision(o) => &o.metadata,
            Object::Event(o) => &o.metadata,
        }
    }

    pub fn resource(&self) -> Resource {
        match self {
            Object::DaemonSet(_) => Resource::DaemonSet,
            Object::Pod(_) => Resource::Pod,
            Object::Node(_) => Resource::Node,
            Object::ControllerRevision(_) => Resource::ControllerRevision,
            Object::Event(_) => Resource::Event,
        }
    }

    pub fn name(&self) -> &str {
        self.meta().name.as_deref().unwrap_or("")
    }

    pub fn namespace(&self) -> &str {
        self.meta().namespace.as_deref().unwrap_or("")
    }

    pub fn labels(&self) -> Option<&BTreeMap<String, String>> {
        self.meta().labels.as_ref()
    }

    /// The object as the API server serializes it (with apiVersion and kind).
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Object::DaemonSet(o) => omit_empty_ds_status(codec::to_json(o)),
            Object::Pod(o) => codec::to_json(o),
            Object::Node(o) => codec::to_json(o),
            Object::ControllerRevision(o) => codec::to_json(o),
            Object::Event(o) => codec::to_json(o),
        }
    }
}

/// The API server serialises `DaemonSetStatus` with Go's `omitempty` on `observedGeneration`,
/// `updatedNumberScheduled`, `numberAvailable` and `numberUnavailable`: a zero is not sent, so
/// kubectl's `-o json|yaml|jsonpath` never shows it (`{.status.numberUnavailable}` prints nothing
/// once a rollout is done).
fn omit_empty_ds_status(mut v: serde_json::Value) -> serde_json::Value {
    if let Some(st) = v.get_mut("status").and_then(|s| s.as_object_mut()) {
        for k in [
            "observedGeneration",
            "updatedNumberScheduled",
            "numberAvailable",
            "numberUnavailable",
        ] {
            if st.get(k).and_then(serde_json::Value::as_i64) == Some(0) {
                st.remove(k);
            }
        }
    }
    v
}

/// Every object of a kind, sorted by namespace and name.
pub fn list(api: &dyn Api, r: Resource) -> Vec<Object> {
    fn all<T>(of_kind: Vec<T>, wrap: fn(T) -> Object) -> Vec<Object> {
        of_kind.into_iter().map(wrap).collect()
    }
    let mut v = match r {
        Resource::DaemonSet => all(api.daemon_sets(), Object::DaemonSet),
        Resource::Pod => all(api.pods(), Object::Pod),
        Resource::Node => all(api.nodes(), Object::Node),
        Resource::ControllerRevision => all(api.revisions(), Object::ControllerRevision),
        Resource::Event => all(api.events(), Object::Event),
    };
    sort::sort_by(&mut v, |a, b| {
        (a.namespace(), a.name()).cmp(&(b.namespace(), b.name()))
    });
    v
}

/// The object of a kind with this name (in `ns` unless cluster-scoped).
pub fn get(api: &dyn Api, r: Resource, ns: &str, name: &str) -> Option<Object> {
    list(api, r)
        .into_iter()
        .find(|o| o.name() == name && (!r.namespaced() || o.namespace() == ns))
}

pub fn get_daemon_set(api: &dyn Api, ns: &str, name: &str) -> Option<DaemonSet> {
    api.daemon_sets().into_iter().find(|d| {
        d.metadata.name.as_deref() == Some(name) && d.metadata.namespace.as_deref() == Some(ns)
    })
}

pub fn get_node(api: &dyn Api, name: &str) -> Option<Node> {
    api.nodes()
        .into_iter()
        .find(|n| n.metadata.name.as_deref() == Some(name))
}

/// `k=v,k2=v2` sorted, or `<none>` (`labels.FormatLabels`).
pub fn format_labels(labels: Option<&BTreeMap<String, String>>) -> String {
    match labels {
        Some(l) if !l.is_empty() => l
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(","),
        _ => "<none>".into(),
    }
}
