//! A scenario file as `dsplay` loads it (`scenario::lesson::parse_with_lesson`, what
//! `dsplay run|test` read every file with; the page's file open and presets read it the same
//! way) and, when it is small, played as the page plays it for a bounded virtual time and
//! number of events.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    dsplay_fuzz::scenario_file(data);
});
