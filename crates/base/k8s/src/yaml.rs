//! JSON values → YAML text exactly as `kubectl get -o yaml` prints them (sigs.k8s.io/yaml over
//! go-yaml v2): keys sorted (kubectl prints unstructured maps, so `apiVersion, kind, metadata,
//! spec, status` comes out of the sort), 2-space indent, list items at their key's indent,
//! strings that would read back as something else in double quotes (`"1"`, `""`, dates),
//! strings that cannot be plain in single quotes, multi-line strings as `|` blocks.
//!
//! The one go-yaml-style writer: kubectl prints objects with [`to_yaml`], and the scenario
//! writer (which lays its files out for people) takes its scalar rules from here:
//! [`plain_in_block`] (would go-yaml leave this string unquoted?) and [`double_quoted`]
//! (its escapes).

use std::fmt::Write;

use serde_json::Value;

/// The whole document, ending in a newline.
pub fn to_yaml(v: &Value) -> String {
    let mut out = String::new();
    match v {
        Value::Object(m) if !m.is_empty() => emit_mapping(m, 0, false, &mut out),
        Value::Array(a) if !a.is_empty() => emit_sequence(a, 0, false, &mut out),
        Value::Object(_) => out.push_str("{}\n"),
        Value::Array(_) => out.push_str("[]\n"),
        scalar => {
            out.push_str(&scalar_text(scalar, 0));
            out.push('\n');
        }
    }
    out
}

fn pad(out: &mut String, n: usize) {
    for _ in 0..n {
        out.push(' ');
    }
}

fn emit_mapping(
    m: &serde_json::Map<String, Value>,
    indent: usize,
    first_inline: bool,
    out: &mut String,
) {
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 || !first_inline {
            pad(out, indent);
        }
        out.push_str(&string_scalar(k, indent));
        out.push(':');
        emit_value(v, indent, false, out);
    }
}

fn emit_sequence(a: &[Value], indent: usize, first_inline: bool, out: &mut String) {
    for (i, v) in a.iter().enumerate() {
        if i > 0 || !first_inline {
            pad(out, indent);
        }
        out.push('-');
        emit_value(v, indent, true, out);
    }
}

/// A value after `key:` or, `after_dash`, after a sequence's `-`. A non-empty mapping or
/// sequence goes on the lines below a key (a sequence at the key's own indent, as go-yaml
/// writes it) and starts on the dash's line; anything else is a scalar after a space.
fn emit_value(v: &Value, indent: usize, after_dash: bool, out: &mut String) {
    let (sep, sequence_indent) = if after_dash {
        (' ', indent + 2)
    } else {
        ('\n', indent)
    };
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push(sep);
            emit_mapping(m, indent + 2, after_dash, out);
        }
        Value::Array(a) if !a.is_empty() => {
            out.push(sep);
            emit_sequence(a, sequence_indent, after_dash, out);
        }
        other => {
            out.push(' ');
            out.push_str(&scalar_text(other, indent));
            out.push('\n');
        }
    }
}

/// A scalar or an empty collection, on the current line. `indent` is the indent of the key or
/// dash that owns it (block scalars indent their lines two further).
fn scalar_text(v: &Value, indent: usize) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => string_scalar(s, indent),
        Value::Array(_) => "[]".into(),
        Value::Object(_) => "{}".into(),
    }
}

fn string_scalar(s: &str, indent: usize) -> String {
    if s.contains('\n') {
        if let Some(block) = literal_block(s, indent) {
            return block;
        }
        return double_quoted(s);
    }
    if plain_in_block(s) {
        return s.to_string();
    }
    if resolves_to_non_string(s) || !single_allowed(s) {
        return double_quoted(s);
    }
    format!("'{}'", s.replace('\'', "''"))
}

/// Whether go-yaml v2 writes `s` as a plain scalar in block context: it would read back as
/// this string (not null, a bool, a number or a time) and go-yaml's analysis allows it.
pub fn plain_in_block(s: &str) -> bool {
    !resolves_to_non_string(s) && plain_allowed(s)
}

/// `|`, `|-` or `|+` with the lines indented under their key.
fn literal_block(s: &str, indent: usize) -> Option<String> {
    let printable = s.chars().all(|c| c == '\n' || !needs_escape(c));
    if !printable || s.starts_with(' ') || s.lines().any(|l| l.ends_with(' ')) {
        return None;
    }
    let trailing = s.len() - s.trim_end_matches('\n').len();
    let chomp = match trailing {
        0 => "|-",
        1 => "|",
        _ => "|+",
    };
    let body = s.strip_suffix('\n').unwrap_or(s);
    let mut out = String::from(chomp);
    for line in body.split('\n') {
        out.push('\n');
        if !line.is_empty() {
            pad(&mut out, indent + 2);
            out.push_str(line);
        }
    }
    Some(out)
}

/// A double-quoted scalar as go-yaml v2's emitter writes it (`yaml_emitter_write_double_quoted_scalar`,
/// unicode on): `"` and `\\` escaped, and every character that is not
/// printable, a byte-order mark or a line break, by its short name or its code.
pub fn double_quoted(s: &str) -> String {
    crate::quote::double_quoted(s, |c, out| {
        if !needs_escape(c) {
            return false;
        }
        let named = match c {
            '\0' => "\\0",
            '\u{7}' => "\\a",
            '\u{8}' => "\\b",
            '\u{b}' => "\\v",
            '\u{c}' => "\\f",
            '\r' => "\\r",
            '\u{1b}' => "\\e",
            '\u{85}' => "\\N",
            '\u{2028}' => "\\L",
            '\u{2029}' => "\\P",
            c => {
                let n = c as u32;
                let _ = match n {
                    0..=0xFF => write!(out, "\\x{n:02X}"),
                    0x100..=0xFFFF => write!(out, "\\u{n:04X}"),
                    _ => write!(out, "\\U{n:08X}"),
                };
                return true;
            }
        };
        out.push_str(named);
        true
    })
}

/// Whether go-yaml writes `c` escaped in a double-quoted scalar (and so never in a plain or
/// block one): not printable, a line break, or a byte-order mark. `\n` counts; callers that
/// write blocks pass it (and tab) over.
pub fn needs_escape(c: char) -> bool {
    !printable(c) || is_break(c) || c == '\u{feff}'
}

/// go-yaml v2's `is_printable` (emitterc.go): newline, printable ASCII and the Basic
/// Multilingual Plane's printable ranges. It reads at most three UTF-8 bytes, so NEL and every
/// character beyond the BMP (emoji) count as not printable, and kubectl writes them escaped.
fn printable(c: char) -> bool {
    matches!(c as u32, 0x0A | 0x20..=0x7E | 0xA0..=0xD7FF | 0xE000..=0xFFFD)
}

/// go-yaml's `is_break`: the line breaks YAML 1.1 knows.
fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// go-yaml v2 `resolve`: would this plain text read back as null, a bool, a number or a time?
/// The reader's own rule ([`resolve_plain`]), plus timestamps and base-60 floats, which
/// go-yaml's encoder also quotes (`stringv`: `rtag == yaml_STR_TAG && !isBase60Float(s)`).
fn resolves_to_non_string(s: &str) -> bool {
    s == "<<" || !matches!(resolve_plain(s), Resolved::Str) || is_timestamp(s) || is_base60(s)
}

/// What an untagged plain scalar means to go-yaml v2 (YAML 1.1 core types). The one rule both
/// directions use: the manifest reader (apiserver) turns it into values, and the writers here
/// quote every string it would not read back as a string.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Resolved {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str,
}

/// go-yaml v2's `resolve()` (resolve.go) for an untagged plain scalar: the YAML 1.1 words, then
/// for text starting with a digit, a sign or a dot, `strconv.ParseInt(plain, 0, 64)`,
/// `ParseUint`, a yamlStyleFloat, and `0b`/`-0b` binary, with underscores removed.
pub fn resolve_plain(s: &str) -> Resolved {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Resolved::Null,
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return Resolved::Bool(true);
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return Resolved::Bool(false);
        }
        ".nan" | ".NaN" | ".NAN" => return Resolved::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Resolved::Float(f64::INFINITY)
        }
        "-.inf" | "-.Inf" | "-.INF" => return Resolved::Float(f64::NEG_INFINITY),
        _ => {}
    }
    let first = s.as_bytes().first().copied().unwrap_or(b' ');
    if !(first.is_ascii_digit() || matches!(first, b'-' | b'+' | b'.')) {
        return Resolved::Str;
    }
    let plain: String = s.chars().filter(|c| *c != '_').collect();
    if let Some(i) = go_parse_int(&plain) {
        return Resolved::Int(i);
    }
    if let Some(u) = go_parse_uint(&plain) {
        return Resolved::UInt(u);
    }
    if is_yaml_float(&plain) {
        if let Ok(f) = plain.parse::<f64>() {
            if f.is_finite() {
                return Resolved::Float(f);
            }
        }
    }
    if let Some(rest) = plain.strip_prefix("0b") {
        if let Ok(i) = i64::from_str_radix(rest, 2) {
            return Resolved::Int(i);
        }
    } else if let Some(rest) = plain.strip_prefix("-0b") {
        if let Ok(i) = i64::from_str_radix(&format!("-{rest}"), 2) {
            return Resolved::Int(i);
        }
    }
    Resolved::Str
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn is_yaml_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'-' | b'+')) {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Go's `strconv.ParseUint(s, 0, 64)`: 0x/0o/0b prefixes, a leading 0 means octal.
fn go_parse_uint(s: &str) -> Option<u64> {
    let (digits, radix) = if let Some(r) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (r, 16)
    } else if let Some(r) = s.strip_prefix("0o").or_else(|| s.strip_prefix("0O")) {
        (r, 8)
    } else if let Some(r) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        (r, 2)
    } else if s.len() > 1 && s.starts_with('0') {
        (&s[1..], 8)
    } else {
        (s, 10)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u64::from_str_radix(digits, radix).ok()
}

/// Go's `strconv.ParseInt(s, 0, 64)`.
fn go_parse_int(s: &str) -> Option<i64> {
    let (neg, rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let u = go_parse_uint(rest)?;
    if neg {
        if u <= i64::MAX as u64 + 1 {
            Some((u as i128).wrapping_neg() as i64)
        } else {
            None
        }
    } else {
        i64::try_from(u).ok()
    }
}

/// `2006-1-2`, optionally followed by `T`/`t`/` ` and a time.
fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|x| x.iter().all(u8::is_ascii_digit));
    if !(digits(0..4) && b.get(4) == Some(&b'-')) {
        return false;
    }
    let rest = &s[5..];
    let mut parts = rest.splitn(3, ['-', 'T', 't', ' ']);
    let month = parts.next().unwrap_or("");
    let day_and_more = &rest[month.len().min(rest.len())..];
    if month.is_empty() || month.len() > 2 || !month.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let Some(day_rest) = day_and_more.strip_prefix('-') else {
        return false;
    };
    let day: String = day_rest.chars().take_while(char::is_ascii_digit).collect();
    !day.is_empty() && day.len() <= 2
}

fn is_base60(s: &str) -> bool {
    let t = s.strip_prefix(['-', '+']).unwrap_or(s);
    t.contains(':')
        && t.split(':')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit() || c == '.'))
        && t.chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() && c != '0')
}

/// go-yaml's analysis for a plain scalar in block context.
fn plain_allowed(s: &str) -> bool {
    if s.is_empty() || s.starts_with("---") || s.starts_with("...") {
        return false;
    }
    if s.starts_with(' ') || s.ends_with(' ') {
        return false;
    }
    let first = s.chars().next().unwrap_or(' ');
    if "#,[]{}&*!|>'\"%@`".contains(first) {
        return false;
    }
    let second = s.chars().nth(1);
    if "-?:".contains(first) && second.is_none_or(|c| c == ' ') {
        return false;
    }
    if s.ends_with(':') || s.contains(": ") || s.contains(" #") || s.contains(":\t") {
        return false;
    }
    !s.chars().any(needs_escape)
}

/// go-yaml allows single quotes unless the text has special characters (not printable, a
/// byte-order mark) or spaces at either end.
fn single_allowed(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| printable(c) && c != '\u{feff}')
        && !s.starts_with(' ')
        && !s.ends_with(' ')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// go-yaml's escapes: short names where it has them, else the code (emoji too: its
    /// printable test stops at three UTF-8 bytes); a line break other than `\n` keeps a
    /// one-line string out of plain style but not out of single quotes.
    #[test]
    fn escapes_as_go_yaml_does() {
        assert_eq!(
            to_yaml(&json!(
                "a\u{1b}b\u{2028}c\u{feff}\u{1}\u{85}\u{10FFFE}\u{FFFE}"
            )),
            "\"a\\eb\\Lc\\uFEFF\\x01\\N\\U0010FFFE\\uFFFE\"\n"
        );
        assert_eq!(to_yaml(&json!("a\u{2028}b")), "'a\u{2028}b'\n");
        assert_eq!(to_yaml(&json!("tab\there")), "\"tab\\there\"\n");
        assert_eq!(to_yaml(&json!("é ü")), "é ü\n");
        assert_eq!(to_yaml(&json!("go 🚀")), "\"go \\U0001F680\"\n");
        assert!(plain_in_block("100m") && !plain_in_block("1e3") && !plain_in_block("2024-01-02"));
    }

    #[test]
    fn prints_like_kubectl() {
        let v = json!({
            "kind": "DaemonSet", "apiVersion": "apps/v1",
            "metadata": {"annotations": {"deprecated.daemonset.template.generation": "1"},
                         "creationTimestamp": "2024-05-01T11:50:00Z", "name": "x", "resourceVersion": ""},
            "spec": {"template": {"spec": {"containers": [{"name": "a", "args": ["--x", "y: z"]}],
                     "nodeSelector": {}, "tolerations": []}}},
            "note": "line1\nline2\n"
        });
        assert_eq!(
            to_yaml(&v),
            "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  annotations:\n    deprecated.daemonset.template.generation: \"1\"\n  creationTimestamp: \"2024-05-01T11:50:00Z\"\n  name: x\n  resourceVersion: \"\"\nnote: |\n  line1\n  line2\nspec:\n  template:\n    spec:\n      containers:\n      - args:\n        - --x\n        - 'y: z'\n        name: a\n      nodeSelector: {}\n      tolerations: []\n"
        );
    }
}
