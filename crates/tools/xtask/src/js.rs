//! The release build's own scripts (`dist/public/*.js`: boot.js, unlzma.js, the embed demo's)
//! without their comment lines.
//!
//! These files are served as written, and they explain themselves at length: 1.6 KB of the
//! page's gzipped weight. This step, after trunk, drops every line that is only a `//` comment
//! (outside strings and template literals, which may span lines and hold `//`). Code lines,
//! their indentation and comments at the end of a code line stay, so what runs is what was
//! written. No file carries an `integrity` (boot.js is loaded by `Trunk.toml`'s
//! `pattern_script`, the others by boot.js and the demo page). Running it twice changes nothing
//! the second time.

use std::fs;
use std::path::Path;

use crate::util::{note, Result};

/// Strips the comment lines of every `.js` file in `dist/public/`.
pub fn strip_scripts(dist: &Path) -> Result {
    let dir = dist.join("public");
    let Ok(entries) = fs::read_dir(&dir) else {
        return Ok(());
    };
    let mut paths: Vec<_> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "js"))
        .collect();
    paths.sort();
    for path in paths {
        let js =
            fs::read_to_string(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
        let stripped = strip(&js).map_err(|e| format!("{}: {e}", path.display()))?;
        if stripped != js {
            fs::write(&path, &stripped).map_err(|e| format!("writing {}: {e}", path.display()))?;
            note(&format!(
                "stripped public/{}: {} → {} bytes (comment lines)",
                path.file_name().unwrap_or_default().to_string_lossy(),
                js.len(),
                stripped.len()
            ));
        }
    }
    Ok(())
}

/// Where the scanner is at the start of a line.
#[derive(Clone, Copy, PartialEq, Debug)]
enum At {
    Code,
    /// Inside a template literal (nested `${…}` code is tracked by `braces`).
    Template,
    BlockComment,
}

/// `js` without the lines that hold only a `//` comment in code. Fails, rather than guess,
/// when a template literal or block comment is still open at the end.
fn strip(js: &str) -> std::result::Result<String, String> {
    let mut out = String::with_capacity(js.len());
    let mut at = At::Code;
    // For each `${` open inside a template: the depth of `{` within its code.
    let mut braces: Vec<u32> = Vec::new();
    for line in js.split_inclusive('\n') {
        if at == At::Code && line.trim_start().starts_with("//") {
            continue;
        }
        out.push_str(line);
        let mut chars = line.chars().peekable();
        let mut quote: Option<char> = None;
        while let Some(c) = chars.next() {
            match at {
                At::BlockComment => {
                    if c == '*' && chars.peek() == Some(&'/') {
                        chars.next();
                        at = At::Code;
                    }
                }
                At::Template => match c {
                    '\\' => {
                        chars.next();
                    }
                    '`' => at = At::Code,
                    '$' if chars.peek() == Some(&'{') => {
                        chars.next();
                        braces.push(0);
                        at = At::Code;
                    }
                    _ => {}
                },
                At::Code => {
                    if let Some(q) = quote {
                        if c == '\\' {
                            chars.next();
                        } else if c == q {
                            quote = None;
                        }
                        continue;
                    }
                    match c {
                        '\'' | '"' => quote = Some(c),
                        '`' => at = At::Template,
                        '/' if chars.peek() == Some(&'/') => break,
                        '/' if chars.peek() == Some(&'*') => {
                            chars.next();
                            at = At::BlockComment;
                        }
                        '{' => {
                            if let Some(d) = braces.last_mut() {
                                *d += 1;
                            }
                        }
                        '}' => match braces.last_mut() {
                            Some(0) => {
                                braces.pop();
                                at = At::Template;
                            }
                            Some(d) => *d -= 1,
                            None => {}
                        },
                        _ => {}
                    }
                }
            }
        }
    }
    match at {
        At::Code => Ok(out),
        At::Template => Err("a template literal is not closed; the file is left as it is".into()),
        At::BlockComment => Err("a /* comment is not closed; the file is left as it is".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_lines_go_and_code_strings_and_templates_stay() {
        let js = "// A header.\n  // indented\nconst a = 1; // kept: on a code line\n\
                  const url = 'http://x'; // the // in a string is not a comment\n\
                  const t = `line one\n// not a comment: inside a template\n  ${a ? `in ${'`'}` : \"\"}\n// still in it\n`;\n\
                  /* a block\n// inside the block\n*/\nconst b = \"//\";\n";
        let want = "const a = 1; // kept: on a code line\n\
                    const url = 'http://x'; // the // in a string is not a comment\n\
                    const t = `line one\n// not a comment: inside a template\n  ${a ? `in ${'`'}` : \"\"}\n// still in it\n`;\n\
                    /* a block\n// inside the block\n*/\nconst b = \"//\";\n";
        assert_eq!(strip(js).unwrap(), want);
        assert_eq!(strip(want).unwrap(), want, "a second pass changes nothing");
    }

    #[test]
    fn braces_inside_template_code_and_escaped_backticks_are_followed() {
        let js = "const s = `${ {a: 1}.a } \\` ${f({b: `x`})}\n// in the template\n`;\n// out\n";
        assert_eq!(
            strip(js).unwrap(),
            "const s = `${ {a: 1}.a } \\` ${f({b: `x`})}\n// in the template\n`;\n"
        );
    }

    #[test]
    fn an_unclosed_template_or_block_comment_is_an_error() {
        assert!(strip("const t = `open\n").unwrap_err().contains("template"));
        assert!(strip("/* open\n").unwrap_err().contains("comment"));
    }

    #[test]
    fn the_sites_scripts_strip_cleanly() {
        let public = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../public");
        for name in ["boot.js", "unlzma.js", "embed-demo.js"] {
            let js = fs::read_to_string(public.join(name)).unwrap();
            let stripped = strip(&js).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                stripped.len() < js.len(),
                "{name} has comment lines to drop"
            );
            // Every code line is kept, in order.
            let code = |s: &str| -> Vec<String> {
                s.lines()
                    .filter(|l| !l.trim_start().starts_with("//"))
                    .map(str::to_string)
                    .collect()
            };
            assert_eq!(code(&js), code(&stripped), "{name}");
        }
    }
}
