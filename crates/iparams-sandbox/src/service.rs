//! One request, from its raw parts to its answer: the document's rules in the order they apply
//! (host, credentials, rate limit, path, method, `Accept`, `Content-Type`, role, then the
//! operation itself). Independent of the HTTP server, so each rule can be tested alone.

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::api;
use crate::call::{Call, Caller, Records, Reply};
use crate::error::ApiError;
use crate::limits::{MAX_BODY_BYTES, Plan};
use crate::store::Store;
use crate::text::mask_keys;
use crate::time::Clock;
use iparams_serve::{Incoming, Outgoing, host_allowed, percent_decode};

/// The running service's state.
#[derive(Debug)]
pub struct Service {
    /// What the operations read and write.
    records: Records,
    pub(crate) plan: Plan,
    port: u16,
    window: Mutex<Window>,
}

/// Calls counted in the current minute of the account.
#[derive(Debug, Default)]
struct Window {
    minute: u64,
    used: u64,
}

/// The rate-limit figures of one answer.
#[derive(Debug, Clone, Copy)]
struct Quota {
    total: u64,
    remaining: u64,
    used_now: u64,
    /// Seconds until the window ends (for `retry-after` on 429).
    reset: u64,
}

impl Service {
    pub(crate) fn new(store: Store, plan: Plan, clock: Arc<dyn Clock>, port: u16) -> Self {
        Self {
            records: Records::new(store, clock, port),
            plan,
            port,
            window: Mutex::new(Window::default()),
        }
    }

    /// Answers one request.
    pub fn handle(&self, request: &Incoming) -> Outgoing {
        let mut quota = None;
        let mut allow = None;
        let result = self.answer(request, &mut quota, &mut allow);
        let (status, body, mut headers) = match result {
            Ok(reply) => (reply.status, reply.body, reply.headers),
            Err(error) => {
                if let Some(detail) = &error.detail {
                    // The log only, masked and cut: the answer says "internal error".
                    let detail: String = detail.chars().take(300).collect();
                    eprintln!("hr-sandbox: internal error: {}", mask_keys(&detail));
                }
                (error.status, error.to_json(), Vec::new())
            }
        };
        if let Some(allow) = allow {
            headers.push(("allow".into(), allow));
        }
        let quota = quota.unwrap_or_else(|| self.peek_quota());
        headers.push(("x-ratelimit-total".into(), quota.total.to_string()));
        headers.push(("x-ratelimit-remaining".into(), quota.remaining.to_string()));
        headers.push((
            "x-ratelimit-used-currentrequest".into(),
            quota.used_now.to_string(),
        ));
        if status == 429 {
            headers.push(("retry-after".into(), quota.reset.to_string()));
        }
        headers.push((
            "content-type".into(),
            "application/json; charset=utf-8".into(),
        ));
        // Answers echo what the request wrote (a path, a filter value), where a caller may have
        // put a key: none leaves the service.
        for (_, value) in &mut headers {
            if let Cow::Owned(masked) = mask_keys(value) {
                *value = masked;
            }
        }
        let body = body.to_string();
        Outgoing {
            status,
            headers,
            body: mask_keys(&body).into_owned(),
        }
    }

    fn answer(
        &self,
        request: &Incoming,
        quota: &mut Option<Quota>,
        allow: &mut Option<String>,
    ) -> Result<Reply, ApiError> {
        self.check_host(request)?;
        let caller = self.authenticate(request)?;
        let counted = self.count_call()?;
        *quota = Some(counted);
        let Some(body) = &request.body else {
            return Err(ApiError::new(
                413,
                "payload_too_large",
                format!("The request body is over {MAX_BODY_BYTES} bytes"),
            ));
        };
        let (path, raw_query) = match request.target.split_once('?') {
            Some((path, query)) => (path, query),
            None => (request.target.as_str(), ""),
        };
        let path = percent_decode(path)
            .ok_or_else(|| ApiError::not_found("The path is not valid percent-encoded UTF-8"))?;
        let segments: Vec<&str> = path.split('/').skip(1).collect();
        let route = api::route(&segments)
            .ok_or_else(|| ApiError::not_found(format!("No resource at {path}")))?;
        let method = request.method.to_ascii_uppercase();
        if !route.methods.contains(&method.as_str()) {
            *allow = Some(route.methods.join(", "));
            return Err(ApiError::new(
                405,
                "method_not_allowed",
                format!(
                    "{method} is not allowed on {path}; allowed: {}",
                    route.methods.join(", ")
                ),
            ));
        }
        check_accept(request.header("accept"))?;
        let sends_body = method == "POST" || method == "PUT";
        let body = if sends_body {
            parse_body(request.header("content-type"), body)?
        } else {
            Value::Null
        };
        let query = parse_query(raw_query)?;
        let call = Call {
            caller,
            path: segments,
            query,
            raw_path: path.as_str(),
            body,
        };
        (route.operation)(&self.records, &method, &call)
    }

    fn check_host(&self, request: &Incoming) -> Result<(), ApiError> {
        if host_allowed(request.header("host"), self.port) {
            Ok(())
        } else {
            Err(ApiError::new(
                400,
                "invalid_host",
                format!(
                    "The Host header must be 127.0.0.1:{0} or localhost:{0}",
                    self.port
                ),
            ))
        }
    }

    fn authenticate(&self, request: &Incoming) -> Result<Caller, ApiError> {
        let header = request.header("authorization").unwrap_or("");
        let mut parts = header.trim().splitn(2, ' ');
        let scheme = parts.next().unwrap_or("");
        let token = parts.next().unwrap_or("").trim();
        if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
            return Err(ApiError::unauthenticated());
        }
        let store = self.records.store();
        let Some(id) = store.key_owner(token)? else {
            return Err(ApiError::unauthenticated());
        };
        let roles = match store.get(crate::store::EMPLOYEES, id)? {
            Some(employee) => employee
                .get("_role_ids")
                .and_then(Value::as_array)
                .map(|ids| ids.iter().filter_map(Value::as_i64).collect())
                .unwrap_or_default(),
            None => return Err(ApiError::unauthenticated()),
        };
        Ok(Caller { id, roles })
    }

    fn limit(&self) -> Result<u64, ApiError> {
        let employees = u64::try_from(self.records.store().subscribed_employees()?).unwrap_or(0);
        Ok(self.plan.calls_per_minute(employees))
    }

    /// Counts this call against the account's minute, or refuses it with 429.
    fn count_call(&self) -> Result<Quota, ApiError> {
        let total = self.limit()?;
        let now = self.records.clock.now_ms();
        let minute = now / 60_000;
        let reset = 60 - (now % 60_000) / 1000;
        let mut window = self.window.lock().unwrap_or_else(|p| p.into_inner());
        if window.minute != minute {
            *window = Window { minute, used: 0 };
        }
        if window.used >= total {
            let error = ApiError::new(
                429,
                "rate_limit_exceeded",
                format!(
                    "The {} plan allows {total} calls a minute; try again in {reset} s",
                    self.plan.name()
                ),
            );
            return Err(error);
        }
        window.used += 1;
        Ok(Quota {
            total,
            remaining: total - window.used,
            used_now: 1,
            reset,
        })
    }

    /// The figures without counting (for answers before the caller is known, and for 429).
    fn peek_quota(&self) -> Quota {
        let total = self.limit().unwrap_or(0);
        let now = self.records.clock.now_ms();
        let window = self.window.lock().unwrap_or_else(|p| p.into_inner());
        let used = if window.minute == now / 60_000 {
            window.used
        } else {
            0
        };
        Quota {
            total,
            remaining: total.saturating_sub(used),
            used_now: 0,
            reset: 60 - (now % 60_000) / 1000,
        }
    }
}

/// 406 unless `accept` allows JSON (absent, `application/json`, `application/*` or `*/*`).
fn check_accept(accept: Option<&str>) -> Result<(), ApiError> {
    let Some(accept) = accept.filter(|a| !a.trim().is_empty()) else {
        return Ok(());
    };
    let acceptable = accept.split(',').any(|range| {
        let media = range.split(';').next().unwrap_or("").trim();
        ["application/json", "application/*", "*/*"]
            .iter()
            .any(|ok| media.eq_ignore_ascii_case(ok))
    });
    if acceptable {
        Ok(())
    } else {
        Err(ApiError::new(
            406,
            "not_acceptable",
            "Answers are application/json: send `Accept: application/json` or `*/*`",
        ))
    }
}

/// The JSON object of a request's body: 415 unless it is declared `application/json` (UTF-8);
/// an empty body without a type is taken as `{}`.
fn parse_body(content_type: Option<&str>, body: &[u8]) -> Result<Value, ApiError> {
    let unsupported = || {
        ApiError::new(
            415,
            "unsupported_media_type",
            "Send the body as `Content-Type: application/json` (UTF-8)",
        )
    };
    match content_type {
        None if body.is_empty() => return Ok(Value::Object(Default::default())),
        None => return Err(unsupported()),
        Some(value) => {
            let mut parts = value.split(';');
            let media = parts.next().unwrap_or("").trim();
            if !media.eq_ignore_ascii_case("application/json") {
                return Err(unsupported());
            }
            for parameter in parts {
                if let Some((name, value)) = parameter.split_once('=')
                    && name.trim().eq_ignore_ascii_case("charset")
                    && !value.trim().trim_matches('"').eq_ignore_ascii_case("utf-8")
                {
                    return Err(unsupported());
                }
            }
        }
    }
    if body.is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    let text = std::str::from_utf8(body)
        .map_err(|_| ApiError::new(400, "invalid_json", "The body is not UTF-8"))?;
    let value: Value = serde_json::from_str(text).map_err(|error| {
        ApiError::new(
            400,
            "invalid_json",
            format!("The body is not valid JSON: {error}"),
        )
    })?;
    if !value.is_object() {
        return Err(ApiError::new(
            400,
            "invalid_json",
            "The body must be a JSON object",
        ));
    }
    Ok(value)
}

/// `name=value` pairs of a query (`+` is a space), decoded.
fn parse_query(raw: &str) -> Result<Vec<(String, String)>, ApiError> {
    raw.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let decode = |part: &str| {
                percent_decode(&part.replace('+', " ")).ok_or_else(|| {
                    ApiError::field(
                        name.to_owned(),
                        "invalid_value",
                        "Query values must be percent-encoded UTF-8",
                    )
                })
            };
            Ok((decode(name)?, decode(value)?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_masked_wherever_an_answer_echoes_them() {
        let config = crate::Config::default();
        let (service, tokens) = crate::Service::open(&config).expect("a service");
        let key = tokens.hr_partner.clone();
        let request = Incoming {
            method: "GET".into(),
            target: format!("/api/{key}?status={key}"),
            headers: vec![
                ("host".into(), format!("127.0.0.1:{}", service.port)),
                ("authorization".into(), format!("Bearer {key}")),
            ],
            body: Some(Vec::new()),
            ..Incoming::default()
        };
        let answer = service.handle(&request);
        assert_eq!(answer.status, 404, "{}", answer.body);
        assert!(answer.body.contains("sbx_****"), "{}", answer.body);
        assert!(!answer.body.contains(&key[4..]), "{}", answer.body);
        assert_eq!(mask_keys("a sbx_12ab and sbx_"), "a sbx_12ab and sbx_");
    }

    #[test]
    fn a_filter_over_the_limit_is_a_400_and_no_answer_quotes_the_database() {
        let config = crate::Config::default();
        let (service, tokens) = crate::Service::open(&config).expect("a service");
        let ids: Vec<String> = (1..=40_000).map(|n| n.to_string()).collect();
        let request = Incoming {
            method: "GET".into(),
            target: format!("/api/employees?location={}", ids.join(",")),
            headers: vec![
                ("host".into(), format!("127.0.0.1:{}", service.port)),
                (
                    "authorization".into(),
                    format!("Bearer {}", tokens.hr_partner),
                ),
            ],
            body: Some(Vec::new()),
            ..Incoming::default()
        };
        let answer = service.handle(&request);
        assert_eq!(answer.status, 400, "{}", answer.body);
        let body: serde_json::Value = serde_json::from_str(&answer.body).expect("JSON");
        assert_eq!(body["errors"][0]["field"], "location", "{body}");
        assert_eq!(
            body["errors"][0]["message"],
            format!(
                "`location` takes at most {} branch ids",
                crate::api::MAX_LOCATIONS
            )
        );
        // At the limit, the filter works.
        let request = Incoming {
            target: format!(
                "/api/employees?location={}",
                ids[..crate::api::MAX_LOCATIONS].join(",")
            ),
            ..request
        };
        assert_eq!(service.handle(&request).status, 200);
        // A database error answers 500 with nothing of its text.
        let error = crate::ApiError::from(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(1),
            Some("too many SQL variables in SELECT doc FROM records".into()),
        ));
        let shown = error.to_json().to_string();
        assert_eq!(error.status, 500);
        assert!(shown.contains("Internal error"), "{shown}");
        assert!(
            !shown.contains("SELECT") && !shown.contains("SQL"),
            "{shown}"
        );
    }
}
