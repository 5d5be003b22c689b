//! The release build's scripts (`dist/public/*.js`: boot.js, unlzma.js, the embed demo's; and
//! wasm-bindgen's glue, `dist/dsplay-app-*.js`) without their comment lines and indentation.
//!
//! These files are served as written, and they explain themselves at length (the glue carries
//! a JSDoc block over every function): some 2.5 KB of the page's gzipped weight. This step,
//! after trunk, drops every line that is only a `//` comment and every run of lines that is
//! only a `/* … */` comment (outside strings and template literals, which may span lines and
//! hold either), and the leading whitespace of code lines (never of a line inside a template
//! literal). The code itself, and comments at the end of a code line, stay, so what runs is what
//! was written. No file carries an `integrity` (boot.js is loaded by `Trunk.toml`'s
//! `pattern_script`, the glue and the others by boot.js and the demo page). Running it twice
//! changes nothing the second time.

use std::fs;
use std::path::Path;

use crate::util::{note, Result};

/// Strips the comment lines of every `.js` file in `dist/` and `dist/public/`.
pub fn strip_scripts(dist: &Path) -> Result {
    let mut paths: Vec<_> = [dist.to_path_buf(), dist.join("public")]
        .iter()
        .filter_map(|dir| fs::read_dir(dir).ok())
        .flat_map(|entries| entries.flatten().map(|e| e.path()))
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
                "stripped {}: {} → {} bytes (comment lines, indentation)",
                path.strip_prefix(dist).unwrap_or(&path).display(),
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

/// Where a `/*` comment that starts line `i` ends, when nothing but whitespace follows its
/// `*/`: the index of that closing line.
fn whole_block_comment(lines: &[&str], i: usize) -> Option<usize> {
    let first = lines[i].trim_start().strip_prefix("/*")?;
    let mut rest = first;
    for (j, line) in lines.iter().enumerate().skip(i) {
        if j > i {
            rest = line;
        }
        if let Some(end) = rest.find("*/") {
            return rest[end + 2..].trim().is_empty().then_some(j);
        }
    }
    None
}

/// `js` without the lines that hold only a comment in code and without the indentation of its
/// code lines. Fails, rather than guess, when a template literal or block comment is still open
/// at the end.
fn strip(js: &str) -> std::result::Result<String, String> {
    let mut out = String::with_capacity(js.len());
    let mut at = At::Code;
    // For each `${` open inside a template: the depth of `{` within its code.
    let mut braces: Vec<u32> = Vec::new();
    let lines: Vec<&str> = js.split_inclusive('\n').collect();
    let mut i = 0;
    while i < lines.len() {
        let raw = lines[i];
        i += 1;
        if at == At::Code {
            if raw.trim_start().starts_with("//") {
                continue;
            }
            if let Some(last) = whole_block_comment(&lines, i - 1) {
                i = last + 1;
                continue;
            }
        }
        // Indentation goes from a line that starts in code (inside a template it is text).
        let line = if at == At::Code {
            raw.trim_start_matches([' ', '\t'])
        } else {
            raw
        };
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
                    const b = \"//\";\n";
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
    fn block_comment_lines_and_indentation_go_a_comment_before_code_stays() {
        let js = "export class A {\n    /**\n     * @returns {number}\n     */\n    get n() {\n        return 1; /* tail */\n    }\n    /* one line */\n    /* before */ f();\n}\n";
        assert_eq!(
            strip(js).unwrap(),
            "export class A {\nget n() {\nreturn 1; /* tail */\n}\n/* before */ f();\n}\n"
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
            // Every code line is kept, in order (without its indentation).
            let code = |s: &str| -> Vec<String> {
                s.lines()
                    .map(str::trim_start)
                    .filter(|l| !l.starts_with("//") && !l.starts_with("/*") && !l.starts_with('*'))
                    .map(str::to_string)
                    .collect()
            };
            assert_eq!(code(&js), code(&stripped), "{name}");
        }
    }
}
