//! The release page's standard library, compiled from source with the page, for size.
//!
//! rustup ships std for wasm32 prebuilt, optimised for speed, with the machinery that formats a
//! panic's message and location. The page never shows either: it builds with `panic = "abort"`
//! and installs no panic hook, and on wasm32-unknown-unknown std's default hook writes to a
//! stderr that does not exist, so a panic reaches the console only as wasm's `unreachable`
//! trap. Compiling std with the page (cargo's `build-std`, core's `optimize_for_size`, and
//! `-Cpanic=immediate-abort`, which makes a panic that trap at once) drops that dead weight and
//! lets LTO and `opt-level = "z"` reach into std. Measured when this was introduced (stop 19):
//! the page's wasm 744.1 → 701.6 KB gzipped, everything the page loads 764.4 → 718.8 KB (the
//! perf harness); `optimize_for_size`'s share 7 KB; `-Zlocation-detail=none` instead of
//! immediate-abort, keeping the messages nobody sees, 712.4 KB. Stepping back at 5,000 nodes,
//! pure simulation, took the same time (217–281 ms against 210–269 ms, ten runs each, alternated).
//!
//! These are unstable cargo and rustc switches. We turn them on for this one build with
//! `RUSTC_BOOTSTRAP=1` on the machine's stable compiler (1.95.0, TOOLCHAIN.md), where they were
//! tried; every other build (tests, lints, the browser tests, `serve` without `--release`) uses
//! the prebuilt std. The e2e tests run against exactly this build.
//!
//! std's sources come from rustup (`rust-src`). Where they cannot be installed, the page is built
//! with the prebuilt std, after a warning that says how much larger it is: a size optimisation
//! must not make the build fail.

use std::path::PathBuf;
use std::process::Command;

use crate::util::{banner, capture, note, run};

/// The rustup component that holds std's sources.
const COMPONENT: &str = "rust-src";

/// The flags added to the wasm32 build's own (`.cargo/config.toml`'s `--cfg erase_components`
/// stays: cargo appends a `CARGO_TARGET_<triple>_RUSTFLAGS` value to the config's list).
/// `-inline-threshold=0` leaves LLVM to inline only what is cheaper inlined than called: the
/// page's wasm 637.3 → 632.9 KB packed (measured this round, when the keyboard, try-this and
/// validation work took the page over its 660 KB budget); the speed it costs is in
/// docs/performance.md.
const RUSTFLAGS: &str =
    "-Zunstable-options -Cpanic=immediate-abort -Cllvm-args=-inline-threshold=0";

/// What the fallback costs, as both warnings say it (measured: 718.8 against 764.4 KB).
const FALLBACK_COST: &str = "the page is built with the prebuilt std, about 45 KB larger gzipped";

/// std's `Cargo.toml` under the active toolchain's sysroot, where `build-std` reads it.
fn std_manifest() -> Option<PathBuf> {
    let sysroot = capture("rustc", &["--print", "sysroot"])?;
    Some(PathBuf::from(sysroot).join("lib/rustlib/src/rust/library/std/Cargo.toml"))
}

fn sources_present() -> bool {
    std_manifest().is_some_and(|p| p.is_file())
}

/// Installs std's sources if they are missing. Never fails: without them the release build
/// falls back to the prebuilt std (see [`configure`]).
pub fn ensure_sources() {
    if sources_present() {
        note(&format!(
            "ok  {COMPONENT} (std's sources, for the release page)"
        ));
        return;
    }
    banner(&format!(
        "installing {COMPONENT}, std's sources: the release page compiles std for size \
         (rustup component add, ~20 s)"
    ));
    if let Err(e) = run(Command::new("rustup").args(["component", "add", COMPONENT])) {
        note(&format!(
            "warning: {e}; until it is installed, {FALLBACK_COST}"
        ));
    }
}

/// Sets up `cmd` (a `trunk build --release` or `trunk serve --release`) to compile std for size,
/// or warns why it cannot.
pub fn configure(cmd: &mut Command) -> &mut Command {
    if !sources_present() {
        note(&format!(
            "warning: {COMPONENT} is not installed (`rustup component add {COMPONENT}`): \
             {FALLBACK_COST}"
        ));
        return cmd;
    }
    note("std is compiled with the page, for size (build-std, panic=immediate-abort)");
    cmd.env("RUSTC_BOOTSTRAP", "1")
        .env("CARGO_UNSTABLE_BUILD_STD", "std,panic_abort")
        .env("CARGO_UNSTABLE_BUILD_STD_FEATURES", "optimize_for_size")
        .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS", RUSTFLAGS)
}
