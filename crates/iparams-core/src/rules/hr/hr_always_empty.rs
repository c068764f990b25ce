//! `hr-always-empty`: the filters of a template listing HR employees are one of the
//! combinations that always answer an empty list.

use crate::app::AppModel;
use crate::app::hr_service::{self, ALWAYS_EMPTY};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::hr::{hr_app, hr_templates, literal};

pub static RULE: Rule = Rule {
    name: "hr-always-empty",
    severity: Severity::Warning,
    area: Area::Hr,
    summary: "A template listing HR employees combines filters that always answer an empty list",
    docs: r#"The HR service's document gives four combinations of employee-list filters whose
result is always empty (200 with `[]`, not an error):
1. `status=inactive` and `draft=true`;
2. `status=active` and `terminated=true`;
3. `status=inactive` and `deleted=false`;
4. `draft`, `terminated` and `deleted` all `true`.

A template with one of them can never return anyone, whatever the account holds; the call
still counts against the rate limit (Trial 10 a minute, Growth and Pro MAX(50, subscribed
employees), Enterprise MAX(100, 2 × subscribed employees)). Only values written in the
template are checked."#,
    bad: hr_app!(
        "listLeavers",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/employees", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}, "query": {"status": "active", "terminated": "true"}}}"#
    ),
    good: hr_app!(
        "listLeavers",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/employees", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}, "query": {"terminated": "true"}}}"#
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
        if operation.method != "GET" || operation.path != "/api/employees" {
            continue;
        }
        // The value each filter has, as the last one written.
        let value_of = |wanted: &str| {
            hr.template
                .query()
                .filter(|(name, _)| *name == wanted)
                .map(|(_, field)| field)
                .last()
        };
        for combination in ALWAYS_EMPTY {
            let fields: Option<Vec<_>> = combination
                .iter()
                .map(|(name, value)| value_of(name).filter(|field| literal(field) == Some(*value)))
                .collect();
            let Some(fields) = fields else {
                continue;
            };
            let Some(last) = fields.iter().max_by_key(|field| field.span.start) else {
                continue;
            };
            let written: Vec<String> = combination
                .iter()
                .map(|(name, value)| format!("`{name}={value}`"))
                .collect();
            let written = written.join(" and ");
            let diagnostic = cx
                .report(
                    hr.file,
                    &RULE,
                    last.span,
                    format!(
                        "Filters {written} of template `{}` never select anyone: the HR service answers an empty list",
                        hr.name
                    ),
                )
                .label("contradicts the other filters")
                .help(format!(
                    "The document: \"When {written}, the result is empty.\" Remove or change one of them (inactive and terminated employees' records are archived; a draft is a current employee). The call still counts against the rate limit: {}.",
                    hr_service::rate_limits()
                ))
                .pointer(last.pointer());
            for field in fields.iter().filter(|field| field.span != last.span) {
                diagnostic.related(field.span, "with this");
            }
        }
    }
}
