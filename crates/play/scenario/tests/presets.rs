//! Every preset parses, runs, and its `expect:` lines hold; the library is well formed.

mod common;

#[test]
fn every_preset_runs_and_its_expectations_hold() {
    for (id, file, text) in common::presets() {
        let s = scenario::parse(file, &text).unwrap_or_else(|e| panic!("{e}"));
        let out = scenario::run(&s, false).unwrap_or_else(|e| panic!("{e}"));
        if !out.failures.is_empty() {
            for r in &out.records {
                eprintln!("[{:>7.1}s] $ {}\n{}", r.t, r.command, r.output);
            }
        }
        assert!(
            out.failures.is_empty(),
            "{id}: {}",
            out.failures
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        );
        assert!(out.passed > 0, "{id} has expectations");
        assert_eq!(s.id, id, "{file}: `scenario:` must equal the file name");
        assert!(!s.title.is_empty() && s.title != s.id, "{id} has a title");
        assert!(s.description.len() > 80, "{id} tells its story");
        assert_eq!(
            s.try_this.len(),
            3,
            "{id} suggests three things to try first"
        );
    }
}

#[test]
fn the_library_holds_the_issue_list_with_the_default_first() {
    let ids: Vec<&str> = scenario::presets::ALL.iter().map(|p| p.id).collect();
    assert_eq!(
        scenario::presets::default_preset().id,
        "f1-one-pod-per-node"
    );
    for want in [
        "f1-one-pod-per-node",
        "f2-node-labels",
        "f3-taints",
        "f4-rolling-update-max-unavailable-1",
        "f5-rolling-update-max-unavailable-2",
        "f6-on-delete",
        "max-surge-rollout",
        "rollback-without-restarts",
        "node-joins-and-leaves",
        "node-kubelet-stops",
        "zone-outage-rate-limited-taints",
        "failed-pod-backoff",
        "toleration-seconds-evict-loop",
        "node-too-small",
        "orphan-delete-and-readoption",
        "cluster-500-nodes",
        "cluster-5000-nodes",
    ] {
        assert!(ids.contains(&want), "missing preset {want}");
        assert_eq!(scenario::presets::get(want).map(|p| p.id), Some(want));
    }
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len(), "duplicate preset ids");
    assert!(scenario::presets::get("nope").is_none());
}

#[test]
fn every_script_line_of_every_preset_succeeds_unless_it_is_an_expect() {
    // A preset that prints an error where it means to tell a story is a broken preset; errors
    // a preset shows on purpose are pinned by an `expect:` line.
    for (id, file, text) in common::presets() {
        let s = scenario::parse(file, &text).unwrap_or_else(|e| panic!("{e}"));
        let out = scenario::run(&s, false).unwrap_or_else(|e| panic!("{e}"));
        for (line, r) in s.script.iter().zip(&out.records) {
            if matches!(line.step, scenario::Step::Run(_)) {
                assert!(
                    r.ok,
                    "{id}:{}: `{}` failed:\n{}",
                    r.line, r.command, r.output
                );
            }
        }
    }
}
