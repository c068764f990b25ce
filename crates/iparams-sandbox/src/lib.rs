//! A local HR service: the vendor's HR service API (docs/hr-sandbox.md), served on
//! 127.0.0.1 with its state in SQLite, seeded with a realistic organisation, for trying apps,
//! their installation page's credential check and their request templates without an account.
//!
//! ```no_run
//! let sandbox = iparams_sandbox::Sandbox::start(iparams_sandbox::Config::default())?;
//! println!("{} {}", sandbox.url(), sandbox.tokens().hr_partner);
//! sandbox.stop();
//! # Ok::<(), iparams_sandbox::StartError>(())
//! ```
//!
//! # The document's rules, in the order they apply to a request
//! 1. `Host` must be `127.0.0.1:PORT` or `localhost:PORT` (else 400 `invalid_host`).
//! 2. `Authorization: Bearer <key>` of a seeded user (else 401).
//! 3. The rate limit of the plan, per account per minute (else 429); the `x-ratelimit-total`,
//!    `x-ratelimit-remaining` and `x-ratelimit-used-currentrequest` headers are on every answer.
//! 4. Unknown path 404; known path, other method 405 (with `allow`).
//! 5. `Accept` must allow `application/json` (`*/*`, `application/*`) or be absent (else 406).
//! 6. A POST or PUT body must be `Content-Type: application/json` (else 415).
//! 7. The caller's roles (else 403), then the operation's own checks: 400 with
//!    `errors[].field` for missing or invalid attributes and unknown ids in the body, 404 for
//!    an unknown id in the path.
//!
//! Every error answer is `{"errors": [{"code", "message", "field"?}]}`.
//!
//! # Choices where the document says "not shown" (or leaves room)
//! - **Roles** are seeded with ids 1 Account Admin, 2 Admin, 3 HR Partner, 4 Reporting Manager,
//!   5 Employee; `GET /api/roles` lists them (`id`, `name`, `default`).
//! - **Who may do what**: the documented rules; in addition the organization lists (branches,
//!   departments, sub-departments, business units, teams, levels), roles, reading one time-off
//!   type and sending an invitation are for HR Partner, Admin and Account Admin, like every
//!   other documented read. So an Employee's or a Reporting Manager's key gets 403 on
//!   `GET /api/branches` (the installation page's check). Anyone may create a time-off, for
//!   themselves (`user_id` is the caller). Any approver may approve any pending request,
//!   their own included.
//! - **Plans**: Free has no API calls ("Nil" read as zero: every call gets 429 with
//!   `x-ratelimit-total: 0`); Trial 10; Growth and Pro MAX(50, employees); Enterprise
//!   MAX(100, 2 × employees), where employees are those not deleted. The window is the
//!   calendar minute of the clock; answers before the caller is known (400 host, 401) are not
//!   counted; a refused call is not counted (`x-ratelimit-used-currentrequest: 0`) and carries
//!   `retry-after` (seconds). The default plan is Enterprise.
//! - **Connections**: each is served on its own, at most 64 at once (one more gets 503); a
//!   request whose line, headers and body have not all arrived 5 seconds after its first byte
//!   gets 408 `request_timeout` (before the key is looked at, so without the rate-limit headers)
//!   and its connection is closed, so a client that stalls holds up no other.
//! - **Bodies** over 1 MiB get 413 (`payload_too_large`). A POST or PUT with an empty body and
//!   no `Content-Type` is taken as `{}`; a body must be UTF-8 JSON object (else 400
//!   `invalid_json`), and a `charset` other than UTF-8 gets 415. Unknown body attributes and
//!   unknown query parameters are ignored.
//! - **Paths** are exact: no trailing slash; an id is a positive integer (else 404).
//! - **Pagination**: 50 a page; no page-size parameter. `total-objects` counts every object the
//!   filters select (all pages), `total-pages` the pages they span, and `link` is
//!   `<URL>; rel="next"` when there is a next page. A page past the last is an empty list.
//!   Every list pages; lists other than employees are by id (`sort_type=desc` reverses them).
//! - **Employee list**: text filters match exactly; without `draft`, `terminated` or `deleted`
//!   every record is listed whatever its flags; `sort` is case-insensitive with ties by id;
//!   `updated_since` takes a date or a date-time in UTC. Seeded drafts are active, inactive
//!   and terminated employees are deleted (archived), consistent with the four always-empty
//!   combinations, which return 200 `[]` whatever the data.
//! - **Employee create/update**: `official_email` must look like an address and be unique;
//!   `employee_id` may be an integer or a string; `address.country` is stored as
//!   `country_code`; custom field values are checked against the field's type (checkbox 0 or
//!   1); `send_invite_email` sends nothing (no mail leaves the sandbox). Update has no required
//!   attributes.
//! - **Employee `include`**: organization objects, `reporting_to`, `hr_incharge`, `roles`,
//!   `shift` and `time_off` are filled; the other field options are `null`; the other arrays
//!   (awards, visas...) are empty. An unknown name is 400 at `include`.
//! - **Custom employee fields** are named `cf_<label in snake case>`; `field_type` defaults to
//!   `text`.
//! - **Time-offs**: a new request is `pending` (auto-approval is not simulated);
//!   `leave_units` counts Monday to Friday less optional holidays. Cancel works on `pending`
//!   or `approved` requests, approve on `pending` ones; any other move is 400 at `status`.
//!   The list's `start_date`/`end_date` select requests within the period.
//! - **`location`** takes at most 1,000 branch ids (else 400 at `location`, naming the limit).
//! - **Internal errors** are 500 `internal_error` with a message that says nothing of their cause
//!   (never SQL or a SQLite error's text); the cause goes to standard error, keys masked.
//! - **API keys** are random for each new database and kept in it (`--db` keeps them). The file
//!   is created readable and writable by its owner only (0600), and a file or journal found with
//!   wider rights is narrowed to that; SQLite gives its journals the file's mode.

mod api;
mod call;
pub mod error;
mod limits;
mod seed;
pub mod service;
mod store;
mod text;
pub mod time;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::json;

pub use api::MAX_LOCATIONS;
pub use error::ApiError;
use iparams_serve::{Handler, LocalServer, Options};
pub use iparams_serve::{Incoming, Outgoing};
pub use limits::{MAX_BODY_BYTES, Plan};
pub use seed::{KEYED_USERS, ROLE_NAMES};
pub use service::Service;
pub use time::{Clock, ManualClock, SystemClock};

/// How to start a sandbox.
#[derive(Debug, Clone)]
pub struct Config {
    /// 0: any free port.
    pub port: u16,
    pub plan: Plan,
    /// A database file kept across runs; `None`: a fresh one in memory.
    pub db: Option<PathBuf>,
    /// Employees seeded into a new database (at least 5).
    pub employees: usize,
    pub clock: Arc<dyn Clock>,
    /// Connections served at once, each by a thread of its own.
    pub max_connections: usize,
    /// How long a request may take to arrive (else 408); see [`iparams_serve::Options`].
    pub read_timeout: std::time::Duration,
    /// Write one line per request to standard error: method, path (no query), status, time.
    pub log_requests: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            port: 0,
            plan: Plan::default(),
            db: None,
            employees: 60,
            clock: Arc::new(SystemClock),
            max_connections: iparams_serve::DEFAULT_MAX_CONNECTIONS,
            read_timeout: iparams_serve::DEFAULT_READ_TIMEOUT,
            log_requests: false,
        }
    }
}

/// The API keys of the seeded users, by role.
#[derive(Clone, PartialEq, Eq)]
pub struct Tokens {
    pub account_admin: String,
    pub admin: String,
    pub hr_partner: String,
    pub reporting_manager: String,
    pub employee: String,
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tokens { .. }")
    }
}

/// Why the sandbox could not start.
#[derive(Debug)]
pub enum StartError {
    Database(String),
    Listen(String),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Database(m) => write!(f, "database: {m}"),
            StartError::Listen(m) => write!(f, "cannot listen on 127.0.0.1: {m}"),
        }
    }
}

impl std::error::Error for StartError {}

/// A running sandbox; [`Sandbox::stop`] (or dropping it) ends it.
pub struct Sandbox {
    server: Option<LocalServer>,
    service: Arc<Service>,
    address: SocketAddr,
    tokens: Tokens,
    seeded: bool,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The keys are left out: they are credentials.
        f.debug_struct("Sandbox")
            .field("address", &self.address)
            .field("plan", &self.service.plan)
            .finish_non_exhaustive()
    }
}

/// The store of `config`, opened (or created and seeded), with the seeded users' keys, and
/// whether this call seeded it.
fn open_store(config: &Config) -> Result<(store::Store, Tokens, bool), StartError> {
    let db = |e: rusqlite::Error| StartError::Database(e.to_string());
    if let Some(path) = &config.db {
        store::make_private(path)
            .map_err(|e| StartError::Database(format!("{}: {e}", path.display())))?;
    }
    let store = store::Store::open(config.db.as_deref()).map_err(db)?;
    let seeded = store.meta("seeded_at").map_err(db)?.is_none();
    if seeded {
        store.conn.execute_batch("BEGIN").map_err(db)?;
        let result = seed::seed(&store, config.employees, &mut random_key);
        if let Err(error) = result {
            let _ = store.conn.execute_batch("ROLLBACK");
            return Err(StartError::Database(format!(
                "seeding: {}",
                error.to_json()
            )));
        }
        store
            .set_meta("seeded_at", &time::format_timestamp(config.clock.now_ms()))
            .map_err(db)?;
        store.conn.execute_batch("COMMIT").map_err(db)?;
    }
    let key = |label: &str| -> Result<String, StartError> {
        store
            .key(label)
            .map_err(db)?
            .ok_or_else(|| StartError::Database(format!("no API key for {label}")))
    };
    let tokens = Tokens {
        account_admin: key("account_admin")?,
        admin: key("admin")?,
        hr_partner: key("hr_partner")?,
        reporting_manager: key("reporting_manager")?,
        employee: key("employee")?,
    };
    Ok((store, tokens, seeded))
}

impl Service {
    /// A service over the database of `config` (seeded if new) that no server listens for:
    /// requests are handed to [`Service::handle`] in the caller's process (the fuzz target
    /// does). Its `Host` check expects `127.0.0.1:PORT` with `config.port`.
    pub fn open(config: &Config) -> Result<(Service, Tokens), StartError> {
        let (store, tokens, _) = open_store(config)?;
        let service = Service::new(store, config.plan, config.clock.clone(), config.port);
        Ok((service, tokens))
    }
}

/// A random API key: 32 hex digits from the system's hash seeds and the time.
fn random_key() -> String {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    let mut out = String::new();
    for round in 0..2_u64 {
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u64(round);
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        out.push_str(&format!("{:016x}", hasher.finish()));
    }
    format!("sbx_{out}")
}

impl Sandbox {
    /// Opens (or creates and seeds) the database, listens on 127.0.0.1 and starts answering.
    pub fn start(config: Config) -> Result<Self, StartError> {
        let (store, tokens, seeded) = open_store(&config)?;
        let mut made = None;
        let server = LocalServer::start(
            Options {
                port: config.port,
                max_connections: config.max_connections,
                max_body: MAX_BODY_BYTES,
                read_timeout: config.read_timeout,
                log: config.log_requests.then(|| "hr-sandbox".to_owned()),
                logged_path: text::mask_keys,
                refusal: ApiError::refusal,
                ..Options::default()
            },
            |port| {
                let service =
                    Arc::new(Service::new(store, config.plan, config.clock.clone(), port));
                made = Some(Arc::clone(&service));
                let handler: Arc<Handler> = Arc::new(move |request| service.handle(request));
                handler
            },
        )
        .map_err(|e| StartError::Listen(e.to_string()))?;
        let service = made.expect("the handler was made");
        let address = server.address();
        Ok(Self {
            server: Some(server),
            service,
            address,
            tokens,
            seeded,
        })
    }

    /// `http://127.0.0.1:PORT`
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    pub fn address(&self) -> SocketAddr {
        self.address
    }

    pub fn tokens(&self) -> &Tokens {
        &self.tokens
    }

    /// Whether this start created and seeded the database (rather than reopening one).
    pub fn seeded(&self) -> bool {
        self.seeded
    }

    pub fn plan(&self) -> Plan {
        self.service.plan
    }

    /// The first line the command prints: the URL and the four keys clients need.
    pub fn announcement(&self) -> String {
        json!({
            "url": self.url(),
            "tokens": {
                "account_admin": self.tokens.account_admin,
                "hr_partner": self.tokens.hr_partner,
                "reporting_manager": self.tokens.reporting_manager,
                "employee": self.tokens.employee,
            }
        })
        .to_string()
    }

    /// Stops answering, finishes the requests under way, and closes the database.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some(server) = self.server.take() {
            server.stop();
        }
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.shutdown();
    }
}
