//! Playing a scenario frame by frame ends where running it in one go ends.

use scenario::{presets, Playback};

#[test]
fn playing_the_default_preset_in_small_frames_matches_the_batch_run() {
    let p = presets::default_preset();
    let s = scenario::parse(p.file, p.text).expect("preset parses");
    let batch = scenario::run(&s, false).expect("runs");
    let mut play = Playback::new(s).expect("starts");
    let mut t = 0.0;
    while !play.script_done() && t < 120.0 {
        t += 1.0 / 60.0;
        play.advance_to(t, 10_000);
    }
    assert!(play.script_done(), "script finished by t={t}");
    assert_eq!(play.log.len(), batch.records.len());
    for (a, b) in play.log.iter().zip(&batch.records) {
        assert_eq!(a.command, b.command);
        assert_eq!(a.ok, b.ok, "{}", a.command);
    }
    let status = |c: &cluster::Cluster| {
        c.daemon_sets()
            .iter()
            .map(|d| d.status.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        status(&play.session.cluster),
        status(&batch.session.cluster)
    );
}

#[test]
fn a_playback_that_is_never_advanced_has_run_the_lines_due_at_zero() {
    let p = presets::default_preset();
    let s = scenario::parse(p.file, p.text).expect("preset parses");
    let play = Playback::new(s).expect("starts");
    assert_eq!(play.elapsed(), 0.0);
    assert!(play
        .log
        .iter()
        .any(|r| r.command.starts_with("kubectl apply")));
    assert_eq!(play.session.cluster.daemon_sets().len(), 1);
}
