//! Command lines → [`Command`]: shell-like word splitting, kubectl's verbs and pflag's flag
//! syntax (`-n x`, `-nx`, `--namespace=x`, `-ojsonpath=…`, `--cascade` with an optional value).
//!
//! Knows nothing of the API or of what the commands do; it only recognises them.

use std::collections::BTreeMap;
use std::fmt;

/// A command line that kubectl would reject before talking to the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// What kubectl prints on stderr (may span lines, no trailing newline).
    pub message: String,
    /// How to fix it, for a learner.
    pub hint: Option<String>,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

impl ParseError {
    pub(crate) fn new(message: impl Into<String>) -> ParseError {
        ParseError {
            message: message.into(),
            hint: None,
        }
    }

    pub(crate) fn hint(mut self, hint: impl Into<String>) -> ParseError {
        self.hint = Some(hint.into());
        self
    }
}

/// The kubectl commands this crate runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Get,
    Describe,
    Apply,
    Create,
    Delete,
    Label,
    Taint,
    Cordon,
    Uncordon,
    Drain,
    SetImage,
    SetEnv,
    Patch,
    RolloutStatus,
    RolloutHistory,
    RolloutUndo,
    RolloutRestart,
    RolloutPause,
    RolloutResume,
}

impl Verb {
    /// `kubectl rollout status`, as cobra names it in usage messages.
    pub fn path(self) -> &'static str {
        match self {
            Verb::Get => "kubectl get",
            Verb::Describe => "kubectl describe",
            Verb::Apply => "kubectl apply",
            Verb::Create => "kubectl create",
            Verb::Delete => "kubectl delete",
            Verb::Label => "kubectl label",
            Verb::Taint => "kubectl taint",
            Verb::Cordon => "kubectl cordon",
            Verb::Uncordon => "kubectl uncordon",
            Verb::Drain => "kubectl drain",
            Verb::SetImage => "kubectl set image",
            Verb::SetEnv => "kubectl set env",
            Verb::Patch => "kubectl patch",
            Verb::RolloutStatus => "kubectl rollout status",
            Verb::RolloutHistory => "kubectl rollout history",
            Verb::RolloutUndo => "kubectl rollout undo",
            Verb::RolloutRestart => "kubectl rollout restart",
            Verb::RolloutPause => "kubectl rollout pause",
            Verb::RolloutResume => "kubectl rollout resume",
        }
    }

    fn flags(self) -> &'static [Flag] {
        match self {
            Verb::Get => {
                const F: &[Flag] = &[
                    Flag::value("output", 'o'),
                    Flag::value("selector", 'l'),
                    Flag::value("field-selector", ' '),
                    Flag::bool("all-namespaces", 'A'),
                    Flag::bool("show-labels", ' '),
                    Flag::bool("no-headers", ' '),
                    Flag::value("sort-by", ' '),
                    Flag::bool("watch", 'w'),
                ];
                F
            }
            Verb::Describe => {
                const F: &[Flag] = &[
                    Flag::value("selector", 'l'),
                    Flag::bool("all-namespaces", 'A'),
                    Flag::bool("show-events", ' '),
                ];
                F
            }
            Verb::Apply | Verb::Create => {
                const F: &[Flag] = &[Flag::value("filename", 'f')];
                F
            }
            Verb::Delete => {
                const F: &[Flag] = &[
                    Flag::optional("cascade", "background"),
                    Flag::bool("all", ' '),
                    Flag::value("filename", 'f'),
                    Flag::value("selector", 'l'),
                    Flag::value("field-selector", ' '),
                    Flag::bool("wait", ' '),
                    Flag::bool("now", ' '),
                    Flag::bool("force", ' '),
                    Flag::bool("ignore-not-found", ' '),
                    Flag::value("grace-period", ' '),
                ];
                F
            }
            Verb::Label | Verb::Taint => {
                const F: &[Flag] = &[Flag::bool("overwrite", ' ')];
                F
            }
            Verb::Cordon
            | Verb::Uncordon
            | Verb::RolloutRestart
            | Verb::RolloutPause
            | Verb::RolloutResume => {
                const F: &[Flag] = &[];
                F
            }
            Verb::Drain => {
                const F: &[Flag] = &[
                    Flag::bool("ignore-daemonsets", ' '),
                    Flag::bool("delete-emptydir-data", ' '),
                    Flag::bool("force", ' '),
                    Flag::value("grace-period", ' '),
                    Flag::value("timeout", ' '),
                ];
                F
            }
            Verb::SetImage => {
                const F: &[Flag] = &[];
                F
            }
            Verb::SetEnv => {
                const F: &[Flag] = &[Flag::value("container", 'c')];
                F
            }
            Verb::Patch => {
                const F: &[Flag] = &[Flag::value("patch", 'p'), Flag::value("type", ' ')];
                F
            }
            Verb::RolloutStatus => {
                const F: &[Flag] = &[
                    Flag::bool("watch", 'w'),
                    Flag::value("timeout", ' '),
                    Flag::value("revision", ' '),
                ];
                F
            }
            Verb::RolloutHistory => {
                const F: &[Flag] = &[Flag::value("revision", ' ')];
                F
            }
            Verb::RolloutUndo => {
                const F: &[Flag] = &[Flag::value("to-revision", ' ')];
                F
            }
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Arity {
    Bool,
    Value,
    /// pflag's `NoOptDefVal`: `--cascade` alone means `--cascade=background`.
    Optional(&'static str),
}

#[derive(Debug, Clone, Copy)]
struct Flag {
    long: &'static str,
    short: char,
    arity: Arity,
}

impl Flag {
    const fn value(long: &'static str, short: char) -> Flag {
        Flag {
            long,
            short,
            arity: Arity::Value,
        }
    }
    const fn bool(long: &'static str, short: char) -> Flag {
        Flag {
            long,
            short,
            arity: Arity::Bool,
        }
    }
    const fn optional(long: &'static str, default: &'static str) -> Flag {
        Flag {
            long,
            short: ' ',
            arity: Arity::Optional(default),
        }
    }
}

/// Flags every command accepts.
const GLOBAL_FLAGS: &[Flag] = &[Flag::value("namespace", 'n')];

/// A recognised command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    pub verb: Verb,
    /// Positional arguments after the verb.
    pub args: Vec<String>,
    /// Flag values by long name, in the order given (bools are `"true"`/`"false"`).
    pub flags: BTreeMap<String, Vec<String>>,
}

impl Command {
    /// The last value of a flag.
    pub fn flag(&self, long: &str) -> Option<&str> {
        self.flags
            .get(long)
            .and_then(|v| v.last())
            .map(String::as_str)
    }

    /// Every value of a repeatable flag (`-f a -f b`).
    pub fn flag_all(&self, long: &str) -> &[String] {
        self.flags.get(long).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Whether a boolean flag is set (and not set to false).
    pub fn is_set(&self, long: &str) -> bool {
        self.flag(long).is_some_and(|v| v != "false")
    }

    /// `-n`, or `default`.
    pub fn namespace(&self) -> &str {
        self.flag("namespace").unwrap_or("default")
    }
}

/// Splits a line into words as a POSIX shell would (quotes and backslashes; no expansion).
pub fn split_words(line: &str) -> Result<Vec<String>, ParseError> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err(unterminated('\'')),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => cur.push(c),
                            Some('\n') => {}
                            Some(c) => {
                                cur.push('\\');
                                cur.push(c);
                            }
                            None => return Err(unterminated('"')),
                        },
                        Some(c) => cur.push(c),
                        None => return Err(unterminated('"')),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some('\n') | None => {}
                    Some(c) => cur.push(c),
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

/// One word as a shell line carries it, for [`split_words`] to read back unchanged: as it is
/// when it holds only characters no shell treats specially, else in single quotes (a `'` in
/// it written `'\''`). The web app's edits write their commands with it, so any name or label
/// a user types reaches the API server as typed, and is refused there with its message.
pub fn shell_quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,@%+^".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

fn unterminated(q: char) -> ParseError {
    ParseError::new(format!("error: unterminated quoted string (missing {q})")).hint(format!(
        "close the {q} quote, or escape it with a backslash"
    ))
}

/// Commands real kubectl has that the playground does not run.
const OTHER_KUBECTL_COMMANDS: &[&str] = &[
    "annotate",
    "api-resources",
    "api-versions",
    "attach",
    "auth",
    "autoscale",
    "certificate",
    "cluster-info",
    "completion",
    "config",
    "cp",
    "debug",
    "diff",
    "edit",
    "events",
    "exec",
    "explain",
    "expose",
    "kustomize",
    "logs",
    "plugin",
    "port-forward",
    "proxy",
    "replace",
    "run",
    "scale",
    "top",
    "version",
    "wait",
];

const COMMANDS: &[&str] = &[
    "apply", "cordon", "create", "delete", "describe", "drain", "get", "label", "patch", "rollout",
    "set", "taint", "uncordon",
];

/// Parses a command line (with or without the leading `kubectl`).
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let words = split_words(line)?;
    let mut words: &[String] = &words;
    if words.first().is_some_and(|w| w == "kubectl") {
        words = &words[1..];
    }
    // Global flags may come before the verb (`kubectl -n x get ds`).
    let mut leading = Vec::new();
    while let Some(w) = words.first() {
        if w == "-n" || w == "--namespace" {
            let Some(v) = words.get(1) else {
                return Err(needs_argument("namespace", 'n', w.starts_with("--"), None));
            };
            leading.push(format!("--namespace={v}"));
            words = &words[2..];
        } else if let Some(v) = w.strip_prefix("--namespace=").or(w.strip_prefix("-n")) {
            leading.push(format!("--namespace={}", v.trim_start_matches('=')));
            words = &words[1..];
        } else {
            break;
        }
    }
    let Some(first) = words.first() else {
        return Err(ParseError::new("error: no command given").hint(
            "try `kubectl get ds`, `kubectl get pods -o wide` or `kubectl describe ds NAME`",
        ));
    };
    let (verb, rest) = match first.as_str() {
        "get" => (Verb::Get, &words[1..]),
        "describe" => (Verb::Describe, &words[1..]),
        "apply" => (Verb::Apply, &words[1..]),
        "create" => (Verb::Create, &words[1..]),
        "delete" => (Verb::Delete, &words[1..]),
        "label" => (Verb::Label, &words[1..]),
        "taint" => (Verb::Taint, &words[1..]),
        "cordon" => (Verb::Cordon, &words[1..]),
        "uncordon" => (Verb::Uncordon, &words[1..]),
        "drain" => (Verb::Drain, &words[1..]),
        "patch" => (Verb::Patch, &words[1..]),
        "set" => match words.get(1).map(String::as_str) {
            Some("image") => (Verb::SetImage, &words[2..]),
            Some("env") => (Verb::SetEnv, &words[2..]),
            Some(other) if !other.starts_with('-') => {
                return Err(unknown_command(other, "kubectl set", &["image", "env"]))
            }
            _ => {
                return Err(ParseError::new("error: you must specify a subcommand of \"kubectl set\"")
                    .hint("the playground supports `kubectl set image ds/NAME CONTAINER=IMAGE` and `kubectl set env ds/NAME KEY=VALUE`"))
            }
        },
        "rollout" => match words.get(1).map(String::as_str) {
            Some("status") => (Verb::RolloutStatus, &words[2..]),
            Some("history") => (Verb::RolloutHistory, &words[2..]),
            Some("undo") => (Verb::RolloutUndo, &words[2..]),
            Some("restart") => (Verb::RolloutRestart, &words[2..]),
            Some("pause") => (Verb::RolloutPause, &words[2..]),
            Some("resume") => (Verb::RolloutResume, &words[2..]),
            Some(other) if !other.starts_with('-') => {
                return Err(unknown_command(
                    other,
                    "kubectl rollout",
                    &["history", "pause", "restart", "resume", "status", "undo"],
                ))
            }
            _ => {
                return Err(ParseError::new("error: you must specify a subcommand of \"kubectl rollout\"")
                    .hint("the playground supports `kubectl rollout status|history|undo|restart ds/NAME`"))
            }
        },
        other if OTHER_KUBECTL_COMMANDS.contains(&other) || other == "pause" => {
            return Err(ParseError::new(format!(
                "error: \"kubectl {other}\" is not available in this playground"
            ))
            .hint(format!("supported commands: {}", COMMANDS.join(", "))))
        }
        other if other.starts_with('-') => {
            return Err(ParseError::new(format!("error: unknown flag: {other}"))
                .hint("flags go after the command, e.g. `kubectl get pods -o wide`"))
        }
        other => return Err(unknown_command(other, "kubectl", COMMANDS)),
    };
    let mut cmd = parse_flags(verb, rest)?;
    for l in leading {
        if let Some(v) = l.strip_prefix("--namespace=") {
            cmd.flags
                .entry("namespace".into())
                .or_default()
                .insert(0, v.to_string());
        }
    }
    Ok(cmd)
}

fn unknown_command(word: &str, parent: &str, known: &[&str]) -> ParseError {
    let suggestions: Vec<&&str> = known
        .iter()
        .filter(|k| {
            k8s_base::typo::edit_distance(k, word) <= 2 || (word.len() > 1 && k.starts_with(word))
        })
        .collect();
    let mut message = format!("error: unknown command {word:?} for {parent:?}");
    if !suggestions.is_empty() {
        message.push_str("\n\nDid you mean this?");
        for s in &suggestions {
            message.push_str("\n\t");
            message.push_str(s);
        }
    }
    ParseError::new(message).hint(format!("`{parent}` understands: {}", known.join(", ")))
}

/// The line cobra adds under a flag error (`templater.FlagErrorFunc`).
pub(crate) fn usage(verb: Verb) -> String {
    format!("See '{} --help' for usage.", verb.path())
}

fn needs_argument(long: &str, short: char, was_long: bool, verb: Option<Verb>) -> ParseError {
    let what = if was_long {
        format!("--{long}")
    } else {
        format!("'{short}' in -{short}")
    };
    let mut message = format!("error: flag needs an argument: {what}");
    if let Some(v) = verb {
        message.push('\n');
        message.push_str(&usage(v));
    }
    ParseError::new(message).hint(format!("give a value: --{long}=VALUE"))
}

fn parse_flags(verb: Verb, words: &[String]) -> Result<Command, ParseError> {
    let table: Vec<Flag> = verb
        .flags()
        .iter()
        .chain(GLOBAL_FLAGS.iter())
        .copied()
        .collect();
    let mut args = Vec::new();
    let mut flags: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        i += 1;
        if w == "--" {
            args.extend(words[i..].iter().cloned());
            break;
        }
        if let Some(body) = w.strip_prefix("--") {
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (body, None),
            };
            let Some(flag) = table.iter().find(|f| f.long == name) else {
                return Err(unknown_flag(verb, &format!("--{name}")));
            };
            let value = match (flag.arity, inline) {
                (_, Some(v)) => v.to_string(),
                (Arity::Bool, None) => "true".to_string(),
                (Arity::Optional(d), None) => d.to_string(),
                (Arity::Value, None) => match words.get(i) {
                    Some(v) => {
                        i += 1;
                        v.clone()
                    }
                    None => return Err(needs_argument(flag.long, flag.short, true, Some(verb))),
                },
            };
            if matches!(flag.arity, Arity::Bool) && value != "true" && value != "false" {
                return Err(ParseError::new(format!(
                    "error: invalid argument {value:?} for \"--{}\" flag: strconv.ParseBool: parsing {value:?}: invalid syntax\n{}",
                    flag.long,
                    usage(verb)
                )));
            }
            flags.entry(flag.long.to_string()).or_default().push(value);
        } else if w.len() > 1 && w.starts_with('-') {
            // A group of shorthands: `-A`, `-owide`, `-o=wide`, `-n x`.
            let mut rest = &w[1..];
            while let Some(c) = rest.chars().next() {
                rest = &rest[c.len_utf8()..];
                let Some(flag) = table.iter().find(|f| f.short == c && c != ' ') else {
                    return Err(ParseError::new(format!(
                        "error: unknown shorthand flag: '{c}' in {w}\n{}",
                        usage(verb)
                    ))
                    .hint(flag_hint(verb)));
                };
                match flag.arity {
                    Arity::Bool | Arity::Optional(_) => {
                        let v = match rest.strip_prefix('=') {
                            Some(v) => {
                                let v = v.to_string();
                                rest = "";
                                v
                            }
                            None => "true".to_string(),
                        };
                        flags.entry(flag.long.to_string()).or_default().push(v);
                    }
                    Arity::Value => {
                        let v = if !rest.is_empty() {
                            let v = rest.strip_prefix('=').unwrap_or(rest).to_string();
                            rest = "";
                            v
                        } else {
                            match words.get(i) {
                                Some(v) => {
                                    i += 1;
                                    v.clone()
                                }
                                None => {
                                    return Err(needs_argument(
                                        flag.long,
                                        flag.short,
                                        false,
                                        Some(verb),
                                    ))
                                }
                            }
                        };
                        flags.entry(flag.long.to_string()).or_default().push(v);
                    }
                }
            }
        } else {
            args.push(w.clone());
        }
    }
    Ok(Command { verb, args, flags })
}

fn unknown_flag(verb: Verb, flag: &str) -> ParseError {
    ParseError::new(format!("error: unknown flag: {flag}\n{}", usage(verb))).hint(flag_hint(verb))
}

fn flag_hint(verb: Verb) -> String {
    let names: Vec<String> = verb
        .flags()
        .iter()
        .chain(GLOBAL_FLAGS.iter())
        .map(|f| {
            if f.short == ' ' {
                format!("--{}", f.long)
            } else {
                format!("-{}/--{}", f.short, f.long)
            }
        })
        .collect();
    format!("`{}` here understands: {}", verb.path(), names.join(", "))
}
