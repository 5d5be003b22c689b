//! Field selectors (`k8s.io/apimachinery/pkg/fields`) as kubectl's `--field-selector` and the
//! API's `fieldSelector` parameter take them, evaluated on an object's JSON form.

/// A parsed field selector: `path=value` / `path!=value` terms, all of which must hold.
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

    /// Whether the object's fields hold every term (a missing field reads as empty).
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
