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
