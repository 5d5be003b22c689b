//! The kubelet's container lifecycle: processes that exit, restarts under `doBackOff`'s
//! back-off, probes, image pulls, and the `pod crash` / `pod fail` verbs. Each test names the
//! upstream function whose behaviour it pins.

mod support;

use cluster::images::{ImageBehaviour, Images};
use cluster::Cluster;
use k8s_openapi::api::apps::v1::DaemonSet;
use k8s_openapi::api::core::v1::{ContainerStatus, Pod};
use support::{kind_cluster, secs};

/// A DaemonSet `name` on the four workers whose one container `agent` is `container` (YAML
/// lines below `image:`, indented by 10).
fn daemon_set(name: &str, container: &str) -> DaemonSet {
    let yaml = format!(
        "apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: {name}
spec:
  selector:
    matchLabels: {{app: {name}}}
  template:
    metadata:
      labels: {{app: {name}}}
    spec:
      terminationGracePeriodSeconds: 3
      containers:
      - name: agent
{container}"
    );
    match apiserver::decode_manifests("ds.yaml", &yaml) {
        Ok(ms) => match ms.into_iter().next() {
            Some(apiserver::Manifest::DaemonSet(ds, _)) => *ds,
            other => panic!("not a DaemonSet: {other:?}"),
        },
        Err(e) => panic!("{e}\n{yaml}"),
    }
}

fn pod_on(c: &Cluster, node: &str) -> Option<std::sync::Arc<Pod>> {
    c.pods().into_iter().find(|p| {
        p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(node)
            && p.metadata.deletion_timestamp.is_none()
    })
}

fn status(c: &Cluster, node: &str) -> ContainerStatus {
    pod_on(c, node)
        .and_then(|p| p.status.clone())
        .and_then(|s| s.container_statuses)
        .and_then(|v| v.into_iter().next())
        .unwrap_or_default()
}

fn waiting(cs: &ContainerStatus) -> Option<(String, String)> {
    let w = cs.state.as_ref()?.waiting.as_ref()?;
    Some((
        w.reason.clone().unwrap_or_default(),
        w.message.clone().unwrap_or_default(),
    ))
}

fn events(c: &Cluster, reason: &str) -> Vec<(String, String, i32)> {
    c.events()
        .iter()
        .filter(|e| e.reason.as_deref() == Some(reason))
        .map(|e| {
            (
                e.type_.clone().unwrap_or_default(),
                e.message.clone().unwrap_or_default(),
                e.count.unwrap_or(1),
            )
        })
        .collect()
}

#[test]
fn do_back_off_restarts_at_once_then_waits_10_20_40_s_up_to_5_min() {
    let mut c = kind_cluster(3);
    c.apply(daemon_set(
        "crash",
        "        image: busybox:1.36\n        command: [\"sh\", \"-c\", \"exit 1\"]\n",
    ))
    .unwrap();
    // Every back-off the kubelet reports, in order, and the restart count with it.
    let mut periods: Vec<String> = Vec::new();
    let mut restarts = Vec::new();
    for _ in 0..(40 * 60) {
        c.advance(secs(1.0));
        let cs = status(&c, "worker");
        if let Some((reason, msg)) = waiting(&cs) {
            assert_eq!(reason, "CrashLoopBackOff");
            let period = msg
                .strip_prefix("back-off ")
                .and_then(|m| m.split(' ').next())
                .unwrap_or_default()
                .to_string();
            if periods.last() != Some(&period) || restarts.last() != Some(&cs.restart_count) {
                periods.push(period);
                restarts.push(cs.restart_count);
            }
            assert!(
                msg.contains(" restarting failed container=agent pod=crash-"),
                "{msg}"
            );
        }
    }
    assert_eq!(
        periods[..8],
        ["10s", "20s", "40s", "1m20s", "2m40s", "5m0s", "5m0s", "5m0s"],
        "{periods:?}"
    );
    // The first exit is restarted without a wait: the first back-off is seen after restart 1.
    assert_eq!(restarts[..3], [1, 2, 3], "{restarts:?}");
    let cs = status(&c, "worker");
    let last = cs
        .last_state
        .and_then(|s| s.terminated)
        .expect("last state");
    assert_eq!((last.exit_code, last.reason.as_deref()), (1, Some("Error")));
    assert!(!cs.ready);
    // The pod stays Running: restartPolicy Always never fails it.
    let p = pod_on(&c, "worker").unwrap();
    assert_eq!(
        p.status.as_ref().and_then(|s| s.phase.as_deref()),
        Some("Running")
    );
    let backoff = events(&c, "BackOff");
    assert!(backoff.iter().all(|(t, m, _)| t == "Warning"
        && m.starts_with("Back-off restarting failed container agent in pod crash-")));
    // The DaemonSet counts none of them ready.
    let ds = c.daemon_set("default", "crash").unwrap();
    assert_eq!(ds.status.as_ref().map(|s| s.number_ready), Some(0));
}

#[test]
fn do_back_off_forgets_a_container_that_ran_for_more_than_ten_minutes() {
    let mut c = kind_cluster(5);
    c.apply(daemon_set(
        "slow",
        "        image: busybox:1.36\n        command: [\"sh\", \"-c\", \"sleep 700; exit 3\"]\n",
    ))
    .unwrap();
    let mut saw_back_off = false;
    for _ in 0..2200 {
        c.advance(secs(1.0));
        saw_back_off |= waiting(&status(&c, "worker")).is_some();
    }
    let cs = status(&c, "worker");
    assert_eq!(
        cs.restart_count, 3,
        "restarted after each of its 700 s runs"
    );
    assert!(
        !saw_back_off,
        "hasExpired: 700 s > 2 × 5 min, so never in back-off"
    );
    let last = cs.last_state.and_then(|s| s.terminated).unwrap();
    assert_eq!(last.exit_code, 3);
}

#[test]
fn a_process_that_exits_before_the_first_pleg_relist_is_never_ready() {
    let mut c = kind_cluster(7);
    c.apply(daemon_set(
        "quick",
        "        image: busybox:1.36\n        command: [\"false\"]\n",
    ))
    .unwrap();
    let mut ever_ready = false;
    for _ in 0..300 {
        c.advance(secs(0.1));
        ever_ready |= status(&c, "worker").ready;
    }
    assert!(!ever_ready);
    let cs = status(&c, "worker");
    assert!(cs.restart_count >= 1, "{cs:?}");
}

#[test]
fn readiness_follows_the_probe_with_its_thresholds() {
    // Ready once /tmp/ready exists (3 s) and two probes passed; unready after three failures
    // once it is gone (20 s).
    let mut c = kind_cluster(9);
    c.apply(daemon_set(
        "ready",
        "        image: busybox:1.36
        command: [\"sh\", \"-c\", \"sleep 3; touch /tmp/ready; sleep 17; rm /tmp/ready; sleep infinity\"]
        readinessProbe:
          exec: {command: [\"test\", \"-f\", \"/tmp/ready\"]}
          periodSeconds: 2
          successThreshold: 2
          failureThreshold: 3
",
    ))
    .unwrap();
    let mut became_ready = None;
    let mut became_unready = None;
    for i in 0..400 {
        c.advance(secs(0.1));
        let t = f64::from(i + 1) * 0.1;
        let ready = status(&c, "worker").ready;
        if ready && became_ready.is_none() {
            became_ready = Some(t);
        }
        if !ready && became_ready.is_some() && became_unready.is_none() {
            became_unready = Some(t);
        }
    }
    let (up, down) = (became_ready.unwrap(), became_unready.unwrap());
    // Started ≈ 0.2 s; file at ≈ 3.2 s; the second passing probe 2 s after the first.
    assert!((5.0..=8.0).contains(&up), "ready at {up}");
    // File gone at ≈ 20.2 s; the third failure 4 s after the first.
    assert!((24.0..=27.0).contains(&down), "unready at {down}");
    let unhealthy = events(&c, "Unhealthy");
    assert!(unhealthy
        .iter()
        .all(|(t, m, _)| t == "Warning" && m == "Readiness probe failed: "));
    let pod = pod_on(&c, "worker").unwrap();
    let cond = pod
        .status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .and_then(|cs| cs.iter().find(|c| c.type_ == "Ready").cloned())
        .unwrap();
    assert_eq!(cond.status, "False");
    assert_eq!(
        cond.message.as_deref(),
        Some("containers with unready status: [agent]")
    );
}

#[test]
fn a_failing_startup_probe_kills_and_restarts_the_container() {
    let mut c = kind_cluster(11);
    c.apply(daemon_set(
        "startup",
        "        image: busybox:1.36
        command: [\"sleep\", \"infinity\"]
        startupProbe:
          exec: {command: [\"cat\", \"/tmp/started\"]}
          periodSeconds: 1
          failureThreshold: 3
        livenessProbe:
          exec: {command: [\"false\"]}
",
    ))
    .unwrap();
    c.advance(secs(30.0));
    let cs = status(&c, "worker");
    assert!(cs.restart_count >= 1, "{cs:?}");
    assert_eq!(cs.started, Some(false), "the startup probe never passed");
    let killing = events(&c, "Killing");
    assert!(killing
        .iter()
        .any(|(_, m, _)| m == "Container agent failed startup probe, will be restarted"));
    // The liveness probe never ran: it waits for the startup probe.
    assert!(events(&c, "Unhealthy")
        .iter()
        .all(|(_, m, _)| m.starts_with("Startup probe failed: cat: can't open '/tmp/started'")));
    let last = cs.last_state.and_then(|s| s.terminated).unwrap();
    assert_eq!(
        last.exit_code, 137,
        "busybox ignores SIGTERM: killed after the grace period"
    );
}

#[test]
fn ensure_image_exists_pulls_on_first_use_per_node_and_backs_off_a_missing_image() {
    let mut c = kind_cluster(13);
    let mut images = Images::new();
    images.insert(
        "agent:2".into(),
        ImageBehaviour {
            missing: false,
            pull_seconds: Some(20.0),
        },
    );
    images.insert(
        "agent:gone".into(),
        ImageBehaviour {
            missing: true,
            pull_seconds: None,
        },
    );
    c.set_images(images);
    c.apply(daemon_set(
        "pulled",
        "        image: agent:2\n        command: [\"sleep\", \"infinity\"]\n",
    ))
    .unwrap();
    c.advance(secs(10.0));
    assert_eq!(
        waiting(&status(&c, "worker")).map(|w| w.0).as_deref(),
        Some("ContainerCreating")
    );
    c.advance(secs(15.0));
    assert!(status(&c, "worker").ready, "pulled after 20 s");
    let pulled: Vec<_> = events(&c, "Pulled")
        .into_iter()
        .filter(|(_, m, _)| m.contains("agent:2"))
        .collect();
    assert_eq!(pulled.len(), 4, "once per node: {pulled:?}");
    assert!(pulled[0].1.starts_with(
        "Successfully pulled image \"agent:2\" in 20s (20s including waiting). Image size: "
    ));
    // A second pod on the same node finds the image present.
    c.apply(daemon_set(
        "again",
        "        image: agent:2\n        command: [\"sleep\", \"infinity\"]\n",
    ))
    .unwrap();
    c.advance(secs(2.0));
    assert!(events(&c, "Pulled").iter().any(|(_, m, _)| {
        m == "Container image \"agent:2\" already present on machine and can be accessed by the pod"
    }));

    c.apply(daemon_set(
        "missing",
        "        image: agent:gone\n        command: [\"sleep\", \"infinity\"]\n",
    ))
    .unwrap();
    let mut reasons = Vec::new();
    for _ in 0..120 {
        c.advance(secs(1.0));
        let cs = c
            .pods()
            .into_iter()
            .filter(|p| {
                p.metadata
                    .name
                    .as_deref()
                    .is_some_and(|n| n.starts_with("missing-"))
            })
            .find(|p| p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some("worker"))
            .and_then(|p| p.status.clone())
            .and_then(|s| s.container_statuses)
            .and_then(|v| v.into_iter().next())
            .unwrap_or_default();
        if let Some((r, _)) = waiting(&cs) {
            if reasons.last() != Some(&r) {
                reasons.push(r);
            }
        }
    }
    assert_eq!(
        reasons[..4],
        [
            "ContainerCreating",
            "ErrImagePull",
            "ImagePullBackOff",
            "ErrImagePull"
        ],
        "{reasons:?}"
    );
    let failed = events(&c, "Failed");
    assert!(failed.iter().any(|(t, m, _)| t == "Warning"
        && m.starts_with("Failed to pull image \"agent:gone\": rpc error: code = NotFound")));
    assert!(failed
        .iter()
        .any(|(_, m, _)| m == "Error: ImagePullBackOff"));
    assert!(events(&c, "BackOff")
        .iter()
        .any(|(t, m, _)| t == "Normal" && m == "Back-off pulling image \"agent:gone\""));
}

#[test]
fn image_pull_policy_never_refuses_an_image_that_is_not_on_the_node() {
    let mut c = kind_cluster(15);
    let mut images = Images::new();
    images.insert(
        "agent:3".into(),
        ImageBehaviour {
            missing: false,
            pull_seconds: Some(5.0),
        },
    );
    c.set_images(images);
    c.apply(daemon_set(
        "never",
        "        image: agent:3\n        imagePullPolicy: Never\n        command: [\"sleep\", \"infinity\"]\n",
    ))
    .unwrap();
    c.advance(secs(5.0));
    let (reason, message) = waiting(&status(&c, "worker")).unwrap();
    assert_eq!(reason, "ErrImageNeverPull");
    assert_eq!(
        message,
        "Container image \"agent:3\" is not present with pull policy of Never"
    );
}

#[test]
fn pod_crash_exits_the_container_once_and_the_kubelet_restarts_it() {
    let mut c = kind_cluster(17);
    c.apply(daemon_set(
        "agent",
        "        image: busybox:1.36\n        command: [\"sleep\", \"infinity\"]\n",
    ))
    .unwrap();
    c.advance(secs(5.0));
    let name = pod_on(&c, "worker")
        .and_then(|p| p.metadata.name.clone())
        .unwrap();
    c.crash_pod("default", &name, 42).unwrap();
    let cs = status(&c, "worker");
    let t = cs
        .state
        .and_then(|s| s.terminated)
        .expect("terminated at once");
    assert_eq!((t.exit_code, t.reason.as_deref()), (42, Some("Error")));
    c.advance(secs(3.0));
    let cs = status(&c, "worker");
    assert_eq!(cs.restart_count, 1);
    assert!(cs.ready && cs.state.and_then(|s| s.running).is_some());
    assert_eq!(
        cs.last_state
            .and_then(|s| s.terminated)
            .map(|t| t.exit_code),
        Some(42)
    );
    // The same pod: a crash never makes the controller replace it.
    assert_eq!(
        pod_on(&c, "worker").and_then(|p| p.metadata.name.clone()),
        Some(name.clone())
    );
    // A pod that does not run cannot crash.
    c.crash_pod("default", "nope", 1).unwrap_err();
}

#[test]
fn pod_fail_is_an_eviction_with_a_disruption_target_condition() {
    let mut c = kind_cluster(19);
    c.apply(daemon_set(
        "agent",
        "        image: busybox:1.36\n        command: [\"sleep\", \"infinity\"]\n",
    ))
    .unwrap();
    c.advance(secs(5.0));
    let name = pod_on(&c, "worker")
        .and_then(|p| p.metadata.name.clone())
        .unwrap();
    c.fail_pod("default", &name).unwrap();
    let p = c.pod("default", &name).unwrap();
    let st = p.status.clone().unwrap();
    assert_eq!(st.phase.as_deref(), Some("Failed"));
    assert_eq!(st.reason.as_deref(), Some("Evicted"));
    assert!(st
        .message
        .as_deref()
        .is_some_and(|m| m.starts_with("The node was low on resource: memory. ")));
    let dt = st
        .conditions
        .unwrap_or_default()
        .into_iter()
        .find(|c| c.type_ == "DisruptionTarget")
        .unwrap();
    assert_eq!(
        (dt.status.as_str(), dt.reason.as_deref()),
        ("True", Some("TerminationByKubelet"))
    );
    assert!(events(&c, "Evicted").iter().any(|(t, _, _)| t == "Warning"));
}

/// `predicateAdmitHandler.Admit` → `InsufficientResourceError` → `rejectPod`: the pod fails
/// with reason `OutOfcpu` and "Pod was rejected: …", a Warning event carries the predicate's
/// message, there is no DisruptionTarget condition, and the node keeps its smaller
/// allocatable, so the scheduler cannot place the replacement.
#[test]
fn reject_pod_out_of_cpu_as_predicate_admit_handler_and_reject_pod_do() {
    let mut c = kind_cluster(23);
    c.apply(daemon_set(
        "agent",
        "        image: busybox:1.36\n        command: [\"sleep\", \"infinity\"]\n        resources:\n          requests: {cpu: 250m, memory: 64Mi}\n",
    ))
    .unwrap();
    c.advance(secs(5.0));
    let name = pod_on(&c, "worker")
        .and_then(|p| p.metadata.name.clone())
        .unwrap();
    c.reject_pod("default", &name, "cpu").unwrap();
    let p = c.pod("default", &name).unwrap();
    let st = p.status.clone().unwrap();
    let message = "Node didn't have enough resource: cpu, requested: 250, used: 0, capacity: 249";
    assert_eq!(st.phase.as_deref(), Some("Failed"));
    assert_eq!(st.reason.as_deref(), Some("OutOfcpu"));
    assert_eq!(st.message, Some(format!("Pod was rejected: {message}")));
    assert!(st
        .conditions
        .unwrap_or_default()
        .iter()
        .all(|c| c.type_ != "DisruptionTarget"));
    assert_eq!(
        events(&c, "OutOfcpu"),
        vec![("Warning".to_string(), message.to_string(), 1)]
    );
    let allocatable = c
        .node("worker")
        .unwrap()
        .status
        .clone()
        .unwrap()
        .allocatable
        .unwrap();
    assert_eq!(allocatable["cpu"].0, "249m");
    // The controller replaces the failed pod; the scheduler finds no room for it.
    assert!(c.run_until(|c| c.pod("default", &name).is_none(), secs(5.0)));
    c.advance(secs(3.0));
    let replacement = c
        .pods()
        .into_iter()
        .find(|p| {
            p.spec
                .as_ref()
                .and_then(|s| s.affinity.as_ref())
                .is_some_and(|a| format!("{a:?}").contains("\"worker\""))
        })
        .expect("a replacement for worker");
    assert_eq!(
        replacement.status.as_ref().and_then(|s| s.phase.as_deref()),
        Some("Pending")
    );
    assert!(events(&c, "FailedScheduling")
        .iter()
        .any(|(_, m, _)| m.contains("1 Insufficient cpu")));
    // A pod that requests no memory cannot be rejected for it.
    let other = pod_on(&c, "worker2")
        .and_then(|p| p.metadata.name.clone())
        .unwrap();
    assert!(c.reject_pod("default", &other, "memory").is_ok());
    let mut c2 = kind_cluster(23);
    c2.apply(daemon_set(
        "bare",
        "        image: busybox:1.36\n        command: [\"sleep\", \"infinity\"]\n",
    ))
    .unwrap();
    c2.advance(secs(5.0));
    let bare = pod_on(&c2, "worker")
        .and_then(|p| p.metadata.name.clone())
        .unwrap();
    let err = c2
        .reject_pod("default", &bare, "cpu")
        .unwrap_err()
        .to_string();
    assert!(err.contains("requests no cpu"), "{err}");
}

#[test]
fn generate_api_pod_status_reports_a_deleted_pod_terminal_before_it_is_removed() {
    let mut c = kind_cluster(21);
    c.apply(daemon_set(
        "agent",
        "        image: busybox:1.36\n        command: [\"sleep\", \"infinity\"]\n",
    ))
    .unwrap();
    c.advance(secs(5.0));
    let name = pod_on(&c, "worker")
        .and_then(|p| p.metadata.name.clone())
        .unwrap();
    c.delete_pod("default", &name).unwrap();
    assert!(c.run_until(|c| c.pod("default", &name).is_none(), secs(10.0)));
    // The last two transitions of the pod: terminal (Failed, its container killed after the
    // 3 s grace period: busybox ignores SIGTERM), then deleted.
    let seen: Vec<(String, String)> = c
        .trace()
        .iter()
        .filter_map(|e| match &e.kind {
            cluster::TraceKind::Pod {
                name: n,
                phase,
                event,
                ..
            } if *n == name => Some((phase.clone(), format!("{event:?}"))),
            _ => None,
        })
        .collect();
    let n = seen.len();
    assert_eq!(seen[n - 2].0, "Failed", "{seen:?}");
    assert_eq!(seen[n - 1].1, "Deleted", "{seen:?}");
}
