//! Printing values the way Go's `fmt` prints them in API-server error messages (`%q`, `%#v`).
//!
//! Field errors quote the offending value with Go syntax (`map[string]string{"app":"x"}`,
//! `intstr.IntOrString{Type:0, IntVal:1, StrVal:""}`); users paste these messages into search
//! engines, so we print them the same way.

use std::collections::BTreeMap;
use std::fmt::Write;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, LabelSelectorRequirement};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

/// Go's `strings.ToLower` for what Kubernetes names, keys and kinds are made of: ASCII letters,
/// and the two non-ASCII letters whose (simple) lowercase is ASCII, U+212A KELVIN SIGN → `k`
/// and U+0130 → `i`, so a qualified-name check passes or fails exactly as Go's. Other non-ASCII
/// letters are kept (Go would lower them; no name or key may hold them, and the checks that
/// reject them do not print the lowered text). std's `to_lowercase` would bring Unicode's case
/// tables, 15 KB that do not compress, into the web app.
pub fn to_lower(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\u{212A}' => 'k',
            '\u{130}' => 'i',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

/// Go's `time.Duration.String()` for a non-negative number of seconds, to the millisecond:
/// `0s`, `250ms`, `1.5s`, `10s`, `1m20s`, `5m0s`, `2h0m0s`. The kubelet prints back-off periods
/// and pull times this way.
pub fn duration(secs: f64) -> String {
    let ms = if secs.is_finite() && secs > 0.0 {
        (secs * 1000.0).round() as u64
    } else {
        0
    };
    if ms == 0 {
        return "0s".into();
    }
    if ms < 1000 {
        return format!("{ms}ms");
    }
    let (h, m, s, frac) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    let mut out = String::new();
    if h > 0 {
        let _ = write!(out, "{h}h");
    }
    if h > 0 || m > 0 {
        let _ = write!(out, "{m}m");
    }
    let _ = write!(out, "{s}");
    if frac > 0 {
        let f = format!("{frac:03}");
        let _ = write!(out, ".{}", f.trim_end_matches('0'));
    }
    out.push('s');
    out
}

/// Go's `strconv.Quote`, and bidi controls shown as `%q` shows them.
pub use k8s_base::quote::{bidi_visible, go as quote};

/// `%#v` of a `map[string]string` (Go sorts the keys).
pub fn string_map(m: Option<&BTreeMap<String, String>>) -> String {
    match m {
        None => "map[string]string(nil)".into(),
        Some(m) => {
            let body: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}:{}", quote(k), quote(v)))
                .collect();
            format!("map[string]string{{{}}}", body.join(", "))
        }
    }
}

/// `%#v` of a `[]string`.
pub fn string_slice(v: Option<&Vec<String>>) -> String {
    match v {
        None => "[]string(nil)".into(),
        Some(v) => {
            let body: Vec<String> = v.iter().map(|s| quote(s)).collect();
            format!("[]string{{{}}}", body.join(", "))
        }
    }
}

/// `%#v` of an `intstr.IntOrString`.
pub fn int_or_string(v: &IntOrString) -> String {
    match v {
        IntOrString::Int(i) => format!("intstr.IntOrString{{Type:0, IntVal:{i}, StrVal:\"\"}}"),
        IntOrString::String(s) => {
            format!(
                "intstr.IntOrString{{Type:1, IntVal:0, StrVal:{}}}",
                quote(s)
            )
        }
    }
}

/// `%#v` of a `v1.LabelSelector`.
pub fn label_selector(s: &LabelSelector) -> String {
    format!(
        "v1.LabelSelector{{MatchLabels:{}, MatchExpressions:{}}}",
        string_map(s.match_labels.as_ref()),
        requirements(s.match_expressions.as_ref())
    )
}

fn requirements(v: Option<&Vec<LabelSelectorRequirement>>) -> String {
    match v {
        None => "[]v1.LabelSelectorRequirement(nil)".into(),
        Some(v) => {
            let body: Vec<String> = v
                .iter()
                .map(|r| {
                    format!(
                        "v1.LabelSelectorRequirement{{Key:{}, Operator:{}, Values:{}}}",
                        quote(&r.key),
                        quote(&r.operator),
                        string_slice(r.values.as_ref())
                    )
                })
                .collect();
            format!("[]v1.LabelSelectorRequirement{{{}}}", body.join(", "))
        }
    }
}

/// Go prints a non-nil pointer inside `%#v` as its address; we have none, so print a stable one.
pub fn pointer(type_name: &str, is_set: bool) -> String {
    if is_set {
        format!("(*{type_name})(0xc000010000)")
    } else {
        format!("(*{type_name})(nil)")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn durations_print_as_go_prints_them() {
        let cases = [
            (0.0, "0s"),
            (0.25, "250ms"),
            (1.5, "1.5s"),
            (10.0, "10s"),
            (80.0, "1m20s"),
            (300.0, "5m0s"),
            (7200.0, "2h0m0s"),
            (3661.25, "1h1m1.25s"),
        ];
        for (secs, want) in cases {
            assert_eq!(super::duration(secs), want, "{secs}");
        }
    }

    use super::*;

    #[test]
    fn lowercase_is_gos_where_names_can_tell() {
        assert_eq!(to_lower("DaemonSet/Agent-1"), "daemonset/agent-1");
        // Go's unicode.ToLower maps these two to ASCII letters, so `\u{212A}ey` is a valid
        // annotation key to the API server.
        assert_eq!(to_lower("\u{212A}EY.\u{130}O"), "key.io");
        assert_eq!(to_lower("É"), "É");
    }

    #[test]
    fn quote_escapes_like_go() {
        assert_eq!(quote("a\"b\n"), "\"a\\\"b\\n\"");
        assert_eq!(quote("é"), "\"é\"");
        assert_eq!(quote("\u{1}"), "\"\\x01\"");
        // strconv.Quote("a\u202eb\u2069"): the bidi controls are not printable in Go.
        assert_eq!(quote("a\u{202e}b\u{2069}"), "\"a\\u202eb\\u2069\"");
    }

    #[test]
    fn bidi_controls_are_made_visible_and_nothing_else() {
        assert_eq!(
            bidi_visible("a\u{202e}b \u{200f}é\t<"),
            "a\\u202eb \\u200fé\t<"
        );
    }

    #[test]
    fn maps_print_sorted_with_go_syntax() {
        let m: BTreeMap<String, String> = [("b".into(), "2".into()), ("a".into(), "1".into())]
            .into_iter()
            .collect();
        assert_eq!(
            string_map(Some(&m)),
            r#"map[string]string{"a":"1", "b":"2"}"#
        );
        assert_eq!(string_map(None), "map[string]string(nil)");
    }
}
