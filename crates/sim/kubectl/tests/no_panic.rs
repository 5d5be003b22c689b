//! No command line, however odd, makes kubectl panic.

mod common;

use proptest::prelude::*;

const WORDS: &[&str] = &[
    "kubectl",
    "get",
    "describe",
    "apply",
    "create",
    "delete",
    "label",
    "taint",
    "cordon",
    "uncordon",
    "drain",
    "set",
    "image",
    "env",
    "patch",
    "rollout",
    "status",
    "history",
    "undo",
    "restart",
    "ds",
    "ds/node-exporter",
    "node-exporter",
    "pods",
    "po",
    "nodes",
    "node/worker",
    "worker",
    "controllerrevisions",
    "events",
    "-o",
    "wide",
    "yaml",
    "json",
    "name",
    "jsonpath={.items[*].metadata.name}",
    "-ojsonpath={range .items[*]}{.x}{end}",
    "-n",
    "-A",
    "-l",
    "app=x",
    "-f",
    "ds.yaml",
    "bad.yaml",
    "--cascade=orphan",
    "--overwrite",
    "k=v",
    "k-",
    "k=v:NoSchedule",
    "k:NoExecute-",
    "--ignore-daemonsets",
    "-p",
    "{\"spec\":{}}",
    "--type",
    "json",
    "merge",
    "[]",
    "--to-revision=1",
    "--revision=2",
    "-c",
    "node-exporter=x:1",
    "'",
    "\"",
    "\\",
    "=",
    "--",
    "-",
    "{",
    "}",
    "[?(@.a==\"b\")]",
    "--timeout=1s",
];

fn line() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        4 => proptest::sample::select(WORDS).prop_map(str::to_string),
        1 => ".{0,12}",
    ];
    proptest::collection::vec(word, 0..8).prop_map(|w| w.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]
    #[test]
    fn random_command_lines_never_panic(l in line()) {
        let mut fake = common::Fake::new();
        let mut r = kubectl::run(&mut fake, &l);
        if let Some(mut w) = r.wait.take() {
            for _ in 0..20 {
                fake.tick();
                if !matches!(w.poll(&fake), kubectl::WaitState::Pending(_)) {
                    break;
                }
            }
        }
    }
}
