//! A small HTTP/1.1 server for local tools, on std's `TcpListener`: xtask's static server for the
//! end-to-end tests and `dsplay serve-api` (a read-only Kubernetes API over a simulated cluster)
//! both answer through it.
//!
//! It is deliberately dumb: loopback only, one thread per connection, one request per
//! connection (`Connection: close`), bounded request heads, bodies read up to a cap and dropped.
//! What to answer is the caller's handler; this crate knows nothing of files or Kubernetes.
//! Architecture invariant: std only, no IO beyond the listening socket.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// The most a request line plus headers may take; larger requests are refused (431).
const MAX_HEAD_BYTES: u64 = 64 * 1024;
/// The most of a request body that is read (and dropped): no handler reads bodies.
const MAX_BODY_BYTES: u64 = 1024 * 1024;

/// One request: its line and headers (a body, if any, is read and dropped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    /// As sent: path and query, e.g. `/api/v1/pods?labelSelector=app%3Dx`.
    pub target: String,
    /// Header names in lower case, in the order sent.
    pub headers: Vec<(String, String)>,
}

impl Request {
    /// The path, percent-decoded; `None` when it does not decode to UTF-8.
    pub fn path(&self) -> Option<String> {
        let raw = self.target.split(['?', '#']).next().unwrap_or("");
        percent_decode(raw, false)
    }

    /// The query's `key=value` pairs, decoded as a form (`+` is a space); undecodable pairs are
    /// left out.
    pub fn query(&self) -> Vec<(String, String)> {
        let Some((_, query)) = self.target.split_once('?') else {
            return Vec::new();
        };
        let query = query.split('#').next().unwrap_or("");
        query
            .split('&')
            .filter(|p| !p.is_empty())
            .filter_map(|pair| {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                Some((percent_decode(k, true)?, percent_decode(v, true)?))
            })
            .collect()
    }

    /// The first value of a query parameter.
    pub fn query_value(&self, key: &str) -> Option<String> {
        self.query()
            .into_iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// The first header of that name (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What to send back; `Content-Length` and `Connection: close` are added when written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub reason: &'static str,
    pub headers: Vec<(&'static str, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn new(status: u16, reason: &'static str, content_type: &str, body: Vec<u8>) -> Self {
        Response {
            status,
            reason,
            headers: vec![("Content-Type", content_type.to_string())],
            body,
        }
    }

    /// A plain-text response whose body is the reason phrase.
    pub fn text(status: u16, reason: &'static str) -> Self {
        Response::new(
            status,
            reason,
            "text/plain; charset=utf-8",
            format!("{reason}\n").into_bytes(),
        )
    }

    pub fn header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }

    fn write(&self, out: &mut impl Write, head_only: bool) -> io::Result<()> {
        let mut head = format!("HTTP/1.1 {} {}\r\n", self.status, self.reason);
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            self.body.len()
        ));
        out.write_all(head.as_bytes())?;
        if !head_only {
            out.write_all(&self.body)?;
        }
        Ok(())
    }
}

type Handler = dyn Fn(&Request) -> Response + Send + Sync;

/// A running server; dropping it stops it.
pub struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    accept_thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Serves on `127.0.0.1:port` (0: a port the OS picks), calling `handler` for each request
    /// on a thread of the connection's own. HEAD is answered as GET without the body.
    pub fn start(
        port: u16,
        handler: impl Fn(&Request) -> Response + Send + Sync + 'static,
    ) -> io::Result<Server> {
        let listener = TcpListener::bind(("127.0.0.1", port))?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let stop_flag = Arc::clone(&stop);
        let handler: Arc<Handler> = Arc::new(handler);
        let accept_thread = thread::spawn(move || {
            for stream in listener.incoming() {
                if stop_flag.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let handler = Arc::clone(&handler);
                thread::spawn(move || {
                    // A client that hangs up mid-request is not our failure to report.
                    let _ = serve_one(stream, &*handler);
                });
            }
        });
        Ok(Server {
            addr,
            stop,
            accept_thread: Some(accept_thread),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT/`
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the blocking accept so the thread sees the flag.
        let _ = TcpStream::connect(self.addr);
        if let Some(thread) = self.accept_thread.take() {
            let _ = thread.join();
        }
    }
}

/// Reads one request head (bounded), drops its body, answers it.
fn serve_one(stream: TcpStream, handler: &Handler) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_write_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?).take(MAX_HEAD_BYTES);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut headers = Vec::new();
    let mut complete = false;
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            break;
        }
        if line == "\r\n" || line == "\n" {
            complete = true;
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    let mut parts = request_line.split_whitespace();
    let request = Request {
        method: parts.next().unwrap_or("").to_string(),
        target: parts.next().unwrap_or("").to_string(),
        headers,
    };
    let mut stream = stream;
    let response = if !complete {
        Response::text(431, "Request Header Fields Too Large")
    } else {
        let body_len: u64 = request
            .header("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let mut reader = reader.into_inner();
        io::copy(
            &mut (&mut reader).take(body_len.min(MAX_BODY_BYTES)),
            &mut io::sink(),
        )?;
        handler(&request)
    };
    response.write(&mut stream, request.method == "HEAD")?;
    stream.flush()?;
    let _ = stream.shutdown(Shutdown::Write);
    if !complete {
        // Unread bytes at close would reset the connection before the client reads the answer.
        let _ = io::copy(&mut (&mut stream).take(MAX_BODY_BYTES), &mut io::sink());
    }
    Ok(())
}

/// Decodes `%XX` escapes (and, in a form, `+` as a space); `None` for a bad escape or text that
/// is not UTF-8.
pub fn percent_decode(text: &str, form: bool) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' if form => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send(server: &Server, raw: &str) -> String {
        let mut stream = TcpStream::connect(server.addr()).unwrap();
        stream.write_all(raw.as_bytes()).unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).unwrap();
        String::from_utf8_lossy(&response).into_owned()
    }

    fn echo() -> Server {
        Server::start(0, |r: &Request| {
            let body = format!(
                "{} {:?} {:?} {:?}",
                r.method,
                r.path(),
                r.query(),
                r.header("Accept")
            );
            Response::new(200, "OK", "text/plain", body.into_bytes()).header("X-Test", "1")
        })
        .unwrap()
    }

    #[test]
    fn the_handler_sees_the_decoded_path_query_and_headers() {
        let server = echo();
        let out = send(
            &server,
            "GET /api/v1/a%20b?labelSelector=app%3Dx%2Cb+c&limit=500 HTTP/1.1\r\nAccept: application/json\r\n\r\n",
        );
        assert!(out.starts_with("HTTP/1.1 200 OK\r\n"), "{out}");
        assert!(out.contains("X-Test: 1\r\n") && out.contains("Connection: close\r\n"));
        assert!(
            out.ends_with(r#"GET Some("/api/v1/a b") [("labelSelector", "app=x,b c"), ("limit", "500")] Some("application/json")"#),
            "{out}"
        );
    }

    #[test]
    fn head_gets_the_headers_only_and_bodies_are_dropped() {
        let server = echo();
        let out = send(&server, "HEAD / HTTP/1.1\r\n\r\n");
        assert!(out.ends_with("\r\n\r\n"), "{out}");
        let out = send(&server, "POST /x HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc");
        assert!(out.ends_with(r#"POST Some("/x") [] None"#), "{out}");
    }

    #[test]
    fn an_oversized_request_head_is_refused() {
        let server = echo();
        let big = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(70_000));
        let mut stream = TcpStream::connect(server.addr()).unwrap();
        let _ = stream.write_all(big.as_bytes());
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        assert!(String::from_utf8_lossy(&response).starts_with("HTTP/1.1 431"));
    }

    #[test]
    fn bad_escapes_do_not_decode() {
        assert_eq!(percent_decode("%zz", false), None);
        assert_eq!(percent_decode("%2", false), None);
        assert_eq!(percent_decode("a+b", false).as_deref(), Some("a+b"));
        assert_eq!(percent_decode("a+b", true).as_deref(), Some("a b"));
    }
}
