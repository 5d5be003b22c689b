//! `ControllerExpectations` (R-EXP-1..4): how many creates/deletes a DaemonSet still waits to
//! observe before it may act again.

use k8s_openapi::jiff::Timestamp;
use std::collections::HashMap;

use crate::keys::EXPECTATIONS_TIMEOUT;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    pub add: i64,
    pub del: i64,
    pub timestamp: Timestamp,
}

/// Per-DS-key counters. Time only enters through the `now` arguments.
#[derive(Debug, Clone, Default)]
pub struct Expectations {
    records: HashMap<String, Record>,
}

impl Expectations {
    pub fn get(&self, key: &str) -> Option<Record> {
        self.records.get(key).copied()
    }

    /// R-EXP-1: no record, fulfilled (add ≤ 0 and del ≤ 0), or expired (older than 5 min).
    pub fn satisfied(&self, key: &str, now: Timestamp) -> bool {
        match self.records.get(key) {
            None => true,
            Some(r) => {
                (r.add <= 0 && r.del <= 0)
                    || crate::time::elapsed_more_than(now, r.timestamp, EXPECTATIONS_TIMEOUT)
            }
        }
    }

    /// R-SN-2: replace the record.
    pub fn set(&mut self, key: &str, add: i64, del: i64, now: Timestamp) {
        self.records.insert(
            key.to_string(),
            Record {
                add,
                del,
                timestamp: now,
            },
        );
    }

    /// Lower the counters (failed or skipped creates/deletes, R-SN-3/4).
    pub fn lower(&mut self, key: &str, add: i64, del: i64) {
        if let Some(r) = self.records.get_mut(key) {
            r.add -= add;
            r.del -= del;
        }
    }

    /// R-EXP-2: a pod add with a resolvable controllerRef was observed.
    pub fn creation_observed(&mut self, key: &str) {
        self.lower(key, 1, 0);
    }

    /// R-EXP-2: a pod delete (or update while terminating) was observed.
    pub fn deletion_observed(&mut self, key: &str) {
        self.lower(key, 0, 1);
    }

    /// R-EVT-3, R-SYNC-1: forget the DS.
    pub fn delete(&mut self, key: &str) {
        self.records.remove(key);
    }
}
