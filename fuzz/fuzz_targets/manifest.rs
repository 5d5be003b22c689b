//! A manifest as `kubectl apply -f` sends it in a session (a script line or the terminal):
//! decoded by the API server's one decoder, defaulted, admitted and validated by the store.
//! Applied twice, so the second apply takes the three-way strategic merge patch path; then the
//! cluster runs a little, so whatever was created is scheduled, synced and started.
#![no_main]

use dsplay_fuzz::{fresh_session, step_for, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(yaml) = text(data) else { return };
    let mut session = fresh_session();
    session.files.insert("fuzz.yaml".into(), yaml.to_string());
    let first = scenario::run_line(&mut session, "kubectl apply -f fuzz.yaml");
    if first.ok {
        scenario::run_line(&mut session, "kubectl apply -f fuzz.yaml");
        step_for(&mut session, 20.0, 2_000);
        scenario::run_line(&mut session, "kubectl get all -A -o wide");
    }
});
