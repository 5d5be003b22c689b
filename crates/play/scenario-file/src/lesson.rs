//! Lesson files (`shared/DESIGN.md` §4.1b): a scenario with `lesson:` steps. Each step has a
//! title and text, and may play `run:` lines, `ask:` a prediction and set a `task:` whose
//! `check:` lines (the scenario's `expect:` lines, read-only) hold once the learner has done it.
//!
//! This module parses and validates the steps (errors through `format`'s one helper:
//! file:line:column and a hint), turns their Markdown subset into a typed [`Block`] tree (never
//! HTML: the page renders it as text nodes), evaluates a task's check against a cluster now
//! ([`evaluate`], what the page calls after each change) and tests a lesson in batch by
//! playing each task's reference solution ([`test_lesson`], what `dsplay test` runs).
//!
//! It knows nothing of the page: progress is a plain value ([`LessonProgress`]) the caller
//! stores.

use serde_json::Value;

use crate::format::{closest, json_kind, parse_lines, unknown_key, Ctx};
use crate::format::{Check, Scenario, ScenarioError, ScriptLine, Step};

/// A lesson: the scenario's id and title, and its steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lesson {
    /// The scenario's id (`scenario:`), which `?lesson=ID` names; lesson files in `lessons/`
    /// are named after it.
    pub id: String,
    pub title: String,
    pub steps: Vec<LessonStep>,
}

/// One step of a lesson.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonStep {
    pub title: String,
    pub text: Vec<Block>,
    /// Played when the step opens; for a step with an `ask`, once the learner has answered
    /// (playing them is the reveal).
    pub run: Vec<ScriptLine>,
    pub ask: Option<Ask>,
    pub task: Option<Task>,
    /// Where the step is written.
    pub line: usize,
    pub column: usize,
}

/// A prediction: the learner picks one of `choices`, then the step's `run:` lines play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ask {
    pub question: Vec<Block>,
    pub choices: Vec<String>,
    /// Index into `choices`. Written in the file as the text of the right choice.
    pub answer: usize,
    /// Shown after the reveal, above all to a learner who picked a wrong choice.
    pub explain: Vec<Block>,
}

impl Ask {
    /// Whether `choice` (an index into `choices`) is the right one.
    pub fn is_correct(&self, choice: usize) -> bool {
        choice == self.answer
    }
}

/// Something the learner does in the cluster; done when every `check` line holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    pub text: Vec<Block>,
    /// `expect:` lines whose commands only read the cluster.
    pub check: Vec<ScriptLine>,
    /// What a learner would do; `dsplay test` plays it.
    pub solution: Vec<ScriptLine>,
    pub hints: Vec<String>,
}

/// A block of lesson text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    Paragraph(Vec<Inline>),
}

/// A span of text inside a paragraph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    /// `` `code` ``
    Code(String),
    /// `**bold**`
    Bold(String),
    /// `[text](href)`; `href` is http(s) or relative, anything else stays text.
    Link {
        text: String,
        href: String,
    },
}

/// A scenario file with its lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonFile {
    pub scenario: Scenario,
    pub lesson: Lesson,
}

const STEP_KEYS: &[&str] = &["title", "text", "run", "ask", "task"];
const ASK_KEYS: &[&str] = &["question", "choices", "answer", "explain"];
const TASK_KEYS: &[&str] = &["text", "check", "solution", "hints"];
/// The first words a script line may start with.
const VERBS: &[&str] = &["kubectl", "sleep", "node", "pod"];
/// Choices an `ask` may offer.
const CHOICES: std::ops::RangeInclusive<usize> = 2..=6;

/// Parses a scenario file that may be a lesson: the scenario, and its lesson if it has
/// `lesson:` steps (validated). What `dsplay` reads every file with.
pub fn parse_with_lesson(
    source_name: &str,
    text: &str,
) -> Result<(Scenario, Option<Lesson>), ScenarioError> {
    crate::format::with_document(source_name, text, |ctx, root| {
        let scenario = crate::format::from_root(ctx, root)?;
        let lesson = match root.get("lesson") {
            Some(v) => Some(Lesson {
                id: scenario.id.clone(),
                title: scenario.title.clone(),
                steps: parse_steps(ctx, v)?,
            }),
            None => None,
        };
        Ok((scenario, lesson))
    })
}

/// Parses a lesson file: a scenario file with a `lesson:` list of steps.
pub fn parse_lesson(source_name: &str, text: &str) -> Result<LessonFile, ScenarioError> {
    let (scenario, lesson) = parse_with_lesson(source_name, text)?;
    let Some(lesson) = lesson else {
        return Err(ScenarioError {
            source_name: source_name.to_string(),
            line: 1,
            column: 1,
            message: "not a lesson: the file has no `lesson:` steps".into(),
            hint: Some(
                "add `lesson:` with a list of steps, each with a `title:` (see docs/lessons.md)"
                    .into(),
            ),
        });
    };
    Ok(LessonFile { scenario, lesson })
}

/// Reads the `lesson:` value of a scenario file.
pub(crate) fn parse_steps(ctx: &Ctx, v: &Value) -> Result<Vec<LessonStep>, ScenarioError> {
    let example = "e.g. `lesson: [{title: One pod per node, text: \"Each node runs …\"}]`";
    let Value::Array(items) = v else {
        return Err(ctx.err(
            "lesson",
            format!("lesson must be a list of steps, found {}", json_kind(v)),
            Some(example),
        ));
    };
    if items.is_empty() {
        return Err(ctx.err("lesson", "a lesson needs at least one step", Some(example)));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| parse_step(ctx, &format!("lesson[{i}]"), item))
        .collect()
}

/// A map's entries after checking its keys, or the error for a value that is not a map.
fn entries<'v>(
    ctx: &Ctx,
    path: &str,
    v: &'v Value,
    keys: &[&str],
    what: &str,
    example: &str,
) -> Result<&'v serde_json::Map<String, Value>, ScenarioError> {
    let Value::Object(m) = v else {
        return Err(ctx.err(
            path,
            format!("{what} must be a map, found {}", json_kind(v)),
            Some(example),
        ));
    };
    for key in m.keys() {
        if !keys.contains(&key.as_str()) {
            return Err(unknown_key(ctx, &format!("{path}.{key}"), key, keys));
        }
    }
    Ok(m)
}

fn required<'v>(
    ctx: &Ctx,
    m: &'v serde_json::Map<String, Value>,
    path: &str,
    key: &str,
    message: &str,
    hint: &str,
) -> Result<&'v Value, ScenarioError> {
    m.get(key)
        .filter(|v| !v.is_null())
        .ok_or_else(|| ctx.err(path, message, Some(hint)))
}

fn parse_step(ctx: &Ctx, path: &str, v: &Value) -> Result<LessonStep, ScenarioError> {
    let m = entries(
        ctx,
        path,
        v,
        STEP_KEYS,
        "a step",
        "write `- title: Taint a node` and `text: …` below it",
    )?;
    let title_v = required(
        ctx,
        m,
        path,
        "title",
        "a step needs a `title:`",
        "e.g. `- title: Taint a node`",
    )?;
    let title = ctx.string(title_v, &format!("{path}.title"), "title")?;
    let text = match m.get("text") {
        None | Some(Value::Null) => Vec::new(),
        Some(t) => markdown(&ctx.string(t, &format!("{path}.text"), "text")?),
    };
    let run = parse_run(ctx, m.get("run"), &format!("{path}.run"))?;
    let ask = match m.get("ask") {
        None | Some(Value::Null) => None,
        Some(a) => Some(parse_ask(ctx, &format!("{path}.ask"), a)?),
    };
    let task = match m.get("task") {
        None | Some(Value::Null) => None,
        Some(t) => Some(parse_task(ctx, &format!("{path}.task"), t)?),
    };
    let (line, column) = ctx.map.and_then(|m| m.locate(path)).unwrap_or((1, 1));
    Ok(LessonStep {
        title,
        text,
        run,
        ask,
        task,
        line,
        column,
    })
}

fn parse_ask(ctx: &Ctx, path: &str, v: &Value) -> Result<Ask, ScenarioError> {
    let example = "e.g. `ask: {question: How many pods?, choices: [\"3\", \"4\"], answer: \"4\", explain: …}`";
    let m = entries(ctx, path, v, ASK_KEYS, "ask", example)?;
    let question = required(
        ctx,
        m,
        path,
        "question",
        "an ask needs a `question:`",
        example,
    )?;
    let question = markdown(&ctx.string(question, &format!("{path}.question"), "question")?);
    let choices_path = format!("{path}.choices");
    let choices = match required(ctx, m, path, "choices", "an ask needs `choices:`", example)? {
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, c)| ctx.string(c, &format!("{choices_path}[{i}]"), "a choice"))
            .collect::<Result<Vec<_>, _>>()?,
        other => {
            return Err(ctx.err(
                &choices_path,
                format!("choices must be a list, found {}", json_kind(other)),
                Some("e.g. `choices: [\"about 7 s\", \"about 27 s\"]`"),
            ))
        }
    };
    if !CHOICES.contains(&choices.len()) {
        return Err(ctx.err(
            &choices_path,
            format!(
                "an ask offers {} to {} choices, found {}",
                CHOICES.start(),
                CHOICES.end(),
                choices.len()
            ),
            Some("e.g. `choices: [\"about 7 s\", \"about 27 s\"]`"),
        ));
    }
    for (i, c) in choices.iter().enumerate() {
        let at = format!("{choices_path}[{i}]");
        if c.trim().is_empty() {
            return Err(ctx.err(
                &at,
                "a choice must not be empty",
                Some("write what the learner picks"),
            ));
        }
        if choices[..i].contains(c) {
            return Err(ctx.err(
                &at,
                format!("choice {c:?} is offered twice"),
                Some("every choice must differ from the others"),
            ));
        }
    }
    let answer_path = format!("{path}.answer");
    let answer = required(
        ctx,
        m,
        path,
        "answer",
        "an ask needs an `answer:` (the text of the right choice)",
        example,
    )?;
    let answer = ctx.string(answer, &answer_path, "answer")?;
    let Some(answer) = choices.iter().position(|c| *c == answer) else {
        let options: Vec<&str> = choices.iter().map(String::as_str).collect();
        // A near miss is worth naming only for a word, not for "3" against "2".
        let near = (answer.chars().count() > 3)
            .then(|| closest(&answer, &options))
            .flatten();
        let hint = match near {
            Some(c) => format!("did you mean {c:?}? The answer is the text of one of the choices"),
            None => format!(
                "the answer is the text of one of the choices: {}",
                options
                    .iter()
                    .map(|c| format!("{c:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        return Err(ctx.err(
            &answer_path,
            format!("answer {answer:?} is not one of the choices"),
            Some(&hint),
        ));
    };
    let explain = required(
        ctx,
        m,
        path,
        "explain",
        "an ask needs `explain:` (shown when the answer is revealed)",
        "say why the right answer is right, e.g. `explain: Each node waits for …`",
    )?;
    let explain = markdown(&ctx.string(explain, &format!("{path}.explain"), "explain")?);
    Ok(Ask {
        question,
        choices,
        answer,
        explain,
    })
}

fn parse_task(ctx: &Ctx, path: &str, v: &Value) -> Result<Task, ScenarioError> {
    let example = "e.g. `task: {text: Taint worker2., check: [{expect: …, equals: …}], solution: [kubectl taint node worker2 k=v:NoExecute]}`";
    let m = entries(ctx, path, v, TASK_KEYS, "task", example)?;
    let text = match m.get("text") {
        None | Some(Value::Null) => Vec::new(),
        Some(t) => markdown(&ctx.string(t, &format!("{path}.text"), "text")?),
    };
    let check_path = format!("{path}.check");
    let check = parse_lines(ctx, m.get("check"), &check_path)?;
    if check.is_empty() {
        return Err(ctx.err(
            if m.contains_key("check") { &check_path } else { path },
            "a task needs `check:` lines (expect lines that hold once the task is done)",
            Some("e.g. `check: [{expect: kubectl get pods --field-selector spec.nodeName=worker2 -o name, equals: \"\"}]`"),
        ));
    }
    for (i, line) in check.iter().enumerate() {
        let at = format!("{check_path}[{i}]");
        let Step::Expect { command, .. } = &line.step else {
            return Err(ctx.err(
                &at,
                "a check line must be an `expect:` map",
                Some("write `- expect: kubectl get ds x -o jsonpath={.status.numberReady}` and `equals: \"4\"`"),
            ));
        };
        check_command(ctx, &format!("{at}.expect"), command)?;
        if crate::script::command_kind(command) != crate::script::CommandKind::ReadOnly {
            return Err(ctx.err(
                &format!("{at}.expect"),
                format!("a check may only read the cluster; `{command}` changes it"),
                Some("checks run after every change: use kubectl get, describe or rollout status|history, and put the change in `solution:`"),
            ));
        }
    }
    let solution_path = format!("{path}.solution");
    let solution = parse_run(ctx, m.get("solution"), &solution_path)?;
    if solution.is_empty() {
        return Err(ctx.err(
            if m.contains_key("solution") {
                &solution_path
            } else {
                path
            },
            "a task needs `solution:` lines (what a learner would do; `dsplay test` plays them)",
            Some("e.g. `solution: [kubectl taint node worker2 k42=x:NoExecute]`"),
        ));
    }
    let hints_path = format!("{path}.hints");
    let hints = match m.get("hints") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, h)| ctx.string(h, &format!("{hints_path}[{i}]"), "a hint"))
            .collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(ctx.err(
                &hints_path,
                format!("hints must be a list, found {}", json_kind(other)),
                Some("e.g. `hints: [\"kubectl taint --help shows the syntax\"]`"),
            ))
        }
    };
    Ok(Task {
        text,
        check,
        solution,
        hints,
    })
}

/// Script lines that are played (`run:`, `solution:`), each checked as a command.
fn parse_run(ctx: &Ctx, v: Option<&Value>, path: &str) -> Result<Vec<ScriptLine>, ScenarioError> {
    let lines = parse_lines(ctx, v, path)?;
    for (i, line) in lines.iter().enumerate() {
        let (command, at) = match &line.step {
            Step::Run(c) => (c, format!("{path}[{i}]")),
            Step::Expect { command, .. } => (command, format!("{path}[{i}].expect")),
        };
        check_command(ctx, &at, command)?;
    }
    Ok(lines)
}

/// A script line's command, checked without running it: its verb, kubectl's own parse, a
/// sleep's duration.
fn check_command(ctx: &Ctx, path: &str, command: &str) -> Result<(), ScenarioError> {
    let words =
        kubectl::split_words(command).map_err(|e| ctx.err(path, e.message, e.hint.as_deref()))?;
    let verb = words.first().map(String::as_str).unwrap_or("");
    match verb {
        "kubectl" => kubectl::parse(command).map(|_| ()).map_err(|e| {
            ctx.err(
                path,
                e.message,
                Some(
                    e.hint
                        .as_deref()
                        .unwrap_or("see `kubectl help` for the supported commands"),
                ),
            )
        }),
        "sleep" => match words.get(1) {
            Some(d) if words.len() == 2 => crate::script::parse_duration(d)
                .map(|_| ())
                .map_err(|e| ctx.err(path, e, Some("e.g. `sleep 30s`"))),
            _ => Err(ctx.err(
                path,
                "sleep takes one duration",
                Some("e.g. `sleep 30s` or `sleep 1m30s`"),
            )),
        },
        "node" | "pod" => Ok(()),
        other => {
            let hint = match closest(other, VERBS) {
                Some(v) => format!("did you mean {v:?}? A line is a kubectl command, sleep DURATION, node add|remove|stop|start NAME, or pod crash|fail POD"),
                None => "a line is a kubectl command, sleep DURATION, node add|remove|stop|start NAME, or pod crash|fail POD".into(),
            };
            Err(ctx.err(path, format!("unknown command {other:?}"), Some(&hint)))
        }
    }
}

/// Parses the Markdown subset of lesson text: paragraphs (separated by blank lines; line
/// breaks inside one are spaces), `` `code` ``, `**bold**` and `[links](https://…)`. What does
/// not form one of these (an unclosed marker, a link to another scheme) stays plain text.
pub fn markdown(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut para = String::new();
    for line in text.lines().chain(std::iter::once("")) {
        let line = line.trim();
        if line.is_empty() {
            if !para.is_empty() {
                blocks.push(Block::Paragraph(inline(&para)));
                para.clear();
            }
        } else {
            if !para.is_empty() {
                para.push(' ');
            }
            para.push_str(line);
        }
    }
    blocks
}

fn inline(s: &str) -> Vec<Inline> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut rest = s;
    let flush = |text: &mut String, out: &mut Vec<Inline>, span: Inline| {
        if !text.is_empty() {
            out.push(Inline::Text(std::mem::take(text)));
        }
        out.push(span);
    };
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("**") {
            if let Some(end) = after.find("**").filter(|e| *e > 0) {
                flush(&mut text, &mut out, Inline::Bold(after[..end].to_string()));
                rest = &after[end + 2..];
                continue;
            }
        } else if let Some(after) = rest.strip_prefix('`') {
            if let Some(end) = after.find('`').filter(|e| *e > 0) {
                flush(&mut text, &mut out, Inline::Code(after[..end].to_string()));
                rest = &after[end + 1..];
                continue;
            }
        } else if let Some(after) = rest.strip_prefix('[') {
            if let Some((label, href, tail)) = link(after) {
                if safe_href(href) {
                    let span = Inline::Link {
                        text: label.to_string(),
                        href: href.to_string(),
                    };
                    flush(&mut text, &mut out, span);
                } else {
                    text.push_str(label);
                }
                rest = tail;
                continue;
            }
        }
        text.push(c);
        rest = &rest[c.len_utf8()..];
    }
    if !text.is_empty() {
        out.push(Inline::Text(text));
    }
    out
}

/// `label](href)tail` → (label, href, tail), after a `[`.
fn link(after: &str) -> Option<(&str, &str, &str)> {
    let close = after.find("](")?;
    let label = &after[..close];
    if label.is_empty() || label.contains('[') {
        return None;
    }
    let target = &after[close + 2..];
    let end = target.find(')')?;
    Some((label, &target[..end], &target[end + 1..]))
}

/// http(s), or relative (no scheme, not `//host`): what the page may follow.
fn safe_href(href: &str) -> bool {
    if href.is_empty() || href.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    let lower = href.to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") {
        return true;
    }
    let before_path = href.split(['/', '?', '#']).next().unwrap_or("");
    !href.starts_with("//") && !before_path.contains(':')
}

/// A check line's state now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckLine {
    pub line: usize,
    pub column: usize,
    pub command: String,
    pub expected: Check,
    /// The command's output, trimmed.
    pub observed: String,
    pub holds: bool,
}

/// Whether a task's check holds now, line by line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CheckState {
    pub lines: Vec<CheckLine>,
}

impl CheckState {
    /// Every line holds (and there is at least one).
    pub fn holds(&self) -> bool {
        !self.lines.is_empty() && self.lines.iter().all(|l| l.holds)
    }

    /// The first line that does not hold.
    pub fn first_failing(&self) -> Option<&CheckLine> {
        self.lines.iter().find(|l| !l.holds)
    }
}

/// Where a learner is in a lesson: the step shown, the choice picked for its `ask` (if any) and
/// whether its task's check has held. The page stores it per lesson.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LessonProgress {
    /// Index into `Lesson::steps`.
    pub step: usize,
    pub answered: Option<usize>,
    pub done: bool,
}

impl LessonProgress {
    /// Progress read back from storage, made valid for `lesson` (a step past the end is the
    /// last one; an answer that is not a choice is dropped).
    pub fn normalized(self, lesson: &Lesson) -> LessonProgress {
        let step = self.step.min(lesson.steps.len().saturating_sub(1));
        let choices = lesson
            .steps
            .get(step)
            .and_then(|s| s.ask.as_ref())
            .map_or(0, |a| a.choices.len());
        let has_task = lesson.steps.get(step).is_some_and(|s| s.task.is_some());
        LessonProgress {
            step,
            answered: self.answered.filter(|c| *c < choices),
            done: self.done && has_task,
        }
    }

    /// Records the learner's choice (the first one counts). Returns whether it is right, or
    /// None when the step asks nothing or `choice` is not one of its choices.
    pub fn answer(&mut self, lesson: &Lesson, choice: usize) -> Option<bool> {
        let ask = lesson.steps.get(self.step)?.ask.as_ref()?;
        if choice >= ask.choices.len() {
            return None;
        }
        let picked = *self.answered.get_or_insert(choice);
        Some(ask.is_correct(picked))
    }

    /// Takes in the check's state now: once it has held, the task is done (undoing the work
    /// later does not take the step back).
    pub fn observe(&mut self, state: &CheckState) {
        self.done |= state.holds();
    }

    /// Whether the step is complete: its question answered and its task's check held.
    pub fn step_complete(&self, lesson: &Lesson) -> bool {
        lesson.steps.get(self.step).is_some_and(|s| {
            (s.ask.is_none() || self.answered.is_some()) && (s.task.is_none() || self.done)
        })
    }

    /// Goes to the next step if this one is complete; false otherwise or at the last step.
    pub fn next(&mut self, lesson: &Lesson) -> bool {
        if !self.step_complete(lesson) || self.step + 1 >= lesson.steps.len() {
            return false;
        }
        *self = LessonProgress {
            step: self.step + 1,
            ..Default::default()
        };
        true
    }

    /// Goes back a step (its answer and check state start afresh); false at the first.
    pub fn back(&mut self) -> bool {
        if self.step == 0 {
            return false;
        }
        *self = LessonProgress {
            step: self.step - 1,
            ..Default::default()
        };
        true
    }
}
