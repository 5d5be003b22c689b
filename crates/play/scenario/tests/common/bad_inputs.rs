//! The catalogue of bad inputs that `docs/bad-inputs.md` lists. For each place a user's input
//! enters — a scenario file, a script or terminal line, a kubectl command, a manifest, the YAML
//! editor, the node and pod forms, a share link, a node import, a lesson file, a compare list —
//! inputs each wrong in its own way, run through the public function the app and `dsplay` call
//! there. No message is written here: each is what that function returned, and the generated
//! document pins it (`crates/front/cli/tests/bad_inputs.rs` renders the whole document, adding
//! `dsplay`'s own command-line errors, and rewrites it with `UPDATE_GOLDEN=1`;
//! `crates/play/scenario/tests/bad_input.rs` checks this crate's sections against it).
//!
//! Included by path from the cli crate's test, so it names no other test module.
#![allow(dead_code)]

use std::panic::{catch_unwind, AssertUnwindSafe};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use scenario::edit::Edit;
use scenario::import::{self, Merge};
use scenario::{compare, lesson, share, Scenario, Timeline};

/// The command that regenerates the document.
pub const REGENERATE: &str = "UPDATE_GOLDEN=1 cargo test -p dsplay-cli --test bad_inputs";

/// The generated document, from the repository root.
pub const DOC: &str = "docs/bad-inputs.md";

/// One bad input and what its entry point answered.
pub struct Row {
    /// What is wrong, in words (Markdown).
    pub what: String,
    /// The input as given, shown as code (line breaks kept, the final one not shown).
    pub input: String,
    /// Shown (Markdown) instead of the input when it is too large to print or not text.
    pub shown: Option<String>,
    /// The message as the entry point gives it.
    pub message: String,
    /// Whether the entry point refused the input (a row it accepts is a catalogue error).
    pub refused: bool,
    pub panicked: bool,
    /// This entry point gives no location / no hint for this input (checked to stay so).
    pub no_location: bool,
    pub no_hint: bool,
    /// Anything else the run found wrong (e.g. the page's terminal and `dsplay` disagree).
    pub problems: Vec<String>,
}

impl Row {
    /// Runs `entry` on the input: `Err(message)` is a refusal, `Ok(output)` an acceptance.
    pub fn run(
        what: impl Into<String>,
        input: impl Into<String>,
        entry: impl FnOnce() -> Result<String, String>,
    ) -> Row {
        let (message, refused, panicked) = match catch_unwind(AssertUnwindSafe(entry)) {
            Ok(Err(m)) => (m, true, false),
            Ok(Ok(out)) => (out, false, false),
            Err(p) => {
                let why = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                (format!("panicked: {why}"), false, true)
            }
        };
        Row {
            what: what.into(),
            input: input.into(),
            shown: None,
            message,
            refused,
            panicked,
            no_location: false,
            no_hint: false,
            problems: Vec::new(),
        }
    }

    pub fn shown(mut self, shown: impl Into<String>) -> Row {
        self.shown = Some(shown.into());
        self
    }

    pub fn no_location(mut self) -> Row {
        self.no_location = true;
        self
    }

    pub fn no_hint(mut self) -> Row {
        self.no_hint = true;
        self
    }
}

/// The inputs that enter at one place.
pub struct Group {
    pub title: &'static str,
    /// Where the input comes from and which function reads it (Markdown).
    pub intro: String,
    /// Whether every message here carries a line:column / a hint (rows may be exempted).
    pub location: bool,
    pub hint: bool,
    pub rows: Vec<Row>,
}

// ---------------------------------------------------------------------------------------------
// Rendering

/// `s` as a Markdown code span inside a table cell: `|` escaped, a fence longer than any run of
/// backticks inside, control characters as their Unicode pictures (␀ ␉ ␍ …), invisible
/// formatting characters as `⟨U+FEFF⟩`.
pub fn code(s: &str) -> String {
    let mut body = String::new();
    for c in s.chars() {
        match c {
            '|' => body.push_str("\\|"),
            c if (c as u32) < 0x20 => body.push(char::from_u32(0x2400 + c as u32).unwrap_or('?')),
            '\u{7f}' => body.push('␡'),
            c if ('\u{80}'..='\u{9f}').contains(&c)
                || matches!(
                    c,
                    '\u{a0}' | '\u{ad}' | '\u{200b}'
                        ..='\u{200f}' | '\u{2028}' | '\u{2029}' | '\u{2060}' | '\u{feff}'
                ) =>
            {
                body.push_str(&format!("⟨U+{:04X}⟩", c as u32))
            }
            c => body.push(c),
        }
    }
    if body.is_empty() {
        return String::new();
    }
    let mut longest = 0;
    let mut run = 0;
    for c in body.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let all_spaces = body.chars().all(|c| c == ' ');
    // CommonMark strips one space from each end when both are spaces: pad so that only the
    // padding goes, and so that a backtick at an end does not join the fence.
    let pad = !all_spaces
        && (body.starts_with('`')
            || body.ends_with('`')
            || (body.starts_with(' ') && body.ends_with(' ')));
    if pad {
        format!("{fence} {body} {fence}")
    } else {
        format!("{fence}{body}{fence}")
    }
}

/// Text of several lines as one table cell: a code span per line, joined by `<br>`; the final
/// line break is not shown.
pub fn cell(s: &str) -> String {
    if s.is_empty() {
        return "*(empty)*".into();
    }
    let s = s.strip_suffix('\n').unwrap_or(s);
    s.split('\n').map(code).collect::<Vec<_>>().join("<br>")
}

/// Prose in a table cell (our own words: only `|` needs escaping).
fn prose(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// One group's section of the document; `n` is its number.
pub fn render_group(n: usize, g: &Group) -> String {
    let mut out = format!("## {n}. {}\n\n{}\n\n", g.title, g.intro.trim_end());
    out.push_str("| # | case | input | message |\n|---:|---|---|---|\n");
    for (i, r) in g.rows.iter().enumerate() {
        let input = match &r.shown {
            Some(s) => prose(s),
            None => cell(&r.input),
        };
        out.push_str(&format!(
            "| {n}.{} | {} | {} | {} |\n",
            i + 1,
            prose(&r.what),
            input,
            cell(&r.message)
        ));
    }
    out
}

/// The whole document.
pub fn render_doc(groups: &[Group]) -> String {
    let total: usize = groups.iter().map(|g| g.rows.len()).sum();
    let mut out = format!(
        "# Bad inputs and what they get\n\n\
         <!-- Generated by crates/front/cli/tests/bad_inputs.rs — do not edit by hand. Regenerate with\n     {REGENERATE} -->\n\n\
         {total} inputs that are wrong, each run through the function the web app and `dsplay` call\n\
         where that input enters, and the message it gets, verbatim: its location (file:line:column)\n\
         and its hint are as printed. No message here is written by hand. The inputs are the table in\n\
         `crates/play/scenario/tests/common/bad_inputs.rs` (and `dsplay`'s in `crates/front/cli/tests/bad_inputs.rs`);\n\
         the test renders this file and fails when it differs, so a changed message shows up as a\n\
         diff here. After changing a message on purpose, regenerate it:\n\n\
         ```\n{REGENERATE}\n```\n\n\
         The same test requires every input to be refused without a panic, with a non-empty message\n\
         that carries a location and a hint wherever its entry point gives them.\n\n\
         Reading the tables: each line of an input or a message is a code span, line breaks are\n\
         `<br>`, a final line break is not shown; control characters are shown as their Unicode\n\
         pictures (␀ NUL, ␉ tab, ␇ bell, ␛ escape …) and invisible ones as ⟨U+FEFF⟩; an input too\n\
         large to print is described in words.\n\n\
         | | where the input enters | inputs |\n|---:|---|---:|\n"
    );
    for (i, g) in groups.iter().enumerate() {
        let anchor = anchor(&format!("{}. {}", i + 1, g.title));
        out.push_str(&format!(
            "| {} | [{}](#{anchor}) | {} |\n",
            i + 1,
            g.title,
            g.rows.len()
        ));
    }
    for (i, g) in groups.iter().enumerate() {
        out.push('\n');
        out.push_str(&render_group(i + 1, g));
    }
    out
}

/// GitHub's anchor of a heading.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Checks

/// Whether `message` names a place as `line:column` (`s.yaml:3:1:`, `13:14:`).
pub fn has_location(message: &str) -> bool {
    let b = message.as_bytes();
    let digits = |mut i: usize| {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        (i > start).then_some(i)
    };
    (0..b.len()).any(|i| {
        let starts = i == 0 || matches!(b[i - 1], b':' | b' ' | b'\n');
        starts
            && !b[i..].is_empty()
            && b[i].is_ascii_digit()
            && digits(i).is_some_and(|j| {
                b.get(j) == Some(&b':') && digits(j + 1).is_some_and(|k| b.get(k) == Some(&b':'))
            })
    })
}

/// Everything wrong with the catalogue: a row accepted or panicking, an empty message, one
/// without the location or hint its entry point gives, an exemption that no longer holds.
pub fn problems(groups: &[Group]) -> Vec<String> {
    let mut out = Vec::new();
    for (n, g) in groups.iter().enumerate() {
        for (i, r) in g.rows.iter().enumerate() {
            let at = format!("{}.{} {} ({:.60?})", n + 1, i + 1, r.what, r.input);
            let mut bad = |why: String| out.push(format!("{at}: {why}"));
            if r.panicked {
                bad(format!("panics: {}", r.message));
            } else if !r.refused {
                bad(format!("is accepted:\n{}", r.message));
                continue;
            }
            if r.message.trim().is_empty() {
                bad("the message is empty".into());
            }
            if r.message.contains("panicked") || r.message.contains("RUST_BACKTRACE") {
                bad(format!("the message is a panic's: {}", r.message));
            }
            let (located, hinted) = (has_location(&r.message), r.message.contains("hint:"));
            for (wanted, has, exempt, what, flag) in [
                (
                    g.location,
                    located,
                    r.no_location,
                    "a location",
                    "no_location",
                ),
                (g.hint, hinted, r.no_hint, "a hint", "no_hint"),
            ] {
                match (wanted, has, exempt) {
                    (true, false, false) => bad(format!("the message has no {what}")),
                    (_, true, true) => bad(format!("the message has {what} now: drop `{flag}()`")),
                    (false, _, true) => bad(format!("`{flag}()` in a group that needs none")),
                    _ => {}
                }
            }
            for p in &r.problems {
                bad(p.clone());
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Entry points

/// A scenario file as the app opens it and `dsplay run` reads it: parsed, then its cluster
/// built.
pub fn file_error(text: &str) -> Result<String, String> {
    let s = scenario::parse("s.yaml", text).map_err(|e| e.to_string())?;
    scenario::start(&s).map_err(|e| e.to_string())?;
    Ok("parsed and started".into())
}

/// The DaemonSet the manifests below start from.
pub const DS: &str = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: x\nspec:\n  selector:\n    matchLabels: {app: x}\n  template:\n    metadata:\n      labels: {app: x}\n    spec:\n      containers:\n      - {name: app, image: busybox}\n";

pub fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}

/// The scenario the script and kubectl lines run in: one node, `worker`, and the valid
/// DaemonSet as `ds.yaml`, after `setup` (script lines played to their end).
pub fn line_scenario(setup: &[&str]) -> Scenario {
    let mut text = format!(
        "scenario: x\nnodes:\n  - name: worker\nfiles:\n  ds.yaml: |\n{}",
        indent(DS)
    );
    if !setup.is_empty() {
        text.push_str("script:\n");
        for l in setup {
            text.push_str(&format!("  - {l}\n"));
        }
    }
    scenario::parse("s.yaml", &text).unwrap_or_else(|e| panic!("the line harness: {e}"))
}

/// Virtual seconds a row's setup is played for.
const SETUP_SECONDS: f64 = 20.0;

/// A script line as `dsplay run` runs it (`scenario::run_line`), and as the page's terminal does
/// (`Timeline::run_command`), after `setup`. Its output as the terminal shows it (the final line
/// break kept); the two must agree, and the output must be whole lines.
pub fn line_output(setup: &[&str], line: &str) -> (bool, String, Vec<String>) {
    let s = line_scenario(setup);
    let at = if setup.is_empty() { 0.0 } else { SETUP_SECONDS };
    let mut session = scenario::session_at(&s, Some(at)).expect("the harness starts");
    let r = scenario::run_line(&mut session, line);
    let mut problems = Vec::new();
    // The terminal takes no `sleep` (time moves with the page's controls): see its own row.
    let (page_ok, page_out) = if line.starts_with("sleep") {
        (r.ok, r.output.clone())
    } else {
        terminal_output(&s, at, line)
    };
    if (page_ok, &page_out) != (r.ok, &r.output) {
        problems.push(format!(
            "the page's terminal answers differently: {page_ok} {page_out:?}"
        ));
    }
    problems.extend(not_whole_lines(&r.output));
    (r.ok, r.output, problems)
}

/// Output that is not whole lines: the terminal would run the next command into it.
fn not_whole_lines(output: &str) -> Option<String> {
    (!output.ends_with('\n') || output.ends_with("\n\n"))
        .then(|| format!("the output is not whole lines: {output:?}"))
}

/// A row of an entry point that answers whether it accepted the input, its output as shown,
/// and what else was found wrong.
fn answered_row(
    what: String,
    input: &str,
    answer: impl FnOnce() -> (bool, String, Vec<String>),
) -> Row {
    let mut problems = Vec::new();
    let mut row = Row::run(what, input, || {
        let (ok, out, p) = answer();
        problems = p;
        if ok {
            Ok(out)
        } else {
            Err(out.trim_end().to_string())
        }
    });
    row.problems = problems;
    row
}

/// A line typed in the page's terminal (`Timeline::run_command`), `at` seconds into `s`.
pub fn terminal_output(s: &Scenario, at: f64, line: &str) -> (bool, String) {
    let mut page = Timeline::new(s.clone()).expect("the harness starts");
    page.advance_to(at, usize::MAX);
    match page.run_command(line) {
        Ok(rec) => (rec.ok, rec.output),
        Err(e) => (false, e.output),
    }
}

/// A row of a line run after `setup`.
fn line_row(what: &str, setup: &[&str], line: &str) -> Row {
    answered_row(with_setup(what, setup), line, || line_output(setup, line))
}

fn with_setup(what: &str, setup: &[&str]) -> String {
    if setup.is_empty() {
        return what.to_string();
    }
    let lines: Vec<String> = setup.iter().map(|l| format!("`{l}`")).collect();
    format!("{what} (after {})", lines.join(", "))
}

/// A manifest as `kubectl apply -f ds.yaml` applies it in a script or the terminal (the file
/// from the scenario's `files:`), after `setup`.
pub fn apply_output(setup: &[&str], manifest: &str) -> (bool, String, Vec<String>) {
    let s = line_scenario(setup);
    let at = if setup.is_empty() { 0.0 } else { SETUP_SECONDS };
    let mut session = scenario::session_at(&s, Some(at)).expect("the harness starts");
    session.files.insert("ds.yaml".into(), manifest.into());
    let r = scenario::run_line(&mut session, "kubectl apply -f ds.yaml");
    let problems = not_whole_lines(&r.output).into_iter().collect();
    (r.ok, r.output, problems)
}

/// [`DS`] with `from` (which occurs once) replaced by `to`.
pub fn ds_with(from: &str, to: &str) -> String {
    assert_eq!(
        DS.matches(from).count(),
        1,
        "{from:?} must occur once in DS"
    );
    DS.replacen(from, to, 1)
}

/// An edit of [`DS`], as a row's input: `from` → `to`.
fn edit_shown(from: &str, to: &str) -> String {
    let to = if to.is_empty() {
        "*(nothing)*".to_string()
    } else {
        cell(to)
    };
    format!("{} → {}", cell(from), to)
}

fn manifest_row(what: &str, setup: &[&str], from: &str, to: &str) -> Row {
    let text = ds_with(from, to);
    manifest_text_row(what, setup, &text).shown(edit_shown(from, to))
}

fn manifest_text_row(what: &str, setup: &[&str], text: &str) -> Row {
    answered_row(with_setup(what, setup), text, || apply_output(setup, text))
}

/// The YAML editor's Apply (`Timeline::apply_manifest`): its diagnostics, one per line, as
/// the editor lists them; `before` is applied first.
pub fn editor_error(before: Option<&str>, yaml: &str) -> Result<String, String> {
    let s = line_scenario(&[]);
    let mut page = Timeline::new(s).expect("the harness starts");
    if let Some(b) = before {
        page.apply_manifest(b).expect("the first manifest applies");
        page.advance_to(SETUP_SECONDS, usize::MAX);
    }
    match page.apply_manifest(yaml) {
        Ok(r) => Ok(r.output),
        Err(diags) => Err(diags
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")),
    }
}

/// A node or pod edit from the page's forms and buttons (`Timeline::apply_edit`).
pub fn edit_error(edit: &Edit) -> Result<String, String> {
    let mut page = Timeline::new(line_scenario(&[])).expect("the harness starts");
    match page.apply_edit(edit) {
        Ok(records) => Ok(records.iter().map(|r| r.output.clone()).collect()),
        Err(e) => Err(e.output.trim_end().to_string()),
    }
}

/// A share link as the page opens it and `dsplay open` reads it.
pub fn share_error(input: &str) -> Result<String, String> {
    share::decode(input)
        .map(|s| format!("opened {:?}", s.scenario.id))
        .map_err(|e| e.to_string())
}

/// A link payload carrying `json` as the app would write it.
pub fn payload_of(json: &str) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 6);
    format!("1.{}", URL_SAFE_NO_PAD.encode(packed))
}

/// The link payload (`1.…`) of a one-node scenario, short enough to print whole.
pub fn small_link() -> String {
    let s = scenario::parse("s.yaml", "scenario: x\nnodes: [{name: worker}]\n")
        .unwrap_or_else(|e| panic!("{e}"));
    share::encode(&s, &share::ShareView::default())
}

/// A node file as the page's node import and `dsplay --nodes` read it: imported, then put in
/// place of the scenario's nodes (`--add-nodes`: added to them).
pub fn import_error(text: &str, how: Merge) -> Result<String, String> {
    let nodes = import::import_nodes("n.yaml", text).map_err(|e| e.to_string())?;
    let n = nodes.len();
    let mut s = line_scenario(&[]);
    import::merge_nodes(&mut s, nodes, how, "n.yaml").map_err(|e| e.to_string())?;
    Ok(format!("imported {n} node entries"))
}

/// A lesson file as the page's lesson pane and `dsplay test` read it.
pub fn lesson_error(text: &str) -> Result<String, String> {
    lesson::parse_lesson("l.yaml", text)
        .map(|l| format!("a lesson of {} steps", l.lesson.steps.len()))
        .map_err(|e| e.to_string())
}

/// A small valid lesson; the lesson rows break one thing each.
pub const GOOD_LESSON: &str = r#"scenario: l
nodes:
  - name: worker
  - name: worker2
files:
  ds.yaml: |
    apiVersion: apps/v1
    kind: DaemonSet
    metadata:
      name: x
    spec:
      selector:
        matchLabels: {app: x}
      template:
        metadata:
          labels: {app: x}
        spec:
          terminationGracePeriodSeconds: 1
          containers:
          - {name: app, image: busybox, command: ["sleep", "infinity"]}
lesson:
  - title: Start
    text: Apply **it**.
    run:
      - kubectl apply -f ds.yaml
      - sleep 5s
    ask:
      question: How many pods?
      choices: ["1", "2"]
      answer: "2"
      explain: One per node.
  - title: Taint
    task:
      text: Evict the pod from worker2.
      check:
        - expect: kubectl get pods --field-selector spec.nodeName=worker2 -o name
          equals: ""
      solution:
        - kubectl taint node worker2 k=v:NoExecute
      hints: ["kubectl taint"]
"#;

/// [`GOOD_LESSON`] with `from` (which must occur) replaced by `to`, once.
pub fn lesson_with(from: &str, to: &str) -> String {
    assert!(
        GOOD_LESSON.contains(from),
        "{from:?} not in the good lesson"
    );
    GOOD_LESSON.replacen(from, to, 1)
}

/// A compare list (`?compare=`) as the compare page reads it, with the address's share link's
/// scenario when it has one.
pub fn compare_error(list: &str, shared: Option<&Scenario>) -> Result<String, String> {
    compare::variants(list, shared)
        .map(|v| format!("{} variants", v.len()))
        .map_err(|e| e.to_string())
}

// ---------------------------------------------------------------------------------------------
// The catalogue

/// Every group this crate's entry points read, in the document's order (`dsplay`'s own
/// command-line errors come after them).
pub fn groups() -> Vec<Group> {
    vec![
        scenario_files(),
        script_lines(),
        kubectl_commands(),
        manifests(),
        editor(),
        node_edits(),
        share_links(),
        node_imports(),
        lessons(),
        compare_lists(),
    ]
}

/// Scenario-file rows whose message has no hint.
const FILE_NO_HINT: &[&str] = &["a title that is a list", "files as a list"];

fn file_rows(cases: &[(&str, &str)]) -> Vec<Row> {
    cases
        .iter()
        .map(|(what, text)| {
            let r = Row::run(*what, *text, || file_error(text));
            if FILE_NO_HINT.contains(what) {
                r.no_hint()
            } else {
                r
            }
        })
        .collect()
}

pub fn scenario_files() -> Group {
    let mut rows = file_rows(&[
        ("bad YAML syntax", "scenario: x\nnodes: [a, b\n"),
        ("tab indentation", "scenario: x\nnodes:\n\t- name: a\n"),
        ("an unclosed quote", "scenario: \"x\nnodes: []\n"),
        ("a key given twice", "scenario: x\nseed: 1\nseed: 2\n"),
        ("an alias to no anchor", "scenario: x\nnodes: *pool\n"),
        ("a NUL character", "scenario: x\ntitle: a\0b\n"),
        (
            "a control character (bell)",
            "scenario: x\ntitle: \"ring \u{7}\"\n",
        ),
        (
            "a byte-order mark inside the file",
            "scenario: x\n\u{feff}nodes: []\n",
        ),
        ("an empty file", ""),
        ("only a comment", "# nothing here\n"),
        (
            "a second YAML document",
            "scenario: x\n---\nkind: DaemonSet\n",
        ),
        ("a list instead of a map", "- scenario: x\n"),
        ("unknown top-level key", "scenario: x\nnode:\n  - name: a\n"),
        ("missing `scenario:`", "title: x\n"),
        ("a title that is a list", "scenario: x\ntitle: [a, b]\n"),
        ("negative seed", "scenario: x\nseed: -1\n"),
        ("seed as a string", "scenario: x\nseed: seven\n"),
        ("`try:` as one string", "scenario: x\ntry: Press Play\n"),
        (
            "four suggestions in `try:`",
            "scenario: x\ntry: [Play, Step, Pause, Rewind]\n",
        ),
        (
            "a suggestion over two lines",
            "scenario: x\ntry:\n  - |\n    Press Play\n    then Step\n",
        ),
        ("nodes not a list", "scenario: x\nnodes: worker\n"),
        (
            "a node that is not a map",
            "scenario: x\nnodes:\n  - worker\n",
        ),
        (
            "node with both name and pool",
            "scenario: x\nnodes:\n  - {name: a, pool: b}\n",
        ),
        (
            "unknown node key",
            "scenario: x\nnodes:\n  - name: a\n    label: {a: b}\n",
        ),
        (
            "invalid node name",
            "scenario: x\nnodes:\n  - name: Worker_1\n",
        ),
        (
            "duplicate node names",
            "scenario: x\nnodes:\n  - name: worker2\n  - {pool: worker, count: 3}\n",
        ),
        (
            "pool count not a number",
            "scenario: x\nnodes:\n  - {pool: w, count: three}\n",
        ),
        (
            "pool count over 5000",
            "scenario: x\nnodes:\n  - {pool: w, count: 5001}\n",
        ),
        (
            "pools over 5000 nodes together",
            "scenario: x\nnodes:\n  - {pool: a, count: 3000}\n  - {pool: b, count: 3000}\n",
        ),
        (
            "a negative `from`",
            "scenario: x\nnodes:\n  - {pool: w, count: 2, from: -1}\n",
        ),
        (
            "unquoted `yes` as a node label",
            "scenario: x\nnodes:\n  - name: a\n    labels: {k42: yes}\n",
        ),
        (
            "bad taint effect",
            "scenario: x\nnodes:\n  - name: a\n    taints: [\"k=v:NoExecut\"]\n",
        ),
        (
            "a taint without an effect",
            "scenario: x\nnodes:\n  - name: a\n    taints: [\"k=v\"]\n",
        ),
        (
            "a condition status that is not True, False or Unknown",
            "scenario: x\nnodes:\n  - name: a\n    conditions: {Ready: Maybe}\n",
        ),
        (
            "`unschedulable` as a string",
            "scenario: x\nnodes:\n  - name: a\n    unschedulable: \"yes\"\n",
        ),
        (
            "files entry not text",
            "scenario: x\nfiles:\n  ds.yaml: {kind: DaemonSet}\n",
        ),
        ("files as a list", "scenario: x\nfiles: [ds.yaml]\n"),
        ("script not a list", "scenario: x\nscript: {a: 1}\n"),
        (
            "script entry a number",
            "scenario: x\nscript:\n  - kubectl get ds\n  - 42\n",
        ),
        (
            "expect without equals",
            "scenario: x\nscript:\n  - expect: kubectl get ds\n",
        ),
        (
            "expect with both equals and contains",
            "scenario: x\nscript:\n  - expect: kubectl get ds\n    equals: \"\"\n    contains: x\n",
        ),
        (
            "misspelt equals",
            "scenario: x\nscript:\n  - expect: kubectl get ds\n    equal: \"1\"\n",
        ),
        (
            "timing with an unknown key",
            "scenario: x\ntiming: {watch_dely: 0.1}\n",
        ),
        (
            "timing value of the wrong type",
            "scenario: x\ntiming: {watch_delay: fast}\n",
        ),
        ("timing not a map", "scenario: x\ntiming: fast\n"),
        ("images as a list", "scenario: x\nimages: [busybox]\n"),
        (
            "an image entry with a misspelt key",
            "scenario: x\nimages:\n  \"agent:2\": {pullSecond: 20}\n",
        ),
        (
            "an image's pull time negative",
            "scenario: x\nimages:\n  \"agent:2\": {pullSeconds: -3}\n",
        ),
        (
            "`missing` not a boolean",
            "scenario: x\nimages:\n  \"agent:2\": {missing: \"yes please\"}\n",
        ),
    ]);
    let deep = format!("scenario: x\ndescription: {}\n", "[".repeat(10_000));
    rows.push(
        Row::run("flow collections nested 10,000 deep", deep.clone(), || {
            file_error(&deep)
        })
        .shown("`scenario: x` and `description:` followed by 10,000 `[`"),
    );
    Group {
        title: "Scenario file",
        intro: "A whole scenario file, named `s.yaml` here, as the page's Open (and a preset or a \
                dropped file) and `dsplay run|test|explain|export` read it: `scenario::parse`, then \
                `scenario::start` builds its cluster. Every message has the file's line:column."
            .into(),
        location: true,
        hint: true,
        rows,
    }
}

pub fn script_lines() -> Group {
    let none: &[&str] = &[];
    let rows = vec![
        line_row("an unknown verb", none, "deploy foo"),
        line_row("a misspelt verb", none, "slep 5s"),
        line_row("`sleep` without a duration", none, "sleep").no_hint(),
        line_row("`sleep` with a bad unit", none, "sleep 5x").no_hint(),
        line_row("a negative `sleep`", none, "sleep -5s").no_hint(),
        line_row("a `sleep` with no unit", none, "sleep 30").no_hint(),
        line_row("a NUL character in a line", none, "sleep 5s\0").no_hint(),
        Row::run(
            "`sleep` typed in the page's terminal",
            "sleep 5s",
            || match terminal_output(&line_scenario(&[]), 0.0, "sleep 5s") {
                (true, out) => Ok(out),
                (false, out) => Err(out.trim_end().to_string()),
            },
        ),
        line_row("`node` without a sub-verb", none, "node").no_hint(),
        line_row(
            "`node add` with an unknown flag",
            none,
            "node add w9 --colour red",
        )
        .no_hint(),
        line_row(
            "`node add` with a bad taint",
            none,
            "node add w9 --taint k:Bad",
        ),
        line_row(
            "`node add` with a label without `=`",
            none,
            "node add w9 --label ssd",
        ),
        line_row("`node add` of an existing node", none, "node add worker"),
        line_row("`node remove` of an unknown node", none, "node remove nope"),
        line_row("`node stop` of an unknown node", none, "node stop nope"),
        line_row("`pod` with an unknown sub-verb", none, "pod restart x").no_hint(),
        line_row("`pod fail` without a name", none, "pod fail").no_hint(),
        line_row("`pod fail` of an unknown pod", none, "pod fail nope").no_hint(),
        line_row(
            "`pod fail` on an unknown node",
            none,
            "pod fail --node nope",
        )
        .no_hint(),
        line_row(
            "`pod fail` with an unknown flag",
            none,
            "pod fail x --exit-code 3",
        ),
        line_row(
            "`pod fail` with an unknown reason",
            none,
            "pod fail x --reason OOMKilled",
        ),
        line_row(
            "`pod crash` with an exit code over 255",
            none,
            "pod crash --node w1 --exit-code 300",
        ),
        line_row("`pod crash` of an unknown pod", none, "pod crash nope").no_hint(),
        line_row(
            "`pod crash` given a reason",
            none,
            "pod crash x --reason OutOfcpu",
        ),
    ];
    Group {
        title: "Script line",
        intro: "A line of a scenario's `script:` (or the page's terminal) that is not kubectl: \
                `sleep`, `node`, `pod`. Run by `scenario::run_line` in a one-node cluster \
                (`worker`) — what `dsplay run` does — and by `Timeline::run_command` — what the \
                page's terminal does; the two must print the same (but for `sleep`, which the terminal \
                does not take). A line has no file location; \
                kubectl-like server errors carry no hint, as kubectl's do not."
            .into(),
        location: false,
        hint: true,
        rows,
    }
}

pub fn kubectl_commands() -> Group {
    let none: &[&str] = &[];
    let applied: &[&str] = &["kubectl apply -f ds.yaml", "sleep 20s"];
    let rows = vec![
        line_row("an unknown command", none, "kubectl frobnicate"),
        line_row("a misspelt command", none, "kubectl gte pods"),
        line_row("a command the playground does not have", none, "kubectl logs x"),
        line_row("an unknown `rollout` sub-command", none, "kubectl rollout bogus ds/x"),
        line_row("an unknown resource", none, "kubectl get deployments"),
        line_row("an unknown flag", none, "kubectl get ds --colour"),
        line_row("an unknown shorthand flag", none, "kubectl get pods -z"),
        line_row("a flag without its value", none, "kubectl get pods -n"),
        line_row("an unterminated quote", none, "kubectl get ds \"x").no_hint(),
        line_row("an unknown output format", none, "kubectl get pods -o yml"),
        line_row("a bad jsonpath", none, "kubectl get pods -o jsonpath={.items["),
        line_row("a bad custom-columns spec", none, "kubectl get pods -o custom-columns=NAME"),
        line_row("a bad label selector", none, "kubectl get pods -l 'app in (x'").no_hint(),
        line_row("an unsupported field selector", none, "kubectl delete pods --field-selector spec.foo=x"),
        line_row("a field selector without an operator", none, "kubectl get pods --field-selector status.phase"),
        line_row("`get` of an object that does not exist", none, "kubectl get ds nope"),
        line_row("`delete` without a resource", none, "kubectl delete"),
        line_row("`apply -f` of a missing file", none, "kubectl apply -f missing.yaml"),
        line_row("`apply -f` without a file", none, "kubectl apply -f"),
        line_row("`create` of an object that exists", applied, "kubectl create -f ds.yaml"),
        line_row("`label` without a label", none, "kubectl label node worker"),
        line_row("`label` over a value without `--overwrite`", none, "kubectl label node worker kubernetes.io/hostname=x"),
        line_row("`taint` without an effect", none, "kubectl taint node worker k=v"),
        line_row("`taint` with an unknown effect", none, "kubectl taint node worker k=v:Never"),
        line_row("removing a taint the node does not have", none, "kubectl taint node worker k-"),
        line_row("`cordon` of an unknown node", none, "kubectl cordon nope"),
        line_row("`drain` of a node with daemon pods", applied, "kubectl drain worker"),
        line_row("`rollout status` of an unknown DaemonSet", none, "kubectl rollout status ds/nope"),
        line_row("`rollout undo` to a revision that does not exist", applied, "kubectl rollout undo ds/x --to-revision=9"),
        line_row("`rollout history` of a revision that does not exist", applied, "kubectl rollout history ds/x --revision=7"),
        line_row("`set image` of an unknown container", applied, "kubectl set image ds/x nope=busybox:2"),
        line_row("`patch` with broken JSON", applied, "kubectl patch ds x -p '{bad'"),
        line_row("`patch` of the immutable selector", applied, "kubectl patch ds x --type merge -p '{\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"y\"}}}}'"),
        line_row("`delete --cascade` with an unknown mode", applied, "kubectl delete ds x --cascade=never").no_hint(),
        line_row("`scale` (a DaemonSet has no replicas)", applied, "kubectl scale ds x --replicas=3"),
    ];
    Group {
        title: "kubectl command",
        intro: "A `kubectl` line in a script or the page's terminal, run as the script lines \
                above (`scenario::run_line` and `Timeline::run_command`, which must agree) in a \
                one-node cluster with the DaemonSet of §4 as `ds.yaml`; some after it was \
                applied. Worded as kubectl words them; errors from the server carry no hint, as \
                kubectl's do not."
            .into(),
        location: false,
        hint: true,
        rows,
    }
}

/// A JSON manifest whose port is a string.
const JSON_DS: &str = "{\n  \"apiVersion\": \"apps/v1\",\n  \"kind\": \"DaemonSet\",\n  \"metadata\": {\"name\": \"x\"},\n  \"spec\": {\n    \"selector\": {\"matchLabels\": {\"app\": \"x\"}},\n    \"template\": {\n      \"metadata\": {\"labels\": {\"app\": \"x\"}},\n      \"spec\": {\"containers\": [{\"name\": \"app\", \"image\": \"busybox\", \"ports\": [{\"containerPort\": \"80\"}]}]}\n    }\n  }\n}\n";

pub fn manifests() -> Group {
    let none: &[&str] = &[];
    let applied: &[&str] = &["kubectl apply -f ds.yaml", "sleep 20s"];
    let rows = vec![
        manifest_row("a YAML syntax error", none, "- {name: app, image: busybox}", "- {name: app, image: busybox"),
        manifest_row("a tab in the indentation", none, "      containers:", "\t  containers:"),
        manifest_row("a NUL character", none, "  name: x", "  name: x\0"),
        manifest_row("unquoted `yes` in a nodeSelector (YAML 1.1)", none, "      containers:", "      nodeSelector:\n        k42: yes\n      containers:"),
        manifest_row("a misspelt field", none, "      containers:", "      contianers:"),
        manifest_row("a number field given a word", none, "      containers:", "      terminationGracePeriodSeconds: soon\n      containers:"),
        manifest_row("a quantity that is not one", none, "image: busybox}", "image: busybox, resources: {limits: {cpu: 2 cores}}}"),
        manifest_row("a request over its limit", none, "image: busybox}", "image: busybox, resources: {requests: {cpu: \"2\"}, limits: {cpu: 500m}}}")
        .no_hint(),
        manifest_row("an unsupported kind", none, "kind: DaemonSet", "kind: Deployment"),
        manifest_row("an old API version", none, "apiVersion: apps/v1", "apiVersion: extensions/v1beta1"),
        manifest_row("no name", none, "  name: x\n", "")
        .no_hint(),
        manifest_row("an invalid name", none, "  name: x", "  name: X_1"),
        manifest_row("an invalid namespace", none, "  name: x", "  name: x\n  namespace: kube.system")
        .no_hint(),
        manifest_row("an empty selector", none, "    matchLabels: {app: x}", "    matchLabels: {}"),
        manifest_row("selector and template labels differ", none, "      labels: {app: x}", "      labels: {app: other}"),
        manifest_row("a label value with a space", none, "      labels: {app: x}", "      labels: {app: x, tier: \"front end\"}"),
        manifest_row("a label value over 63 characters", none, "      labels: {app: x}", &format!("      labels: {{app: x, v: {}}}", "a".repeat(64))),
        manifest_row("a selector operator that is not one", none, "    matchLabels: {app: x}", "    matchLabels: {app: x}\n    matchExpressions: [{key: app, operator: Is, values: [x]}]"),
        manifest_row("no containers", none, "      containers:\n      - {name: app, image: busybox}", "      containers: []"),
        manifest_row("a container without an image", none, "- {name: app, image: busybox}", "- {name: app}")
        .no_hint(),
        manifest_row("two containers of one name", none, "- {name: app, image: busybox}", "- {name: app, image: busybox}\n      - {name: app, image: busybox}")
        .no_hint(),
        manifest_row("an invalid container name", none, "{name: app,", "{name: App_1,")
        .no_hint(),
        manifest_row("an unknown image pull policy", none, "image: busybox}", "image: busybox, imagePullPolicy: Sometimes}")
        .no_hint(),
        manifest_row("a port out of range", none, "image: busybox}", "image: busybox, ports: [{containerPort: 70000}]}")
        .no_hint(),
        manifest_row("a mount of no volume", none, "image: busybox}", "image: busybox, volumeMounts: [{name: logs, mountPath: /logs}]}"),
        manifest_row("a probe without a handler", none, "image: busybox}", "image: busybox, readinessProbe: {periodSeconds: 5}}")
        .no_hint(),
        manifest_row("restartPolicy other than Always", none, "      containers:", "      restartPolicy: Never\n      containers:"),
        manifest_row("a toleration with an unknown effect", none, "      containers:", "      tolerations: [{key: k, operator: Exists, effect: NoEvict}]\n      containers:")
        .no_hint(),
        manifest_row("tolerationSeconds on a NoSchedule toleration", none, "      containers:", "      tolerations: [{key: k, operator: Exists, effect: NoSchedule, tolerationSeconds: 5}]\n      containers:"),
        manifest_row("an invalid nodeSelector key", none, "      containers:", "      nodeSelector: {-bad: x}\n      containers:"),
        manifest_row("node affinity `In` without values", none, "      containers:", "      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms: [{matchExpressions: [{key: k, operator: In}]}]\n      containers:")
        .no_hint(),
        manifest_row("an unknown update strategy", none, "  template:", "  updateStrategy: {type: Recreate}\n  template:"),
        manifest_row("maxSurge without `maxUnavailable: 0`", none, "  template:", "  updateStrategy:\n    rollingUpdate: {maxSurge: 1}\n  template:"),
        manifest_row("maxUnavailable and maxSurge both 0", none, "  template:", "  updateStrategy:\n    rollingUpdate: {maxUnavailable: 0}\n  template:"),
        manifest_row("maxUnavailable over 100%", none, "  template:", "  updateStrategy:\n    rollingUpdate: {maxUnavailable: 110%}\n  template:"),
        manifest_row("a percentage that is not a number", none, "  template:", "  updateStrategy:\n    rollingUpdate: {maxUnavailable: ten%}\n  template:"),
        manifest_row("a negative minReadySeconds", none, "  template:", "  minReadySeconds: -1\n  template:")
        .no_hint(),
        manifest_text_row("the selector changed on a DaemonSet that exists", applied, &DS.replace("{app: x}", "{app: z}"))
            .shown(format!("{} (both)", edit_shown("{app: x}", "{app: z}"))),
        manifest_text_row("a file with only a comment", none, "# nothing\n"),
        manifest_text_row("a JSON manifest with a port in quotes", none, JSON_DS),
    ];
    Group {
        title: "Manifest",
        intro: format!(
            "A manifest applied from a scenario's `files:` (`kubectl apply -f ds.yaml` in a \
             script or the terminal, `scenario::run_line`). Each input is this DaemonSet with one \
             change, shown as `before` → `after` (the last two are whole files):\n\n```yaml\n{DS}```\n\n\
             The API server's messages, as kubectl prints them; decoding errors point at the \
             file's line:column in their hint."
        ),
        location: false,
        hint: true,
        rows,
    }
}

pub fn editor() -> Group {
    let rows = vec![
        Row::run("an empty text", "", || editor_error(None, "")),
        Row::run("a NUL character", ds_with("  name: x", "  name: x\0"), || {
            editor_error(None, &ds_with("  name: x", "  name: x\0"))
        })
        .shown(edit_shown("  name: x", "  name: x\0")),
        Row::run("an escape character pasted from a terminal", ds_with("busybox}", "busybox\u{1b}[0m}"), || {
            editor_error(None, &ds_with("busybox}", "busybox\u{1b}[0m}"))
        })
        .shown(edit_shown("busybox}", "busybox\u{1b}[0m}")),
        Row::run("a tab in the indentation", ds_with("      containers:", "\t  containers:"), || {
            editor_error(None, &ds_with("      containers:", "\t  containers:"))
        })
        .shown(edit_shown("      containers:", "\t  containers:")),
        Row::run("unquoted `yes` in a nodeSelector", ds_with("      containers:", "      nodeSelector:\n        k42: yes\n      containers:"), || {
            editor_error(None, &ds_with("      containers:", "      nodeSelector:\n        k42: yes\n      containers:"))
        })
        .shown(edit_shown("      containers:", "      nodeSelector:\n        k42: yes\n      containers:")),
        Row::run("selector and template labels differ", ds_with("      labels: {app: x}", "      labels: {app: other}"), || {
            editor_error(None, &ds_with("      labels: {app: x}", "      labels: {app: other}"))
        })
        .shown(edit_shown("      labels: {app: x}", "      labels: {app: other}")),
        Row::run("three mistakes at once", ds_with("- {name: app, image: busybox}", "- {name: app, image: busybox}\n      - {name: App}\n      - {name: app, image: busybox}"), || {
            editor_error(None, &ds_with("- {name: app, image: busybox}", "- {name: app, image: busybox}\n      - {name: App}\n      - {name: app, image: busybox}"))
        })
        .shown(edit_shown("- {name: app, image: busybox}", "- {name: app, image: busybox}\n      - {name: App}\n      - {name: app, image: busybox}"))
        .no_hint(),
        Row::run("a Pod instead of a DaemonSet", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, image: busybox}]\n", || {
            editor_error(None, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, image: busybox}]\n")
        }),
        Row::run("JSON cut short", "{\"apiVersion\": \"apps/v1\", \"kind\": \"DaemonSet\", \"metadata\": {\"name\": \"x\"", || {
            editor_error(None, "{\"apiVersion\": \"apps/v1\", \"kind\": \"DaemonSet\", \"metadata\": {\"name\": \"x\"")
        }),
        Row::run("the selector changed after the DaemonSet was applied", DS.replace("{app: x}", "{app: z}"), || {
            editor_error(Some(DS), &DS.replace("{app: x}", "{app: z}"))
        })
        .shown(format!("{} (both)", edit_shown("{app: x}", "{app: z}"))),
    ];
    Group {
        title: "YAML editor",
        intro: "A manifest typed or pasted into the page's YAML editor and applied \
                (`Timeline::apply_manifest`: `scenario::edit::diagnose` first, then `kubectl \
                apply`). Each diagnostic is `line:column: message`, one per line. Inputs are the \
                DaemonSet of §4 with one change, or whole texts."
            .into(),
        location: true,
        hint: true,
        rows,
    }
}

pub fn node_edits() -> Group {
    let add =
        |prefix: &str, count: usize, labels: &[&str], taints: &[&str], capacity: Option<&str>| {
            Edit::AddNodes {
                prefix: prefix.into(),
                count,
                labels: labels.iter().map(|s| s.to_string()).collect(),
                taints: taints.iter().map(|s| s.to_string()).collect(),
                capacity: capacity.map(str::to_string),
            }
        };
    let cases: Vec<(&str, Edit)> = vec![
        (
            "add nodes: an upper-case name prefix",
            add("Worker", 1, &[], &[], None),
        ),
        (
            "add nodes: an empty name prefix",
            add("", 1, &[], &[], None),
        ),
        ("add nodes: none", add("w", 0, &[], &[], None)),
        (
            "add nodes: more than the form allows",
            add("w", 1001, &[], &[], None),
        ),
        (
            "add nodes: a label without `=`",
            add("w", 1, &["ssd"], &[], None),
        ),
        (
            "add nodes: a taint with an unknown effect",
            add("w", 1, &[], &["k=v:Never"], None),
        ),
        (
            "add nodes: a capacity with a space",
            add("w", 1, &[], &[], Some("cpu=4, memory=8Gi")),
        ),
        (
            "label: an empty key",
            Edit::Label {
                node: "worker".into(),
                key: String::new(),
                value: Some("x".into()),
            },
        ),
        (
            "label: a value with a space",
            Edit::Label {
                node: "worker".into(),
                key: "zone".into(),
                value: Some("eu west".into()),
            },
        ),
        (
            "taint: no effect",
            Edit::Taint {
                node: "worker".into(),
                taint: "k=v".into(),
                remove: false,
            },
        ),
        (
            "remove: a node that is gone",
            Edit::RemoveNode {
                node: "nope".into(),
            },
        ),
        (
            "fail: a pod that is gone",
            Edit::FailPod {
                namespace: "default".into(),
                pod: "x-abcde".into(),
            },
        ),
    ];
    let rows = cases
        .into_iter()
        .map(|(what, edit)| {
            let r = Row::run(what, format!("{edit:?}"), || edit_error(&edit));
            let no_hint = match &edit {
                Edit::AddNodes { count, .. } => {
                    *count == 0 || *count > scenario::edit::MAX_ADD_NODES
                }
                Edit::FailPod { .. } => true,
                _ => false,
            };
            if no_hint {
                r.no_hint()
            } else {
                r
            }
        })
        .collect();
    Group {
        title: "Node and pod forms",
        intro: "What the page's node and pod forms and buttons send (`Timeline::apply_edit` of a \
                `scenario::edit::Edit`, shown here as the value the form builds): run as the script \
                line it stands for, its words quoted as typed, so that the API server judges it as \
                it judges a typed line (only the count of nodes is checked before)."
            .into(),
        location: false,
        hint: true,
        rows,
    }
}

pub fn share_links() -> Group {
    let link = small_link();
    let mut rows: Vec<Row> = [
        ("an empty link", String::new()),
        (
            "a page address without `#s=`",
            "https://example.org/".into(),
        ),
        ("a word", "hello".into()),
        ("`#s=` with nothing after it", "#s=".into()),
        ("no format number", "#s=abc".into()),
        (
            "a format this build does not read",
            format!("#s=2{}", &link[1..]),
        ),
        (
            "a format number of 24 digits",
            "#s=999999999999999999999999.abc".into(),
        ),
        (
            "a character outside base64url",
            format!("#s={}!{}", &link[..10], &link[10..]),
        ),
        (
            "a space inside",
            format!("#s={} {}", &link[..10], &link[10..]),
        ),
        (
            "a NUL character inside",
            format!("#s={}\0{}", &link[..10], &link[10..]),
        ),
        ("cut in half", format!("#s={}", &link[..link.len() / 2])),
        ("four bytes of nothing", "#s=1.AAAA".into()),
        ("a time that is not a number", format!("#s={link}&t=abc")),
        ("a negative time", format!("#s={link}&t=-1")),
        ("a time past the end of time", format!("#s={link}&t=1e300")),
    ]
    .into_iter()
    .map(|(what, input)| Row::run(what, input.clone(), || share_error(&input)))
    .collect();
    // Payloads carrying JSON, shown as the JSON they carry.
    for (what, json) in [
        ("not JSON", "not json".to_string()),
        ("JSON that is not a map", "[1,2]".into()),
        ("no `scenario` id", r#"{"title":"no id"}"#.into()),
        ("a misspelt key", r#"{"scenario":"x","nodse":[]}"#.into()),
        (
            "a script line that is a number",
            r#"{"scenario":"x","script":["kubectl get ds","sleep 1s","kubectl get pods",42]}"#
                .into(),
        ),
        (
            "a million nodes",
            r#"{"scenario":"x","nodes":[{"pool":"w","count":1000000}]}"#.into(),
        ),
        (
            "2³² + 1 nodes (1 if cut to 32 bits)",
            r#"{"scenario":"x","nodes":[{"pool":"w","count":4294967297}]}"#.into(),
        ),
        (
            "node numbers that overflow",
            r#"{"scenario":"x","nodes":[{"pool":"w","count":2,"from":18446744073709551615}]}"#
                .into(),
        ),
        (
            "two pools of 5,000",
            r#"{"scenario":"x","nodes":[{"pool":"a","count":5000},{"pool":"b","count":5000}]}"#
                .into(),
        ),
        (
            "markup as the theme",
            r#"{"scenario":"x","view":{"theme":"<script>"}}"#.into(),
        ),
        (
            "a lesson id with a space",
            r#"{"scenario":"x","view":{"lesson":{"id":"Max Surge"}}}"#.into(),
        ),
        (
            "a lesson step of -1",
            r#"{"scenario":"x","view":{"lesson":{"id":"max-surge","step":-1}}}"#.into(),
        ),
    ] {
        let p = payload_of(&json);
        rows.push(
            Row::run(what, p.clone(), || share_error(&p))
                .shown(format!("`1.` + the packed JSON {}", code(&json))),
        );
    }
    // Inputs too large to print.
    let big = [
        (
            "a deflate bomb (8 MiB of JSON)",
            payload_of(&format!(
                "{{\"scenario\":\"x\",\"description\":\"{}\"}}",
                "a".repeat(8 << 20)
            )),
            "`1.` + the packed JSON `{\"scenario\":\"x\",\"description\":\"aaa…\"}` with 8 MiB of `a`",
        ),
        (
            "a 300 KiB manifest",
            payload_of(&format!(
                "{{\"scenario\":\"x\",\"files\":{{\"ds.yaml\":\"{}\"}}}}",
                "a".repeat(300 * 1024)
            )),
            "`1.` + the packed JSON `{\"scenario\":\"x\",\"files\":{\"ds.yaml\":\"aaa…\"}}` with 300 KiB of `a`",
        ),
        (
            "a 2,000-byte label key",
            payload_of(&format!(
                "{{\"scenario\":\"x\",\"nodes\":[{{\"name\":\"a\",\"labels\":{{\"{}\":\"\"}}}}]}}",
                "k".repeat(2000)
            )),
            "`1.` + the packed JSON `{\"scenario\":\"x\",\"nodes\":[{\"name\":\"a\",\"labels\":{\"kkk…\":\"\"}}]}` with 2,000 `k`",
        ),
        (
            "arrays nested 100,000 deep",
            payload_of(&format!("{}{}", "[".repeat(100_000), "]".repeat(100_000))),
            "`1.` + the packed JSON of 100,000 `[` then 100,000 `]`",
        ),
        (
            "a 3 MiB link",
            format!("#s=1.{}", "A".repeat(3 << 20)),
            "`#s=1.` and 3 MiB of `A`",
        ),
    ];
    for (what, input, shown) in big {
        rows.push(Row::run(what, input.clone(), || share_error(&input)).shown(shown));
    }
    Group {
        title: "Share link",
        intro: "A share link (`#s=1.<data>&t=<seconds>`, a whole address or a part of one) as the \
                page opens it and `dsplay open` reads it: `scenario::share::decode`. The data is \
                base64url of raw DEFLATE of the scenario's JSON; rows that carry JSON show the \
                JSON. Every message has a hint."
            .into(),
        location: false,
        hint: true,
        rows,
    }
}

pub fn node_imports() -> Group {
    let mut rows: Vec<Row> = [
        ("an empty file", ""),
        ("a Pod", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"),
        ("a scenario file", "scenario: x\nnodes: [{name: a}]\n"),
        ("the table `kubectl get nodes` prints", "NAME     STATUS   ROLES    AGE   VERSION\nworker   Ready    <none>   5d    v1.30.0\n"),
        ("an object without `kind`", "metadata: {name: a}\n"),
        ("a Node without a name", "kind: Node\nmetadata: {labels: {}}\n"),
        ("an invalid node name in a List", "apiVersion: v1\nkind: List\nitems:\n- kind: Node\n  metadata: {name: a}\n- kind: Node\n  metadata: {name: B}\n"),
        ("the same node twice", "kind: Node\nmetadata: {name: a}\n---\nkind: Node\nmetadata: {name: a}\n"),
        ("a taint with a misspelt effect", "kind: Node\nmetadata: {name: a}\nspec:\n  taints:\n  - key: k\n    effect: NoShedule\n"),
        ("a label that is a boolean", "kind: Node\nmetadata:\n  name: a\n  labels:\n    gpu: true\n"),
        ("a condition status that is not one", "kind: Node\nmetadata: {name: a}\nstatus:\n  conditions:\n  - {type: Ready, status: Maybe}\n"),
        ("a YAML syntax error", "kind: Node\nmetadata: {name: [a\n"),
        ("a NUL character", "kind: Node\nmetadata: {name: a}\0\n"),
        ("a name that is a number (JSON)", "{\"kind\": \"Node\",\n \"metadata\": {\"name\": 1}}"),
        ("JSON cut short", "{\"kind\": \"List\", \"items\": [\n"),
    ]
    .into_iter()
    .map(|(what, text)| Row::run(what, text, || import_error(text, Merge::Replace)))
    .collect();
    let worker = "kind: Node\nmetadata: {name: worker}\n";
    rows.push(Row::run(
        "added (`--add-nodes`) to a scenario that has the node",
        worker,
        || import_error(worker, Merge::Add),
    ));
    let many: String = (1..=5001)
        .map(|i| format!("---\nkind: Node\nmetadata: {{name: n{i}}}\n"))
        .collect();
    rows.push(
        Row::run("5,001 nodes", many.clone(), || {
            import_error(&many, Merge::Replace)
        })
        .shown("5,001 documents `kind: Node` / `metadata: {name: nN}`"),
    );
    Group {
        title: "Node import",
        intro: "A real cluster's nodes (`kubectl get nodes -o yaml|json`, or Node manifests), \
                named `n.yaml` here, as the page's Import nodes and `dsplay --nodes` / \
                `--add-nodes` read them: `scenario::import::import_nodes`, then `merge_nodes` \
                into a one-node scenario (`worker`)."
            .into(),
        location: true,
        hint: true,
        rows,
    }
}

pub fn lessons() -> Group {
    let head = &GOOD_LESSON[..GOOD_LESSON.find("lesson:").unwrap_or(0)];
    let cases: Vec<(&str, String, String)> = vec![
        ("not a lesson (no `lesson:`)", head.to_string(), "the lesson's lines before `lesson:`, nothing after".into()),
        ("lesson is not a list", format!("{head}lesson: {{title: x}}\n"), "the lesson's lines before `lesson:`, then `lesson: {title: x}`".into()),
        ("no steps", format!("{head}lesson: []\n"), "the lesson's lines before `lesson:`, then `lesson: []`".into()),
        ("unknown key in a step", lesson_with("    text: Apply **it**.", "    txet: Apply **it**."), edit_shown("    text: Apply **it**.", "    txet: Apply **it**.")),
        ("a step without a title", lesson_with("  - title: Taint\n    task:", "  - task:"), edit_shown("  - title: Taint\n    task:", "  - task:")),
        ("a title of the wrong type", lesson_with("  - title: Start", "  - title: [Start]"), edit_shown("  - title: Start", "  - title: [Start]")),
        ("an answer that is not a choice", lesson_with("      answer: \"2\"", "      answer: \"3\""), edit_shown("      answer: \"2\"", "      answer: \"3\"")),
        ("empty choices", lesson_with("      choices: [\"1\", \"2\"]", "      choices: []"), edit_shown("      choices: [\"1\", \"2\"]", "      choices: []")),
        ("one choice", lesson_with("      choices: [\"1\", \"2\"]", "      choices: [\"2\"]"), edit_shown("      choices: [\"1\", \"2\"]", "      choices: [\"2\"]")),
        ("a choice offered twice", lesson_with("      choices: [\"1\", \"2\"]", "      choices: [\"2\", \"2\"]"), edit_shown("      choices: [\"1\", \"2\"]", "      choices: [\"2\", \"2\"]")),
        ("an ask without explain", lesson_with("      explain: One per node.\n", ""), edit_shown("      explain: One per node.", "")),
        ("a task without check", lesson_with("      check:\n        - expect: kubectl get pods --field-selector spec.nodeName=worker2 -o name\n          equals: \"\"\n", ""), edit_shown("      check:\n        - expect: kubectl get pods --field-selector spec.nodeName=worker2 -o name\n          equals: \"\"", "")),
        ("a task without solution", lesson_with("      solution:\n        - kubectl taint node worker2 k=v:NoExecute\n", ""), edit_shown("      solution:\n        - kubectl taint node worker2 k=v:NoExecute", "")),
        ("a check that is a plain command", lesson_with("        - expect: kubectl get pods --field-selector spec.nodeName=worker2 -o name\n          equals: \"\"", "        - kubectl get pods"), edit_shown("        - expect: kubectl get pods --field-selector spec.nodeName=worker2 -o name\n          equals: \"\"", "        - kubectl get pods")),
        ("a check that changes the cluster", lesson_with("kubectl get pods --field-selector spec.nodeName=worker2 -o name", "kubectl label node worker2 seen=yes"), edit_shown("kubectl get pods --field-selector spec.nodeName=worker2 -o name", "kubectl label node worker2 seen=yes")),
        ("a run line with an unknown verb", lesson_with("      - sleep 5s", "      - slep 5s"), edit_shown("      - sleep 5s", "      - slep 5s")),
        ("a run line with a bad duration", lesson_with("      - sleep 5s", "      - sleep 5x"), edit_shown("      - sleep 5s", "      - sleep 5x")),
        ("a solution kubectl cannot parse", lesson_with("        - kubectl taint node", "        - kubectl tiant node"), edit_shown("        - kubectl taint node", "        - kubectl tiant node")),
        ("hints that are not a list", lesson_with("      hints: [\"kubectl taint\"]", "      hints: kubectl taint"), edit_shown("      hints: [\"kubectl taint\"]", "      hints: kubectl taint")),
    ];
    let rows = cases
        .into_iter()
        .map(|(what, text, shown)| {
            let r = Row::run(what, text.clone(), || lesson_error(&text)).shown(shown);
            if what.starts_with("a title of") {
                r.no_hint()
            } else {
                r
            }
        })
        .collect();
    Group {
        title: "Lesson file",
        intro: format!(
            "A lesson file, named `l.yaml` here, as the page's lesson pane (`?lesson=`) and \
             `dsplay test` read it: `scenario::lesson::parse_lesson`. Each input is this lesson \
             with one change (`before` → `after`):\n\n```yaml\n{GOOD_LESSON}```"
        ),
        location: true,
        hint: true,
        rows,
    }
}

pub fn compare_lists() -> Group {
    const F4: &str = "f4-rolling-update-max-unavailable-1";
    const F5: &str = "f5-rolling-update-max-unavailable-2";
    let bare = scenario::parse("s.yaml", "scenario: bare\nnodes: [{name: worker}]\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let cases: Vec<(&str, String, Option<&Scenario>)> = vec![
        ("an empty list", String::new(), None),
        ("one id", F4.into(), None),
        ("an empty id", "a,,b".into(), None),
        (
            "five ids",
            format!("{F4},{F5},{F4}:on-delete,{F5}:on-delete,f3-taints"),
            None,
        ),
        ("an id twice", format!("{F4},{F4}"), None),
        ("an unknown preset", format!("{F4},nope"), None),
        (
            "a misspelt preset",
            format!("{F4},f5-rolling-update-max-unavailable-3"),
            None,
        ),
        (
            "`shared` without a share link",
            format!("{F4},shared"),
            None,
        ),
        ("an unknown strategy", format!("{F4},{F4}:fast"), None),
        (
            "a strategy for a scenario without a DaemonSet (a link's `scenario: bare`, no files)",
            "shared,shared:on-delete".into(),
            Some(&bare),
        ),
    ];
    let rows = cases
        .into_iter()
        .map(|(what, list, shared)| Row::run(what, list.clone(), || compare_error(&list, shared)))
        .collect();
    Group {
        title: "Compare list",
        intro: "The list of a compare page's address (`?compare=a,b[:strategy],…`) as the page \
                reads it: `scenario::compare::variants`. Every message has a hint."
            .into(),
        location: false,
        hint: true,
        rows,
    }
}
