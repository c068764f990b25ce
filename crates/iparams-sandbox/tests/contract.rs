//! The contract of the HR service API document, rule by rule, over HTTP on loopback against
//! the real server (in this process, so the rate-limit clock can be moved by hand).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use iparams_sandbox::{Config, ManualClock, Plan, Sandbox};
use serde_json::{Value, json};

#[derive(Debug)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn len(&self) -> usize {
        self.body.as_array().map_or(usize::MAX, Vec::len)
    }

    /// The document's error shape, with `field` where expected.
    fn assert_error(&self, status: u16, field: Option<&str>) {
        assert_eq!(self.status, status, "{self:#?}");
        let errors = self.body["errors"].as_array().expect("errors array");
        assert!(!errors.is_empty());
        for error in errors {
            assert!(
                error["code"].is_string() && error["message"].is_string(),
                "{error}"
            );
        }
        if let Some(field) = field {
            assert!(
                errors.iter().any(|e| e["field"] == field),
                "no error at {field}: {self:#?}"
            );
        }
    }
}

/// Sends one raw request (the bytes are as given, so odd ones can be tried).
fn raw(addr: SocketAddr, request: &[u8]) -> Answer {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    stream.write_all(request).expect("send");
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    let split = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8_lossy(&bytes[..split]).to_string();
    let mut body = bytes[split + 4..].to_vec();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("status");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    if headers
        .iter()
        .any(|(n, v)| n.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"))
    {
        body = dechunk(&body);
    }
    let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
    Answer {
        status,
        headers,
        body,
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = data.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&data[..end]).trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.extend_from_slice(&data[end + 2..end + 2 + size]);
        data = &data[end + 4 + size..];
    }
    out
}

struct Client {
    sandbox: Sandbox,
}

impl Client {
    fn start(config: Config) -> Self {
        Self {
            sandbox: Sandbox::start(config).expect("starts"),
        }
    }

    fn new() -> Self {
        Self::start(Config::default())
    }

    fn addr(&self) -> SocketAddr {
        self.sandbox.address()
    }

    fn send(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        extra: &[(&str, &str)],
        body: Option<&str>,
    ) -> Answer {
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
            self.addr()
        );
        if let Some(token) = token {
            request.push_str(&format!("Authorization: Bearer {token}\r\n"));
        }
        for (name, value) in extra {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        let body = body.unwrap_or("");
        if !body.is_empty() || method == "POST" || method == "PUT" {
            request.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        request.push_str("\r\n");
        request.push_str(body);
        raw(self.addr(), request.as_bytes())
    }

    fn get(&self, path: &str, token: &str) -> Answer {
        self.send(
            "GET",
            path,
            Some(token),
            &[("Accept", "application/json")],
            None,
        )
    }

    fn json(&self, method: &str, path: &str, token: &str, body: &Value) -> Answer {
        self.send(
            method,
            path,
            Some(token),
            &[("Content-Type", "application/json")],
            Some(&body.to_string()),
        )
    }

    fn hr(&self) -> String {
        self.sandbox.tokens().hr_partner.clone()
    }
}

#[test]
fn the_first_line_names_the_url_and_four_keys() {
    let c = Client::new();
    let line: Value = serde_json::from_str(&c.sandbox.announcement()).expect("json");
    assert_eq!(line["url"], format!("http://{}", c.addr()));
    for role in [
        "account_admin",
        "hr_partner",
        "reporting_manager",
        "employee",
    ] {
        assert!(line["tokens"][role].as_str().is_some_and(|t| t.len() > 20));
    }
}

#[test]
fn status_401_without_valid_credentials() {
    let c = Client::new();
    c.send("GET", "/api/branches", None, &[], None)
        .assert_error(401, None);
    c.get("/api/branches", "not-a-key").assert_error(401, None);
    let basic = c.send(
        "GET",
        "/api/branches",
        None,
        &[("Authorization", "Basic abc")],
        None,
    );
    basic.assert_error(401, None);
    // Credentials are checked before the path exists.
    c.send("GET", "/api/nothing", None, &[], None)
        .assert_error(401, None);
    assert!(basic.header("x-ratelimit-total").is_some());
}

#[test]
fn status_403_for_roles_the_operation_does_not_allow() {
    let c = Client::new();
    let t = c.sandbox.tokens().clone();
    for path in [
        "/api/employees",
        "/api/time_offs",
        "/api/time_off_types",
        "/api/employee_fields",
        "/api/branches",
    ] {
        c.get(path, &t.employee).assert_error(403, None);
        assert_eq!(c.get(path, &t.hr_partner).status, 200, "{path}");
        assert_eq!(c.get(path, &t.account_admin).status, 200, "{path}");
    }
    c.get("/api/employees/1", &t.reporting_manager)
        .assert_error(403, None);
    c.json("POST", "/api/employees", &t.employee, &json!({}))
        .assert_error(403, None);
    // Approving is for approvers: a reporting manager may, an employee may not.
    c.json("PUT", "/api/time_offs/1/approve", &t.employee, &json!({}))
        .assert_error(403, None);
    assert_eq!(
        c.json(
            "PUT",
            "/api/time_offs/1/approve",
            &t.reporting_manager,
            &json!({})
        )
        .status,
        200
    );
}

#[test]
fn status_404_for_unknown_paths_and_ids() {
    let c = Client::new();
    let hr = c.hr();
    c.get("/api/nothing", &hr).assert_error(404, None);
    c.get("/api/employees/", &hr).assert_error(404, None);
    c.get("/api/employees/abc", &hr).assert_error(404, None);
    c.get("/api/employees/99999", &hr).assert_error(404, None);
    c.get("/api/time_offs/99999", &hr).assert_error(404, None);
    c.get("/api/time_off_types/99", &hr).assert_error(404, None);
    c.get("/api/%ff", &hr).assert_error(404, None);
}

#[test]
fn status_405_for_other_methods() {
    let c = Client::new();
    let hr = c.hr();
    let answer = c.send("DELETE", "/api/employees/1", Some(&hr), &[], None);
    answer.assert_error(405, None);
    assert_eq!(answer.header("allow"), Some("GET, PUT"));
    c.json("POST", "/api/branches", &hr, &json!({}))
        .assert_error(405, None);
    c.send("GET", "/api/time_offs/1/cancel", Some(&hr), &[], None)
        .assert_error(405, None);
}

#[test]
fn status_406_when_json_is_not_acceptable() {
    let c = Client::new();
    let hr = c.hr();
    c.send(
        "GET",
        "/api/branches",
        Some(&hr),
        &[("Accept", "text/html")],
        None,
    )
    .assert_error(406, None);
    for ok in [
        "*/*",
        "application/json",
        "text/html, application/json;q=0.9",
        "application/*",
    ] {
        let answer = c.send("GET", "/api/branches", Some(&hr), &[("Accept", ok)], None);
        assert_eq!(answer.status, 200, "{ok}");
    }
    assert_eq!(
        c.send("GET", "/api/branches", Some(&hr), &[], None).status,
        200
    );
}

#[test]
fn status_415_for_bodies_that_are_not_json() {
    let c = Client::new();
    let hr = c.hr();
    let body = Some(r#"{"label":"x","section_name":"basic_information"}"#);
    c.send(
        "POST",
        "/api/employee_fields",
        Some(&hr),
        &[("Content-Type", "text/plain")],
        body,
    )
    .assert_error(415, None);
    c.send("POST", "/api/employee_fields", Some(&hr), &[], body)
        .assert_error(415, None);
    c.send(
        "POST",
        "/api/employee_fields",
        Some(&hr),
        &[("Content-Type", "application/json; charset=latin-1")],
        body,
    )
    .assert_error(415, None);
    let ok = c.send(
        "POST",
        "/api/employee_fields",
        Some(&hr),
        &[("Content-Type", "application/json; charset=UTF-8")],
        body,
    );
    assert_eq!(ok.status, 201, "{ok:#?}");
}

#[test]
fn status_400_names_the_field_at_fault() {
    let c = Client::new();
    let hr = c.hr();
    let missing = c.json("POST", "/api/employees", &hr, &json!({}));
    for field in ["first_name", "last_name", "official_email", "role_ids"] {
        missing.assert_error(400, Some(field));
    }
    let body = json!({"first_name": "A", "last_name": "B", "official_email": "a.b@acme.test",
                      "role_ids": [5], "branch_id": 999, "designation": "x".repeat(129),
                      "address": {"city": "X"}, "custom_fields": {"cf_nope": "1"}});
    let answer = c.json("POST", "/api/employees", &hr, &body);
    for field in [
        "branch_id",
        "designation",
        "address.city",
        "custom_fields.cf_nope",
    ] {
        answer.assert_error(400, Some(field));
    }
    c.json(
        "POST",
        "/api/employees",
        &hr,
        &json!({"first_name": "A", "last_name": "B",
        "official_email": "a@b.test", "role_ids": [6]}),
    )
    .assert_error(400, Some("role_ids"));
    c.json(
        "POST",
        "/api/time_offs",
        &hr,
        &json!({"start_date": "2026-02-30"}),
    )
    .assert_error(400, Some("start_date"));
    c.json(
        "POST",
        "/api/time_offs",
        &hr,
        &json!({"start_date": "2026-12-01", "end_date": "2026-12-02",
        "leave_type_id": 77, "comments": "x"}),
    )
    .assert_error(400, Some("leave_type_id"));
    c.get("/api/employees?page=0", &hr)
        .assert_error(400, Some("page"));
    c.get("/api/employees?sort=salary", &hr)
        .assert_error(400, Some("sort"));
    c.get("/api/employees?status=gone", &hr)
        .assert_error(400, Some("status"));
    c.get("/api/employees/1?include=salary", &hr)
        .assert_error(400, Some("include"));
    c.get("/api/employees?updated_since=yesterday", &hr)
        .assert_error(400, Some("updated_since"));
}

#[test]
fn bad_input_never_breaks_it() {
    let c = Client::new();
    let hr = c.hr();
    for body in ["{", "[1]", "\"x\"", "{\"a\":}", "\u{feff}{}"] {
        c.send(
            "POST",
            "/api/employees",
            Some(&hr),
            &[("Content-Type", "application/json")],
            Some(body),
        )
        .assert_error(400, None);
    }
    // Invalid UTF-8 in the body.
    let mut request = format!(
        "POST /api/employees HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nAuthorization: Bearer {hr}\r\nContent-Type: application/json\r\nContent-Length: 4\r\n\r\n",
        c.addr()
    )
    .into_bytes();
    request.extend_from_slice(b"{\xff}\n");
    raw(c.addr(), &request).assert_error(400, None);
    // A body over the limit, declared or not.
    let huge = "x".repeat(iparams_sandbox::MAX_BODY_BYTES + 10);
    c.send(
        "POST",
        "/api/employees",
        Some(&hr),
        &[("Content-Type", "application/json")],
        Some(&huge),
    )
    .assert_error(413, None);
    // Unknown query parameters are ignored; bad escapes are a 400 at the parameter.
    assert_eq!(c.get("/api/employees?colour=blue", &hr).status, 200);
    c.get("/api/employees?first_name=%zz", &hr)
        .assert_error(400, Some("first_name"));
    // Still answering.
    assert_eq!(c.get("/api/branches", &hr).status, 200);
}

#[test]
fn only_the_loopback_host_is_served() {
    let c = Client::new();
    let hr = c.hr();
    let port = c.addr().port();
    for host in ["evil.test", "127.0.0.1:1", "localhost"] {
        let request = format!(
            "GET /api/branches HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {hr}\r\nConnection: close\r\n\r\n"
        );
        raw(c.addr(), request.as_bytes()).assert_error(400, None);
    }
    let request = format!(
        "GET /api/branches HTTP/1.1\r\nHost: localhost:{port}\r\nAuthorization: Bearer {hr}\r\nConnection: close\r\n\r\n"
    );
    assert_eq!(raw(c.addr(), request.as_bytes()).status, 200);
}

#[test]
fn the_four_contradictory_filters_return_an_empty_list() {
    let c = Client::new();
    let hr = c.hr();
    for query in [
        "status=inactive&draft=true",
        "status=active&terminated=true",
        "status=inactive&deleted=false",
        "draft=true&terminated=true&deleted=true",
    ] {
        let answer = c.get(&format!("/api/employees?{query}"), &hr);
        assert_eq!((answer.status, answer.len()), (200, 0), "{query}");
    }
    // Each half alone selects someone.
    for query in [
        "status=inactive",
        "draft=true",
        "terminated=true",
        "deleted=true",
        "status=active",
    ] {
        assert!(
            c.get(&format!("/api/employees?{query}"), &hr).len() > 0,
            "{query}"
        );
    }
}

#[test]
fn pagination_spans_pages_with_headers_and_link() {
    let c = Client::new();
    let hr = c.hr();
    let first = c.get("/api/employees?sort=employee_id", &hr);
    assert_eq!(first.len(), 50);
    assert_eq!(first.header("total-objects"), Some("60"));
    assert_eq!(first.header("total-pages"), Some("2"));
    let link = first.header("link").expect("a next page");
    let url = link.trim_start_matches('<').split('>').next().expect("url");
    assert!(link.ends_with("rel=\"next\""), "{link}");
    let path = url.trim_start_matches(&c.sandbox.url());
    assert_eq!(path, "/api/employees?sort=employee_id&page=2");
    let second = c.get(path, &hr);
    assert_eq!(second.len(), 10);
    assert!(second.header("link").is_none());
    assert_eq!(first.body[0]["employee_id"], "EMP0001");
    assert_eq!(second.body[9]["employee_id"], "EMP0060");
    assert_eq!(c.get("/api/employees?page=3", &hr).len(), 0);
    let desc = c.get("/api/employees?sort=employee_id&sort_type=desc", &hr);
    assert_eq!(desc.body[0]["employee_id"], "EMP0060");
    // Default sort: first_name.
    let names: Vec<String> = first
        .body
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| e["first_name"].as_str().unwrap_or("").to_lowercase())
        .collect();
    let default: Vec<String> = c
        .get("/api/employees", &hr)
        .body
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| e["first_name"].as_str().unwrap_or("").to_lowercase())
        .collect();
    assert!(default.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(names.len(), 50);
}

#[test]
fn employee_filters_match_their_fields() {
    let c = Client::new();
    let hr = c.hr();
    let all = c.get("/api/employees?location=1,2", &hr);
    assert!(
        all.body
            .as_array()
            .into_iter()
            .flatten()
            .all(|e| e["branch_id"] == 1 || e["branch_id"] == 2)
    );
    let engineering = c.get("/api/employees?department=1&status=active", &hr);
    assert!(engineering.len() > 0);
    assert!(
        engineering
            .body
            .as_array()
            .into_iter()
            .flatten()
            .all(|e| e["department_id"] == 1 && e["status"] == "active")
    );
    let reports = c.get("/api/employees?reporting_manager=4", &hr);
    assert!(
        reports
            .body
            .as_array()
            .into_iter()
            .flatten()
            .all(|e| e["reporting_to_id"] == 4)
    );
    let one = c.get("/api/employees?first_name=Elena", &hr);
    assert!(one.len() >= 1);
    assert_eq!(
        c.get("/api/employees?updated_since=2030-01-01T00:00:00Z", &hr)
            .len(),
        0
    );
    assert_eq!(
        c.get("/api/employees?updated_since=2020-01-01", &hr)
            .header("total-objects"),
        Some("60")
    );
    assert!(
        c.get("/api/employees/1", &hr)
            .body
            .get("_role_ids")
            .is_none()
    );
}

#[test]
fn an_employee_is_created_read_with_include_updated_and_invited() {
    let c = Client::new();
    let hr = c.hr();
    let created = c.json("POST", "/api/employees", &hr, &json!({
        "first_name": "Zoe", "last_name": "Quinn", "official_email": "zoe.quinn@acme-hr.test",
        "role_ids": [5], "branch_id": 2, "department_id": 1, "reporting_to_id": 4,
        "custom_fields": {"cf_works_remotely": 1}, "address": {"city": "London", "country": "GB"}
    }));
    assert_eq!(created.status, 201, "{created:#?}");
    let id = created.body["id"].as_i64().expect("id");
    assert_eq!(created.body["created_at"], created.body["updated_at"]);
    c.json(
        "POST",
        "/api/employees",
        &hr,
        &json!({"first_name": "Z", "last_name": "Q",
        "official_email": "ZOE.quinn@acme-hr.test", "role_ids": [5]}),
    )
    .assert_error(400, Some("official_email"));
    let read = c.get(
        &format!("/api/employees/{id}?include=branch,department,reporting_to,roles,awards"),
        &hr,
    );
    assert_eq!(read.status, 200);
    assert_eq!(read.body["branch"]["name"], "San Mateo");
    assert_eq!(read.body["department"]["name"], "Engineering");
    assert_eq!(read.body["reporting_to"]["id"], 4);
    assert_eq!(read.body["roles"][0]["name"], "Employee");
    assert_eq!(read.body["awards"], json!([]));
    assert!(read.body.get("level").is_none());
    let updated = c.json(
        "PUT",
        &format!("/api/employees/{id}"),
        &hr,
        &json!({"designation": "CTO", "last_name": null}),
    );
    assert_eq!(updated.status, 200);
    assert_eq!(updated.body["designation"], "CTO");
    assert_eq!(updated.body["last_name"], "Quinn");
    let invited = c.json(
        "PUT",
        &format!("/api/employees/{id}/send_invite"),
        &hr,
        &json!({"send_invite_email": true}),
    );
    assert_eq!(invited.status, 200);
    c.json(
        "PUT",
        &format!("/api/employees/{id}/send_invite"),
        &hr,
        &json!({}),
    )
    .assert_error(400, Some("send_invite_email"));
}

#[test]
fn employee_fields_are_listed_and_created() {
    let c = Client::new();
    let hr = c.hr();
    let fields = c.get("/api/employee_fields", &hr);
    assert!(
        fields
            .body
            .as_array()
            .into_iter()
            .flatten()
            .any(|f| f["field_type"] == "field_group")
    );
    let created = c.json(
        "POST",
        "/api/employee_fields",
        &hr,
        &json!({"label": "Badge number",
        "section_name": "additional_information", "field_type": "number", "required": false}),
    );
    assert_eq!(created.status, 201);
    assert_eq!(created.body["name"], "cf_badge_number");
    assert_eq!(created.body["section_label"], "Additional Information");
    c.json(
        "POST",
        "/api/employee_fields",
        &hr,
        &json!({"label": "X", "section_name": "nope"}),
    )
    .assert_error(400, Some("section_name"));
    c.json(
        "POST",
        "/api/employee_fields",
        &hr,
        &json!({"label": "X", "section_name": "additional_information", "field_type": "date"}),
    )
    .assert_error(400, Some("field_type"));
}

#[test]
fn organization_lists_answer() {
    let c = Client::new();
    let hr = c.hr();
    for (path, at_least) in [
        ("branches", 4),
        ("departments", 5),
        ("sub_departments", 4),
        ("business_units", 2),
        ("teams", 6),
        ("levels", 5),
        ("time_off_types", 4),
        ("roles", 5),
    ] {
        let answer = c.get(&format!("/api/{path}"), &hr);
        assert_eq!(answer.status, 200, "{path}");
        assert!(answer.len() >= at_least, "{path}");
        assert!(answer.body[0]["id"].is_number());
    }
    assert_eq!(
        c.get("/api/roles", &hr).body[3],
        json!({"id": 4, "name": "Reporting Manager", "default": true})
    );
    assert_eq!(
        c.get("/api/time_off_types/2", &hr).body["name"],
        "Sick leave"
    );
}

#[test]
fn time_off_dates_go_together_and_in_order() {
    let c = Client::new();
    let hr = c.hr();
    c.get("/api/time_offs?start_date=2026-12-01", &hr)
        .assert_error(400, Some("end_date"));
    c.get("/api/time_offs?end_date=2026-12-01", &hr)
        .assert_error(400, Some("start_date"));
    c.get(
        "/api/time_offs?start_date=2026-12-10&end_date=2026-12-01",
        &hr,
    )
    .assert_error(400, Some("end_date"));
    c.get(
        "/api/time_offs?start_date=2026-12-10&end_date=2026-12-10",
        &hr,
    )
    .assert_error(400, Some("end_date"));
    let within = c.get(
        "/api/time_offs?start_date=2026-12-07&end_date=2026-12-20",
        &hr,
    );
    assert!(within.len() > 0);
    assert!(
        within
            .body
            .as_array()
            .into_iter()
            .flatten()
            .all(|t| t["start_date"].as_str() >= Some("2026-12-07")
                && t["end_date"].as_str() <= Some("2026-12-20"))
    );
    for status in ["pending", "approved", "declined", "cancelled"] {
        let list = c.get(&format!("/api/time_offs?status={status}"), &hr);
        assert!(list.len() > 0, "{status}");
        assert!(
            list.body
                .as_array()
                .into_iter()
                .flatten()
                .all(|t| t["status"] == status)
        );
    }
    let mine = c.get("/api/time_offs?user=5", &hr);
    assert_eq!(mine.len(), 2);
    assert!(c.get("/api/time_offs?location=1&leave_type=1", &hr).status == 200);
}

#[test]
fn cancel_is_only_for_the_person_who_raised_it() {
    let c = Client::new();
    let t = c.sandbox.tokens().clone();
    let created = c.json(
        "POST",
        "/api/time_offs",
        &t.employee,
        &json!({"start_date": "2027-01-04",
        "end_date": "2027-01-08", "leave_type_id": 1, "comments": "Skiing", "notify_to": [4]}),
    );
    assert_eq!(created.status, 201, "{created:#?}");
    assert_eq!(created.body["status"], "pending");
    assert_eq!(created.body["user_id"], 5);
    assert_eq!(created.body["leave_units"], 5);
    let id = created.body["id"].as_i64().expect("id");
    let path = format!("/api/time_offs/{id}/cancel");
    c.json("PUT", &path, &t.hr_partner, &json!({}))
        .assert_error(403, None);
    c.json("PUT", &path, &t.account_admin, &json!({}))
        .assert_error(403, None);
    let cancelled = c.json(
        "PUT",
        &path,
        &t.employee,
        &json!({"status_comments": "Plans changed"}),
    );
    assert_eq!(cancelled.status, 200, "{cancelled:#?}");
    assert_eq!(cancelled.body["status"], "cancelled");
    assert_eq!(cancelled.body["cancelled_by_id"], 5);
    assert_eq!(
        cancelled.body["cancelled_by_id"],
        cancelled.body["applied_by_id"]
    );
    assert!(cancelled.body["cancelled_at"].is_string());
    assert_eq!(cancelled.body["status_comments"], "Plans changed");
    assert_eq!(cancelled.body["cancelled_by"], cancelled.body["user"]);
    assert_eq!(cancelled.body["leave_type"]["name"], "Paid time off");
    // An empty body without a type is `{}` too; cancelling twice is not a move.
    c.send("PUT", &path, Some(&t.employee), &[], None)
        .assert_error(400, Some("status"));
    c.json(
        "PUT",
        &format!("/api/time_offs/{id}/approve"),
        &t.hr_partner,
        &json!({}),
    )
    .assert_error(400, Some("status"));
}

#[test]
fn approve_is_for_approver_roles() {
    let c = Client::new();
    let t = c.sandbox.tokens().clone();
    for token in [
        &t.hr_partner,
        &t.admin,
        &t.reporting_manager,
        &t.account_admin,
    ] {
        let created = c.json(
            "POST",
            "/api/time_offs",
            &t.employee,
            &json!({"start_date": "2027-02-01",
            "end_date": "2027-02-01", "leave_type_id": 2, "comments": "Dentist"}),
        );
        let id = created.body["id"].as_i64().expect("id");
        let approved = c.json(
            "PUT",
            &format!("/api/time_offs/{id}/approve"),
            token,
            &json!({}),
        );
        assert_eq!(approved.status, 200, "{approved:#?}");
        assert_eq!(approved.body["status"], "approved");
        assert!(approved.body["approved_by"]["id"].is_number());
        assert_eq!(
            approved.body["approved_by_id"],
            approved.body["approved_by"]["id"]
        );
        // The person who raised it may still cancel an approved request.
        let cancelled = c.json(
            "PUT",
            &format!("/api/time_offs/{id}/cancel"),
            &t.employee,
            &json!({}),
        );
        assert_eq!(cancelled.body["status"], "cancelled");
    }
    c.json(
        "PUT",
        "/api/time_offs/99999/approve",
        &t.hr_partner,
        &json!({}),
    )
    .assert_error(404, None);
}

fn limited(plan: Plan, employees: usize) -> (Client, ManualClock) {
    let clock = ManualClock::at(1_800_000_000_000);
    let client = Client::start(Config {
        plan,
        employees,
        clock: Arc::new(clock.clone()),
        ..Config::default()
    });
    (client, clock)
}

/// Spends the minute's calls, checks the headers on the way and the 429 after, then checks
/// the next minute starts afresh.
fn check_limit(plan: Plan, employees: usize, expected: u64) {
    let (c, clock) = limited(plan, employees);
    let hr = c.hr();
    for used in 1..=expected {
        let answer = c.get("/api/levels", &hr);
        assert_eq!(answer.status, 200, "{plan:?} call {used}");
        assert_eq!(
            answer.header("x-ratelimit-total"),
            Some(expected.to_string().as_str())
        );
        assert_eq!(
            answer.header("x-ratelimit-remaining"),
            Some((expected - used).to_string().as_str())
        );
        assert_eq!(answer.header("x-ratelimit-used-currentrequest"), Some("1"));
    }
    let refused = c.get("/api/levels", &hr);
    refused.assert_error(429, None);
    assert_eq!(refused.header("x-ratelimit-remaining"), Some("0"));
    assert_eq!(refused.header("x-ratelimit-used-currentrequest"), Some("0"));
    assert!(refused.header("retry-after").is_some());
    clock.advance(60_000);
    assert_eq!(
        c.get("/api/levels", &hr).status,
        200,
        "{plan:?} next minute"
    );
}

#[test]
fn rate_limit_free_plan_has_no_calls() {
    let (c, _) = limited(Plan::Free, 60);
    let answer = c.get("/api/levels", &c.hr());
    answer.assert_error(429, None);
    assert_eq!(answer.header("x-ratelimit-total"), Some("0"));
}

#[test]
fn rate_limit_trial_plan_10_a_minute() {
    check_limit(Plan::Trial, 60, 10);
}

#[test]
fn rate_limit_growth_and_pro_max_of_50_and_employees() {
    // Subscribed employees are those not deleted: 52 of the 60 seeded.
    check_limit(Plan::Growth, 20, 50);
    check_limit(Plan::Pro, 60, 52);
}

#[test]
fn rate_limit_enterprise_max_of_100_and_twice_the_employees() {
    check_limit(Plan::Enterprise, 20, 100);
    // 62 of the 70 seeded are not deleted.
    check_limit(Plan::Enterprise, 70, 124);
}

#[test]
fn the_database_persists_across_restarts() {
    let dir = std::env::temp_dir().join(format!("iparams-sandbox-persist-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("hr.db");
    let config = || Config {
        db: Some(db.clone()),
        ..Config::default()
    };
    let first = Client::start(config());
    assert!(first.sandbox.seeded());
    let tokens = first.sandbox.tokens().clone();
    let created = first.json(
        "POST",
        "/api/employees",
        &tokens.hr_partner,
        &json!({"first_name": "Kept",
        "last_name": "Across", "official_email": "kept@acme-hr.test", "role_ids": [5]}),
    );
    let id = created.body["id"].as_i64().expect("id");
    drop(first);
    let second = Client::start(config());
    assert!(!second.sandbox.seeded());
    assert_eq!(second.sandbox.tokens(), &tokens);
    assert_eq!(
        second
            .get(&format!("/api/employees/{id}"), &tokens.hr_partner)
            .body["first_name"],
        "Kept"
    );
    drop(second);
    let _ = std::fs::remove_dir_all(&dir);
}
