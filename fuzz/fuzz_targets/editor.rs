//! The YAML editor: its diagnostics (`scenario::edit::diagnose`, what the app's editor calls on
//! every change) and, when there are none, Apply (`Playback::apply_manifest`, what
//! `Timeline::apply_manifest` calls) on a live session of the F-1 preset, played a little on.
#![no_main]

use dsplay_fuzz::{live_playback, play_for, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    if !scenario::edit::diagnose("editor.yaml", text).is_empty() {
        return;
    }
    let mut play = live_playback();
    if play.apply_manifest(text).is_ok() {
        play_for(&mut play, 30.0, 5_000);
    }
});
