//! `kubectl get -o custom-columns=HEADER:PATH,…` (`pkg/printers/customcolumn.go`): a column per
//! spec, each cell every value the path finds in the object, printed as Go's `%v` prints it and
//! joined with `,`; `<none>` where it finds nothing.

use serde_json::Value;

use crate::jsonpath::{self, Finder};
use crate::table::TabWriter;
use crate::Fail;

/// The columns of `-o custom-columns=…`, parsed.
pub(crate) struct Columns {
    columns: Vec<(String, Finder)>,
}

impl std::fmt::Debug for Columns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let headers: Vec<&str> = self.columns.iter().map(|(h, _)| h.as_str()).collect();
        write!(f, "Columns({headers:?})")
    }
}

impl Columns {
    /// `NAME:.metadata.name,READY:.status.numberReady`.
    pub(crate) fn parse(spec: &str) -> Result<Columns, Fail> {
        let hint = "write HEADER:PATH pairs, e.g. -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName";
        if spec.is_empty() {
            return Err(Fail::new(
                "error: custom-columns format specified but no custom columns given",
            )
            .hint(hint));
        }
        let mut columns = Vec::new();
        for part in spec.split(',') {
            let Some((header, path)) = part.split_once(':') else {
                return Err(Fail::new(format!(
                    "error: unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"
                ))
                .hint(hint));
            };
            let path =
                jsonpath::relaxed(path).map_err(|e| Fail::new(format!("error: {e}")).hint(hint))?;
            let finder =
                Finder::new(&path).map_err(|e| Fail::new(format!("error: {e}")).hint(hint))?;
            columns.push((header.to_string(), finder));
        }
        Ok(Columns { columns })
    }

    /// The table: a header row (unless `no_headers`), then a row per object.
    pub(crate) fn render(&self, objects: &[Value], no_headers: bool) -> String {
        let mut w = TabWriter::table();
        if !no_headers {
            let headers: Vec<&str> = self.columns.iter().map(|(h, _)| h.as_str()).collect();
            w.row(&headers);
        }
        for o in objects {
            let cells: Vec<String> = self
                .columns
                .iter()
                .map(|(_, finder)| {
                    let found = finder.find(o);
                    if found.is_empty() {
                        "<none>".to_string()
                    } else {
                        found
                            .into_iter()
                            .map(go_value)
                            .collect::<Vec<_>>()
                            .join(",")
                    }
                })
                .collect();
            w.row(&cells);
        }
        w.finish()
    }
}

/// A JSON value as Go's `fmt` `%v` prints what `encoding/json` decoded it into: maps as
/// `map[k:v …]` with sorted keys, lists as `[a b]`, null as `<nil>`, floats as `%g` does.
fn go_value(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::String(s) => s.clone(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) => go_float(f),
            _ => n.to_string(),
        },
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(go_value).collect();
            format!("[{}]", inner.join(" "))
        }
        Value::Object(map) => {
            let mut pairs: Vec<(&String, &Value)> = map.iter().collect();
            sort::sort_by(&mut pairs, |a, b| a.0.cmp(b.0));
            let inner: Vec<String> = pairs
                .into_iter()
                .map(|(k, v)| format!("{k}:{}", go_value(v)))
                .collect();
            format!("map[{}]", inner.join(" "))
        }
    }
}

/// `%v` of a float64 (`%g` with the shortest digits): exponent form (`1e+06`, `1.5e-05`) when
/// the decimal exponent is below -4 or at least 6.
fn go_float(f: f64) -> String {
    if !f.is_finite() {
        return if f.is_nan() {
            "NaN".into()
        } else if f > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    // Rust's `{:e}` gives the same shortest digits: `1.5e-5`.
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..6).contains(&exp) {
        format!("{f}")
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_column_per_spec_with_none_for_nothing_and_commas_for_many() {
        let c = Columns::parse(
            "NAME:.metadata.name,NODE:spec.nodeName,IMAGES:{.spec.containers[*].image}",
        )
        .expect("valid");
        let objs = [
            json!({"metadata": {"name": "a"}, "spec": {"nodeName": "worker", "containers": [{"image": "x:1"}, {"image": "y:2"}]}}),
            json!({"metadata": {"name": "bb"}, "spec": {}}),
        ];
        assert_eq!(
            c.render(&objs, false),
            "NAME   NODE     IMAGES\na      worker   x:1,y:2\nbb     <none>   <none>\n"
        );
        // Go's tabwriter: a cell is at least 6 wide, padding included.
        assert_eq!(c.render(&objs[1..], true), "bb    <none>   <none>\n");
    }

    #[test]
    fn values_print_as_go_prints_them() {
        assert_eq!(go_value(&json!({"b": 1, "a": "x"})), "map[a:x b:1]");
        assert_eq!(go_value(&json!(["a", 2, true, null])), "[a 2 true <nil>]");
        assert_eq!(go_value(&json!(0.5)), "0.5");
        assert_eq!(go_value(&json!(1e21)), "1e+21");
        assert_eq!(go_value(&json!(1e6)), "1e+06");
        assert_eq!(go_value(&json!(1234567.5)), "1.2345675e+06");
        assert_eq!(go_value(&json!(123456.0)), "123456");
        assert_eq!(go_value(&json!(0.000015)), "1.5e-05");
    }

    #[test]
    fn bad_specs_say_what_to_write() {
        for (spec, want) in [
            (
                "",
                "error: custom-columns format specified but no custom columns given",
            ),
            (
                "NAME",
                "error: unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>",
            ),
            ("NAME:{.a", "error: unexpected path string"),
        ] {
            let e = Columns::parse(spec).expect_err(spec);
            assert!(e.message.starts_with(want), "{spec}: {}", e.message);
            assert!(e.hint.is_some());
        }
    }
}
