//! Commands that write: `delete`, `label`, `taint`, `cordon`/`uncordon`, `drain`, `set image`,
//! `set env` (`apply`/`create -f` are `crate::apply`). Messages as `pkg/cmd/*` prints them.

use std::collections::BTreeMap;

use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::{EnvVar, Node, Pod, Taint};

use crate::api::{Api, ApiError, Cascade};
use crate::object;
use crate::parse::Command;
use crate::resource::{self, Resource};
use crate::{CommandResult, Fail};

/// kubectl's answer to `delete` with nothing to delete named.
const NO_RESOURCES: &str = "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'";

pub(crate) fn delete(api: &mut dyn Api, cmd: &Command) -> Result<CommandResult, Fail> {
    let mut res = CommandResult::default();
    let cascade = match cmd.flag("cascade").unwrap_or("background") {
        "background" => Cascade::Background,
        "foreground" => Cascade::Foreground,
        "orphan" => Cascade::Orphan,
        "true" => {
            res.stderr.push_str("warning: --cascade=true is deprecated (boolean value) and can be replaced with --cascade=background.\n");
            Cascade::Background
        }
        "false" => {
            res.stderr.push_str("warning: --cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan.\n");
            Cascade::Orphan
        }
        other => {
            return Err(Fail::new(format!(
                "error: invalid cascade value ({other}). Must be \"background\", \"foreground\", or \"orphan\"."
            )))
        }
    };
    if !cmd.flag_all("filename").is_empty() {
        return Err(
            Fail::new("error: delete -f is not available in this playground")
                .hint("delete by name: `kubectl delete ds NAME`"),
        );
    }
    let targets = resource::targets(&cmd.args)?;
    let ns = cmd.namespace().to_string();
    let mut named = targets.named.clone();
    // `--all` is the selector that matches everything of the types named.
    let selecting =
        cmd.is_set("all") || cmd.flag("selector").is_some() || cmd.flag("field-selector").is_some();
    if selecting && targets.types.is_empty() && named.is_empty() {
        return Err(Fail::new(NO_RESOURCES).hint(
            "name the type: `kubectl delete pods --all` or `kubectl delete pods -l app=NAME`",
        ));
    }
    if selecting {
        let sel = k8s_base::Selector::parse(cmd.flag("selector").unwrap_or(""))
            .map_err(|e| Fail::new(format!("error: {e}")))?;
        for r in &targets.types {
            let supported = crate::get::field_labels(*r);
            let fields =
                k8s_base::FieldSelector::parse(cmd.flag("field-selector").unwrap_or(""), supported)
                    .map_err(|e| {
                        Fail::new(format!("Error from server (BadRequest): {e}")).hint(format!(
                            "field selectors for {}: {}",
                            r.plural(),
                            supported.join(", ")
                        ))
                    })?;
            for o in object::list(api, *r) {
                if (!r.namespaced() || o.namespace() == ns)
                    && sel.matches(o.labels())
                    && fields.matches(&o.to_json())
                {
                    named.push((*r, o.name().to_string()));
                }
            }
        }
        if named.is_empty() {
            res.stderr.push_str("No resources found\n");
            return Ok(res);
        }
    } else if named.is_empty() {
        return Err(Fail::new(if targets.types.is_empty() {
            NO_RESOURCES.to_string()
        } else {
            "error: resource(s) were provided, but no name was specified".to_string()
        })
        .hint("name what to delete: `kubectl delete ds NAME`, `kubectl delete pod NAME`"));
    }
    let ignore = cmd.is_set("ignore-not-found");
    for (r, name) in named {
        let result = match r {
            Resource::DaemonSet => api.delete_daemon_set(&ns, &name, cascade),
            Resource::Pod => api.delete_pod(&ns, &name),
            Resource::Node => api.delete_node(&name),
            other => {
                res.fail(
                    Fail::new(format!(
                        "error: deleting {} is not available in this playground",
                        other.plural()
                    ))
                    .hint("the controllers own ControllerRevisions and Events; delete the DaemonSet instead"),
                );
                continue;
            }
        };
        match result {
            Ok(()) => res
                .stdout
                .push_str(&format!("{} {name:?} deleted\n", r.singular())),
            Err(ApiError::NotFound { .. }) if ignore => {}
            Err(e) => res.fail(e.into()),
        }
    }
    Ok(res)
}

/// A node named by `NAME` or `node/NAME`.
fn node_arg(args: &[String], verb: &str) -> Result<(String, Vec<String>), Fail> {
    let Some(first) = args.first() else {
        return Err(Fail::new(format!(
            "error: USAGE: {verb} NODE [flags]\nSee 'kubectl {verb} -h' for help and examples"
        ))
        .hint(format!("name a node: `kubectl {verb} worker`")));
    };
    if let Some((t, n)) = first.split_once('/') {
        if resource::Resource::from_name(t)? != Resource::Node {
            return Err(Fail::new(format!("error: {verb} only applies to nodes")));
        }
        return Ok((n.to_string(), args[1..].to_vec()));
    }
    if matches!(first.as_str(), "node" | "nodes" | "no") {
        return match args.get(1) {
            Some(n) => Ok((n.clone(), args[2..].to_vec())),
            None => Err(Fail::new(
                "error: resource(s) were provided, but no name was specified",
            )),
        };
    }
    Ok((first.clone(), args[1..].to_vec()))
}

fn find_node(api: &dyn Api, name: &str) -> Result<Node, Fail> {
    object::get_node(api, name).ok_or_else(|| ApiError::not_found("nodes", name).into())
}

pub(crate) fn label(api: &mut dyn Api, cmd: &Command) -> Result<CommandResult, Fail> {
    let ((r, name), rest) = resource::single(&cmd.args, "label")?;
    if rest.is_empty() {
        return Err(
            Fail::new("error: at least one label update is required").hint(format!(
                "e.g. `kubectl label {} {name} disk=ssd` or `disk-` to remove",
                r.singular().split('.').next().unwrap_or("")
            )),
        );
    }
    let mut add: Vec<(String, String)> = Vec::new();
    let mut remove: Vec<String> = Vec::new();
    for a in &rest {
        if let Some((k, v)) = a.split_once('=') {
            add.push((k.to_string(), v.to_string()));
        } else if let Some(k) = a.strip_suffix('-') {
            remove.push(k.to_string());
        } else {
            return Err(Fail::new(format!("error: invalid label spec: {a}"))
                .hint("labels are `key=value` to set or `key-` to remove"));
        }
    }
    let overwrite = cmd.is_set("overwrite");
    let ns = cmd.namespace().to_string();
    let mut out = CommandResult::default();
    let edit = |labels: &mut Option<BTreeMap<String, String>>,
                out: &mut CommandResult|
     -> Result<(), Fail> {
        let l = labels.get_or_insert_with(BTreeMap::new);
        for (k, v) in &add {
            if let Some(old) = l.get(k) {
                if !overwrite && old != v {
                    return Err(Fail::new(format!(
                        "error: '{k}' already has a value ({old}), and --overwrite is false"
                    ))
                    .hint(format!("add --overwrite to replace the value of {k:?}")));
                }
            }
        }
        for k in &remove {
            if l.remove(k).is_none() {
                out.stdout.push_str(&format!("label {k:?} not found.\n"));
            }
        }
        for (k, v) in &add {
            l.insert(k.clone(), v.clone());
        }
        if l.is_empty() {
            *labels = None;
        }
        Ok(())
    };
    let (before, after) = match r {
        Resource::Node => {
            let mut n = find_node(api, &name)?;
            let before = n.metadata.labels.clone();
            edit(&mut n.metadata.labels, &mut out)?;
            let after = n.metadata.labels.clone();
            if before != after {
                api.update_node(n)?;
            }
            (before, after)
        }
        Resource::DaemonSet => {
            let mut d = object::get_daemon_set(api, &ns, &name)
                .ok_or_else(|| Fail::from(ApiError::not_found(r.plural(), &name)))?;
            let before = d.metadata.labels.clone();
            edit(&mut d.metadata.labels, &mut out)?;
            let after = d.metadata.labels.clone();
            if before != after {
                api.update_daemon_set(d)?;
            }
            (before, after)
        }
        Resource::Pod => {
            let mut p: Pod = match object::get(api, r, &ns, &name) {
                Some(object::Object::Pod(p)) => p,
                _ => return Err(ApiError::not_found(r.plural(), &name).into()),
            };
            let before = p.metadata.labels.clone();
            edit(&mut p.metadata.labels, &mut out)?;
            let after = p.metadata.labels.clone();
            if before != after {
                api.update_pod(p)?;
            }
            (before, after)
        }
        other => {
            return Err(Fail::new(format!(
                "error: labelling {} is not available in this playground",
                other.plural()
            )))
        }
    };
    let size = |l: &Option<BTreeMap<String, String>>| codec::to_json(l).to_string().len();
    let msg = if before == after {
        "not labeled"
    } else if !overwrite && size(&after) < size(&before) {
        "unlabeled"
    } else {
        "labeled"
    };
    out.stdout
        .push_str(&format!("{}/{name} {msg}\n", r.singular()));
    Ok(out)
}

const EFFECTS: &[&str] = &["NoSchedule", "PreferNoSchedule", "NoExecute"];

fn parse_taint(spec: &str) -> Result<Taint, Fail> {
    let bad = || {
        Fail::new(format!("error: invalid taint spec: {spec}"))
            .hint("taints look like `key=value:NoSchedule`, `key:NoExecute`; remove with `key:NoSchedule-` or `key-`")
    };
    let (kv, effect) = spec.rsplit_once(':').ok_or_else(bad)?;
    let (key, value) = match kv.split_once('=') {
        Some((k, v)) => (k, Some(v.to_string())),
        None => (kv, None),
    };
    if key.is_empty() {
        return Err(bad());
    }
    if !EFFECTS.contains(&effect) {
        return Err(Fail::new(format!(
            "error: invalid taint effect: {effect}, unsupported taint effect"
        ))
        .hint("effects are NoSchedule, PreferNoSchedule and NoExecute"));
    }
    Ok(Taint {
        key: key.to_string(),
        value,
        effect: effect.to_string(),
        time_added: None,
    })
}

pub(crate) fn taint(api: &mut dyn Api, cmd: &Command) -> Result<CommandResult, Fail> {
    let (name, specs) = node_arg(&cmd.args, "taint")?;
    if specs.is_empty() {
        return Err(Fail::new("error: at least one taint update is required")
            .hint("e.g. `kubectl taint node worker dedicated=gpu:NoSchedule`"));
    }
    let mut node = find_node(api, &name)?;
    let mut taints = node
        .spec
        .as_ref()
        .and_then(|s| s.taints.clone())
        .unwrap_or_default();
    let overwrite = cmd.is_set("overwrite");
    let mut removed_any = false;
    let mut added_any = false;
    for spec in &specs {
        if let Some(rm) = spec.strip_suffix('-') {
            let (key, effect) = match rm.split_once(':') {
                Some((k, e)) => (k.split('=').next().unwrap_or(k), Some(e)),
                None => (rm.split('=').next().unwrap_or(rm), None),
            };
            let before = taints.len();
            taints.retain(|t| !(t.key == key && effect.is_none_or(|e| t.effect == e)));
            if taints.len() == before {
                let what = match effect {
                    Some(e) => format!("{key}:{e}"),
                    None => key.to_string(),
                };
                return Err(
                    Fail::new(format!("error: taint {what:?} not found")).hint(format!(
                        "see the node's taints with `kubectl describe node {name}`"
                    )),
                );
            }
            removed_any = true;
        } else {
            let t = parse_taint(spec)?;
            if let Some(existing) = taints
                .iter_mut()
                .find(|x| x.key == t.key && x.effect == t.effect)
            {
                if !overwrite {
                    return Err(Fail::new(format!(
                        "error: node {name} already has {} taint(s) with same effect(s) and --overwrite is false",
                        t.key
                    ))
                    .hint("add --overwrite to change the value"));
                }
                *existing = t;
            } else {
                taints.push(t);
            }
            added_any = true;
        }
    }
    let spec = node.spec.get_or_insert_with(Default::default);
    spec.taints = if taints.is_empty() {
        None
    } else {
        Some(taints)
    };
    api.update_node(node)?;
    let msg = if removed_any && !added_any {
        "untainted"
    } else if added_any && !removed_any {
        "tainted"
    } else {
        "modified"
    };
    Ok(CommandResult::out(format!("node/{name} {msg}\n")))
}

pub(crate) fn cordon(api: &mut dyn Api, cmd: &Command, on: bool) -> Result<CommandResult, Fail> {
    let verb = if on { "cordon" } else { "uncordon" };
    let (name, _) = node_arg(&cmd.args, verb)?;
    let mut out = CommandResult::default();
    set_unschedulable(api, &name, on, &mut out)?;
    Ok(out)
}

fn set_unschedulable(
    api: &mut dyn Api,
    name: &str,
    on: bool,
    out: &mut CommandResult,
) -> Result<(), Fail> {
    let mut node = find_node(api, name)?;
    let word = if on { "cordoned" } else { "uncordoned" };
    let current = node
        .spec
        .as_ref()
        .and_then(|s| s.unschedulable)
        .unwrap_or(false);
    if current == on {
        out.stdout
            .push_str(&format!("node/{name} already {word}\n"));
        return Ok(());
    }
    node.spec.get_or_insert_with(Default::default).unschedulable =
        if on { Some(true) } else { None };
    api.update_node(node)?;
    out.stdout.push_str(&format!("node/{name} {word}\n"));
    Ok(())
}

fn controller_kind(p: &Pod) -> Option<&str> {
    p.metadata
        .owner_references
        .iter()
        .flatten()
        .find(|o| o.controller == Some(true))
        .map(|o| o.kind.as_str())
}

fn pod_key(p: &Pod) -> String {
    format!(
        "{}/{}",
        p.metadata.namespace.as_deref().unwrap_or(""),
        p.metadata.name.as_deref().unwrap_or("")
    )
}

pub(crate) fn drain(api: &mut dyn Api, cmd: &Command) -> Result<CommandResult, Fail> {
    let (name, _) = node_arg(&cmd.args, "drain")?;
    let mut out = CommandResult::default();
    set_unschedulable(api, &name, true, &mut out)?;
    let pods: Vec<Pod> = api
        .pods()
        .into_iter()
        .filter(|p| p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(name.as_str()))
        .filter(|p| {
            !matches!(
                p.status.as_ref().and_then(|s| s.phase.as_deref()),
                Some("Succeeded") | Some("Failed")
            )
        })
        .collect();
    let mut ds_pods = Vec::new();
    let mut bare = Vec::new();
    let mut local = Vec::new();
    let mut evict = Vec::new();
    for p in &pods {
        if controller_kind(p) == Some("DaemonSet") {
            ds_pods.push(pod_key(p));
            continue;
        }
        if controller_kind(p).is_none() && !cmd.is_set("force") {
            bare.push(pod_key(p));
            continue;
        }
        let has_empty_dir = p
            .spec
            .as_ref()
            .and_then(|s| s.volumes.as_ref())
            .is_some_and(|v| v.iter().any(|v| v.empty_dir.is_some()));
        if has_empty_dir && !cmd.is_set("delete-emptydir-data") {
            local.push(pod_key(p));
            continue;
        }
        evict.push(p.clone());
    }
    let mut errors = Vec::new();
    if !ds_pods.is_empty() && !cmd.is_set("ignore-daemonsets") {
        errors.push(format!(
            "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): {}",
            ds_pods.join(", ")
        ));
    }
    if !bare.is_empty() {
        errors.push(format!(
            "cannot delete Pods that declare no controller (use --force to override): {}",
            bare.join(", ")
        ));
    }
    if !local.is_empty() {
        errors.push(format!(
            "cannot delete Pods with local storage (use --delete-emptydir-data to override): {}",
            local.join(", ")
        ));
    }
    if !errors.is_empty() {
        let all = errors.join(", ");
        out.stderr.push_str(&format!(
            "error: unable to drain node {name:?} due to error: {all}, continuing command...\nThere are pending nodes to be drained:\n {name}\n"
        ));
        for e in &errors {
            out.stderr.push_str(e);
            out.stderr.push('\n');
        }
        out.exit_code = 1;
        out.hint = Some(if ds_pods.is_empty() {
            "add the flag the message names, or move those pods first".into()
        } else {
            "DaemonSet pods tolerate `unschedulable` and would come straight back; drain with --ignore-daemonsets".into()
        });
        return Ok(out);
    }
    if !ds_pods.is_empty() {
        out.stderr.push_str(&format!(
            "Warning: ignoring DaemonSet-managed Pods: {}\n",
            ds_pods.join(", ")
        ));
    }
    for p in &evict {
        out.stdout
            .push_str(&format!("evicting pod {}\n", pod_key(p)));
    }
    for p in &evict {
        let ns = p.metadata.namespace.as_deref().unwrap_or("");
        let pn = p.metadata.name.as_deref().unwrap_or("");
        match api.evict_pod(ns, pn) {
            Ok(()) => out.stdout.push_str(&format!("pod/{pn} evicted\n")),
            Err(e) => {
                out.fail(e.into());
                return Ok(out);
            }
        }
    }
    out.stdout.push_str(&format!("node/{name} drained\n"));
    Ok(out)
}

/// The DaemonSet named `ds/NAME` (or `daemonset NAME`) for `set`.
fn set_target(api: &dyn Api, cmd: &Command, verb: &str) -> Result<(DaemonSet, Vec<String>), Fail> {
    let ((r, name), rest) = resource::single(&cmd.args, verb)?;
    if r != Resource::DaemonSet {
        return Err(Fail::new(format!(
            "error: {verb} is only available for DaemonSets in this playground"
        ))
        .hint(format!("`kubectl {verb} ds/NAME …`")));
    }
    let ds = object::get_daemon_set(api, cmd.namespace(), &name)
        .ok_or_else(|| Fail::from(ApiError::not_found(r.plural(), &name)))?;
    Ok((ds, rest))
}

pub(crate) fn set_image(api: &mut dyn Api, cmd: &Command) -> Result<CommandResult, Fail> {
    let (mut ds, rest) = set_target(api, cmd, "set image")?;
    if rest.is_empty() {
        return Err(Fail::new("error: at least one image update is required")
            .hint("e.g. `kubectl set image ds/NAME app=nginx:1.27`"));
    }
    let name = ds.metadata.name.clone().unwrap_or_default();
    let before = codec::to_json(&ds.spec);
    let Some(pod_spec) = ds.spec.template.spec.as_mut() else {
        return Err(Fail::new("error: the DaemonSet has no pod template"));
    };
    for a in &rest {
        let Some((container, image)) = a.split_once('=') else {
            return Err(Fail::new(format!(
                "error: invalid image update {a:?}, expected CONTAINER=IMAGE"
            ))
            .hint("e.g. `kubectl set image ds/NAME app=nginx:1.27`"));
        };
        let mut found = false;
        for c in pod_spec
            .containers
            .iter_mut()
            .chain(pod_spec.init_containers.iter_mut().flatten())
        {
            if container == "*" || c.name == container {
                c.image = Some(image.to_string());
                found = true;
            }
        }
        if !found {
            let names: Vec<&str> = pod_spec
                .containers
                .iter()
                .map(|c| c.name.as_str())
                .collect();
            return Err(Fail::new(format!(
                "error: unable to find container named {container:?}"
            ))
            .hint(format!("containers in ds/{name}: {}", names.join(", "))));
        }
    }
    if codec::to_json(&ds.spec) == before {
        return Ok(CommandResult::default());
    }
    api.update_daemon_set(ds)?;
    Ok(CommandResult::out(format!(
        "daemonset.apps/{name} image updated\n"
    )))
}

pub(crate) fn set_env(api: &mut dyn Api, cmd: &Command) -> Result<CommandResult, Fail> {
    let (mut ds, rest) = set_target(api, cmd, "set env")?;
    if rest.is_empty() {
        return Err(
            Fail::new("error: at least one environment variable must be provided")
                .hint("e.g. `kubectl set env ds/NAME FOO=bar`, or `FOO-` to remove"),
        );
    }
    let name = ds.metadata.name.clone().unwrap_or_default();
    let selector = cmd.flag("container").unwrap_or("*").to_string();
    let mut set: Vec<(String, String)> = Vec::new();
    let mut unset: Vec<String> = Vec::new();
    for a in &rest {
        if let Some((k, v)) = a.split_once('=') {
            set.push((k.to_string(), v.to_string()));
        } else if let Some(k) = a.strip_suffix('-') {
            unset.push(k.to_string());
        } else {
            return Err(Fail::new(format!("error: environment variables must be of the form key=value and can only contain letters, numbers, and underscores: {a}"))
                .hint("write KEY=VALUE, or KEY- to remove"));
        }
    }
    let before = codec::to_json(&ds.spec);
    let Some(pod_spec) = ds.spec.template.spec.as_mut() else {
        return Err(Fail::new("error: the DaemonSet has no pod template"));
    };
    let mut matched = 0;
    for c in pod_spec
        .containers
        .iter_mut()
        .chain(pod_spec.init_containers.iter_mut().flatten())
    {
        if !(selector == "*" || glob(&selector, &c.name)) {
            continue;
        }
        matched += 1;
        let env = c.env.get_or_insert_with(Vec::new);
        for (k, v) in &set {
            match env.iter_mut().find(|e| &e.name == k) {
                Some(e) => {
                    e.value = Some(v.clone());
                    e.value_from = None;
                }
                None => env.push(EnvVar {
                    name: k.clone(),
                    value: Some(v.clone()),
                    value_from: None,
                }),
            }
        }
        env.retain(|e| !unset.contains(&e.name));
        if env.is_empty() {
            c.env = None;
        }
    }
    if matched == 0 {
        return Ok(CommandResult {
            stderr: format!(
                "warning: daemonsets/{name} does not have any containers matching {selector:?}\n"
            ),
            hint: Some("check the container name with `kubectl get ds -o wide`".into()),
            ..CommandResult::default()
        });
    }
    if codec::to_json(&ds.spec) == before {
        return Ok(CommandResult::default());
    }
    api.update_daemon_set(ds)?;
    Ok(CommandResult::out(format!(
        "daemonset.apps/{name} env updated\n"
    )))
}

/// `*` wildcards, as `-c` accepts.
fn glob(pattern: &str, s: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == s,
        Some((pre, post)) => {
            s.len() >= pre.len() + post.len()
                && s.starts_with(pre)
                && glob_rest(post, &s[pre.len()..])
        }
    }
}

fn glob_rest(pattern: &str, s: &str) -> bool {
    if !pattern.contains('*') {
        return s.ends_with(pattern);
    }
    (0..=s.len()).any(|i| s.is_char_boundary(i) && glob(pattern, &s[i..]))
}
