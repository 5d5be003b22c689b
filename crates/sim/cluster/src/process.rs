//! What a container's process does, read from its manifest: the kubelet runs no code, so it
//! models the common command forms and knows, from the moment a container starts, when (if
//! ever) it exits, with which code, and which files it creates or removes on the way. Exec
//! probes are modelled the same way, against the files the container has at that moment.
//!
//! Understood, alone or as the script of `sh|bash|ash|dash -c "…"` (commands separated by `;`,
//! new lines, `&&` and `||`, with `'…'`/`"…"` quoting):
//! - `sleep N` (seconds, or GNU suffixes `s`/`m`/`h`/`d`; several arguments add up) and
//!   `sleep infinity`;
//! - `true`, `:`, `false`, `exit [N]`, `exec CMD…`;
//! - files: `touch F`, `rm [-f|-r|-rf] F`, `mkdir [-p] D`, `echo …/printf … > F` (or `>>`),
//!   and the tests `cat F`, `test -e|-f F`, `[ -e|-f F ]`, `ls F`;
//! - `echo`, `printf`, `date`, `hostname`, `env`, `set …`, `trap …`: no effect, status 0.
//!
//! Files under `/tmp`, `/run`, `/var/run` and `/dev/shm` start absent (the container's writable
//! layer is new at every start); any other path is taken to be part of the image and present.
//! An image without a `command` runs its own entrypoint, and anything else not understood
//! (pipes, loops, `$(…)`, a program of the image's own) also runs forever: a container the
//! model cannot read is a healthy one. An exec probe the model cannot read succeeds.

use std::collections::BTreeSet;

/// A file the process creates or removes, `at` seconds after it starts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FileOp {
    pub at: f64,
    pub path: String,
    pub exists: bool,
}

/// How a process ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum End {
    /// It exits with `code`, `after` seconds after it starts.
    Exit { after: f64, code: i32 },
    /// It never exits (`sleep infinity`, an image's own program, or a command not modelled).
    Never,
}

/// A process, as the kubelet's model of it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Program {
    pub end: End,
    /// Files created and removed, in time order.
    pub files: Vec<FileOp>,
    /// Whether the command was understood (false: it is assumed to run, healthy, forever).
    pub modelled: bool,
}

impl Program {
    /// The program of a container: `command` (the entrypoint override) followed by `args`.
    pub fn of_container(command: Option<&[String]>, args: Option<&[String]>) -> Program {
        match command {
            None => Program::unmodelled(),
            Some(cmd) => {
                let argv: Vec<String> = cmd
                    .iter()
                    .chain(args.into_iter().flatten())
                    .cloned()
                    .collect();
                Program::of_argv(&argv, &BTreeSet::new())
            }
        }
    }

    fn unmodelled() -> Program {
        Program {
            end: End::Never,
            files: Vec::new(),
            modelled: false,
        }
    }

    fn of_argv(argv: &[String], files: &BTreeSet<String>) -> Program {
        let mut run = Run {
            t: 0.0,
            files: files.clone(),
            ops: Vec::new(),
            status: 0,
            output: String::new(),
        };
        let outcome = match shell_script(argv) {
            Some(script) => tokenize(script).and_then(|cmds| run.script(&cmds)),
            None => run.simple(argv).map(|s| match s {
                Flow::Status(code) => Flow::Exit(code),
                other => other,
            }),
        };
        match outcome {
            None => Program::unmodelled(),
            Some(Flow::Forever) => Program {
                end: End::Never,
                files: run.ops,
                modelled: true,
            },
            Some(Flow::Exit(code) | Flow::Status(code)) => Program {
                end: End::Exit { after: run.t, code },
                files: run.ops,
                modelled: true,
            },
        }
    }

    /// Whether `path` exists `t` seconds after the process started.
    pub fn files_at(&self, t: f64) -> BTreeSet<String> {
        let mut set = BTreeSet::new();
        for op in self.files.iter().take_while(|op| op.at <= t) {
            if op.exists {
                set.insert(op.path.clone());
            } else {
                set.remove(&op.path);
            }
        }
        set
    }

    /// From this many seconds after its start the process's files no longer change.
    pub fn files_settle_at(&self) -> f64 {
        self.files.last().map_or(0.0, |op| op.at)
    }
}

/// What an exec probe found: success, or failure with the output the kubelet puts in its
/// Unhealthy event.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ProbeResult {
    Success,
    Failure(String),
}

/// Runs an exec probe's `command` against the container's `files`, as the kubelet's exec
/// prober does (`pkg/probe/exec`): exit 0 is success, another code failure with the command's
/// output, and a command still running after `timeoutSeconds` fails with `command "…" timed
/// out`.
pub(crate) fn exec_probe(
    command: &[String],
    files: &BTreeSet<String>,
    timeout: f64,
) -> ProbeResult {
    let mut run = Run {
        t: 0.0,
        files: files.clone(),
        ops: Vec::new(),
        status: 0,
        output: String::new(),
    };
    let outcome = match shell_script(command) {
        Some(script) => tokenize(script).and_then(|cmds| run.script(&cmds)),
        None => run.simple(command),
    };
    let timed_out = || ProbeResult::Failure(format!("command {:?} timed out", command.join(" ")));
    match outcome {
        None => ProbeResult::Success,
        Some(Flow::Forever) => timed_out(),
        Some(_) if run.t > timeout => timed_out(),
        Some(Flow::Exit(0) | Flow::Status(0)) => ProbeResult::Success,
        Some(Flow::Exit(_) | Flow::Status(_)) => ProbeResult::Failure(run.output),
    }
}

/// `sh -c SCRIPT …` (any of the usual shells, by path or name): the script.
fn shell_script(argv: &[String]) -> Option<&str> {
    let shell = basename(argv.first()?);
    if !matches!(shell, "sh" | "bash" | "ash" | "dash") {
        return None;
    }
    let mut rest = argv[1..].iter();
    loop {
        let a = rest.next()?;
        match a.as_str() {
            "-c" | "-ec" | "-ce" | "-xc" | "-cx" => return rest.next().map(String::as_str),
            "-e" | "-x" | "-eu" | "-u" => continue,
            _ => return None,
        }
    }
}

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// How a list of commands is joined.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Join {
    Seq,
    And,
    Or,
}

/// One simple command of a script, and how it joins the previous one.
#[derive(Debug, Clone, PartialEq)]
struct Cmd {
    join: Join,
    words: Vec<String>,
    /// `> FILE` / `>> FILE`: the file the command's output goes to.
    redirect: Option<String>,
}

/// Splits a script into simple commands. `None` for anything the model does not read: pipes,
/// background jobs, subshells, command substitution, loops and conditionals, here-documents.
fn tokenize(script: &str) -> Option<Vec<Cmd>> {
    let mut cmds = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut redirect: Option<String> = None;
    let mut want_redirect = false;
    let mut join = Join::Seq;
    let mut chars = script.chars().peekable();
    let finish_word = |word: &mut String,
                       in_word: &mut bool,
                       words: &mut Vec<String>,
                       want_redirect: &mut bool,
                       redirect: &mut Option<String>| {
        if *in_word {
            if *want_redirect {
                *redirect = Some(std::mem::take(word));
                *want_redirect = false;
            } else {
                words.push(std::mem::take(word));
            }
            *in_word = false;
        }
    };
    macro_rules! end_cmd {
        ($next:expr) => {{
            finish_word(
                &mut word,
                &mut in_word,
                &mut words,
                &mut want_redirect,
                &mut redirect,
            );
            if want_redirect {
                return None;
            }
            if !words.is_empty() {
                cmds.push(Cmd {
                    join,
                    words: std::mem::take(&mut words),
                    redirect: redirect.take(),
                });
            } else if $next != Join::Seq || redirect.is_some() {
                return None;
            }
            join = $next;
        }};
    }
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        ch => word.push(ch),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            ch @ ('"' | '\\' | '$' | '`') => word.push(ch),
                            '\n' => {}
                            ch => {
                                word.push('\\');
                                word.push(ch);
                            }
                        },
                        '$' | '`' => return None,
                        ch => word.push(ch),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next()? {
                    '\n' => {}
                    ch => word.push(ch),
                }
            }
            ' ' | '\t' => finish_word(
                &mut word,
                &mut in_word,
                &mut words,
                &mut want_redirect,
                &mut redirect,
            ),
            ';' | '\n' => end_cmd!(Join::Seq),
            '&' if chars.peek() == Some(&'&') => {
                chars.next();
                end_cmd!(Join::And)
            }
            '|' if chars.peek() == Some(&'|') => {
                chars.next();
                end_cmd!(Join::Or)
            }
            '>' => {
                finish_word(
                    &mut word,
                    &mut in_word,
                    &mut words,
                    &mut want_redirect,
                    &mut redirect,
                );
                if chars.peek() == Some(&'>') {
                    chars.next();
                }
                if chars.peek() == Some(&'&') {
                    return None;
                }
                want_redirect = true;
            }
            '#' if !in_word => {
                // A comment runs to the end of the line.
                for ch in chars.by_ref() {
                    if ch == '\n' {
                        break;
                    }
                }
                end_cmd!(Join::Seq)
            }
            '|' | '&' | '(' | ')' | '<' | '`' | '$' | '{' | '}' => return None,
            ch => {
                in_word = true;
                word.push(ch);
            }
        }
    }
    end_cmd!(Join::Seq);
    if join != Join::Seq {
        return None;
    }
    Some(cmds)
}

/// Where a command leaves the script.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Flow {
    /// It finished with this status; the script goes on.
    Status(i32),
    /// The process exits with this code.
    Exit(i32),
    /// It never returns.
    Forever,
}

/// The state of one modelled run: the clock since the start, the files, the file operations
/// so far, the last status and what was printed.
struct Run {
    t: f64,
    files: BTreeSet<String>,
    ops: Vec<FileOp>,
    status: i32,
    output: String,
}

impl Run {
    fn script(&mut self, cmds: &[Cmd]) -> Option<Flow> {
        for c in cmds {
            let skip = match c.join {
                Join::Seq => false,
                Join::And => self.status != 0,
                Join::Or => self.status == 0,
            };
            if skip {
                continue;
            }
            match self.simple(&c.words)? {
                Flow::Status(s) => self.status = s,
                end => return Some(end),
            }
            if let Some(f) = &c.redirect {
                self.set_file(f, true);
            }
        }
        Some(Flow::Exit(self.status))
    }

    fn set_file(&mut self, path: &str, exists: bool) {
        if exists {
            self.files.insert(path.to_string());
        } else {
            self.files.remove(path);
        }
        self.ops.push(FileOp {
            at: self.t,
            path: path.to_string(),
            exists,
        });
    }

    fn exists(&self, path: &str) -> bool {
        let scratch = ["/tmp/", "/run/", "/var/run/", "/dev/shm/"];
        self.files.contains(path) || !scratch.iter().any(|d| path.starts_with(d))
    }

    /// One simple command; `None` when it is not modelled.
    fn simple(&mut self, words: &[String]) -> Option<Flow> {
        let (name, args) = words.split_first()?;
        let name = basename(name);
        let operands: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
        match name {
            "sleep" => {
                if args.is_empty() {
                    return None;
                }
                let mut total = 0.0;
                for a in args {
                    if a == "infinity" || a == "inf" {
                        return Some(Flow::Forever);
                    }
                    total += sleep_seconds(a)?;
                }
                self.t += total;
                Some(Flow::Status(0))
            }
            "true" | ":" => Some(Flow::Status(0)),
            "false" => Some(Flow::Status(1)),
            "exit" => match args.first() {
                None => Some(Flow::Exit(self.status)),
                Some(n) => n.parse::<i64>().ok().map(|n| Flow::Exit((n & 0xff) as i32)),
            },
            "exec" => match self.simple(args)? {
                Flow::Status(s) => Some(Flow::Exit(s)),
                other => Some(other),
            },
            "echo" | "printf" | "date" | "hostname" | "env" | "set" | "trap" => {
                if matches!(name, "echo" | "printf") {
                    self.output.push_str(&args.join(" "));
                    self.output.push('\n');
                }
                Some(Flow::Status(0))
            }
            "touch" | "mkdir" if !operands.is_empty() => {
                for f in operands {
                    self.set_file(f, true);
                }
                Some(Flow::Status(0))
            }
            "rm" | "rmdir" if !operands.is_empty() => {
                let force = args.iter().any(|a| a.starts_with('-') && a.contains('f'));
                let mut status = 0;
                for f in operands {
                    if !self.exists(f) && !force {
                        self.output.push_str(&format!(
                            "rm: can't remove '{f}': No such file or directory\n"
                        ));
                        status = 1;
                    }
                    self.set_file(f, false);
                }
                Some(Flow::Status(status))
            }
            "cat" | "ls" if !operands.is_empty() => {
                let mut status = 0;
                for f in operands {
                    if !self.exists(f) {
                        let what = if name == "cat" {
                            "can't open"
                        } else {
                            "cannot access"
                        };
                        self.output.push_str(&format!(
                            "{name}: {what} '{f}': No such file or directory\n"
                        ));
                        status = 1;
                    }
                }
                Some(Flow::Status(status))
            }
            "test" | "[" => {
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let args = match (name, args.split_last()) {
                    ("[", Some((&"]", rest))) => rest.to_vec(),
                    ("[", _) => return None,
                    _ => args,
                };
                match args.as_slice() {
                    [op, f] if matches!(*op, "-e" | "-f" | "-d" | "-s") => {
                        Some(Flow::Status(i32::from(!self.exists(f))))
                    }
                    ["!", op, f] if matches!(*op, "-e" | "-f" | "-d" | "-s") => {
                        Some(Flow::Status(i32::from(self.exists(f))))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// GNU `sleep`'s argument: a non-negative number with an optional `s`, `m`, `h` or `d`.
fn sleep_seconds(a: &str) -> Option<f64> {
    let (num, unit) = match a.char_indices().last()? {
        (i, c @ ('s' | 'm' | 'h' | 'd')) => (&a[..i], c),
        _ => (a, 's'),
    };
    let n: f64 = num.parse().ok()?;
    if !n.is_finite() || n < 0.0 {
        return None;
    }
    let scale = match unit {
        'm' => 60.0,
        'h' => 3600.0,
        'd' => 86400.0,
        _ => 1.0,
    };
    Some(n * scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    fn container(words: &[&str]) -> Program {
        Program::of_container(Some(&argv(words)), None)
    }

    fn exit(after: f64, code: i32) -> End {
        End::Exit { after, code }
    }

    #[test]
    fn the_common_command_forms_exit_as_a_shell_would() {
        assert_eq!(container(&["sleep", "30"]).end, exit(30.0, 0));
        assert_eq!(container(&["sleep", "1m", "30"]).end, exit(90.0, 0));
        assert_eq!(container(&["/bin/sleep", "infinity"]).end, End::Never);
        assert_eq!(container(&["true"]).end, exit(0.0, 0));
        assert_eq!(container(&["false"]).end, exit(0.0, 1));
        assert_eq!(container(&["sh", "-c", "exit 1"]).end, exit(0.0, 1));
        assert_eq!(
            container(&["/bin/sh", "-c", "sleep 5; exit 3"]).end,
            exit(5.0, 3)
        );
        assert_eq!(
            container(&["sh", "-c", "echo starting; sleep 5; exit 3"]).end,
            exit(5.0, 3)
        );
        assert_eq!(
            container(&["sh", "-c", "sleep 2 && false"]).end,
            exit(2.0, 1)
        );
        assert_eq!(
            container(&["sh", "-c", "false || exit 7"]).end,
            exit(0.0, 7)
        );
        assert_eq!(
            container(&["sh", "-c", "true && sleep 1000000"]).end,
            exit(1e6, 0)
        );
        assert_eq!(
            container(&["bash", "-c", "exec sleep 10"]).end,
            exit(10.0, 0)
        );
        assert_eq!(container(&["sh", "-c", "exit 256"]).end, exit(0.0, 0));
    }

    #[test]
    fn args_follow_the_command_and_an_image_entrypoint_runs_forever() {
        let p = Program::of_container(Some(&argv(&["sh", "-c"])), Some(&argv(&["exit 2"])));
        assert_eq!(p.end, exit(0.0, 2));
        assert_eq!(Program::of_container(None, None).end, End::Never);
        assert_eq!(
            Program::of_container(None, Some(&argv(&["--v=2"]))).end,
            End::Never
        );
    }

    #[test]
    fn what_the_model_cannot_read_runs_forever() {
        for words in [
            &["/agent", "--config=/etc/agent.yaml"][..],
            &["sh", "-c", "while true; do sleep 1; done"],
            &["sh", "-c", "tail -f /dev/null"],
            &["sh", "-c", "echo $(date) | tee /tmp/x"],
            &["sh", "-c", "sleep 5 &"],
            &["sh", "-c", "exit 'unterminated"],
            &["sh", "-c", "sleep"],
            &["sh", "-c", "sleep -1"],
            &["python", "-c", "exit(1)"],
        ] {
            let p = container(words);
            assert_eq!(p.end, End::Never, "{words:?}");
            assert!(!p.modelled, "{words:?}");
        }
    }

    #[test]
    fn files_created_and_removed_are_on_the_process_clock() {
        // The liveness example of the Kubernetes docs.
        let p = container(&[
            "/bin/sh",
            "-c",
            "touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600",
        ]);
        assert_eq!(p.end, exit(630.0, 0));
        assert!(p.files_at(10.0).contains("/tmp/healthy"));
        assert!(!p.files_at(30.0).contains("/tmp/healthy"));
        assert_eq!(p.files_settle_at(), 30.0);
        let p = container(&["sh", "-c", "sleep 3; echo ok > /tmp/ready; sleep infinity"]);
        assert_eq!(p.end, End::Never);
        assert!(!p.files_at(2.9).contains("/tmp/ready"));
        assert!(p.files_at(3.0).contains("/tmp/ready"));
    }

    #[test]
    fn exec_probes_see_the_containers_files_and_honour_the_timeout() {
        let none = BTreeSet::new();
        let healthy: BTreeSet<String> = ["/tmp/healthy".to_string()].into();
        let cat = argv(&["cat", "/tmp/healthy"]);
        assert_eq!(exec_probe(&cat, &healthy, 1.0), ProbeResult::Success);
        assert_eq!(
            exec_probe(&cat, &none, 1.0),
            ProbeResult::Failure(
                "cat: can't open '/tmp/healthy': No such file or directory\n".into()
            )
        );
        assert_eq!(
            exec_probe(&argv(&["false"]), &none, 1.0),
            ProbeResult::Failure(String::new())
        );
        assert_eq!(
            exec_probe(&argv(&["true"]), &none, 1.0),
            ProbeResult::Success
        );
        assert_eq!(
            exec_probe(&argv(&["sh", "-c", "test -f /tmp/healthy"]), &none, 1.0),
            ProbeResult::Failure(String::new())
        );
        assert_eq!(
            exec_probe(&argv(&["sleep", "5"]), &none, 1.0),
            ProbeResult::Failure("command \"sleep 5\" timed out".into())
        );
        assert_eq!(
            exec_probe(&argv(&["sleep", "5"]), &none, 10.0),
            ProbeResult::Success
        );
        // A file of the image is there; a probe the model cannot read passes.
        assert_eq!(
            exec_probe(&argv(&["cat", "/etc/hostname"]), &none, 1.0),
            ProbeResult::Success
        );
        assert_eq!(
            exec_probe(&argv(&["/healthz"]), &none, 1.0),
            ProbeResult::Success
        );
    }
}
