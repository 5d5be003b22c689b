//! `run`, `test`, `explain`, `export yaml`, `share` and `open`: load scenario files (with a real
//! cluster's nodes when asked), run them with `scenario::run`, print.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use controller::controller_ref::get_controller_of;
use controller::pod_util::{is_pod_ready, node_name, phase};
use controller::DaemonPodPredicate;
use scenario::{Failure, Outcome, Scenario, Step};
use serde::Serialize;

use crate::args::{closest, OutputFormat};
use crate::{emit, CliError, Verdict};

/// Reads a file as UTF-8 text; every failure says which file and what to do.
pub fn read_text(file: &str) -> Result<String, CliError> {
    let path = Path::new(file);
    if path.is_dir() {
        return Err(
            CliError::new(format!("{file} is a directory, not a scenario file"))
                .hint("`dsplay test DIR` runs every *.yaml in a directory"),
        );
    }
    let bytes = std::fs::read(path).map_err(|e| {
        let hint = match e.kind() {
            std::io::ErrorKind::NotFound => {
                "check the path; the presets are in presets/, e.g. presets/f1-one-pod-per-node.yaml"
            }
            std::io::ErrorKind::PermissionDenied => "check the file's permissions",
            _ => "check that the path names a readable file",
        };
        CliError::new(format!("cannot read {file}: {e}")).hint(hint)
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|b| **b == b'\n').count() + 1;
        let start = good.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&good[start..]).chars().count() + 1;
        CliError::new(format!(
            "{file}:{line}:{column}: the file is not UTF-8 text"
        ))
        .hint("save the scenario as UTF-8")
    })
}

/// Reads and parses a scenario file; the file's path as given is the source name in errors. A
/// lesson file's steps are validated too (a broken lesson is bad input everywhere), then left
/// out.
pub fn load(file: &str) -> Result<Scenario, CliError> {
    let text = read_text(file)?;
    Ok(scenario::lesson::parse_with_lesson(file, &text)?.0)
}

/// `--nodes FILE` (replace the scenario's nodes) and `--add-nodes FILE` (add to them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodesArg {
    pub replace: Option<String>,
    pub add: Option<String>,
}

/// Imports the nodes of a `kubectl get nodes -o yaml|json` file.
fn import(path: &str) -> Result<Vec<scenario::NodeEntry>, CliError> {
    let text = read_text(path)?;
    Ok(scenario::import::import_nodes(path, &text)?)
}

/// Loads a scenario and puts in the nodes `--nodes` / `--add-nodes` name.
pub fn load_with_nodes(file: &str, nodes: &NodesArg) -> Result<Scenario, CliError> {
    let mut s = load(file)?;
    with_nodes(&mut s, nodes)?;
    Ok(s)
}

fn with_nodes(s: &mut Scenario, nodes: &NodesArg) -> Result<(), CliError> {
    use scenario::import::{merge_nodes, Merge};
    if let Some(path) = &nodes.replace {
        merge_nodes(s, import(path)?, Merge::Replace, path)?;
    }
    if let Some(path) = &nodes.add {
        merge_nodes(s, import(path)?, Merge::Add, path)?;
    }
    Ok(())
}

/// `presets/x.yaml:42:5: expect `…` equals "4", observed "3"`
fn failure_line(file: &str, f: &Failure) -> String {
    format!("{file}:{}:{}: {}", f.line, f.column, f.describe())
}

#[derive(Serialize)]
struct JsonRecord<'a> {
    t: f64,
    command: &'a str,
    output: &'a str,
    ok: bool,
}

/// Virtual seconds to the millisecond, so the JSON does not show float noise.
fn millis(t: f64) -> f64 {
    (t * 1000.0).round() / 1000.0
}

fn transcript(s: &Scenario, out: &Outcome) -> String {
    let mut text = String::new();
    for (r, line) in out.records.iter().zip(&s.script) {
        let _ = writeln!(text, "[{:>6.1}s] $ {}", r.t, r.command);
        text.push_str(&r.output);
        if !r.output.is_empty() && !r.output.ends_with('\n') {
            text.push('\n');
        }
        if let Step::Expect { check, .. } = &line.step {
            if r.ok {
                let _ = writeln!(text, "expect {}: ok", check);
            } else {
                let _ = writeln!(
                    text,
                    "expect {}: FAILED, observed {:?}",
                    check,
                    r.output.trim()
                );
            }
        }
    }
    if out.passed + out.failures.len() > 0 {
        let _ = writeln!(
            text,
            "expectations: {} passed, {} failed",
            out.passed,
            out.failures.len()
        );
    }
    text
}

/// `dsplay run FILE [--until-settled] [--trace FILE.jsonl] [--output text|json]`
pub fn run(
    file: &str,
    until_settled: bool,
    trace: Option<&str>,
    output: OutputFormat,
    nodes: &NodesArg,
) -> Result<Verdict, CliError> {
    let s = load_with_nodes(file, nodes)?;
    let out = scenario::run(&s, until_settled)?;
    if let Some(path) = trace {
        let lines = cluster::to_json_lines(out.session.cluster.trace());
        std::fs::write(path, lines).map_err(|e| {
            CliError::new(format!("cannot write the trace to {path}: {e}"))
                .hint("check that the directory exists and is writable")
        })?;
    }
    if until_settled && !out.session.cluster.is_settled() {
        eprintln!(
            "warning: {file}: the cluster did not settle within {} s of virtual time after the script",
            scenario::run::WAIT_LIMIT.as_secs()
        );
    }
    match output {
        OutputFormat::Text => emit(&transcript(&s, &out)),
        OutputFormat::Json => {
            let records: Vec<JsonRecord> = out
                .records
                .iter()
                .map(|r| JsonRecord {
                    t: millis(r.t),
                    command: &r.command,
                    output: &r.output,
                    ok: r.ok,
                })
                .collect();
            let json = serde_json::to_string_pretty(&records)
                .map_err(|e| CliError::new(format!("cannot encode the transcript: {e}")))?;
            emit(&format!("{json}\n"));
        }
    }
    for f in &out.failures {
        eprintln!("{}", failure_line(file, f));
    }
    Ok(if out.failures.is_empty() {
        Verdict::Ok
    } else {
        Verdict::ExpectationFailed
    })
}

/// The scenario files a `dsplay test` argument names: the file, or a directory's *.yaml sorted.
fn scenario_files(arg: &str) -> Result<Vec<String>, CliError> {
    let path = Path::new(arg);
    if !path.is_dir() {
        if !path.exists() {
            return Err(CliError::new(format!("{arg}: no such file or directory"))
                .hint("pass scenario files or directories of them, e.g. `dsplay test presets`"));
        }
        return Ok(vec![arg.to_string()]);
    }
    let entries = std::fs::read_dir(path).map_err(|e| {
        CliError::new(format!("cannot list {arg}: {e}")).hint("check the directory's permissions")
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(
            CliError::new(format!("{arg} holds no *.yaml scenario files"))
                .hint("scenario files end in .yaml"),
        );
    }
    Ok(files
        .into_iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect())
}

/// Tests one scenario or lesson file: the expectations that held, and a line per failure.
fn test_file(file: &str, nodes: &NodesArg) -> Result<(usize, Vec<String>), CliError> {
    let text = read_text(file)?;
    let (mut s, lesson) = scenario::lesson::parse_with_lesson(file, &text)?;
    with_nodes(&mut s, nodes)?;
    match lesson {
        None => {
            let out = scenario::run(&s, false)?;
            let failures = out.failures.iter().map(|f| failure_line(file, f));
            Ok((out.passed, failures.collect()))
        }
        Some(lesson) => {
            let lesson_file = scenario::LessonFile {
                scenario: s,
                lesson,
            };
            let out = scenario::lesson::test_lesson(&lesson_file)?;
            let failures = out
                .failures
                .iter()
                .map(|f| format!("{file}:{}:{}: {}", f.line, f.column, f.message));
            Ok((out.passed, failures.collect()))
        }
    }
}

/// `dsplay test DIR|FILE…`
pub fn test(paths: &[String], nodes: &NodesArg) -> Result<Verdict, CliError> {
    let mut passed = 0;
    let mut failed = 0;
    let mut bad_input = false;
    let mut report = String::new();
    for arg in paths {
        let files = match scenario_files(arg) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("{e}");
                bad_input = true;
                continue;
            }
        };
        for file in files {
            match test_file(&file, nodes) {
                Ok((p, failures)) => {
                    passed += p;
                    failed += failures.len();
                    for f in failures {
                        let _ = writeln!(report, "{f}");
                    }
                }
                Err(e) => {
                    eprintln!("{e}");
                    bad_input = true;
                }
            }
        }
    }
    let _ = writeln!(report, "{passed} passed, {failed} failed");
    emit(&report);
    if bad_input {
        return Err(
            CliError::new("some scenario files could not be run (see above)")
                .hint("fix the reported files; their expectations were not counted"),
        );
    }
    Ok(if failed == 0 {
        Verdict::Ok
    } else {
        Verdict::ExpectationFailed
    })
}

/// A list of names for a hint, shortened past 20.
fn name_list(names: &[String]) -> String {
    const SHOWN: usize = 20;
    let mut s = names
        .iter()
        .take(SHOWN)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > SHOWN {
        let _ = write!(s, " … and {} more", names.len() - SHOWN);
    }
    s
}

/// `dsplay explain FILE NODE`
pub fn explain(file: &str, node_name_arg: &str, nodes: &NodesArg) -> Result<Verdict, CliError> {
    let s = load_with_nodes(file, nodes)?;
    let out = scenario::run(&s, false)?;
    let c = &out.session.cluster;
    let Some(node) = c.node(node_name_arg) else {
        let names: Vec<String> = c
            .nodes()
            .iter()
            .filter_map(|n| n.metadata.name.clone())
            .collect();
        let mut hint = match closest(node_name_arg, names.iter().map(String::as_str)) {
            Some(n) => format!("did you mean {n:?}? "),
            None => String::new(),
        };
        if names.is_empty() {
            hint.push_str("the scenario has no nodes; declare some under `nodes:`");
        } else {
            let _ = write!(hint, "nodes after the script: {}", name_list(&names));
        }
        return Err(CliError::new(format!(
            "{file}: no node {node_name_arg:?} in this scenario"
        ))
        .hint(hint));
    };
    let daemon_sets = c.daemon_sets();
    if daemon_sets.is_empty() {
        return Err(
            CliError::new(format!("{file}: no DaemonSet exists after the script"))
                .hint("the script must create one, e.g. `- kubectl apply -f ds.yaml`"),
        );
    }
    let pods = c.pods();
    let mut text = String::new();
    for ds in &daemon_sets {
        let ns = ds.metadata.namespace.as_deref().unwrap_or("default");
        let name = ds.metadata.name.as_deref().unwrap_or("");
        let e = DaemonPodPredicate::new(ds).explain(&node);
        let verdict = if e.decision.should_run {
            "gets a daemon pod"
        } else {
            "gets no daemon pod"
        };
        let _ = writeln!(text, "DaemonSet {ns}/{name} on node {}: {verdict}", e.node);
        if e.checks.is_empty() {
            let _ = writeln!(
                text,
                "  (nothing to check: no nodeName, nodeSelector, required node affinity or taint applies)"
            );
        }
        for check in &e.checks {
            let mark = if check.passed { "pass" } else { "FAIL" };
            let _ = writeln!(text, "  [{mark}] {} {}", check.rule, check.subject);
            let _ = writeln!(text, "         {}", check.detail);
        }
        let _ = writeln!(
            text,
            "  decision: shouldRun={}, shouldContinueRunning={}",
            e.decision.should_run, e.decision.should_continue_running
        );
        let _ = writeln!(text, "  summary: {}", e.summary);
        let uid = ds.metadata.uid.as_deref();
        let here: Vec<String> = pods
            .iter()
            .filter(|p| node_name(p) == e.node)
            .filter(|p| get_controller_of(&p.metadata).is_some_and(|r| Some(r.uid.as_str()) == uid))
            .map(|p| {
                let ready = if is_pod_ready(p) {
                    "ready"
                } else {
                    "not ready"
                };
                format!(
                    "{} ({}, {ready})",
                    p.metadata.name.as_deref().unwrap_or(""),
                    phase(p)
                )
            })
            .collect();
        let _ = writeln!(
            text,
            "  its pods on {} now: {}",
            e.node,
            if here.is_empty() {
                "none".to_string()
            } else {
                here.join(", ")
            }
        );
        if e.decision.should_run && here.is_empty() {
            if let Some(why) = scenario::view::create_failure(c, Some(ns), name) {
                let _ = writeln!(text, "  but the controller's create fails: {why}");
            }
        }
    }
    emit(&text);
    Ok(Verdict::Ok)
}

/// `dsplay export yaml FILE`: the scenario as a scenario file (with imported nodes, if any).
pub fn export_yaml(file: &str, nodes: &NodesArg) -> Result<Verdict, CliError> {
    let s = load_with_nodes(file, nodes)?;
    emit(&scenario::write::to_yaml(&s));
    Ok(Verdict::Ok)
}

/// `dsplay share FILE [--at SECONDS] [--base URL]`
pub fn share(
    file: &str,
    at: Option<f64>,
    base: &str,
    nodes: &NodesArg,
) -> Result<Verdict, CliError> {
    use scenario::share::{fragment, link_warning, ShareView};
    let s = load_with_nodes(file, nodes)?;
    let link = format!("{base}{}", fragment(&s, &ShareView::default(), at));
    if let Some(w) = link_warning(link.len()) {
        eprintln!("warning: {file}: {}", w.message(link.len()));
    }
    emit(&format!("{link}\n"));
    Ok(Verdict::Ok)
}

/// `dsplay share --table [DIR|FILE…]`: a Markdown table of link lengths.
pub fn share_table(paths: &[String]) -> Result<Verdict, CliError> {
    use scenario::share::{fragment, ShareView};
    let mut scenarios = Vec::new();
    if paths.is_empty() {
        for p in scenario::presets::ALL {
            scenarios.push((p.id.to_string(), scenario::parse(p.file, p.text)?));
        }
    }
    for arg in paths {
        for file in scenario_files(arg)? {
            let s = load(&file)?;
            scenarios.push((file, s));
        }
    }
    let mut text =
        String::from("| scenario | nodes | link (`#s=…`) characters |\n|---|---:|---:|\n");
    for (name, s) in &scenarios {
        let len = fragment(s, &ShareView::default(), None).len();
        let _ = writeln!(text, "| {name} | {} | {len} |", s.node_objects().len());
    }
    emit(&text);
    Ok(Verdict::Ok)
}

/// `dsplay open LINK`: the link's scenario as a scenario file.
pub fn open(link: &str) -> Result<Verdict, CliError> {
    let shared = scenario::share::decode(link)
        .map_err(|e| CliError::new(format!("cannot open the link: {}", e.message)).hint(e.hint))?;
    let mut text = String::from("# Opened from a share link");
    if let Some(t) = shared.t {
        let _ = write!(text, "; it opens at t={}s", scenario::share::format_time(t));
    }
    for (k, v) in [("panel", &shared.view.panel), ("theme", &shared.view.theme)] {
        if let Some(v) = v {
            let _ = write!(text, "; {k}: {v}");
        }
    }
    text.push('\n');
    text.push_str(&scenario::write::to_yaml(&shared.scenario));
    emit(&text);
    Ok(Verdict::Ok)
}

/// `dsplay predict FILE [--nodes N]`: the scenario's rollout simulated per update strategy
/// (`scenario::predict`).
pub fn predict(file: &str, count: Option<usize>, nodes: &NodesArg) -> Result<Verdict, CliError> {
    let fail = |e: scenario::compare::CompareError| {
        CliError::new(format!("{file}: {}", e.message)).hint(e.hint)
    };
    let mut s = load_with_nodes(file, nodes)?;
    if let Some(n) = count {
        s = scenario::predict::with_node_count(&s, n).map_err(fail)?;
    }
    let rows = scenario::predict::predict(&s).map_err(fail)?;
    let total: usize = s.nodes.iter().map(|e| e.names.len()).sum();
    emit(&scenario::predict::table(&rows, total));
    Ok(Verdict::Ok)
}
