//! Label selectors (`-l`) and field selectors (`--field-selector`) as kubectl and the API server
//! parse them, evaluated on the objects' JSON form.

use std::collections::BTreeMap;

/// One requirement of a label selector.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Req {
    Eq(String, String),
    Ne(String, String),
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    Exists(String),
    NotExists(String),
}

/// A parsed `-l` selector: all requirements must hold.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LabelSelector(Vec<Req>);

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

impl LabelSelector {
    pub fn parse(s: &str) -> Result<LabelSelector, String> {
        let mut reqs = Vec::new();
        if s.trim().is_empty() {
            return Ok(LabelSelector(reqs));
        }
        for part in split_top(s) {
            let p = part.trim();
            let bad = || {
                format!("unable to parse requirement: found '{p}', expected: key, '!key', 'key=value', 'key!=value', 'key in (a,b)' or 'key notin (a,b)'")
            };
            let req = if let Some(k) = p.strip_prefix('!') {
                Req::NotExists(k.trim().to_string())
            } else if let Some((k, v)) = p.split_once("!=") {
                Req::Ne(k.trim().to_string(), v.trim().to_string())
            } else if let Some((k, v)) = p.split_once("==").or_else(|| p.split_once('=')) {
                Req::Eq(k.trim().to_string(), v.trim().to_string())
            } else if let Some((k, v)) = p.split_once(" notin ") {
                Req::NotIn(k.trim().to_string(), set_values(v).ok_or_else(bad)?)
            } else if let Some((k, v)) = p.split_once(" in ") {
                Req::In(k.trim().to_string(), set_values(v).ok_or_else(bad)?)
            } else {
                Req::Exists(p.to_string())
            };
            let key = match &req {
                Req::Eq(k, _)
                | Req::Ne(k, _)
                | Req::In(k, _)
                | Req::NotIn(k, _)
                | Req::Exists(k)
                | Req::NotExists(k) => k,
            };
            if !valid_key(key) {
                return Err(bad());
            }
            reqs.push(req);
        }
        Ok(LabelSelector(reqs))
    }

    pub fn matches(&self, labels: Option<&BTreeMap<String, String>>) -> bool {
        let get = |k: &str| labels.and_then(|l| l.get(k));
        self.0.iter().all(|r| match r {
            Req::Eq(k, v) => get(k) == Some(v),
            Req::Ne(k, v) => get(k) != Some(v),
            Req::In(k, vs) => get(k).is_some_and(|x| vs.contains(x)),
            Req::NotIn(k, vs) => get(k).is_none_or(|x| !vs.contains(x)),
            Req::Exists(k) => get(k).is_some(),
            Req::NotExists(k) => get(k).is_none(),
        })
    }
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

/// A parsed `--field-selector`: `path=value` / `path!=value` terms on the object's JSON.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FieldSelector(Vec<(String, bool, String)>);

impl FieldSelector {
    /// `supported` lists the field labels the resource accepts (`spec.nodeName`, …).
    pub fn parse(s: &str, supported: &[&str]) -> Result<FieldSelector, String> {
        let mut terms = Vec::new();
        if s.trim().is_empty() {
            return Ok(FieldSelector(terms));
        }
        for part in s.split(',') {
            let (k, eq, v) = if let Some((k, v)) = part.split_once("!=") {
                (k, false, v)
            } else if let Some((k, v)) = part.split_once("==").or_else(|| part.split_once('=')) {
                (k, true, v)
            } else {
                return Err(format!(
                    "invalid selector: '{s}'; can't understand '{part}'"
                ));
            };
            let k = k.trim();
            if !supported.contains(&k) {
                return Err(format!("field label not supported: {k}"));
            }
            terms.push((k.to_string(), eq, v.trim().to_string()));
        }
        Ok(FieldSelector(terms))
    }

    pub fn matches(&self, obj: &serde_json::Value) -> bool {
        self.0.iter().all(|(path, eq, want)| {
            let mut v = obj;
            for seg in path.split('.') {
                v = v.get(seg).unwrap_or(&serde_json::Value::Null);
            }
            let got = match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Null => String::new(),
                other => other.to_string(),
            };
            (got == *want) == *eq
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_selectors() {
        let mut l = BTreeMap::new();
        l.insert("app".to_string(), "x".to_string());
        l.insert("tier".to_string(), "web".to_string());
        let m = |s: &str| LabelSelector::parse(s).unwrap().matches(Some(&l));
        assert!(m("app=x"));
        assert!(m("app==x,tier!=db"));
        assert!(m("tier in (web,db)"));
        assert!(!m("tier notin (web)"));
        assert!(m("app,!missing"));
        assert!(LabelSelector::parse("a b").is_err());
    }
}
