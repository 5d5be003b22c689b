//! What the playground's editors produce: diagnostics for a DaemonSet manifest typed in the YAML
//! editor, and the script command of each node or pod edit ([`Edit`]), so that the web app never
//! writes a command string by hand. Knows nothing of the cluster's state or the UI.

use std::collections::BTreeMap;

/// One problem in an edited manifest, at a 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub line: usize,
    pub column: usize,
    pub message: String,
    pub hint: Option<String>,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)?;
        if let Some(h) = &self.hint {
            write!(f, "\n  hint: {h}")?;
        }
        Ok(())
    }
}

/// Everything wrong with a DaemonSet manifest as the API server would see it on create:
/// decoding (YAML 1.1 like kubectl: an unquoted `yes` is a boolean) stops at the first error;
/// validation (after defaults) reports every field error, each located in the text. Empty when
/// the manifest is valid.
pub fn diagnose(source_name: &str, yaml: &str) -> Vec<Diagnostic> {
    let (mut ds, map) = match apiserver::decode_daemon_set(source_name, yaml) {
        Ok(d) => d,
        Err(e) => {
            return vec![Diagnostic {
                line: e.line,
                column: e.column,
                message: e.message,
                hint: e.hint,
            }]
        }
    };
    // As the API server sees it: in the request's namespace, with defaults.
    if ds.metadata.namespace.as_deref().unwrap_or("").is_empty() {
        ds.metadata.namespace = Some("default".into());
    }
    apiserver::defaults::set_defaults_daemon_set(&mut ds);
    match apiserver::validation::validate_daemon_set(&ds) {
        Ok(()) => Vec::new(),
        Err(invalid) => invalid
            .errors
            .iter()
            .map(|e| {
                let (line, column) = map.locate(&e.path).unwrap_or((1, 1));
                Diagnostic {
                    line,
                    column,
                    message: format!(
                        "The DaemonSet {:?} is invalid: {e}",
                        ds.metadata.name.as_deref().unwrap_or("")
                    ),
                    hint: e.hint.clone(),
                }
            })
            .collect(),
    }
}

/// The first free `edit-N.yaml` name among the scenario's files.
pub fn next_file_name(files: &BTreeMap<String, String>) -> String {
    (1..)
        .map(|n| format!("edit-{n}.yaml"))
        .find(|name| !files.contains_key(name))
        .unwrap_or_else(|| "edit.yaml".to_string())
}

/// A change a viewer makes to the cluster with the mouse. [`Edit::commands`] writes the script
/// commands it stands for (the same a user would type), so it replays like any script line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// `count` new nodes named `<prefix>`, `<prefix>2`, … (the first free names), each with
    /// these labels (`key=value`) and taints (`key[=value]:Effect`), and optionally a capacity
    /// (`cpu=4,memory=8Gi,pods=110`).
    AddNodes {
        prefix: String,
        count: usize,
        labels: Vec<String>,
        taints: Vec<String>,
        capacity: Option<String>,
    },
    /// The Node object goes away, as when its VM is deleted.
    RemoveNode {
        node: String,
    },
    /// Sets a label (`value: Some`) or removes it (`None`).
    Label {
        node: String,
        key: String,
        value: Option<String>,
    },
    /// Adds a taint `key[=value]:Effect` (replacing one with the same key and effect), or
    /// removes it (`remove`).
    Taint {
        node: String,
        taint: String,
        remove: bool,
    },
    Cordon {
        node: String,
    },
    Uncordon {
        node: String,
    },
    /// The kubelet stops posting status (the node goes NotReady, then Unknown).
    StopKubelet {
        node: String,
    },
    StartKubelet {
        node: String,
    },
    /// The kubelet evicts the pod (node memory pressure): phase Failed.
    FailPod {
        namespace: String,
        pod: String,
    },
    /// The pod's container exits once (code 1); the kubelet restarts it with back-off.
    CrashPod {
        namespace: String,
        pod: String,
    },
    DeletePod {
        namespace: String,
        pod: String,
    },
}

/// Most nodes one [`Edit::AddNodes`] adds.
pub const MAX_ADD_NODES: usize = 1_000;

/// ` -n NAMESPACE` for a pod outside `default` (nothing for `default`).
fn namespace_flag(namespace: &str) -> String {
    if namespace.is_empty() || namespace == "default" {
        String::new()
    } else {
        format!(" -n {}", q(namespace))
    }
}

/// `node add`'s flags: ` --label l`… ` --taint t`… ` --capacity c` (a blank capacity is none).
fn node_flags(labels: &[String], taints: &[String], capacity: Option<&str>) -> String {
    let mut flags = String::new();
    for l in labels {
        flags.push_str(&format!(" --label {}", q(l)));
    }
    for t in taints {
        flags.push_str(&format!(" --taint {}", q(t)));
    }
    if let Some(c) = capacity.filter(|c| !c.trim().is_empty()) {
        flags.push_str(&format!(" --capacity {}", q(c)));
    }
    flags
}

/// Each name, label and taint as a word of the script line, exactly as typed: nothing is
/// checked here. The line runs like a typed one, so the API server's validation (the one every
/// path into the store goes through) refuses what is wrong, with its own message.
fn q(word: &str) -> String {
    kubectl::shell_quote(word)
}

impl Edit {
    /// The script commands of this edit (an error only for a count out of range: names, labels
    /// and taints are the API server's to judge when the commands run). `existing_nodes` are the nodes there now, so that new
    /// nodes get free names.
    pub fn commands(&self, existing_nodes: &[String]) -> Result<Vec<String>, String> {
        self.check()?;
        Ok(match self {
            Edit::AddNodes { prefix, count, .. } => {
                let flags = self.node_flags();
                let taken = sort::set(existing_nodes.iter().map(String::as_str));
                let names = std::iter::once(prefix.clone())
                    .chain((2..).map(|i| format!("{prefix}{i}")))
                    .filter(|n| !taken.contains(n.as_str()))
                    .take(*count);
                names
                    .map(|n| format!("node add {}{flags}", q(&n)))
                    .collect()
            }
            _ => vec![self.to_string()],
        })
    }

    /// An [`Edit::AddNodes`]'s flags, the same for every node it adds (nothing for another edit).
    fn node_flags(&self) -> String {
        match self {
            Edit::AddNodes {
                labels,
                taints,
                capacity,
                ..
            } => node_flags(labels, taints, capacity.as_deref()),
            _ => String::new(),
        }
    }

    /// The one thing no command checks: how many nodes one edit adds.
    fn check(&self) -> Result<(), String> {
        match self {
            Edit::AddNodes { count, .. } if *count == 0 || *count > MAX_ADD_NODES => Err(format!(
                "add between 1 and {MAX_ADD_NODES} nodes at once (asked for {count})"
            )),
            _ => Ok(()),
        }
    }
}

/// The command the edit stands for, as a script line: what a refused edit is called in the
/// caption and the terminal. `node add` names its prefix and says how many.
impl std::fmt::Display for Edit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Edit::AddNodes { prefix, count, .. } => {
                let flags = self.node_flags();
                write!(f, "node add {}{flags}", q(prefix))?;
                if *count != 1 {
                    write!(f, " ({count} nodes)")?;
                }
                Ok(())
            }
            Edit::RemoveNode { node } => write!(f, "node remove {}", q(node)),
            Edit::Label {
                node,
                key,
                value: Some(v),
            } => write!(
                f,
                "kubectl label node {} {} --overwrite",
                q(node),
                q(&format!("{key}={v}"))
            ),
            Edit::Label {
                node,
                key,
                value: None,
            } => write!(
                f,
                "kubectl label node {} {}",
                q(node),
                q(&format!("{key}-"))
            ),
            Edit::Taint {
                node,
                taint,
                remove: true,
            } => write!(
                f,
                "kubectl taint node {} {}",
                q(node),
                q(&format!("{taint}-"))
            ),
            Edit::Taint {
                node,
                taint,
                remove: false,
            } => write!(f, "kubectl taint node {} {} --overwrite", q(node), q(taint)),
            Edit::Cordon { node } => write!(f, "kubectl cordon {}", q(node)),
            Edit::Uncordon { node } => write!(f, "kubectl uncordon {}", q(node)),
            Edit::StopKubelet { node } => write!(f, "node stop {}", q(node)),
            Edit::StartKubelet { node } => write!(f, "node start {}", q(node)),
            Edit::FailPod { namespace, pod } => {
                write!(f, "pod fail {}{}", q(pod), namespace_flag(namespace))
            }
            Edit::CrashPod { namespace, pod } => {
                write!(f, "pod crash {}{}", q(pod), namespace_flag(namespace))
            }
            Edit::DeletePod { namespace, pod } => {
                write!(
                    f,
                    "kubectl delete pod {}{}",
                    q(pod),
                    namespace_flag(namespace)
                )
            }
        }
    }
}
