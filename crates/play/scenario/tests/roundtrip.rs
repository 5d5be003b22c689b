//! Writing a scenario out and reading it back gives the same scenario: as a YAML file (the
//! download) and as a share link (JSON, deflated, base64url).

mod arbitrary;

use proptest::prelude::*;
use scenario::share::{self, ShareView};
use scenario::{presets, write};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn yaml_written_is_read_back_the_same(s in arbitrary::scenario()) {
        let yaml = write::to_yaml(&s);
        let back = scenario::parse("written.yaml", &yaml)
            .map_err(|e| TestCaseError::fail(format!("{e}\n---\n{yaml}")))?;
        prop_assert!(back.same_content(&s), "differs:\n{yaml}\n{back:#?}\n{s:#?}");
        // A file keeps its suggestions (a link leaves them out; `same_content` ignores them).
        prop_assert_eq!(back.try_this, s.try_this);
    }

    #[test]
    fn a_share_link_opens_the_same_scenario_view_and_time(
        s in arbitrary::scenario(),
        panel in proptest::option::of("[a-z]{1,10}"),
        theme in proptest::option::of(prop_oneof![Just("light".to_string()), Just("dark".to_string())]),
        t in proptest::option::of(0u32..1_000_000),
        lesson in proptest::option::of(("[a-z][a-z0-9-]{0,20}", 0usize..20, proptest::option::of(0usize..6), any::<bool>(), 0usize..20)),
    ) {
        let lesson = lesson.map(|(id, step, answered, done, played)| share::ShareLesson {
            id,
            progress: scenario::LessonProgress { step, answered, done },
            played,
        });
        let view = ShareView { panel, theme, lesson };
        let t = t.map(|ms| f64::from(ms) / 1000.0);
        let link = format!("https://example.org/playground/{}", share::fragment(&s, &view, t));
        let opened = share::decode(&link).map_err(|e| TestCaseError::fail(format!("{e}\n{link}")))?;
        prop_assert!(opened.scenario.same_content(&s), "{:#?}\n{s:#?}", opened.scenario);
        prop_assert_eq!(opened.view, view);
        prop_assert_eq!(opened.t, t.filter(|t| *t > 0.0));
        prop_assert_eq!(opened.scenario.source_name.as_str(), share::SOURCE_NAME);
    }
}

#[test]
fn every_preset_round_trips_through_yaml_and_a_link() {
    for p in presets::ALL {
        let s = scenario::parse(p.file, p.text).unwrap_or_else(|e| panic!("{e}"));
        let yaml = write::to_yaml(&s);
        let back = scenario::parse(p.file, &yaml).unwrap_or_else(|e| panic!("{e}\n{yaml}"));
        assert!(back.same_content(&s), "{}:\n{yaml}", p.id);
        assert_eq!(back.try_this, s.try_this, "{}", p.id);
        let opened = share::decode(&share::encode(&s, &ShareView::default()))
            .unwrap_or_else(|e| panic!("{}: {e}", p.id));
        assert!(opened.scenario.same_content(&s), "{}", p.id);
        assert!(
            opened.scenario.try_this.is_empty(),
            "{}: a link carries no suggestions",
            p.id
        );
    }
}

#[test]
fn the_written_yaml_reads_like_a_preset() {
    let p = presets::default_preset();
    let s = scenario::parse(p.file, p.text).unwrap_or_else(|e| panic!("{e}"));
    let yaml = write::to_yaml(&s);
    for line in [
        "scenario: f1-one-pod-per-node\n",
        "  - name: control-plane\n",
        "    labels: {node-role.kubernetes.io/control-plane: \"\"}\n",
        "    taints: [\"node-role.kubernetes.io/control-plane:NoSchedule\"]\n",
        "  - name: worker\n",
        "  - {count: 3, from: 2, pool: worker}\n",
        "  fluentd.yaml: |\n    apiVersion: apps/v1\n",
        "  - kubectl apply -f fluentd.yaml\n",
        "  - expect: kubectl get ds fluentd -n kube-system -o jsonpath={.status.numberReady}\n    equals: \"4\"\n",
    ] {
        assert!(yaml.contains(line), "{line:?} not in\n{yaml}");
    }
}

#[test]
fn the_json_has_the_scenario_files_keys_and_leaves_defaults_out() {
    let s = scenario::parse("s.yaml", "scenario: x\nnodes: [{pool: w, count: 2}]\n")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        write::to_json(&s).to_string(),
        r#"{"nodes":[{"count":2,"pool":"w"}],"scenario":"x"}"#
    );
}
