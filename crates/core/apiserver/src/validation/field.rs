//! Field errors and the aggregate "is invalid" error, printed as the API server and kubectl
//! print them (`k8s.io/apimachinery/pkg/util/validation/field`).

use std::fmt;

/// `field.ErrorType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldErrorKind {
    NotFound,
    Required,
    Duplicate,
    Invalid,
    NotSupported,
    Forbidden,
    TooLong,
    TooMany,
    Internal,
}

impl FieldErrorKind {
    /// The text Go prints for the type (`Required value`, `Unsupported value`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            FieldErrorKind::NotFound => "Not found",
            FieldErrorKind::Required => "Required value",
            FieldErrorKind::Duplicate => "Duplicate value",
            FieldErrorKind::Invalid => "Invalid value",
            FieldErrorKind::NotSupported => "Unsupported value",
            FieldErrorKind::Forbidden => "Forbidden",
            FieldErrorKind::TooLong => "Too long",
            FieldErrorKind::TooMany => "Too many",
            FieldErrorKind::Internal => "Internal error",
        }
    }
}

impl fmt::Display for FieldErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One validation failure: `spec.selector: Invalid value: …: field is immutable`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {}", self.body())]
pub struct FieldError {
    /// `spec.template.spec.containers[0].image`
    pub path: String,
    pub kind: FieldErrorKind,
    /// The bad value as Go prints it (`"x"`, `0`, `map[string]string{"a":"b"}`); `None` for
    /// kinds that print no value (Required, Forbidden, TooLong, Internal).
    pub value: Option<String>,
    pub detail: String,
    /// How to fix it, for the mistakes people make most.
    pub hint: Option<String>,
}

impl FieldError {
    fn new(kind: FieldErrorKind, path: &Path, value: Option<String>, detail: &str) -> FieldError {
        FieldError {
            path: path.to_string(),
            kind,
            value,
            detail: detail.to_string(),
            hint: None,
        }
    }

    pub(crate) fn required(path: &Path, detail: &str) -> FieldError {
        FieldError::new(FieldErrorKind::Required, path, None, detail)
    }

    pub(crate) fn forbidden(path: &Path, detail: &str) -> FieldError {
        FieldError::new(FieldErrorKind::Forbidden, path, None, detail)
    }

    pub(crate) fn invalid(path: &Path, value: impl GoValue, detail: &str) -> FieldError {
        FieldError::new(FieldErrorKind::Invalid, path, Some(value.go()), detail)
    }

    pub(crate) fn duplicate(path: &Path, value: impl GoValue) -> FieldError {
        FieldError::new(FieldErrorKind::Duplicate, path, Some(value.go()), "")
    }

    pub(crate) fn not_found(path: &Path, value: impl GoValue) -> FieldError {
        FieldError::new(FieldErrorKind::NotFound, path, Some(value.go()), "")
    }

    pub(crate) fn too_long(path: &Path, max_bytes: usize) -> FieldError {
        FieldError::new(
            FieldErrorKind::TooLong,
            path,
            None,
            &format!("may not be more than {max_bytes} bytes"),
        )
    }

    pub(crate) fn not_supported(
        path: &Path,
        value: impl GoValue,
        supported: &[&str],
    ) -> FieldError {
        let quoted: Vec<String> = supported.iter().map(|s| crate::gofmt::quote(s)).collect();
        let detail = if quoted.is_empty() {
            String::new()
        } else {
            format!("supported values: {}", quoted.join(", "))
        };
        FieldError::new(
            FieldErrorKind::NotSupported,
            path,
            Some(value.go()),
            &detail,
        )
    }

    /// The detail after the value, for the errors whose constructor has none upstream
    /// (`duplicatedError.Detail = …`).
    pub(crate) fn with_detail(mut self, detail: &str) -> FieldError {
        self.detail = detail.to_string();
        self
    }

    pub(crate) fn with_hint(mut self, hint: impl Into<String>) -> FieldError {
        self.hint = Some(hint.into());
        self
    }

    /// The message without the path (Go's `ErrorBody`).
    pub fn body(&self) -> String {
        let mut s = self.kind.as_str().to_string();
        if let Some(v) = &self.value {
            s.push_str(": ");
            s.push_str(v);
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }
}

/// The whole rejection of a write: `The DaemonSet "x" is invalid: …`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("The {kind} {} is invalid: {}", crate::gofmt::quote(.name), causes(.errors))]
pub struct Invalid {
    /// `DaemonSet`
    pub kind: String,
    pub name: String,
    /// In the order the API server reports them. Never empty.
    pub errors: Vec<FieldError>,
}

fn causes(errors: &[FieldError]) -> String {
    match errors {
        [one] => one.to_string(),
        many => many.iter().map(|e| format!("\n* {e}")).collect(),
    }
}

impl Invalid {
    /// Hints for the errors that have one, without repeats: the first as it is, the others on
    /// lines of their own that start "  hint: " (as a printer puts before the first).
    pub fn hint(&self) -> Option<String> {
        let mut hints: Vec<&str> = Vec::new();
        for h in self.errors.iter().filter_map(|e| e.hint.as_deref()) {
            if !hints.contains(&h) {
                hints.push(h);
            }
        }
        // Printed after "  hint: ", each on its own line with the same lead.
        (!hints.is_empty()).then(|| hints.join("\n  hint: "))
    }

    pub(crate) fn check(kind: &str, name: &str, errors: Vec<FieldError>) -> Result<(), Invalid> {
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Invalid {
                kind: kind.to_string(),
                name: name.to_string(),
                errors,
            })
        }
    }
}

/// A field path under construction (`field.Path`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Path(String);

impl Path {
    pub(crate) fn root(name: &str) -> Path {
        Path(name.to_string())
    }

    pub(crate) fn child(&self, name: &str) -> Path {
        if self.0.is_empty() {
            Path(name.to_string())
        } else {
            Path(format!("{}.{name}", self.0))
        }
    }

    pub(crate) fn index(&self, i: usize) -> Path {
        Path(format!("{}[{i}]", self.0))
    }

    pub(crate) fn key(&self, k: &str) -> Path {
        Path(format!("{}[{k}]", self.0))
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A value printed the way `field.Error` prints it (simple types with `%v`/`%q`, the rest
/// with `%#v`).
pub(crate) trait GoValue {
    fn go(&self) -> String;
}

impl GoValue for &str {
    fn go(&self) -> String {
        crate::gofmt::quote(self)
    }
}

impl GoValue for &String {
    fn go(&self) -> String {
        crate::gofmt::quote(self)
    }
}

impl GoValue for i64 {
    fn go(&self) -> String {
        self.to_string()
    }
}

impl GoValue for i32 {
    fn go(&self) -> String {
        self.to_string()
    }
}

/// Already printed in Go syntax.
pub(crate) struct Raw(pub String);

impl GoValue for Raw {
    fn go(&self) -> String {
        self.0.clone()
    }
}

/// The refusal as the API returns it: the message kubectl prints and the hints of its errors.
impl From<Invalid> for k8s_base::ApiError {
    fn from(i: Invalid) -> Self {
        k8s_base::ApiError::Invalid {
            message: i.to_string(),
            hint: i.hint(),
        }
    }
}
