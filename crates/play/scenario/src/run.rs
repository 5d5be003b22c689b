//! Running a scenario: build the cluster from the file, execute the script line by line
//! (kubectl commands, simulation verbs, `expect:` checks) on the virtual clock.
//!
//! Time moves only in commands that wait: `sleep`, and `kubectl rollout status` (which steps
//! the simulation until the rollout is done).

use cluster::{Cluster, Timing};
use kubectl::WaitState;
use std::time::Duration;

use crate::format::{parse_taint, Check, Scenario, ScenarioError, Step};
use crate::script::parse_duration;
use crate::session::Session;

/// How long (virtual) a script's `kubectl rollout status` waits when it has no `--timeout`:
/// kubectl would wait forever, but the virtual cluster never goes idle (heartbeats), so a
/// rollout that cannot finish would never end the script. After this the wait fails with
/// kubectl's timeout error. A positive `--timeout` replaces the cap, longer or shorter
/// (`--timeout=12h` waits 12 h of virtual time); `--timeout=0` keeps it.
pub const WAIT_LIMIT: Duration = Duration::from_secs(3600);

/// How long a script lets `wait` run: its `--timeout`, else [`WAIT_LIMIT`].
pub(crate) fn wait_limit(wait: &kubectl::Wait) -> Duration {
    wait.timeout().unwrap_or(WAIT_LIMIT)
}

/// One executed script line, as `dsplay run --output json` prints it.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// Virtual seconds since the scenario started, when the command was issued.
    pub t: f64,
    pub command: String,
    pub output: String,
    pub ok: bool,
    /// Line in the scenario file.
    pub line: usize,
}

/// An `expect:` that did not hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub line: usize,
    pub column: usize,
    pub command: String,
    pub expected: Check,
    pub observed: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}:{}: {}", self.line, self.column, self.describe())
    }
}

impl Failure {
    /// What did not hold, without where: `` expect `…` equals "4", observed "3" ``.
    pub fn describe(&self) -> String {
        format!(
            "expect `{}` {}, observed {:?}",
            self.command, self.expected, self.observed
        )
    }
}

/// The result of running a whole script.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub records: Vec<Record>,
    pub failures: Vec<Failure>,
    pub passed: usize,
    pub session: Session,
}

/// What one line printed and whether it succeeded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineResult {
    pub output: String,
    pub ok: bool,
}

/// Builds the cluster a scenario starts from: seed, timing overrides, nodes, files.
pub fn start(scenario: &Scenario) -> Result<Session, ScenarioError> {
    let mut timing = Timing::default();
    for (key, value) in &scenario.timing {
        timing.set_field(key, value).map_err(|e| {
            let problem = match e {
                cluster::timing::FieldError::Unknown => format!("unknown field `{key}`"),
                cluster::timing::FieldError::WrongType { want } => {
                    format!("`{key}` must be {want}, not {value}")
                }
            };
            let defaults = Timing::default();
            let defaults: Vec<String> = Timing::FIELDS
                .iter()
                .map(|f| format!("{f}: {}", defaults.field(f).unwrap_or_default()))
                .collect();
            ScenarioError {
                source_name: scenario.source_name.clone(),
                line: 1,
                column: 1,
                message: format!("timing: {problem}"),
                hint: Some(format!(
                    "timing keys are the fields of the timing model, e.g. watch_delay, controller_sync, container_start (defaults: {})",
                    defaults.join(", ")
                )),
            }
        })?;
    }
    let mut cluster = Cluster::new(scenario.seed, timing);
    cluster.set_images(scenario.image_registry());
    for node in scenario.node_objects() {
        let name = node.metadata.name.clone().unwrap_or_default();
        cluster.add_node(node).map_err(|e| ScenarioError {
            source_name: scenario.source_name.clone(),
            line: 1,
            column: 1,
            message: format!("node {name}: {e}"),
            hint: None,
        })?;
    }
    Ok(Session {
        cluster,
        files: scenario.files.clone(),
    })
}

fn fail(msg: impl Into<String>) -> LineResult {
    LineResult {
        output: lines(msg.into()),
        ok: false,
    }
}

fn ok(msg: impl Into<String>) -> LineResult {
    LineResult {
        output: lines(msg.into()),
        ok: true,
    }
}

/// A line's output is whole lines, as kubectl prints them: the terminal and the script log
/// show outputs one after another, so a message without its newline would run into the next
/// command.
fn lines(mut text: String) -> String {
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// Runs one script line against the session.
pub fn run_line(session: &mut Session, line: &str) -> LineResult {
    let words = match kubectl::split_words(line) {
        Ok(w) => w,
        Err(e) => return fail(e.to_string()),
    };
    let Some(verb) = words.first().map(String::as_str) else {
        return ok("");
    };
    match verb {
        "kubectl" => run_kubectl(session, line),
        "sleep" => match words.get(1).map(|d| parse_duration(d)) {
            Some(Ok(d)) if words.len() == 2 => {
                session.cluster.advance(d);
                ok("")
            }
            Some(Err(e)) => fail(format!("error: {e}")),
            _ => fail("error: usage: sleep DURATION (e.g. sleep 30s)"),
        },
        "node" => run_node_verb(session, &words[1..]),
        "pod" => run_pod_verb(session, &words[1..]),
        other => fail(format!(
            "error: unknown command {other:?}\n  hint: a script line is a kubectl command, sleep DURATION, node add|remove|stop|start NAME, or pod crash|fail POD"
        )),
    }
}

const POD_USAGE: &str = "error: usage: pod crash POD|--node NODE [--exit-code N] [-n NAMESPACE] | pod fail POD|--node NODE [--reason Evicted|OutOfcpu|OutOfmemory] [-n NAMESPACE]";

/// `pod crash|fail POD|--node NODE [-n NAMESPACE] [--exit-code N] [--reason R]`: a pod's
/// container exits once (crash; the kubelet restarts it), or the kubelet fails the pod: evicts
/// it for memory pressure (`--reason Evicted`, the default) or rejects it at admission for want
/// of cpu or memory (`OutOfcpu`, `OutOfmemory`). With `--node`, every running pod bound to the
/// node (pod names are random, so scripts name the node).
fn run_pod_verb(session: &mut Session, words: &[String]) -> LineResult {
    let Some((verb, rest)) = words.split_first() else {
        return fail(POD_USAGE);
    };
    let crash = match verb.as_str() {
        "crash" => true,
        "fail" => false,
        _ => return fail(POD_USAGE),
    };
    let (mut pod, mut node, mut ns, mut code) = (None, None, "default".to_string(), 1i32);
    let mut reject: Option<&str> = None;
    let mut it = rest.iter();
    while let Some(w) = it.next() {
        let w = w.as_str();
        let (flag, inline) = match w.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (w, None),
        };
        let mut value = || inline.clone().or_else(|| it.next().cloned());
        match flag {
            "--node" => node = value(),
            "-n" | "--namespace" => match value() {
                Some(v) => ns = v,
                None => return fail(POD_USAGE),
            },
            "--exit-code" if crash => match value().map(|v| v.parse::<i32>()) {
                Some(Ok(n)) if (0..=255).contains(&n) => code = n,
                _ => {
                    return fail(
                        "error: --exit-code must be a whole number from 0 to 255\n  hint: e.g. pod crash --node worker --exit-code 137",
                    )
                }
            },
            "--reason" if !crash => match value().as_deref() {
                Some("Evicted") => reject = None,
                Some("OutOfcpu") => reject = Some("cpu"),
                Some("OutOfmemory") => reject = Some("memory"),
                other => {
                    return fail(format!(
                        "error: unknown --reason {:?}\n  hint: Evicted (node memory pressure), OutOfcpu or OutOfmemory (rejected at admission)",
                        other.unwrap_or("")
                    ))
                }
            },
            f if f.starts_with('-') => return fail(format!("error: unknown flag {f:?}\n  hint: {}", &POD_USAGE[7..])),
            _ if pod.is_none() => pod = Some(w.to_string()),
            _ => return fail(POD_USAGE),
        }
    }
    let act = |session: &mut Session, name: &str| {
        let r = match (crash, reject) {
            (true, _) => session.cluster.crash_pod(&ns, name, code),
            (false, None) => session.cluster.fail_pod(&ns, name),
            (false, Some(resource)) => session.cluster.reject_pod(&ns, name, resource),
        };
        let done = match (crash, reject) {
            (true, _) => "crashed",
            (false, None) => "evicted",
            (false, Some(_)) => "rejected",
        };
        r.map(|_| format!("pod/{name} {done}\n"))
    };
    match (pod, node) {
        (Some(name), None) => match act(session, &name) {
            Ok(out) => ok(out),
            Err(e) => fail(e.to_string()),
        },
        (None, Some(node)) => {
            if session.cluster.node(&node).is_none() {
                return fail(format!("error: nodes {node:?} not found\n"));
            }
            let names: Vec<String> = session
                .cluster
                .pods()
                .iter()
                .filter(|p| p.metadata.namespace.as_deref().unwrap_or("default") == ns)
                .filter(|p| p.metadata.deletion_timestamp.is_none())
                .filter(|p| p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(&node))
                .filter(|p| !controller::pod_util::is_pod_terminal(p))
                .filter_map(|p| p.metadata.name.clone())
                .collect();
            if names.is_empty() {
                return fail(format!(
                    "error: no running pod on node {node:?} in namespace {ns:?}\n"
                ));
            }
            let mut out = String::new();
            for name in names {
                match act(session, &name) {
                    Ok(line) => out.push_str(&line),
                    Err(e) => return fail(format!("{out}{e}\n")),
                }
            }
            ok(out)
        }
        _ => fail(POD_USAGE),
    }
}

/// What kubectl prints when a wait outlives its limit ([`wait_limit`]).
pub(crate) const TIMED_OUT: &str = "error: timed out waiting for the condition\n";

/// Adds what one poll of a kubectl wait printed to `output`; `Some(ok)` once the wait ended.
/// Shared by the batch runner and [`crate::Playback`], so both print a wait the same way.
pub(crate) fn absorb_wait(state: WaitState, output: &mut String) -> Option<bool> {
    match state {
        WaitState::Pending(text) => {
            output.push_str(&text);
            None
        }
        WaitState::Done(text) => {
            output.push_str(&text);
            Some(true)
        }
        WaitState::Failed(f) => {
            output.push_str(&f.stdout);
            output.push_str(&f.stderr);
            Some(false)
        }
    }
}

fn run_kubectl(session: &mut Session, line: &str) -> LineResult {
    let mut r = kubectl::run(session, line);
    let mut output = String::new();
    output.push_str(&r.stdout);
    if let Some(mut wait) = r.wait.take() {
        let deadline = session.cluster.elapsed_seconds() + wait_limit(&wait).as_secs_f64();
        loop {
            if let Some(ended_ok) = absorb_wait(wait.poll(session), &mut output) {
                return LineResult {
                    output,
                    ok: ended_ok,
                };
            }
            if session.cluster.elapsed_seconds() > deadline || session.cluster.step().is_none() {
                output.push_str(TIMED_OUT);
                return fail(output);
            }
        }
    }
    output.push_str(&r.stderr);
    if let Some(h) = &r.hint {
        if r.exit_code != 0 {
            output.push_str(&format!("  hint: {h}\n"));
        }
    }
    LineResult {
        output,
        ok: r.exit_code == 0,
    }
}

/// Runs a kubectl command now without moving time: a `rollout status` prints its current
/// progress instead of waiting. What the page's terminal and a lesson's live checks run.
pub(crate) fn run_without_waiting(session: &mut Session, command: &str) -> LineResult {
    let mut r = kubectl::run(session, command);
    let mut output = std::mem::take(&mut r.stdout);
    let mut ok = r.exit_code == 0;
    if let Some(mut wait) = r.wait.take() {
        if let Some(ended_ok) = absorb_wait(wait.poll(session), &mut output) {
            ok = ended_ok;
        }
    } else {
        output.push_str(&r.stderr);
        if let Some(h) = &r.hint {
            if r.exit_code != 0 {
                output.push_str(&format!("  hint: {h}\n"));
            }
        }
    }
    LineResult { output, ok }
}

fn run_node_verb(session: &mut Session, words: &[String]) -> LineResult {
    let usage = "error: usage: node add NAME [--label k=v]… [--taint k=v:Effect]… [--capacity cpu=4,memory=8Gi,pods=110] | node remove|stop|start NAME";
    let [verb, name, flags @ ..] = words else {
        return fail(usage);
    };
    if name.is_empty() {
        return fail(format!(
            "error: node {verb} needs a node name\n  hint: e.g. `node {verb} worker5`"
        ));
    }
    let c = &mut session.cluster;
    let r = match verb.as_str() {
        "add" => {
            let mut entry = crate::format::NodeEntry {
                names: vec![name.clone()],
                ..Default::default()
            };
            let mut i = 0;
            while i < flags.len() {
                let (flag, value) = match flags[i].split_once('=') {
                    Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
                    _ => (flags[i].clone(), None),
                };
                let value = match value {
                    Some(v) => v,
                    None => {
                        i += 1;
                        match flags.get(i) {
                            Some(v) => v.clone(),
                            None => return fail(format!("error: flag {flag} needs a value")),
                        }
                    }
                };
                match flag.as_str() {
                    "--label" => match value.split_once('=') {
                        Some((k, v)) => {
                            entry.labels.insert(k.into(), v.into());
                        }
                        None => {
                            return fail(format!(
                                "error: --label {value:?}: write key=value\n  hint: e.g. `--label disk=ssd`"
                            ))
                        }
                    },
                    "--taint" => match parse_taint(&value) {
                        Ok(t) => entry.taints.push(t),
                        Err(e) => {
                            return fail(format!(
                                "error: --taint: {e}\n  hint: write key[=value]:Effect, e.g. `--taint dedicated=gpu:NoSchedule`"
                            ))
                        }
                    },
                    "--capacity" => {
                        for part in value.split(',') {
                            match part.split_once('=') {
                                Some((k, v)) if ["cpu", "memory", "pods"].contains(&k) => {
                                    entry.capacity.insert(
                                        k.into(),
                                        k8s_openapi::apimachinery::pkg::api::resource::Quantity(
                                            v.into(),
                                        ),
                                    );
                                }
                                _ => {
                                    return fail(format!(
                                    "error: --capacity {part:?}: write cpu=4,memory=8Gi,pods=110\n  hint: cpu, memory and pods, comma-separated without spaces"
                                ))
                                }
                            }
                        }
                    }
                    other => {
                        return fail(format!("error: unknown flag {other} for node add\n{usage}"))
                    }
                }
                i += 1;
            }
            c.add_node(entry.node(name))
                .map(|_| format!("node/{name} added"))
        }
        _ if !flags.is_empty() => return fail(usage),
        "remove" => c.remove_node(name).map(|_| format!("node/{name} removed")),
        "stop" => c
            .stop_node(name)
            .map(|_| format!("node/{name} kubelet stopped")),
        "start" => c
            .start_node(name)
            .map(|_| format!("node/{name} kubelet started")),
        _ => return fail(usage),
    };
    match r {
        Ok(m) => ok(format!("{m}\n")),
        // As kubectl prints an API error: the message, then our hint if the error has one.
        Err(e) => fail(match e.hint() {
            Some(h) => format!("{e}\n  hint: {h}\n"),
            None => format!("{e}\n"),
        }),
    }
}

/// The cluster after the whole script (`at: None`, as [`run`] leaves it) or `at` virtual seconds
/// after the start (played as the page plays it, [`crate::Playback`]: the lines due by then
/// have run, a wait may be half done). What `dsplay serve-api` serves.
pub fn session_at(scenario: &Scenario, at: Option<f64>) -> Result<Session, ScenarioError> {
    match at {
        None => Ok(run(scenario, false)?.session),
        Some(t) => {
            let mut play = crate::Playback::new(scenario.clone())?;
            play.advance_to(t, usize::MAX);
            Ok(play.session)
        }
    }
}

/// Runs the whole script. With `until_settled`, keeps simulating after the last line until
/// nothing but periodic housekeeping is pending (bounded by [`WAIT_LIMIT`]).
pub fn run(scenario: &Scenario, until_settled: bool) -> Result<Outcome, ScenarioError> {
    let mut session = start(scenario)?;
    let mut records = Vec::new();
    let mut failures = Vec::new();
    let mut passed = 0;
    for line in &scenario.script {
        let t = session.cluster.elapsed_seconds();
        match &line.step {
            Step::Run(cmd) => {
                let r = run_line(&mut session, cmd);
                records.push(Record {
                    t,
                    command: cmd.clone(),
                    output: r.output,
                    ok: r.ok,
                    line: line.line,
                });
            }
            Step::Expect { command, check } => {
                let r = run_line(&mut session, command);
                let observed = r.output.trim().to_string();
                let holds = check.holds(&r.output);
                if holds {
                    passed += 1;
                } else {
                    failures.push(Failure {
                        line: line.line,
                        column: line.column,
                        command: command.clone(),
                        expected: check.clone(),
                        observed: observed.clone(),
                    });
                }
                records.push(Record {
                    t,
                    command: command.clone(),
                    output: r.output,
                    ok: holds,
                    line: line.line,
                });
            }
        }
    }
    if until_settled {
        session.cluster.settle(WAIT_LIMIT);
    }
    Ok(Outcome {
        records,
        failures,
        passed,
        session,
    })
}
