//! Time travel: stepping back and seeking restore exactly the state seen before; edits rewrite
//! the future; captions, samples, waves and events say what the screen shows.

mod common;

use cluster::to_json_lines;
use scenario::view::{cluster_view, event_rows, event_table};
use scenario::{Playback, Timeline};

type Snapshot = (scenario::Position, String, String, Vec<scenario::Record>);

/// What a viewer sees plus everything that could differ underneath.
fn snap(p: &Playback, trace: &[cluster::TraceEntry]) -> Snapshot {
    (
        p.position(),
        to_json_lines(trace),
        format!("{:?}", cluster_view(&p.session.cluster)),
        p.log.clone(),
    )
}

/// A playback played straight from the start.
fn snapshot(p: &Playback) -> Snapshot {
    snap(p, p.session.cluster.trace())
}

/// The names of the timeline's nodes now (what `Edit::commands` checks new names against).
fn node_names(tl: &Timeline) -> Vec<String> {
    tl.cluster()
        .nodes()
        .iter()
        .filter_map(|n| n.metadata.name.clone())
        .collect()
}

/// A timeline's present (its playback's trace lives in the timeline).
fn now(tl: &Timeline) -> Snapshot {
    snap(tl.playback(), tl.trace())
}

#[test]
fn step_back_restores_each_previous_visible_change_exactly() {
    let mut tl = Timeline::new(common::parse("f4-rolling-update-max-unavailable-1")).expect("ok");
    let mut seen = vec![now(&tl)];
    while let Some(cap) = tl.step_forward() {
        assert!(!cap.text.is_empty());
        seen.push(now(&tl));
    }
    assert!(seen.len() > 40, "{} changes", seen.len());
    assert!(tl.playback().script_done());
    // The last (fruitless) step forward ran past the last change: back to it first.
    if tl.playback().position() > seen[seen.len() - 1].0 {
        tl.step_back();
    }
    assert!(now(&tl) == seen[seen.len() - 1]);
    for i in (0..seen.len() - 1).rev() {
        tl.step_back();
        let now = now(&tl);
        assert!(now == seen[i], "step back #{i} differs");
    }
    // And forward again reaches the same states with the same captions.
    let marks: Vec<_> = tl.marks().to_vec();
    for (i, m) in marks.iter().enumerate() {
        let cap = tl.step_forward().expect("again");
        assert_eq!(cap, m.caption, "caption {i}");
        assert!(now(&tl) == seen[i + 1], "forward again #{i}");
    }
}

#[test]
fn seeking_anywhere_gives_what_playing_straight_there_gives() {
    let s = common::parse("node-kubelet-stops");
    let mut tl = Timeline::new(s.clone()).expect("ok");
    let mut t = 0.0;
    while t < 140.0 {
        t += 1.0 / 30.0;
        tl.advance_to(t, 1000);
    }
    assert!((tl.horizon() - 140.0).abs() < 0.05);
    for target in [0.0, 12.7, 55.0, 3.25, 99.9, 140.0, 61.5, 0.5] {
        tl.seek(target);
        let mut fresh = Playback::new(s.clone()).expect("ok");
        fresh.advance_to(target, usize::MAX);
        assert!(now(&tl) == snapshot(&fresh), "seek({target}) differs");
    }
    assert!(
        tl.checkpoint_stats().0
            <= scenario::timeline::MAX_CHECKPOINTS + 1 + scenario::timeline::RECENT_CHECKPOINTS
    );
    tl.reset();
    assert_eq!(tl.elapsed(), 0.0);
    assert!(tl.horizon() >= 139.9, "reset keeps the horizon");
}

/// The page's seek to a link's or a host's far `t`: bounded chunks, one per frame, reach the
/// state one unbounded seek reaches, with the same marks, from the start and from a point
/// behind a horizon already seen.
#[test]
fn a_seek_in_bounded_chunks_reaches_what_one_seek_reaches() {
    let s = common::parse("node-kubelet-stops");
    for from in [0.0, 30.0] {
        let mut whole = Timeline::new(s.clone()).expect("ok");
        let mut chunked = Timeline::new(s.clone()).expect("ok");
        for tl in [&mut whole, &mut chunked] {
            tl.advance_to(60.0, usize::MAX);
            tl.seek(from);
        }
        whole.seek(200.0);
        let mut calls = 1;
        while !chunked.seek_within(200.0, 5) {
            calls += 1;
            assert!(calls < 10_000, "the seek does not end");
        }
        assert!(calls > 3, "{calls} calls: the bound did not bound");
        assert!(
            now(&chunked) == now(&whole),
            "from {from}: the states differ"
        );
        assert_eq!(
            chunked.marks(),
            whole.marks(),
            "from {from}: the marks differ"
        );
        assert!(
            chunked.seek_within(200.0, 0),
            "at the target, a seek is done at once"
        );
    }
}

#[test]
fn an_edit_after_stepping_back_rewrites_the_future_and_replays() {
    let s = common::parse("f4-rolling-update-max-unavailable-1");
    let mut tl = Timeline::new(s).expect("ok");
    tl.advance_to(30.0, usize::MAX);
    let marks_before = tl.marks().len();
    tl.seek(14.0);
    for _ in 0..3 {
        tl.step_back();
    }
    let t_edit = tl.elapsed();
    tl.inject("kubectl taint node worker3 dedicated=x:NoExecute")
        .expect("edit");
    assert!(tl.marks().len() < marks_before, "the future was dropped");
    assert!(tl.marks().iter().all(|m| m.caption.t <= t_edit + 1e-9));
    assert!((tl.horizon() - t_edit).abs() < 1e-9);
    assert!(tl.samples().iter().all(|x| x.t() <= t_edit + 1e-9));
    let last = tl.marks().last().expect("the edit is a mark");
    assert!(
        last.caption
            .text
            .contains("you: kubectl taint node worker3"),
        "{}",
        last.caption.text
    );
    tl.advance_to(60.0, usize::MAX);
    let mut fresh = Playback::new(tl.scenario().clone()).expect("ok");
    fresh.advance_to(60.0, usize::MAX);
    assert!(now(&tl) == snapshot(&fresh), "after the edit");
    // Back before the edit, through the rebased checkpoints, and forward again.
    for target in [2.0, t_edit - 0.5, t_edit, t_edit + 3.0, 45.0] {
        tl.seek(target);
        let mut fresh = Playback::new(tl.scenario().clone()).expect("ok");
        fresh.advance_to(target, usize::MAX);
        assert!(now(&tl) == snapshot(&fresh), "seek({target})");
    }
}

#[test]
fn edits_during_sleeps_keep_every_checkpoint_true() {
    let s = common::parse("node-kubelet-stops");
    let mut tl = Timeline::new(s).expect("ok");
    // Small checkpoint spacing is the default; play long enough for several.
    tl.advance_to(45.0, usize::MAX);
    tl.inject("kubectl cordon worker4").expect("edit");
    tl.advance_to(80.0, usize::MAX);
    tl.seek(20.0);
    tl.inject("node add late --label zone=z").expect("edit");
    tl.advance_to(150.0, usize::MAX);
    for target in [1.0, 19.0, 20.0, 30.0, 44.0, 46.0, 90.0, 150.0] {
        tl.seek(target);
        let mut fresh = Playback::new(tl.scenario().clone()).expect("ok");
        fresh.advance_to(target, usize::MAX);
        assert!(now(&tl) == snapshot(&fresh), "seek({target})");
    }
}

#[test]
fn a_bad_edit_keeps_the_future() {
    let mut tl = Timeline::new(common::parse("f1-one-pod-per-node")).expect("ok");
    tl.advance_to(20.0, usize::MAX);
    tl.seek(5.0);
    let marks = tl.marks().len();
    let e = tl.inject("kubectl cordon nosuchnode").expect_err("bad");
    assert!(e.output.contains("not found"), "{}", e.output);
    assert_eq!(tl.marks().len(), marks);
    assert!(tl.horizon() >= 19.9);
    let d = tl
        .apply_manifest("kind: DaemonSet\napiVersion: apps/v1\nmetadata: {name: x}\nspec: {selector: {matchLabels: {a: yes}}}\n")
        .expect_err("bad");
    assert_eq!(d[0].line, 4, "{d:?}");
    assert_eq!(tl.marks().len(), marks);
}

#[test]
fn samples_change_at_every_counter_change_and_only_then() {
    let mut tl = Timeline::new(common::parse("f4-rolling-update-max-unavailable-1")).expect("ok");
    tl.advance_to(60.0, usize::MAX);
    let s = tl.samples();
    assert!(s.len() > 10, "{}", s.len());
    for w in s.windows(2) {
        assert!(w[0].t_nanos < w[1].t_nanos);
        assert_ne!(w[0].daemon_sets, w[1].daemon_sets);
    }
    let last = &s[s.len() - 1].daemon_sets[0];
    assert_eq!(
        (
            last.desired,
            last.current,
            last.ready,
            last.up_to_date,
            last.available
        ),
        (4, 4, 4, 4, 4)
    );
    // Going back and forth again adds nothing.
    let n = s.len();
    tl.seek(10.0);
    tl.advance_to(60.0, usize::MAX);
    assert_eq!(tl.samples().len(), n);
}

fn captions(id: &str, until: f64) -> Vec<String> {
    let mut tl = Timeline::new(common::parse(id)).expect("ok");
    let mut out = Vec::new();
    while tl.elapsed() < until {
        match tl.step_forward() {
            Some(c) => out.push(c.text),
            None => break,
        }
    }
    out
}

fn has(caps: &[String], needle: &str) {
    assert!(
        caps.iter().any(|c| c.contains(needle)),
        "no caption contains {needle:?}:\n{}",
        caps.join("\n")
    );
}

#[test]
fn captions_say_what_happened_and_why() {
    let caps = captions("f4-rolling-update-max-unavailable-1", 45.0);
    has(&caps, "controller created ru1-");
    has(&caps, ": node should run a daemon pod");
    has(&caps, "scheduler bound ru1-");
    has(&caps, "is Ready");
    has(&caps, "is Running");
    has(&caps, ": rolling update, 1 of maxUnavailable 1 in progress");
    has(&caps, "controller deleted ru1-");
    has(
        &caps,
        "script: kubectl set env ds/ru1 -c app FOO=2: daemonset ru1 updated (generation 2)",
    );

    let caps = captions("f5-rolling-update-max-unavailable-2", 45.0);
    has(&caps, "of maxUnavailable 2 in progress");

    let caps = captions("max-surge-rollout", 60.0);
    has(&caps, "of maxSurge 1 in progress");

    let caps = captions("node-kubelet-stops", 80.0);
    has(
        &caps,
        "node worker2 Unknown: kubelet stopped posting status",
    );
    has(
        &caps,
        "node lifecycle tainted worker2 with node.kubernetes.io/unreachable",
    );

    let caps = captions("toleration-seconds-evict-loop", 40.0);
    has(&caps, "taint manager evicted");
    has(
        &caps,
        "NoExecute taint k42=x:NoExecute tolerated for 10s only",
    );
}

#[test]
fn the_wave_is_highlighted_with_its_budget_in_words() {
    let mut p = Playback::new(common::parse("f5-rolling-update-max-unavailable-2")).expect("ok");
    let mut best = None;
    for i in 0..600 {
        p.advance_to(f64::from(i) * 0.1, usize::MAX);
        let v = cluster_view(&p.session.cluster);
        if let Some(w) = v.waves.first() {
            assert_eq!(w.budget, 2);
            assert!(!w.surge);
            let flagged: Vec<&str> = v
                .nodes
                .iter()
                .filter(|n| n.in_wave)
                .map(|n| n.name.as_str())
                .collect();
            assert_eq!(flagged.len(), w.nodes.len());
            if w.in_progress == 2 {
                best = Some(w.words.clone());
            }
        }
    }
    assert_eq!(best.as_deref(), Some("2 of maxUnavailable 2 in progress"));
    // Settled: no wave.
    assert!(cluster_view(&p.session.cluster).waves.is_empty());
}

#[test]
fn event_rows_are_kubectl_get_events_filtered_by_object() {
    let mut p = Playback::new(common::parse("f4-rolling-update-max-unavailable-1")).expect("ok");
    p.advance_to(40.0, usize::MAX);
    let all = event_rows(&p.session.cluster, None);
    assert!(!all.is_empty());
    let printed = p
        .run_readonly("kubectl get events")
        .expect("read-only")
        .output;
    for r in &all {
        assert!(printed.contains(&r.object), "{}", r.object);
        assert!(printed.contains(&r.message), "{}", r.message);
    }
    assert_eq!(all.len() + 1, printed.lines().count());
    let ds = event_rows(&p.session.cluster, Some("DaemonSet/RU1"));
    assert!(!ds.is_empty());
    assert!(ds.iter().all(|r| r.object == "daemonset/ru1"));
    assert!(event_rows(&p.session.cluster, Some("nothing-like-this")).is_empty());
}

/// The events panel draws the first rows only and says how many there are.
#[test]
fn an_event_table_is_the_first_rows_and_their_total() {
    let mut p = Playback::new(common::parse("f4-rolling-update-max-unavailable-1")).expect("ok");
    p.advance_to(40.0, usize::MAX);
    let c = &p.session.cluster;
    for filter in [
        None,
        Some("DaemonSet/RU1"),
        Some("pod/"),
        Some("nothing-like-this"),
    ] {
        let all = event_rows(c, filter);
        for limit in [0, 3, all.len(), usize::MAX] {
            let t = event_table(c, filter, limit);
            assert_eq!(t.total, all.len(), "{filter:?}");
            assert_eq!(t.rows, all[..limit.min(all.len())], "{filter:?} {limit}");
        }
    }
    assert!(event_rows(c, Some("pod/")).len() > 3);
}

#[test]
fn node_edits_become_the_commands_a_user_would_type_and_replay() {
    use scenario::edit::Edit;
    let mut tl = Timeline::new(common::parse("f3-taints")).expect("ok");
    tl.advance_to(12.0, usize::MAX);
    let add = Edit::AddNodes {
        prefix: "worker".into(),
        count: 3,
        labels: vec!["disk=ssd".into()],
        taints: vec!["dedicated=gpu:NoSchedule".into()],
        capacity: Some("cpu=4,memory=8Gi,pods=110".into()),
    };
    let names = node_names(&tl);
    let cmds = add.commands(&names).expect("valid");
    assert_eq!(cmds.len(), 3);
    assert!(cmds.iter().all(|c| c.starts_with("node add worker")
        && c.ends_with(" --label disk=ssd --taint dedicated=gpu:NoSchedule --capacity cpu=4,memory=8Gi,pods=110")));
    let records = tl.apply_edit(&add).expect("adds");
    assert_eq!(records.len(), 3);
    let node = records[0]
        .command
        .split_whitespace()
        .nth(2)
        .expect("name")
        .to_string();
    for e in [
        Edit::Label {
            node: node.clone(),
            key: "zone".into(),
            value: Some("a".into()),
        },
        Edit::Label {
            node: node.clone(),
            key: "zone".into(),
            value: Some("b".into()),
        },
        Edit::Label {
            node: node.clone(),
            key: "zone".into(),
            value: None,
        },
        Edit::Taint {
            node: node.clone(),
            taint: "k=v:NoExecute".into(),
            remove: false,
        },
        Edit::Taint {
            node: node.clone(),
            taint: "k=v:NoExecute".into(),
            remove: true,
        },
        Edit::Cordon {
            node: "worker".into(),
        },
        Edit::Uncordon {
            node: "worker".into(),
        },
        Edit::StopKubelet {
            node: "worker".into(),
        },
        Edit::StartKubelet {
            node: "worker".into(),
        },
        Edit::RemoveNode { node: node.clone() },
    ] {
        tl.apply_edit(&e)
            .unwrap_or_else(|err| panic!("{e:?}: {err}"));
        tl.advance_to(tl.elapsed() + 2.0, usize::MAX);
    }
    let pod = tl
        .cluster()
        .pods()
        .iter()
        .find_map(|p| p.metadata.name.clone())
        .expect("a pod");
    tl.apply_edit(&Edit::FailPod {
        namespace: "default".into(),
        pod,
    })
    .expect("fails a pod");
    tl.advance_to(tl.elapsed() + 5.0, usize::MAX);
    let pod = tl
        .cluster()
        .pods()
        .iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .find_map(|p| p.metadata.name.clone())
        .expect("a pod");
    tl.apply_edit(&Edit::DeletePod {
        namespace: String::new(),
        pod,
    })
    .expect("deletes a pod");
    tl.advance_to(tl.elapsed() + 30.0, usize::MAX);
    let end = tl.elapsed();
    let mut fresh = Playback::new(tl.scenario().clone()).expect("ok");
    fresh.advance_to(end, usize::MAX);
    assert!(now(&tl) == snapshot(&fresh), "replay of the edits");

    // Bad input is refused with a hint, and nothing runs.
    let script = tl.scenario().script.clone();
    for bad in [
        Edit::AddNodes {
            prefix: "Worker_".into(),
            count: 1,
            labels: vec![],
            taints: vec![],
            capacity: None,
        },
        Edit::AddNodes {
            prefix: "w".into(),
            count: 0,
            labels: vec![],
            taints: vec![],
            capacity: None,
        },
        Edit::AddNodes {
            prefix: "w".into(),
            count: 1,
            labels: vec!["nolabel".into()],
            taints: vec![],
            capacity: None,
        },
        Edit::Taint {
            node: "worker".into(),
            taint: "k=v:Sometimes".into(),
            remove: false,
        },
        Edit::Label {
            node: "worker".into(),
            key: "a b".into(),
            value: Some("c".into()),
        },
        Edit::Cordon { node: "".into() },
        Edit::Cordon {
            node: "ghost".into(),
        },
    ] {
        let e = tl.apply_edit(&bad).expect_err("refused");
        // Refused where a typed line is refused (the verb, kubectl or the API server), with
        // that message and a hint that says what to write.
        assert!(
            (e.output.starts_with("error: ")
                || e.output.contains(" is invalid: ")
                || e.output.contains("not found"))
                // The count's own message says what to do ("add between 1 and …").
                && (e.output.contains("hint: ") || e.output.contains("add between 1 and")),
            "{bad:?}: {}",
            e.output
        );
    }
    assert_eq!(tl.scenario().script, script);

    // A refused edit is named as the script line it would be, never as Rust's Debug.
    let refused = Edit::AddNodes {
        prefix: "Bad_Name".into(),
        count: 3,
        labels: vec!["disk=ssd".into()],
        taints: vec!["gpu=true:Sometimes".into()],
        capacity: None,
    };
    // Refused by the first of its three lines, as typed: that line names it.
    let e = tl.apply_edit(&refused).expect_err("refused");
    assert_eq!(
        e.command,
        "node add Bad_Name --label disk=ssd --taint gpu=true:Sometimes"
    );
    assert_eq!(
        refused.to_string(),
        "node add Bad_Name --label disk=ssd --taint gpu=true:Sometimes (3 nodes)"
    );
    let e = tl
        .apply_edit(&Edit::FailPod {
            namespace: "kube-system".into(),
            pod: "Nope".into(),
        })
        .expect_err("refused");
    assert_eq!(e.command, "pod fail Nope -n kube-system");
}

#[test]
fn an_edit_of_many_commands_runs_them_as_one_change_and_as_injecting_each_would() {
    use scenario::edit::Edit;
    let start = || {
        let mut tl =
            Timeline::new(common::parse("f4-rolling-update-max-unavailable-1")).expect("ok");
        tl.advance_to(12.5, usize::MAX);
        tl
    };
    let add = Edit::AddNodes {
        prefix: "extra".into(),
        count: 4,
        labels: vec!["disk=ssd".into()],
        taints: Vec::new(),
        capacity: None,
    };
    let mut batch = start();
    let names = node_names(&batch);
    let records = batch.apply_edit(&add).expect("adds");
    let mut each = start();
    for c in add.commands(&names).expect("valid") {
        each.inject(&c).expect("runs");
    }
    assert_eq!(records.len(), 4);
    assert_eq!(batch.scenario().script, each.scenario().script);
    assert!(
        now(&batch) == now(&each),
        "the same state right after the edit"
    );
    // The same future, and the edited scenario replays to it from the start.
    batch.advance_to(60.0, usize::MAX);
    each.advance_to(60.0, usize::MAX);
    assert!(now(&batch) == now(&each), "the same state 47.5 s later");
    let mut fresh = Playback::new(batch.scenario().clone()).expect("ok");
    fresh.advance_to(60.0, usize::MAX);
    assert!(now(&batch) == snapshot(&fresh), "replays from the start");
    // One visible change: one step back from it undoes all four nodes.
    let mut again = start();
    again.apply_edit(&add).expect("adds");
    again.step_back();
    let extra = |tl: &Timeline| {
        tl.cluster()
            .nodes()
            .iter()
            .filter(|n| {
                n.metadata
                    .name
                    .as_deref()
                    .is_some_and(|n| n.starts_with("extra"))
            })
            .count()
    };
    assert_eq!(extra(&again), 0, "one step back is before the edit");
    assert!(again.elapsed() <= 12.5);
}

/// A step says each change once: the taint manager marks a pod and deletes it in one step, and
/// that is one eviction, not "evicted …; evicted …".
#[test]
fn no_caption_says_the_same_thing_twice() {
    for (id, _, _) in common::presets() {
        for caption in captions(id, 40.0) {
            let parts: Vec<&str> = caption.split("; ").collect();
            for pair in parts.windows(2) {
                assert_ne!(pair[0], pair[1], "{id}: {caption}");
            }
        }
    }
    let caps = captions("f3-taints", 6.0);
    has(&caps, "taint manager evicted f3-");
}

/// Two script lines at one instant are one step: the caption names both commands and says what
/// they did together, not the first one's effect under the second one's name.
#[test]
fn a_step_of_two_edits_names_both_and_their_effect() {
    let caps = captions("f3-taints", 6.0);
    has(
        &caps,
        "script: kubectl taint node worker k42=x:NoSchedule-, then kubectl taint node worker \
         k42=x:NoExecute: ",
    );
    let step = caps
        .iter()
        .find(|c| c.contains("k42=x:NoSchedule-, then"))
        .expect("the step");
    assert!(
        step.contains("tainted worker with k42=x:NoExecute"),
        "{step}"
    );
    assert!(
        step.contains("removed taint k42=x:NoSchedule from worker"),
        "{step}"
    );
    assert!(!step.contains("more like it"), "{step}");
}

/// A label edit says which label (the node selector's story in F-2 is all about labels), and
/// a pod the controller deletes at once (failed, or never started) says why, like one it
/// deletes gracefully.
#[test]
fn captions_name_labels_and_immediate_deletions() {
    let caps = captions("f2-node-labels", 12.0);
    has(
        &caps,
        "script: kubectl label node worker2 k42=yes: labeled worker2 with k42=yes",
    );
    has(&caps, "removed label k42 from worker2");
    assert!(
        !caps.iter().any(|c| c.contains(" changed")),
        "{}",
        caps.join("\n")
    );

    let caps = captions("failed-pod-backoff", 5.0);
    has(&caps, "controller deleted flaky-");
    has(&caps, "on worker2: the pod failed; a new one replaces it");
    // R-RU-8: the undo deletes the not-ready pod of the bad revision outside the budget.
    let caps = captions("rollback-without-restarts", 30.0);
    has(
        &caps,
        ": rolling update: old pod not available, replaced at once (",
    );
    assert!(
        caps.iter().all(|c| !c.ends_with(" deleted")),
        "{}",
        caps.join("\n")
    );
}

/// A lesson step's `run:` lines (with a `sleep` and an `expect:`, which an edit may not be)
/// appended at any moment play as the scenario's own lines do: appended while the script
/// still runs, they wait for it; appended after it, they run now. Either way the scenario with
/// the lines in it, played from the start, reaches the same states, and seeking back through
/// the checkpoints taken before the lines were appended agrees.
#[test]
fn lesson_run_lines_appended_at_any_moment_replay_from_the_start() {
    let lesson = |id: &str| {
        let p = scenario::presets::lesson(id).expect("lesson");
        scenario::parse_lesson(p.file, p.text).unwrap_or_else(|e| panic!("{e}"))
    };
    let file = lesson("bad-rollout-undo");
    let reveal = &file.lesson.steps[0].run;
    assert!(reveal
        .iter()
        .any(|l| matches!(&l.step, scenario::Step::Run(c) if c.starts_with("sleep"))));
    let script_len = file.scenario.script.len();
    for (t_answer, still_running) in [(0.0, true), (25.0, false)] {
        let mut tl = Timeline::new(file.scenario.clone()).expect("ok");
        tl.advance_to(40.0, usize::MAX);
        tl.seek(t_answer);
        assert_eq!(!tl.playback().script_done(), still_running, "at {t_answer}");
        tl.append_lines(reveal);
        assert!(
            tl.horizon() <= t_answer + 1e-9,
            "the future seen before is dropped"
        );
        let added = &tl.scenario().script[script_len..];
        // After the script: a `sleep` for the idle time, then the lines as written.
        assert_eq!(&added[added.len() - reveal.len()..], &reveal[..]);
        assert_eq!(added.len() > reveal.len(), !still_running);
        tl.advance_to(150.0, usize::MAX);
        assert!(tl.playback().script_done());
        // The reveal's expect lines held (the lesson test pins them too).
        let expects: Vec<_> = tl
            .playback()
            .log
            .iter()
            .filter(|r| r.command.starts_with("kubectl get ds agent -o jsonpath"))
            .collect();
        assert!(
            !expects.is_empty() && expects.iter().all(|r| r.ok),
            "{expects:#?}"
        );
        for target in [t_answer, t_answer + 1.0, 30.0, 61.0, 120.0] {
            tl.seek(target);
            let mut fresh = Playback::new(tl.scenario().clone()).expect("ok");
            fresh.advance_to(target, usize::MAX);
            assert!(
                now(&tl) == snapshot(&fresh),
                "answered at {t_answer}, seek({target})"
            );
        }
    }
}
