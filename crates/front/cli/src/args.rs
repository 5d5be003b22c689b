//! The command line: subcommands, flags and help texts (DESIGN §4.2). `lexopt` splits the
//! arguments into flags, their values and positionals; which flags a subcommand takes, and every
//! message, hint and usage line, are ours. Every mistake becomes a [`CliError`] with a hint,
//! never a panic.

use std::ffi::OsString;

use lexopt::Arg;

use crate::commands::NodesArg;
use crate::CliError;

/// How `dsplay run` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    Text,
    Json,
}

/// A parsed command line.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `dsplay --help`, `dsplay help [SUBCOMMAND]`, `dsplay SUBCOMMAND --help`.
    Help(Option<&'static str>),
    Version,
    Run {
        file: String,
        until_settled: bool,
        trace: Option<String>,
        output: OutputFormat,
        nodes: NodesArg,
    },
    Test {
        paths: Vec<String>,
        nodes: NodesArg,
    },
    Explain {
        file: String,
        node: String,
        nodes: NodesArg,
    },
    ExportKind {
        file: String,
        out: Option<String>,
        nodes: NodesArg,
    },
    /// The scenario as a YAML file (after `--nodes`): what the app's "Download" gives.
    ExportYaml {
        file: String,
        nodes: NodesArg,
    },
    Share {
        file: String,
        at: Option<f64>,
        base: String,
        nodes: NodesArg,
    },
    /// Link lengths of scenario files, or of the built-in presets when none is given.
    ShareTable {
        paths: Vec<String>,
    },
    Open {
        link: String,
    },
    /// `dsplay new lesson NAME|PATH.yaml`: a commented example lesson to start from.
    NewLesson {
        target: String,
    },
    /// `dsplay predict FILE [--nodes N]`: the rollout simulated per update strategy.
    Predict {
        file: String,
        /// `--nodes N`: the cluster grown or cut to N nodes first.
        count: Option<usize>,
        nodes: NodesArg,
    },
    /// A read-only Kubernetes API over the cluster the script leaves (or the one at `at`).
    ServeApi {
        file: String,
        at: Option<f64>,
        port: u16,
        nodes: NodesArg,
    },
}

const SUBCOMMANDS: &[&str] = &[
    "run",
    "test",
    "explain",
    "export",
    "share",
    "open",
    "serve-api",
    "predict",
    "new",
    "help",
    "version",
];

/// The help lines of `--nodes` / `--add-nodes` (a macro: `concat!` takes only literals).
macro_rules! nodes_help {
    () => {
        "  --nodes NODES.yaml     replace the scenario's nodes with a real cluster's: the output of
                         `kubectl get nodes -o yaml` or `-o json`, or Node manifests (name,
                         labels, taints, capacity, allocatable, conditions, cordon are kept)
  --add-nodes NODES.yaml add such nodes to the scenario's own
"
    };
}

pub const MAIN_HELP: &str = "\
dsplay: run DaemonSet Playground scenario files on the virtual cluster

Usage:
  dsplay run FILE [--until-settled] [--trace FILE.jsonl] [--output text|json]
  dsplay test DIR|FILE...
  dsplay explain FILE NODE
  dsplay export kind FILE [--out DIR]
  dsplay export yaml FILE
  dsplay share FILE [--at SECONDS] [--base URL]
  dsplay share --table [DIR|FILE...]
  dsplay open LINK
  dsplay serve-api FILE [--at SECONDS] [--port N]
  dsplay predict FILE [--nodes N]
  dsplay new lesson NAME|PATH.yaml
  dsplay help [COMMAND]
  dsplay --version

Real nodes: run, test, explain, export, share, serve-api and predict take --nodes NODES.yaml (replace the
scenario's nodes with the output of `kubectl get nodes -o yaml` or `-o json`) or
--add-nodes NODES.yaml (add them to the scenario's own).

Exit codes: 0 ok, 1 an expectation failed, 2 bad input.
Run `dsplay help COMMAND` for the details of one command.
";

const RUN_HELP: &str = concat!(
    "\
Usage: dsplay run FILE [--until-settled] [--trace FILE.jsonl] [--output text|json]
                       [--nodes NODES.yaml | --add-nodes NODES.yaml]

Runs the scenario's script on the virtual cluster and prints what each line printed.

Options:
  --until-settled        keep simulating after the last line until nothing is in flight
  --trace FILE.jsonl     write the cluster trace as JSON lines (one change per line)
  --output text|json     text: a terminal transcript (default);
                         json: one array of {\"t\", \"command\", \"output\", \"ok\"}
",
    nodes_help!(),
    "
Exit codes: 0 ok, 1 an expect: line did not hold, 2 bad input.
"
);

const TEST_HELP: &str = concat!(
    "\
Usage: dsplay test DIR|FILE... [--nodes NODES.yaml | --add-nodes NODES.yaml]

Runs every scenario's expect: lines (a DIR means every *.yaml in it, sorted), prints one
line per failed expectation and ends with `N passed, N failed`.

A lesson file (a scenario with `lesson:` steps, docs/lessons.md) is played as a learner would
follow it: its script, then each step's run: lines; for a task, its check must not hold yet,
then its solution: lines play and the simulation runs until the check holds (10 min of virtual
time at most). Each task counts as one expectation; the first failing task ends the lesson.

Options:
",
    nodes_help!(),
    "
Exit codes: 0 every expectation held, 1 one failed, 2 bad input.
"
);

const EXPLAIN_HELP: &str = concat!(
    "\
Usage: dsplay explain FILE NODE [--nodes NODES.yaml | --add-nodes NODES.yaml]

Runs the scenario's script, then for each DaemonSet says whether NODE gets a daemon pod and
why: every check (rule id, subject, pass/fail, detail) and a summary.

Options:
",
    nodes_help!(),
    "
Exit codes: 0 ok, 2 bad input (unknown node, bad file).
"
);

const EXPORT_HELP: &str = concat!(
    "\
Usage: dsplay export kind FILE [--out DIR] [--nodes NODES.yaml | --add-nodes NODES.yaml]
       dsplay export yaml FILE [--nodes NODES.yaml | --add-nodes NODES.yaml]

kind: writes what it takes to replay the scenario on a real kind cluster:
  kind-config.yaml   one kind node per scenario node, with its labels and taints
  <files>            the scenario's manifests
  replay.sh          the script as bash: kubectl lines, sleeps, expect: checks;
                     simulator-only verbs become their real equivalent (node stop:
                     docker exec NODE systemctl stop kubelet) or a comment saying what to do
Without --out, prints them to stdout, each after a `==> NAME <==` header.

  kind create cluster --config kind-config.yaml && ./replay.sh

yaml: prints the scenario as a scenario file, e.g. with a real cluster's nodes:
  kubectl get nodes -o yaml > nodes.yaml
  dsplay export yaml my.yaml --nodes nodes.yaml > my-cluster.yaml

Options:
",
    nodes_help!()
);

const SHARE_HELP: &str = concat!(
    "\
Usage: dsplay share FILE [--at SECONDS] [--base URL] [--nodes NODES.yaml | --add-nodes NODES.yaml]
       dsplay share --table [DIR|FILE...]

Prints the scenario's share link: BASE#s=1.<data>[&t=SECONDS] (without --base, just the
part from #). Warns on stderr when the link is over 2,000 characters (some chat apps cut
it) or over 32 KiB (share the file instead).

--table prints a Markdown table of the link length of each scenario file (a DIR means every
*.yaml in it), or of the built-in presets when no file is given.

Options:
  --at SECONDS           open the link at this virtual time (&t=)
  --base URL             the playground's address, e.g. https://example.org/playground/
",
    nodes_help!()
);

const OPEN_HELP: &str = "\
Usage: dsplay open LINK

Decodes a share link (the whole address, the #s=… part, or the bare 1.… payload) and prints
its scenario as a scenario file, which `dsplay run` runs. The view and the time it opens at
are printed as comments.

Exit codes: 0 ok, 2 a link that cannot be read (the message says why).
";

const PREDICT_HELP: &str = concat!(
    "\
Usage: dsplay predict FILE [--nodes N] [--nodes NODES.yaml | --add-nodes NODES.yaml]

How long will the rollout take? Runs the scenario's script on copies of the scenario, one as
written and one per update strategy (maxUnavailable 1, 10 %, 25 %, maxSurge 1), each until its
first rollout is complete (as `kubectl rollout status` would say) or 48 h of virtual time have
passed, and prints per strategy the duration, the waves (batches of pods replaced) and the most
pods unavailable at once. A template that never becomes available predicts a rollout that does
not complete. The script must start the rollout (e.g. `kubectl set image`).

Options:
  --nodes N              first grow or cut the cluster to N nodes (1 to 5000): the node entry
                         declared last (the workers) is repeated or cut, the others stay
",
    nodes_help!()
);

const SERVE_API_HELP: &str = concat!(
    "\
Usage: dsplay serve-api FILE [--at SECONDS] [--port N] [--nodes NODES.yaml | --add-nodes NODES.yaml]

Runs the scenario's script to its end (or to virtual time SECONDS), then serves that cluster,
frozen, as a read-only Kubernetes API on 127.0.0.1, so a real kubectl can read it:

  dsplay serve-api presets/f3-taints.yaml --port 8001 &
  kubectl --server http://127.0.0.1:8001 get pods -o wide

It serves discovery, /version, and GET (one object or a list, namespaced or across all
namespaces, with labelSelector and fieldSelector, as JSON or as the Table kubectl asks for) of
pods, nodes, events, daemonsets and controllerrevisions. Writes and watches are refused (405).
The first line printed is the address; Ctrl-C stops. AGE in tables counts to the simulation's
clock; what kubectl computes itself (describe) counts to the wall clock.

Options:
  --at SECONDS           stop the script at this virtual time (default: run it to its end)
  --port N               the port to listen on (default 0: one the system picks)
",
    nodes_help!()
);

const NEW_HELP: &str = "\
Usage: dsplay new lesson NAME|PATH.yaml

Writes a commented example lesson (a scenario with `lesson:` steps: text, a prediction and a
task with its check and solution) that `dsplay test` passes: lessons/NAME.yaml, or PATH.yaml
when the argument ends in .yaml (NAME is then the file's name without .yaml). NAME is the
lesson's id, as `?lesson=NAME` opens it: lower-case letters, digits and '-', at most 63.
Never overwrites a file. The format: docs/lessons.md.

Exit codes: 0 written, 2 bad name or the file exists.
";

const VERSION_HELP: &str = "Usage: dsplay --version\n\nPrints the version.\n";

/// The help text of a subcommand (or the overview).
pub fn help_text(sub: Option<&str>) -> &'static str {
    match sub {
        Some("run") => RUN_HELP,
        Some("test") => TEST_HELP,
        Some("explain") => EXPLAIN_HELP,
        Some("export") => EXPORT_HELP,
        Some("share") => SHARE_HELP,
        Some("open") => OPEN_HELP,
        Some("serve-api") => SERVE_API_HELP,
        Some("predict") => PREDICT_HELP,
        Some("new") => NEW_HELP,
        Some("version") => VERSION_HELP,
        _ => MAIN_HELP,
    }
}

fn static_sub(s: &str) -> Option<&'static str> {
    SUBCOMMANDS.iter().copied().find(|c| *c == s)
}

/// The closest of `options` to `word`, if it is a plausible typo.
pub fn closest<'a>(word: &str, options: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    k8s_base::typo::closest(word, options, k8s_base::typo::usual_budget)
}

/// The flags of a subcommand, in the order its "accepts …" hint names them. `--nodes` and
/// `--add-nodes` go with every command that loads a scenario.
fn flags_of(sub: &str) -> &'static [&'static str] {
    match sub {
        "run" => &[
            "--until-settled",
            "--trace",
            "--output",
            "--nodes",
            "--add-nodes",
        ],
        "test" | "explain" | "predict" => &["--nodes", "--add-nodes"],
        "export" => &["--out", "--nodes", "--add-nodes"],
        "share" => &["--at", "--base", "--table", "--nodes", "--add-nodes"],
        "serve-api" => &["--at", "--port", "--nodes", "--add-nodes"],
        _ => &[],
    }
}

/// The flags that take no value; every other takes one, as `--flag VALUE` or `--flag=VALUE`.
const SWITCHES: [&str; 2] = ["--until-settled", "--table"];

/// One subcommand's arguments: positionals, and the flags given, in order, with their values.
struct Args {
    sub: &'static str,
    positionals: Vec<String>,
    flags: Vec<(&'static str, Option<String>)>,
    help: bool,
}

/// An argument [`parse`] has checked to be UTF-8 (so this loses nothing).
fn text(arg: OsString) -> String {
    arg.into_string()
        .unwrap_or_else(|a| a.to_string_lossy().into_owned())
}

impl Args {
    /// Lexes `args` with `lexopt`: `--flag value`, `--flag=value`, `--` (the rest are
    /// positionals) and `-` (a positional). A flag is named as written up to any `=`, so
    /// `-xyz` and `-x=1` are reported as `-xyz` and `-x`, not split into single letters.
    fn lex(sub: &'static str, args: &[String]) -> Result<Args, CliError> {
        let specs = flags_of(sub);
        let mut out = Args {
            sub,
            positionals: Vec::new(),
            flags: Vec::new(),
            help: false,
        };
        let mut parser = lexopt::Parser::from_args(args);
        parser.set_short_equals(false);
        // `next` fails only on a `--flag=value` whose value was not taken; each is taken below.
        while let Some(arg) = parser
            .next()
            .map_err(|e| CliError::new(e.to_string()).hint(format!("see `dsplay help {sub}`")))?
        {
            let (name, inline) = match arg {
                Arg::Value(v) => {
                    out.positionals.push(text(v));
                    continue;
                }
                Arg::Long(long) => (format!("--{long}"), parser.optional_value().map(text)),
                Arg::Short(c) => {
                    let rest = parser.optional_value().map(text).unwrap_or_default();
                    let written = format!("-{c}{rest}");
                    match written.split_once('=') {
                        Some((n, v)) => (n.to_string(), Some(v.to_string())),
                        None => (written, None),
                    }
                }
            };
            if inline.is_none() && (name == "-h" || name == "--help") {
                out.help = true;
                continue;
            }
            let Some(&flag) = specs.iter().find(|s| **s == name) else {
                return Err(unknown_flag(sub, &name, specs));
            };
            let value = match (!SWITCHES.contains(&flag), inline) {
                (true, Some(v)) => Some(v),
                (true, None) => Some(parser.value().map(text).map_err(|_| {
                    CliError::new(format!("flag {name} needs a value"))
                        .hint(format!("see `dsplay help {sub}`"))
                })?),
                (false, None) => None,
                (false, Some(_)) => {
                    return Err(CliError::new(format!("flag {name} takes no value"))
                        .hint(format!("write {name} alone")))
                }
            };
            out.flags.push((flag, value));
        }
        Ok(out)
    }

    /// The values of every `name` flag given, in order.
    fn values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.flags
            .iter()
            .filter(move |(n, _)| *n == name)
            .filter_map(|(_, v)| v.as_deref())
    }

    /// The value of the last `name` flag given.
    fn last(&self, name: &str) -> Option<String> {
        self.values(name).last().map(str::to_string)
    }

    fn has(&self, name: &str) -> bool {
        self.flags.iter().any(|(n, _)| *n == name)
    }

    fn nodes(&self) -> NodesArg {
        NodesArg {
            replace: self.last("--nodes"),
            add: self.last("--add-nodes"),
        }
    }

    /// Exactly N positionals, or the subcommand's usage: "`dsplay SUB` takes WHAT, got …".
    fn exactly<const N: usize>(&mut self, what: &str) -> Result<[String; N], CliError> {
        <[String; N]>::try_from(std::mem::take(&mut self.positionals)).map_err(|got| {
            let sub = self.sub;
            usage_error(
                sub,
                format!("`dsplay {sub}` takes {what}, got {} argument(s)", got.len()),
            )
        })
    }
}

fn unknown_flag(sub: &str, name: &str, known: &[&str]) -> CliError {
    let hint = match closest(name, known.iter().copied()) {
        Some(k) => format!("did you mean {k}? See `dsplay help {sub}`"),
        None if known.is_empty() => format!("`dsplay {sub}` takes no flags"),
        None => format!(
            "`dsplay {sub}` accepts {}; see `dsplay help {sub}`",
            known.join(", ")
        ),
    };
    CliError::new(format!("unknown flag {name} for `dsplay {sub}`")).hint(hint)
}

fn usage_error(sub: &'static str, message: impl Into<String>) -> CliError {
    let usage = help_text(Some(sub))
        .lines()
        .next()
        .unwrap_or("")
        .to_string();
    CliError::new(message).hint(usage)
}

fn unknown_subcommand(word: &str) -> CliError {
    let hint = match closest(word, SUBCOMMANDS.iter().copied()) {
        Some(c) => format!("did you mean `dsplay {c}`? See `dsplay --help`"),
        None => format!("commands: {}", SUBCOMMANDS.join(", ")),
    };
    CliError::new(format!("unknown command {word:?}")).hint(hint)
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
    let sub = match first.as_str() {
        "-h" | "--help" => return Ok(Command::Help(None)),
        "-V" | "--version" | "version" => return Ok(Command::Version),
        "help" => {
            return match rest {
                [] => Ok(Command::Help(None)),
                [sub] => static_sub(sub)
                    .map(|s| Command::Help(Some(s)))
                    .ok_or_else(|| unknown_subcommand(sub)),
                _ => Err(usage_error("help", "help takes one command name")),
            }
        }
        other => match static_sub(other) {
            Some(sub) => sub,
            None if other.starts_with('-') => return Err(CliError::new(format!("unknown flag {other}"))
                .hint("flags come after the command, e.g. `dsplay run FILE --output json`; see `dsplay --help`")),
            None => return Err(unknown_subcommand(other)),
        },
    };
    let mut a = Args::lex(sub, rest)?;
    if a.help {
        return Ok(Command::Help(Some(sub)));
    }
    let nodes = a.nodes();
    match sub {
        "run" => {
            let mut output = OutputFormat::Text;
            for v in a.values("--output") {
                output = match v {
                    "text" => OutputFormat::Text,
                    "json" => OutputFormat::Json,
                    other => {
                        return Err(CliError::new(format!("unknown output format {other:?}"))
                            .hint("use --output text or --output json"))
                    }
                };
            }
            let [file] = a.exactly("one FILE")?;
            Ok(Command::Run {
                file,
                until_settled: a.has("--until-settled"),
                trace: a.last("--trace"),
                output,
                nodes,
            })
        }
        "test" if a.positionals.is_empty() => Err(usage_error(
            "test",
            "`dsplay test` needs at least one DIR or FILE",
        )),
        "test" => Ok(Command::Test {
            paths: a.positionals,
            nodes,
        }),
        "explain" => {
            let [file, node] = a.exactly("FILE and NODE")?;
            Ok(Command::Explain { file, node, nodes })
        }
        "export" => {
            let out = a.last("--out");
            match a.positionals.as_slice() {
                [target, file] if target == "kind" => Ok(Command::ExportKind {
                    file: file.clone(),
                    out,
                    nodes,
                }),
                [target, _] if target == "yaml" && out.is_some() => Err(CliError::new("`dsplay export yaml` prints to stdout; it takes no --out")
                    .hint("redirect it: `dsplay export yaml FILE > out.yaml`")),
                [target, file] if target == "yaml" => Ok(Command::ExportYaml {
                    file: file.clone(),
                    nodes,
                }),
                [target, _] => Err(CliError::new(format!("unknown export target {target:?}"))
                    .hint("the targets are kind (`dsplay export kind FILE [--out DIR]`) and yaml (`dsplay export yaml FILE`)")),
                _ => Err(usage_error(
                    "export",
                    "`dsplay export` takes a target and a FILE",
                )),
            }
        }
        "share" => share(a, nodes),
        "open" => {
            let [link] = a.exactly("one LINK")?;
            Ok(Command::Open { link })
        }
        "serve-api" => {
            let at = at_flag(
                &a,
                "give the virtual time to stop at in seconds, e.g. --at 90",
            )?;
            let port = match a.last("--port") {
                None => 0,
                Some(v) => v.parse::<u16>().map_err(|_| {
                    CliError::new(format!("--port {v:?} is not a port number")).hint(
                        "give a port from 1 to 65535, e.g. --port 8001, or 0 for any free one",
                    )
                })?,
            };
            let [file] = a.exactly("one FILE")?;
            Ok(Command::ServeApi {
                file,
                at,
                port,
                nodes,
            })
        }
        "predict" => {
            let mut nodes = nodes;
            // `--nodes N` is a count; any other value is a nodes file, as for every command.
            let count = nodes.replace.as_deref().and_then(|v| v.parse().ok());
            if count.is_some() {
                nodes.replace = None;
            }
            let [file] = a.exactly("one FILE")?;
            Ok(Command::Predict { file, count, nodes })
        }
        "new" => match a.positionals.as_slice() {
            [kind, target] if kind == "lesson" => Ok(Command::NewLesson {
                target: target.clone(),
            }),
            [kind, _] => Err(
                CliError::new(format!("`dsplay new` cannot make a {kind:?}"))
                    .hint("`dsplay new lesson NAME` is what it makes"),
            ),
            _ => Err(usage_error("new", "`dsplay new` takes `lesson` and a NAME")),
        },
        other => Err(unknown_subcommand(other)),
    }
}

fn share(mut a: Args, nodes: NodesArg) -> Result<Command, CliError> {
    if a.has("--table") {
        if a.flags.iter().any(|(n, _)| *n != "--table") {
            return Err(usage_error(
                "share",
                "`dsplay share --table` takes only scenario files",
            ));
        }
        return Ok(Command::ShareTable {
            paths: a.positionals,
        });
    }
    let at = at_flag(
        &a,
        "give the virtual time to open at in seconds, e.g. --at 12.5",
    )?;
    let base = a.last("--base").unwrap_or_default();
    if base.contains('#') {
        return Err(CliError::new(format!("--base {base:?} already has a # part"))
            .hint("give the playground's address without #…, e.g. --base https://example.org/playground/"));
    }
    let [file] = a.exactly("one FILE").map_err(|e| CliError {
        message: format!("{} (`--table` takes several)", e.message),
        ..e
    })?;
    Ok(Command::Share {
        file,
        at,
        base,
        nodes,
    })
}

/// `--at SECONDS`: a virtual time from 0 to the longest a link may name.
fn at_flag(a: &Args, hint: &str) -> Result<Option<f64>, CliError> {
    match a.last("--at") {
        None => Ok(None),
        Some(v) => match v.parse::<f64>() {
            Ok(t) if t.is_finite() && (0.0..=scenario::share::MAX_TIME).contains(&t) => Ok(Some(t)),
            _ => Err(CliError::new(format!("--at {v:?} is not a time in seconds")).hint(hint)),
        },
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
                nodes: NodesArg::default(),
            })
        );
    }

    #[test]
    fn node_imports_are_accepted_where_a_scenario_is_loaded() {
        let nodes = NodesArg {
            replace: Some("n.yaml".into()),
            add: None,
        };
        assert_eq!(
            p(&["explain", "a.yaml", "w1", "--nodes", "n.yaml"]).ok(),
            Some(Command::Explain {
                file: "a.yaml".into(),
                node: "w1".into(),
                nodes: nodes.clone(),
            })
        );
        assert_eq!(
            p(&["export", "yaml", "a.yaml", "--nodes=n.yaml"]).ok(),
            Some(Command::ExportYaml {
                file: "a.yaml".into(),
                nodes,
            })
        );
        assert!(p(&["share", "a.yaml", "--at", "nan"]).is_err());
        assert_eq!(
            p(&["share", "--table"]).ok(),
            Some(Command::ShareTable { paths: vec![] })
        );
    }

    #[test]
    fn serve_api_takes_a_time_and_a_port() {
        assert_eq!(
            p(&["serve-api", "a.yaml", "--at", "90", "--port=8001"]).ok(),
            Some(Command::ServeApi {
                file: "a.yaml".into(),
                at: Some(90.0),
                port: 8001,
                nodes: NodesArg::default(),
            })
        );
        assert!(p(&["serve-api", "a.yaml", "--port", "70000"]).is_err());
        assert!(p(&["serve-api", "a.yaml", "--at", "-1"]).is_err());
        assert!(p(&["serve-api"]).is_err());
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
    fn new_takes_lesson_and_one_name() {
        assert_eq!(
            p(&["new", "lesson", "taints-101"]).ok(),
            Some(Command::NewLesson {
                target: "taints-101".into()
            })
        );
        assert!(p(&["new", "preset", "x"]).is_err());
        assert!(p(&["new", "lesson"]).is_err());
        assert_eq!(p(&["new", "--help"]).ok(), Some(Command::Help(Some("new"))));
    }

    fn message(args: &[&str]) -> Option<String> {
        p(args).err().map(|e| e.message)
    }

    #[test]
    fn a_flag_is_named_as_written_up_to_its_equals_sign() {
        // lexopt alone reads `-xyz` as -x -y -z and `-hx` as -h -x.
        for (arg, name) in [
            ("-xyz", "-xyz"),
            ("-hx", "-hx"),
            ("-x=1", "-x"),
            ("-=x", "-"),
            ("--trcae=t", "--trcae"),
            ("--help=x", "--help"),
        ] {
            assert_eq!(
                message(&["run", "a.yaml", arg]),
                Some(format!("unknown flag {name} for `dsplay run`")),
                "{arg}"
            );
        }
        assert_eq!(
            message(&["share", "--table=1"]),
            Some("flag --table takes no value".into())
        );
        assert_eq!(
            message(&["run", "a.yaml", "--output"]),
            Some("flag --output needs a value".into())
        );
    }

    #[test]
    fn a_value_is_the_next_argument_and_a_double_dash_ends_the_flags() {
        let run = |file: &str, trace: Option<&str>| Command::Run {
            file: file.into(),
            until_settled: false,
            trace: trace.map(String::from),
            output: OutputFormat::Text,
            nodes: NodesArg::default(),
        };
        assert_eq!(
            p(&["run", "--trace", "--", "a.yaml"]).ok(),
            Some(run("a.yaml", Some("--")))
        );
        assert_eq!(
            p(&["run", "--", "--trace"]).ok(),
            Some(run("--trace", None))
        );
        assert_eq!(p(&["run", "-"]).ok(), Some(run("-", None)));
    }

    #[test]
    fn help_forms() {
        assert_eq!(p(&["help", "run"]).ok(), Some(Command::Help(Some("run"))));
        assert_eq!(p(&["run", "--help"]).ok(), Some(Command::Help(Some("run"))));
        assert_eq!(p(&["--help"]).ok(), Some(Command::Help(None)));
        assert_eq!(p(&["--version"]).ok(), Some(Command::Version));
    }
}
