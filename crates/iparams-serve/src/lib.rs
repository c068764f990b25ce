//! The small synchronous HTTP server on 127.0.0.1 that the preview (`iparams-lint preview`) and
//! the HR sandbox both answer with: the request and answer as a handler sees them, the listener,
//! the worker loop, the request read with a body limit, the `Host` check that keeps pages
//! elsewhere from reaching it through DNS rebinding, and the percent-decoding of paths. Below
//! both, so that neither lends the other its plumbing.

use std::borrow::Cow;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

/// A request as it arrived.
#[derive(Debug, Default, Clone)]
pub struct Incoming {
    pub method: String,
    /// The request target: path and query, still percent-encoded.
    pub target: String,
    pub headers: Vec<(String, String)>,
    /// `None` when the body was over [`Options::max_body`] or could not be read.
    pub body: Option<Vec<u8>>,
}

impl Incoming {
    /// The value of the header `name` (any case), if sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The answer.
#[derive(Debug, Clone)]
pub struct Outgoing {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// What answers each request.
pub type Handler = dyn Fn(&Incoming) -> Outgoing + Send + Sync;

/// Whether a `Host` header names this server: `127.0.0.1:PORT` or `localhost:PORT` only, so that
/// a name that resolves to the loopback address by a rebinding DNS answer is refused.
pub fn host_allowed(host: Option<&str>, port: u16) -> bool {
    host.is_some_and(|host| {
        let host = host.trim();
        host.eq_ignore_ascii_case(&format!("127.0.0.1:{port}"))
            || host.eq_ignore_ascii_case(&format!("localhost:{port}"))
    })
}

/// `text` with its `%XX` escapes decoded; `None` for a bad escape or bytes that are not UTF-8.
pub fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A running server; [`LocalServer::stop`] (or dropping it) ends it.
pub struct LocalServer {
    server: Arc<tiny_http::Server>,
    stopping: Arc<AtomicBool>,
    workers: Vec<JoinHandle<()>>,
    address: SocketAddr,
}

impl std::fmt::Debug for LocalServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalServer")
            .field("address", &self.address)
            .finish_non_exhaustive()
    }
}

/// How to run a [`LocalServer`].
#[derive(Debug, Clone)]
pub struct Options {
    /// 0: any free port.
    pub port: u16,
    /// Threads answering requests (each answers one at a time).
    pub workers: usize,
    /// Bodies over this are read as `None`.
    pub max_body: usize,
    /// When set, one line per request on standard error: `<log>: METHOD path status (µs)`,
    /// never a header or the query.
    pub log: Option<String>,
    /// What the log shows of a path ([`as_is`], or the sandbox's masking of its keys).
    pub logged_path: fn(&str) -> Cow<'_, str>,
}

/// A path logged as it is.
pub fn as_is(path: &str) -> Cow<'_, str> {
    Cow::Borrowed(path)
}

impl LocalServer {
    /// Listens on 127.0.0.1 and answers each request with the handler `make` returns; `make`
    /// is given the port first, as the handler checks `Host` against it.
    pub fn start(
        options: Options,
        make: impl FnOnce(u16) -> Arc<Handler>,
    ) -> std::io::Result<Self> {
        let server = tiny_http::Server::from_listener(listen(options.port)?, None)
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        let address = server
            .server_addr()
            .to_ip()
            .ok_or_else(|| std::io::Error::other("not an IP address"))?;
        let handler = make(address.port());
        let server = Arc::new(server);
        let stopping = Arc::new(AtomicBool::new(false));
        let workers = (0..options.workers.max(1))
            .map(|_| {
                let server = Arc::clone(&server);
                let stopping = Arc::clone(&stopping);
                let handler = Arc::clone(&handler);
                let options = options.clone();
                std::thread::spawn(move || serve(&server, &stopping, handler.as_ref(), &options))
            })
            .collect();
        Ok(Self {
            server,
            stopping,
            workers,
            address,
        })
    }

    /// Where it listens.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Stops answering and finishes the requests under way.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.stopping.store(true, Ordering::SeqCst);
        for _ in &self.workers {
            self.server.unblock();
        }
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// A listener on 127.0.0.1 whose connections send each write at once. tiny_http writes an
/// answer's head and body separately; with Nagle's algorithm the body then waits for the
/// client's delayed acknowledgement, 40 ms on Linux, on every request of a kept-alive connection.
/// Linux gives accepted connections the listener's TCP_NODELAY.
fn listen(port: u16) -> std::io::Result<std::net::TcpListener> {
    use socket2::{Domain, Socket, Type};
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None)?;
    socket.set_reuse_address(true)?;
    socket.set_tcp_nodelay(true)?;
    let address = SocketAddr::from(([127, 0, 0, 1], port));
    socket.bind(&address.into())?;
    socket.listen(128)?;
    Ok(socket.into())
}

fn serve(server: &tiny_http::Server, stopping: &AtomicBool, handler: &Handler, options: &Options) {
    while !stopping.load(Ordering::SeqCst) {
        let Ok(mut request) = server.recv() else {
            break;
        };
        if stopping.load(Ordering::SeqCst) {
            break;
        }
        let started = std::time::Instant::now();
        let incoming = read_request(&mut request, options.max_body);
        let answer = handler(&incoming);
        if let Some(name) = &options.log {
            // The path only: never a header (a key) or the query.
            let path = incoming.target.split('?').next().unwrap_or("");
            let path: String = path.chars().filter(|c| !c.is_control()).take(200).collect();
            let path = (options.logged_path)(&path);
            eprintln!(
                "{name}: {} {path} {} ({} µs)",
                incoming.method,
                answer.status,
                started.elapsed().as_micros()
            );
        }
        let mut response = tiny_http::Response::from_data(answer.body.into_bytes())
            .with_status_code(answer.status);
        for (name, value) in answer.headers {
            if let Ok(header) = tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()) {
                response.add_header(header);
            }
        }
        let _ = request.respond(response);
    }
}

/// The parts of a request a handler needs; the body at most `max_body` bytes, else `None`.
fn read_request(request: &mut tiny_http::Request, max_body: usize) -> Incoming {
    use std::io::Read;
    let headers = request
        .headers()
        .iter()
        .map(|h| {
            (
                h.field.as_str().as_str().to_owned(),
                h.value.as_str().to_owned(),
            )
        })
        .collect();
    let declared_too_big = request.body_length().is_some_and(|n| n > max_body);
    let body = if declared_too_big {
        None
    } else {
        let mut body = Vec::new();
        let limit = u64::try_from(max_body).unwrap_or(u64::MAX) + 1;
        match request.as_reader().take(limit).read_to_end(&mut body) {
            Ok(_) if body.len() <= max_body => Some(body),
            _ => None,
        }
    };
    Incoming {
        method: request.method().as_str().to_owned(),
        target: request.url().to_owned(),
        headers,
        body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_loopback_names_with_the_port_are_allowed() {
        assert!(host_allowed(Some("127.0.0.1:8080"), 8080));
        assert!(host_allowed(Some("LOCALHOST:8080 "), 8080));
        assert!(!host_allowed(Some("127.0.0.1:8081"), 8080));
        assert!(!host_allowed(Some("evil.example:8080"), 8080));
        assert!(!host_allowed(Some("127.0.0.1"), 8080));
        assert!(!host_allowed(None, 8080));
    }

    #[test]
    fn escapes_are_decoded_or_refused() {
        assert_eq!(percent_decode("a%2Fb%20c").as_deref(), Some("a/b c"));
        assert_eq!(percent_decode("%2e%2E").as_deref(), Some(".."));
        assert_eq!(percent_decode("%zz"), None);
        assert_eq!(percent_decode("%2"), None);
        assert_eq!(percent_decode("%ff"), None);
    }
}
