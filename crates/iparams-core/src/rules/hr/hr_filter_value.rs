//! `hr-filter-value`: a query parameter of a template that reaches the HR service has a
//! literal value the service does not take.

use crate::app::AppModel;
use crate::app::hr_service::{Format, date_time_zone_problem};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::hr::{hr_app, hr_templates, query_params};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "hr-filter-value",
    severity: Severity::Error,
    area: Area::Hr,
    summary: "A query parameter of a template calling the HR service has a value outside the ones it takes, or in the wrong format",
    docs: r#"Where the HR service's document lists the values of a query parameter, only those are
allowed:
- employees: `status` `active` or `inactive`; `sort` `first_name`, `last_name` or
  `employee_id`; `sort_type` `asc` or `desc`; `draft`, `terminated` and `deleted` `true` or
  `false`; `department`, `business_unit` and `reporting_manager` integer ids; `location`
  branch ids separated by commas; `updated_since` a date-time in UTC
  (`2026-01-31T09:30:00Z`);
- time-offs: `status` `pending`, `approved`, `declined` or `cancelled`; `user`,
  `leave_type` and `location` integer ids; `start_date` and `end_date` dates `YYYY-MM-DD`;
- every list: `page` a number from 1, `sort_type` `asc` or `desc`.

Values are compared as written (`Active` is not `active`). Only values written out are
checked: in the template, and the string literals of a run-time `query` object an invocation
passes (`{query: {status: "active"}}`); a placeholder's or a variable's value is known at run
time only."#,
    bad: hr_app!(
        "listEmployees",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/employees", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}, "query": {"status": "Active", "updated_since": "2026-01-31"}}}"#
    ),
    good: hr_app!(
        "listEmployees",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/employees", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}, "query": {"status": "active", "updated_since": "2026-01-31T00:00:00Z"}}}"#
    ),
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for hr in hr_templates(model) {
        let Some(operation) = hr.operation() else {
            continue;
        };
        for param in query_params(model, &hr) {
            let name = param.name;
            let Some(filter) = operation.query.iter().find(|filter| filter.name == name) else {
                continue;
            };
            // `include` is `hr-include`'s.
            if matches!(filter.format, Format::Text | Format::Include) {
                continue;
            }
            let Some(value) = param.value else {
                continue;
            };
            if filter.format.accepts(value) {
                continue;
            }
            let quoted = suggest::shortened(value);
            let (problem, help) = match filter.format {
                Format::OneOf(allowed) => {
                    let listed = suggest::quoted_list(allowed.iter().copied());
                    let help = match suggest::closest(value, allowed.iter().copied()) {
                        Some(meant) => {
                            format!("Did you mean \"{meant}\"? `{name}` takes {listed}.")
                        }
                        None => format!("`{name}` takes {listed}."),
                    };
                    ("is not one of the values it takes".to_owned(), help)
                }
                Format::DateTimeUtc => {
                    let problem =
                        date_time_zone_problem(value).unwrap_or("is not a date-time in UTC");
                    (
                        problem.to_owned(),
                        format!("Write {}.", filter.format.described()),
                    )
                }
                _ => (
                    format!("is not {}", filter.format.described()),
                    format!(
                        "`{name}` {}: write {}.",
                        filter.meaning,
                        filter.format.described()
                    ),
                ),
            };
            cx.report(
                param.file,
                &RULE,
                param.value_span,
                format!(
                    "Query parameter `{name}` \"{quoted}\" {} {problem}",
                    param.whose()
                ),
            )
            .label("not a value the service takes")
            .help(help)
            .pointer(param.pointer());
        }
    }
}
