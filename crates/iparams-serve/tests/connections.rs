//! The server over real loopback connections: requests framed as HTTP/1.1 says, every read
//! bounded by the read timeout, stalled and slow clients holding only their own connection, and
//! a waiting handler told when its client has gone.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use iparams_serve::{Handler, Incoming, LocalServer, Options, Outgoing};

/// Longer than any test waits for an answer: a request held up by another client would fail.
const PATIENCE: Duration = Duration::from_secs(5);

fn echo(request: &Incoming) -> Outgoing {
    let body = match &request.body {
        Some(body) => format!("{} {} {}", request.method, request.target, body.len()),
        None => "too big".to_owned(),
    };
    Outgoing {
        status: if request.body.is_some() { 200 } else { 413 },
        headers: vec![("X-Echo".into(), "yes".into())],
        body,
    }
}

fn start(options: Options, handler: Arc<Handler>) -> LocalServer {
    LocalServer::start(options, |_| handler).expect("the server starts")
}

/// The echo server, bodies of at most 16 bytes.
fn echo_with_small_bodies() -> LocalServer {
    let options = Options {
        max_body: 16,
        ..Options::default()
    };
    start(options, Arc::new(echo))
}

fn connect(address: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(address).expect("connects");
    stream
        .set_read_timeout(Some(PATIENCE))
        .expect("a read timeout");
    stream
}

/// Everything the server sends until it closes (or `PATIENCE` passes).
fn read_all(stream: &mut TcpStream) -> String {
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

fn request(address: SocketAddr, text: &str) -> String {
    let mut stream = connect(address);
    stream.write_all(text.as_bytes()).expect("sent");
    read_all(&mut stream)
}

const GET: &str = "GET /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n";

#[test]
fn requests_are_framed_kept_alive_chunked_and_continued() {
    let server = echo_with_small_bodies();
    let address = server.address();
    // Two requests on one connection, the first kept alive.
    let answer = request(
        address,
        "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc\r\nGET /b?q HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
    );
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    assert!(answer.contains("Connection: keep-alive\r\n"), "{answer}");
    assert!(answer.contains("X-Echo: yes\r\n"), "{answer}");
    assert!(answer.contains("POST /a 3"), "{answer}");
    assert!(answer.ends_with("GET /b?q 0"), "{answer}");
    let chunked = request(
        address,
        "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n4\r\nabcd\r\n2;x=y\r\nef\r\n0\r\n\r\n",
    );
    assert!(chunked.ends_with("POST /c 6"), "{chunked}");
    // `Expect: 100-continue` is answered before the body is sent.
    let mut stream = connect(address);
    stream
        .write_all(b"POST /d HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\n")
        .expect("sent");
    let mut interim = [0; 25];
    stream.read_exact(&mut interim).expect("an interim answer");
    assert_eq!(&interim, b"HTTP/1.1 100 Continue\r\n\r\n");
    stream.write_all(b"hi").expect("sent");
    assert!(read_all(&mut stream).ends_with("POST /d 2"));
    // Over the limit: the handler sees no body, the answer still arrives whole.
    let big = format!(
        "POST /e HTTP/1.1\r\nHost: h\r\nContent-Length: 100000\r\n\r\n{}",
        "x".repeat(100_000)
    );
    let answer = request(address, &big);
    assert!(answer.starts_with("HTTP/1.1 413 "), "{answer}");
    assert!(answer.ends_with("too big"), "{answer}");
    for (bad, status) in [
        ("GARBAGE\r\n\r\n", "400"),
        ("GET /x HTTP/2.0\r\n\r\n", "505"),
        ("GET /x HTTP/1.1\r\nno colon\r\n\r\n", "400"),
        ("POST /x HTTP/1.1\r\nContent-Length: ten\r\n\r\n", "400"),
        (
            "POST /x HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            "400",
        ),
        ("POST /x HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", "501"),
    ] {
        let answer = request(address, bad);
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status} ")),
            "{bad:?}: {answer}"
        );
        assert!(
            answer.contains("Connection: close\r\n"),
            "{bad:?}: {answer}"
        );
    }
    let huge_head = format!("GET /x HTTP/1.1\r\nX-Big: {}\r\n\r\n", "a".repeat(70_000));
    assert!(request(address, &huge_head).starts_with("HTTP/1.1 431 "));
    server.stop();
}

#[test]
fn each_bound_of_a_request_is_held() {
    let server = echo_with_small_bodies();
    let address = server.address();
    let refusals = [
        // Nine empty lines before the request line: a few are allowed, not more.
        (format!("{}{GET}", "\r\n".repeat(9)), "400"),
        // Thousands of short headers: the head's size bounds them.
        (
            format!("GET /x HTTP/1.1\r\n{}\r\n", "a: b\r\n".repeat(20_000)),
            "431",
        ),
        ("GET /\u{85} HTTP/1.1\r\n\r\n".to_owned(), "400"),
        ("GET /x HTTP/1.1\r\nX : v\r\n\r\n".to_owned(), "400"),
        // A chunk's size line that goes on past its bound, a size that is not hexadecimal, a
        // chunk longer than its size.
        (
            format!(
                "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n{}",
                "0".repeat(2000)
            ),
            "400",
        ),
        (
            "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".to_owned(),
            "400",
        ),
        (
            "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n".to_owned(),
            "400",
        ),
    ];
    for (bad, status) in &refusals {
        let answer = request(address, bad);
        let shown: String = bad.chars().take(80).collect();
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status} ")),
            "{shown:?}: {answer}"
        );
        assert!(
            answer.contains("Connection: close\r\n"),
            "{shown:?}: {answer}"
        );
    }
    let mut stream = connect(address);
    stream
        .write_all(b"GET /\xff HTTP/1.1\r\n\r\n")
        .expect("sent");
    assert!(read_all(&mut stream).starts_with("HTTP/1.1 400 "));
    // Eight empty lines are still skipped.
    let answer = request(address, &format!("{}{GET}", "\r\n".repeat(8)));
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
    // A chunked body over the limit reaches the handler as none, and the connection is closed
    // rather than kept for what was left unread.
    let answer = request(
        address,
        "POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n20\r\nabcdefghijklmnopqrstuvwxyzabcdef\r\n0\r\n\r\n",
    );
    assert!(answer.starts_with("HTTP/1.1 413 "), "{answer}");
    assert!(answer.contains("Connection: close\r\n"), "{answer}");
    let answer = request(
        address,
        "POST /e HTTP/1.1\r\nHost: h\r\nContent-Length: 17\r\n\r\n12345678901234567",
    );
    assert!(answer.starts_with("HTTP/1.1 413 "), "{answer}");
    assert!(answer.contains("Connection: close\r\n"), "{answer}");
    // HTTP/1.0 closes unless asked to keep the connection; HTTP/1.1 keeps it unless asked not to.
    let answer = request(address, "GET /a HTTP/1.0\r\n\r\nGET /b HTTP/1.0\r\n\r\n");
    assert!(answer.contains("Connection: close\r\n"), "{answer}");
    assert!(answer.ends_with("GET /a 0"), "{answer}");
    let answer = request(
        address,
        "GET /a HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\nGET /b HTTP/1.0\r\n\r\n",
    );
    assert!(answer.contains("Connection: keep-alive\r\n"), "{answer}");
    assert!(answer.ends_with("GET /b 0"), "{answer}");
    server.stop();
}

#[test]
fn a_request_that_stops_arriving_is_answered_408_and_closed() {
    let server = start(
        Options {
            read_timeout: Duration::from_millis(300),
            ..Options::default()
        },
        Arc::new(echo),
    );
    let address = server.address();
    // A body declared and never sent.
    let mut stalled = connect(address);
    stalled
        .write_all(b"POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc")
        .expect("sent");
    let answer = read_all(&mut stalled);
    assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
    assert!(answer.contains("Connection: close\r\n"), "{answer}");
    // A head sent a byte at a time: each read is quick, the request as a whole is late.
    let mut slow = connect(address);
    let started = Instant::now();
    let mut answer = String::new();
    for byte in GET.bytes().cycle().take(10_000) {
        if slow.write_all(&[byte]).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
        if started.elapsed() > PATIENCE {
            break;
        }
        if byte == b'\n' {
            // Still being read, or refused: take what came.
            slow.set_nonblocking(true).expect("non-blocking");
            let mut some = [0; 256];
            if let Ok(n) = slow.read(&mut some) {
                answer.push_str(&String::from_utf8_lossy(&some[..n]));
                break;
            }
            slow.set_nonblocking(false).expect("blocking");
        }
    }
    let _ = slow.set_nonblocking(false);
    answer.push_str(&read_all(&mut slow));
    assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
    // Nothing sent at all: closed without an answer.
    let mut silent = connect(address);
    assert_eq!(read_all(&mut silent), "");
    server.stop();
}

#[test]
fn stalled_clients_never_delay_another_request_and_the_connections_are_capped() {
    let server = start(
        Options {
            max_connections: 12,
            // Far longer than the test: the stalls last as long as it does.
            read_timeout: Duration::from_secs(60),
            ..Options::default()
        },
        Arc::new(echo),
    );
    let address = server.address();
    let mut stalls = Vec::new();
    for i in 0..10 {
        let mut stream = connect(address);
        let text = if i % 2 == 0 {
            "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\n"
        } else {
            "GET /x HTTP/1.1\r\nHo"
        };
        stream.write_all(text.as_bytes()).expect("sent");
        stalls.push(stream);
    }
    let answer = request(address, GET);
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
    // One more connection than the cap is refused at once rather than left waiting.
    stalls.push(connect(address));
    stalls.push(connect(address));
    let mut over = connect(address);
    let refused = read_all(&mut over);
    assert!(refused.starts_with("HTTP/1.1 503 "), "{refused}");
    // Stopping ends the stalled reads rather than waiting for their timeout.
    let (done, stopped) = mpsc::channel();
    std::thread::spawn(move || {
        server.stop();
        let _ = done.send(());
    });
    assert!(
        stopped.recv_timeout(PATIENCE).is_ok(),
        "stop waited for stalled clients"
    );
    drop(stalls);
}

#[test]
fn a_waiting_handler_learns_that_its_client_has_gone() {
    let (gone, told) = mpsc::channel();
    let gone = std::sync::Mutex::new(gone);
    let handler: Arc<Handler> = Arc::new(move |request: &Incoming| {
        let until = Instant::now() + Duration::from_secs(60);
        while Instant::now() < until {
            if request.client_gone() {
                let _ = gone.lock().expect("the sender").send(());
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        echo(request)
    });
    let server = start(Options::default(), handler);
    let mut stream = connect(server.address());
    stream.write_all(GET.as_bytes()).expect("sent");
    std::thread::sleep(Duration::from_millis(100));
    assert!(told.try_recv().is_err(), "the client is still there");
    drop(stream);
    assert!(
        told.recv_timeout(PATIENCE).is_ok(),
        "the handler kept waiting"
    );
    server.stop();
}

/// A handler that waits aside on `/wait` until its wait is over (a minute at most), answering
/// `ended`, and tells `aside` each time a wait has begun; [`echo`] otherwise.
fn waiting_aside(aside: mpsc::Sender<()>) -> Arc<Handler> {
    let aside = std::sync::Mutex::new(aside);
    Arc::new(move |request: &Incoming| {
        if !request.target.starts_with("/wait") {
            return echo(request);
        }
        let waiting = request.wait_aside();
        let _ = aside.lock().expect("the sender").send(());
        let until = Instant::now() + Duration::from_secs(60);
        while !waiting.over() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        Outgoing {
            status: 200,
            headers: Vec::new(),
            body: "ended".into(),
        }
    })
}

#[test]
fn long_polls_wait_aside_of_the_cap_and_the_newest_are_kept() {
    let (aside, begun) = mpsc::channel();
    let options = Options {
        max_connections: 4,
        max_waiting: 3,
        ..Options::default()
    };
    let server = start(options, waiting_aside(aside));
    let address = server.address();
    // Five times the cap of connections in long-polls, each begun before the next is sent.
    let mut polls = Vec::new();
    for _ in 0..20 {
        let mut stream = connect(address);
        stream
            .write_all(b"GET /wait HTTP/1.1\r\nHost: h\r\n\r\n")
            .expect("sent");
        begun
            .recv_timeout(PATIENCE)
            .expect("each long-poll is taken in, none refused");
        polls.push(stream);
    }
    // Ordinary requests are still served, each one of the cap of four.
    for _ in 0..6 {
        let answer = request(address, GET);
        assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
    }
    // The oldest waits were ended, answered and closed; the newest three still wait.
    for (at, stream) in polls.iter_mut().enumerate() {
        if at < 17 {
            let answer = read_all(stream);
            assert!(answer.starts_with("HTTP/1.1 200 "), "{at}: {answer}");
            assert!(answer.contains("Connection: close"), "{at}: {answer}");
            assert!(answer.ends_with("ended"), "{at}: {answer}");
        } else {
            stream
                .set_read_timeout(Some(Duration::from_millis(300)))
                .expect("a read timeout");
            let mut byte = [0; 1];
            assert!(
                stream.read(&mut byte).is_err(),
                "{at}: one of the newest waits was ended"
            );
        }
    }
    // Stopping ends the waits under way at once.
    let started = Instant::now();
    server.stop();
    assert!(started.elapsed() < PATIENCE, "{:?}", started.elapsed());
}

#[test]
fn stopping_never_waits_on_a_stuck_handler_past_the_read_timeout() {
    let (release, stuck) = mpsc::channel::<()>();
    let stuck = std::sync::Mutex::new(stuck);
    let (entered, handler_began) = mpsc::channel();
    let entered = std::sync::Mutex::new(entered);
    let handler: Arc<Handler> = Arc::new(move |request: &Incoming| {
        let _ = entered.lock().expect("the sender").send(());
        // Stuck until the test ends (a read of a file that never answers, say).
        let _ = stuck
            .lock()
            .expect("the receiver")
            .recv_timeout(Duration::from_secs(60));
        echo(request)
    });
    let options = Options {
        read_timeout: Duration::from_millis(500),
        ..Options::default()
    };
    let server = start(options, handler);
    let mut stream = connect(server.address());
    stream.write_all(GET.as_bytes()).expect("sent");
    handler_began
        .recv_timeout(PATIENCE)
        .expect("the handler runs");
    let (done, stopped) = mpsc::channel();
    let started = Instant::now();
    std::thread::spawn(move || {
        server.stop();
        let _ = done.send(());
    });
    assert!(
        stopped.recv_timeout(PATIENCE).is_ok(),
        "stop waited for a stuck handler"
    );
    assert!(started.elapsed() >= Duration::from_millis(400));
    drop(release);
}
