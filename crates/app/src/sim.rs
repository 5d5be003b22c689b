//! The simulation as the views see it: one object the page owns, wrapping the scenario's
//! playback. Every method is a thin call into the `scenario` crate; the app decides nothing.

use scenario::view::{cluster_view, ClusterView};
use scenario::Playback;

/// Most simulation events processed in one animation tick (keeps a frame short on big clusters).
pub const MAX_EVENTS_PER_TICK: usize = 20_000;

/// What a command typed in the terminal (or made by an edit) printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub command: String,
    pub text: String,
    pub ok: bool,
}

/// The running scenario plus what the transport needs.
#[derive(Clone)]
pub struct Sim {
    pub playback: Playback,
    initial: Playback,
    /// Counter samples of the first DaemonSet: (t, [desired, current, ready, up-to-date,
    /// available, unavailable]).
    samples: Vec<(f64, [i32; 6])>,
    /// Times of the changes stepped over, for stepping back.
    steps: Vec<f64>,
    horizon: f64,
}

impl Sim {
    pub fn load(file: &str, text: &str) -> Result<Sim, String> {
        let s = scenario::parse(file, text).map_err(|e| e.to_string())?;
        let playback = Playback::new(s).map_err(|e| e.to_string())?;
        Ok(Sim {
            initial: playback.clone(),
            playback,
            steps: Vec::new(),
            horizon: 0.0,
            samples: Vec::new(),
        })
    }

    pub fn preset(id: &str) -> Result<Sim, String> {
        let p = scenario::presets::get(id).ok_or_else(|| format!("no preset named {id:?}"))?;
        Sim::load(p.file, p.text)
    }

    pub fn elapsed(&self) -> f64 {
        self.playback.elapsed()
    }

    pub fn view(&self) -> ClusterView {
        cluster_view(&self.playback.session.cluster)
    }

    /// The furthest virtual time reached so far (the scrubber's end).
    pub fn horizon(&self) -> f64 {
        self.horizon.max(self.elapsed())
    }

    pub fn advance(&mut self, dt: f64) {
        let t = self.playback.elapsed() + dt;
        self.playback.advance_to(t, MAX_EVENTS_PER_TICK);
        self.horizon = self.horizon.max(self.elapsed());
        self.sample();
    }

    fn sample(&mut self) {
        let t = self.elapsed();
        let Some(ds) = self.playback.session.cluster.daemon_sets().first().cloned() else {
            return;
        };
        let s = ds.status.clone().unwrap_or_default();
        let v = [
            s.desired_number_scheduled,
            s.current_number_scheduled,
            s.number_ready,
            s.updated_number_scheduled.unwrap_or(0),
            s.number_available.unwrap_or(0),
            s.number_unavailable.unwrap_or(0),
        ];
        self.samples.retain(|(st, _)| *st <= t);
        if self.samples.last().map(|(_, l)| *l) != Some(v) {
            self.samples.push((t, v));
        }
    }

    pub fn samples(&self) -> Vec<(f64, [i32; 6])> {
        self.samples.clone()
    }

    /// One event forward; the caption says what happened.
    pub fn step_forward(&mut self) -> String {
        let before = self.elapsed();
        let caption = match self.playback.step() {
            Some(r) => format!("{}: {}", r.actor.as_str(), r.what),
            None => "nothing happened: the cluster is at rest".to_string(),
        };
        self.steps.push(before);
        self.horizon = self.horizon.max(self.elapsed());
        caption
    }

    /// Back to where the last step started (replayed from the start: the simulation is
    /// deterministic, so the state is exactly the one seen then).
    pub fn step_back(&mut self) -> String {
        let t = self.steps.pop().unwrap_or(0.0);
        self.seek(t)
    }

    pub fn seek(&mut self, t: f64) -> String {
        if t < self.elapsed() {
            self.playback = self.initial.clone();
        }
        while !self.playback.advance_to(t, MAX_EVENTS_PER_TICK) {}
        self.horizon = self.horizon.max(self.elapsed());
        format!("at t = {:.1}s", self.elapsed())
    }

    pub fn reset(&mut self) {
        self.playback = self.initial.clone();
        self.steps.clear();
    }

    /// What is wrong with a DaemonSet manifest, before applying it.
    pub fn diagnose(&self, text: &str) -> Vec<Diag> {
        match apiserver::decode_daemon_set("editor.yaml", text) {
            Ok(_) => Vec::new(),
            Err(e) => vec![Diag {
                line: e.line,
                column: e.column,
                message: e.message,
                hint: e.hint,
            }],
        }
    }

    /// Applies the editor's manifest: an invalid one changes nothing.
    pub fn apply_yaml(&mut self, text: &str) -> Result<Output, Vec<Diag>> {
        let diags = self.diagnose(text);
        if !diags.is_empty() {
            return Err(diags);
        }
        let name = format!("edit-{}.yaml", self.playback.session.files.len() + 1);
        self.playback
            .session
            .files
            .insert(name.clone(), text.to_string());
        Ok(self.command(&format!("kubectl apply -f {name}")))
    }

    /// The DaemonSet manifests the scenario carries, by file name, for the editor.
    pub fn manifests(&self) -> Vec<(String, String)> {
        self.playback
            .session
            .files
            .iter()
            .filter(|(_, t)| t.contains("kind: DaemonSet"))
            .map(|(n, t)| (n.clone(), t.clone()))
            .collect()
    }

    /// Runs a command that only reads (`kubectl get …`): nothing is recorded.
    pub fn read_only(&mut self, line: &str) -> Output {
        let r = kubectl::run(&mut self.playback.session, line);
        let mut text = r.stdout;
        text.push_str(&r.stderr);
        Output {
            command: line.to_string(),
            text,
            ok: r.exit_code == 0,
        }
    }

    /// Runs a terminal line or an edit against the live cluster.
    pub fn command(&mut self, line: &str) -> Output {
        let r = scenario::run_line(&mut self.playback.session, line);
        Output {
            command: line.to_string(),
            text: r.output,
            ok: r.ok,
        }
    }
}

/// The `node add` lines that add `count` nodes named `<prefix>`, `<prefix>2`, … (the first free
/// names),
/// each with the given labels (`k=v`, space or comma separated) and taints (`k=v:Effect`).
pub fn add_node_commands(
    prefix: &str,
    count: &str,
    labels: &str,
    taints: &str,
    existing: &[String],
) -> Result<Vec<String>, String> {
    let prefix = prefix.trim();
    if prefix.is_empty() {
        return Err("the name prefix is empty: type e.g. `worker`".into());
    }
    let n: usize = count.trim().parse().map_err(|_| {
        format!("“{count}” is not a number of nodes: type a whole number from 1 to 1000")
    })?;
    if !(1..=1000).contains(&n) {
        return Err(format!(
            "{n} nodes at once is out of range: add from 1 to 1000 at a time"
        ));
    }
    let words = |s: &str| {
        s.split([' ', ','])
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let mut flags = String::new();
    for l in words(labels) {
        flags.push_str(&format!(" --label {l}"));
    }
    for t in words(taints) {
        flags.push_str(&format!(" --taint {t}"));
    }
    let mut out = Vec::with_capacity(n);
    let mut i = 1;
    while out.len() < n {
        // kind's style: worker, worker2, worker3, …
        let name = if i == 1 {
            prefix.to_string()
        } else {
            format!("{prefix}{i}")
        };
        if !existing.contains(&name) {
            out.push(format!("node add {name}{flags}"));
        }
        i += 1;
    }
    Ok(out)
}

/// A problem in the YAML editor's text, at a place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diag {
    pub line: usize,
    pub column: usize,
    pub message: String,
    pub hint: Option<String>,
}
