//! Time arithmetic on the timestamps the caller passes in. The controller never reads a clock.

use k8s_openapi::jiff::{SignedDuration, Timestamp};
use std::time::Duration;

/// `t + d`, saturating at the end of representable time.
pub fn add(t: Timestamp, d: Duration) -> Timestamp {
    SignedDuration::try_from(d)
        .ok()
        .and_then(|d| t.checked_add(d).ok())
        .unwrap_or(Timestamp::MAX)
}

/// `a - b` as a signed duration (negative when `a` is before `b`).
pub fn since(a: Timestamp, b: Timestamp) -> SignedDuration {
    a.duration_since(b)
}

/// Whether `a - b` is strictly longer than `d`.
pub fn elapsed_more_than(a: Timestamp, b: Timestamp, d: Duration) -> bool {
    match SignedDuration::try_from(d) {
        Ok(d) => since(a, b) > d,
        Err(_) => false,
    }
}

/// Whether `a - b` is strictly shorter than `d`.
pub fn elapsed_less_than(a: Timestamp, b: Timestamp, d: Duration) -> bool {
    match SignedDuration::try_from(d) {
        Ok(d) => since(a, b) < d,
        Err(_) => true,
    }
}
