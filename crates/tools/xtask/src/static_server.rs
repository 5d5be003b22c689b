//! A tiny static file server for the end-to-end tests: serves `dist/` on a free loopback port,
//! with the MIME types a browser insists on (`application/wasm` for streaming compilation).
//!
//! It is deliberately dumb (the shared `httpd` server: one thread per connection, `Connection:
//! close`): GET and HEAD only, no caching. It serves what `trunk build --release` wrote and
//! nothing outside that folder, to any origin (CORS `*`), as a docs site hosting the embeddable
//! playground must.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use httpd::{percent_decode, Request, Response, Server};

/// A running server; dropping it stops it.
pub struct StaticServer(Server);

impl StaticServer {
    /// Serves `root` on `127.0.0.1` at a port the OS picks.
    pub fn start(root: PathBuf) -> io::Result<StaticServer> {
        StaticServer::start_on(root, 0)
    }

    /// Serves `root` on `127.0.0.1:port` (0: a port the OS picks).
    pub fn start_on(root: PathBuf, port: u16) -> io::Result<StaticServer> {
        Server::start(port, move |request| answer(&root, request)).map(StaticServer)
    }

    pub fn url(&self) -> String {
        self.0.url()
    }
}

fn answer(root: &Path, request: &Request) -> Response {
    let response = match request.method.as_str() {
        "GET" | "HEAD" => match resolve(root, &request.target) {
            Some(path) => match fs::read(&path) {
                Ok(body) => Response::new(200, "OK", content_type(&path), body),
                Err(_) => Response::text(404, "Not Found"),
            },
            None => Response::text(404, "Not Found"),
        },
        _ => Response::text(405, "Method Not Allowed"),
    };
    response
        // An embed in `<iframe sandbox="allow-scripts">` has an opaque origin, so its module
        // script and wasm fetches are cross-origin requests.
        .header("Access-Control-Allow-Origin", "*")
        .header("Content-Security-Policy", STRICT_CSP)
        // no-cache, not no-store: with no validator sent, every load fetches every file again
        // either way, but Chromium reports a no-store response read as a stream (boot.js
        // unpacking the wasm) as a failed request (net::ERR_ABORTED) once it has been read whole.
        .header("Cache-Control", "no-cache")
}

/// Maps a request target to a file under `root`: `/` and folders to their `index.html`, a path
/// without a file extension that names nothing to `/index.html` (client-side routes), and anything
/// that would step outside `root` to nothing.
fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("");
    let decoded = percent_decode(path, false)?;
    let mut file = root.to_path_buf();
    for component in Path::new(decoded.trim_start_matches('/')).components() {
        match component {
            Component::Normal(part) => file.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    if file.is_file() {
        return Some(file);
    }
    let has_extension = Path::new(&decoded).extension().is_some();
    let index = root.join("index.html");
    (!has_extension && index.is_file()).then_some(index)
}

/// The policy every response carries (and the release `index.html` as a meta tag, `pack.rs`), so
/// the e2e suite runs the whole site under a strict CSP
/// (DESIGN §6): scripts, styles, images and fetches only from the site itself, no inline script
/// or style, no `eval` (WebAssembly compilation alone is allowed), no plugins, no `<base>`.
pub const STRICT_CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
                              style-src 'self'; img-src 'self'; connect-src 'self'; \
                              object-src 'none'; base-uri 'none'";

fn content_type(path: &Path) -> &'static str {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match ext.to_ascii_lowercase().as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        // The release wasm, packed (pack.rs); boot.js unpacks it.
        "lzma" => "application/x-lzma",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "yaml" | "yml" => "application/yaml",
        "txt" => "text/plain; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpStream;

    /// A throwaway site per test, so parallel tests never rewrite each other's files; removed
    /// when the test is done with it.
    struct Site(PathBuf);

    impl Drop for Site {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn site(test: &str) -> Site {
        let dir = std::env::temp_dir().join(format!("xtask-static-{}-{test}", std::process::id()));
        fs::create_dir_all(dir.join("assets")).unwrap();
        fs::write(dir.join("index.html"), "<h1>hi</h1>").unwrap();
        fs::write(dir.join("app_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
        fs::write(dir.join("assets/a b.css"), "h1{}").unwrap();
        Site(dir)
    }

    fn get(server: &StaticServer, method: &str, path: &str) -> String {
        let mut stream = TcpStream::connect(server.0.addr()).unwrap();
        write!(stream, "{method} {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).unwrap();
        String::from_utf8_lossy(&response).into_owned()
    }

    #[test]
    fn serves_files_with_browser_mime_types() {
        let site = site("mime");
        let server = StaticServer::start(site.0.clone()).unwrap();
        let index = get(&server, "GET", "/");
        assert!(index.starts_with("HTTP/1.1 200 OK\r\n"), "{index}");
        assert!(index.contains("Content-Type: text/html; charset=utf-8\r\n"));
        assert!(index.ends_with("<h1>hi</h1>"));
        assert!(index.contains(&format!("Content-Security-Policy: {STRICT_CSP}\r\n")));
        let wasm = get(&server, "GET", "/app_bg.wasm?v=1");
        assert!(
            wasm.contains("Content-Type: application/wasm\r\n")
                && wasm.contains("Content-Length: 8\r\n")
                && wasm.contains("Access-Control-Allow-Origin: *\r\n"),
            "{wasm}"
        );
        let css = get(&server, "HEAD", "/assets/a%20b.css");
        assert!(
            css.contains("Content-Type: text/css") && css.ends_with("\r\n\r\n"),
            "{css}"
        );
    }

    #[test]
    fn missing_assets_are_404_but_routes_fall_back_to_index() {
        let site = site("fallback");
        let server = StaticServer::start(site.0.clone()).unwrap();
        assert!(get(&server, "GET", "/missing.js").starts_with("HTTP/1.1 404"));
        assert!(get(&server, "GET", "/some/route").ends_with("<h1>hi</h1>"));
        assert!(get(&server, "POST", "/").starts_with("HTTP/1.1 405"));
    }

    #[test]
    fn never_serves_outside_its_root() {
        let site = site("root");
        assert_eq!(resolve(&site.0, "/../etc/passwd"), None);
        assert_eq!(resolve(&site.0, "/%2e%2e/etc/passwd"), None);
        assert_eq!(resolve(&site.0, "/assets/../index.html"), None);
    }
}
