//! One line per visible change: what happened and why, as the time controls show it ("controller
//! deleted ds-x7k2p on worker2: rolling update, 1 of maxUnavailable 1").
//!
//! Derived from what the cluster reports (the actor of the step, the trace entries it wrote)
//! and the state after it (the DaemonSet's strategy, resolved as the controller resolves it; the
//! node's taints; the controller's own eligibility explanation). Decides nothing itself: it
//! re-implements no controller rule.

use cluster::{Actor, Cluster, ObjectEvent, PodEvent, StepReport, TraceEntry, TraceKind};
use controller::predicates::find_toleration;
use controller::DaemonPodPredicate;
use k8s_base::objects::taint_string as describe_taint;

use crate::run::Record;

/// What one visible change was.
#[derive(Debug, Clone, PartialEq)]
pub struct Caption {
    /// Virtual seconds since the start.
    pub t: f64,
    /// Who acted: `daemonset-controller`, `kubelet`, … or `script` / `you` for commands.
    pub actor: String,
    /// One line, e.g. `kubelet: agent-x7k2p on worker2 is Ready`.
    pub text: String,
}

/// Whether a trace entry changes what a viewer sees (pods, nodes, DaemonSets). Status writes
/// count through the counters ([`crate::timeline`] compares them); events and revisions are
/// shown in their panels but are not steps of their own.
pub fn is_visible(e: &TraceEntry) -> bool {
    matches!(
        e.kind,
        TraceKind::Pod { .. } | TraceKind::Node { .. } | TraceKind::DaemonSet { .. }
    )
}

fn pod_event_word(e: PodEvent) -> &'static str {
    match e {
        PodEvent::Created => "created",
        PodEvent::Scheduled => "scheduled",
        PodEvent::Started => "started",
        PodEvent::Ready => "ready",
        PodEvent::NotReady => "not ready",
        PodEvent::Terminating => "terminating",
        PodEvent::Deleted => "deleted",
        PodEvent::Evicted => "evicted",
        PodEvent::Failed => "failed",
    }
}

/// The owning DaemonSet of a pod still in the store, if any.
fn owner_of(c: &Cluster, ns: &str, pod: &str) -> Option<String> {
    let p = c.pod(ns, pod)?;
    controller::controller_ref::get_controller_of(&p.metadata)
        .filter(|o| o.kind == "DaemonSet")
        .map(|o| o.name.clone())
}

/// A pod as its trace entry saw it last.
struct PodFacts<'a> {
    ns: &'a str,
    name: &'a str,
    node: &'a str,
    phase: &'a str,
    ready: bool,
}

/// Why the controller deleted a pod, in words. The pod may already be gone from the store (one
/// that never ran, or had failed, goes at once): then its last state is the trace's, and its
/// DaemonSet is the one its name was generated from (`<daemonset>-<5 characters>`).
fn why_deleted(c: &Cluster, p: &PodFacts) -> String {
    if p.phase == "Failed" {
        return "the pod failed; a new one replaces it".into();
    }
    let stored = c.pod(p.ns, p.name);
    let ds_name = match &stored {
        Some(_) => owner_of(c, p.ns, p.name),
        None => p
            .name
            .rsplit_once('-')
            .filter(|(_, suffix)| suffix.len() == 5)
            .map(|(ds, _)| ds.to_string()),
    };
    let Some(ds_name) = ds_name else {
        return String::new();
    };
    let Some(ds) = c.daemon_set(p.ns, &ds_name) else {
        return if stored.is_some() {
            "its DaemonSet is gone".into()
        } else {
            String::new()
        };
    };
    if let Some(n) = c.node(p.node) {
        let ex = DaemonPodPredicate::new(&ds).explain(&n);
        if !ex.decision.should_continue_running {
            let reason = ex.summary.strip_prefix("no pod: ").unwrap_or(&ex.summary);
            return format!("node should no longer run it: {reason}");
        }
    }
    if let Some(w) = crate::view::wave(c, &ds) {
        // R-RU-8: an old pod that is not available is replaced outside the budget.
        return if p.ready {
            format!("rolling update, {}", w.words)
        } else {
            format!(
                "rolling update: old pod not available, replaced at once ({})",
                w.words
            )
        };
    }
    if stored.is_some() {
        "the node has more than one daemon pod".into()
    } else {
        String::new()
    }
}

fn why_created(c: &Cluster, ns: &str, pod: &str) -> String {
    let wave = owner_of(c, ns, pod)
        .and_then(|d| c.daemon_set(ns, &d))
        .and_then(|ds| crate::view::wave(c, &ds));
    match wave {
        Some(w) => format!("rolling update, {}", w.words),
        None => "node should run a daemon pod".into(),
    }
}

/// Why the taint manager evicts the pod from `node`: each NoExecute taint it does not
/// tolerate, or tolerates only for a while.
fn untolerated(c: &Cluster, ns: &str, pod: &str, node: &str) -> Vec<String> {
    let (Some(p), Some(n)) = (c.pod(ns, pod), c.node(node)) else {
        return Vec::new();
    };
    let tolerations = p
        .spec
        .as_ref()
        .and_then(|s| s.tolerations.clone())
        .unwrap_or_default();
    n.spec
        .as_ref()
        .and_then(|s| s.taints.as_ref())
        .into_iter()
        .flatten()
        .filter(|t| t.effect == "NoExecute")
        .filter_map(|t| match find_toleration(&tolerations, t) {
            None => Some(format!(
                "NoExecute taint {} not tolerated",
                describe_taint(t)
            )),
            Some(tol) => tol.toleration_seconds.map(|s| {
                format!(
                    "NoExecute taint {} tolerated for {s}s only",
                    describe_taint(t)
                )
            }),
        })
        .collect()
}

/// One sentence for one pod transition (`entry` is a [`TraceKind::Pod`]).
fn pod_sentence(c: &Cluster, actor: Option<Actor>, entry: &TraceKind) -> String {
    let TraceKind::Pod {
        namespace: ns,
        name,
        node,
        phase,
        ready,
        event,
        ..
    } = entry
    else {
        return String::new();
    };
    let (ns, name, node, event) = (ns.as_str(), name.as_str(), node.as_str(), *event);
    let facts = PodFacts {
        ns,
        name,
        node,
        phase,
        ready: *ready,
    };
    let on = if node.is_empty() {
        String::new()
    } else {
        format!(" on {node}")
    };
    match (actor, event) {
        (Some(Actor::Controller), PodEvent::Created) => format!(
            "controller created {name} for {node}: {}",
            why_created(c, ns, name)
        ),
        (Some(Actor::Controller), PodEvent::Terminating | PodEvent::Deleted) => {
            let why = why_deleted(c, &facts);
            if why.is_empty() {
                format!("controller deleted {name}{on}")
            } else {
                format!("controller deleted {name}{on}: {why}")
            }
        }
        (Some(Actor::TaintEviction), PodEvent::Terminating | PodEvent::Evicted) => {
            let taints = untolerated(c, ns, name, node);
            if taints.is_empty() {
                format!("taint manager evicted {name} from {node}")
            } else {
                format!(
                    "taint manager evicted {name} from {node}: {}",
                    taints.join(", ")
                )
            }
        }
        (Some(Actor::Scheduler), PodEvent::Scheduled) => {
            format!("scheduler bound {name} to {node}")
        }
        (Some(Actor::GarbageCollector), _) => {
            format!("garbage collector deleted {name}{on}: its owner is gone")
        }
        (Some(Actor::PodGc), _) => format!("pod GC deleted {name}{on}"),
        (_, PodEvent::Started) => format!("kubelet: {name}{on} is Running"),
        (_, PodEvent::Ready) => format!("kubelet: {name}{on} is Ready"),
        (_, PodEvent::NotReady) => format!("kubelet: {name}{on} is not Ready"),
        (_, PodEvent::Failed) => format!("kubelet: {name}{on} failed (evicted)"),
        (Some(Actor::Kubelet), PodEvent::Deleted) => {
            format!("kubelet: {name}{on} terminated and is gone")
        }
        (_, e) => format!("{name}{on} {}", pod_event_word(e)),
    }
}

/// The last trace entry of a node in `trace`.
fn previous_node_entry<'a>(trace: &'a [TraceEntry], name: &str) -> Option<&'a TraceKind> {
    trace
        .iter()
        .rev()
        .map(|e| &e.kind)
        .find(|k| matches!(k, TraceKind::Node { name: n, .. } if n == name))
}

fn node_sentence(actor: Option<Actor>, old: Option<&TraceKind>, new: &TraceKind) -> String {
    let TraceKind::Node {
        name,
        event,
        ready,
        unschedulable,
        taints,
        labels,
    } = new
    else {
        return String::new();
    };
    match event {
        ObjectEvent::Created => return format!("node {name} joined the cluster"),
        ObjectEvent::Deleted | ObjectEvent::Deleting => {
            return format!("node {name} was removed from the cluster")
        }
        ObjectEvent::Updated => {}
    }
    let mut parts = Vec::new();
    if let Some(TraceKind::Node {
        ready: old_ready,
        unschedulable: old_unsched,
        taints: old_taints,
        labels: old_labels,
        ..
    }) = old
    {
        parts.extend(label_changes(name, old_labels, labels));
        if old_ready != ready {
            parts.push(match (ready.as_str(), actor) {
                ("True", _) => format!("node {name} Ready: kubelet posts status again"),
                (_, Some(Actor::NodeLifecycle)) => format!(
                    "node {name} {}: kubelet stopped posting status",
                    if ready == "Unknown" {
                        "Unknown"
                    } else {
                        "NotReady"
                    }
                ),
                _ => format!("node {name} NotReady"),
            });
        }
        if old_unsched != unschedulable {
            parts.push(if *unschedulable {
                format!("node {name} cordoned")
            } else {
                format!("node {name} uncordoned")
            });
        }
        let added: Vec<&String> = taints.iter().filter(|t| !old_taints.contains(t)).collect();
        let removed: Vec<&String> = old_taints.iter().filter(|t| !taints.contains(t)).collect();
        let who = match actor {
            Some(Actor::NodeLifecycle) => "node lifecycle ",
            _ => "",
        };
        if !added.is_empty() {
            let list: Vec<&str> = added.iter().map(|s| s.as_str()).collect();
            parts.push(format!("{who}tainted {name} with {}", list.join(", ")));
        }
        if !removed.is_empty() {
            let list: Vec<&str> = removed.iter().map(|s| s.as_str()).collect();
            parts.push(format!(
                "{who}removed taint {} from {name}",
                list.join(", ")
            ));
        }
    }
    if parts.is_empty() {
        format!("node {name} changed")
    } else {
        parts.join("; ")
    }
}

/// Whether `e` is the deletion that goes with an eviction written in the same step: the taint
/// manager marks the pod (a DisruptionTarget condition) and deletes it in one go, and that is
/// one change to say, not two.
fn eviction_follows_up(e: &TraceEntry, step: &[TraceEntry]) -> bool {
    pod_event_paired(
        e,
        step,
        |ev| *ev == PodEvent::Terminating,
        |ev| *ev == PodEvent::Evicted,
    )
}

/// A pod marked terminal and removed in the same step (the kubelet finishing a deleted pod,
/// pod GC's `markFailedAndDeletePodWithCondition`): the removal says it.
fn deletion_follows_up(e: &TraceEntry, step: &[TraceEntry]) -> bool {
    let terminal = |ev: &PodEvent| matches!(ev, PodEvent::Failed | PodEvent::NotReady);
    pod_event_paired(e, step, terminal, |ev| *ev == PodEvent::Deleted)
}

/// Whether `e` is a pod's event that `this` picks and the same step also writes one that
/// `other` picks for the same pod.
fn pod_event_paired(
    e: &TraceEntry,
    step: &[TraceEntry],
    this: fn(&PodEvent) -> bool,
    other: fn(&PodEvent) -> bool,
) -> bool {
    let TraceKind::Pod {
        namespace,
        name,
        event,
        ..
    } = &e.kind
    else {
        return false;
    };
    this(event)
        && step.iter().any(|o| {
            matches!(&o.kind, TraceKind::Pod { namespace: n, name: p, event, .. }
                if n == namespace && p == name && other(event))
        })
}

/// What became of a node's labels (`key=value` each, by key): "labeled worker2 with k=v",
/// "changed label k on worker2 to v", "removed label k from worker2".
fn label_changes(node: &str, old: &[String], new: &[String]) -> Vec<String> {
    let split = |l: &String| {
        let (k, v) = l.split_once('=').unwrap_or((l.as_str(), ""));
        (k.to_string(), v.to_string())
    };
    let old: std::collections::BTreeMap<String, String> = old.iter().map(split).collect();
    let new: std::collections::BTreeMap<String, String> = new.iter().map(split).collect();
    let mut added = Vec::new();
    let mut changed = Vec::new();
    for (k, v) in &new {
        match old.get(k) {
            None => added.push(format!("{k}={v}")),
            Some(was) if was != v => changed.push(format!("changed label {k} on {node} to {v:?}")),
            Some(_) => {}
        }
    }
    let removed: Vec<&str> = old
        .keys()
        .filter(|k| !new.contains_key(*k))
        .map(String::as_str)
        .collect();
    let mut out = Vec::new();
    if !added.is_empty() {
        out.push(format!("labeled {node} with {}", added.join(", ")));
    }
    out.extend(changed);
    if !removed.is_empty() {
        out.push(format!("removed label {} from {node}", removed.join(", ")));
    }
    out
}

/// The caption of one step: `entries` are the trace entries it wrote (after `earlier`, the
/// trace before it), `lines` the script lines it ran, `c` the cluster after it.
/// `counters` says whether a DaemonSet's counters changed. None when nothing visible happened.
pub fn caption(
    t: f64,
    report: Option<&StepReport>,
    earlier: &[TraceEntry],
    entries: &[TraceEntry],
    lines: &[Record],
    counters: bool,
    c: &Cluster,
) -> Option<Caption> {
    let visible: Vec<&TraceEntry> = entries
        .iter()
        .filter(|e| {
            is_visible(e) && !eviction_follows_up(e, entries) && !deletion_follows_up(e, entries)
        })
        .collect();
    if visible.is_empty() && !counters {
        return None;
    }
    let actor = report.map(|r| r.actor);
    // Sentences, in order, with repeats of the same kind of change folded.
    let mut sentences: Vec<(String, String)> = Vec::new(); // (group key, sentence)
    let mut last_key = String::new();
    let mut run_start = 0;
    // The node's state before `visible[i]`: its last entry before that, in this step or earlier.
    let node_before = |i: usize, name: &str| {
        visible[..i]
            .iter()
            .rev()
            .map(|e| &e.kind)
            .find(|k| matches!(k, TraceKind::Node { name: n, .. } if n == name))
            .or_else(|| previous_node_entry(earlier, name))
    };
    for (i, e) in visible.iter().enumerate() {
        let key = match &e.kind {
            TraceKind::Pod { event, .. } => format!("pod {event:?}"),
            TraceKind::Node { name, .. } => format!("node {name}"),
            TraceKind::DaemonSet { name, .. } => format!("ds {name}"),
            _ => continue,
        };
        if key == last_key {
            if let TraceKind::Node { name, .. } = &e.kind {
                // Several writes to one node (two script lines at one instant, say) are one
                // change: from its state before the first to its state after the last.
                let s = node_sentence(actor, node_before(run_start, name), &e.kind);
                if let Some(last) = sentences.last_mut() {
                    last.1 = s;
                }
            } else {
                // A run of the same kind of pod change is said once, with a count, and worded
                // once: the wording looks at the whole cluster.
                sentences.push((key, String::new()));
            }
            continue;
        }
        last_key = key.clone();
        run_start = i;
        let (key, s) = match &e.kind {
            TraceKind::Pod { event, .. } => {
                (format!("pod {event:?}"), pod_sentence(c, actor, &e.kind))
            }
            TraceKind::Node { name, .. } => (
                format!("node {name}"),
                node_sentence(actor, node_before(i, name), &e.kind),
            ),
            TraceKind::DaemonSet {
                name,
                event,
                generation,
                ..
            } => (
                format!("ds {name}"),
                match event {
                    ObjectEvent::Created => format!("daemonset {name} created"),
                    ObjectEvent::Updated => {
                        format!("daemonset {name} updated (generation {generation})")
                    }
                    ObjectEvent::Deleting => format!("daemonset {name} is being deleted"),
                    ObjectEvent::Deleted => format!("daemonset {name} deleted"),
                },
            ),
            _ => continue,
        };
        sentences.push((key, s));
    }
    let mut text = String::new();
    let mut i = 0;
    let mut groups = 0;
    while i < sentences.len() {
        if groups == 3 {
            text.push_str(&format!("; and {} more changes", sentences.len() - i));
            break;
        }
        groups += 1;
        let key = &sentences[i].0;
        let same = sentences[i..].iter().take_while(|(k, _)| k == key).count();
        if !text.is_empty() {
            text.push_str("; ");
        }
        text.push_str(&sentences[i].1);
        if same > 1 {
            text.push_str(&format!(" (and {} more like it)", same - 1));
        }
        i += same;
    }
    if text.is_empty() && counters {
        text = status_sentence(c);
    }
    // The edits this step ran (two script lines at one instant are one step), in order.
    let edits: Vec<&Record> = lines
        .iter()
        .filter(|r| {
            r.ok && !r.command.starts_with("sleep")
                && crate::script::command_kind(&r.command) == crate::script::CommandKind::Edit
        })
        .collect();
    let (who, text) = match edits.last() {
        Some(r) if report.is_none() || !visible.is_empty() => {
            let who = if r.line == 0 { "you" } else { "script" };
            let commands: Vec<&str> = edits.iter().map(|r| r.command.as_str()).collect();
            (
                who.to_string(),
                format!("{who}: {}: {text}", commands.join(", then ")),
            )
        }
        _ => (actor.map_or("cluster", Actor::as_str).to_string(), text),
    };
    Some(Caption {
        t,
        actor: who,
        text,
    })
}

fn status_sentence(c: &Cluster) -> String {
    let parts: Vec<String> = c
        .daemon_sets()
        .iter()
        .map(|d| {
            let s = d.status.clone().unwrap_or_default();
            format!(
                "{} desired {} current {} ready {} up-to-date {} available {}",
                d.metadata.name.as_deref().unwrap_or(""),
                s.desired_number_scheduled,
                s.current_number_scheduled,
                s.number_ready,
                s.updated_number_scheduled.unwrap_or(0),
                s.number_available.unwrap_or(0)
            )
        })
        .collect();
    format!("daemonset-controller updated status: {}", parts.join("; "))
}
