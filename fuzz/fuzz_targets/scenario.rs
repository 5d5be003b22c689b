//! A scenario file as `dsplay` loads it (`scenario::lesson::parse_with_lesson`, what
//! `dsplay run|test` read every file with; the page's file open and presets read it the same
//! way) and, when it is small, played as the page plays it for a bounded virtual time and
//! number of events.
#![no_main]

use dsplay_fuzz::{small_enough, text, MAX_EVENTS, RUN_SECONDS};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let Ok((scenario, _lesson)) = scenario::lesson::parse_with_lesson("fuzz.yaml", text) else {
        return;
    };
    if !small_enough(&scenario) {
        return;
    }
    // A file that parses but that the cluster refuses (a bad timing key, a node the store
    // rejects) is an error with a message, not a crash.
    let Ok(mut play) = scenario::Playback::new(scenario) else {
        return;
    };
    play.advance_to(RUN_SECONDS, MAX_EVENTS);
    let _ = scenario::view::cluster_view(&play.session.cluster);
});
