//! Share links are bounded and never panic: random input, truncations, bit flips, a deflate
//! bomb, huge node counts and unknown versions all end in a clear error with a hint. Also the
//! link length of every preset (the table in docs/presets.md).

mod arbitrary;
#[path = "common/bad_inputs.rs"]
mod bad_inputs;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use proptest::prelude::*;
use scenario::share::{self, ShareErrorKind, ShareView};
use scenario::{presets, write};

/// A link payload carrying `json` as the app would write it.
use bad_inputs::payload_of;

fn default_link() -> String {
    let p = presets::default_preset();
    let s = scenario::parse(p.file, p.text).unwrap_or_else(|e| panic!("{e}"));
    share::encode(&s, &ShareView::default())
}

/// Decodes without panicking; an error must say what and how to fix it.
fn opens(input: &str) -> Result<scenario::share::Shared, scenario::share::ShareError> {
    let r = share::decode(input);
    if let Err(e) = &r {
        assert!(!e.message.is_empty() && !e.hint.is_empty(), "{e:?}");
        assert!(e.to_string().contains("\n  hint: "), "{e}");
    }
    r
}

fn error_of(input: &str) -> scenario::share::ShareError {
    match opens(input) {
        Ok(s) => panic!("{input:.80} opened: {:?}", s.scenario.id),
        Err(e) => e,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_text_never_panics(s in any::<String>()) {
        let _ = opens(&s);
        let _ = opens(&format!("#s=1.{s}"));
        let _ = opens(&format!("1.{s}&t={s}"));
    }

    #[test]
    fn random_base64_never_panics(s in "[A-Za-z0-9_-]{0,400}") {
        let _ = opens(&format!("1.{s}"));
    }

    #[test]
    fn random_deflate_streams_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        let _ = opens(&format!("1.{}", URL_SAFE_NO_PAD.encode(&bytes)));
        let packed = miniz_oxide::deflate::compress_to_vec(&bytes, 6);
        let _ = opens(&format!("1.{}", URL_SAFE_NO_PAD.encode(packed)));
    }

    #[test]
    fn random_json_never_panics(s in arbitrary::scenario(), cut in any::<prop::sample::Index>()) {
        // Valid JSON of the wrong shape: a scenario cut at any character.
        let json = write::to_json(&s).to_string();
        let at = cut.index(json.len() + 1);
        let json = json.get(..at).unwrap_or(&json);
        let _ = opens(&payload_of(json));
    }
}

#[test]
fn every_truncation_of_a_real_link_is_an_error() {
    let link = format!("https://example.org/#s={}", default_link());
    let start = link.find("#s=").unwrap_or(0);
    for cut in 0..link.len() {
        let e = error_of(&link[..cut]);
        if cut <= start + 5 {
            assert!(
                matches!(e.kind, ShareErrorKind::NotALink | ShareErrorKind::Corrupt),
                "{cut}: {e}"
            );
        }
    }
}

#[test]
fn single_bit_flips_never_panic() {
    let link = default_link();
    let bytes = URL_SAFE_NO_PAD
        .decode(&link[2..])
        .unwrap_or_else(|e| panic!("{e}"));
    let (mut opened, mut refused) = (0, 0);
    for i in 0..bytes.len() * 8 {
        let mut b = bytes.clone();
        b[i / 8] ^= 1 << (i % 8);
        match opens(&format!("1.{}", URL_SAFE_NO_PAD.encode(&b))) {
            Ok(_) => opened += 1,
            Err(_) => refused += 1,
        }
    }
    // Raw DEFLATE has no checksum: a flip inside a literal can still be a valid scenario.
    println!("bit flips: {refused} refused, {opened} still a valid scenario");
    assert!(refused > opened);
    // Characters outside base64url are named with their position.
    let e = error_of(&format!("{}!{}", &link[..10], &link[10..]));
    assert_eq!(e.kind, ShareErrorKind::Corrupt);
    assert!(e.message.contains("'!' at position 11"), "{e}");
}

#[test]
fn a_deflate_bomb_is_stopped_at_one_mebibyte() {
    let json = format!(
        "{{\"scenario\":\"x\",\"description\":\"{}\"}}",
        "a".repeat(8 << 20)
    );
    let link = payload_of(&json);
    assert!(link.len() < 30_000, "the bomb is small: {}", link.len());
    let started = std::time::Instant::now();
    let e = error_of(&link);
    assert_eq!(e.kind, ShareErrorKind::TooLarge, "{e}");
    assert!(e.message.contains("larger than 1 MiB"), "{e}");
    println!("8 MiB bomb refused in {:?}", started.elapsed());
}

#[test]
fn long_strings_and_keys_are_refused_with_their_place() {
    let e = error_of(&payload_of(&format!(
        "{{\"scenario\":\"x\",\"files\":{{\"ds.yaml\":\"{}\"}}}}",
        "a".repeat(300 * 1024)
    )));
    assert_eq!(e.kind, ShareErrorKind::BadData);
    assert!(e.message.contains("at files.ds.yaml"), "{e}");
    let e = error_of(&payload_of(&format!(
        "{{\"scenario\":\"x\",\"nodes\":[{{\"name\":\"a\",\"labels\":{{\"{}\":\"\"}}}}]}}",
        "k".repeat(2000)
    )));
    assert!(
        e.message.contains("key of 2000 bytes at nodes[0].labels"),
        "{e}"
    );
}

#[test]
fn deep_nesting_is_refused_without_overflowing_the_stack() {
    let json = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let e = error_of(&payload_of(&json));
    assert_eq!(e.kind, ShareErrorKind::BadData, "{e}");
}

#[test]
fn huge_node_counts_are_refused() {
    for (nodes, want) in [
        (
            r#"[{"pool":"w","count":1000000}]"#,
            "over the limit of 5000 nodes",
        ),
        // 2^32 + 1 would be 1 if it were truncated to 32 bits (wasm).
        (
            r#"[{"pool":"w","count":4294967297}]"#,
            "over the limit of 5000 nodes",
        ),
        (
            r#"[{"pool":"w","count":2,"from":18446744073709551615}]"#,
            "would overflow",
        ),
        (
            r#"[{"pool":"a","count":5000},{"pool":"b","count":5000}]"#,
            "nodes[1]: more than 5000 nodes",
        ),
    ] {
        let e = error_of(&payload_of(&format!(
            "{{\"scenario\":\"x\",\"nodes\":{nodes}}}"
        )));
        assert_eq!(e.kind, ShareErrorKind::BadScenario, "{e}");
        assert!(e.message.contains(want), "{want:?} not in {e}");
    }
}

#[test]
fn an_invalid_scenario_names_the_field() {
    let e = error_of(&payload_of(
        r#"{"scenario":"x","script":["kubectl get ds","sleep 1s","kubectl get pods",42]}"#,
    ));
    assert_eq!(e.kind, ShareErrorKind::BadScenario);
    assert!(
        e.message.contains("script[3]: a script line must be"),
        "{e}"
    );
    let e = error_of(&payload_of(r#"{"scenario":"x","nodse":[]}"#));
    assert!(e.message.contains("unknown key \"nodse\""), "{e}");
    assert!(e.hint.contains("did you mean \"nodes\""), "{e}");
    let e = error_of(&payload_of(r#"{"title":"no id"}"#));
    assert!(e.message.contains("missing `scenario:`"), "{e}");
}

#[test]
fn unknown_versions_say_which_this_build_reads() {
    let link = default_link();
    let e = error_of(&format!("2{}", &link[1..]));
    assert_eq!(e.kind, ShareErrorKind::UnknownVersion("2".into()));
    assert!(e.message.contains("share format 2"), "{e}");
    assert!(e.message.contains("reads format 1"), "{e}");
    let e = error_of("#s=999999999999999999999999.abc");
    assert!(matches!(e.kind, ShareErrorKind::UnknownVersion(_)), "{e}");
}

#[test]
fn every_form_of_the_link_opens() {
    let payload = default_link();
    for input in [
        format!("https://example.org/play/?x=1#s={payload}&t=12.5"),
        format!("#s={payload}&t=12.5"),
        format!("s={payload}&t=12.5"),
        format!("{payload}&t=12.5"),
        format!("  {payload}&t=12.5\n"),
    ] {
        let s = opens(&input).unwrap_or_else(|e| panic!("{input:.60}: {e}"));
        assert_eq!(s.t, Some(12.5));
        assert_eq!(s.scenario.id, "f1-one-pod-per-node");
    }
    assert_eq!(opens(&payload).map(|s| s.t).ok(), Some(None));
}

#[test]
fn bad_times_and_non_links_are_explained() {
    let payload = default_link();
    for t in ["abc", "-1", "1e300", "NaN", "inf", ""] {
        let e = error_of(&format!("#s={payload}&t={t}"));
        assert_eq!(e.kind, ShareErrorKind::BadTime, "{t}: {e}");
    }
    for input in [
        "",
        "https://example.org/",
        "#x=1",
        "hello",
        "#s=",
        "#s=abc",
        "#s=.abc",
    ] {
        assert_eq!(error_of(input).kind, ShareErrorKind::NotALink, "{input}");
    }
    let e = error_of(&payload_of("[1,2]"));
    assert_eq!(e.kind, ShareErrorKind::BadData);
    let e = error_of(&payload_of("not json"));
    assert_eq!(e.kind, ShareErrorKind::BadData);
    let e = error_of(&payload_of(
        r#"{"scenario":"x","view":{"theme":"<script>"}}"#,
    ));
    assert!(e.message.contains("view.theme"), "{e}");
    // A view key this build does not know is ignored.
    assert!(opens(&payload_of(r#"{"scenario":"x","view":{"zoom":3}}"#)).is_ok());
}

/// The table in docs/presets.md: the link of every preset (`#s=…`, without the page's address).
#[test]
fn link_length_of_every_preset() {
    println!("| preset | nodes | JSON bytes | link (`#s=…`) characters |");
    println!("|---|---:|---:|---:|");
    for p in presets::ALL {
        let s = scenario::parse(p.file, p.text).unwrap_or_else(|e| panic!("{e}"));
        let json = write::to_json(&s).to_string();
        let fragment = share::fragment(&s, &ShareView::default(), None);
        println!(
            "| {} | {} | {} | {} |",
            p.id,
            s.node_objects().len(),
            json.len(),
            fragment.len()
        );
        assert!(
            share::link_warning(fragment.len()).is_none(),
            "{}: {}",
            p.id,
            fragment.len()
        );
        if p.id == presets::default_preset().id {
            assert!(
                fragment.len() < 1_000,
                "default preset link {}",
                fragment.len()
            );
        }
    }
}

/// The autosave's memo writes the same text as encoding afresh, through changes of time, view
/// and scenario (and a change back).
#[test]
fn remembered_fragments_equal_fresh_ones() {
    let p = presets::default_preset();
    let base = scenario::parse(p.file, p.text).unwrap_or_else(|e| panic!("{e}"));
    let mut edited = base.clone();
    edited.script.pop();
    let events = ShareView {
        panel: Some("events".into()),
        ..ShareView::default()
    };
    let mut memo = share::Fragments::default();
    for (s, v, t) in [
        (&base, &ShareView::default(), None),
        (&base, &ShareView::default(), Some(1.0)),
        (&base, &ShareView::default(), Some(2.5)),
        (&base, &events, Some(2.5)),
        (&edited, &events, Some(3.0)),
        (&edited, &events, Some(4.0)),
        (&base, &events, Some(4.0)),
    ] {
        assert_eq!(memo.fragment(s, v, t), share::fragment(s, v, t));
    }
}

/// A link keeps the lesson and where the learner is; a link without one (every link made
/// before lessons) still opens, with no lesson; a malformed one is refused with a hint.
#[test]
fn a_lesson_in_a_link_is_optional_and_checked() {
    let p = presets::default_preset();
    let s = scenario::parse(p.file, p.text).unwrap_or_else(|e| panic!("{e}"));
    let mut json = write::to_json(&s);
    let old = opens(&payload_of(&json.to_string())).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(old.view.lesson, None);

    let lesson = share::ShareLesson {
        id: "taints-and-toleration-seconds".into(),
        progress: scenario::LessonProgress {
            step: 2,
            answered: Some(1),
            done: true,
        },
        played: 3,
    };
    let view = ShareView {
        lesson: Some(lesson.clone()),
        ..ShareView::default()
    };
    let opened = opens(&share::encode(&s, &view)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(opened.view.lesson, Some(lesson));

    let mut with_view = |view: serde_json::Value| {
        json["view"] = view;
        payload_of(&json.to_string())
    };
    // Only the id is required; the rest defaults to the first step, unanswered.
    let minimal = opens(&with_view(
        serde_json::json!({"lesson": {"id": "max-surge"}}),
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        minimal.view.lesson,
        Some(share::ShareLesson {
            id: "max-surge".into(),
            ..Default::default()
        })
    );
    for (lesson, says) in [
        (serde_json::json!("max-surge"), "is not a map"),
        (serde_json::json!({"id": "Max Surge"}), "has no id"),
        (serde_json::json!({"step": 1}), "has no id"),
        (
            serde_json::json!({"id": "max-surge", "step": -1}),
            "step that is not a small whole number",
        ),
        (
            serde_json::json!({"id": "max-surge", "played": 1e9}),
            "played that is not a small whole number",
        ),
        (
            serde_json::json!({"id": "max-surge", "done": "yes"}),
            "done that is not true or false",
        ),
    ] {
        let e = error_of(&with_view(serde_json::json!({ "lesson": lesson })));
        assert_eq!(e.kind, ShareErrorKind::BadData, "{e}");
        assert!(e.message.contains(says), "{e}");
    }
}
