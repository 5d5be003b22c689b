//! The command line: subcommands, flags and help texts (DESIGN §4.2). Parses with std only;
//! every mistake becomes a [`CliError`] with a hint, never a panic.

use std::ffi::OsString;

use crate::CliError;

/// How `dsplay run` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    Text,
    Json,
}

/// A parsed command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `dsplay --help`, `dsplay help [SUBCOMMAND]`, `dsplay SUBCOMMAND --help`.
    Help(Option<&'static str>),
    Version,
    Run {
        file: String,
        until_settled: bool,
        trace: Option<String>,
        output: OutputFormat,
    },
    Test {
        paths: Vec<String>,
    },
    Explain {
        file: String,
        node: String,
    },
    ExportKind {
        file: String,
        out: Option<String>,
    },
}

const SUBCOMMANDS: &[&str] = &["run", "test", "explain", "export", "help", "version"];

pub const MAIN_HELP: &str = "\
dsplay: run DaemonSet Playground scenario files on the virtual cluster

Usage:
  dsplay run FILE [--until-settled] [--trace FILE.jsonl] [--output text|json]
  dsplay test DIR|FILE...
  dsplay explain FILE NODE
  dsplay export kind FILE [--out DIR]
  dsplay help [COMMAND]
  dsplay --version

Exit codes: 0 ok, 1 an expectation failed, 2 bad input.
Run `dsplay help COMMAND` for the details of one command.
";

const RUN_HELP: &str = "\
Usage: dsplay run FILE [--until-settled] [--trace FILE.jsonl] [--output text|json]

Runs the scenario's script on the virtual cluster and prints what each line printed.

Options:
  --until-settled        keep simulating after the last line until nothing is in flight
  --trace FILE.jsonl     write the cluster trace as JSON lines (one change per line)
  --output text|json     text: a terminal transcript (default);
                         json: one array of {\"t\", \"command\", \"output\", \"ok\"}

Exit codes: 0 ok, 1 an expect: line did not hold, 2 bad input.
";

const TEST_HELP: &str = "\
Usage: dsplay test DIR|FILE...

Runs every scenario's expect: lines (a DIR means every *.yaml in it, sorted), prints one
line per failed expectation and ends with `N passed, N failed`.

Exit codes: 0 every expectation held, 1 one failed, 2 bad input.
";

const EXPLAIN_HELP: &str = "\
Usage: dsplay explain FILE NODE

Runs the scenario's script, then for each DaemonSet says whether NODE gets a daemon pod and
why: every check (rule id, subject, pass/fail, detail) and a summary.

Exit codes: 0 ok, 2 bad input (unknown node, bad file).
";

const EXPORT_HELP: &str = "\
Usage: dsplay export kind FILE [--out DIR]

Writes what it takes to replay the scenario on a real kind cluster:
  kind-config.yaml   one kind node per scenario node, with its labels and taints
  <files>            the scenario's manifests
  replay.sh          the script as bash: kubectl lines, sleeps, expect: checks;
                     simulator-only verbs become comments saying what to do by hand
Without --out, prints them to stdout, each after a `==> NAME <==` header.

  kind create cluster --config kind-config.yaml && ./replay.sh
";

const VERSION_HELP: &str = "Usage: dsplay --version\n\nPrints the version.\n";

/// The help text of a subcommand (or the overview).
pub fn help_text(sub: Option<&str>) -> &'static str {
    match sub {
        Some("run") => RUN_HELP,
        Some("test") => TEST_HELP,
        Some("explain") => EXPLAIN_HELP,
        Some("export") => EXPORT_HELP,
        Some("version") => VERSION_HELP,
        _ => MAIN_HELP,
    }
}

fn static_sub(s: &str) -> Option<&'static str> {
    SUBCOMMANDS.iter().copied().find(|c| *c == s)
}

/// Levenshtein distance, for "did you mean" hints.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The closest of `options` to `word`, if it is a plausible typo.
pub fn closest<'a>(word: &str, options: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    options
        .into_iter()
        .map(|o| (edit_distance(word, o), o))
        .filter(|(d, o)| *d <= 2.max(o.len() / 4))
        .min()
        .map(|(_, o)| o)
}

/// A flag a subcommand accepts.
struct FlagSpec {
    name: &'static str,
    takes_value: bool,
}

/// Positionals and flags of one subcommand's arguments.
struct Parsed {
    positionals: Vec<String>,
    flags: Vec<(&'static str, Option<String>)>,
    help: bool,
}

fn parse_flags(sub: &'static str, args: &[String], specs: &[FlagSpec]) -> Result<Parsed, CliError> {
    let mut out = Parsed {
        positionals: Vec::new(),
        flags: Vec::new(),
        help: false,
    };
    let mut i = 0;
    let mut only_positionals = false;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if only_positionals || a == "-" || !a.starts_with('-') {
            out.positionals.push(a.clone());
            continue;
        }
        if a == "--" {
            only_positionals = true;
            continue;
        }
        if a == "-h" || a == "--help" {
            out.help = true;
            continue;
        }
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (a.as_str(), None),
        };
        let Some(spec) = specs.iter().find(|s| s.name == name) else {
            let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
            let hint = match closest(name, known.iter().copied()) {
                Some(k) => format!("did you mean {k}? See `dsplay help {sub}`"),
                None if known.is_empty() => format!("`dsplay {sub}` takes no flags"),
                None => format!(
                    "`dsplay {sub}` accepts {}; see `dsplay help {sub}`",
                    known.join(", ")
                ),
            };
            return Err(
                CliError::new(format!("unknown flag {name} for `dsplay {sub}`")).hint(hint),
            );
        };
        let value = if spec.takes_value {
            match inline {
                Some(v) => Some(v),
                None => match args.get(i) {
                    Some(v) => {
                        i += 1;
                        Some(v.clone())
                    }
                    None => {
                        return Err(CliError::new(format!("flag {name} needs a value"))
                            .hint(format!("see `dsplay help {sub}`")))
                    }
                },
            }
        } else {
            if inline.is_some() {
                return Err(CliError::new(format!("flag {name} takes no value"))
                    .hint(format!("write {name} alone")));
            }
            None
        };
        out.flags.push((spec.name, value));
    }
    Ok(out)
}

fn usage_error(sub: &'static str, message: impl Into<String>) -> CliError {
    let usage = help_text(Some(sub))
        .lines()
        .next()
        .unwrap_or("")
        .to_string();
    CliError::new(message).hint(usage)
}

/// Parses the arguments after the program name.
pub fn parse(args: Vec<OsString>) -> Result<Command, CliError> {
    let args: Vec<String> = args
        .into_iter()
        .map(|a| {
            a.into_string().map_err(|a| {
                CliError::new(format!("argument {a:?} is not valid UTF-8"))
                    .hint("rename the file or pass a path in UTF-8")
            })
        })
        .collect::<Result<_, _>>()?;
    let Some((first, rest)) = args.split_first() else {
        return Err(CliError::new("no command given").hint("try `dsplay --help`"));
    };
    match first.as_str() {
        "-h" | "--help" => Ok(Command::Help(None)),
        "-V" | "--version" | "version" => Ok(Command::Version),
        "help" => match rest {
            [] => Ok(Command::Help(None)),
            [sub] => match static_sub(sub) {
                Some(s) => Ok(Command::Help(Some(s))),
                None => Err(unknown_subcommand(sub)),
            },
            _ => Err(usage_error("help", "help takes one command name")),
        },
        "run" => parse_run(rest),
        "test" => {
            let p = parse_flags("test", rest, &[])?;
            if p.help {
                return Ok(Command::Help(Some("test")));
            }
            if p.positionals.is_empty() {
                return Err(usage_error(
                    "test",
                    "`dsplay test` needs at least one DIR or FILE",
                ));
            }
            Ok(Command::Test {
                paths: p.positionals,
            })
        }
        "explain" => {
            let p = parse_flags("explain", rest, &[])?;
            if p.help {
                return Ok(Command::Help(Some("explain")));
            }
            match <[String; 2]>::try_from(p.positionals) {
                Ok([file, node]) => Ok(Command::Explain { file, node }),
                Err(got) => Err(usage_error(
                    "explain",
                    format!(
                        "`dsplay explain` takes FILE and NODE, got {} argument(s)",
                        got.len()
                    ),
                )),
            }
        }
        "export" => {
            let p = parse_flags(
                "export",
                rest,
                &[FlagSpec {
                    name: "--out",
                    takes_value: true,
                }],
            )?;
            if p.help {
                return Ok(Command::Help(Some("export")));
            }
            let out = p.flags.into_iter().find_map(|(_, v)| v);
            match p.positionals.as_slice() {
                [target, file] if target == "kind" => Ok(Command::ExportKind {
                    file: file.clone(),
                    out,
                }),
                [target, _] => Err(CliError::new(format!("unknown export target {target:?}"))
                    .hint("the only target is kind: `dsplay export kind FILE [--out DIR]`")),
                _ => Err(usage_error(
                    "export",
                    "`dsplay export` takes a target and a FILE",
                )),
            }
        }
        other if other.starts_with('-') => Err(CliError::new(format!("unknown flag {other}"))
            .hint("flags come after the command, e.g. `dsplay run FILE --output json`; see `dsplay --help`")),
        other => Err(unknown_subcommand(other)),
    }
}

fn unknown_subcommand(word: &str) -> CliError {
    let hint = match closest(word, SUBCOMMANDS.iter().copied()) {
        Some(c) => format!("did you mean `dsplay {c}`? See `dsplay --help`"),
        None => format!("commands: {}", SUBCOMMANDS.join(", ")),
    };
    CliError::new(format!("unknown command {word:?}")).hint(hint)
}

fn parse_run(rest: &[String]) -> Result<Command, CliError> {
    let p = parse_flags(
        "run",
        rest,
        &[
            FlagSpec {
                name: "--until-settled",
                takes_value: false,
            },
            FlagSpec {
                name: "--trace",
                takes_value: true,
            },
            FlagSpec {
                name: "--output",
                takes_value: true,
            },
        ],
    )?;
    if p.help {
        return Ok(Command::Help(Some("run")));
    }
    let mut until_settled = false;
    let mut trace = None;
    let mut output = OutputFormat::Text;
    for (name, value) in p.flags {
        match (name, value) {
            ("--until-settled", _) => until_settled = true,
            ("--trace", Some(v)) => trace = Some(v),
            ("--output", Some(v)) => {
                output = match v.as_str() {
                    "text" => OutputFormat::Text,
                    "json" => OutputFormat::Json,
                    other => {
                        return Err(CliError::new(format!("unknown output format {other:?}"))
                            .hint("use --output text or --output json"))
                    }
                }
            }
            _ => {}
        }
    }
    match <[String; 1]>::try_from(p.positionals) {
        Ok([file]) => Ok(Command::Run {
            file,
            until_settled,
            trace,
            output,
        }),
        Err(got) => Err(usage_error(
            "run",
            format!("`dsplay run` takes one FILE, got {} argument(s)", got.len()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Command, CliError> {
        parse(args.iter().map(OsString::from).collect())
    }

    #[test]
    fn run_flags_in_either_form() {
        assert_eq!(
            p(&[
                "run",
                "a.yaml",
                "--trace=t.jsonl",
                "--output",
                "json",
                "--until-settled"
            ])
            .ok(),
            Some(Command::Run {
                file: "a.yaml".into(),
                until_settled: true,
                trace: Some("t.jsonl".into()),
                output: OutputFormat::Json,
            })
        );
    }

    #[test]
    fn typo_in_a_flag_suggests_the_flag() {
        let e = p(&["run", "a.yaml", "--trcae", "x"])
            .err()
            .map(|e| e.to_string());
        assert!(e.is_some_and(|e| e.contains("did you mean --trace")));
    }

    #[test]
    fn typo_in_a_command_suggests_the_command() {
        let e = p(&["tset", "x"]).err().map(|e| e.to_string());
        assert!(e.is_some_and(|e| e.contains("dsplay test")));
    }

    #[test]
    fn help_forms() {
        assert_eq!(p(&["help", "run"]).ok(), Some(Command::Help(Some("run"))));
        assert_eq!(p(&["run", "--help"]).ok(), Some(Command::Help(Some("run"))));
        assert_eq!(p(&["--help"]).ok(), Some(Command::Help(None)));
        assert_eq!(p(&["--version"]).ok(), Some(Command::Version));
    }
}
