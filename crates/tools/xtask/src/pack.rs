//! The last step of the release build: ships the app's wasm as `.lzma` instead of raw, with the
//! decoder that unpacks it.
//!
//! The wasm is most of what the page loads. Static hosts serve it gzipped (GitHub Pages and most
//! docs hosts do gzip and nothing better), and gzip leaves 1.76 MB of wasm at 0.70 MB; LZMA
//! leaves it at 0.53 MB. So `dist/` carries `<name>_bg.wasm.lzma` (the "LZMA alone" format of
//! `xz --format=lzma`, with the unpacked size in its header) and `public/unlzma.wasm`, our
//! decoder (crates/base/unlzma, 5 KB gzipped); `public/boot.js` feeds the download to the decoder
//! as it arrives and the unpacked bytes to the browser's streaming compiler as they come.
//!
//! The step rewrites trunk's `index.html` in two places, and fails loudly if trunk's output ever
//! stops matching: the `wasm=` parameter of the boot.js script names the packed file, and
//! trunk's `<link rel="preload">` of the raw wasm goes (it would download the raw file too), as
//! does the glue's `modulepreload` (a click-to-load embed loads nothing before the click).
//! Before anything is written, the packed bytes are unpacked again and compared.

use std::fs;
use std::io::{Read, Write};
use std::path::Path;
use std::process::Command;

use lzma_rust2::{EncodeMode, LzmaOptions, LzmaReader, LzmaWriter, MfType};

use crate::static_server::STRICT_CSP;
use crate::util::{note, run, target_dir, Result};

/// The extension the packed file gets; boot.js unpacks a `wasm=` file that ends with it.
pub const PACKED_EXT: &str = ".lzma";

/// The decoder module's crate, and where boot.js finds the module (`public/` of `dist/`).
const DECODER_CRATE: &str = "dsplay-unlzma";
const DECODER_FILE: &str = "public/unlzma.wasm";

/// Packs the wasm that `dist/index.html` loads, puts the decoder beside it, strips the
/// stylesheet's comments (`css.rs`), the comment lines of the scripts (`js.rs`) and the comments
/// of `index.html`. Running it on a packed `dist/` changes nothing.
pub fn pack(root: &Path, dist: &Path) -> Result {
    build_decoder(root, dist)?;
    pack_wasm(dist)?;
    crate::css::strip_stylesheet(dist)?;
    crate::js::strip_scripts(dist)?;
    strip_html_comments(dist)?;
    add_csp(dist)
}

/// Drops the `<!-- … -->` comments of `index.html` (they explain the page to its readers, and
/// cost its every visitor): the markup is left as it is. Idempotent.
fn strip_html_comments(dist: &Path) -> Result {
    let index_path = dist.join("index.html");
    let html = fs::read_to_string(&index_path)
        .map_err(|e| format!("reading {}: {e}", index_path.display()))?;
    let stripped = without_html_comments(&html);
    if stripped != html {
        fs::write(&index_path, &stripped)
            .map_err(|e| format!("writing {}: {e}", index_path.display()))?;
        note(&format!(
            "stripped index.html: {} → {} bytes (comments)",
            html.len(),
            stripped.len()
        ));
    }
    Ok(())
}

/// `html` without its comments, and without the lines they leave blank. An unclosed comment
/// stays as it is.
fn without_html_comments(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find("<!--") {
        let Some(len) = rest[start..].find("-->") else {
            break;
        };
        out.push_str(&rest[..start]);
        rest = &rest[start + len + 3..];
    }
    out.push_str(rest);
    let mut lines = String::with_capacity(out.len());
    for line in out.split_inclusive('\n') {
        if !line.trim().is_empty() {
            lines.push_str(line);
        }
    }
    lines
}

/// Writes the strict policy into `index.html` as `<meta http-equiv="Content-Security-Policy">`
/// (right after `<meta charset>`, before anything it governs), so the page keeps it on any host,
/// one that sends no headers included (issue 27; e2e `csp-meta.test.mjs`). The e2e server sends
/// the same policy as a header ([`STRICT_CSP`]). Not in `web/index.html`: `trunk serve` injects
/// an inline live-reload script that the policy would block. Idempotent.
fn add_csp(dist: &Path) -> Result {
    let index_path = dist.join("index.html");
    let html = fs::read_to_string(&index_path)
        .map_err(|e| format!("reading {}: {e}", index_path.display()))?;
    let new_html = with_csp(&html)?;
    if new_html != html {
        fs::write(&index_path, new_html)
            .map_err(|e| format!("writing {}: {e}", index_path.display()))?;
    }
    Ok(())
}

fn with_csp(html: &str) -> Result<String> {
    let meta = csp_meta();
    if html.contains(&meta) {
        return Ok(html.to_string());
    }
    if html.contains("http-equiv=\"Content-Security-Policy\"") {
        return Err(
            "index.html has a Content-Security-Policy meta tag that is not STRICT_CSP".into(),
        );
    }
    let charset = "<meta charset=\"utf-8\">";
    let at = html
        .find(charset)
        .ok_or("index.html has no `<meta charset=\"utf-8\">` to put the policy after")?
        + charset.len();
    Ok(format!("{}\n    {meta}{}", &html[..at], &html[at..]))
}

/// The policy's meta tag (`'` needs no escaping inside a double-quoted attribute).
pub fn csp_meta() -> String {
    format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{STRICT_CSP}\">")
}

/// Builds crates/base/unlzma for wasm32 (release, opt-level 3: speed) and optimises it into `dist/`.
fn build_decoder(root: &Path, dist: &Path) -> Result {
    run(Command::new("cargo").args([
        "build",
        "--release",
        "--target",
        "wasm32-unknown-unknown",
        "-p",
        DECODER_CRATE,
    ]))?;
    let built = target_dir(root)
        .join("wasm32-unknown-unknown/release")
        .join(format!("{}.wasm", DECODER_CRATE.replace('-', "_")));
    let dest = dist.join(DECODER_FILE);
    // wasm-opt: npm's binaryen, the one trunk uses (on PATH after `ensure`). It drops the
    // input buffer's 16 KB of zeros from the data and the debug sections: 82 KB → 13 KB.
    run(Command::new("wasm-opt")
        .arg("-O3")
        .args(["--strip-debug", "--strip-producers"])
        .arg(&built)
        .arg("-o")
        .arg(&dest))
}

fn pack_wasm(dist: &Path) -> Result {
    let index_path = dist.join("index.html");
    let html = fs::read_to_string(&index_path)
        .map_err(|e| format!("reading {}: {e}", index_path.display()))?;
    let wasm_name = wasm_param(&html).ok_or_else(|| {
        format!(
            "{} has no boot.js script with a `wasm=` parameter: Trunk.toml's `pattern_script` \
             or trunk's output changed, and the pack step does not know which file to pack",
            index_path.display()
        )
    })?;
    if wasm_name.ends_with(PACKED_EXT) {
        note(&format!("{wasm_name} is packed already"));
        return Ok(());
    }
    let file_name = wasm_name.rsplit('/').next().unwrap_or(&wasm_name);
    let wasm_path = dist.join(file_name);
    let wasm = fs::read(&wasm_path).map_err(|e| format!("reading {}: {e}", wasm_path.display()))?;
    let packed = compress(&wasm)?;
    let unpacked = decompress(&packed)?;
    if unpacked != wasm {
        return Err(format!(
            "packing {}: unpacking the result does not give the wasm back (a bug in the LZMA \
             encoder or in its use here); dist/ is left unpacked",
            wasm_path.display()
        ));
    }
    let new_html = rewrite_index(&html, &wasm_name)?;
    let packed_path = dist.join(format!("{file_name}{PACKED_EXT}"));
    fs::write(&packed_path, &packed)
        .map_err(|e| format!("writing {}: {e}", packed_path.display()))?;
    fs::write(&index_path, new_html)
        .map_err(|e| format!("writing {}: {e}", index_path.display()))?;
    fs::remove_file(&wasm_path).map_err(|e| format!("removing {}: {e}", wasm_path.display()))?;
    note(&format!(
        "packed {file_name}: {} → {} bytes as LZMA ({:.1} %)",
        wasm.len(),
        packed.len(),
        100.0 * packed.len() as f64 / wasm.len().max(1) as f64
    ));
    Ok(())
}

/// The value of the `wasm=` parameter of the boot.js script (HTML-escaped `&amp;` before it).
fn wasm_param(html: &str) -> Option<String> {
    let script = html.find("boot.js?")?;
    let query = &html[script..];
    let query = &query[..query.find('"')?];
    query
        .split("&amp;")
        .flat_map(|part| part.split('&'))
        .find_map(|part| {
            part.split_once("wasm=")
                .filter(|(k, _)| k.ends_with('?') || k.is_empty())
        })
        .map(|(_, v)| v.to_string())
        .filter(|v| !v.is_empty())
}

/// `index.html` with boot.js pointed at the packed file, and trunk's preloads removed: the raw
/// wasm's, and the glue's `modulepreload`, so that a click-to-load embed (`?embed=1&ctl=1`,
/// boot.js) fetches neither before the click. boot.js requests the glue right after starting
/// the wasm download, so the page starts the same downloads, one small file later.
fn rewrite_index(html: &str, wasm_name: &str) -> Result<String> {
    let param = format!("wasm={wasm_name}\"");
    if html.matches(&param).count() != 1 {
        return Err(format!(
            "index.html: expected `{param}` once in the boot.js script; trunk's output changed"
        ));
    }
    let html = html.replacen(&param, &format!("wasm={wasm_name}{PACKED_EXT}\""), 1);
    let html = drop_link(html, &format!("<link rel=\"preload\" href=\"{wasm_name}\""))?;
    drop_link(html, "<link rel=\"modulepreload\" ")
}

/// `html` without the one tag that starts with `tag` (unchanged when there is none).
fn drop_link(html: String, tag: &str) -> Result<String> {
    let start = match html.matches(tag).count() {
        0 => return Ok(html),
        1 => html.find(tag).unwrap_or_default(),
        n => {
            return Err(format!(
                "index.html: {n} `{tag}…>` tags; expected at most one"
            ))
        }
    };
    let end = html[start..]
        .find('>')
        .map(|i| start + i + 1)
        .ok_or_else(|| format!("index.html: the `{tag}` tag is not closed"))?;
    Ok(format!("{}{}", &html[..start], &html[end..]))
}

/// LZMA with the settings that pack this wasm best (measured on it: lc=4 and pb=0, since wasm
/// is a byte stream with no 2- or 4-byte alignment, and the longest match length): 530.6 KB,
/// where `xz --format=lzma -9e` gives 532.2 KB. About a second.
fn compress(data: &[u8]) -> Result<Vec<u8>> {
    let mut options = LzmaOptions::with_preset(9);
    options.lc = 4;
    options.lp = 0;
    options.pb = 0;
    options.nice_len = LzmaOptions::NICE_LEN_MAX;
    options.mode = EncodeMode::Normal;
    options.mf = MfType::Bt4;
    // The whole file in the window: every earlier byte can be matched.
    options.dict_size = u32::try_from(data.len())
        .ok()
        .and_then(u32::checked_next_power_of_two)
        .ok_or("the wasm is over 2 GiB")?
        .max(1 << 12);
    let fail = |e: std::io::Error| format!("LZMA encoder: {e}");
    let mut writer =
        LzmaWriter::new_use_header(Vec::new(), &options, Some(data.len() as u64)).map_err(fail)?;
    writer.write_all(data).map_err(fail)?;
    writer.finish().map_err(fail)
}

fn decompress(packed: &[u8]) -> Result<Vec<u8>> {
    let fail = |e: std::io::Error| format!("unpacking the packed wasm to check it: {e}");
    let mut reader = LzmaReader::new_mem_limit(packed, u32::MAX, None).map_err(fail)?;
    let mut out = Vec::new();
    reader.read_to_end(&mut out).map_err(fail)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_comments_and_the_lines_they_leave_go() {
        let html = "<head>\n  <!-- why\n       it is so -->\n  <title>t</title> <!-- x -->\n\n</head>\n<!-- open";
        assert_eq!(
            without_html_comments(html),
            "<head>\n  <title>t</title> \n</head>\n<!-- open"
        );
    }

    const TRUNK_INDEX: &str = r#"<html><head>
<link rel="stylesheet" href="/style-1.css" integrity="sha384-a"/>
<script type="module" src="/public/boot.js?js=/app-1.js&amp;wasm=/app-1_bg.wasm"></script>
<link rel="modulepreload" href="/app-1.js" crossorigin="anonymous" integrity="sha384-b"><link rel="preload" href="/app-1_bg.wasm" crossorigin="anonymous" integrity="sha384-c" as="fetch" type="application/wasm"></head>
<body></body></html>"#;

    #[test]
    fn the_strict_policy_goes_right_after_the_charset_once() {
        let html = "<html><head>\n<meta charset=\"utf-8\">\n<title>t</title></head></html>";
        let with = with_csp(html).unwrap();
        assert!(with.starts_with(&format!(
            "<html><head>\n<meta charset=\"utf-8\">\n    {}\n<title>",
            csp_meta()
        )));
        assert_eq!(
            with_csp(&with).unwrap(),
            with,
            "a second pass changes nothing"
        );
        assert!(with_csp("<head></head>").unwrap_err().contains("charset"));
        let other = html.replace(
            "<title>",
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src *\"><title>",
        );
        assert!(with_csp(&other).unwrap_err().contains("not STRICT_CSP"));
    }

    #[test]
    fn the_embed_demo_page_carries_the_same_policy() {
        let demo = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../public/embed-demo.html"),
        )
        .unwrap();
        assert!(
            demo.contains(&csp_meta()),
            "public/embed-demo.html lacks {}",
            csp_meta()
        );
    }

    #[test]
    fn finds_the_wasm_that_boot_js_loads() {
        assert_eq!(wasm_param(TRUNK_INDEX).as_deref(), Some("/app-1_bg.wasm"));
        assert_eq!(
            wasm_param("<script src=\"/boot.js?js=/a.js\"></script>"),
            None
        );
        assert_eq!(wasm_param("<p>no script</p>"), None);
    }

    #[test]
    fn points_boot_js_at_the_packed_file_and_drops_both_preloads() {
        let html = rewrite_index(TRUNK_INDEX, "/app-1_bg.wasm").unwrap();
        assert!(html.contains("boot.js?js=/app-1.js&amp;wasm=/app-1_bg.wasm.lzma\""));
        assert!(!html.contains("rel=\"preload\""), "{html}");
        assert!(!html.contains("modulepreload"), "{html}");
        // Everything else is kept: the stylesheet, the document.
        assert!(
            html.contains("wasm=/app-1_bg.wasm.lzma\"></script>\n</head>"),
            "{html}"
        );
        assert!(html.contains("integrity=\"sha384-a\""));
        assert_eq!(wasm_param(&html).as_deref(), Some("/app-1_bg.wasm.lzma"));
    }

    #[test]
    fn an_index_trunk_no_longer_writes_that_way_is_an_error() {
        let twice = TRUNK_INDEX.replace(
            "</head>",
            "<script src=\"x?wasm=/app-1_bg.wasm\"></script></head>",
        );
        assert!(rewrite_index(&twice, "/app-1_bg.wasm")
            .unwrap_err()
            .contains("once"));
        let unclosed = TRUNK_INDEX.replace(
            " type=\"application/wasm\"></head>\n<body></body></html>",
            "",
        );
        assert!(rewrite_index(&unclosed, "/app-1_bg.wasm")
            .unwrap_err()
            .contains("not closed"));
    }

    #[test]
    fn packs_and_unpacks_to_the_same_bytes() {
        // Wasm-like input: repetitive with variation, so matches, literals and reps all occur.
        let data: Vec<u8> = (0u32..200_000)
            .map(|i| {
                (i.wrapping_mul(2_654_435_761) >> (i % 13)) as u8
                    & if i % 7 == 0 { 0xff } else { 0x0f }
            })
            .collect();
        let packed = compress(&data).unwrap();
        assert!(
            packed.len() < data.len() / 2,
            "{} of {}",
            packed.len(),
            data.len()
        );
        // The header states the size (boot.js's decoder needs it) and lc=4, lp=0, pb=0.
        assert_eq!(packed[0], 4);
        assert_eq!(
            u64::from_le_bytes(packed[5..13].try_into().unwrap()),
            data.len() as u64
        );
        assert_eq!(decompress(&packed).unwrap(), data);
    }

    #[test]
    fn packing_a_dist_twice_is_harmless_and_a_dist_without_boot_js_is_an_error() {
        let dir = std::env::temp_dir().join(format!("xtask-pack-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let wasm: Vec<u8> = b"\0asm\x01\0\0\0"
            .iter()
            .copied()
            .cycle()
            .take(10_000)
            .collect();
        fs::write(dir.join("app-1_bg.wasm"), &wasm).unwrap();
        fs::write(dir.join("index.html"), TRUNK_INDEX).unwrap();
        pack_wasm(&dir).unwrap();
        assert!(!dir.join("app-1_bg.wasm").exists());
        let packed = fs::read(dir.join("app-1_bg.wasm.lzma")).unwrap();
        assert_eq!(decompress(&packed).unwrap(), wasm);
        let html = fs::read_to_string(dir.join("index.html")).unwrap();
        pack_wasm(&dir).unwrap();
        assert_eq!(fs::read_to_string(dir.join("index.html")).unwrap(), html);
        fs::write(dir.join("index.html"), "<html></html>").unwrap();
        assert!(pack_wasm(&dir).unwrap_err().contains("wasm="));
        fs::remove_dir_all(&dir).unwrap();
    }
}
