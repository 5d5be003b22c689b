//! User edits become script commands: running an edit live and replaying the edited scenario
//! from the start reach exactly the same state (trace, view, script log) at the same time.

mod common;

use cluster::to_json_lines;
use proptest::prelude::*;
use scenario::view::cluster_view;
use scenario::{format_duration, script::parse_duration, Playback, Scenario, Step};
use std::time::Duration;

fn preset(id: &str) -> Scenario {
    common::parse(id)
}

/// Plays in animation frames of `dt` up to `t`.
fn play_frames(p: &mut Playback, t: f64, dt: f64) {
    let mut now = p.elapsed();
    while now < t {
        now = (now + dt).min(t);
        while !p.advance_to(now, 97) {}
    }
}

/// Everything a viewer or a test can observe.
fn assert_same(live: &Playback, replay: &Playback, what: &str) {
    assert_eq!(live.elapsed(), replay.elapsed(), "{what}: clock");
    assert_eq!(live.position(), replay.position(), "{what}: position");
    let (a, b) = (
        to_json_lines(live.session.cluster.trace()),
        to_json_lines(replay.session.cluster.trace()),
    );
    assert!(a == b, "{what}: traces differ");
    assert_eq!(
        cluster_view(&live.session.cluster),
        cluster_view(&replay.session.cluster),
        "{what}: views differ"
    );
    assert_eq!(live.log, replay.log, "{what}: logs differ");
    assert_eq!(live.current_line(), replay.current_line(), "{what}: line");
}

/// Plays to each time, injects the commands there, plays on to `end`; then replays the edited
/// scenario from the start to `end` in one go and compares.
fn edit_and_replay(s: Scenario, edits: &[(f64, &str)], end: f64) -> Playback {
    let mut live = Playback::new(s).expect("starts");
    for (t, cmd) in edits {
        play_frames(&mut live, *t, 1.0 / 60.0);
        let r = live
            .inject(cmd)
            .unwrap_or_else(|e| panic!("{cmd} at {t}: {e}"));
        assert!(r.ok, "{cmd}: {}", r.output);
        assert_eq!(r.command, *cmd);
    }
    play_frames(&mut live, end, 0.37);
    let mut replay = Playback::new(live.scenario.clone()).expect("edited scenario starts");
    assert!(replay.advance_to(end, usize::MAX));
    assert_same(&live, &replay, &format!("{edits:?}"));
    live
}

fn commands(p: &Playback) -> Vec<String> {
    p.scenario
        .script
        .iter()
        .map(|l| match &l.step {
            Step::Run(c) => c.clone(),
            Step::Expect { command, .. } => format!("expect: {command}"),
        })
        .collect()
}

#[test]
fn an_edit_during_a_sleep_splits_it_and_replays_exactly() {
    let live = edit_and_replay(
        preset("node-kubelet-stops"),
        &[(31.25, "kubectl taint node worker3 k=v:NoExecute")],
        120.0,
    );
    let script = commands(&live);
    let i = script
        .iter()
        .position(|c| c == "kubectl taint node worker3 k=v:NoExecute")
        .expect("recorded");
    assert!(script[i - 1].starts_with("sleep "), "{script:?}");
    assert!(script[i + 1].starts_with("sleep "), "{script:?}");
    // The two parts add up to the original 40 s, to the nanosecond.
    let d = |c: &str| parse_duration(c.trim_start_matches("sleep ")).expect("duration");
    assert_eq!(
        d(&script[i - 1]) + d(&script[i + 1]),
        Duration::from_secs(40)
    );
    // The taint evicted the agent pod from worker3.
    let c = &live.session.cluster;
    assert!(c
        .pods()
        .iter()
        .all(|p| controller::pod_util::node_name(p) != "worker3"
            || p.metadata.name.as_deref().unwrap_or("").starts_with("cni")));
}

#[test]
fn an_edit_during_rollout_status_replays_exactly() {
    // f4: the second `rollout status` waits from ~11 s to ~38 s.
    let live = edit_and_replay(
        preset("f4-rolling-update-max-unavailable-1"),
        &[(17.0, "kubectl cordon worker3")],
        60.0,
    );
    let script = commands(&live);
    let i = script
        .iter()
        .position(|c| c == "kubectl cordon worker3")
        .expect("recorded");
    assert!(script[i - 1].starts_with("sleep "), "{script:?}");
    assert_eq!(script[i + 1], "kubectl rollout status ds/ru1");
}

#[test]
fn an_edit_after_the_script_ended_appends_a_sleep_and_the_command() {
    let live = edit_and_replay(
        preset("f1-one-pod-per-node"),
        &[(70.0, "node add worker9 --label disk=ssd")],
        100.0,
    );
    let script = commands(&live);
    let n = script.len();
    assert_eq!(script[n - 1], "node add worker9 --label disk=ssd");
    assert!(script[n - 2].starts_with("sleep "), "{script:?}");
    assert!(live.session.cluster.node("worker9").is_some());
}

#[test]
fn an_edit_at_time_zero_runs_with_the_first_lines() {
    let live = edit_and_replay(
        preset("f4-rolling-update-max-unavailable-1"),
        &[(0.0, "kubectl label node worker2 zone=a")],
        45.0,
    );
    assert!(!commands(&live).iter().any(|c| c == "sleep 0s"));
}

#[test]
fn several_edits_at_several_times_replay_exactly() {
    edit_and_replay(
        preset("node-kubelet-stops"),
        &[
            (3.0, "node add extra"),
            (20.5, "kubectl label node worker zone=b"),
            (33.0, "pod fail --node worker4"),
            (33.0, "kubectl cordon worker"),
            (61.123456789, "node start worker2"),
            (200.0, "kubectl uncordon worker"),
        ],
        260.0,
    );
}

#[test]
fn an_edit_after_single_steps_replays_exactly() {
    let s = preset("f4-rolling-update-max-unavailable-1");
    let mut live = Playback::new(s).expect("starts");
    for _ in 0..37 {
        live.step();
    }
    live.inject("kubectl taint node worker2 a=b:NoSchedule")
        .expect("edit runs");
    for _ in 0..200 {
        live.step();
    }
    let end = live.elapsed();
    let mut replay = Playback::new(live.scenario.clone()).expect("starts");
    // Stepping lands between events; reach the same event count, then the same clock.
    while replay.position().events < live.position().events {
        replay.step();
    }
    replay.advance_to(end, 0);
    assert_same(&live, &replay, "steps");
}

#[test]
fn a_bad_command_changes_nothing_and_says_what_the_terminal_says() {
    let s = preset("f4-rolling-update-max-unavailable-1");
    let mut live = Playback::new(s).expect("starts");
    play_frames(&mut live, 12.5, 0.1);
    let before_script = live.scenario.script.clone();
    let before_trace = to_json_lines(live.session.cluster.trace());
    let before_log = live.log.clone();
    for bad in [
        "kubectl cordon nosuchnode",
        "kubectl frobnicate",
        "node remove ghost",
        "pod fail nosuchpod",
        "frob",
        "sleep 5s",
        "",
        "kubectl label node worker \"unterminated",
    ] {
        let e = live.inject(bad).expect_err(bad);
        assert!(!e.output.is_empty(), "{bad}: empty error");
        if bad.starts_with("kubectl ") && !bad.contains('"') {
            let mut other = live.clone();
            let r = scenario::run_line(&mut other.session, bad);
            assert_eq!(e.output, r.output, "{bad}: not what the terminal shows");
        }
        assert_eq!(live.scenario.script, before_script, "{bad}: script changed");
        assert_eq!(live.log, before_log, "{bad}: log changed");
        assert!(
            to_json_lines(live.session.cluster.trace()) == before_trace,
            "{bad}: cluster changed"
        );
    }
}

#[test]
fn read_only_commands_run_but_are_not_recorded() {
    let s = preset("f4-rolling-update-max-unavailable-1");
    let mut live = Playback::new(s).expect("starts");
    play_frames(&mut live, 15.0, 0.25);
    let script = live.scenario.script.clone();
    for cmd in [
        "kubectl get ds",
        "kubectl get pods -o wide",
        "kubectl describe ds ru1",
        "kubectl rollout status ds/ru1",
        "kubectl rollout history ds/ru1",
    ] {
        assert_eq!(
            scenario::command_kind(cmd),
            scenario::CommandKind::ReadOnly,
            "{cmd}"
        );
        let r = live.run_command(cmd).expect(cmd);
        assert!(!r.output.is_empty(), "{cmd}");
        assert_eq!(live.elapsed(), 15.0, "{cmd} moved time");
    }
    assert!(live.inject("kubectl get ds").is_ok());
    assert_eq!(live.scenario.script, script);
    assert!(live.run_readonly("kubectl cordon worker").is_err());
    assert_eq!(
        scenario::command_kind("kubectl delete pod x"),
        scenario::CommandKind::Edit
    );
}

const SECOND_DS: &str = "apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: logs
spec:
  selector:
    matchLabels: {app: logs}
  template:
    metadata:
      labels: {app: logs}
    spec:
      containers:
      - name: app
        image: busybox:1.36
";

#[test]
fn applying_a_manifest_adds_a_file_and_a_command_and_replays() {
    let s = preset("f4-rolling-update-max-unavailable-1");
    let mut live = Playback::new(s).expect("starts");
    play_frames(&mut live, 20.0, 0.5);
    let r = live.apply_manifest(SECOND_DS).expect("valid");
    assert!(r.ok, "{}", r.output);
    assert_eq!(r.command, "kubectl apply -f edit-1.yaml");
    assert_eq!(
        live.scenario.files.get("edit-1.yaml").map(String::as_str),
        Some(SECOND_DS)
    );
    // The existing DaemonSet, edited: a second file, a rollout.
    let ru1 = live.scenario.files["ru1.yaml"].replace("value: \"1\"", "value: \"3\"");
    play_frames(&mut live, 45.0, 0.5);
    let r = live.apply_manifest(&ru1).expect("valid");
    assert_eq!(r.command, "kubectl apply -f edit-2.yaml");
    assert!(r.output.contains("configured"), "{}", r.output);
    play_frames(&mut live, 90.0, 0.5);
    assert_eq!(live.session.cluster.daemon_sets().len(), 2);
    let mut replay = Playback::new(live.scenario.clone()).expect("starts");
    replay.advance_to(90.0, usize::MAX);
    assert_same(&live, &replay, "manifests");
}

#[test]
fn an_invalid_manifest_changes_nothing_and_locates_every_problem() {
    let s = preset("f4-rolling-update-max-unavailable-1");
    let mut live = Playback::new(s).expect("starts");
    play_frames(&mut live, 5.0, 0.5);
    let files = live.scenario.files.clone();
    let script = live.scenario.script.clone();

    let yes = SECOND_DS.replace("{app: logs}\n  template", "{app: yes}\n  template");
    let d = live.apply_manifest(&yes).expect_err("yes is a boolean");
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].line, d[0].column), (7, 24), "{d:?}");
    assert!(d[0].hint.is_some(), "{d:?}");

    let two = SECOND_DS
        .replace("name: logs\n", "name: Logs_\n")
        .replace("image: busybox:1.36", "image: \"\"");
    let d = live.apply_manifest(&two).expect_err("invalid");
    assert!(d.len() >= 2, "{d:?}");
    assert!(d.iter().any(|x| x.line == 4), "{d:?}");
    assert!(d.iter().any(|x| x.line == 14), "{d:?}");

    assert_eq!(live.scenario.files, files);
    assert_eq!(live.scenario.script, script);
    assert_eq!(live.session.cluster.daemon_sets().len(), 1);
}

proptest! {
    #[test]
    fn durations_written_for_edits_read_back_exactly(nanos in 0u64..(30 * 86_400 * 1_000_000_000)) {
        let d = Duration::from_nanos(nanos);
        prop_assert_eq!(parse_duration(&format_duration(d)), Ok(d));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Whatever a user types into the terminal or the editor: no panic, and a refused edit
    /// leaves the script and the cluster as they were.
    #[test]
    fn any_typed_command_or_manifest_is_safe(
        words in proptest::collection::vec(
            prop_oneof![
                Just("kubectl".to_string()), Just("node".to_string()), Just("pod".to_string()),
                Just("label".to_string()), Just("taint".to_string()), Just("worker".to_string()),
                Just("add".to_string()), Just("fail".to_string()), Just("--node".to_string()),
                Just("k=v:NoExecute".to_string()), Just("delete".to_string()), Just("\"".to_string()),
                "[ -~]{0,12}",
            ],
            0..6,
        ),
        yaml in "[ -~\n]{0,200}",
    ) {
        let mut live = Playback::new(preset("f1-one-pod-per-node")).expect("starts");
        live.advance_to(3.0, usize::MAX);
        let line = words.join(" ");
        let script = live.scenario.script.clone();
        let trace = to_json_lines(live.session.cluster.trace());
        if live.run_command(&line).is_err() {
            prop_assert_eq!(&live.scenario.script, &script);
            prop_assert!(to_json_lines(live.session.cluster.trace()) == trace);
        }
        let files = live.scenario.files.clone();
        if live.apply_manifest(&yaml).is_err() {
            prop_assert_eq!(&live.scenario.files, &files);
        }
    }
}

#[test]
fn playing_live_prints_what_the_batch_run_prints_for_every_preset() {
    // Each kubectl line runs once (a live playback used to run non-waiting ones twice, so an
    // apply said "unchanged" and a second taint failed).
    for (id, file, text) in common::presets() {
        let s = scenario::parse(file, &text).unwrap_or_else(|e| panic!("{e}"));
        let batch = scenario::run(&s, false).unwrap_or_else(|e| panic!("{e}"));
        let mut live = Playback::new(s).expect("starts");
        let mut t = 0.0;
        while !live.script_done() && t < 7200.0 {
            t += 0.5;
            live.advance_to(t, usize::MAX);
        }
        assert_eq!(live.log.len(), batch.records.len(), "{id}");
        for (a, b) in live.log.iter().zip(&batch.records) {
            assert_eq!(a.command, b.command, "{id}");
            assert_eq!(a.output, b.output, "{id}: {}", a.command);
            assert_eq!(a.ok, b.ok, "{id}: {}", a.command);
            assert!(
                (a.t - b.t).abs() < 1e-6,
                "{id}: {} at {} vs {}",
                a.command,
                a.t,
                b.t
            );
        }
    }
}
