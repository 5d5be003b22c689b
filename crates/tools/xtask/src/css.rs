//! The release build's stylesheet without its comments and indentation.
//!
//! `web/style.css` explains itself in comments (why a layout is so, which component draws what):
//! 1.5 KB of the page's gzipped weight. Trunk copies the file as written and puts its SHA-384 in
//! the `<link>`'s `integrity`; this step, after trunk, removes comments and leading whitespace
//! from that copy and writes the new digest into `index.html`, so the browser's integrity check
//! still holds. It changes no rule: only comments (outside strings) and whitespace at the start
//! of a line go. Running it twice changes nothing the second time.

use std::fs;
use std::path::Path;

use base64::Engine as _;
use sha2::{Digest, Sha384};

use crate::util::{note, Result};

/// Strips the stylesheet that `dist/index.html` links, and updates the link's `integrity`.
pub fn strip_stylesheet(dist: &Path) -> Result {
    let index_path = dist.join("index.html");
    let html = fs::read_to_string(&index_path)
        .map_err(|e| format!("reading {}: {e}", index_path.display()))?;
    let (href, integrity) = stylesheet_link(&html).ok_or_else(|| {
        format!(
            "{}: expected one `<link rel=\"stylesheet\" href=… integrity=\"sha384-…\">` (trunk's \
             output for web/style.css); trunk's output changed",
            index_path.display()
        )
    })?;
    let css_path = dist.join(href.trim_start_matches('/'));
    let css = fs::read_to_string(&css_path)
        .map_err(|e| format!("reading {}: {e}", css_path.display()))?;
    if integrity != sri(css.as_bytes()) {
        return Err(format!(
            "{}: its integrity in index.html is not its SHA-384; the step will not rewrite a \
             stylesheet it cannot vouch for",
            css_path.display()
        ));
    }
    let stripped = strip(&css);
    if stripped == css {
        return Ok(());
    }
    let new_html = html.replacen(&integrity, &sri(stripped.as_bytes()), 1);
    fs::write(&css_path, &stripped).map_err(|e| format!("writing {}: {e}", css_path.display()))?;
    fs::write(&index_path, new_html)
        .map_err(|e| format!("writing {}: {e}", index_path.display()))?;
    note(&format!(
        "stripped {href}: {} → {} bytes (comments and indentation)",
        css.len(),
        stripped.len()
    ));
    Ok(())
}

/// `href` and `integrity` of the one stylesheet link.
fn stylesheet_link(html: &str) -> Option<(String, String)> {
    let mut links = html.match_indices("<link rel=\"stylesheet\"");
    let (start, _) = links.next()?;
    if links.next().is_some() {
        return None;
    }
    let tag = &html[start..start + html[start..].find('>')?];
    let attr = |name: &str| {
        let from = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(tag[from..from + tag[from..].find('"')?].to_string())
    };
    let integrity = attr("integrity").filter(|i| i.starts_with("sha384-"))?;
    Some((attr("href")?, integrity))
}

/// The `integrity` value for `bytes`: `sha384-` and the digest in base64.
fn sri(bytes: &[u8]) -> String {
    let digest = Sha384::digest(bytes);
    format!(
        "sha384-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// `css` without comments (outside quoted strings), without each line's leading whitespace, and
/// without blank lines.
fn strip(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut chars = css.chars().peekable();
    let mut quote = None;
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => {
                out.push(c);
                if c == '\\' {
                    out.extend(chars.next());
                } else if c == q {
                    quote = None;
                }
            }
            None if c == '/' && chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = '\0';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            None => {
                if c == '"' || c == '\'' {
                    quote = Some(c);
                }
                out.push(c);
            }
        }
    }
    let mut lines = String::with_capacity(out.len());
    for line in out.lines().map(str::trim).filter(|l| !l.is_empty()) {
        lines.push_str(line);
        lines.push('\n');
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_indentation_go_and_rules_and_strings_stay() {
        let css = "/* A palette.\n   Two lines. */\n:root {\n  --a: #fff; /* white */\n}\n\n\
                   .x::before { content: \"/* not a comment */\"; }\n.y { content: '\\'/*'; }\n";
        assert_eq!(
            strip(css),
            ":root {\n--a: #fff;\n}\n.x::before { content: \"/* not a comment */\"; }\n\
             .y { content: '\\'/*'; }\n"
        );
        assert_eq!(
            strip(&strip(css)),
            strip(css),
            "a second pass changes nothing"
        );
    }

    #[test]
    fn an_unclosed_comment_runs_to_the_end_as_in_a_browser() {
        assert_eq!(strip("a { b: c; }\n/* open"), "a { b: c; }\n");
    }

    #[test]
    fn the_integrity_is_the_sha384_in_base64() {
        // `printf abc | openssl dgst -sha384 -binary | base64`
        assert_eq!(
            sri(b"abc"),
            "sha384-ywB1P0WjXou1oD1pmsZQBycsMqsO3tFjGotgWkP/W+2AhgcroefMI1i67KE0yCWn"
        );
    }

    #[test]
    fn finds_trunks_stylesheet_link() {
        let html = r#"<link rel="icon" href="/f.svg"><link rel="stylesheet" href="/style-1.css" crossorigin="anonymous" integrity="sha384-abc"/>"#;
        assert_eq!(
            stylesheet_link(html),
            Some(("/style-1.css".into(), "sha384-abc".into()))
        );
        assert_eq!(stylesheet_link(&html.replace("sha384-", "sha256-")), None);
        assert_eq!(stylesheet_link(&format!("{html}{html}")), None);
        assert_eq!(stylesheet_link("<html></html>"), None);
    }

    #[test]
    fn a_dist_is_stripped_once_with_a_matching_integrity() {
        let dist = std::env::temp_dir().join(format!("xtask-css-{}", std::process::id()));
        fs::create_dir_all(&dist).unwrap();
        let css = "/* why */\n.a {\n  color: red;\n}\n";
        fs::write(dist.join("style-1.css"), css).unwrap();
        let html = format!(
            "<link rel=\"stylesheet\" href=\"/style-1.css\" integrity=\"{}\"/>",
            sri(css.as_bytes())
        );
        fs::write(dist.join("index.html"), &html).unwrap();
        strip_stylesheet(&dist).unwrap();
        let stripped = fs::read_to_string(dist.join("style-1.css")).unwrap();
        assert_eq!(stripped, ".a {\ncolor: red;\n}\n");
        let new_html = fs::read_to_string(dist.join("index.html")).unwrap();
        assert!(new_html.contains(&sri(stripped.as_bytes())), "{new_html}");
        strip_stylesheet(&dist).unwrap();
        assert_eq!(
            fs::read_to_string(dist.join("index.html")).unwrap(),
            new_html
        );
        // A stylesheet that is not what its integrity says is refused, not rewritten.
        fs::write(dist.join("style-1.css"), "/* changed */\n.a{}\n").unwrap();
        assert!(strip_stylesheet(&dist)
            .unwrap_err()
            .contains("not its SHA-384"));
        fs::remove_dir_all(&dist).unwrap();
    }
}
