//! Upstream unit cases C-043 … C-053 (`daemon_controller_test.go`: failed pods, status,
//! expectations, errors), replayed by case id. See `shared/reference/upstream-unit-cases.md`.

mod support;
use support::*;

use controller::client::{ApiError, Client, EventType, Listers, ObjectPatch, RecordedEvent};
use controller::daemon_controller::{
    failed_pods_backoff_key, store_daemon_set_status, StatusCounts,
};
use controller::keys::reasons;
use controller::{DaemonSetsController, SyncError};
use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet};
use k8s_openapi::api::core::v1::{Node, Pod};
use k8s_openapi::jiff::SignedDuration;
use std::sync::Arc;

/// Runs `f` once per `[both]` strategy with a fresh DS named `name`.
fn for_both(name: &str, mut f: impl FnMut(DaemonSet)) {
    for strategy in both_strategies() {
        let mut ds = new_daemon_set(name);
        ds.spec.update_strategy = Some(strategy);
        f(ds);
    }
}

/// Whether `target` is somewhere in the error's chain (`errors.Is`).
fn chain_contains(e: &SyncError, target: &ApiError) -> bool {
    match e {
        SyncError::Api(a) => a == target,
        SyncError::Message(_) => false,
        SyncError::Context { source, .. } => chain_contains(source, target),
        SyncError::Aggregate(list) => list.iter().any(|e| chain_contains(e, target)),
    }
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn c_043_daemon_kill_failed_pods() {
    // (failed, normal, expected counts)
    let rows = [
        (0, 1, Counts(0, 0, 0)),
        (0, 0, Counts(1, 0, 0)),
        (1, 0, Counts(0, 1, 1)),
        (1, 3, Counts(0, 3, 1)),
    ];
    for (failed, normal, expect) in rows {
        for_both("foo", |ds| {
            let mut fake = Fake::new();
            let mut ctl = test_controller();
            fake.add_nodes(0, 1, None);
            fake.add_failed_pods("node-0", &l1(), &ds, failed);
            let failed_names: Vec<String> = fake
                .pods
                .iter()
                .map(|p| p.metadata.name.clone().unwrap())
                .collect();
            fake.add_pods("node-0", &l1(), &ds, normal);
            let mut normal_names: Vec<String> = fake
                .pods
                .iter()
                .map(|p| p.metadata.name.clone().unwrap())
                .filter(|n| !failed_names.contains(n))
                .collect();
            normal_names.sort();
            fake.add_ds(ds);
            let counts = fake.sync(&mut ctl, "foo", at(0));
            assert_eq!(counts, expect, "failed={failed} normal={normal}");
            // The failed pod and all normal pods but the oldest (first by name) go.
            let mut want = failed_names.clone();
            want.extend(normal_names.iter().skip(1).cloned());
            assert_eq!(sorted(fake.deleted.clone()), sorted(want));
            let ev = fake.controller_events();
            if failed > 0 {
                assert_eq!(ev[0].reason, reasons::FAILED_DAEMON_POD);
                assert_eq!(ev[0].type_, EventType::Warning);
            }
        });
    }
}

#[test]
fn c_044_daemon_kill_failed_pods_backoff() {
    for_both("foo", |ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        fake.add_nodes(0, 1, None);
        let mut pod = new_pod("node-0-00001", "node-0", &l1(), &ds);
        set_phase(&mut pod, "Failed");
        fake.add_pod(pod);
        let key = failed_pods_backoff_key(&ds, "node-0");
        assert_eq!(
            key,
            format!("{}/0/node-0", ds.metadata.uid.as_deref().unwrap())
        );
        fake.add_ds(ds);
        let t0 = at(0);

        // 1. The first sync deletes the failed pod and starts the backoff.
        assert_eq!(fake.sync(&mut ctl, "foo", t0), Counts(0, 1, 1));
        let initial = ctl.failed_pods_backoff.get(&key);
        assert!(initial > std::time::Duration::ZERO);
        assert_eq!(initial, std::time::Duration::from_millis(50));

        // 2. An immediate sync is held back by the backoff; the delay is not raised; the DS is
        //    requeued after the delay.
        assert_eq!(fake.sync(&mut ctl, "foo", t0), Counts(0, 0, 0));
        assert_eq!(ctl.failed_pods_backoff.get(&key), initial);
        let delay = SignedDuration::try_from(initial).unwrap();
        assert_eq!(ctl.queue.waiting_until("default/foo"), Some(t0 + delay));

        // 3. Just before the end of the delay still in backoff; at the end not any more.
        let before = t0 + delay - SignedDuration::from_nanos(1);
        assert!(ctl
            .failed_pods_backoff
            .is_in_backoff_since_update(&key, before));
        let end = before + SignedDuration::from_nanos(1);
        assert!(!ctl
            .failed_pods_backoff
            .is_in_backoff_since_update(&key, end));

        // 4. After the backoff the (still present) failed pod is deleted again.
        assert_eq!(fake.sync(&mut ctl, "foo", end), Counts(0, 1, 1));
    });
}

#[test]
fn c_045_pod_create_errors_stop_slow_start() {
    for_both("foo", |ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        fake.create_limit = Some(10);
        fake.add_nodes(0, 100, None);
        fake.add_ds(ds);
        let (counts, result) = fake.sync_result(&mut ctl, "foo", at(0));
        assert!(result.is_err());
        assert_eq!(fake.created.len(), 10);
        // ≤ 15 calls: batches 1+2+4+8 (R-SN-3 gives exactly 15).
        assert!(counts.0 <= 15);
        assert_eq!(counts.0, 15);
        assert_eq!((counts.1, counts.2), (0, 0));
        let st = fake.last_status().expect("status written");
        assert_eq!(st.desired_number_scheduled, 100);
        assert_eq!(st.current_number_scheduled, 10);
        assert_eq!(st.updated_number_scheduled, Some(10));
    });
}

#[test]
fn c_046_create_errors_leave_expectations_satisfied() {
    for_both("foo", |ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        fake.create_limit = Some(10);
        fake.add_nodes(0, 100, None);
        fake.add_ds(ds);
        fake.sync(&mut ctl, "foo", at(0));
        assert_eq!(fake.created.len(), 10);
        assert!(ctl.expectations.satisfied("default/foo", at(0)));
        let r = ctl.expectations.get("default/foo").expect("record");
        assert_eq!((r.add, r.del), (0, 0));
    });
}

#[test]
fn c_047_status_after_launching_pods_counts_them() {
    for_both("foo", |ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        fake.add_nodes(0, 5, None);
        fake.add_ds(ds);
        assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(5, 0, 0));
        assert_eq!(fake.status_updates.len(), 1);
        let st = fake.last_status().expect("status written");
        assert_eq!(st.desired_number_scheduled, 5);
        assert_eq!(st.current_number_scheduled, 5);
    });
}

#[test]
fn c_048_updates_status_error_rows() {
    let sync_err = ApiError::Other("sync error".into());
    let status_err = ApiError::Other("status error".into());
    // (row, pod create fails, status write fails, expected error)
    let rows = [
        ("sync error", true, false, &sync_err),
        ("status error", false, true, &status_err),
        ("sync and status error", true, true, &sync_err),
    ];
    for (row, has_sync_err, has_status_err, expected) in rows {
        for_both("foo", |ds| {
            let mut fake = Fake::new();
            let mut ctl = test_controller();
            if has_sync_err {
                fake.create_error = Some(sync_err.clone());
            }
            if has_status_err {
                fake.status_update_failures = usize::MAX;
            }
            fake.add_nodes(0, 1, None);
            fake.add_ds(ds);
            let (counts, result) = fake.sync_result(&mut ctl, "foo", at(0));
            assert_eq!(counts, Counts(1, 0, 0), "{row}");
            let err = result.expect_err(row);
            assert!(chain_contains(&err, expected), "{row}: {err}");
            if has_sync_err && has_status_err {
                assert!(!chain_contains(&err, &status_err), "{row}: {err}");
            }
        });
    }
}

#[test]
fn c_049_number_ready_status() {
    for_both("foo", |ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        fake.add_nodes(0, 2, Some(n1()));
        fake.add_pods("node-0", &l1(), &ds, 1);
        fake.add_pods("node-1", &l1(), &ds, 1);
        fake.add_ds(ds);
        assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(0, 0, 0));
        assert_eq!(fake.last_status().expect("status").number_ready, 0);
        fake.update_pods(|_, p| set_ready(p, true, None));
        assert_eq!(fake.sync(&mut ctl, "foo", at(0)), Counts(0, 0, 0));
        assert_eq!(fake.last_status().expect("status").number_ready, 2);
    });
}

#[test]
fn c_050_observed_generation() {
    for_both("foo", |mut ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        ds.metadata.generation = Some(1);
        fake.add_nodes(0, 1, Some(n1()));
        fake.add_pods("node-0", &l1(), &ds, 1);
        fake.add_ds(ds);
        fake.sync(&mut ctl, "foo", at(0));
        assert_eq!(
            fake.last_status().expect("status").observed_generation,
            Some(1)
        );
    });
}

/// (row, update failures, GET fails, updates, GETs, expected error) of C-051.
type StoreRow<'a> = (&'a str, usize, bool, usize, usize, Option<&'a ApiError>);

#[test]
fn c_051_store_daemon_set_status_rows() {
    let update_err = ApiError::Other("status error".into());
    let get_err = ApiError::Other("fake get error".into());
    let rows: [StoreRow; 4] = [
        ("succeed immediately", 0, false, 1, 0, None),
        ("succeed after one update failure", 1, false, 2, 1, None),
        (
            "fail after two update failures",
            2,
            false,
            2,
            1,
            Some(&update_err),
        ),
        (
            "fail after one update failure and one get failure",
            1,
            true,
            1,
            1,
            Some(&get_err),
        ),
    ];
    let s = StatusCounts {
        desired_number_scheduled: 2,
        current_number_scheduled: 2,
        number_misscheduled: 2,
        number_ready: 2,
        updated_number_scheduled: 2,
        number_available: 2,
        number_unavailable: 2,
    };
    for (row, update_failures, get_fails, updates, gets, expected) in rows {
        let mut fake = Fake::new();
        let ds = new_daemon_set("foo");
        fake.add_ds(ds.clone());
        fake.status_update_failures = update_failures;
        if get_fails {
            fake.get_error = Some(get_err.clone());
        }
        let result = store_daemon_set_status(&mut fake, &ds, &s, true);
        assert_eq!(fake.status_update_calls, updates, "{row}");
        assert_eq!(fake.get_calls, gets, "{row}");
        match expected {
            None => {
                assert_eq!(result, Ok(()), "{row}");
                let st = fake.last_status().expect("written");
                assert_eq!(st.desired_number_scheduled, 2, "{row}");
                assert_eq!(st.number_unavailable, Some(2), "{row}");
            }
            Some(e) => assert_eq!(result, Err(SyncError::Api(e.clone())), "{row}"),
        }
    }
}

/// The pod control of C-052: delegates to [`Fake`] but does not observe its own creations in
/// the controller's expectations (they would arrive later through the informer).
struct Unobserved(Fake);

impl Listers for Unobserved {
    fn daemon_set(&self, namespace: &str, name: &str) -> Option<Arc<DaemonSet>> {
        self.0.daemon_set(namespace, name)
    }
    fn daemon_sets(&self, namespace: &str) -> Vec<Arc<DaemonSet>> {
        self.0.daemon_sets(namespace)
    }
    fn all_daemon_sets(&self) -> Vec<Arc<DaemonSet>> {
        self.0.all_daemon_sets()
    }
    fn nodes(&self) -> Vec<Arc<Node>> {
        self.0.nodes()
    }
    fn node(&self, name: &str) -> Option<Arc<Node>> {
        self.0.node(name)
    }
    fn pods(&self, namespace: &str) -> Vec<Arc<Pod>> {
        self.0.pods(namespace)
    }
    fn pod(&self, namespace: &str, name: &str) -> Option<Arc<Pod>> {
        self.0.pod(namespace, name)
    }
    fn revisions(&self, namespace: &str) -> Vec<Arc<ControllerRevision>> {
        self.0.revisions(namespace)
    }
}

impl Client for Unobserved {
    fn get_daemon_set(&mut self, namespace: &str, name: &str) -> Result<DaemonSet, ApiError> {
        self.0.get_daemon_set(namespace, name)
    }
    fn update_daemon_set_status(&mut self, ds: &DaemonSet) -> Result<DaemonSet, ApiError> {
        self.0.update_daemon_set_status(ds)
    }
    fn create_pod(&mut self, namespace: &str, pod: Pod) -> Result<Pod, ApiError> {
        self.0.create_pod(namespace, pod)
    }
    fn delete_pod(&mut self, namespace: &str, name: &str) -> Result<(), ApiError> {
        self.0.delete_pod(namespace, name)
    }
    fn patch_pod(&mut self, ns: &str, name: &str, patch: &ObjectPatch) -> Result<(), ApiError> {
        self.0.patch_pod(ns, name, patch)
    }
    fn create_revision(
        &mut self,
        namespace: &str,
        revision: ControllerRevision,
    ) -> Result<ControllerRevision, ApiError> {
        self.0.create_revision(namespace, revision)
    }
    fn get_revision(
        &mut self,
        namespace: &str,
        name: &str,
    ) -> Result<ControllerRevision, ApiError> {
        self.0.get_revision(namespace, name)
    }
    fn update_revision(
        &mut self,
        revision: &ControllerRevision,
    ) -> Result<ControllerRevision, ApiError> {
        self.0.update_revision(revision)
    }
    fn patch_revision(
        &mut self,
        ns: &str,
        name: &str,
        patch: &ObjectPatch,
    ) -> Result<(), ApiError> {
        self.0.patch_revision(ns, name, patch)
    }
    fn delete_revision(&mut self, namespace: &str, name: &str) -> Result<(), ApiError> {
        self.0.delete_revision(namespace, name)
    }
    fn record_event(&mut self, event: RecordedEvent) {
        self.0.record_event(event)
    }
    fn observes_synchronously(&self) -> bool {
        false
    }
}

/// `processNextWorkItem` with fresh counters; returns the processed key and the counts.
fn process(ctl: &mut DaemonSetsController, c: &mut Unobserved) -> (String, Counts) {
    c.0.reset_counters();
    let (key, _result) = ctl.process_next_work_item(c, at(0)).expect("a ready key");
    let counts = Counts(
        c.0.create_calls,
        c.0.delete_calls,
        c.0.controller_events().len(),
    );
    (key, counts)
}

/// The informer delivering the controller's own status writes as DS updates (R-EVT-2).
fn deliver_status_writes(ctl: &mut DaemonSetsController, c: &mut Unobserved) {
    for written in std::mem::take(&mut c.0.status_updates) {
        let name = written.metadata.name.clone().unwrap();
        let old = c.0.ds(&name);
        c.0.add_ds(written.clone());
        ctl.on_daemon_set_update(&old, &written);
    }
}

#[test]
fn c_052_expectations_on_recreate() {
    let mut c = Unobserved(Fake::new());
    let mut ctl = test_controller();
    let key = "default/test";
    let node = new_node("master-0", None);
    c.0.add_node(node.clone());
    ctl.on_node_add(&c, &node);
    assert_eq!(ctl.queue.len(), 0, "queue is empty");

    // Create the DS: queued once; processing creates one pod that is not observed.
    let old_ds = new_daemon_set("test");
    c.0.add_ds(old_ds.clone());
    ctl.on_daemon_set_add(&old_ds);
    assert_eq!(ctl.queue.len(), 1, "created DS");
    assert_eq!(
        process(&mut ctl, &mut c),
        (key.to_string(), Counts(1, 0, 0))
    );
    let exp = ctl.expectations.get(key).expect("expectations exist");
    assert!(exp.add > 0 || exp.del > 0, "unfulfilled: {exp:?}");
    assert_eq!((exp.add, exp.del), (1, 0));

    // The controller's own status write comes back as a DS update: one more sync, which only
    // recomputes status (no create) and writes nothing, so nothing is queued again.
    deliver_status_writes(&mut ctl, &mut c);
    assert_eq!(ctl.queue.len(), 1, "updated DS");
    assert_eq!(
        process(&mut ctl, &mut c),
        (key.to_string(), Counts(0, 0, 0))
    );
    assert!(
        c.0.status_updates.is_empty(),
        "the status sync does not re-update the DS"
    );
    deliver_status_writes(&mut ctl, &mut c);
    assert_eq!(ctl.queue.len(), 0);

    // Delete the DS: queued, and its expectations are gone.
    c.0.daemon_sets.clear();
    ctl.on_daemon_set_delete(&old_ds);
    assert_eq!(ctl.queue.len(), 1, "deleted DS");
    assert!(ctl.expectations.get(key).is_none());
    // Skip the sync of the delete event so that only the new DS is synced below.
    assert_eq!(ctl.queue.pop(at(0)).as_deref(), Some(key));
    assert_eq!(ctl.queue.len(), 0);

    // Recreate with the same name and a new UID: one create, unfulfilled expectations again.
    let new_ds = new_daemon_set("test");
    assert_ne!(new_ds.metadata.uid, old_ds.metadata.uid);
    c.0.add_ds(new_ds.clone());
    ctl.on_daemon_set_add(&new_ds);
    assert_eq!(ctl.queue.len(), 1, "recreated DS");
    assert_eq!(
        process(&mut ctl, &mut c),
        (key.to_string(), Counts(1, 0, 0))
    );
    let exp = ctl.expectations.get(key).expect("expectations exist");
    assert!(exp.add > 0 || exp.del > 0, "unfulfilled: {exp:?}");
    assert_eq!((exp.add, exp.del), (1, 0));
}

#[test]
fn c_053_delete_final_state_unknown_enqueues_embedded_ds() {
    // A tombstone `{Key: "foo", Obj: ds}` reaches the handler as its embedded object (the
    // driver unwraps it); the queued key comes from the object, not from the tombstone key.
    for_both("foo", |ds| {
        let mut fake = Fake::new();
        let mut ctl = test_controller();
        fake.add_nodes(0, 1, None);
        ctl.on_daemon_set_delete(&ds);
        assert_eq!(ctl.queue.pop(at(0)).as_deref(), Some("default/foo"));
    });
}
