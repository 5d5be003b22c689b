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
