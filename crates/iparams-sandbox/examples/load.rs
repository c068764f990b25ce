//! A bounded load run of the sandbox on loopback: concurrent clients on kept-alive connections
//! create employees and time-offs and read them and the lists back; afterwards every created
//! record must be readable. Stops by itself after a fixed number of requests or seconds.
//!
//! `cargo run --release -p iparams-sandbox --example load -- [--clients 8] [--requests 2000]
//! [--seconds 30] [--plan enterprise] [--employees 60] [--connections 64]`
//!
//! Prints requests per second, p50/p99 latency and the count of each status. Exit 1 when an
//! answer other than the expected ones (200, 201, and 429 beyond the plan's limit) came back, or a
//! created record could not be read.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use iparams_sandbox::{Config, Plan, Sandbox};
use serde_json::{Value, json};

struct Options {
    clients: usize,
    requests: usize,
    seconds: u64,
    plan: Plan,
    employees: usize,
    connections: usize,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        clients: 8,
        requests: 2000,
        seconds: 30,
        plan: Plan::Enterprise,
        employees: 60,
        connections: iparams_serve::DEFAULT_MAX_CONNECTIONS,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let [flag, value] = pair else {
            return Err(format!("{} needs a value", pair[0]));
        };
        let number = || value.parse::<usize>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--clients" => options.clients = number()?.max(1),
            "--requests" => options.requests = number()?,
            "--seconds" => options.seconds = number()? as u64,
            "--employees" => options.employees = number()?,
            "--connections" => options.connections = number()?.max(1),
            "--plan" => {
                options.plan = Plan::parse(value).ok_or_else(|| format!("unknown plan {value}"))?
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(options)
}

/// One kept-alive HTTP/1.1 connection.
struct Client {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    token: String,
    /// The sandbox answers only requests for `127.0.0.1:PORT`.
    host: String,
}

impl Client {
    fn connect(address: SocketAddr, token: &str) -> std::io::Result<Self> {
        let stream = TcpStream::connect(address)?;
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        stream.set_nodelay(true)?;
        Ok(Self {
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
            token: token.to_owned(),
            host: address.to_string(),
        })
    }

    fn call(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> std::io::Result<(u16, Value)> {
        let body = body.map(Value::to_string).unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.host,
            self.token,
            body.len()
        );
        self.writer.write_all(request.as_bytes())?;
        let mut line = String::new();
        self.reader.read_line(&mut line)?;
        let status = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("bad status line {line:?}")))?;
        let mut length = 0;
        let mut chunked = false;
        loop {
            line.clear();
            self.reader.read_line(&mut line)?;
            if line.trim().is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap_or(0);
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("transfer-encoding")
            {
                chunked = value.trim().eq_ignore_ascii_case("chunked");
            }
        }
        let mut bytes = vec![0; length];
        self.reader.read_exact(&mut bytes)?;
        // A server may send large answers in chunks: size line, data, CRLF, and a last empty one.
        while chunked {
            line.clear();
            self.reader.read_line(&mut line)?;
            let size = usize::from_str_radix(line.trim(), 16)
                .map_err(|_| std::io::Error::other(format!("bad chunk size {line:?}")))?;
            let mut chunk = vec![0; size + 2];
            self.reader.read_exact(&mut chunk)?;
            bytes.extend_from_slice(&chunk[..size]);
            chunked = size > 0;
        }
        Ok((
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        ))
    }
}

#[derive(Default)]
struct Outcome {
    latencies: Vec<Duration>,
    statuses: BTreeMap<u16, usize>,
    created_employees: Vec<u64>,
    created_time_offs: Vec<u64>,
    failures: Vec<String>,
}

fn run_client(
    index: usize,
    address: SocketAddr,
    admin: &str,
    employee: &str,
    leave_type: u64,
    requests: usize,
    deadline: Instant,
) -> Outcome {
    let mut outcome = Outcome::default();
    let (Ok(mut as_admin), Ok(mut as_employee)) = (
        Client::connect(address, admin),
        Client::connect(address, employee),
    ) else {
        outcome
            .failures
            .push(format!("client {index}: cannot connect"));
        return outcome;
    };
    for step in 0..requests {
        if Instant::now() >= deadline {
            break;
        }
        let (client, method, path, body) = match step % 4 {
            0 => (
                &mut as_admin,
                "POST",
                "/api/employees".to_owned(),
                Some(json!({
                    "first_name": format!("Load{index}"),
                    "last_name": format!("Test{step}"),
                    "official_email": format!("load{index}.{step}@example.com"),
                    "role_ids": [5]
                })),
            ),
            1 => {
                // A day of its own for each request, so that none overlaps another.
                let day = index * requests + step;
                let date = format!("2030-{:02}-{:02}", day / 28 % 12 + 1, day % 28 + 1);
                let year = 2030 + day / (28 * 12);
                let date = date.replacen("2030", &year.to_string(), 1);
                (
                    &mut as_employee,
                    "POST",
                    "/api/time_offs".to_owned(),
                    Some(json!({
                        "start_date": date, "end_date": date,
                        "leave_type_id": leave_type, "comments": "load test"
                    })),
                )
            }
            2 => (
                &mut as_admin,
                "GET",
                format!("/api/employees?page={}", step % 3 + 1),
                None,
            ),
            _ => (
                &mut as_admin,
                "GET",
                "/api/time_offs?status=pending".to_owned(),
                None,
            ),
        };
        let started = Instant::now();
        match client.call(method, &path, body.as_ref()) {
            Ok((status, answer)) => {
                outcome.latencies.push(started.elapsed());
                *outcome.statuses.entry(status).or_default() += 1;
                if status == 201 {
                    let id = answer["id"].as_u64().unwrap_or(0);
                    if path.contains("employees") {
                        outcome.created_employees.push(id);
                    } else {
                        outcome.created_time_offs.push(id);
                    }
                }
            }
            Err(error) => {
                outcome.failures.push(format!("{method} {path}: {error}"));
                break;
            }
        }
    }
    outcome
}

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * fraction).round() as usize]
}

fn main() -> ExitCode {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("load: {message}");
            return ExitCode::from(2);
        }
    };
    let sandbox = match Sandbox::start(Config {
        plan: options.plan,
        employees: options.employees,
        max_connections: options.connections,
        ..Config::default()
    }) {
        Ok(sandbox) => sandbox,
        Err(error) => {
            eprintln!("load: the sandbox did not start: {error}");
            return ExitCode::FAILURE;
        }
    };
    let address = sandbox.address();
    let tokens = sandbox.tokens().clone();
    let leave_type = Client::connect(address, &tokens.admin)
        .and_then(|mut c| c.call("GET", "/api/time_off_types", None))
        .ok()
        .and_then(|(_, types)| types[0]["id"].as_u64())
        .unwrap_or(1);
    let per_client = options.requests / options.clients;
    let deadline = Instant::now() + Duration::from_secs(options.seconds);
    let started = Instant::now();
    let tokens = Arc::new(tokens);
    let handles: Vec<_> = (0..options.clients)
        .map(|index| {
            let tokens = Arc::clone(&tokens);
            std::thread::spawn(move || {
                run_client(
                    index,
                    address,
                    &tokens.admin,
                    &tokens.employee,
                    leave_type,
                    per_client,
                    deadline,
                )
            })
        })
        .collect();
    let mut all = Outcome::default();
    for handle in handles {
        let outcome = handle.join().unwrap_or_default();
        all.latencies.extend(outcome.latencies);
        for (status, count) in outcome.statuses {
            *all.statuses.entry(status).or_default() += count;
        }
        all.created_employees.extend(outcome.created_employees);
        all.created_time_offs.extend(outcome.created_time_offs);
        all.failures.extend(outcome.failures);
    }
    let elapsed = started.elapsed();
    // Every created record is readable afterwards, whatever the rate limit says.
    let mut unreadable = 0;
    if let Ok(mut reader) = Client::connect(address, &tokens.admin) {
        let created = all
            .created_employees
            .iter()
            .map(|id| format!("/api/employees/{id}"));
        let time_offs = all
            .created_time_offs
            .iter()
            .map(|id| format!("/api/time_offs/{id}"));
        for path in created.chain(time_offs) {
            loop {
                match reader.call("GET", &path, None) {
                    Ok((429, _)) => std::thread::sleep(Duration::from_millis(200)),
                    Ok((200, _)) => break,
                    _ => {
                        unreadable += 1;
                        break;
                    }
                }
            }
        }
    }
    sandbox.stop();
    all.latencies.sort();
    let count = all.latencies.len();
    println!(
        "{count} requests by {} clients in {:.2} s: {:.0} requests/s; p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        options.clients,
        elapsed.as_secs_f64(),
        count as f64 / elapsed.as_secs_f64(),
        percentile(&all.latencies, 0.5).as_secs_f64() * 1000.0,
        percentile(&all.latencies, 0.99).as_secs_f64() * 1000.0,
        all.latencies
            .last()
            .copied()
            .unwrap_or_default()
            .as_secs_f64()
            * 1000.0,
    );
    println!(
        "statuses: {:?}; created {} employees and {} time-offs, {unreadable} not readable afterwards",
        all.statuses,
        all.created_employees.len(),
        all.created_time_offs.len()
    );
    let unexpected: Vec<_> = all
        .statuses
        .keys()
        .filter(|status| !matches!(status, 200 | 201 | 429))
        .collect();
    for failure in &all.failures {
        eprintln!("load: {failure}");
    }
    if unexpected.is_empty() && unreadable == 0 && all.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!("load: unexpected statuses {unexpected:?}");
        ExitCode::FAILURE
    }
}
