//! `public/embed-titles.json`, read by boot.js's click-to-load preview (`?embed=1&ctl=1`)
//! to show a preset's title before the simulator (and so the presets) is loaded, must match the
//! presets. `UPDATE_GOLDEN=1 cargo test -p dsplay-app --test embed_titles` rewrites it.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

/// A JSON string (the titles are plain text: quotes, backslashes and control characters are
/// all that need escaping).
fn json_string(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn expected() -> String {
    let titles: Vec<String> = scenario::presets::ALL
        .iter()
        .map(|p| {
            let title = scenario::parse(p.file, p.text)
                .unwrap_or_else(|e| panic!("preset {}: {e}", p.id))
                .title;
            format!("{}:{}", json_string(p.id), json_string(&title))
        })
        .collect();
    format!(
        "{{\"default\":{},\"titles\":{{\n{}\n}}}}\n",
        json_string(scenario::presets::default_preset().id),
        titles.join(",\n")
    )
}

#[test]
fn the_click_to_load_preview_titles_are_the_presets_titles() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../public/embed-titles.json");
    let want = expected();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{} is stale: run `UPDATE_GOLDEN=1 cargo test -p dsplay-app --test embed_titles`",
        path.display()
    );
}

#[test]
fn titles_are_escaped_as_json_strings() {
    assert_eq!(json_string(r#"a "b" \ c"#), r#""a \"b\" \\ c""#);
    assert_eq!(json_string("x\ny"), r#""x\u000ay""#);
}
