//! `flowcontrol.Backoff` as used for failed daemon pods (R-MAN-4, R-K-5).

use k8s_openapi::jiff::Timestamp;
use std::collections::HashMap;
use std::time::Duration;

use crate::time::{elapsed_less_than, elapsed_more_than};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    delay: Duration,
    last_update: Timestamp,
}

/// Per-key exponential backoff without jitter; entries expire after 2 × max without update.
#[derive(Debug, Clone)]
pub struct Backoff {
    initial: Duration,
    max: Duration,
    entries: HashMap<String, Entry>,
}

impl Backoff {
    pub fn new(initial: Duration, max: Duration) -> Self {
        Backoff {
            initial,
            max,
            entries: HashMap::new(),
        }
    }

    fn expired(&self, e: &Entry, now: Timestamp) -> bool {
        elapsed_more_than(now, e.last_update, self.max * 2)
    }

    /// `IsInBackOffSinceUpdate`: the key was updated less than its delay ago (and not expired).
    pub fn is_in_backoff_since_update(&self, key: &str, now: Timestamp) -> bool {
        match self.entries.get(key) {
            None => false,
            Some(e) if self.expired(e, now) => false,
            Some(e) => elapsed_less_than(now, e.last_update, e.delay),
        }
    }

    /// `Get`: the current delay (zero when unknown).
    pub fn get(&self, key: &str) -> Duration {
        self.entries.get(key).map_or(Duration::ZERO, |e| e.delay)
    }

    /// `Next`: first time or after expiry → initial; else double, capped at max.
    pub fn next(&mut self, key: &str, now: Timestamp) {
        let fresh = match self.entries.get(key) {
            None => true,
            Some(e) => self.expired(e, now),
        };
        let delay = if fresh {
            self.initial
        } else {
            (self.get(key) * 2).min(self.max)
        };
        self.entries.insert(
            key.to_string(),
            Entry {
                delay,
                last_update: now,
            },
        );
    }

    /// `GC`: drop expired entries (upstream runs this every minute).
    pub fn gc(&mut self, now: Timestamp) {
        let max = self.max;
        self.entries
            .retain(|_, e| !elapsed_more_than(now, e.last_update, max * 2));
    }
}
