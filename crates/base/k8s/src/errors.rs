//! API errors (`k8s.io/apimachinery/pkg/api/errors`) and what an apply did: one type for the
//! cluster that refuses a write, the controller that reads the refusal and kubectl that prints
//! it.

/// A refused API call. `Display` is the line kubectl prints (`Error from server (NotFound):
/// daemonsets.apps "x" not found`); [`ApiError::message`] is the status message alone, as the
/// controller's errors and events quote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// `daemonsets.apps "x" not found`
    NotFound { resource: String, name: String },
    /// `daemonsets.apps "x" already exists`
    AlreadyExists { resource: String, name: String },
    /// A write against a stale `resourceVersion`.
    Conflict { resource: String, name: String },
    /// Validation failed: `The DaemonSet "x" is invalid: …`, and how to fix it where we know.
    Invalid {
        message: String,
        hint: Option<String>,
    },
    /// Refused by an admission plugin: `pods "agent-" is forbidden: …`.
    Forbidden(String),
    /// A request refused before it reaches validation (no name): kubectl words it `error: …`.
    BadRequest(String),
    /// A create refused because the namespace is being deleted (R-SN-3, R-EXP-3).
    NamespaceTerminating(String),
    /// Any other message, printed as is.
    Other(String),
}

impl ApiError {
    /// `errors.NewNotFound` for a resource (`daemonsets.apps`, `pods`, `nodes`).
    pub fn not_found(resource: &str, name: &str) -> ApiError {
        ApiError::NotFound {
            resource: resource.to_string(),
            name: name.to_string(),
        }
    }

    /// `errors.NewAlreadyExists`.
    pub fn already_exists(resource: &str, name: &str) -> ApiError {
        ApiError::AlreadyExists {
            resource: resource.to_string(),
            name: name.to_string(),
        }
    }

    /// `errors.NewConflict` for a stale write.
    pub fn conflict(resource: &str, name: &str) -> ApiError {
        ApiError::Conflict {
            resource: resource.to_string(),
            name: name.to_string(),
        }
    }

    /// `errors.IsNotFound`.
    pub fn is_not_found(&self) -> bool {
        matches!(self, ApiError::NotFound { .. })
    }

    /// The status message without kubectl's `Error from server (Reason): ` prefix, for the
    /// reasons a client tells apart (not found, already exists, forbidden, terminating);
    /// the printed line for the others, which reach the controller only as text.
    pub fn message(&self) -> String {
        match self {
            ApiError::NotFound { resource, name } => format!("{resource} \"{name}\" not found"),
            ApiError::AlreadyExists { resource, name } => {
                format!("{resource} \"{name}\" already exists")
            }
            ApiError::Forbidden(m) => m.clone(),
            ApiError::NamespaceTerminating(ns) => format!(
                "unable to create new content in namespace {ns} because it is being terminated"
            ),
            other => other.to_string(),
        }
    }

    /// The message with kubectl's `error when creating "ds.yaml": ` context inserted after the
    /// `Error from server (Reason): ` prefix.
    pub fn in_context(&self, context: &str) -> String {
        match self {
            ApiError::NotFound { .. } | ApiError::AlreadyExists { .. } => {
                let reason = self.reason();
                format!(
                    "Error from server ({reason}): {context}: {}",
                    self.message()
                )
            }
            ApiError::Forbidden(m) => format!("Error from server (Forbidden): {context}: {m}"),
            _ => self.to_string(),
        }
    }

    fn reason(&self) -> &'static str {
        match self {
            ApiError::NotFound { .. } => "NotFound",
            ApiError::AlreadyExists { .. } => "AlreadyExists",
            ApiError::Conflict { .. } => "Conflict",
            ApiError::Forbidden(_) => "Forbidden",
            _ => "",
        }
    }

    /// How to fix it, when the server's message alone leaves a learner stuck.
    pub fn hint(&self) -> Option<String> {
        match self {
            ApiError::Invalid { hint, .. } => hint.clone(),
            ApiError::NotFound { resource, .. } => {
                let plural = resource.split('.').next().unwrap_or(resource);
                Some(if plural == "nodes" {
                    "list what exists with `kubectl get nodes`".to_string()
                } else {
                    format!(
                        "list what exists with `kubectl get {plural}` (add -A for all namespaces)"
                    )
                })
            }
            ApiError::AlreadyExists { .. } => {
                Some("use `kubectl apply -f` to update an object that already exists".into())
            }
            _ => None,
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApiError::NotFound { .. } | ApiError::AlreadyExists { .. } | ApiError::Forbidden(_) => {
                write!(f, "Error from server ({}): {}", self.reason(), self.message())
            }
            ApiError::Conflict { resource, name } => write!(
                f,
                "Error from server (Conflict): Operation cannot be fulfilled on {resource} \"{name}\": the object has been modified; please apply your changes to the latest version and try again"
            ),
            ApiError::Invalid { message, .. } => f.write_str(message),
            ApiError::BadRequest(m) => write!(f, "error: {m}"),
            ApiError::NamespaceTerminating(_) => f.write_str(&self.message()),
            ApiError::Other(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ApiError {}

/// What `kubectl apply` reports for one object (`daemonset.apps/x configured`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ApplyOutcome {
    Created,
    Configured,
    Unchanged,
}

impl ApplyOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            ApplyOutcome::Created => "created",
            ApplyOutcome::Configured => "configured",
            ApplyOutcome::Unchanged => "unchanged",
        }
    }
}

impl std::fmt::Display for ApplyOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
