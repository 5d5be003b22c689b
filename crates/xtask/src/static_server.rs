//! A tiny static file server for the end-to-end tests: serves `dist/` on a free loopback port,
//! with the MIME types a browser insists on (`application/wasm` for streaming compilation).
//!
//! It is deliberately dumb: GET and HEAD only, one thread per connection, `Connection: close`,
//! no caching. It serves what `trunk build --release` wrote and nothing outside that folder, to
//! any origin (CORS `*`), as a docs site hosting the embeddable playground must.

use std::fs;
use std::io::{self, BufRead, BufReader, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// A running server; dropping it stops it.
pub struct StaticServer {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    accept_thread: Option<JoinHandle<()>>,
}

impl StaticServer {
    /// Serves `root` on `127.0.0.1` at a port the OS picks.
    pub fn start(root: PathBuf) -> io::Result<StaticServer> {
        StaticServer::start_on(root, 0)
    }

    /// Serves `root` on `127.0.0.1:port` (0: a port the OS picks).
    pub fn start_on(root: PathBuf, port: u16) -> io::Result<StaticServer> {
        let listener = TcpListener::bind(("127.0.0.1", port))?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let stop_flag = Arc::clone(&stop);
        let root = Arc::new(root);
        let accept_thread = thread::spawn(move || {
            for stream in listener.incoming() {
                if stop_flag.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let root = Arc::clone(&root);
                thread::spawn(move || {
                    // A client that hangs up mid-request is not our failure to report.
                    let _ = handle(stream, &root);
                });
            }
        });
        Ok(StaticServer {
            addr,
            stop,
            accept_thread: Some(accept_thread),
        })
    }

    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the blocking accept so the thread sees the flag.
        let _ = TcpStream::connect(self.addr);
        if let Some(thread) = self.accept_thread.take() {
            let _ = thread.join();
        }
    }
}

fn handle(stream: TcpStream, root: &Path) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_write_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Drain the headers; we need none of them.
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let mut stream = stream;
    let response = match method {
        "GET" | "HEAD" => match resolve(root, target) {
            Some(path) => match fs::read(&path) {
                Ok(body) => Response::new(200, "OK", content_type(&path), body),
                Err(_) => Response::text(404, "Not Found"),
            },
            None => Response::text(404, "Not Found"),
        },
        _ => Response::text(405, "Method Not Allowed"),
    };
    response.write(&mut stream, method == "HEAD")?;
    stream.flush()?;
    let _ = stream.shutdown(Shutdown::Write);
    Ok(())
}

struct Response {
    status: u16,
    reason: &'static str,
    content_type: &'static str,
    body: Vec<u8>,
}

impl Response {
    fn new(status: u16, reason: &'static str, content_type: &'static str, body: Vec<u8>) -> Self {
        Response {
            status,
            reason,
            content_type,
            body,
        }
    }

    fn text(status: u16, reason: &'static str) -> Self {
        Response::new(
            status,
            reason,
            "text/plain; charset=utf-8",
            format!("{reason}\n").into_bytes(),
        )
    }

    fn write(&self, out: &mut impl Write, head_only: bool) -> io::Result<()> {
        write!(
            out,
            // Access-Control-Allow-Origin: an embed in `<iframe sandbox="allow-scripts">` has an
            // opaque origin, so its module script and wasm fetches are cross-origin requests.
            // Cache-Control: no-cache, not no-store: with no validator sent, every load fetches
            // every file again either way, but Chromium reports a no-store response read as a
            // stream (boot.js unpacking the wasm) as a failed request (net::ERR_ABORTED) once
            // it has been read whole.
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nAccess-Control-Allow-Origin: *\r\nContent-Security-Policy: {STRICT_CSP}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
            self.status,
            self.reason,
            self.content_type,
            self.body.len()
        )?;
        if !head_only {
            out.write_all(&self.body)?;
        }
        Ok(())
    }
}

/// Maps a request target to a file under `root`: `/` and folders to their `index.html`, a path
/// without a file extension that names nothing to `/index.html` (client-side routes), and anything
/// that would step outside `root` to nothing.
fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("");
    let decoded = percent_decode(path)?;
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

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The policy every response carries, so the e2e suite runs the whole site under a strict CSP
/// (DESIGN §6): scripts, styles, images and fetches only from the site itself, no inline script
/// or style, no `eval` (WebAssembly compilation alone is allowed), no plugins, no `<base>`.
pub const STRICT_CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
                              style-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'";

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
    use std::io::Read;

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
        let mut stream = TcpStream::connect(server.addr).unwrap();
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
            wasm.contains("Content-Type: application/wasm\r\nContent-Length: 8\r\nAccess-Control-Allow-Origin: *\r\n"),
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
