//! The discrete-event core: a queue of timed events on the virtual clock, ordered by
//! (time, sequence number), and the [`Sched`] handle the actors use to schedule their next
//! steps with seeded jitter. Owns time ordering; knows nothing of what the events mean.

use k8s_openapi::jiff::{SignedDuration, Timestamp};
use std::collections::BTreeMap;

use crate::rng::Rng;
use crate::timing::{sane, Timing};

/// A pod as the actors track it: a recreated pod with the same name is another pod.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct PodKey {
    pub ns: String,
    pub name: String,
    pub uid: String,
}

/// The kubelet's three probes, in the order it lets them run: startup first, then liveness and
/// readiness.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ProbeKind {
    Startup,
    Liveness,
    Readiness,
}

impl ProbeKind {
    pub fn index(self) -> usize {
        self as usize
    }

    /// As the kubelet names it in its events (`Liveness probe failed: …`).
    pub fn title(self) -> &'static str {
        match self {
            ProbeKind::Startup => "Startup",
            ProbeKind::Liveness => "Liveness",
            ProbeKind::Readiness => "Readiness",
        }
    }
}

/// Everything that can happen on the virtual clock.
#[derive(Debug, Clone)]
pub(crate) enum Ev {
    /// The next watch event reaches the controller's informer.
    InformerDeliver,
    /// The controller's worker picks the next ready key (stale when `gen` moved on).
    ControllerWorker {
        gen: u64,
    },
    SchedulerTry {
        key: PodKey,
    },
    KubeletObserve {
        key: PodKey,
    },
    ContainerStart {
        key: PodKey,
        epoch: u64,
    },
    /// One probe of container `idx`'s run `run`.
    Probe {
        key: PodKey,
        epoch: u64,
        idx: usize,
        kind: ProbeKind,
        run: u32,
    },
    /// Container `idx`'s process ends (by itself, or killed after a failed probe).
    ContainerExit {
        key: PodKey,
        epoch: u64,
        idx: usize,
        run: u32,
    },
    /// An image pull for container `idx` ends.
    ImagePulled {
        key: PodKey,
        epoch: u64,
        idx: usize,
    },
    /// The kubelet's pod worker syncs the pod again (after a container exited, or to retry
    /// what is in back-off); stale when `gen` moved on.
    PodResync {
        key: PodKey,
        epoch: u64,
        gen: u64,
    },
    PodTerminated {
        key: PodKey,
        epoch: u64,
    },
    /// The kubelet of a freshly registered node posts Ready.
    KubeletReady {
        node: String,
        epoch: u64,
    },
    NodeLifecycleSync {
        node: String,
    },
    NodeMonitorTick,
    /// `doNoExecuteTaintingPass` (stale unless the lifecycle controller still expects it `at`).
    NoExecuteTaintingPass {
        at: Timestamp,
    },
    TaintNode {
        node: String,
    },
    TaintPod {
        key: PodKey,
    },
    TaintEvict {
        key: PodKey,
        at: Timestamp,
    },
    PodGcTick,
    GcCollect {
        uid: String,
    },
}

impl Ev {
    /// Periodic loops that run forever; a cluster with only these pending is settled unless
    /// they have work to do.
    pub fn is_housekeeping(&self) -> bool {
        // A container's process running towards its exit is not work in flight: a cluster
        // whose containers run `sleep 1000000` is at rest.
        matches!(
            self,
            Ev::NodeMonitorTick | Ev::PodGcTick | Ev::ContainerExit { .. }
        )
    }
}

#[derive(Debug, Clone, Default)]
pub(crate) struct EventQueue {
    events: BTreeMap<(Timestamp, u64), Ev>,
    seq: u64,
}

impl EventQueue {
    pub fn push(&mut self, at: Timestamp, ev: Ev) {
        self.seq += 1;
        self.events.insert((at, self.seq), ev);
    }

    pub fn peek_time(&self) -> Option<Timestamp> {
        self.events.first_key_value().map(|((t, _), _)| *t)
    }

    pub fn pop(&mut self) -> Option<(Timestamp, Ev)> {
        self.events.pop_first().map(|((t, _), ev)| (t, ev))
    }

    pub fn iter(&self) -> impl Iterator<Item = (&Timestamp, &Ev)> {
        self.events.iter().map(|((t, _), ev)| (t, ev))
    }
}

/// `t + secs`, saturating.
pub(crate) fn plus(t: Timestamp, secs: f64) -> Timestamp {
    let d = SignedDuration::try_from_secs_f64(sane(secs)).unwrap_or(SignedDuration::ZERO);
    t.checked_add(d).unwrap_or(Timestamp::MAX)
}

/// A loop period: at least 0.1 s, so a zero period cannot stall the clock.
pub(crate) fn period(secs: f64) -> f64 {
    sane(secs).max(0.1)
}

/// `a − b` in seconds.
pub(crate) fn seconds_between(a: Timestamp, b: Timestamp) -> f64 {
    a.duration_since(b).as_secs_f64()
}

/// What an actor gets to schedule its next steps: the clock, the timing model, the seeded RNG
/// and the queue.
pub(crate) struct Sched<'a> {
    pub now: Timestamp,
    pub timing: &'a Timing,
    pub rng: &'a mut Rng,
    pub queue: &'a mut EventQueue,
}

impl Sched<'_> {
    /// `base × (1 + U(−jitter, +jitter))` seconds.
    pub fn jittered(&mut self, base: f64) -> f64 {
        let j = sane(self.timing.jitter).min(1.0);
        let u = self.rng.next_f64() * 2.0 - 1.0;
        sane(base) * (1.0 + j * u)
    }

    /// Schedule `ev` after `secs` (exact, no jitter).
    pub fn after(&mut self, secs: f64, ev: Ev) {
        let at = plus(self.now, secs);
        self.queue.push(at, ev);
    }

    pub fn at(&mut self, at: Timestamp, ev: Ev) {
        self.queue.push(at.max(self.now), ev);
    }

    /// Schedule `ev` after a jittered watch delay (+ `extra` jittered seconds).
    pub fn after_watch(&mut self, extra: f64, ev: Ev) {
        let d = self.jittered(self.timing.watch_delay) + self.jittered(extra);
        self.after(d, ev);
    }
}
