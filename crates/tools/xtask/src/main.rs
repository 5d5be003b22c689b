//! Developer tasks, run as `cargo xtask <task>` (an alias in `.cargo/config.toml`):
//!
//! - `serve`: build the playground and serve it at <http://127.0.0.1:8080>, rebuilding on change
//!   (`--release`: what ships, packed and under the strict CSP, without rebuilding);
//! - `test`: every check CI runs (`.ci/run` is just `cargo xtask test`);
//! - `size`: build the release bundle and print its files' raw and gzipped sizes against the
//!   budget (`--check` fails when over it);
//! - `ensure`: only install or check the tools;
//! - `codec`: regenerate the Kubernetes field tables of the API server's codec from the
//!   k8s-openapi sources (`--check` fails when the committed tables differ).
//!
//! Both main tasks first install whatever is missing (wasm32 target, std's sources, trunk,
//! wasm-bindgen-cli, npm's wasm-opt and playwright-core, Debian's Chromium), so a fresh clone on
//! a fresh machine needs nothing but rustup, Node.js 20, npm and Python 3 with venv (the kubectl
//! parity step). Architecture Invariant: xtask uses `std`, three outside crates for the release
//! build's last steps (lzma-rust2 to pack the wasm; sha2 and base64 for the stylesheet's SRI
//! digest), and the std-only `httpd` of this workspace (its static server), and knows nothing
//! about the playground's code; it drives tools, and writes the one
//! generated file (`codec`) from k8s-openapi's sources.

mod codec;
mod css;
mod ensure;
mod js;
mod lean_std;
mod pack;
mod pipeline;
mod size;
mod static_server;
mod util;

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use ensure::Needs;
use util::{banner, human, run, Result};

/// Where `serve` serves (Trunk.toml's `[serve]` says the same for the dev build).
const SERVE_PORT: u16 = 8080;

const USAGE: &str = "\
usage:
  cargo xtask serve [--release]
      Build the playground and serve it at http://127.0.0.1:8080, rebuilding on every change.
      A dev build by default: the quickest first build and rebuilds of seconds.
      --release builds what ships, as CI tests it (optimized, wasm packed, strict CSP) and
      serves it without rebuilding.
  cargo xtask test [--quick] [--fuzz] [--soak] [--only STEP[,STEP...]]
      Run every check CI runs, in order, and print a summary with durations.
      --quick skips the optimised builds and what runs on them: the simulator-speed harness,
      the release build and the end-to-end tests.
      --fuzz adds the opt-in `fuzz` step (not in CI): every target of fuzz/ replays its
      committed corpus and fuzzes for 30 s (cargo-fuzz, nightly; `--only fuzz` runs just it).
      --soak adds the opt-in `soak` step (not in CI, ~30 min): 24 h of virtual time on 500
      nodes with random actions in the release page, printing memory and frame times
      (SOAK_HOURS, SOAK_SEED vary it; `--only soak` runs just it on an existing dist/).
      --only runs just the named steps. E2E_ONLY=a.test.mjs[,b.test.mjs] runs only those
      files of tests/e2e in the e2e step.
  cargo xtask size [--check]
      Build the release bundle (as `test` does) and print every file the page loads, raw and
      gzipped, with the gzipped total against the budget of 660 KB.
      --check fails when the total is over the budget.
  cargo xtask ensure [--browser]
      Only install or check the tools (--browser: Chromium and chromedriver too).
  cargo xtask codec [--check]
      Regenerate crates/base/codec/src/types.rs from the k8s-openapi sources.
      --check fails when the committed file differs.

Steps of `test`: ";

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("\nerror: {message}");
            ExitCode::FAILURE
        }
    }
}

fn dispatch(args: &[String]) -> Result {
    let root = repo_root();
    env::set_current_dir(&root).map_err(|e| format!("cd {}: {e}", root.display()))?;
    ensure::prepare_env(&root);
    let (task, flags) = match args.split_first() {
        Some((task, flags)) => (task.as_str(), flags),
        None => ("help", &[][..]),
    };
    match task {
        "serve" => {
            let release = optional_flag(flags, "--release")?;
            serve(&root, release)
        }
        "test" => {
            let options = parse_test_flags(flags)?;
            pipeline::test(&root, &options)
        }
        "size" => {
            let check = optional_flag(flags, "--check")?;
            size::size(&root, check)
        }
        "ensure" => {
            let browser = optional_flag(flags, "--browser")?;
            let started = Instant::now();
            ensure::ensure(
                &root,
                Needs {
                    rust_lints: true,
                    wasm_target: true,
                    rust_src: true,
                    trunk: true,
                    wasm_bindgen: true,
                    npm: true,
                    browser,
                    kubectl: true,
                    fuzz: false,
                },
            )?;
            println!("\ntools ready in {}", human(started.elapsed()));
            Ok(())
        }
        "codec" => {
            let check = optional_flag(flags, "--check")?;
            codec::codec(&root, check)
        }
        "help" | "-h" | "--help" => {
            println!("{USAGE}{}", pipeline::step_names());
            Ok(())
        }
        other => Err(format!(
            "unknown task {other:?}\n\n{USAGE}{}",
            pipeline::step_names()
        )),
    }
}

/// `false` without flags, `true` with exactly `name`; anything else is a usage error.
fn optional_flag(flags: &[String], name: &str) -> Result<bool> {
    match flags {
        [] => Ok(false),
        [flag] if flag == name => Ok(true),
        _ => usage_error(flags).map(|()| false),
    }
}

fn usage_error(flags: &[String]) -> Result {
    Err(format!(
        "unexpected arguments {flags:?}\n\n{USAGE}{}",
        pipeline::step_names()
    ))
}

fn parse_test_flags(flags: &[String]) -> Result<pipeline::Options> {
    let mut options = pipeline::Options {
        quick: false,
        fuzz: false,
        soak: false,
        only: Vec::new(),
    };
    let mut rest = flags.iter();
    while let Some(flag) = rest.next() {
        let only = match flag.as_str() {
            "--quick" => {
                options.quick = true;
                continue;
            }
            "--fuzz" => {
                options.fuzz = true;
                continue;
            }
            "--soak" => {
                options.soak = true;
                continue;
            }
            "--only" => rest
                .next()
                .ok_or_else(|| format!("--only needs a step name: {}", pipeline::step_names()))?
                .as_str(),
            other => match other.strip_prefix("--only=") {
                Some(list) => list,
                None => return usage_error(flags).map(|()| options),
            },
        };
        options.only.extend(
            only.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from),
        );
    }
    Ok(options)
}

fn serve(root: &Path, release: bool) -> Result {
    let started = Instant::now();
    ensure::ensure(
        root,
        Needs {
            wasm_target: true,
            // The release page compiles std for size (lean_std).
            rust_src: release,
            trunk: true,
            wasm_bindgen: true,
            // wasm-opt runs on release builds only.
            npm: release,
            ..Needs::default()
        },
    )?;
    if release {
        return serve_release(root);
    }
    banner(&format!(
        "serving the playground (dev build) at http://127.0.0.1:{SERVE_PORT} once trunk's first build \
         is done (a few minutes from a clean target/, seconds after that); tools took {}. \
         Ctrl-C stops.",
        human(started.elapsed())
    ));
    run(Command::new("trunk").arg("serve"))
}

/// What ships, as CI tests it: the release build with its wasm packed (`pack`), served from
/// `dist/` by the e2e tests' server, strict CSP included. No rebuild on change.
fn serve_release(root: &Path) -> Result {
    banner(pipeline::RELEASE_BUILD);
    pipeline::release_build(root)?;
    let server = static_server::StaticServer::start_on(pipeline::dist_dir(root), SERVE_PORT)
        .map_err(|e| format!("serving dist/ on 127.0.0.1:{SERVE_PORT}: {e} (is `cargo xtask serve` running already?)"))?;
    banner(&format!(
        "serving the release build at {} (what CI tests; run again after a change). Ctrl-C stops.",
        server.url()
    ));
    loop {
        std::thread::park();
    }
}

/// The workspace root: three levels above this crate's manifest (`crates/tools/xtask`).
fn repo_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir
        .ancestors()
        .nth(3)
        .unwrap_or(manifest_dir)
        .to_path_buf()
}
