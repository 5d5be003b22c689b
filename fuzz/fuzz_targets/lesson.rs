//! A lesson file as the page's lesson pane (`?lesson=`) and `dsplay test` read it:
//! `scenario::parse_lesson`. The whole text also goes through the lesson text's Markdown
//! subset (`scenario::lesson::markdown`), which every step's `text:` is read with.
#![no_main]

use dsplay_fuzz::text;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let _ = scenario::lesson::markdown(text);
    if let Ok(file) = scenario::parse_lesson("fuzz.yaml", text) {
        // What the pane does with a learner's saved progress: normalise it to this lesson.
        let _ = scenario::LessonProgress::default().normalized(&file.lesson);
    }
});
