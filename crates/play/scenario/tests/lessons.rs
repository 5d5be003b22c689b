//! Lesson files (DESIGN §4.1b): the Markdown subset, live checks, progress, and the lessons
//! shipped in `lessons/`. Each kind of mistake and its message (file:line:column and a hint) is
//! in the bad-input catalogue (`common/bad_inputs.rs`, `docs/bad-inputs.md` §"Lesson file").

use scenario::lesson::{
    evaluate, markdown, parse_lesson, test_lesson, Block, Inline, LessonProgress,
};

#[path = "common/bad_inputs.rs"]
mod bad_inputs;

/// A small valid lesson (the bad-input catalogue's lessons break one thing each of it), and
/// that lesson with one text replaced.
use bad_inputs::{lesson_with as with, GOOD_LESSON as GOOD};

#[test]
fn the_good_lesson_parses_into_typed_steps() {
    let f = parse_lesson("l.yaml", GOOD).expect("parses");
    assert_eq!(f.lesson.id, "l");
    assert_eq!(f.lesson.steps.len(), 2);
    let first = &f.lesson.steps[0];
    assert_eq!((first.line, first.column), (22, 5));
    assert_eq!(
        first.text,
        vec![Block::Paragraph(vec![
            Inline::Text("Apply ".into()),
            Inline::Bold("it".into()),
            Inline::Text(".".into()),
        ])]
    );
    let ask = first.ask.as_ref().expect("an ask");
    assert_eq!(ask.answer, 1);
    assert!(ask.is_correct(1) && !ask.is_correct(0));
    let task = f.lesson.steps[1].task.as_ref().expect("a task");
    assert_eq!(task.hints, vec!["kubectl taint".to_string()]);
    assert_eq!(task.check[0].line, 36);
}

#[test]
fn a_scenario_without_lesson_is_not_a_lesson_but_a_lesson_is_a_scenario() {
    let f1 = scenario::presets::get("f1-one-pod-per-node").expect("F-1");
    let e = parse_lesson(f1.file, f1.text).expect_err("no lesson");
    assert_eq!(e.message, "not a lesson: the file has no `lesson:` steps");
    let s = scenario::parse("l.yaml", GOOD).expect("a lesson file is a scenario");
    assert_eq!(s.id, "l");
    let (with_steps, lesson) = scenario::lesson::parse_with_lesson("l.yaml", GOOD).expect("parses");
    assert_eq!(with_steps, s);
    assert_eq!(lesson.map(|l| l.steps.len()), Some(2));
    // `parse` leaves the steps to the lesson parser, which refuses broken ones.
    let bad = with("      answer: \"2\"", "      answer: \"3\"");
    assert!(scenario::parse("l.yaml", &bad).is_ok());
    assert!(scenario::lesson::parse_with_lesson("l.yaml", &bad).is_err());
}

#[test]
fn markdown_keeps_to_its_subset_and_never_makes_unsafe_links() {
    let md = markdown(
        "Run `kubectl get ds` and **look**.\nSame paragraph.\n\n\
         See [docs](https://kubernetes.io/x), [here](../docs/lessons.md) and [bad](javascript:alert(1)).\n\n\
         Unclosed `code and **bold and [link](http://x",
    );
    use Inline::*;
    assert_eq!(
        md,
        vec![
            Block::Paragraph(vec![
                Text("Run ".into()),
                Code("kubectl get ds".into()),
                Text(" and ".into()),
                Bold("look".into()),
                Text(". Same paragraph.".into()),
            ]),
            Block::Paragraph(vec![
                Text("See ".into()),
                Link {
                    text: "docs".into(),
                    href: "https://kubernetes.io/x".into()
                },
                Text(", ".into()),
                Link {
                    text: "here".into(),
                    href: "../docs/lessons.md".into()
                },
                Text(" and bad).".into()),
            ]),
            Block::Paragraph(vec![Text(
                "Unclosed `code and **bold and [link](http://x".into()
            )]),
        ]
    );
    for href in ["data:text/html,x", "//evil.example", "vbscript:x", "a b"] {
        let md = markdown(&format!("[x]({href})"));
        assert!(
            !matches!(&md[..], [Block::Paragraph(p)] if p.iter().any(|s| matches!(s, Link { .. }))),
            "{href} became a link: {md:?}"
        );
    }
    assert!(markdown("").is_empty());
    assert!(markdown("\n\n  \n").is_empty());
}

#[test]
fn a_check_holds_only_after_the_task_is_done() {
    let f = parse_lesson("l.yaml", GOOD).expect("parses");
    let task = f.lesson.steps[1].task.as_ref().expect("a task");
    let mut play = scenario::Playback::new(f.scenario.clone()).expect("starts");
    for line in &f.lesson.steps[0].run {
        if let scenario::Step::Run(c) = &line.step {
            scenario::run_line(&mut play.session, c);
        }
    }
    let before = evaluate(&mut play.session, &task.check);
    assert!(!before.holds(), "{before:?}");
    assert!(before.lines[0].observed.starts_with("pod/x-"), "{before:?}");
    let events = play.session.cluster.trace().len();
    // Evaluating changes nothing.
    assert_eq!(evaluate(&mut play.session, &task.check), before);
    assert_eq!(play.session.cluster.trace().len(), events);

    play.inject("kubectl taint node worker2 k=v:NoExecute")
        .expect("the learner taints the node");
    let t = play.elapsed();
    play.advance_to(t + 5.0, usize::MAX);
    let after = evaluate(&mut play.session, &task.check);
    assert!(after.holds(), "{after:?}");
}

#[test]
fn progress_needs_an_answer_and_a_held_check_to_move_on() {
    let f = parse_lesson("l.yaml", GOOD).expect("parses");
    let lesson = &f.lesson;
    let mut p = LessonProgress::default();
    assert!(!p.step_complete(lesson));
    assert!(!p.next(lesson), "an unanswered ask holds the step");
    assert_eq!(p.answer(lesson, 5), None, "not a choice");
    assert_eq!(p.answer(lesson, 0), Some(false));
    assert_eq!(p.answer(lesson, 1), Some(false), "the first answer counts");
    assert!(p.next(lesson));
    assert_eq!(
        p,
        LessonProgress {
            step: 1,
            answered: None,
            done: false
        }
    );
    assert_eq!(p.answer(lesson, 0), None, "this step asks nothing");
    let mut state = scenario::lesson::CheckState::default();
    p.observe(&state);
    assert!(!p.step_complete(lesson), "an empty check never holds");
    state.lines.push(scenario::lesson::CheckLine {
        line: 1,
        column: 1,
        command: "kubectl get ds".into(),
        expected: scenario::Check::Equals(String::new()),
        observed: String::new(),
        holds: true,
    });
    p.observe(&state);
    assert!(p.step_complete(lesson));
    assert!(!p.next(lesson), "the last step has no next");
    assert!(p.back());
    assert_eq!(p.step, 0);
    assert!(!p.back());
    let stored = LessonProgress {
        step: 9,
        answered: Some(3),
        done: true,
    };
    assert_eq!(
        stored.normalized(lesson),
        LessonProgress {
            step: 1,
            answered: None,
            done: true
        }
    );
}

#[test]
fn test_lesson_fails_a_check_that_holds_before_the_solution() {
    // worker2 runs a pod once the first step's run lines are done: this check holds at once.
    let early = with("          equals: \"\"", "          contains: \"pod/x-\"");
    let f = parse_lesson("l.yaml", &early).expect("parses");
    let out = test_lesson(&f).expect("runs");
    assert_eq!(out.passed, 0);
    assert_eq!(out.failures.len(), 1);
    let fail = &out.failures[0];
    assert_eq!((fail.step, fail.line, fail.column), (2, 36, 11));
    assert_eq!(
        fail.message,
        "step 2 (\"Taint\"): the task's check already holds before its solution is played; it cannot tell whether the learner did the task"
    );
}

#[test]
fn test_lesson_passes_the_good_lesson() {
    let f = parse_lesson("l.yaml", GOOD).expect("parses");
    let out = test_lesson(&f).expect("runs");
    assert!(out.failures.is_empty(), "{:?}", out.failures);
    assert_eq!(out.passed, 1);
}

/// The lessons the page offers: every file of `lessons/` embedded, named after its id
/// (`?lesson=ID`), each with at least one prediction and one task.
#[test]
fn shipped_lessons_are_named_by_id_and_ask_and_task() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../lessons");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("lessons/") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|x| x != "yaml") {
            continue;
        }
        let name = path.file_stem().and_then(|s| s.to_str()).expect("name");
        let text = std::fs::read_to_string(&path).expect("read");
        let embedded = scenario::presets::lesson(name);
        assert_eq!(
            embedded.map(|l| l.text),
            Some(text.as_str()),
            "{name} is not in presets::LESSONS"
        );
        let f = parse_lesson(name, &text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(f.lesson.id, name, "{}", path.display());
        assert!(
            f.lesson.steps.iter().any(|s| s.ask.is_some()),
            "{name}: no ask"
        );
        assert!(
            f.lesson.steps.iter().any(|s| s.task.is_some()),
            "{name}: no task"
        );
        count += 1;
    }
    assert!(count >= 8, "{count} lessons");
    assert_eq!(
        count,
        scenario::presets::LESSONS.len(),
        "a listed lesson has no file"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    /// Any text: Markdown and lesson parsing answer without panicking.
    #[test]
    fn no_text_panics_the_markdown_or_the_lesson_parser(text in "\\PC{0,200}") {
        let _ = markdown(&text);
        let _ = parse_lesson("l.yaml", &text);
    }

    /// The good lesson cut short or with a line changed: an error or a lesson, never a panic.
    #[test]
    fn damaged_lessons_never_panic(cut in 0usize..GOOD.len(), junk in "[-:\\[\\]{}`*\" a-z0-9]{0,12}") {
        let mut text = GOOD[..GOOD.floor_char_boundary(cut)].to_string();
        text.push_str(&junk);
        let _ = parse_lesson("l.yaml", &text);
    }
}

/// The full example of `docs/lessons.md` is a lesson that passes, checked live the same way
/// through the page's `Timeline`.
#[test]
fn the_documented_example_passes_its_test() {
    let doc = include_str!("../../../../docs/lessons.md");
    let start = doc.find("```yaml\n").expect("a yaml block") + "```yaml\n".len();
    let end = start + doc[start..].find("```").expect("its end");
    let f = parse_lesson("docs/lessons.md", &doc[start..end]).unwrap_or_else(|e| panic!("{e}"));
    let out = test_lesson(&f).expect("runs");
    assert!(out.failures.is_empty(), "{:?}", out.failures);
    assert_eq!(out.passed, 2);

    let mut timeline = scenario::Timeline::new(f.scenario.clone()).expect("starts");
    let task = f.lesson.steps[2].task.as_ref().expect("a task");
    timeline
        .inject("kubectl apply -f agent.yaml")
        .expect("applies");
    timeline.advance_to(10.0, usize::MAX);
    assert!(!timeline.check(&task.check).holds());
    timeline
        .inject("kubectl taint node worker2 dedicated=infra:NoExecute")
        .expect("taints");
    timeline.advance_to(20.0, usize::MAX);
    assert!(timeline.check(&task.check).holds());
}

#[test]
fn test_lesson_fails_a_solution_line_that_fails() {
    let typo = with(
        "        - kubectl taint node worker2 k=v:NoExecute",
        "        - kubectl taint node worker9 k=v:NoExecute",
    );
    let f = parse_lesson("l.yaml", &typo).expect("parses");
    let out = test_lesson(&f).expect("runs");
    assert_eq!(out.passed, 0);
    let fail = &out.failures[..];
    assert_eq!(fail.len(), 1, "{fail:?}");
    assert_eq!((fail[0].step, fail[0].line, fail[0].column), (2, 39, 11));
    assert_eq!(
        fail[0].message,
        "step 2 (\"Taint\"): solution line `kubectl taint node worker9 k=v:NoExecute` failed: Error from server (NotFound): nodes \"worker9\" not found"
    );
}
