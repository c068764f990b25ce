//! `hr-accept`: a template that reaches the HR service sends an `Accept` header that does not
//! let the service answer JSON, or none.

use crate::app::AppModel;
use crate::app::hr_service::ACCEPTABLE;
use crate::app::requests::has_placeholder_mark;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::hr::{hr_app, hr_templates};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "hr-accept",
    severity: Severity::Error,
    area: Area::Hr,
    summary: "A template calling the HR service sends an `Accept` header without JSON (406), or none",
    docs: r#"Every answer of the HR service is JSON (an object, or an array of objects for a list).
Its document asks for `Accept: application/json` (or `*/*`, which accepts any type) on every
request that returns a body, and every documented operation does. An `Accept` that does not
allow `application/json` (`text/html`, `application/xml`) is answered with 406 Not
Acceptable: that is an error. A template with no `Accept` at all is reported as a warning: the
document asks for the header, and the platform does not add it."#,
    bad: hr_app!(
        "listEmployees",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/employees", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "text/html"}}}"#
    ),
    good: hr_app!(
        "listEmployees",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/employees", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}}}"#
    ),
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for hr in hr_templates(model) {
        // Every documented operation returns a body; an undocumented one is assumed to.
        if hr
            .operation()
            .is_some_and(|operation| !operation.returns_body)
        {
            continue;
        }
        let name = &hr.name;
        let Some(field) = hr.header("Accept") else {
            let (at, pointer) = hr.headers_at();
            let diagnostic = cx
                .report(
                    hr.file,
                    &RULE,
                    at,
                    format!("Template `{name}` sends no `Accept` header; the HR service's document asks for `Accept: application/json` where a body comes back"),
                )
                .label("no Accept")
                .help("Add `\"Accept\": \"application/json\"` to `headers`.")
                .pointer(pointer);
            // Missing, the header is a departure from the document, not a certain 406.
            diagnostic.severity = Severity::Warning;
            continue;
        };
        let Some(value) = field.as_str() else {
            continue;
        };
        if has_placeholder_mark(value) || value.trim().is_empty() {
            continue;
        }
        let acceptable = value.split(',').any(|range| {
            let media = range.split(';').next().unwrap_or("").trim();
            ACCEPTABLE.iter().any(|ok| media.eq_ignore_ascii_case(ok))
        });
        if acceptable {
            continue;
        }
        cx.report(
            hr.file,
            &RULE,
            field.span,
            format!(
                "Header `Accept` \"{}\" of template `{name}` does not accept JSON: the HR service answers 406 Not Acceptable",
                suggest::shortened(value)
            ),
        )
        .label("not JSON")
        .help(format!(
            "Write `\"Accept\": \"application/json\"`: the service answers JSON only ({} are accepted).",
            suggest::quoted_list(ACCEPTABLE)
        ))
        .pointer(field.pointer());
    }
}
