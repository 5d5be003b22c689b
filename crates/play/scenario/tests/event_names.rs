//! Events are named as client-go's recorder names them, `<object>.<UnixNano in hex>`, so that
//! `kubectl get events` (sorted by name, as etcd lists) shows each object's events oldest
//! first, as on a real cluster.

mod common;

use k8s_openapi::api::core::v1::Event;
use std::collections::BTreeSet;

fn nanos_of(e: &Event) -> i128 {
    let name = e.metadata.name.as_deref().unwrap_or_default();
    let object = e.involved_object.name.as_deref().unwrap_or_default();
    let hex = name
        .strip_prefix(object)
        .and_then(|rest| rest.strip_prefix('.'))
        .unwrap_or_else(|| panic!("{name} is not `{object}.<hex>`"));
    assert!(
        hex.len() == 16
            && hex
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()),
        "{name}: not 16 lowercase hex digits"
    );
    i128::from_str_radix(hex, 16).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn events_are_named_by_their_time_and_listed_oldest_first() {
    for id in [
        "f4-rolling-update-max-unavailable-1",
        "failed-pod-backoff",
        "node-kubelet-stops",
    ] {
        let mut out = common::run_with_seed(&common::parse(id), 1);
        let events = out.session.cluster.events().to_vec();
        assert!(events.len() > 4, "{id}: {} events", events.len());
        let mut names = BTreeSet::new();
        for e in &events {
            let first = e
                .first_timestamp
                .as_ref()
                .expect("firstTimestamp")
                .0
                .as_nanosecond();
            let nanos = nanos_of(e);
            // The recorder's own instant, to the nanosecond (events of the same instant take
            // the next nanoseconds); firstTimestamp is that instant as the API server keeps
            // it, to the second.
            assert!(
                (first..first + 1_000_000_000 + 1_000_000).contains(&nanos),
                "{id}: {:?} at {first}",
                e.metadata.name
            );
            assert!(
                names.insert(e.metadata.name.clone()),
                "{id}: {:?} twice",
                e.metadata.name
            );
        }
        // `kubectl get events -o name` lists by name: per object, in the order they happened.
        let r = scenario::run_line(&mut out.session, "kubectl get events -o wide");
        assert!(r.ok, "{}", r.output);
        let mut last_seen: std::collections::BTreeMap<String, i128> = Default::default();
        for line in r.output.lines().skip(1) {
            let name = line.split_whitespace().last().expect("NAME column");
            let e = events
                .iter()
                .find(|e| e.metadata.name.as_deref() == Some(name))
                .expect("listed event exists");
            let object = e.involved_object.name.clone().unwrap_or_default();
            let first = e
                .first_timestamp
                .as_ref()
                .expect("firstTimestamp")
                .0
                .as_nanosecond();
            if let Some(prev) = last_seen.insert(object.clone(), first) {
                assert!(
                    prev <= first,
                    "{id}: {object}'s events out of order at {name}"
                );
            }
        }
        assert!(!last_seen.is_empty());
    }
}
