//! Errors of the virtual API server, worded as `kubectl` prints them.

/// A refused API call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    #[error("Error from server (NotFound): {resource} \"{name}\" not found")]
    NotFound { resource: String, name: String },
    #[error("Error from server (AlreadyExists): {resource} \"{name}\" already exists")]
    AlreadyExists { resource: String, name: String },
    #[error("Error from server (Conflict): Operation cannot be fulfilled on {resource} \"{name}\": the object has been modified; please apply your changes to the latest version and try again")]
    Conflict { resource: String, name: String },
    /// Validation failed: `The DaemonSet "x" is invalid: …` (with hints in the value).
    #[error("{0}")]
    Invalid(#[from] apiserver::Invalid),
    /// Refused by an admission plugin: `pods "agent-" is forbidden: …`.
    #[error("Error from server (Forbidden): {0}")]
    Forbidden(String),
    /// A request the API server rejects before validation (e.g. no name).
    #[error("error: {0}")]
    BadRequest(String),
}

impl ApiError {
    pub(crate) fn not_found(resource: &str, name: &str) -> Self {
        ApiError::NotFound {
            resource: resource.to_string(),
            name: name.to_string(),
        }
    }

    pub(crate) fn already_exists(resource: &str, name: &str) -> Self {
        ApiError::AlreadyExists {
            resource: resource.to_string(),
            name: name.to_string(),
        }
    }

    pub(crate) fn conflict(resource: &str, name: &str) -> Self {
        ApiError::Conflict {
            resource: resource.to_string(),
            name: name.to_string(),
        }
    }

    pub fn is_not_found(&self) -> bool {
        matches!(self, ApiError::NotFound { .. })
    }
}

impl From<ApiError> for controller::ApiError {
    fn from(e: ApiError) -> Self {
        match e {
            ApiError::NotFound { resource, name } => controller::ApiError::NotFound {
                kind: resource,
                name,
            },
            ApiError::AlreadyExists { resource, name } => controller::ApiError::AlreadyExists {
                kind: resource,
                name,
            },
            // The API's own message, as the controller's `Error creating: …` event quotes it.
            ApiError::Forbidden(message) => controller::ApiError::Other(message),
            other => controller::ApiError::Other(other.to_string()),
        }
    }
}
