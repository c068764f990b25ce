//! The small synchronous HTTP/1.1 server on 127.0.0.1 that the preview (`iparams-lint preview`)
//! and the HR sandbox both answer with: the request and answer as a handler sees them, the
//! listener, a thread per connection that reads each request against a deadline (its head
//! framed and bounded here, then read by httparse), the body limit, the `Host` check that keeps
//! pages elsewhere from reaching it through DNS rebinding, and the percent-decoding of paths and
//! encoding of query parts. Below both, so that neither lends the other its plumbing.
//!
//! # Why a thread per connection, each read against a deadline
//! A pool of workers that each read a request and then answer it is held by any client that
//! stops sending: a few connections that declare a body and never send it, or long-polls whose
//! clients went away, took every worker and every other request waited. Here each connection
//! has its own thread, so a stalled or slow client holds only its own; the request line, the
//! headers and the body must all arrive within [`Options::read_timeout`] of the request's first
//! byte (else 408 and the connection is closed), an idle kept-alive connection is closed after
//! the same time, and an answer the client does not take is given up after it too. The number
//! of connections is capped ([`Options::max_connections`]; one more is answered 503), so the
//! threads are bounded, and each lives at most a timeout past its last request.
//!
//! # Long-polls aside
//! A handler that waits (a long-poll) takes its connection out of that cap while it waits
//! ([`Incoming::wait_aside`]): waits have a cap of their own ([`Options::max_waiting`]), and one
//! more ends the oldest wait (answered at once, its connection then closed), so that no number
//! of long-polls, renewed as fast as they are answered, keeps ordinary requests out, and the
//! newest wait (a page just loaded) is the one that is kept. A wait also ends when its client
//! has gone or the server stops.
//!
//! # Stopping
//! [`LocalServer::stop`] ends every read under way and gives the handlers under way
//! [`Options::read_timeout`] to answer; a handler stuck beyond that is left behind (its thread
//! ends with the process), so that stopping never waits on it.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a request may take to arrive, an idle connection stays open and an answer may wait
/// to be taken, unless [`Options::read_timeout`] says otherwise.
pub const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(5);
/// Connections served at once unless [`Options::max_connections`] says otherwise.
pub const DEFAULT_MAX_CONNECTIONS: usize = 64;
/// Waiting handlers (long-polls) unless [`Options::max_waiting`] says otherwise.
pub const DEFAULT_MAX_WAITING: usize = 64;
/// The request line and headers together; more is answered 431.
pub const MAX_HEAD: usize = 64 * 1024;
/// Why a head over [`MAX_HEAD`] is refused.
const HEAD_TOO_LARGE: &str = "the request's head is too large";

/// A request as it arrived.
#[derive(Debug, Default, Clone)]
pub struct Incoming {
    pub method: String,
    /// The request target: path and query, still percent-encoded.
    pub target: String,
    pub headers: Vec<(String, String)>,
    /// `None` when the body was over [`Options::max_body`].
    pub body: Option<Vec<u8>>,
    /// The connection it came on; `None` for a request made in the process (tests, fuzzing).
    pub client: Option<Client>,
}

impl Incoming {
    /// The value of the header `name` (any case), if sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the client closed its connection: a handler that waits stops waiting for it.
    pub fn client_gone(&self) -> bool {
        self.client.as_ref().is_some_and(Client::gone)
    }

    /// Takes the connection out of the cap of ordinary connections while the handler waits (a
    /// long-poll), into the cap of waits: one more wait than that cap ends the oldest. The
    /// handler stops waiting once [`Waiting::over`] says so; when the [`Waiting`] is dropped
    /// the connection counts as an ordinary one again, or, with no room among those, is closed
    /// after its answer.
    pub fn wait_aside(&self) -> Waiting<'_> {
        let ended = self.client.as_ref().map(|client| {
            let mut open = client.connections.lock();
            open.wait_aside(client.id, client.max_waiting)
        });
        Waiting {
            client: self.client.as_ref(),
            ended: ended.unwrap_or_default(),
        }
    }
}

/// A handler's wait, out of the cap of ordinary connections ([`Incoming::wait_aside`]).
#[derive(Debug)]
pub struct Waiting<'a> {
    client: Option<&'a Client>,
    /// Set when a newer wait took this one's place.
    ended: Arc<AtomicBool>,
}

impl Waiting<'_> {
    /// Whether to stop waiting and answer: a newer wait took this one's place, the client has
    /// gone, or the server is stopping.
    pub fn over(&self) -> bool {
        self.ended.load(Ordering::SeqCst)
            || self.client.is_some_and(|client| {
                client.connections.stopping.load(Ordering::SeqCst) || client.gone()
            })
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if let Some(client) = self.client {
            let mut open = client.connections.lock();
            open.wait_over(client.id, client.max_connections);
        }
    }
}

/// The connection a request came on.
#[derive(Debug, Clone)]
pub struct Client {
    stream: Arc<TcpStream>,
    connections: Arc<Connections>,
    id: u64,
    max_connections: usize,
    max_waiting: usize,
}

impl Client {
    /// Whether the end of the stream (or an error) is next on the connection. A peek with a
    /// millisecond's timeout rather than a non-blocking one: the blocking mode is the whole
    /// connection's, while its read timeout is set again before every read anyway.
    fn gone(&self) -> bool {
        if self
            .stream
            .set_read_timeout(Some(Duration::from_millis(1)))
            .is_err()
        {
            return true;
        }
        match self.stream.peek(&mut [0; 1]) {
            Ok(0) => true,
            Ok(_) => false,
            Err(error) => !matches!(
                error.kind(),
                ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
            ),
        }
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

/// `text` with its `%XX` escapes decoded; `None` for a bad escape (`%` without two hexadecimal
/// digits, which percent-encoding would keep as it is) or bytes that are not UTF-8.
pub fn percent_decode(text: &str) -> Option<String> {
    let escapes_whole = text.split('%').skip(1).all(|after| {
        after
            .as_bytes()
            .get(..2)
            .is_some_and(|digits| digits.iter().all(u8::is_ascii_hexdigit))
    });
    if !escapes_whole {
        return None;
    }
    let decoded = percent_encoding::percent_decode_str(text)
        .decode_utf8()
        .ok()?;
    Some(decoded.into_owned())
}

/// What [`percent_encode`] leaves as it is: ASCII letters and digits, and `-._~,`.
const QUERY_PART: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b',');

/// `text` as a name or value of a query: every byte but ASCII letters, digits and `-._~,` as
/// `%XX` (upper-case digits).
pub fn percent_encode(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, QUERY_PART).to_string()
}

/// A running server; [`LocalServer::stop`] (or dropping it) ends it.
pub struct LocalServer {
    connections: Arc<Connections>,
    acceptor: Option<JoinHandle<()>>,
    address: SocketAddr,
    /// How long stopping waits for the handlers under way.
    grace: Duration,
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
    /// Connections served at once, each by a thread of its own; one more is answered 503 and
    /// closed. A connection whose handler waits aside ([`Incoming::wait_aside`]) is not counted.
    pub max_connections: usize,
    /// Handlers waiting aside at once; one more ends the oldest wait.
    pub max_waiting: usize,
    /// Bodies over this are read as `None`.
    pub max_body: usize,
    /// How long a request (line, headers and body) may take from its first byte (else 408),
    /// an idle connection stays open, and an answer may wait to be taken.
    pub read_timeout: Duration,
    /// When set, one line per request on standard error: `<log>: METHOD path status (µs)`,
    /// never a header or the query.
    pub log: Option<String>,
    /// What the log shows of a path ([`as_is`], or the sandbox's masking of its keys).
    pub logged_path: fn(&str) -> Cow<'_, str>,
    /// The answer to a request refused before any handler sees it (408, 400, 431, 503...), in
    /// the error shape of what is served ([`plain`] text by default).
    pub refusal: fn(u16, &str) -> Outgoing,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            port: 0,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_waiting: DEFAULT_MAX_WAITING,
            max_body: 1024 * 1024,
            read_timeout: DEFAULT_READ_TIMEOUT,
            log: None,
            logged_path: as_is,
            refusal: plain,
        }
    }
}

/// A path logged as it is.
pub fn as_is(path: &str) -> Cow<'_, str> {
    Cow::Borrowed(path)
}

/// The open connections, so that stopping can end their reads and wait for them.
#[derive(Debug, Default)]
struct Connections {
    stopping: AtomicBool,
    open: Mutex<Open>,
    all_closed: Condvar,
}

#[derive(Debug, Default)]
struct Open {
    next: u64,
    streams: HashMap<u64, (Arc<TcpStream>, Slot)>,
    /// The waits, oldest first.
    waits: std::collections::VecDeque<(u64, Arc<AtomicBool>)>,
}

/// What cap a connection counts against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// The cap of ordinary connections.
    Ordinary,
    /// The cap of waits: its handler waits aside.
    Waiting,
    /// Neither: it answers its last request and closes (a wait that ended with no room left
    /// among the ordinary connections, or that a newer wait ended).
    Leaving,
}

impl Connections {
    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers `stream`, or `None` when `max` ordinary connections are open already.
    fn admit(&self, stream: &Arc<TcpStream>, max: usize) -> Option<u64> {
        let mut open = self.lock();
        if open.ordinary() >= max.max(1) {
            return None;
        }
        open.next += 1;
        let id = open.next;
        open.streams
            .insert(id, (Arc::clone(stream), Slot::Ordinary));
        Some(id)
    }

    fn release(&self, id: u64) {
        let mut open = self.lock();
        open.streams.remove(&id);
        open.waits.retain(|(waiting, _)| *waiting != id);
        if open.streams.is_empty() {
            self.all_closed.notify_all();
        }
    }

    /// Whether connection `id` is to close after its answer.
    fn leaving(&self, id: u64) -> bool {
        self.lock()
            .streams
            .get(&id)
            .is_some_and(|(_, slot)| *slot == Slot::Leaving)
    }
}

impl Open {
    fn ordinary(&self) -> usize {
        self.streams
            .values()
            .filter(|(_, slot)| *slot == Slot::Ordinary)
            .count()
    }

    /// Moves connection `id` among the waits, ending the oldest when `max` wait already; the
    /// flag that tells this wait to end.
    fn wait_aside(&mut self, id: u64, max: usize) -> Arc<AtomicBool> {
        let ended = Arc::new(AtomicBool::new(false));
        let Some((_, slot)) = self.streams.get_mut(&id) else {
            return ended;
        };
        if *slot != Slot::Ordinary {
            return ended;
        }
        *slot = Slot::Waiting;
        while self.waits.len() >= max.max(1) {
            let Some((oldest, flag)) = self.waits.pop_front() else {
                break;
            };
            flag.store(true, Ordering::SeqCst);
            if let Some((_, slot)) = self.streams.get_mut(&oldest) {
                *slot = Slot::Leaving;
            }
        }
        self.waits.push_back((id, Arc::clone(&ended)));
        ended
    }

    /// Counts connection `id`, whose wait is over, as an ordinary one again if there is room
    /// among `max`; else it leaves after its answer.
    fn wait_over(&mut self, id: u64, max: usize) {
        self.waits.retain(|(waiting, _)| *waiting != id);
        let room = self.ordinary() < max.max(1);
        if let Some((_, slot)) = self.streams.get_mut(&id)
            && *slot == Slot::Waiting
        {
            *slot = if room { Slot::Ordinary } else { Slot::Leaving };
        }
    }
}

impl LocalServer {
    /// Listens on 127.0.0.1 and answers each request with the handler `make` returns; `make`
    /// is given the port first, as the handler checks `Host` against it.
    pub fn start(
        options: Options,
        make: impl FnOnce(u16) -> Arc<Handler>,
    ) -> std::io::Result<Self> {
        let listener = listen(options.port)?;
        let address = listener.local_addr()?;
        let handler = make(address.port());
        let connections = Arc::new(Connections::default());
        let grace = options.read_timeout;
        let acceptor = {
            let connections = Arc::clone(&connections);
            std::thread::Builder::new()
                .name("serve-accept".into())
                .spawn(move || accept(&listener, &connections, &handler, &options))?
        };
        Ok(Self {
            connections,
            acceptor: Some(acceptor),
            address,
            grace,
        })
    }

    /// Where it listens.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Stops accepting, ends the reads of idle connections and waits for the requests under
    /// way to be answered, [`Options::read_timeout`] at most: a handler stuck beyond that is
    /// left behind.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        let Some(acceptor) = self.acceptor.take() else {
            return;
        };
        self.connections.stopping.store(true, Ordering::SeqCst);
        // The acceptor waits in `accept`: a connection of our own wakes it to see `stopping`.
        let _ = TcpStream::connect_timeout(&self.address, Duration::from_secs(1));
        let _ = acceptor.join();
        let mut open = self.connections.lock();
        for (stream, _) in open.streams.values() {
            // A read under way returns the end of the stream; an answer can still be written.
            let _ = stream.shutdown(Shutdown::Read);
        }
        let deadline = Instant::now() + self.grace;
        while !open.streams.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            open = self
                .connections
                .all_closed
                .wait_timeout(open, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// A listener on 127.0.0.1 whose connections send each write at once (TCP_NODELAY, which Linux
/// gives accepted connections from the listener; [`accept`] sets it again for other systems).
fn listen(port: u16) -> std::io::Result<TcpListener> {
    use socket2::{Domain, Socket, Type};
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None)?;
    socket.set_reuse_address(true)?;
    socket.set_tcp_nodelay(true)?;
    let address = SocketAddr::from(([127, 0, 0, 1], port));
    socket.bind(&address.into())?;
    socket.listen(128)?;
    Ok(socket.into())
}

/// Accepts connections until stopped, each served on a thread of its own.
fn accept(
    listener: &TcpListener,
    connections: &Arc<Connections>,
    handler: &Arc<Handler>,
    options: &Options,
) {
    for stream in listener.incoming() {
        if connections.stopping.load(Ordering::SeqCst) {
            break;
        }
        let stream = match stream {
            Ok(stream) => Arc::new(stream),
            Err(_) => {
                // Out of descriptors, say: wait for some connections to end rather than spin.
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let Some(id) = connections.admit(&stream, options.max_connections) else {
            let _ = stream.set_write_timeout(Some(options.read_timeout));
            let _ = write_answer(
                &stream,
                &(options.refusal)(503, "too many connections; try again"),
                false,
                false,
            );
            continue;
        };
        let spawned = {
            let connections = Arc::clone(connections);
            let handler = Arc::clone(handler);
            let options = options.clone();
            let stream = Arc::clone(&stream);
            std::thread::Builder::new()
                .name("serve-connection".into())
                .spawn(move || {
                    serve(&stream, &connections, id, handler.as_ref(), &options);
                    connections.release(id);
                })
        };
        if spawned.is_err() {
            connections.release(id);
        }
    }
}

/// Answers the requests of one connection until it closes, stalls or the server stops.
fn serve(
    stream: &Arc<TcpStream>,
    connections: &Arc<Connections>,
    id: u64,
    handler: &Handler,
    options: &Options,
) {
    let _ = stream.set_write_timeout(Some(options.read_timeout));
    let mut reader = Reader {
        stream,
        buffer: Vec::new(),
    };
    loop {
        let started = Instant::now();
        let (incoming, keep_alive) = match reader.next_request(options) {
            Arrival::Nothing => return,
            Arrival::Refused { status, reason } => {
                log(options, "-", "-", status, started);
                let _ = write_answer(stream, &(options.refusal)(status, reason), false, false);
                linger(stream, options);
                return;
            }
            Arrival::Request {
                mut incoming,
                keep_alive,
            } => {
                incoming.client = Some(Client {
                    stream: Arc::clone(stream),
                    connections: Arc::clone(connections),
                    id,
                    max_connections: options.max_connections,
                    max_waiting: options.max_waiting,
                });
                (incoming, keep_alive)
            }
        };
        let answer = handler(&incoming);
        let path = incoming.target.split('?').next().unwrap_or("");
        log(options, &incoming.method, path, answer.status, started);
        // A body left unread (over the limit) would be taken for the next request.
        let keep_alive = keep_alive
            && incoming.body.is_some()
            && !connections.stopping.load(Ordering::SeqCst)
            && !connections.leaving(id);
        let head_only = incoming.method.eq_ignore_ascii_case("HEAD");
        if write_answer(stream, &answer, head_only, keep_alive).is_err() {
            return;
        }
        if !keep_alive {
            if incoming.body.is_none() {
                linger(stream, options);
            }
            return;
        }
    }
}

/// One line on standard error when `options.log`: the path only, never a header (a key) or
/// the query.
fn log(options: &Options, method: &str, path: &str, status: u16, started: Instant) {
    if let Some(name) = &options.log {
        let path: String = path.chars().filter(|c| !c.is_control()).take(200).collect();
        let method: String = method
            .chars()
            .filter(|c| !c.is_control())
            .take(20)
            .collect();
        let path = (options.logged_path)(&path);
        eprintln!(
            "{name}: {method} {path} {status} ({} µs)",
            started.elapsed().as_micros()
        );
    }
}

/// After an answer to a request whose body was not read: the rest of what the client sends is
/// read and dropped (for at most a timeout) before closing, since closing with data unread
/// resets the connection and the client may lose the answer.
fn linger(stream: &TcpStream, options: &Options) {
    let _ = stream.shutdown(Shutdown::Write);
    let deadline = Instant::now() + options.read_timeout;
    let mut drained = 0_usize;
    let mut chunk = [0; 16 * 1024];
    while drained < 64 * 1024 * 1024 {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return;
        }
        match (&*stream).read(&mut chunk) {
            Ok(0) => return,
            Ok(n) => drained += n,
            Err(error) if error.kind() == ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

/// A refusal as plain text.
pub fn plain(status: u16, text: &str) -> Outgoing {
    Outgoing {
        status,
        headers: vec![("Content-Type".into(), "text/plain; charset=utf-8".into())],
        body: format!("{text}\n"),
    }
}

/// The answer in one write (a head and a body written apart wait for the client's delayed
/// acknowledgement of the first). Headers that would break the framing are left out.
fn write_answer(
    stream: &TcpStream,
    answer: &Outgoing,
    head_only: bool,
    keep_alive: bool,
) -> std::io::Result<()> {
    let mut out = format!("HTTP/1.1 {} {}\r\n", answer.status, reason(answer.status));
    for (name, value) in &answer.headers {
        let framing = ["content-length", "connection", "transfer-encoding"]
            .iter()
            .any(|f| name.eq_ignore_ascii_case(f));
        if framing || !is_token(name) || value.chars().any(|c| c.is_control() && c != '\t') {
            continue;
        }
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    out.push_str(&format!(
        "Content-Length: {}\r\nConnection: {}\r\n\r\n",
        answer.body.len(),
        if keep_alive { "keep-alive" } else { "close" }
    ));
    let mut bytes = out.into_bytes();
    if !head_only {
        bytes.extend_from_slice(answer.body.as_bytes());
    }
    (&*stream).write_all(&bytes)?;
    (&*stream).flush()
}

fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "",
    }
}

/// An HTTP token (a method or a header name).
fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// What reading a connection's next request gave.
enum Arrival {
    /// The client closed, or sent nothing for the timeout: close without an answer.
    Nothing,
    /// A request that cannot be read: answer `status` and close.
    Refused { status: u16, reason: &'static str },
    /// A request, and whether the connection may carry another after it.
    Request {
        incoming: Incoming,
        keep_alive: bool,
    },
}

/// Why more bytes did not come.
enum Stall {
    /// The end of the stream, or a broken connection.
    Closed,
    /// The deadline passed.
    Late,
}

/// A connection's bytes, read against deadlines; `buffer` holds what was read and not used yet.
struct Reader<'a> {
    stream: &'a TcpStream,
    buffer: Vec<u8>,
}

impl Reader<'_> {
    /// Appends what the connection sends next, waiting until `deadline` at most.
    fn more(&mut self, deadline: Instant) -> Result<(), Stall> {
        let mut chunk = [0; 16 * 1024];
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Stall::Late);
            }
            self.stream
                .set_read_timeout(Some(left))
                .map_err(|_| Stall::Closed)?;
            match (&*self.stream).read(&mut chunk) {
                Ok(0) => return Err(Stall::Closed),
                Ok(n) => {
                    self.buffer.extend_from_slice(&chunk[..n]);
                    return Ok(());
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    return Err(Stall::Late);
                }
                Err(_) => return Err(Stall::Closed),
            }
        }
    }

    /// The buffer's first `\r\n`-ended line (without it), read until `deadline`; `limit` bytes
    /// at most.
    fn line(&mut self, deadline: Instant, limit: usize) -> Result<Vec<u8>, Refusal> {
        let mut searched = 0;
        loop {
            if let Some(at) = find(&self.buffer[searched..], b"\r\n") {
                let line = self.buffer[..searched + at].to_vec();
                self.buffer.drain(..searched + at + 2);
                return Ok(line);
            }
            if self.buffer.len() > limit {
                return Err(Refusal::Status(400, "a line of the request is too long"));
            }
            searched = self.buffer.len().saturating_sub(1);
            self.more(deadline).map_err(Refusal::from)?;
        }
    }

    /// The next `n` bytes, read until `deadline`.
    fn take(&mut self, n: usize, deadline: Instant) -> Result<Vec<u8>, Refusal> {
        while self.buffer.len() < n {
            self.more(deadline).map_err(Refusal::from)?;
        }
        Ok(self.buffer.drain(..n).collect())
    }

    fn next_request(&mut self, options: &Options) -> Arrival {
        // An idle connection: nothing sent within the timeout closes it without an answer.
        // Empty lines before a request line are ignored (RFC 9112, 2.2; some clients send one
        // after a body), a few of them.
        let mut empty_lines = 0;
        loop {
            while self.buffer.starts_with(b"\r\n") && empty_lines < 8 {
                self.buffer.drain(..2);
                empty_lines += 1;
            }
            if !(self.buffer.is_empty() || self.buffer == b"\r") {
                break;
            }
            if self.more(Instant::now() + options.read_timeout).is_err() {
                return Arrival::Nothing;
            }
        }
        let deadline = Instant::now() + options.read_timeout;
        match self.request(options, deadline) {
            Ok(arrival) => arrival,
            Err(Refusal::Closed) => Arrival::Nothing,
            Err(Refusal::Status(status, reason)) => Arrival::Refused { status, reason },
        }
    }

    fn request(&mut self, options: &Options, deadline: Instant) -> Result<Arrival, Refusal> {
        let head_end = loop {
            if let Some(at) = find(&self.buffer, b"\r\n\r\n") {
                break at + 4;
            }
            if self.buffer.len() > MAX_HEAD {
                return Err(Refusal::Status(431, HEAD_TOO_LARGE));
            }
            self.more(deadline).map_err(Refusal::from)?;
        };
        if head_end > MAX_HEAD {
            return Err(Refusal::Status(431, HEAD_TOO_LARGE));
        }
        let head: Vec<u8> = self.buffer.drain(..head_end).collect();
        let (mut incoming, http_1_0) = parse_head(&head)?;
        let connection = incoming
            .header("connection")
            .unwrap_or("")
            .to_ascii_lowercase();
        let keep_alive = if http_1_0 {
            connection.contains("keep-alive")
        } else {
            !connection.contains("close")
        };
        let continue_first = !http_1_0
            && incoming
                .header("expect")
                .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"));
        incoming.body = self.body(&incoming, options, deadline, continue_first)?;
        Ok(Arrival::Request {
            incoming,
            keep_alive,
        })
    }

    /// The body `incoming`'s headers announce; `None` when over the limit (then left unread).
    fn body(
        &mut self,
        incoming: &Incoming,
        options: &Options,
        deadline: Instant,
        continue_first: bool,
    ) -> Result<Option<Vec<u8>>, Refusal> {
        let lengths: Vec<&str> = incoming
            .headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case("content-length"))
            .map(|(_, v)| v.as_str())
            .collect();
        let chunked = match incoming.header("transfer-encoding") {
            None => false,
            Some(coding) if coding.eq_ignore_ascii_case("chunked") && lengths.is_empty() => true,
            Some(_) => {
                return Err(Refusal::Status(
                    501,
                    "only `Transfer-Encoding: chunked` (without Content-Length) is accepted",
                ));
            }
        };
        let length = match lengths.as_slice() {
            [] => 0,
            [first, rest @ ..] if rest.iter().all(|l| l == first) => {
                if first.is_empty() || !first.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(Refusal::Status(400, "Content-Length is not a number"));
                }
                // A number too large for memory is over any limit.
                first.parse::<usize>().unwrap_or(usize::MAX)
            }
            _ => {
                return Err(Refusal::Status(
                    400,
                    "Content-Length is given twice, differently",
                ));
            }
        };
        if length > options.max_body {
            return Ok(None);
        }
        if continue_first && (chunked || length > 0) {
            let _ = (&*self.stream).write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
        }
        if !chunked {
            return self.take(length, deadline).map(Some);
        }
        let mut body = Vec::new();
        loop {
            let line = self.line(deadline, 1024)?;
            let size = std::str::from_utf8(&line)
                .ok()
                .map(|l| l.split(';').next().unwrap_or("").trim())
                .and_then(|hex| usize::from_str_radix(hex, 16).ok())
                .ok_or(Refusal::Status(400, "a chunk's size is not hexadecimal"))?;
            if size == 0 {
                // Trailers, up to the empty line.
                while !self.line(deadline, MAX_HEAD)?.is_empty() {}
                return Ok(Some(body));
            }
            if body.len().saturating_add(size) > options.max_body {
                return Ok(None);
            }
            body.extend(self.take(size, deadline)?);
            if !self.take(2, deadline)?.eq(b"\r\n") {
                return Err(Refusal::Status(400, "a chunk does not end with CRLF"));
            }
        }
    }
}

/// What a refused request line says it should be.
const NOT_A_REQUEST_LINE: &str = "the request line is not `METHOD TARGET HTTP/1.1`";
/// What a refused header line says it should be.
const NOT_A_HEADER_LINE: &str = "a header line is not `Name: value`";

/// A request's head, up to and with the empty line that ends it (`\r\n\r\n`), read by httparse:
/// the request as a handler sees it (no body yet), and whether it is HTTP/1.0.
fn parse_head(head: &[u8]) -> Result<(Incoming, bool), Refusal> {
    let bad = |reason| Refusal::Status(400, reason);
    if std::str::from_utf8(head).is_err() {
        return Err(bad("the request's head is not UTF-8"));
    }
    // The few empty lines allowed before a request line were dropped while waiting for it
    // (`next_request`); httparse would skip any number more.
    if head.starts_with(b"\r") || head.starts_with(b"\n") {
        return Err(bad(NOT_A_REQUEST_LINE));
    }
    // Room for a header on every line: the head's size is the only bound on their number.
    let mut slots = vec![httparse::EMPTY_HEADER; head.iter().filter(|&&b| b == b'\n').count()];
    let mut request = httparse::Request::new(&mut slots);
    match request.parse(head) {
        Ok(httparse::Status::Complete(length)) if length == head.len() => {}
        // A bare `\n\n` ended the head before its `\r\n\r\n`.
        Ok(httparse::Status::Complete(_)) => return Err(bad(NOT_A_HEADER_LINE)),
        Ok(httparse::Status::Partial) => return Err(bad(NOT_A_REQUEST_LINE)),
        Err(error) => return Err(refusal(error, &request, head)),
    }
    let (Some(method), Some(target), Some(version)) =
        (request.method, request.path, request.version)
    else {
        return Err(bad(NOT_A_REQUEST_LINE));
    };
    if has_control(target) {
        return Err(bad(NOT_A_REQUEST_LINE));
    }
    let mut headers = Vec::with_capacity(request.headers.len());
    for header in request.headers.iter() {
        // The head is UTF-8, and a value starts and ends at ASCII bytes.
        let value = std::str::from_utf8(header.value)
            .map_err(|_| bad("the request's head is not UTF-8"))?;
        headers.push((header.name.to_owned(), value.trim().to_owned()));
    }
    let incoming = Incoming {
        method: method.to_owned(),
        target: target.to_owned(),
        headers,
        ..Incoming::default()
    };
    Ok((incoming, version == 0))
}

/// Whether a target holds a control character: httparse takes any byte over 0x7F in one, the
/// C1 controls among them.
fn has_control(target: &str) -> bool {
    target.chars().any(char::is_control)
}

/// The refusal of a head httparse could not read: 505 for a request line `METHOD TARGET VERSION`
/// whose only fault is its version, 400 for any other fault of it or of a header line.
fn refusal(error: httparse::Error, request: &httparse::Request<'_, '_>, head: &[u8]) -> Refusal {
    let bad = |reason| Refusal::Status(400, reason);
    // A fault of the request line is told before any of the headers.
    if request.path.is_some_and(has_control) {
        return bad(NOT_A_REQUEST_LINE);
    }
    match error {
        httparse::Error::HeaderName | httparse::Error::HeaderValue => {
            return bad(NOT_A_HEADER_LINE);
        }
        httparse::Error::TooManyHeaders => return Refusal::Status(431, HEAD_TOO_LARGE),
        _ => {}
    }
    // httparse reads the line from the left: a method and a target read, the rest is the version.
    let (Some(method), Some(target)) = (request.method, request.path) else {
        return bad(NOT_A_REQUEST_LINE);
    };
    let line_end = find(head, b"\r\n").unwrap_or(head.len());
    let version = head
        .get(method.len() + 1 + target.len() + 1..line_end)
        .unwrap_or_default();
    match version {
        // The line is whole: what is wrong is below it.
        b"HTTP/1.0" | b"HTTP/1.1" => bad(NOT_A_HEADER_LINE),
        _ if !version.contains(&b' ') => {
            Refusal::Status(505, "only HTTP/1.0 and HTTP/1.1 are served")
        }
        _ => bad(NOT_A_REQUEST_LINE),
    }
}

/// Why a request was not read.
enum Refusal {
    /// The client went: nothing to answer.
    Closed,
    /// Answer this status and close.
    Status(u16, &'static str),
}

impl From<Stall> for Refusal {
    fn from(stall: Stall) -> Self {
        match stall {
            Stall::Closed => Refusal::Closed,
            Stall::Late => Refusal::Status(408, "the request did not arrive in time"),
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
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
        assert_eq!(percent_decode("100%"), None);
        assert_eq!(percent_decode("%%41"), None);
        assert_eq!(percent_decode("%é1"), None);
        // A sign is no hexadecimal digit.
        assert_eq!(percent_decode("%+1"), None);
        // `+` is a space in a form's query only: the caller says so.
        assert_eq!(percent_decode("a+b").as_deref(), Some("a+b"));
        assert_eq!(percent_decode("%C3%A9t%c3%a9").as_deref(), Some("été"));
        assert_eq!(percent_decode("").as_deref(), Some(""));
    }

    fn refused(head: &str) -> (u16, &'static str) {
        match parse_head(head.as_bytes()) {
            Ok((incoming, _)) => panic!("{head:?} was read: {incoming:?}"),
            Err(Refusal::Status(status, reason)) => (status, reason),
            Err(Refusal::Closed) => panic!("{head:?}: closed"),
        }
    }

    #[test]
    fn a_head_is_read_with_its_values_trimmed_and_its_version() {
        let (incoming, http_1_0) =
            parse_head(b"PATCH /a%20b?c=d HTTP/1.0\r\nHost:h\r\nX-Two:  a b \t\r\nX-Empty:\r\nX-Nbsp: \xc2\xa0v\xc2\xa0\r\n\r\n")
                .unwrap_or_else(|_| panic!("read"));
        assert!(http_1_0);
        assert_eq!(incoming.method, "PATCH");
        assert_eq!(incoming.target, "/a%20b?c=d");
        let headers: Vec<(&str, &str)> = incoming
            .headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            headers,
            [
                ("Host", "h"),
                ("X-Two", "a b"),
                ("X-Empty", ""),
                ("X-Nbsp", "v")
            ]
        );
        assert!(incoming.body.is_none());
        let (_, http_1_0) =
            parse_head(b"GET * HTTP/1.1\r\n\r\n").unwrap_or_else(|_| panic!("read"));
        assert!(!http_1_0);
    }

    #[test]
    fn the_number_of_headers_is_bounded_by_the_head_alone() {
        let head = format!("GET / HTTP/1.1\r\n{}\r\n", "a:b\r\n".repeat(10_000));
        assert!(head.len() < MAX_HEAD);
        let (incoming, _) = parse_head(head.as_bytes()).unwrap_or_else(|_| panic!("read"));
        assert_eq!(incoming.headers.len(), 10_000);
    }

    #[test]
    fn a_bad_head_is_refused_with_the_status_of_its_first_fault() {
        const LINE: &str = NOT_A_REQUEST_LINE;
        const HEADER: &str = NOT_A_HEADER_LINE;
        const VERSION: &str = "only HTTP/1.0 and HTTP/1.1 are served";
        for (head, status, reason) in [
            ("GARBAGE\r\n\r\n", 400, LINE),
            ("GET /x\r\n\r\n", 400, LINE),
            ("G(T /x HTTP/1.1\r\n\r\n", 400, LINE),
            ("GET  /x HTTP/1.1\r\n\r\n", 400, LINE),
            ("GET /x  HTTP/1.1\r\n\r\n", 400, LINE),
            ("GET /x HTTP/1.1 \r\n\r\n", 400, LINE),
            ("GET /a b HTTP/1.1\r\n\r\n", 400, LINE),
            ("GET /\x7f HTTP/1.1\r\n\r\n", 400, LINE),
            ("GET /\u{85} HTTP/1.1\r\nno colon\r\n\r\n", 400, LINE),
            ("\r\nGET /x HTTP/1.1\r\n\r\n", 400, LINE),
            ("\nGET /x HTTP/1.1\r\n\r\n", 400, LINE),
            ("GET /x HTTP/2.0\r\n\r\n", 505, VERSION),
            ("GET /x HTTP/1.10\r\n\r\n", 505, VERSION),
            ("GET /x http/1.1\r\n\r\n", 505, VERSION),
            ("GET /x \r\n\r\n", 505, VERSION),
            ("GET /x HTTP/1.1\r\nno colon\r\n\r\n", 400, HEADER),
            ("GET /x HTTP/1.1\r\n: v\r\n\r\n", 400, HEADER),
            ("GET /x HTTP/1.1\r\nX : v\r\n\r\n", 400, HEADER),
            ("GET /x HTTP/1.1\r\nX: v\r\n folded\r\n\r\n", 400, HEADER),
            ("GET /x HTTP/1.1\r\nX: a\u{1}b\r\n\r\n", 400, HEADER),
            ("GET /x HTTP/1.1\r\nX: a\rb\r\n\r\n", 400, HEADER),
            ("GET /x HTTP/1.1\r\nX: a\n\nb\r\n\r\n", 400, HEADER),
        ] {
            assert_eq!(refused(head), (status, reason), "{head:?}");
        }
        assert_eq!(
            match parse_head(b"GET /\xff HTTP/1.1\r\n\r\n") {
                Err(Refusal::Status(status, reason)) => (status, reason),
                _ => (0, ""),
            },
            (400, "the request's head is not UTF-8")
        );
    }

    #[test]
    fn query_parts_keep_letters_digits_and_a_few_marks_only() {
        assert_eq!(percent_encode("aZ09-._~,"), "aZ09-._~,");
        assert_eq!(
            percent_encode("a b&c=d/e?f+g%"),
            "a%20b%26c%3Dd%2Fe%3Ff%2Bg%25"
        );
        assert_eq!(percent_encode("été!*'()"), "%C3%A9t%C3%A9%21%2A%27%28%29");
        assert_eq!(percent_encode(""), "");
    }
}
