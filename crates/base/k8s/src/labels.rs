//! Label selectors (`k8s.io/apimachinery/pkg/labels` and `metav1.LabelSelectorAsSelector`): one
//! requirement type and one `Matches`, whether the selector came from an object's
//! `spec.selector`, from a node selector term or from kubectl's `-l`.
//!
//! Knows nothing of DaemonSets or of kubectl: the controller claims with it, the API server
//! checks a template against it, kubectl filters and prints with it.

use std::borrow::Cow;
use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;

/// `selection.Operator`. `=` and `==` are one operator here: they match alike and print alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operator {
    Equals,
    NotEquals,
    In,
    NotIn,
    Exists,
    DoesNotExist,
    /// `Gt`: the label's value, read as an integer, is greater than the one value.
    GreaterThan,
    /// `Lt`: the label's value, read as an integer, is less than the one value.
    LessThan,
}

/// `labels.Requirement`: a key, an operator and its values, borrowed from the object they
/// came from where they can be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement<'a> {
    pub key: Cow<'a, str>,
    pub operator: Operator,
    pub values: Cow<'a, [String]>,
}

impl Requirement<'_> {
    /// `Requirement.Matches`. A `Gt`/`Lt` bound or label value that is not an integer does not
    /// match (upstream refuses the bound when it builds the requirement).
    pub fn matches(&self, labels: Option<&BTreeMap<String, String>>) -> bool {
        let value = labels.and_then(|l| l.get(self.key.as_ref()));
        let values = self.values.as_ref();
        match self.operator {
            Operator::Equals | Operator::In => value.is_some_and(|v| values.contains(v)),
            Operator::NotEquals | Operator::NotIn => value.is_none_or(|v| !values.contains(v)),
            Operator::Exists => value.is_some(),
            Operator::DoesNotExist => value.is_none(),
            Operator::GreaterThan | Operator::LessThan => {
                let (Some(Ok(v)), [bound]) = (value.map(|v| v.parse::<i64>()), values) else {
                    return false;
                };
                let Ok(bound) = bound.parse::<i64>() else {
                    return false;
                };
                if self.operator == Operator::GreaterThan {
                    v > bound
                } else {
                    v < bound
                }
            }
        }
    }

    /// `Requirement.String`: `k=v`, `k!=v`, `k in (a,b)` (values sorted), `k`, `!k`.
    fn write(&self, out: &mut String) {
        let mut values: Vec<&str> = self.values.iter().map(String::as_str).collect();
        sort::sort(&mut values);
        let key = self.key.as_ref();
        let one = values.first().copied().unwrap_or_default();
        let text = match self.operator {
            Operator::Equals => format!("{key}={one}"),
            Operator::NotEquals => format!("{key}!={one}"),
            Operator::In => format!("{key} in ({})", values.join(",")),
            Operator::NotIn => format!("{key} notin ({})", values.join(",")),
            Operator::Exists => key.to_string(),
            Operator::DoesNotExist => format!("!{key}"),
            Operator::GreaterThan => format!("{key}>{one}"),
            Operator::LessThan => format!("{key}<{one}"),
        };
        out.push_str(&text);
    }
}

/// `labels.Selector`: requirements that must all hold, or nothing at all.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Selector<'a> {
    /// `labels.Nothing()`: what a nil `*metav1.LabelSelector` converts to.
    Nothing,
    /// `labels.Everything()`: no requirement.
    #[default]
    Everything,
    /// Requirements that must all hold (never an empty list: that is `Everything`).
    Requirements(Vec<Requirement<'a>>),
}

/// Why a label selector could not be converted, in the words of the controller's sync error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectorError(pub String);

impl std::fmt::Display for SelectorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SelectorError {}

impl<'a> Selector<'a> {
    /// `metav1.LabelSelectorAsSelector`: `matchLabels` as `=` requirements, then the
    /// expressions; refuses an unknown operator and a wrong number of values. Keys and values
    /// are not checked against the label syntax here: the API server validated them on write
    /// (`apiserver`'s `selector_matches` checks them first for the objects it has not).
    pub fn from_label_selector(sel: &'a LabelSelector) -> Result<Selector<'a>, SelectorError> {
        let mut reqs = Vec::new();
        for (k, v) in sel.match_labels.iter().flatten() {
            reqs.push(Requirement {
                key: Cow::Borrowed(k),
                operator: Operator::Equals,
                values: Cow::Borrowed(std::slice::from_ref(v)),
            });
        }
        for e in sel.match_expressions.iter().flatten() {
            let values = e.values.as_deref().unwrap_or_default();
            let operator = match e.operator.as_str() {
                "In" => Operator::In,
                "NotIn" => Operator::NotIn,
                "Exists" => Operator::Exists,
                "DoesNotExist" => Operator::DoesNotExist,
                other => {
                    return Err(SelectorError(format!(
                        "{other:?} is not a valid label selector operator"
                    )))
                }
            };
            let needs_values = matches!(operator, Operator::In | Operator::NotIn);
            if needs_values && values.is_empty() {
                return Err(SelectorError(format!(
                    "for 'in', 'notin' operators, values set can't be empty (key {:?})",
                    e.key
                )));
            }
            if !needs_values && !values.is_empty() {
                return Err(SelectorError(format!(
                    "values set must be empty for exists and does not exist (key {:?})",
                    e.key
                )));
            }
            reqs.push(Requirement {
                key: Cow::Borrowed(&e.key),
                operator,
                values: Cow::Borrowed(values),
            });
        }
        Ok(Selector::of(reqs))
    }

    /// The selector of these requirements: `Everything` when there are none.
    pub fn of(reqs: Vec<Requirement<'a>>) -> Selector<'a> {
        if reqs.is_empty() {
            Selector::Everything
        } else {
            Selector::Requirements(reqs)
        }
    }

    /// `selector.Empty()`: true when it has no requirement (it selects everything).
    pub fn is_empty(&self) -> bool {
        matches!(self, Selector::Everything)
    }

    /// `selector.Matches(labels)`.
    pub fn matches(&self, labels: Option<&BTreeMap<String, String>>) -> bool {
        match self {
            Selector::Nothing => false,
            Selector::Everything => true,
            Selector::Requirements(reqs) => reqs.iter().all(|r| r.matches(labels)),
        }
    }

    /// `selector.String()`: the requirements ordered by key (the selector sorts them as it adds
    /// them), joined by commas; empty for everything.
    pub fn to_text(&self) -> String {
        let Selector::Requirements(reqs) = self else {
            return String::new();
        };
        let mut ordered: Vec<&Requirement> = reqs.iter().collect();
        sort::sort_by(&mut ordered, |a, b| a.key.cmp(&b.key));
        let mut out = String::new();
        for (i, r) in ordered.into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            r.write(&mut out);
        }
        out
    }
}

impl Selector<'static> {
    /// `labels.Parse` for kubectl's `-l`/`--selector`: `k=v`, `k==v`, `k!=v`, `k in (a,b)`,
    /// `k notin (a,b)`, `k`, `!k`, joined by commas outside parentheses.
    pub fn parse(s: &str) -> Result<Selector<'static>, String> {
        let mut reqs = Vec::new();
        if s.trim().is_empty() {
            return Ok(Selector::Everything);
        }
        for part in split_top(s) {
            let p = part.trim();
            let bad = || {
                format!("unable to parse requirement: found '{p}', expected: key, '!key', 'key=value', 'key!=value', 'key in (a,b)' or 'key notin (a,b)'")
            };
            let (key, operator, values) = if let Some(k) = p.strip_prefix('!') {
                (k.trim(), Operator::DoesNotExist, Vec::new())
            } else if let Some((k, v)) = p.split_once("!=") {
                (k.trim(), Operator::NotEquals, vec![v.trim().to_string()])
            } else if let Some((k, v)) = p.split_once("==").or_else(|| p.split_once('=')) {
                (k.trim(), Operator::Equals, vec![v.trim().to_string()])
            } else if let Some((k, v)) = p.split_once(" notin ") {
                (k.trim(), Operator::NotIn, set_values(v).ok_or_else(bad)?)
            } else if let Some((k, v)) = p.split_once(" in ") {
                (k.trim(), Operator::In, set_values(v).ok_or_else(bad)?)
            } else {
                (p, Operator::Exists, Vec::new())
            };
            if !valid_key(key) {
                return Err(bad());
            }
            reqs.push(Requirement {
                key: Cow::Owned(key.to_string()),
                operator,
                values: Cow::Owned(values),
            });
        }
        Ok(Selector::of(reqs))
    }
}

/// Splits on commas outside parentheses.
fn split_top(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

fn valid_key(k: &str) -> bool {
    !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
}

fn set_values(v: &str) -> Option<Vec<String>> {
    let inner = v.trim().strip_prefix('(')?.strip_suffix(')')?;
    Some(
        inner
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
    )
}

/// `metav1.FormatLabelSelector`: the selector as `labels.Selector` prints it, `<none>` when it
/// selects everything, `<error>` when it cannot be converted.
pub fn format_label_selector(sel: &LabelSelector) -> String {
    match Selector::from_label_selector(sel) {
        Ok(s) if s.is_empty() => "<none>".into(),
        Ok(s) => s.to_text(),
        Err(_) => "<error>".into(),
    }
}
