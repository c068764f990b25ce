//! The state, in SQLite: one table of JSON records by kind (queried with SQLite's JSON
//! functions), the API keys, and a little metadata.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;

use crate::error::ApiError;

/// The kinds of record, as the paths name them.
pub const EMPLOYEES: &str = "employees";
pub const EMPLOYEE_FIELDS: &str = "employee_fields";
pub const TIME_OFFS: &str = "time_offs";
pub const TIME_OFF_TYPES: &str = "time_off_types";
pub const ROLES: &str = "roles";
/// Field options for `shift_id` (no endpoint lists them).
pub const SHIFTS: &str = "shifts";
/// The organization structure lists, by path.
pub const ORG_KINDS: [&str; 6] = [
    "branches",
    "departments",
    "sub_departments",
    "business_units",
    "teams",
    "levels",
];

#[derive(Debug)]
pub struct Store {
    pub conn: Connection,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    kind TEXT NOT NULL,
    id INTEGER NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (kind, id)
);
-- Every request counts the employees for the rate limit: an index on what it counts keeps that
-- from reading every record.
CREATE INDEX IF NOT EXISTS subscribed ON records (kind, json_extract(doc, '$.deleted'));
-- Creating or updating an employee checks that no other has the same official_email.
CREATE INDEX IF NOT EXISTS official_email
    ON records (kind, lower(json_extract(doc, '$.official_email')));
CREATE TABLE IF NOT EXISTS api_keys (
    token TEXT PRIMARY KEY,
    label TEXT NOT NULL UNIQUE,
    employee_id INTEGER NOT NULL
);
";

/// Makes the database file at `path` readable by its owner alone (it holds every API key),
/// creating it empty (SQLite takes an empty file as a new database) so that it never exists with
/// wider rights; a file already there, and its journal, are narrowed. SQLite gives the journals
/// it creates later the database file's mode.
pub fn make_private(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
        {
            Ok(_) => {}
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(error) => return Err(error),
        }
        let name = path.as_os_str().to_owned();
        for suffix in ["", "-journal", "-wal", "-shm"] {
            let mut file = name.clone();
            file.push(suffix);
            let file = Path::new(&file);
            match std::fs::metadata(file) {
                Ok(meta) if meta.permissions().mode() & 0o077 != 0 => {
                    std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600))?;
                }
                Ok(_) => {}
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                Err(error) => return Err(error),
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

impl Store {
    /// Opens (creating) the database at `path`, or a private one in memory.
    pub fn open(path: Option<&Path>) -> rusqlite::Result<Self> {
        let conn = match path {
            Some(path) => Connection::open(path)?,
            None => Connection::open_in_memory()?,
        };
        conn.busy_timeout(std::time::Duration::from_secs(2))?;
        conn.execute_batch(SCHEMA)?;
        Ok(Self { conn })
    }

    pub fn meta(&self, key: &str) -> rusqlite::Result<Option<String>> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |row| {
                row.get(0)
            })
            .optional()
    }

    pub fn set_meta(&self, key: &str, value: &str) -> rusqlite::Result<()> {
        self.conn.execute(
            "INSERT INTO meta (key, value) VALUES (?1, ?2)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            params![key, value],
        )?;
        Ok(())
    }

    pub fn get(&self, kind: &str, id: i64) -> Result<Option<Value>, ApiError> {
        let text: Option<String> = self
            .conn
            .query_row(
                "SELECT doc FROM records WHERE kind = ?1 AND id = ?2",
                params![kind, id],
                |row| row.get(0),
            )
            .optional()?;
        Ok(match text {
            Some(text) => Some(serde_json::from_str(&text)?),
            None => None,
        })
    }

    pub fn exists(&self, kind: &str, id: i64) -> Result<bool, ApiError> {
        Ok(self
            .conn
            .query_row(
                "SELECT 1 FROM records WHERE kind = ?1 AND id = ?2",
                params![kind, id],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// Stores `doc` under the next id of `kind`, which is written into it as `id`.
    pub fn insert(&self, kind: &str, doc: &mut Value) -> Result<i64, ApiError> {
        let id: i64 = self.conn.query_row(
            "SELECT COALESCE(MAX(id), 0) + 1 FROM records WHERE kind = ?1",
            [kind],
            |row| row.get(0),
        )?;
        if let Some(object) = doc.as_object_mut() {
            object.insert("id".into(), Value::from(id));
        }
        self.conn.execute(
            "INSERT INTO records (kind, id, doc) VALUES (?1, ?2, ?3)",
            params![kind, id, doc.to_string()],
        )?;
        Ok(id)
    }

    pub fn update(&self, kind: &str, id: i64, doc: &Value) -> Result<(), ApiError> {
        self.conn.execute(
            "UPDATE records SET doc = ?3 WHERE kind = ?1 AND id = ?2",
            params![kind, id, doc.to_string()],
        )?;
        Ok(())
    }

    /// Every record of `kind`, by id.
    pub fn all(&self, kind: &str) -> Result<Vec<Value>, ApiError> {
        self.select(
            "SELECT doc FROM records WHERE kind = ?1 ORDER BY id",
            &[&kind],
        )
    }

    /// The documents a query over `records` selects (its one column is `doc`).
    pub fn select(
        &self,
        sql: &str,
        values: &[&dyn rusqlite::ToSql],
    ) -> Result<Vec<Value>, ApiError> {
        let mut statement = self.conn.prepare_cached(sql)?;
        let rows = statement.query_map(values, |row| row.get::<_, String>(0))?;
        let mut docs = Vec::new();
        for text in rows {
            docs.push(serde_json::from_str(&text?)?);
        }
        Ok(docs)
    }

    pub fn count(&self, sql: &str, values: &[&dyn rusqlite::ToSql]) -> Result<i64, ApiError> {
        Ok(self.conn.query_row(sql, values, |row| row.get(0))?)
    }

    /// The employee an API key belongs to.
    pub fn key_owner(&self, token: &str) -> rusqlite::Result<Option<i64>> {
        self.conn
            .query_row(
                "SELECT employee_id FROM api_keys WHERE token = ?1",
                [token],
                |row| row.get(0),
            )
            .optional()
    }

    /// The API key labelled `label` (`account_admin`, `hr_partner`...).
    pub fn key(&self, label: &str) -> rusqlite::Result<Option<String>> {
        self.conn
            .query_row(
                "SELECT token FROM api_keys WHERE label = ?1",
                [label],
                |row| row.get(0),
            )
            .optional()
    }

    pub fn add_key(&self, token: &str, label: &str, employee_id: i64) -> rusqlite::Result<()> {
        self.conn.execute(
            "INSERT INTO api_keys (token, label, employee_id) VALUES (?1, ?2, ?3)",
            params![token, label, employee_id],
        )?;
        Ok(())
    }

    /// Employees that count for the rate limit: those not deleted.
    pub fn subscribed_employees(&self) -> Result<i64, ApiError> {
        self.count(
            "SELECT COUNT(*) FROM records WHERE kind = 'employees'
             AND json_extract(doc, '$.deleted') = 0",
            &[],
        )
    }
}
