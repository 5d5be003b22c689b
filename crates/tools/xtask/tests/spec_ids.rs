//! Every behaviour-rule id the repository cites resolves in `docs/spec.md`.
//!
//! Code, tests and docs cite the rules of `docs/spec.md` by id: one rule (`R-MAN-3`, or
//! `R-SYNC-7b` for a step of `R-SYNC-7`), a range (`R-RU-6..8`), a pair (`R-NODE-2/3`) or a
//! whole area (`R-ELG-*`, or a bare `R-ELG`). The spec defines each rule on a line of its own
//! starting with `- **R-<AREA>-<n>**`. This test walks the repository's text files, reads every
//! citation and fails, with `file:line` for each, when one names a rule (or an area) the spec
//! does not define. The scanner is std only and is tested on planted text below, so a broken
//! scanner cannot pass by finding nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

/// Where the rules are defined, relative to the repository root.
const SPEC: &str = "docs/spec.md";

/// This file: it plants undefined ids on purpose, so the repository walk skips it.
const THIS_FILE: &str = "crates/tools/xtask/tests/spec_ids.rs";

/// What the walk reads: these roots, recursively, files with these extensions.
const ROOTS: &[&str] = &[
    "crates",
    "lessons",
    "presets",
    "docs",
    "web",
    "tests",
    "ARCHITECTURE.md",
    "README.md",
];
const TEXT_EXTENSIONS: &[&str] = &[
    "rs", "md", "yaml", "yml", "mjs", "js", "html", "css", "txt", "toml", "json",
];
/// Folders never read: build output, npm's packages, hidden folders (`.venv`, …).
const SKIPPED_DIRS: &[&str] = &["target", "node_modules", "dist"];

/// A citation: one rule (area and number) or a whole area.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Cite {
    Rule(String, u32),
    Area(String),
}

impl fmt::Display for Cite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cite::Rule(area, n) => write!(f, "R-{area}-{n}"),
            Cite::Area(area) => write!(f, "R-{area}-*"),
        }
    }
}

/// The rules a spec defines, or the lines that define a rule twice or look like a definition
/// but do not parse.
fn defined_rules(spec: &str) -> Result<BTreeSet<(String, u32)>, Vec<String>> {
    let mut rules = BTreeSet::new();
    let mut errors = Vec::new();
    for (index, line) in spec.lines().enumerate() {
        let Some(rest) = line.strip_prefix("- **R-") else {
            continue;
        };
        let parsed = rest.split_once("**").and_then(|(id, _)| {
            let (area, number) = id.split_once('-')?;
            let valid_area = !area.is_empty() && area.bytes().all(|b| b.is_ascii_uppercase());
            let number = number.parse::<u32>().ok()?;
            valid_area.then(|| (area.to_string(), number))
        });
        match parsed {
            Some(rule) if rules.contains(&rule) => errors.push(format!(
                "{SPEC}:{}: R-{}-{} is defined twice",
                index + 1,
                rule.0,
                rule.1
            )),
            Some(rule) => {
                rules.insert(rule);
            }
            None => errors.push(format!(
                "{SPEC}:{}: a definition line whose id does not parse: {line}",
                index + 1
            )),
        }
    }
    if errors.is_empty() {
        Ok(rules)
    } else {
        Err(errors)
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// The digits at `at`, as a number, and where they end.
fn number_at(bytes: &[u8], at: usize) -> Option<(u32, usize)> {
    let at = at.min(bytes.len());
    let end = at
        + bytes[at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
    let digits = std::str::from_utf8(&bytes[at..end]).ok()?;
    digits.parse().ok().map(|n| (n, end))
}

/// Every citation of one line, in order. A citation starts at `R-` not preceded by a letter,
/// digit, `_` or `-` (so `CONTAINER-RUNTIME` is none), followed by an upper-case area.
fn citations_in_line(line: &str) -> Vec<Cite> {
    let bytes = line.as_bytes();
    let mut cites = Vec::new();
    let mut i = 0;
    while i + 2 < bytes.len() {
        let starts =
            bytes[i] == b'R' && bytes[i + 1] == b'-' && (i == 0 || !is_word_byte(bytes[i - 1]));
        if !starts {
            i += 1;
            continue;
        }
        let area_end = i
            + 2
            + bytes[i + 2..]
                .iter()
                .take_while(|b| b.is_ascii_uppercase())
                .count();
        if area_end == i + 2 {
            i += 2;
            continue;
        }
        let area = &line[i + 2..area_end];
        match bytes.get(area_end) {
            // `R-ELG-*`: the whole area.
            Some(b'-') if bytes.get(area_end + 1) == Some(&b'*') => {
                cites.push(Cite::Area(area.to_string()));
                i = area_end + 2;
            }
            Some(b'-') => {
                let Some((first, mut end)) = number_at(bytes, area_end + 1) else {
                    i = area_end;
                    continue;
                };
                // `R-SYNC-7b`: step b of R-SYNC-7.
                if bytes.get(end).is_some_and(u8::is_ascii_lowercase)
                    && !bytes.get(end + 1).copied().is_some_and(is_word_byte)
                {
                    end += 1;
                }
                if bytes.get(end).copied().is_some_and(is_word_byte) {
                    // `R-K-5x1`, `R-MAN-3-a`: not an id.
                    i = end;
                    continue;
                }
                cites.push(Cite::Rule(area.to_string(), first));
                let mut last = first;
                loop {
                    // `R-RU-6..8` cites 6, 7 and 8; `R-NODE-2/3` cites 2 and 3.
                    if bytes[end..].starts_with(b"..") {
                        if let Some((to, after)) = number_at(bytes, end + 2) {
                            // A backwards range still cites its end, so a typo shows.
                            let from = if to > last { last + 1 } else { to };
                            cites.extend((from..=to).map(|n| Cite::Rule(area.to_string(), n)));
                            last = to;
                            end = after;
                            continue;
                        }
                    } else if bytes.get(end) == Some(&b'/') {
                        if let Some((next, after)) = number_at(bytes, end + 1) {
                            cites.push(Cite::Rule(area.to_string(), next));
                            last = next;
                            end = after;
                            continue;
                        }
                    }
                    break;
                }
                i = end;
            }
            // A bare `R-ELG` (followed by space, punctuation or the end): the whole area.
            Some(&b) if is_word_byte(b) => i = area_end,
            _ => {
                cites.push(Cite::Area(area.to_string()));
                i = area_end;
            }
        }
    }
    cites
}

/// Every citation in `sources` (path, text) that `rules` does not define, as `path:line: id`.
fn undefined_citations(
    rules: &BTreeSet<(String, u32)>,
    sources: &[(String, String)],
) -> Vec<String> {
    let areas: BTreeSet<&str> = rules.iter().map(|(area, _)| area.as_str()).collect();
    let mut undefined = Vec::new();
    for (path, text) in sources {
        for (index, line) in text.lines().enumerate() {
            for cite in citations_in_line(line) {
                let defined = match &cite {
                    Cite::Rule(area, n) => rules.contains(&(area.clone(), *n)),
                    Cite::Area(area) => areas.contains(area.as_str()),
                };
                if !defined {
                    undefined.push(format!("{path}:{}: {cite}", index + 1));
                }
            }
        }
    }
    undefined
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// The text files the walk reads, as (path relative to the root with `/`, contents), sorted.
fn repository_sources(root: &Path) -> Vec<(String, String)> {
    fn walk(root: &Path, path: &Path, out: &mut Vec<(String, String)>) {
        let relative = path
            .strip_prefix(root)
            .expect("under the root")
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        if path.is_dir() {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if name.starts_with('.') || SKIPPED_DIRS.contains(&name.as_ref()) {
                return;
            }
            let entries = fs::read_dir(path).unwrap_or_else(|e| panic!("{relative}: {e}"));
            for entry in entries {
                walk(root, &entry.expect("a directory entry").path(), out);
            }
            return;
        }
        let text_file = path
            .extension()
            .is_some_and(|ext| TEXT_EXTENSIONS.contains(&ext.to_string_lossy().as_ref()));
        if !text_file || relative == SPEC || relative == THIS_FILE {
            return;
        }
        // Binary or non-UTF-8 files cite nothing.
        if let Ok(text) = fs::read_to_string(path) {
            out.push((relative, text));
        }
    }
    let mut sources = Vec::new();
    for entry in ROOTS {
        let path = root.join(entry);
        assert!(
            path.exists(),
            "{entry} is missing: update ROOTS in {THIS_FILE}"
        );
        walk(root, &path, &mut sources);
    }
    sources.sort();
    sources
}

fn spec_rules(root: &Path) -> BTreeSet<(String, u32)> {
    let spec = fs::read_to_string(root.join(SPEC)).unwrap_or_else(|e| panic!("{SPEC}: {e}"));
    defined_rules(&spec).unwrap_or_else(|errors| panic!("{}", errors.join("\n")))
}

#[test]
fn every_rule_id_cited_in_the_repository_is_defined_in_docs_spec_md() {
    let root = repo_root();
    let rules = spec_rules(&root);
    let sources = repository_sources(&root);
    let cited: BTreeSet<Cite> = sources
        .iter()
        .flat_map(|(_, text)| text.lines().flat_map(citations_in_line))
        .collect();
    assert!(
        cited.iter().any(|c| matches!(c, Cite::Rule(..))),
        "read {} files and found no rule id: the walk or the scanner is broken",
        sources.len()
    );
    let undefined = undefined_citations(&rules, &sources);
    assert!(
        undefined.is_empty(),
        "{} citation(s) of rules {SPEC} does not define:\n{}",
        undefined.len(),
        undefined.join("\n")
    );
}

#[test]
fn docs_spec_md_defines_each_rule_once_and_its_own_references_resolve() {
    let root = repo_root();
    let spec = fs::read_to_string(root.join(SPEC)).unwrap_or_else(|e| panic!("{SPEC}: {e}"));
    let rules = defined_rules(&spec).unwrap_or_else(|errors| panic!("{}", errors.join("\n")));
    // Each area is numbered 1, 2, 3, … without a gap.
    let mut by_area: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    for (area, n) in &rules {
        by_area.entry(area).or_default().push(*n);
    }
    for (area, numbers) in by_area {
        let expected: Vec<u32> = (1..=numbers.len() as u32).collect();
        assert_eq!(
            numbers, expected,
            "the R-{area}-* rules are not numbered 1..n"
        );
    }
    let undefined = undefined_citations(&rules, &[(SPEC.to_string(), spec)]);
    assert!(undefined.is_empty(), "{}", undefined.join("\n"));
}

#[test]
fn a_planted_citation_of_an_undefined_rule_fails_the_check() {
    let spec = "# Rules\n\n- **R-MAN-1** create.\n- **R-MAN-2** delete.\n- **R-RU-1** desired.\n\
                Prose citing R-MAN-9 defines nothing.\n";
    let rules = defined_rules(spec).unwrap();
    assert_eq!(rules.len(), 3);
    let sources = vec![
        (
            "crates/a.rs".to_string(),
            "/// Implements R-MAN-1 (R-MAN-2).\nfn manage() {} // R-MAN-9\n".to_string(),
        ),
        (
            "docs/b.md".to_string(),
            "See R-MAN-1..3, R-RU-1/2, R-MAN-*, R-HIS-*, R-SYNC-2b, R-GC and R-RU.\n".to_string(),
        ),
        (
            "crates/c.rs".to_string(),
            "\"CONTAINER-RUNTIME\", HDR-X, R-, R-lower-1, R-MAN-1a2 and R-MAN-2b.\n".to_string(),
        ),
    ];
    assert_eq!(
        undefined_citations(&rules, &sources),
        [
            "crates/a.rs:2: R-MAN-9",
            "docs/b.md:1: R-MAN-3",
            "docs/b.md:1: R-RU-2",
            "docs/b.md:1: R-HIS-*",
            "docs/b.md:1: R-SYNC-2",
            "docs/b.md:1: R-GC-*",
        ]
    );
    // Once the rule is defined, nothing is reported.
    let complete: BTreeSet<(String, u32)> = [("MAN", 1), ("MAN", 2), ("MAN", 9)]
        .map(|(a, n)| (a.to_string(), n))
        .into();
    assert!(undefined_citations(&complete, &sources[..1]).is_empty());
    assert!(undefined_citations(&complete, &sources[2..]).is_empty());
}

#[test]
fn a_spec_defining_a_rule_twice_or_with_a_bad_id_is_refused() {
    let errors =
        defined_rules("- **R-MAN-1** a\n- **R-MAN-1** again\n- **R-man-2** b\n").unwrap_err();
    assert_eq!(
        errors,
        [
            "docs/spec.md:2: R-MAN-1 is defined twice",
            "docs/spec.md:3: a definition line whose id does not parse: - **R-man-2** b",
        ]
    );
}

#[test]
fn citations_are_read_in_every_form_the_code_uses() {
    let rule = |area: &str, n| Cite::Rule(area.to_string(), n);
    let area = |area: &str| Cite::Area(area.to_string());
    assert_eq!(citations_in_line("//! (R-MAN-3)"), [rule("MAN", 3)]);
    assert_eq!(
        citations_in_line("R-KC-1..3, R-NODE-2/3, R-RU-8/R-RU-13"),
        [
            rule("KC", 1),
            rule("KC", 2),
            rule("KC", 3),
            rule("NODE", 2),
            rule("NODE", 3),
            rule("RU", 8),
            rule("RU", 13),
        ]
    );
    assert_eq!(
        citations_in_line("fn r_sync_7b() {} // R-SYNC-7b; R-ELG-* and R-ST)"),
        [rule("SYNC", 7), area("ELG"), area("ST")]
    );
    assert_eq!(citations_in_line("**R-K-5**"), [rule("K", 5)]);
    assert_eq!(citations_in_line("R-DEF"), [area("DEF")]);
    assert!(citations_in_line("CONTAINER-RUNTIME X-R-MAN-1 R-MAN-1a2 R-").is_empty());
}
