//! Every preset parses, runs, and its `expect:` lines hold.

#[test]
fn every_preset_runs_and_its_expectations_hold() {
    for p in scenario::presets::ALL {
        let s = scenario::parse(p.file, p.text).unwrap_or_else(|e| panic!("{e}"));
        let out = scenario::run(&s, false).unwrap_or_else(|e| panic!("{e}"));
        for r in &out.records {
            eprintln!("[{:>7.1}s] $ {}\n{}", r.t, r.command, r.output);
        }
        assert!(out.failures.is_empty(), "{}: {:?}", p.id, out.failures);
        assert!(out.passed > 0, "{} has expectations", p.id);
    }
}
