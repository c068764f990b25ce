//! `hr-unknown-filter`: a template that reaches the HR service sends a query parameter the
//! operation does not take.

use crate::app::AppModel;
use crate::app::hr_service::{OPERATIONS, PAGE_SIZE};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::hr::{filter_names, hr_app, hr_templates, query_params};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "hr-unknown-filter",
    severity: Severity::Warning,
    area: Area::Hr,
    summary: "A template calling the HR service sends a query parameter its operation does not take",
    docs: r#"Each operation of the HR service takes the query parameters its document lists, and
ignores the others, so a misspelt filter silently selects everything:
- listing employees (`GET /api/employees`): `status`, `first_name`, `last_name`,
  `personal_email`, `official_email`, `employee_type`, `department`, `business_unit`,
  `location`, `reporting_manager`, `updated_since`, `sort`, `sort_type`, `draft`,
  `terminated`, `deleted` and `page`;
- reading an employee (`GET /api/employees/{id}`): `include`;
- listing time-offs (`GET /api/time_offs`): `status`, `user`, `leave_type`, `location`,
  `start_date`, `end_date`, and the pagination parameters;
- every other list: the pagination parameters `page`, `sort` and `sort_type`; the other
  operations take none.

Lists answer 50 objects a page; the document shows no page-size parameter (`per_page`,
`limit`): follow `page` and the `total-pages` and `link` headers instead.

The parameters an invocation passes in a run-time `query` object
(`client.request.invokeTemplate("listEmployees", {query: {status: "active"}})`), which the
platform adds to the template's, are checked the same way."#,
    bad: hr_app!(
        "listEmployees",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/employees", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}, "query": {"per_page": "100", "state": "active"}}}"#
    ),
    good: hr_app!(
        "listEmployees",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/employees", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}, "query": {"page": "<%= context.page %>", "status": "active"}}}"#
    ),
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

/// Names apps give a page size, which the service does not take.
const PAGE_SIZES: [&str; 5] = ["per_page", "limit", "page_size", "pageSize", "size"];

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for hr in hr_templates(model) {
        let Some(operation) = hr.operation() else {
            continue;
        };
        for param in query_params(model, &hr) {
            let name = param.name;
            if operation.query.iter().any(|filter| filter.name == name) {
                continue;
            }
            let quoted = suggest::shortened(name);
            let elsewhere = OPERATIONS.iter().find(|other| {
                !std::ptr::eq(*other, operation)
                    && other.query.iter().any(|filter| filter.name == name)
            });
            let help = if PAGE_SIZES.contains(&name) {
                format!(
                    "The HR service has no page-size parameter: lists answer {PAGE_SIZE} objects a page; ask for the next with `page` (the `link` header holds the next page's URL)."
                )
            } else if let Some(meant) =
                suggest::closest(name, operation.query.iter().map(|filter| filter.name))
            {
                format!(
                    "Did you mean `{meant}`? `{} {}` takes {}.",
                    operation.method,
                    operation.path,
                    filter_names(operation)
                )
            } else if let Some(other) = elsewhere {
                format!(
                    "`{name}` is a parameter of `{} {}` ({}). `{} {}` takes {}.",
                    other.method,
                    other.path,
                    other.does,
                    operation.method,
                    operation.path,
                    filter_names(operation)
                )
            } else {
                format!(
                    "`{} {}` takes {}; the service ignores other parameters.",
                    operation.method,
                    operation.path,
                    filter_names(operation)
                )
            };
            cx.report(
                param.file,
                &RULE,
                param.key_span,
                format!(
                    "Query parameter `{quoted}` {} is not one that `{} {}` takes: the service ignores it",
                    param.whose(), operation.method, operation.path
                ),
            )
            .label("unknown parameter")
            .help(help)
            .pointer(param.pointer());
        }
    }
}
