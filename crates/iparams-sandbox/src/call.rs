//! What an operation of the HR API works with: the parsed request, its answer, and the records
//! it reads and writes. Below both the service, which checks a request before routing it, and
//! the operations (api.rs), which the service calls.

use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::Value;

use crate::store::Store;
use crate::time::Clock;

/// The account's records, the clock, and where the service answers: what operations use.
#[derive(Debug)]
pub(crate) struct Records {
    store: Mutex<Store>,
    pub clock: Arc<dyn Clock>,
    /// `http://127.0.0.1:PORT`
    pub base_url: String,
}

impl Records {
    pub fn new(store: Store, clock: Arc<dyn Clock>, port: u16) -> Self {
        Self {
            store: Mutex::new(store),
            clock,
            base_url: format!("http://127.0.0.1:{port}"),
        }
    }

    pub fn store(&self) -> MutexGuard<'_, Store> {
        self.store
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn now(&self) -> String {
        crate::time::format_timestamp(self.clock.now_ms())
    }
}

/// What a matched route may do, and who may do it.
pub(crate) struct Caller {
    pub id: i64,
    pub roles: Vec<i64>,
}

impl Caller {
    pub fn has_any(&self, roles: &[i64]) -> bool {
        self.roles.iter().any(|r| roles.contains(r))
    }
}

/// The roles of every documented read and write of employees, fields, time-offs, types (and,
/// by choice, organization lists and roles): HR Partner, Admin, Account Admin.
pub(crate) const HR_ROLES: &[i64] = &[1, 2, 3];
/// Who may approve a time-off: the above and Reporting Manager.
pub(crate) const APPROVER_ROLES: &[i64] = &[1, 2, 3, 4];

/// The parsed request an operation sees.
pub(crate) struct Call<'a> {
    pub caller: Caller,
    pub path: Vec<&'a str>,
    pub query: Vec<(String, String)>,
    /// The path as requested, for the next page's `link`.
    pub raw_path: &'a str,
    pub body: Value,
}

/// What an operation answers on success.
pub(crate) struct Reply {
    pub status: u16,
    pub body: Value,
    pub headers: Vec<(String, String)>,
}

impl Reply {
    pub fn ok(body: Value) -> Self {
        Self {
            status: 200,
            body,
            headers: Vec::new(),
        }
    }

    pub fn created(body: Value) -> Self {
        Self {
            status: 201,
            body,
            headers: Vec::new(),
        }
    }
}
