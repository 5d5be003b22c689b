//! Double-quoted strings: Go's `strconv.Quote`, which API-server and kubectl messages print
//! (users paste these messages into search engines, so they must be Go's to the byte), and the
//! one loop the YAML writers share with it, each writer giving its own escapes for the rest.

use std::fmt::Write;

/// `s` between double quotes, `"` and `\` escaped, newline and tab as `\n` and `\t`; any other
/// character is offered to `escape`, which writes it escaped and returns true, or returns
/// false to have it written as is.
pub fn double_quoted(s: &str, escape: impl Fn(char, &mut String) -> bool) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if escape(c, &mut out) => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The explicit bidi formatting characters (marks, embeddings, overrides, isolates): Go's
/// `strconv.IsPrint` is false for them, so `%q` escapes them; shown raw, an override in a
/// quoted value would turn the words after it around.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` with its bidi formatting characters written as `%q` writes them (`\u202e`), for text
/// shown raw (a terminal line, a page address) with other words after it.
pub fn bidi_visible(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if is_bidi_control(c) {
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// Go's `strconv.Quote`.
pub fn go(s: &str) -> String {
    double_quoted(s, |c, out| {
        match c {
            '\r' => out.push_str("\\r"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c.is_control() || is_bidi_control(c)) && (c as u32) <= 0xffff => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if c.is_control() => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
            _ => return false,
        }
        true
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_quote_escapes_as_strconv_quote() {
        assert_eq!(go("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(go("\n\t\r\u{7}\u{8}\u{c}\u{b}"), r#""\n\t\r\a\b\f\v""#);
        assert_eq!(go("\u{1}\u{7f}"), r#""\x01\x7f""#);
        assert_eq!(go("\u{85}"), r#""\u0085""#);
        assert_eq!(go("ü✓"), "\"ü✓\"");
    }

    #[test]
    fn other_characters_follow_the_writers_rule() {
        let upper_hex = |c: char, out: &mut String| {
            c.is_control() && {
                let _ = write!(out, "\\x{:02X}", c as u32);
                true
            }
        };
        assert_eq!(double_quoted("a\u{1b}\n", upper_hex), r#""a\x1B\n""#);
        assert_eq!(double_quoted("plain", |_, _| false), "\"plain\"");
    }
}
