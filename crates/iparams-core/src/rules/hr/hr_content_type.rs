//! `hr-content-type`: a template that sends a body to the HR service does not declare it
//! `Content-Type: application/json`.

use crate::app::AppModel;
use crate::app::hr_service::BODY_TYPE;
use crate::app::requests::has_placeholder_mark;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::hr::{hr_app, hr_templates};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "hr-content-type",
    severity: Severity::Error,
    area: Area::Hr,
    summary: "A POST or PUT template calling the HR service does not send `Content-Type: application/json` (415)",
    docs: r#"The HR service takes request bodies in JSON only: creating an employee, an employee
field or a time-off (POST), updating an employee, sending the portal invitation, cancelling or
approving a time-off (PUT; the document's samples send `{}` to cancel and approve). Its document
asks for `Content-Type: application/json` on every request that sends a body, and the service
answers 415 Unsupported Media Type to any other type, and to a body sent without one. The body
itself is given at the invocation (`body: JSON.stringify({...})`); the template declares its
type. A `charset` other than UTF-8 is refused too."#,
    bad: hr_app!(
        "createTimeOff",
        r#"{"schema": {"method": "POST", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/time_offs", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}}}"#
    ),
    good: hr_app!(
        "createTimeOff",
        r#"{"schema": {"method": "POST", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/time_offs", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json", "Content-Type": "application/json"}}}"#
    ),
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for hr in hr_templates(model) {
        let Some(method) = hr.method() else {
            continue;
        };
        if !matches!(method, "POST" | "PUT") {
            continue;
        }
        let name = &hr.name;
        let Some(field) = hr.header("Content-Type") else {
            let (at, pointer) = hr.headers_at();
            cx.report(
                hr.file,
                &RULE,
                at,
                format!("Template `{name}` sends a {method} body without `Content-Type: {BODY_TYPE}`: the HR service answers 415 Unsupported Media Type"),
            )
            .label("no Content-Type")
            .help(format!("Add `\"Content-Type\": \"{BODY_TYPE}\"` to `headers`, and give the body as `JSON.stringify(...)` when invoking the template."))
            .pointer(pointer);
            continue;
        };
        let Some(value) = field.as_str() else {
            continue;
        };
        if has_placeholder_mark(value) {
            continue;
        }
        let mut parts = value.split(';');
        let media = parts.next().unwrap_or("").trim();
        let charset = parts
            .filter_map(|parameter| parameter.split_once('='))
            .find(|(name, _)| name.trim().eq_ignore_ascii_case("charset"))
            .map(|(_, value)| value.trim().trim_matches('"'));
        let problem = if !media.eq_ignore_ascii_case(BODY_TYPE) {
            "is not JSON"
        } else if charset.is_some_and(|charset| !charset.eq_ignore_ascii_case("utf-8")) {
            "names a charset other than UTF-8"
        } else {
            continue;
        };
        cx.report(
            hr.file,
            &RULE,
            field.span,
            format!(
                "Header `Content-Type` \"{}\" of template `{name}` {problem}: the HR service answers 415 Unsupported Media Type",
                suggest::shortened(value)
            ),
        )
        .label("not application/json")
        .help(format!("Write `\"Content-Type\": \"{BODY_TYPE}\"` and send the body as `JSON.stringify(...)`."))
        .pointer(field.pointer());
    }
}
