//! Resource types: the names kubectl accepts for them (`ds`, `daemonsets.apps`, `po`, …) and the
//! names it prints (`daemonset.apps/x`, `daemonsets.apps "x" not found`).

use crate::parse::ParseError;

/// The kinds the playground serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Resource {
    DaemonSet,
    Pod,
    Node,
    ControllerRevision,
    Event,
}

/// Kinds a real cluster serves that the playground does not simulate.
const OTHER_RESOURCES: &[&str] = &[
    "deployments",
    "deployment",
    "deploy",
    "replicasets",
    "replicaset",
    "rs",
    "statefulsets",
    "statefulset",
    "sts",
    "services",
    "service",
    "svc",
    "configmaps",
    "configmap",
    "cm",
    "secrets",
    "secret",
    "namespaces",
    "namespace",
    "ns",
    "jobs",
    "job",
    "cronjobs",
    "cronjob",
    "cj",
    "ingresses",
    "ingress",
    "ing",
    "serviceaccounts",
    "serviceaccount",
    "sa",
    "endpoints",
    "ep",
    "pv",
    "pvc",
    "persistentvolumes",
    "persistentvolumeclaims",
    "all",
];

impl Resource {
    /// Resolves a type name the way kubectl's RESTMapper does for these kinds.
    pub fn from_name(name: &str) -> Result<Resource, ParseError> {
        let lower = name.to_ascii_lowercase();
        let r = match lower.as_str() {
            "ds" | "daemonset" | "daemonsets" | "daemonset.apps" | "daemonsets.apps"
            | "daemonsets.v1.apps" | "daemonset.v1.apps" => Resource::DaemonSet,
            "po" | "pod" | "pods" => Resource::Pod,
            "no" | "node" | "nodes" => Resource::Node,
            "controllerrevision"
            | "controllerrevisions"
            | "controllerrevision.apps"
            | "controllerrevisions.apps" => Resource::ControllerRevision,
            "ev" | "event" | "events" | "events.events.k8s.io" => Resource::Event,
            _ => {
                let err = ParseError::new(format!(
                    "error: the server doesn't have a resource type {name:?}"
                ));
                return Err(if OTHER_RESOURCES.contains(&lower.as_str()) {
                    err.hint("the playground simulates DaemonSets only: daemonsets (ds), pods (po), nodes (no), controllerrevisions and events (ev)")
                } else {
                    err.hint("resource types here: daemonsets (ds), pods (po), nodes (no), controllerrevisions, events (ev)")
                });
            }
        };
        Ok(r)
    }

    /// `daemonsets.apps`, as in `daemonsets.apps "x" not found`.
    pub fn plural(self) -> &'static str {
        match self {
            Resource::DaemonSet => "daemonsets.apps",
            Resource::Pod => "pods",
            Resource::Node => "nodes",
            Resource::ControllerRevision => "controllerrevisions.apps",
            Resource::Event => "events",
        }
    }

    /// `daemonset.apps`, as in `daemonset.apps/x created`.
    pub fn singular(self) -> &'static str {
        match self {
            Resource::DaemonSet => "daemonset.apps",
            Resource::Pod => "pod",
            Resource::Node => "node",
            Resource::ControllerRevision => "controllerrevision.apps",
            Resource::Event => "event",
        }
    }

    pub fn namespaced(self) -> bool {
        !matches!(self, Resource::Node)
    }
}

/// `TYPE NAME…`, `TYPE/NAME…` or `TYPE1,TYPE2`: the objects a command names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Targets {
    /// Types listed without names (`get ds,pods`).
    pub types: Vec<Resource>,
    /// Named objects.
    pub named: Vec<(Resource, String)>,
}

/// Reads the resource arguments of get/describe/delete.
pub fn targets(args: &[String]) -> Result<Targets, ParseError> {
    let Some(first) = args.first() else {
        return Ok(Targets {
            types: vec![],
            named: vec![],
        });
    };
    if first.contains('/') {
        let mut named = Vec::new();
        for a in args {
            let Some((t, n)) = a.split_once('/') else {
                return Err(ParseError::new(
                    "error: arguments in resource/name form must have a single resource and name",
                )
                .hint(format!("write `TYPE/NAME` for each object, e.g. `ds/{a}`")));
            };
            if n.is_empty() || n.contains('/') {
                return Err(ParseError::new(
                    "error: arguments in resource/name form must have a single resource and name",
                ));
            }
            named.push((Resource::from_name(t)?, n.to_string()));
        }
        return Ok(Targets {
            types: vec![],
            named,
        });
    }
    let types: Vec<Resource> = first
        .split(',')
        .filter(|s| !s.is_empty())
        .map(Resource::from_name)
        .collect::<Result<_, _>>()?;
    let names = &args[1..];
    if names.iter().any(|n| n.contains('/')) {
        return Err(ParseError::new("error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'"));
    }
    if names.is_empty() {
        return Ok(Targets {
            types,
            named: vec![],
        });
    }
    if types.len() > 1 {
        return Err(ParseError::new(
            "error: you may only specify a single resource type when naming objects",
        ));
    }
    let t = types.first().copied().unwrap_or(Resource::Pod);
    Ok(Targets {
        types: vec![],
        named: names.iter().map(|n| (t, n.clone())).collect(),
    })
}

/// One object named as `TYPE/NAME` or `TYPE NAME` (rollout, set, patch, label …).
pub fn single(
    args: &[String],
    verb: &str,
) -> Result<((Resource, String), Vec<String>), ParseError> {
    let Some(first) = args.first() else {
        return Err(ParseError::new(
            "error: you must provide one or more resources by argument or filename",
        )
        .hint(format!("name the DaemonSet: `kubectl {verb} ds/NAME`")));
    };
    if let Some((t, n)) = first.split_once('/') {
        return Ok(((Resource::from_name(t)?, n.to_string()), args[1..].to_vec()));
    }
    let r = Resource::from_name(first)?;
    match args.get(1) {
        Some(n) => Ok(((r, n.clone()), args[2..].to_vec())),
        None => Err(ParseError::new(format!(
            "error: you must specify the name of the {}",
            r.plural().split('.').next().unwrap_or("object")
        ))
        .hint(format!("e.g. `kubectl {verb} {}/NAME`", r.singular()))),
    }
}
