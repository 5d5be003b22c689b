//! The render model says, in the API's words, why a pod waits or goes away.

mod common;

use scenario::timeline::Timeline;
use scenario::view::{cluster_view, PodState};

/// Steps until `done` holds for the view (at most `max` steps).
fn step_until(
    tl: &mut Timeline,
    max: usize,
    done: impl Fn(&scenario::view::ClusterView) -> bool,
) -> scenario::view::ClusterView {
    for _ in 0..max {
        let v = cluster_view(tl.cluster());
        if done(&v) {
            return v;
        }
        if tl.step_forward().is_none() {
            break;
        }
    }
    cluster_view(tl.cluster())
}

#[test]
fn a_pod_too_big_for_its_node_says_the_scheduler_cannot_fit_it() {
    let mut tl = Timeline::new(common::parse("node-too-small")).expect("starts");
    let v = step_until(&mut tl, 200, |v| {
        v.nodes
            .iter()
            .any(|n| n.name == "tiny" && n.pods.iter().any(|p| p.why.is_some()))
    });
    let tiny = v.nodes.iter().find(|n| n.name == "tiny").expect("tiny");
    let pod = tiny
        .pods
        .first()
        .expect("the controller created a pod on tiny");
    assert_eq!(pod.state, PodState::Pending);
    let why = pod.why.as_deref().expect("a reason");
    assert!(
        why.starts_with("Unschedulable: 0/6 nodes are available"),
        "{why}"
    );
    assert!(why.contains("1 Insufficient cpu"), "{why}");
    // Pods that run have nothing to explain.
    let settled = step_until(&mut tl, 400, |v| {
        v.nodes
            .iter()
            .filter(|n| n.name != "tiny")
            .flat_map(|n| &n.pods)
            .all(|p| p.state == PodState::Ready)
    });
    assert!(settled.nodes.len() == 6, "the cluster is all there");
    for n in settled.nodes.iter().filter(|n| n.name != "tiny") {
        assert!(
            n.pods.iter().all(|p| p.why.is_none()),
            "{}: {:?}",
            n.name,
            n.pods
        );
    }
}

#[test]
fn a_pod_evicted_by_a_noexecute_taint_says_the_taint_manager_deletes_it() {
    let mut tl = Timeline::new(common::parse("toleration-seconds-evict-loop")).expect("starts");
    let v = step_until(&mut tl, 400, |v| {
        v.nodes
            .iter()
            .flat_map(|n| &n.pods)
            .any(|p| p.state == PodState::Terminating)
    });
    let pod = v
        .nodes
        .iter()
        .flat_map(|n| &n.pods)
        .find(|p| p.state == PodState::Terminating)
        .expect("a pod is evicted");
    assert_eq!(
        pod.why.as_deref(),
        Some("DeletionByTaintManager: Taint manager: deleting due to NoExecute taint")
    );
}

#[test]
fn a_deleted_node_keeps_a_card_for_its_pods_until_pod_gc_collects_them() {
    let mut tl = Timeline::new(common::parse("node-joins-and-leaves")).expect("starts");
    // worker5 is removed at t ≈ 20.2 s; its pod stays bound to it.
    tl.advance_to(21.0, usize::MAX);
    let v = cluster_view(tl.cluster());
    let ghost = v
        .nodes
        .iter()
        .find(|n| n.name == "worker5")
        .expect("a card for the deleted node");
    assert!(tl.cluster().node("worker5").is_none(), "the Node is gone");
    assert_eq!(
        ghost.pods.len(),
        1,
        "its pod is still bound: {:?}",
        ghost.pods
    );
    assert!(ghost.verdicts.is_empty() && ghost.taints.is_empty());
    let why = ghost.deleted.as_deref().expect("says it was deleted");
    assert!(why.contains("R-NODE-2") && why.contains("R-EVT-9"), "{why}");
    // In name order among the nodes that exist.
    let names: Vec<_> = v.nodes.iter().map(|n| n.name.as_str()).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
    assert!(v
        .nodes
        .iter()
        .filter(|n| n.name != "worker5")
        .all(|n| n.deleted.is_none()));

    // Once pod GC has seen the node missing, the card says when it collects the pod, and that
    // is when the pod goes.
    let mut noticed = None;
    while tl.elapsed() < 120.0 {
        if let Some((_, at)) = tl.cluster().pod_gc_collection("worker5") {
            noticed = Some(at);
            break;
        }
        // Small steps: pod GC noticing is not a visible change for step_forward.
        tl.advance_to(tl.elapsed() + 0.5, usize::MAX);
    }
    let at = noticed.expect("pod GC notices the missing node");
    let v = cluster_view(tl.cluster());
    let why = v
        .nodes
        .iter()
        .find(|n| n.name == "worker5")
        .and_then(|n| n.deleted.clone())
        .expect("still there");
    assert!(why.contains("40 s quarantine"), "{why}");
    let since = tl
        .cluster()
        .pod_gc_collection("worker5")
        .map(|(s, _)| s)
        .expect("noticed");
    let since = since
        .duration_since(tl.cluster().start_time())
        .as_secs_f64();
    assert!(
        why.contains(&format!("it noticed at t = {since:.1} s")),
        "{why}"
    );
    let left = at.duration_since(tl.cluster().now()).as_secs_f64();
    assert!(
        why.contains(&format!("force-deletes them in {left:.0} s")),
        "{why}"
    );
    let at = at.duration_since(tl.cluster().start_time()).as_secs_f64();
    tl.advance_to(at - 0.05, usize::MAX);
    assert!(cluster_view(tl.cluster())
        .nodes
        .iter()
        .any(|n| n.name == "worker5"));
    tl.advance_to(at + 0.05, usize::MAX);
    let after = cluster_view(tl.cluster());
    assert!(
        after.nodes.iter().all(|n| n.name != "worker5"),
        "collected at {at} s: {:?}",
        after.nodes.iter().map(|n| &n.name).collect::<Vec<_>>()
    );
}

/// Every pod that has a target node is on exactly one card, that node's; a card marked deleted
/// is one whose Node does not exist (and only such cards are). Checked at every visible change
/// of every preset (the bug this guards against: pods of a deleted node were not shown at all).
#[test]
fn every_pod_with_a_target_node_is_on_that_nodes_card() {
    for (id, _, _) in common::presets() {
        let mut tl = Timeline::new(common::parse(id)).expect("starts");
        for _ in 0..400 {
            let c = tl.cluster();
            let v = cluster_view(c);
            for card in &v.nodes {
                assert_eq!(
                    card.deleted.is_some(),
                    c.node(&card.name).is_none(),
                    "{id} t={}: card {}",
                    tl.elapsed(),
                    card.name
                );
            }
            for p in c.pods() {
                let Ok(target) = controller::util::get_target_node_name(&p) else {
                    continue;
                };
                let name = p.metadata.name.as_deref().unwrap_or_default();
                let on: Vec<_> = v
                    .nodes
                    .iter()
                    .filter(|n| n.pods.iter().any(|chip| chip.name == name))
                    .map(|n| n.name.as_str())
                    .collect();
                assert_eq!(on, [target], "{id} t={}: pod {name}", tl.elapsed());
            }
            if tl.step_forward().is_none() {
                break;
            }
        }
    }
}

#[test]
fn an_orphan_pod_says_whether_a_daemon_set_will_adopt_it() {
    let mut tl = Timeline::new(common::parse("orphan-delete-and-readoption")).expect("starts");
    let chips = |tl: &Timeline| -> Vec<scenario::view::PodChip> {
        cluster_view(tl.cluster())
            .nodes
            .into_iter()
            .flat_map(|n| n.pods)
            .collect()
    };
    // Owned pods have nothing to say.
    tl.advance_to(3.0, usize::MAX);
    assert!(chips(&tl)
        .iter()
        .all(|p| p.owner.is_some() && p.orphan.is_none()));
    // The DaemonSet deleted with --cascade=orphan (t ≈ 3.9 s): nothing will adopt its pods.
    tl.advance_to(6.0, usize::MAX);
    let orphans = chips(&tl);
    assert_eq!(orphans.len(), 4);
    for p in &orphans {
        let note = p.orphan.as_deref().expect("an orphan");
        assert!(note.contains("no DaemonSet's selector matches"), "{note}");
    }
    // Applied again (t ≈ 8.9 s): until its first sync adopts them, the pods say it will.
    let mut seen = false;
    while tl.elapsed() < 12.0 && !seen {
        tl.advance_to(tl.elapsed() + 0.01, usize::MAX);
        seen = chips(&tl).iter().any(|p| {
            p.orphan
                .as_deref()
                .is_some_and(|n| n.contains("DaemonSet keeper selects its labels"))
        });
    }
    assert!(seen, "a moment between the apply and the adoption");
    tl.advance_to(14.0, usize::MAX);
    assert!(chips(&tl)
        .iter()
        .all(|p| p.owner.is_some() && p.orphan.is_none()));
}

/// R-NODE-2/3: a pod left on a deleted node counts nowhere, so once every node that exists runs
/// the new revision the rollout is over, though the old pod waits for pod GC.
#[test]
fn an_old_pod_on_a_deleted_node_does_not_keep_the_rollout_going() {
    let (_, file, text) = common::presets()
        .into_iter()
        .find(|(id, _, _)| *id == "f4-rolling-update-max-unavailable-1")
        .expect("preset");
    let text = text.replacen(
        "  - kubectl set env ds/ru1 -c app FOO=2\n",
        "  - kubectl delete node worker4\n  - kubectl set env ds/ru1 -c app FOO=2\n",
        1,
    );
    let mut tl = Timeline::new(scenario::parse(file, &text).expect("parses")).expect("starts");
    let mut checked = false;
    while tl.elapsed() < 120.0 {
        tl.advance_to(tl.elapsed() + 0.5, usize::MAX);
        let c = tl.cluster();
        let Some(ds) = c.daemon_sets().into_iter().next() else {
            continue;
        };
        let status = ds.status.clone().unwrap_or_default();
        let done = ds.metadata.generation == Some(2)
            && status.observed_generation == Some(2)
            && status.desired_number_scheduled == 3
            && status.updated_number_scheduled == Some(3)
            && status.number_available == Some(3);
        let stranded = c
            .pods()
            .iter()
            .any(|p| p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some("worker4"));
        if done && stranded {
            let v = cluster_view(c);
            assert!(v.waves.is_empty(), "at {}: {:?}", tl.elapsed(), v.waves);
            checked = true;
        }
    }
    assert!(
        checked,
        "the rollout ended while worker4's pod waited for pod GC"
    );
}

#[test]
fn a_node_whose_pod_the_api_server_refuses_says_why_it_has_none() {
    let text = r#"scenario: refused
nodes:
  - name: worker
files:
  ds.yaml: |
    apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: agent}
    spec:
      selector: {matchLabels: {app: agent}}
      template:
        metadata: {labels: {app: agent}}
        spec:
          priorityClassName: team-high
          containers:
          - {name: agent, image: busybox:1.36}
  fixed.yaml: |
    apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: agent}
    spec:
      selector: {matchLabels: {app: agent}}
      template:
        metadata: {labels: {app: agent}}
        spec:
          containers:
          - {name: agent, image: busybox:1.36}
script:
  - kubectl apply -f ds.yaml
  - sleep 5s
  - kubectl apply -f fixed.yaml
  - sleep 5s
"#;
    let s = scenario::parse("refused.yaml", text).unwrap_or_else(|e| panic!("{e}"));
    let mut tl = Timeline::new(s).expect("starts");
    let summary = |v: &scenario::view::ClusterView| {
        v.nodes[0]
            .verdicts
            .first()
            .map(|(_, e)| e.summary.clone())
            .unwrap_or_default()
    };
    let v = step_until(&mut tl, 50, |v| summary(v).contains("create fails"));
    assert_eq!(
        summary(&v),
        "should run a daemon pod (every check passes), but the controller's create fails: \
         pods \"agent-\" is forbidden: no PriorityClass with name team-high was found"
    );
    assert_eq!(v.nodes[0].refused, ["agent"]);
    // Once a create succeeds, the old failure is history.
    let v = step_until(&mut tl, 200, |v| !v.nodes[0].pods.is_empty());
    assert!(!v.nodes[0].pods.is_empty());
    assert_eq!(summary(&v), "runs a daemon pod: every check passes");
    assert!(v.nodes[0].refused.is_empty());
}

/// The view at the end of preset `id`'s script, cut before its first line that starts with
/// `stop_at` (all of it when none does).
fn view_at_end(id: &str, stop_at: &str) -> scenario::view::ClusterView {
    let mut s = common::parse(id);
    if let Some(i) = s
        .script
        .iter()
        .position(|l| matches!(&l.step, scenario::Step::Run(c) if c.starts_with(stop_at)))
    {
        s.script.truncate(i);
    }
    let out = scenario::run(&s, false).expect("runs");
    cluster_view(&out.session.cluster)
}

#[test]
fn a_crash_looping_pod_shows_its_status_restarts_and_back_off_and_the_wave_says_why_it_waits() {
    let v = view_at_end("bad-rollout-undo", "kubectl rollout undo");
    let pod = v
        .nodes
        .iter()
        .flat_map(|n| &n.pods)
        .find(|p| p.trouble.as_deref() == Some("CrashLoopBackOff"))
        .expect("a crash-looping pod");
    let left = pod.restart_in.expect("a back-off countdown");
    assert!((0.0..=300.0).contains(&left), "{left}");
    assert!(
        pod.restarts
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit()),
        "{:?}",
        pod.restarts
    );
    let why = pod.why.as_deref().expect("why");
    assert!(
        why.starts_with("CrashLoopBackOff: back-off ")
            && why.ends_with("(last exit: code 1, Error)"),
        "{why}"
    );
    let wave = v
        .waves
        .iter()
        .find(|w| w.daemon_set == "agent")
        .expect("a wave");
    assert_eq!(
        wave.waiting.as_deref(),
        Some("waiting: 1 updated pod not available (CrashLoopBackOff); maxUnavailable 1 reached")
    );
    // Healthy pods say nothing of the kind.
    for p in v
        .nodes
        .iter()
        .flat_map(|n| &n.pods)
        .filter(|p| p.name != pod.name)
    {
        assert_eq!(
            (p.trouble.as_deref(), p.restarts.as_str()),
            (None, ""),
            "{}",
            p.name
        );
    }
}

#[test]
fn a_pod_waiting_for_an_image_says_the_pull_error() {
    let v = view_at_end("image-pull-backoff", "\u{0}");
    let pod = v
        .nodes
        .iter()
        .flat_map(|n| &n.pods)
        .find(|p| {
            p.trouble
                .as_deref()
                .is_some_and(|t| t.contains("ImagePull"))
        })
        .expect("a pod that cannot pull its image");
    // Bound, its container never created: ContainerCreating, with the kubelet's reason.
    assert_eq!(pod.state, PodState::ContainerCreating);
    let why = pod.why.as_deref().unwrap_or_default();
    assert!(why.contains("registry.example/agent:3-typo"), "{why}");
    assert!(
        why.starts_with("ImagePullBackOff: ") || why.starts_with("ErrImagePull: "),
        "{why}"
    );
}

/// Until the controller has created a node's pod, the card says the pod should run there, not
/// that it runs (issue 24: at t=0 the cards said "runs a daemon pod" beside DESIRED 0).
#[test]
fn a_node_says_should_run_until_its_daemon_pod_exists() {
    let mut tl = Timeline::new(common::parse("f1-one-pod-per-node")).expect("starts");
    let summary = |v: &scenario::view::ClusterView, node: &str| {
        v.nodes
            .iter()
            .find(|n| n.name == node)
            .and_then(|n| n.verdicts.first())
            .map(|(_, e)| e.summary.clone())
            .unwrap_or_default()
    };
    let v = step_until(&mut tl, 50, |v| !summary(v, "worker").is_empty());
    let worker = v.nodes.iter().find(|n| n.name == "worker").expect("worker");
    assert!(worker.pods.is_empty(), "no pod yet");
    assert_eq!(
        summary(&v, "worker"),
        "should run a daemon pod, none here yet: every check passes"
    );
    let v = step_until(&mut tl, 200, |v| {
        v.nodes
            .iter()
            .any(|n| n.name == "worker" && !n.pods.is_empty())
    });
    assert_eq!(
        summary(&v, "worker"),
        "runs a daemon pod: every check passes"
    );
}
