//! `cargo xtask test`: every check CI runs, in a fixed order, with a banner per step and a
//! summary with durations at the end.
//!
//! A failing step does not stop the later ones (one run shows every problem), except that the
//! end-to-end tests need the release build they test. The native benchmarks are compiled by
//! clippy but never run here.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::ensure::{self, Needs, WASM_TARGET};
use crate::static_server::StaticServer;
use crate::util::{banner, free_bytes, human, human_bytes, note, run, target_dir, Result};

/// About what a run from an empty `target/` writes (5.8 GB at its peak, measured in CI:
/// docs/performance.md);
/// below this much free space the run warns before it starts.
const CLEAN_RUN_BYTES: u64 = 6_000_000_000;
/// Below this, a failed step is blamed on the disk in the summary.
const NEARLY_FULL_BYTES: u64 = 1_000_000_000;

/// The crates that ship to the browser: linted for wasm32 too. Only their library targets for
/// the domain crates, whose native-only dev-dependencies (proptest, criterion) need not build
/// for wasm32.
const APP_CRATE: &str = "dsplay-app";
/// The clippy configuration that holds the page-weight rules, for the wasm32 lints only.
const WASM_RULES: &str = "crates/tools/xtask/wasm-rules";
const WASM_LIBS: &[&str] = &[
    "dsplay-controller",
    "dsplay-apiserver",
    "dsplay-codec",
    "dsplay-sort",
    "dsplay-k8s",
    "dsplay-cluster",
    "dsplay-kubectl",
    "dsplay-scenario-file",
    "dsplay-scenario",
    // The release page's LZMA decoder, a wasm module of its own (no_std there).
    "dsplay-unlzma",
];

pub struct Step {
    pub name: &'static str,
    what: &'static str,
    /// Skipped by `--quick`.
    slow: bool,
    /// Run only when asked for (`--fuzz`, or named by `--only`), never by default.
    opt_in: bool,
    needs: Needs,
}

const NONE: Needs = Needs {
    rust_lints: false,
    wasm_target: false,
    rust_src: false,
    trunk: false,
    wasm_bindgen: false,
    npm: false,
    browser: false,
    kubectl: false,
    fuzz: false,
};

/// What `trunk build --release` needs: wasm-opt (npm's binaryen) runs on release builds only.
pub const RELEASE_BUILD_NEEDS: Needs = Needs {
    wasm_target: true,
    rust_src: true,
    trunk: true,
    wasm_bindgen: true,
    npm: true,
    ..NONE
};

/// rustfmt and clippy.
const LINTS: Needs = Needs {
    rust_lints: true,
    ..NONE
};

/// wasm-bindgen-test or the speed harness: wasm run in headless Chromium.
const WASM_IN_BROWSER: Needs = Needs {
    wasm_target: true,
    wasm_bindgen: true,
    browser: true,
    ..NONE
};

/// Playwright on the built page.
const PAGE_IN_BROWSER: Needs = Needs {
    npm: true,
    browser: true,
    ..NONE
};

pub const STEPS: &[Step] = &[
    Step {
        name: "fmt",
        what: "formatting (cargo fmt --check)",
        slow: false,
        opt_in: false,
        needs: LINTS,
    },
    Step {
        name: "clippy",
        what: "lints, native, all targets",
        slow: false,
        opt_in: false,
        needs: LINTS,
    },
    Step {
        name: "clippy-wasm",
        what: "lints, wasm32",
        slow: false,
        opt_in: false,
        needs: Needs {
            rust_lints: true,
            wasm_target: true,
            ..NONE
        },
    },
    Step {
        name: "test",
        what: "native tests (unit, integration, doc; `dsplay test presets` and `dsplay test lessons` in the CLI's); the codec's field table is fresh",
        slow: false,
        opt_in: false,
        needs: NONE,
    },
    Step {
        name: "kubectl-parity",
        what: "the real kubectl 1.37 and ours on the same simulated clusters (dsplay serve-api)",
        slow: false,
        opt_in: false,
        needs: Needs {
            kubectl: true,
            ..NONE
        },
    },
    Step {
        name: "test-wasm",
        what: "browser tests (wasm-bindgen-test in headless Chromium)",
        slow: false,
        opt_in: false,
        needs: WASM_IN_BROWSER,
    },
    Step {
        name: "sim-speed",
        what: "the simulator's speed in the browser (optimised wasm, headless Chromium; prints figures)",
        slow: true,
        opt_in: false,
        needs: WASM_IN_BROWSER,
    },
    Step {
        name: "build",
        what: RELEASE_BUILD,
        slow: true,
        opt_in: false,
        needs: RELEASE_BUILD_NEEDS,
    },
    Step {
        name: "e2e",
        what: "end-to-end tests (node --test, Playwright + Chromium, on dist/)",
        slow: true,
        opt_in: false,
        needs: PAGE_IN_BROWSER,
    },
    Step {
        name: "soak",
        what: "the browser soak: 24 h of virtual time on 500 nodes with random actions, on dist/ (tests/e2e/soak; opt-in: --soak, ~30 min)",
        slow: true,
        opt_in: true,
        needs: PAGE_IN_BROWSER,
    },
    Step {
        name: "fuzz",
        what: "a smoke run of every fuzz target of fuzz/ over its committed corpus (cargo-fuzz, nightly; opt-in: --fuzz)",
        slow: false,
        opt_in: true,
        needs: Needs {
            fuzz: true,
            ..NONE
        },
    },
];

pub struct Options {
    pub quick: bool,
    /// Adds the opt-in `fuzz` step.
    pub fuzz: bool,
    /// Adds the opt-in `soak` step.
    pub soak: bool,
    /// Step names; empty means all.
    pub only: Vec<String>,
}

enum Outcome {
    Passed(Duration),
    Failed(Duration),
    Skipped(&'static str),
}

pub fn test(root: &Path, options: &Options) -> Result {
    let started = Instant::now();
    for name in &options.only {
        if !STEPS.iter().any(|s| s.name == name) {
            return Err(format!(
                "no step named {name:?}; the steps are: {}",
                step_names()
            ));
        }
    }
    let named = |step: &Step| options.only.iter().any(|n| n == step.name);
    let selected = |step: &Step| {
        let wanted = if step.opt_in {
            (options.fuzz && step.name == "fuzz")
                || (options.soak && step.name == "soak")
                || named(step)
        } else {
            options.only.is_empty() || named(step)
        };
        wanted && !(options.quick && step.slow)
    };
    if !STEPS.iter().any(selected) {
        return Err("nothing to run: --quick skips the steps that --only named".into());
    }
    let needs = STEPS
        .iter()
        .filter(|s| selected(s))
        .fold(NONE, |acc, s| union(acc, s.needs));

    let tools_started = Instant::now();
    if needs.any() {
        ensure::ensure(root, needs)?;
    }
    let tools_time = tools_started.elapsed();

    let target = target_dir(root);
    if let Some(free) = free_bytes(&target) {
        note(&format!(
            "disk: {} free where cargo builds ({})",
            human_bytes(free),
            target.display()
        ));
        if free < CLEAN_RUN_BYTES {
            note(&format!(
                "warning: a run from an empty target/ writes about {}; with less free space the \
                 steps may fail with \"No space left on device\"",
                human_bytes(CLEAN_RUN_BYTES)
            ));
        }
    }

    let total = STEPS.iter().filter(|s| selected(s)).count();
    let mut outcomes: Vec<(&Step, Outcome)> = Vec::new();
    let mut number = 0;
    for step in STEPS {
        if !selected(step) {
            let why = if options.quick && step.slow {
                "--quick"
            } else if step.opt_in && options.only.is_empty() {
                if step.name == "soak" {
                    "opt-in: --soak"
                } else {
                    "opt-in: --fuzz"
                }
            } else {
                "--only"
            };
            outcomes.push((step, Outcome::Skipped(why)));
            continue;
        }
        let build_failed = outcomes
            .iter()
            .any(|(s, o)| s.name == "build" && matches!(o, Outcome::Failed(_)));
        if step.name == "e2e" && build_failed {
            outcomes.push((step, Outcome::Skipped("the build failed")));
            continue;
        }
        number += 1;
        banner(&format!("[{number}/{total}] {}: {}", step.name, step.what));
        let step_started = Instant::now();
        let result = run_step(root, step.name);
        let took = step_started.elapsed();
        match result {
            Ok(()) => {
                note(&format!("{} passed in {}", step.name, human(took)));
                outcomes.push((step, Outcome::Passed(took)));
            }
            Err(e) => {
                println!("!!! {} FAILED after {}: {e}", step.name, human(took));
                outcomes.push((step, Outcome::Failed(took)));
            }
        }
    }

    banner("summary");
    note(&format!(
        "{:<6}{:<13}{:>12}",
        "ok",
        "tools",
        human(tools_time)
    ));
    for (step, outcome) in &outcomes {
        let line = match outcome {
            Outcome::Passed(d) => format!("{:<6}{:<13}{:>12}", "ok", step.name, human(*d)),
            Outcome::Failed(d) => format!("{:<6}{:<13}{:>12}", "FAIL", step.name, human(*d)),
            Outcome::Skipped(why) => format!("{:<6}{:<13}{:>12}  ({why})", "skip", step.name, "-"),
        };
        note(&line);
    }
    note(&format!("total wall time: {}", human(started.elapsed())));
    let failed: Vec<&str> = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Failed(_)))
        .map(|(s, _)| s.name)
        .collect();
    if let (false, Some(free)) = (failed.is_empty(), free_bytes(&target)) {
        if free < NEARLY_FULL_BYTES {
            note(&format!(
                "the disk holding {} is nearly full ({} free): steps fail with \"No space left \
                 on device\". Free some space (`cargo clean` empties target/) and run again.",
                target.display(),
                human_bytes(free)
            ));
        }
    }
    if failed.is_empty() {
        println!("\n{total}/{total} steps passed");
        Ok(())
    } else {
        Err(format!(
            "{} of {total} steps failed: {}",
            failed.len(),
            failed.join(", ")
        ))
    }
}

pub fn step_names() -> String {
    STEPS.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
}

fn union(a: Needs, b: Needs) -> Needs {
    Needs {
        rust_lints: a.rust_lints || b.rust_lints,
        wasm_target: a.wasm_target || b.wasm_target,
        rust_src: a.rust_src || b.rust_src,
        trunk: a.trunk || b.trunk,
        wasm_bindgen: a.wasm_bindgen || b.wasm_bindgen,
        npm: a.npm || b.npm,
        browser: a.browser || b.browser,
        kubectl: a.kubectl || b.kubectl,
        fuzz: a.fuzz || b.fuzz,
    }
}

fn cargo(args: &[&str]) -> Command {
    let mut cmd = Command::new("cargo");
    cmd.args(args);
    cmd
}

/// How long wasm-bindgen-test-runner waits for a test binary's tests to finish (its default is
/// 20 s for the whole binary). A watchdog for a hung page, not a speed bound: the debug build's
/// 5,000-node run takes 14–19 s alone, and a busy 2-core machine (CI) pushed the optimised
/// speed harness past 20 s. The speed harness prints its figures; nothing is judged by time.
const BROWSER_TEST_TIMEOUT: (&str, &str) = ("WASM_BINDGEN_TEST_TIMEOUT", "600");

/// What the names of the parity tests (`crates/front/cli/tests/kubectl_parity.rs`) start with.
const PARITY_TESTS: &str = "real_kubectl_";

fn run_step(root: &Path, name: &str) -> Result {
    const DENY: [&str; 3] = ["--", "-D", "warnings"];
    match name {
        "fmt" => run(&mut cargo(&["fmt", "--all", "--check"])),
        "clippy" => run(cargo(&["clippy", "--workspace", "--all-targets"]).args(DENY)),
        // With the page-weight rules (`crates/tools/xtask/wasm-rules/clippy.toml`): std's sorts,
        // Unicode case mapping and serde on Kubernetes types are refused where the page links.
        "clippy-wasm" => {
            let rules = root.join(WASM_RULES);
            run(cargo(&[
                "clippy",
                "--target",
                WASM_TARGET,
                "--all-targets",
                "-p",
                APP_CRATE,
            ])
            .env("CLIPPY_CONF_DIR", &rules)
            .args(DENY))?;
            let mut libs = cargo(&["clippy", "--target", WASM_TARGET, "--lib"]);
            libs.env("CLIPPY_CONF_DIR", &rules);
            for krate in WASM_LIBS {
                libs.args(["-p", krate]);
            }
            run(libs.args(DENY))
        }
        // The parity tests run in their own step, with the real kubectl they need.
        "test" => {
            crate::codec::codec(root, true)?;
            run(&mut cargo(&[
                "test",
                "--workspace",
                "--",
                "--skip",
                PARITY_TESTS,
            ]))
        }
        "kubectl-parity" => run(cargo(&[
            "test",
            "-p",
            "dsplay-cli",
            "--test",
            "kubectl_parity",
            "--",
            "--nocapture",
        ])
        .env("DSPLAY_REAL_KUBECTL", ensure::real_kubectl(root))
        .env("DSPLAY_REAL_KUBECTL_REQUIRED", "1")),
        "test-wasm" => {
            let scratch = BrowserScratch::new(root, name)?;
            run(cargo(&["test", "--target", WASM_TARGET, "-p", APP_CRATE])
                .env("TMPDIR", &scratch.0)
                .env(BROWSER_TEST_TIMEOUT.0, BROWSER_TEST_TIMEOUT.1))
        }
        // The timeline bench's 5,000-node workload, optimised as criterion's native figures
        // are (`--profile bench`), so the two compare wasm with native.
        "sim-speed" => {
            let scratch = BrowserScratch::new(root, name)?;
            run(cargo(&[
                "test",
                "--profile",
                "bench",
                "--target",
                WASM_TARGET,
                "-p",
                APP_CRATE,
                "--test",
                "sim_speed",
                "--",
                "--nocapture",
            ])
            .env("TMPDIR", &scratch.0)
            .env(BROWSER_TEST_TIMEOUT.0, BROWSER_TEST_TIMEOUT.1))
        }
        "build" => release_build(root).and_then(|()| match e2e_runs(PLANTED_PANIC_TEST) {
            true => planted_panic_build(root),
            false => Ok(()),
        }),
        "e2e" => e2e(root),
        "soak" => browser_tests(
            root,
            "soak",
            &[format!("{}/soak/soak.mjs", ensure::NPM_DIR)],
            Command::new("node"),
        ),
        "fuzz" => fuzz_smoke(root),
        other => Err(format!("internal: no step {other:?}")),
    }
}

/// The temporary folder (`TMPDIR`) of a step that starts Chromium, under `target/`, emptied
/// before the step and removed after it. chromedriver makes a ~150 MB profile folder per
/// session (`org.chromium.Chromium.scoped_dir.*`) and leaves it when wasm-bindgen-test-runner
/// stops it: in the shared `/tmp`, every run would leave a few hundred MB behind.
struct BrowserScratch(PathBuf);

impl BrowserScratch {
    fn new(root: &Path, step: &str) -> Result<Self> {
        let dir = target_dir(root).join("browser-tmp").join(step);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| {
            format!(
                "creating the browser's temporary folder {}: {e}",
                dir.display()
            )
        })?;
        Ok(BrowserScratch(dir))
    }
}

impl Drop for BrowserScratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What [`release_build`] does, in words, for the banners of `test`, `size` and `serve --release`.
pub const RELEASE_BUILD: &str =
    "release build (trunk build --release into dist/, the wasm packed as LZMA)";

/// The release build the e2e tests and `cargo xtask size` look at: trunk into [`dist_dir`],
/// then the wasm packed as LZMA with its decoder beside it (`pack`).
pub fn release_build(root: &Path) -> Result {
    run(crate::lean_std::configure(
        Command::new("trunk").args(["build", "--release"]),
    ))?;
    crate::pack::pack(root, &dist_dir(root))
}

/// Where trunk writes the site (`dist` in Trunk.toml).
pub fn dist_dir(root: &Path) -> PathBuf {
    root.join("dist")
}

/// The app's cargo feature that plants a panic (`crates/front/app/Cargo.toml`), and its e2e test.
const PLANTED_PANIC: &str = "planted-panic";
const PLANTED_PANIC_TEST: &str = "planted-panic.test.mjs";

/// Where the test page with a planted panic is built: under the target folder, never in
/// `dist/` (it must not ship, nor count in the page's weight).
fn planted_panic_dist(root: &Path) -> PathBuf {
    target_dir(root).join("dist-planted-panic")
}

/// The release build again with the app's `planted-panic` feature (a terminal command that
/// panics in the middle of an edit), for [`PLANTED_PANIC_TEST`]: the crash banner is tested on
/// the page as it ships (immediate-abort std, optimised, packed), with one command more. Only
/// the app crate and the link are redone.
fn planted_panic_build(root: &Path) -> Result {
    let dist = planted_panic_dist(root);
    run(crate::lean_std::configure(
        Command::new("trunk")
            .args(["build", "--release", "--features", PLANTED_PANIC, "--dist"])
            .arg(&dist),
    ))?;
    crate::pack::pack(root, &dist)
}

/// Whether the e2e step runs this test file (all of them unless `E2E_ONLY` names others).
fn e2e_runs(file: &str) -> bool {
    std::env::var("E2E_ONLY").map_or(true, |only| only.split(',').any(|f| f.trim() == file))
}

/// Serves `dist/` on a free loopback port and runs `node --test` on `tests/e2e/` against it, or
/// only on the files named in `E2E_ONLY` (comma-separated, e.g. `embed-api.test.mjs`): one
/// feature's tests without every browser test of the suite.
fn e2e(root: &Path) -> Result {
    // The test page with a planted panic, on a server of its own (its own origin: its saves
    // never meet the other tests').
    let planted = planted_panic_dist(root);
    let planted =
        match (
            e2e_runs(PLANTED_PANIC_TEST),
            planted.join("index.html").is_file(),
        ) {
            (false, _) => None,
            (true, true) => Some(StaticServer::start(planted).map_err(|e| {
                format!("starting the static server of the planted-panic page: {e}")
            })?),
            (true, false) => {
                return Err(format!(
                    "{}/index.html is missing: the build step makes it \
                 (`cargo xtask test --only build,e2e`)",
                    planted.display()
                ))
            }
        };
    let files: Vec<String> = match std::env::var("E2E_ONLY") {
        Ok(only) => only
            .split(',')
            .map(|f| format!("{}/{}", ensure::NPM_DIR, f.trim()))
            .collect(),
        Err(_) => vec![format!("{}/", ensure::NPM_DIR)],
    };
    let mut node = Command::new("node");
    if let Some(planted) = &planted {
        node.env("E2E_PLANTED_PANIC_URL", planted.url());
    }
    browser_tests(root, "e2e", &files, node)
}

/// Serves `dist/` on a free loopback port and runs `node --test` on `files` against it.
fn browser_tests(root: &Path, step: &str, files: &[String], mut node: Command) -> Result {
    let dist = dist_dir(root);
    if !dist.join("index.html").is_file() {
        return Err(format!(
            "dist/index.html is missing: the build step makes it \
             (`cargo xtask test --only build,{step}`)"
        ));
    }
    let scratch = BrowserScratch::new(root, step)?;
    let server =
        StaticServer::start(dist).map_err(|e| format!("starting the static server: {e}"))?;
    note(&format!("serving dist/ at {}", server.url()));
    run(node
        .arg("--test")
        .args(files)
        .env("E2E_BASE_URL", server.url())
        .env("CHROMIUM", ensure::CHROMIUM)
        .env("TMPDIR", &scratch.0))
}

/// How long the `fuzz` step fuzzes each target after replaying its corpus.
const FUZZ_SECONDS: u32 = 30;
/// libFuzzer's limits in the `fuzz` step: one input running this long is a hang (a crash), and
/// so is a process above this much memory.
const FUZZ_TIMEOUT_SECONDS: u32 = 10;
const FUZZ_RSS_MB: u32 = 2048;

/// The fuzz targets: the `[[bin]]` names of `fuzz/Cargo.toml`.
fn fuzz_targets(root: &Path) -> Result<Vec<String>> {
    let manifest = root.join("fuzz/Cargo.toml");
    let text = std::fs::read_to_string(&manifest)
        .map_err(|e| format!("reading {}: {e}", manifest.display()))?;
    let mut targets = Vec::new();
    let mut in_bin = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if let (true, Some(v)) = (in_bin, line.strip_prefix("name")) {
            let name = v
                .trim_start()
                .trim_start_matches('=')
                .trim()
                .trim_matches('"');
            targets.push(name.to_string());
        }
    }
    if targets.is_empty() {
        return Err(format!(
            "{} declares no [[bin]] fuzz target",
            manifest.display()
        ));
    }
    Ok(targets)
}

/// `cargo +nightly fuzz run` for every target, one at a time: the committed corpus
/// (`fuzz/corpus/<target>`, read only) replayed, then [`FUZZ_SECONDS`] of fuzzing. Any crash,
/// panic, hang or out-of-memory fails the step; libFuzzer prints the input and cargo-fuzz the
/// command that reproduces it. New inputs and crash artifacts go under the target folder, so
/// the run leaves the repository as it was.
fn fuzz_smoke(root: &Path) -> Result {
    let scratch = target_dir(root).join("fuzz-smoke");
    let mut failed = Vec::new();
    for t in fuzz_targets(root)? {
        let corpus = scratch.join("corpus").join(&t);
        let artifacts = scratch.join("artifacts").join(&t);
        let _ = std::fs::remove_dir_all(&corpus);
        for dir in [&corpus, &artifacts] {
            std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
        }
        banner(&format!("fuzz target {t}"));
        let mut cmd = Command::new("cargo");
        cmd.args([
            "+nightly",
            "fuzz",
            "run",
            "--sanitizer",
            "none",
            "--debug-assertions",
        ])
        .arg("--target-dir")
        .arg(target_dir(root).join("fuzz"))
        .arg(&t)
        .arg(&corpus)
        .arg(root.join("fuzz/corpus").join(&t))
        .arg("--")
        .arg(format!("-max_total_time={FUZZ_SECONDS}"))
        .arg(format!("-timeout={FUZZ_TIMEOUT_SECONDS}"))
        .arg(format!("-rss_limit_mb={FUZZ_RSS_MB}"))
        .arg("-print_final_stats=1")
        .arg(format!("-artifact_prefix={}/", artifacts.display()))
        // The toolchain `cargo xtask` itself runs on must not leak into the nightly build.
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("RUSTC")
        .current_dir(root);
        if let Err(e) = run(&mut cmd) {
            println!("!!! fuzz target {t}: {e}");
            failed.push(t);
        }
    }
    // What one scenario input costs uninstrumented (issue 27: none over 100 ms): printed, as
    // figures are, not asserted.
    banner("scenario corpus replayed uninstrumented (fuzz/examples/replay.rs)");
    let mut replay = Command::new("cargo");
    replay
        .args(["run", "--release", "--manifest-path", "fuzz/Cargo.toml"])
        .arg("--target-dir")
        .arg(target_dir(root).join("fuzz-replay"))
        .args(["--example", "replay", "--", "fuzz/corpus/scenario"])
        .current_dir(root);
    run(&mut replay)?;
    if !failed.is_empty() {
        return Err(format!(
            "fuzz target(s) {} crashed; the inputs are under {}",
            failed.join(", "),
            scratch.join("artifacts").display()
        ));
    }
    Ok(())
}
