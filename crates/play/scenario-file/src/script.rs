//! What a script line means without running it: whether it reads or edits the cluster
//! ([`command_kind`]), and a `sleep`'s duration ([`parse_duration`], [`format_duration`]).
//! The file format validates lines with these; the playback runs them.

use std::time::Duration;

/// Whether a command only reads the cluster (run, never recorded) or changes it (an edit,
/// recorded into the script).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandKind {
    /// `kubectl get`, `describe`, `rollout status`, `rollout history`.
    ReadOnly,
    /// Everything else: other kubectl verbs, `node …`, `pod crash|fail …`.
    Edit,
}

/// Classifies a command line. Lines kubectl cannot parse count as edits, so that running one
/// reports kubectl's own error.
pub fn command_kind(command: &str) -> CommandKind {
    match kubectl::parse(command).map(|c| c.verb) {
        Ok(
            kubectl::Verb::Get
            | kubectl::Verb::Describe
            | kubectl::Verb::RolloutStatus
            | kubectl::Verb::RolloutHistory
            // Refused for DaemonSets: they change nothing.
            | kubectl::Verb::RolloutPause
            | kubectl::Verb::RolloutResume,
        ) => CommandKind::ReadOnly,
        _ => CommandKind::Edit,
    }
}

/// Parses `30s`, `1m30s`, `500ms`, `2.5s`, `1h`.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let bad = || format!("invalid duration {s:?}: write e.g. 30s, 1m30s, 500ms");
    if let Some(d) = exact_seconds(s.trim()) {
        return Ok(d);
    }
    let mut total = 0f64;
    let mut rest = s.trim();
    if rest.is_empty() {
        return Err(bad());
    }
    while !rest.is_empty() {
        let n_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or_else(bad)?;
        let n: f64 = rest[..n_end].parse().map_err(|_| bad())?;
        rest = &rest[n_end..];
        let (mult, len) = if rest.starts_with("ms") {
            (0.001, 2)
        } else if rest.starts_with('h') {
            (3600.0, 1)
        } else if rest.starts_with('m') {
            (60.0, 1)
        } else if rest.starts_with('s') {
            (1.0, 1)
        } else {
            return Err(bad());
        };
        total += n * mult;
        rest = &rest[len..];
    }
    if !total.is_finite() || total > 366.0 * 86400.0 {
        return Err(format!("duration {s:?} is too long (at most a year)"));
    }
    Ok(Duration::from_secs_f64(total))
}

/// `12s`, `12.345678901s`: read to the nanosecond without going through a float, so that a
/// sleep written by [`format_duration`] (user edits) replays exactly.
fn exact_seconds(s: &str) -> Option<Duration> {
    let number = s.strip_suffix('s')?;
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    let digits = |x: &str| x.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(frac) || frac.len() > 9 {
        return None;
    }
    if number.contains('.') && frac.is_empty() {
        return None;
    }
    let secs: u64 = whole.parse().ok()?;
    if secs > 366 * 86_400 {
        return None;
    }
    let nanos: u32 = format!("{frac:0<9}").parse().ok()?;
    Some(Duration::new(secs, nanos))
}

/// Writes a duration so that [`parse_duration`] reads it back to the nanosecond.
pub fn format_duration(d: Duration) -> String {
    let secs = d.as_secs();
    let nanos = d.subsec_nanos();
    if nanos == 0 {
        return format!("{secs}s");
    }
    let frac = format!("{nanos:09}");
    format!("{secs}.{}s", frac.trim_end_matches('0'))
}
