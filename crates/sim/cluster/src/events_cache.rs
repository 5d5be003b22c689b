//! client-go's `EventCorrelator` (`tools/record/events_cache.go`) on the virtual clock: what
//! a component's recorder does to an event before the API server sees it. In upstream order
//! (`EventCorrelate`): the aggregator may turn the 10th distinct message of a kind of event
//! into one combined event, the logger turns a repeat into a patch of the first occurrence's
//! count, and the spam filter drops what a (source, object) pair says beyond its token bucket.
//!
//! Every component has a correlator of its own upstream; their keys all start with the source
//! (component and host), so one set of caches keyed the same way holds the same state.
//! Knows nothing of the store: it says what to write, the store writes it.
//!
//! Not modelled: the caches' LRU bound (4,096 keys per process). A key drops out upstream only
//! after 4,096 others from the same component, and it matters only if it recurs after that.
//! And the scheduler records through `events.k8s.io/v1` upstream (`tools/events`: isomorphic
//! events become a series, no aggregation or spam filter); here it goes through this too.

use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::jiff::Timestamp;
use std::collections::BTreeMap;
use std::hash::Hasher;
use std::sync::Arc;

/// `defaultAggregateMaxEvents`: the distinct messages of one kind of event within the interval
/// at which the aggregator starts combining them.
pub(crate) const AGGREGATE_MAX_EVENTS: usize = 10;
/// `defaultAggregateIntervalInSeconds`, in nanoseconds: a kind of event quiet for longer starts
/// counting its messages afresh.
pub(crate) const AGGREGATE_INTERVAL_NANOS: i128 = 600 * 1_000_000_000;
/// `defaultSpamBurst`: the events a source may record about one object at once.
pub(crate) const SPAM_BURST: u32 = 25;
/// `defaultSpamQPS` (1/300) as the spam filter sees it: a Go `float32` widened to the rate
/// limiter's `float64`, so a token takes a hair under 300 s to come back.
pub(crate) const SPAM_QPS: f64 = (1.0f32 / 300.0f32) as f64;
/// `EventAggregatorByReasonMessageFunc`'s prefix.
pub(crate) const COMBINED_PREFIX: &str = "(combined from similar events): ";

/// The event a recorder made (`recorderImpl.makeEvent` with its source), before correlation.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Draft<'a> {
    pub involved: &'a ObjectReference,
    pub type_: &'a str,
    pub reason: &'a str,
    pub message: &'a str,
    /// `source.component`, also `reportingComponent`.
    pub component: &'a str,
    /// `source.host`, also `reportingInstance` ("" for controllers).
    pub host: &'a str,
}

fn text(s: &Option<String>) -> &str {
    s.as_deref().unwrap_or_default()
}

/// A hash of fields joined as upstream joins its keys: with no separator.
fn joined(fields: &[&str]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for f in fields {
        h.write(f.as_bytes());
    }
    h.finish()
}

impl Draft<'_> {
    /// `getEventKey`: everything, down to the field path and the message.
    pub(crate) fn event_key(&self) -> u64 {
        let io = self.involved;
        joined(&[
            self.component,
            self.host,
            text(&io.kind),
            text(&io.namespace),
            text(&io.name),
            text(&io.field_path),
            text(&io.uid),
            text(&io.api_version),
            self.type_,
            self.reason,
            self.message,
        ])
    }

    /// `EventAggregatorByReasonFunc`'s aggregate key: the event without its field path and
    /// message, with the reporting controller and instance (the source's component and host).
    fn aggregate_key(&self) -> u64 {
        let io = self.involved;
        joined(&[
            self.component,
            self.host,
            text(&io.kind),
            text(&io.namespace),
            text(&io.name),
            text(&io.uid),
            text(&io.api_version),
            self.type_,
            self.reason,
            self.component,
            self.host,
        ])
    }

    /// `EventAggregatorByReasonFunc`'s local key: the message.
    fn local_key(&self) -> u64 {
        joined(&[self.message])
    }

    /// `getSpamKey`: the source and the involved object (no field path).
    fn spam_key(&self) -> u64 {
        let io = self.involved;
        joined(&[
            self.component,
            self.host,
            text(&io.kind),
            text(&io.namespace),
            text(&io.name),
            text(&io.uid),
            text(&io.api_version),
        ])
    }
}

/// A map from 64-bit key hashes that clones in constant time: shards behind `Arc`, so a
/// timeline checkpoint copies 256 pointers and a write after it copies only its own shard.
#[derive(Debug, Clone)]
pub(crate) struct SharedMap<V> {
    shards: Vec<Arc<BTreeMap<u64, V>>>,
}

impl<V> Default for SharedMap<V> {
    fn default() -> Self {
        SharedMap { shards: Vec::new() }
    }
}

impl<V: Clone> SharedMap<V> {
    const SHARDS: usize = 256;

    fn shard(key: u64) -> usize {
        (key >> 56) as usize
    }

    pub(crate) fn get(&self, key: u64) -> Option<&V> {
        self.shards.get(Self::shard(key))?.get(&key)
    }

    fn shard_mut(&mut self, key: u64) -> &mut BTreeMap<u64, V> {
        if self.shards.is_empty() {
            self.shards = (0..Self::SHARDS).map(|_| Arc::default()).collect();
        }
        Arc::make_mut(&mut self.shards[Self::shard(key)])
    }

    pub(crate) fn get_mut(&mut self, key: u64) -> Option<&mut V> {
        // Only a key that is there copies its shard.
        self.get(key)?;
        self.shard_mut(key).get_mut(&key)
    }

    pub(crate) fn insert(&mut self, key: u64, value: V) -> Option<V> {
        self.shard_mut(key).insert(key, value)
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.shards.iter().map(|s| s.len()).sum()
    }
}

/// `aggregateRecord`: the distinct messages of one kind of event, and when it last happened.
#[derive(Debug, Clone)]
struct AggregateRecord {
    /// Hashes of the messages, in the order first seen (at most [`AGGREGATE_MAX_EVENTS`] - 1
    /// between calls).
    local_keys: Vec<u64>,
    last_nanos: i128,
}

/// `eventLog`: what the logger remembers of the event it recorded under a key.
#[derive(Debug, Clone)]
struct Observation {
    count: u32,
    first_timestamp: Timestamp,
    /// The UnixNano in the event's name, `<object>.<hex>`.
    name_nanos: i128,
    /// Where the store keeps the event, once it has one under this name.
    slot: Option<usize>,
}

/// A `golang.org/x/time/rate` limiter as client-go's token bucket uses it (`TryAccept` is
/// `AllowN(now, 1)`): it starts full.
#[derive(Debug, Clone)]
struct TokenBucket {
    tokens: f64,
    last_nanos: i128,
}

impl TokenBucket {
    fn full(now_nanos: i128) -> Self {
        TokenBucket {
            tokens: f64::from(SPAM_BURST),
            last_nanos: now_nanos,
        }
    }

    /// `Limiter.AllowN(now, 1)`: refill for the time since the last accepted event (capped at
    /// the burst), then take a token if that leaves no wait.
    fn try_accept(&mut self, now_nanos: i128) -> bool {
        let elapsed = (now_nanos - self.last_nanos).clamp(0, i128::from(i64::MAX)) as i64;
        // Go's `Duration.Seconds`, then `Limit.tokensFromDuration`.
        let seconds = (elapsed / 1_000_000_000) as f64 + (elapsed % 1_000_000_000) as f64 / 1e9;
        let tokens = (self.tokens + seconds * SPAM_QPS).min(f64::from(SPAM_BURST)) - 1.0;
        // `durationFromTokens`: a deficit so small it rounds to no wait is allowed.
        let wait = if tokens < 0.0 {
            (1e9 * (-tokens / SPAM_QPS)) as i64
        } else {
            0
        };
        if wait > 0 {
            return false;
        }
        self.tokens = tokens;
        self.last_nanos = now_nanos;
        true
    }
}

/// What to write for a recorded event, after correlation (`EventCorrelateResult`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Correlated {
    /// The logger's key for the written event: the event's own key, or the aggregate key.
    pub key: u64,
    /// The event's message: the recorder's, or the combined one.
    pub message: String,
    /// An aggregate event (`EventAggregate`'s copy): no reporting controller or instance.
    pub combined: bool,
    pub count: u32,
    pub first_timestamp: Timestamp,
    pub name_nanos: i128,
    /// The stored event to patch (`count > 1`), if the store has it; otherwise create one.
    pub slot: Option<usize>,
}

/// client-go's `EventCorrelator` with its default options (`NewEventCorrelator`).
#[derive(Debug, Clone, Default)]
pub(crate) struct EventCorrelator {
    /// `EventAggregator.cache`, by aggregate key.
    aggregates: SharedMap<AggregateRecord>,
    /// `eventLogger.cache`, by event key or aggregate key.
    observations: SharedMap<Observation>,
    /// `EventSourceObjectSpamFilter.cache`, by spam key.
    spam: SharedMap<TokenBucket>,
}

impl EventCorrelator {
    /// `EventCorrelate`: `None` when the spam filter drops the event. `new_name` gives the
    /// UnixNano for a new event's name; it is called only when the event will need one.
    pub(crate) fn correlate(
        &mut self,
        draft: &Draft<'_>,
        now: Timestamp,
        new_name: impl FnOnce() -> i128,
    ) -> Option<Correlated> {
        let (key, message, combined) = self.event_aggregate(draft, now);
        let observed = self.event_observe(key, message, combined, now, new_name);
        if self.filter(draft, now) {
            return None;
        }
        Some(observed)
    }

    /// `EventAggregator.EventAggregate`: the event's own key, or, once its kind has had
    /// [`AGGREGATE_MAX_EVENTS`] distinct messages with no gap over the interval, the aggregate
    /// key and the combined message.
    ///
    /// Upstream then drops an arbitrary message from the set (`PopAny` over a Go map, random);
    /// here the one seen first, so that runs repeat.
    fn event_aggregate(&mut self, draft: &Draft<'_>, now: Timestamp) -> (u64, String, bool) {
        let now_nanos = now.as_nanosecond();
        let aggregate_key = draft.aggregate_key();
        let local_key = draft.local_key();
        let fresh = AggregateRecord {
            local_keys: Vec::new(),
            last_nanos: now_nanos,
        };
        let mut record = match self.aggregates.get(aggregate_key) {
            Some(r) if now_nanos - r.last_nanos <= AGGREGATE_INTERVAL_NANOS => r.clone(),
            _ => fresh,
        };
        if !record.local_keys.contains(&local_key) {
            record.local_keys.push(local_key);
        }
        record.last_nanos = now_nanos;
        let aggregate = record.local_keys.len() >= AGGREGATE_MAX_EVENTS;
        if aggregate {
            record.local_keys.remove(0);
        }
        self.aggregates.insert(aggregate_key, record);
        if aggregate {
            let message = format!("{COMBINED_PREFIX}{}", draft.message);
            (aggregate_key, message, true)
        } else {
            (draft.event_key(), draft.message.to_string(), false)
        }
    }

    /// `eventLogger.eventObserve`: a key seen before continues its first occurrence (name,
    /// firstTimestamp, count + 1: a patch); a new one is a new event. Remembered either way,
    /// even if the spam filter then drops it.
    fn event_observe(
        &mut self,
        key: u64,
        message: String,
        combined: bool,
        now: Timestamp,
        new_name: impl FnOnce() -> i128,
    ) -> Correlated {
        let observation = match self.observations.get(key) {
            Some(o) if o.count > 0 => Observation {
                count: o.count.saturating_add(1),
                ..o.clone()
            },
            _ => Observation {
                count: 1,
                first_timestamp: now,
                name_nanos: new_name(),
                slot: None,
            },
        };
        let out = Correlated {
            key,
            message,
            combined,
            count: observation.count,
            first_timestamp: observation.first_timestamp,
            name_nanos: observation.name_nanos,
            slot: observation.slot,
        };
        self.observations.insert(key, observation);
        out
    }

    /// `EventSourceObjectSpamFilter.Filter`: true when the source has no token left for the
    /// object.
    fn filter(&mut self, draft: &Draft<'_>, now: Timestamp) -> bool {
        let now_nanos = now.as_nanosecond();
        let key = draft.spam_key();
        if let Some(bucket) = self.spam.get_mut(key) {
            return !bucket.try_accept(now_nanos);
        }
        let mut bucket = TokenBucket::full(now_nanos);
        let accepted = bucket.try_accept(now_nanos);
        self.spam.insert(key, bucket);
        !accepted
    }

    /// `recordEvent`'s `UpdateState` after a create: the logger now knows where the event is.
    /// (Upstream re-keys the server's copy by its own event key; for a combined event that is
    /// a key no recorded event has, so only the slot is new here.)
    pub(crate) fn created(&mut self, key: u64, slot: usize) {
        if let Some(o) = self.observations.get_mut(key) {
            o.slot = Some(slot);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::jiff::SignedDuration;

    fn pod(name: &str) -> ObjectReference {
        ObjectReference {
            kind: Some("Pod".into()),
            api_version: Some("v1".into()),
            namespace: Some("default".into()),
            name: Some(name.into()),
            uid: Some(format!("uid-{name}")),
            ..Default::default()
        }
    }

    fn draft<'a>(involved: &'a ObjectReference, reason: &'a str, message: &'a str) -> Draft<'a> {
        Draft {
            involved,
            type_: "Normal",
            reason,
            message,
            component: "daemonset-controller",
            host: "",
        }
    }

    fn t0() -> Timestamp {
        Timestamp::from_second(1_767_225_600).expect("2026-01-01")
    }

    fn at(nanos: i64) -> Timestamp {
        t0() + SignedDuration::from_nanos(nanos)
    }

    /// A correlator and the names it hands out, one nanosecond apart.
    struct Recorder {
        c: EventCorrelator,
        next: i128,
    }

    impl Recorder {
        fn new() -> Self {
            Recorder {
                c: EventCorrelator::default(),
                next: 0,
            }
        }

        fn record(&mut self, d: &Draft<'_>, now: Timestamp) -> Option<Correlated> {
            let next = &mut self.next;
            let out = self.c.correlate(d, now, || {
                *next += 1;
                *next
            });
            // The store creates what it has no slot for (as `Store::emit` does).
            if let Some(c) = out.as_ref().filter(|c| c.slot.is_none()) {
                self.c.created(c.key, c.name_nanos as usize);
            }
            out
        }
    }

    #[test]
    fn get_event_key_and_get_spam_key_take_upstreams_fields() {
        let p = pod("p");
        let mut a = draft(&p, "Pulled", "m");
        let base = (a.event_key(), a.spam_key(), a.aggregate_key());
        let mut with_field_path = p.clone();
        with_field_path.field_path = Some("spec.containers{app}".into());
        a.involved = &with_field_path;
        // The field path is in the event key only.
        assert_ne!(a.event_key(), base.0);
        assert_eq!((a.spam_key(), a.aggregate_key()), (base.1, base.2));
        // Type and reason are in the event and aggregate keys, not the spam key.
        let b = Draft {
            type_: "Warning",
            reason: "Failed",
            ..draft(&p, "Pulled", "m")
        };
        assert_ne!(b.event_key(), base.0);
        assert_ne!(b.aggregate_key(), base.2);
        assert_eq!(b.spam_key(), base.1);
        // The host (the kubelet's node) is in every key.
        let c = Draft {
            host: "worker2",
            ..draft(&p, "Pulled", "m")
        };
        assert_ne!((c.event_key(), c.spam_key()), (base.0, base.1));
    }

    #[test]
    fn event_aggregator_by_reason_func_groups_events_that_differ_only_in_message() {
        let p = pod("pod1");
        let e1 = draft(&p, "end-of-world", "it was fun");
        let e2 = draft(&p, "end-of-world", "it was awful");
        let e3 = draft(&p, "nevermind", "it was a bug");
        assert_eq!(e1.aggregate_key(), e2.aggregate_key());
        assert_ne!(e1.local_key(), e2.local_key());
        assert_ne!(e1.aggregate_key(), e3.aggregate_key());
    }

    #[test]
    fn event_correlate_creates_a_single_event_with_count_one() {
        let p = pod("my-pod");
        let mut r = Recorder::new();
        let c = r
            .record(&draft(&p, "first", "i am first"), t0())
            .expect("not filtered");
        assert_eq!(
            (c.count, c.combined, c.slot, c.message.as_str()),
            (1, false, None, "i am first")
        );
        assert_eq!(c.first_timestamp, t0());
    }

    #[test]
    fn event_observe_counts_the_same_event_even_past_the_aggregate_limit() {
        let p = pod("my-pod");
        let d = draft(&p, "duplicate", "me again");
        let mut r = Recorder::new();
        let first = r.record(&d, t0()).expect("recorded");
        let mut last = first.clone();
        for i in 1..=AGGREGATE_MAX_EVENTS as i64 {
            last = r.record(&d, at(i * 5_000_000_000)).expect("recorded");
        }
        // One message, so never aggregated: the first occurrence, patched to count 11.
        assert_eq!(last.count, AGGREGATE_MAX_EVENTS as u32 + 1);
        assert!(!last.combined);
        assert_eq!(
            (last.name_nanos, last.first_timestamp, last.key),
            (first.name_nanos, t0(), first.key)
        );
        assert_eq!(last.slot, Some(first.name_nanos as usize), "a patch");
    }

    /// Nine similar events at 5 s intervals, then the one whose message is the tenth.
    fn nine_similar(r: &mut Recorder, p: &ObjectReference) {
        for i in 0..AGGREGATE_MAX_EVENTS - 1 {
            let m = format!("similar message{i}");
            let c = r.record(&draft(p, "similar", &m), at(i as i64 * 5_000_000_000));
            assert!(c.is_some_and(|c| !c.combined && c.count == 1));
        }
    }

    #[test]
    fn event_aggregate_combines_the_tenth_distinct_message_within_ten_minutes() {
        let p = pod("my-pod");
        let mut r = Recorder::new();
        nine_similar(&mut r, &p);
        let c = r
            .record(&draft(&p, "similar", "similar message"), at(45_000_000_000))
            .expect("recorded");
        assert!(c.combined);
        assert_eq!(c.message, "(combined from similar events): similar message");
        assert_eq!((c.count, c.slot), (1, None), "a new event");
        assert_eq!(c.key, draft(&p, "similar", "").aggregate_key());
        // And each further similar message counts on it, its message the latest.
        let again = r
            .record(&draft(&p, "similar", "yet another"), at(50_000_000_000))
            .expect("recorded");
        assert!(again.combined);
        assert_eq!(again.message, "(combined from similar events): yet another");
        assert_eq!((again.count, again.name_nanos), (2, c.name_nanos));
        assert_eq!(again.first_timestamp, at(45_000_000_000));
    }

    #[test]
    fn event_aggregate_counts_the_aggregate_for_more_similar_events() {
        // Upstream's "similar-events-many-times-should-count-the-aggregate": ten similar
        // events (the tenth already combined), then an eleventh message.
        let p = pod("my-pod");
        let mut r = Recorder::new();
        nine_similar(&mut r, &p);
        let tenth = draft(&p, "similar", "similar message9");
        assert_eq!(
            r.record(&tenth, at(45_000_000_000)).map(|c| c.count),
            Some(1)
        );
        let d = draft(&p, "similar", "similar message");
        let c = r.record(&d, at(50_000_000_000)).expect("recorded");
        assert!(c.combined && c.count == 2);
    }

    #[test]
    fn event_aggregate_keeps_nine_messages_after_combining_and_drops_the_oldest() {
        let p = pod("my-pod");
        let mut r = Recorder::new();
        nine_similar(&mut r, &p);
        let tenth = draft(&p, "similar", "similar message");
        assert!(r
            .record(&tenth, at(45_000_000_000))
            .is_some_and(|c| c.combined));
        // The oldest message left the set: seen again, it is the tenth again.
        let oldest = draft(&p, "similar", "similar message0");
        assert!(r
            .record(&oldest, at(46_000_000_000))
            .is_some_and(|c| c.combined));
        // One still in the set is not: it counts on its own first occurrence.
        let kept = draft(&p, "similar", "similar message5");
        let c = r.record(&kept, at(47_000_000_000)).expect("recorded");
        assert!(!c.combined);
        assert_eq!(c.count, 2);
    }

    #[test]
    fn event_aggregate_starts_afresh_after_more_than_ten_minutes_quiet() {
        let p = pod("my-pod");
        let interval = AGGREGATE_INTERVAL_NANOS as i64;
        // Exactly ten minutes apart still counts as similar ("interval > maxInterval")...
        let mut r = Recorder::new();
        for i in 0..AGGREGATE_MAX_EVENTS as i64 {
            let m = format!("m{i}");
            let c = r.record(&draft(&p, "similar", &m), at(i * interval));
            assert_eq!(c.map(|c| c.combined), Some(i == 9), "{i}");
        }
        // ...a nanosecond more does not.
        let mut r = Recorder::new();
        for i in 0..AGGREGATE_MAX_EVENTS as i64 {
            let m = format!("m{i}");
            let c = r.record(&draft(&p, "similar", &m), at(i * (interval + 1)));
            assert_eq!(c.map(|c| c.combined), Some(false), "{i}");
        }
    }

    #[test]
    fn event_source_object_spam_filter_allows_a_burst_of_25_then_one_per_300_seconds() {
        let p = pod("my-pod");
        let mut r = Recorder::new();
        // Distinct reasons, so nothing aggregates: only the filter decides.
        let reasons: Vec<String> = (0..SPAM_BURST + 1).map(|i| format!("r{i}")).collect();
        for (i, reason) in reasons.iter().enumerate() {
            let c = r.record(&draft(&p, reason, "m"), t0());
            assert_eq!(c.is_some(), i < SPAM_BURST as usize, "event {i}");
        }
        // Another source, or another object, has a bucket of its own.
        let q = pod("other-pod");
        assert!(r.record(&draft(&q, "x", "m"), t0()).is_some());
        let kubelet = Draft {
            component: "kubelet",
            host: "worker",
            ..draft(&p, "x", "m")
        };
        assert!(r.record(&kubelet, t0()).is_some());
        // A token comes back after 1/qps: qps is float32(1/300), a hair over 1/300, so a hair
        // under 300 s (299.9999927 s, and a nanosecond's rounding of the wait).
        assert!(r
            .record(&draft(&p, "y", "m"), at(299_999_992_000))
            .is_none());
        assert!(r
            .record(&draft(&p, "z", "m"), at(299_999_993_000))
            .is_some());
        assert!(r
            .record(&draft(&p, "w", "m"), at(299_999_993_000))
            .is_none());
    }

    #[test]
    fn event_source_object_spam_filter_keys_by_object_not_field_path_or_reason() {
        let p = pod("my-pod");
        let mut r = Recorder::new();
        let containers: Vec<ObjectReference> = (0..SPAM_BURST)
            .map(|i| ObjectReference {
                field_path: Some(format!("spec.containers{{c{i}}}")),
                ..p.clone()
            })
            .collect();
        for c in &containers {
            assert!(r
                .record(&draft(c, "Created", "Container created"), t0())
                .is_some());
        }
        assert!(r.record(&draft(&p, "Killing", "bye"), t0()).is_none());
    }

    #[test]
    fn event_observe_remembers_a_dropped_event_so_its_next_write_has_the_later_count() {
        let p = pod("my-pod");
        let mut r = Recorder::new();
        let reasons: Vec<String> = (0..SPAM_BURST).map(|i| format!("r{i}")).collect();
        for reason in &reasons {
            assert!(r.record(&draft(&p, reason, "m"), t0()).is_some());
        }
        let d = draft(&p, "Repeated", "again");
        assert!(r.record(&d, at(1_000_000_000)).is_none());
        assert!(r.record(&d, at(2_000_000_000)).is_none());
        let c = r.record(&d, at(301_000_000_000)).expect("a token back");
        // Counted while dropped; never stored, so the store creates it under its first name.
        assert_eq!((c.count, c.slot), (3, None));
        assert_eq!(c.first_timestamp, at(1_000_000_000));
    }

    #[test]
    fn shared_map_clones_share_shards_until_written() {
        let mut a: SharedMap<u32> = SharedMap::default();
        for k in 0..1000u64 {
            a.insert(k.wrapping_mul(0x9e37_79b9_7f4a_7c15), 1);
        }
        let b = a.clone();
        a.insert(7, 2);
        let shared = a
            .shards
            .iter()
            .zip(&b.shards)
            .filter(|(x, y)| Arc::ptr_eq(x, y))
            .count();
        assert_eq!(shared, SharedMap::<u32>::SHARDS - 1);
        assert_eq!((a.get(7), b.get(7)), (Some(&2), None));
        assert_eq!((a.len(), b.len()), (1001, 1000));
    }
}
