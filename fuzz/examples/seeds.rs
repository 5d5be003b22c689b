//! Writes seed corpora for the fuzz targets from the repository's own inputs, one file per
//! input, into `DIR/<target>/` (default `fuzz/seeds`): the presets and lessons, the files of
//! their `files:` sections, their script lines, the presets' share links (as `dsplay share`
//! writes them) and link JSON, `kubectl get nodes -o yaml|json` of each preset's cluster, the
//! Embed API's messages (each preset as a `dsplay:load`), and the bad inputs of
//! `docs/bad-inputs.md`. `cargo fuzz cmin` then keeps what adds coverage
//! (docs/fuzzing.md).
//!
//! `cargo run --manifest-path fuzz/Cargo.toml --example seeds [DIR]`

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use scenario::{presets, share, Step};

#[path = "../../crates/play/scenario/tests/common/bad_inputs.rs"]
mod bad_inputs;

#[derive(Default)]
struct Seeds {
    by_target: std::collections::BTreeMap<&'static str, BTreeSet<String>>,
}

impl Seeds {
    fn add(&mut self, target: &'static str, text: impl Into<String>) {
        self.by_target
            .entry(target)
            .or_default()
            .insert(text.into());
    }

    fn write(&self, dir: &Path) -> std::io::Result<()> {
        for (target, texts) in &self.by_target {
            let d = dir.join(target);
            fs::create_dir_all(&d)?;
            for (i, t) in texts.iter().enumerate() {
                fs::write(d.join(format!("seed-{i:04}")), t)?;
            }
            println!("{target}: {} seeds", texts.len());
        }
        Ok(())
    }
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("fuzz/seeds"));
    let mut seeds = Seeds::default();

    // The Embed API's messages, as docs/embed.md shows them.
    for m in [
        r#"{"type":"dsplay:play"}"#,
        r#"{"type":"dsplay:pause"}"#,
        r#"{"type":"dsplay:step"}"#,
        r#"{"type":"dsplay:seek","t":30}"#,
        r#"{"type":"dsplay:speed","x":3}"#,
        r#"{"type":"dsplay:seek","t":"x"}"#,
        "dsplay:play",
    ] {
        seeds.add("embed", m);
    }

    for p in presets::ALL.iter().chain(presets::LESSONS) {
        seeds.add("scenario", p.text);
        seeds.add(
            "embed",
            serde_json::json!({ "type": "dsplay:load", "scenario": p.text }).to_string(),
        );
        let Ok((s, lesson)) = scenario::lesson::parse_with_lesson(p.file, p.text) else {
            continue;
        };
        if lesson.is_some() {
            seeds.add("lesson", p.text);
        }
        for text in s.files.values() {
            seeds.add("manifest", text.clone());
            seeds.add("editor", text.clone());
        }
        let mut lines = Vec::new();
        for line in &s.script {
            let cmd = match &line.step {
                Step::Run(c) => c,
                Step::Expect { command, .. } => command,
            };
            lines.push(cmd.clone());
            seeds.add("kubectl", cmd.clone());
        }
        // A whole script as one input, as a user would type it line after line.
        seeds.add("kubectl", lines.join("\n"));
        let view = share::ShareView::default();
        seeds.add("share", share::fragment(&s, &view, Some(12.5)));
        seeds.add(
            "share",
            serde_json::to_string(&share::to_link_json(&s, &view)).expect("JSON"),
        );
        if dsplay_fuzz::node_count(&s) <= 100 {
            if let Ok(mut session) = scenario::start(&s) {
                for o in ["yaml", "json"] {
                    let r = scenario::run_line(&mut session, &format!("kubectl get nodes -o {o}"));
                    if r.ok {
                        seeds.add("import", r.output);
                    }
                }
            }
        }
    }

    for group in bad_inputs::groups() {
        let targets: &[&'static str] = match group.title {
            "Scenario file" => &["scenario"],
            "Script line" | "kubectl command" => &["kubectl"],
            "Manifest" => &["manifest"],
            "YAML editor" => &["editor"],
            "Share link" => &["share"],
            "Node import" => &["import"],
            "Lesson file" => &["lesson"],
            _ => &[],
        };
        for row in &group.rows {
            for t in targets {
                seeds.add(t, row.input.clone());
            }
        }
    }

    if let Err(e) = seeds.write(&dir) {
        eprintln!("writing the seeds under {}: {e}", dir.display());
        std::process::exit(1);
    }
}
