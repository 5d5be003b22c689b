//! The controller's work queue on virtual time (R-EVT-11): client-go's rate-limited delaying
//! queue, single-threaded. Keys are de-duplicated; `add_after` keeps the earliest ready time;
//! `add_rate_limited` uses max(per-key exponential 5 ms·2^n capped at 1000 s, token bucket
//! 10 qps / burst 100).

use k8s_openapi::jiff::Timestamp;
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::time::Duration;

const BASE_DELAY: Duration = Duration::from_millis(5);
const MAX_DELAY: Duration = Duration::from_secs(1000);
const BUCKET_QPS: f64 = 10.0;
const BUCKET_BURST: f64 = 100.0;

#[derive(Debug, Clone)]
pub struct WorkQueue {
    ready: VecDeque<String>,
    dirty: HashSet<String>,
    /// (ready time, sequence) → key; `waiting_at` indexes it by key.
    waiting: BTreeSet<(Timestamp, u64, String)>,
    waiting_at: HashMap<String, (Timestamp, u64)>,
    seq: u64,
    failures: HashMap<String, u32>,
    tokens: f64,
    tokens_at: Option<Timestamp>,
}

impl Default for WorkQueue {
    fn default() -> Self {
        WorkQueue {
            ready: VecDeque::new(),
            dirty: HashSet::new(),
            waiting: BTreeSet::new(),
            waiting_at: HashMap::new(),
            seq: 0,
            failures: HashMap::new(),
            tokens: BUCKET_BURST,
            tokens_at: None,
        }
    }
}

impl WorkQueue {
    /// `Add`: queue the key now unless it is already queued.
    pub fn add(&mut self, key: &str) {
        if self.dirty.insert(key.to_string()) {
            self.ready.push_back(key.to_string());
        }
    }

    /// `AddAfter`: queue the key once `now + delay` is reached (earliest wins).
    pub fn add_after(&mut self, key: &str, delay: Duration, now: Timestamp) {
        if delay.is_zero() {
            self.add(key);
            return;
        }
        let at = crate::time::add(now, delay);
        if let Some(&(existing, seq)) = self.waiting_at.get(key) {
            if existing <= at {
                return;
            }
            self.waiting.remove(&(existing, seq, key.to_string()));
        }
        self.seq += 1;
        self.waiting.insert((at, self.seq, key.to_string()));
        self.waiting_at.insert(key.to_string(), (at, self.seq));
    }

    /// `AddRateLimited`: re-queue after the rate limiter's delay.
    pub fn add_rate_limited(&mut self, key: &str, now: Timestamp) {
        let d = self.rate_limit_delay(key, now);
        self.add_after(key, d, now);
    }

    /// `Forget`: reset the key's failure count.
    pub fn forget(&mut self, key: &str) {
        self.failures.remove(key);
    }

    /// How many times the key failed in a row.
    pub fn num_requeues(&self, key: &str) -> u32 {
        self.failures.get(key).copied().unwrap_or(0)
    }

    fn rate_limit_delay(&mut self, key: &str, now: Timestamp) -> Duration {
        let n = self.failures.entry(key.to_string()).or_insert(0);
        let exp = BASE_DELAY
            .checked_mul(1u32.checked_shl(*n).unwrap_or(u32::MAX))
            .unwrap_or(MAX_DELAY)
            .min(MAX_DELAY);
        *n = n.saturating_add(1);
        // Token bucket: refill since last use, take one token, wait for any deficit.
        if let Some(last) = self.tokens_at {
            let elapsed = crate::time::since(now, last).as_secs_f64().max(0.0);
            self.tokens = (self.tokens + elapsed * BUCKET_QPS).min(BUCKET_BURST);
        }
        self.tokens_at = Some(now);
        self.tokens -= 1.0;
        let bucket = if self.tokens >= 0.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64(-self.tokens / BUCKET_QPS)
        };
        exp.max(bucket)
    }

    /// Moves every waiting key whose time has come into the ready queue.
    pub fn promote(&mut self, now: Timestamp) {
        while let Some(first) = self.waiting.first() {
            if first.0 > now {
                break;
            }
            let Some((_, _, key)) = self.waiting.pop_first() else {
                break;
            };
            self.waiting_at.remove(&key);
            self.add(&key);
        }
    }

    /// `Get`: the next ready key at `now`, if any.
    pub fn pop(&mut self, now: Timestamp) -> Option<String> {
        self.promote(now);
        let key = self.ready.pop_front()?;
        self.dirty.remove(&key);
        Some(key)
    }

    /// Number of keys ready now (`queue.Len()`); waiting keys are not counted.
    pub fn len(&self) -> usize {
        self.ready.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ready.is_empty()
    }

    /// The ready keys, in order (for tests and the UI).
    pub fn ready_keys(&self) -> impl Iterator<Item = &str> {
        self.ready.iter().map(String::as_str)
    }

    /// When the next waiting key becomes ready.
    pub fn next_wakeup(&self) -> Option<Timestamp> {
        self.waiting.first().map(|w| w.0)
    }

    /// The time a key is waiting for, if it is waiting.
    pub fn waiting_until(&self, key: &str) -> Option<Timestamp> {
        self.waiting_at.get(key).map(|w| w.0)
    }
}
