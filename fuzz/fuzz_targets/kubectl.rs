//! Lines typed into the page's terminal, run against a live session of the F-1 preset (its
//! DaemonSet rolled out): `Playback::run_command`, what `Timeline::run_command` calls (a
//! read-only command is only run, an edit is injected into the script). Each line is followed
//! by a few virtual seconds, bounded in events.
#![no_main]

use dsplay_fuzz::{live_playback, play_for, text};
use libfuzzer_sys::fuzz_target;

/// At most this many lines per input, each at most this long.
const MAX_LINES: usize = 16;
const MAX_LINE: usize = 2_000;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let mut play = live_playback();
    for line in text.lines().take(MAX_LINES) {
        if line.len() > MAX_LINE {
            continue;
        }
        let _ = play.run_command(line);
        play_for(&mut play, 5.0, 3_000);
    }
});
