//! Small helpers shared by the tasks: running commands loudly, reading versions, timing.
//!
//! Nothing here knows about a particular tool; `ensure` and `test` decide what to run.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Every task error is a sentence for a person: what failed and what to do about it.
pub type Result<T = ()> = std::result::Result<T, String>;

/// Prints a section heading, so a long log can be scanned by eye.
pub fn banner(message: &str) {
    println!("\n==> {message}");
    flush();
}

/// Prints an indented detail line under a banner.
pub fn note(message: &str) {
    println!("    {message}");
    flush();
}

fn flush() {
    // Keep our lines in order with the output of the children we spawn.
    let _ = std::io::stdout().flush();
}

/// The command as a person would type it, for logs and error messages.
pub fn display(cmd: &Command) -> String {
    let mut line = cmd.get_program().to_string_lossy().into_owned();
    for arg in cmd.get_args() {
        let arg = arg.to_string_lossy();
        if arg.is_empty() || arg.contains(char::is_whitespace) {
            line.push_str(&format!(" '{arg}'"));
        } else {
            line.push(' ');
            line.push_str(&arg);
        }
    }
    line
}

/// Runs a command with inherited stdio; a non-zero exit is an error naming the command.
pub fn run(cmd: &mut Command) -> Result {
    let line = display(cmd);
    println!("    $ {line}");
    flush();
    let status = cmd
        .status()
        .map_err(|e| format!("could not start `{line}`: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{line}` failed ({status})"))
    }
}

/// Runs a command quietly and returns its trimmed stdout and stderr together, or `None` when the
/// program is missing or exits non-zero. Used to ask tools for their version.
pub fn capture(program: &str, args: &[&str]) -> Option<String> {
    let output = succeeded(Command::new(program).args(args))?;
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    Some(text.trim().to_string())
}

/// The output of a command run with no input, if it ran and exited with status 0.
fn succeeded(command: &mut Command) -> Option<std::process::Output> {
    let output = command.stdin(Stdio::null()).output().ok()?;
    output.status.success().then_some(output)
}

/// `12.3 s` or `4 min 05 s`.
pub fn human(duration: Duration) -> String {
    let secs = duration.as_secs_f64();
    if secs < 60.0 {
        format!("{secs:.1} s")
    } else {
        let whole = duration.as_secs();
        format!("{} min {:02} s", whole / 60, whole % 60)
    }
}

/// Where cargo builds: `$CARGO_TARGET_DIR`, or `target/` in the workspace.
pub fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => root.join(dir),
        _ => root.join("target"),
    }
}

/// Free bytes on the file system holding `path` (or its nearest existing ancestor), as `df`
/// reports them to an unprivileged user; `None` when `df` is missing or says something else.
pub fn free_bytes(path: &Path) -> Option<u64> {
    let existing = path.ancestors().find(|p| p.exists())?;
    let out = succeeded(Command::new("df").arg("-Pk").arg(existing))?;
    parse_df_available(&String::from_utf8_lossy(&out.stdout))
}

/// The `Available` column (KiB) of `df -Pk`'s one data line, in bytes.
fn parse_df_available(text: &str) -> Option<u64> {
    let line = text.lines().nth(1)?;
    let kib: u64 = line.split_whitespace().nth(3)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// `812 MB` or `43.1 GB` (powers of 1,000, as `df -H` prints).
pub fn human_bytes(bytes: u64) -> String {
    const GB: f64 = 1e9;
    let b = bytes as f64;
    if b >= GB {
        format!("{:.1} GB", b / GB)
    } else {
        format!("{:.0} MB", b / 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_durations_switch_to_minutes_at_one_minute() {
        assert_eq!(human(Duration::from_millis(12_340)), "12.3 s");
        assert_eq!(human(Duration::from_secs(245)), "4 min 05 s");
    }

    #[test]
    fn df_available_column_is_read_in_bytes() {
        let text = "Filesystem     1024-blocks     Used Available Capacity Mounted on\n\
                    /dev/vda         263174212 93990000  1843128      99% /\n";
        assert_eq!(parse_df_available(text), Some(1_843_128 * 1024));
        assert_eq!(parse_df_available("Filesystem\n"), None);
        assert_eq!(
            parse_df_available("header\n/dev/vda 1 2 lots 99% /\n"),
            None
        );
    }

    #[test]
    fn byte_sizes_switch_to_gigabytes_at_one_gigabyte() {
        assert_eq!(human_bytes(812_400_000), "812 MB");
        assert_eq!(human_bytes(43_140_000_000), "43.1 GB");
    }

    #[test]
    fn display_quotes_arguments_with_spaces() {
        let mut cmd = Command::new("cargo");
        cmd.args(["clippy", "--", "-D warnings"]);
        assert_eq!(display(&cmd), "cargo clippy -- '-D warnings'");
    }
}
