//! `hr-date-range`: `start_date` and `end_date` of a template listing HR time-offs are not
//! given together, or not in order.

use crate::app::AppModel;
use crate::app::hr_service::is_date;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::hr::{hr_app, hr_templates, literal};

pub static RULE: Rule = Rule {
    name: "hr-date-range",
    severity: Severity::Error,
    area: Area::Hr,
    summary: "A template listing HR time-offs gives `start_date` without `end_date` (or the reverse), or an `end_date` not later than `start_date`",
    docs: r#"Listing time-offs (`GET /api/time_offs`, HR Partner, Admin or Account Admin) filters
by period with two query parameters that go together: `start_date` is required when
`end_date` is used, `end_date` is required when `start_date` is used, and `end_date` must be
later than `start_date`. Both are dates `YYYY-MM-DD`. The answer is an array of time-off
objects, 50 a page. The order is checked where both dates are written in the template."#,
    bad: hr_app!(
        "listTimeOffs",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/time_offs", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}, "query": {"start_date": "<%= context.from %>"}}}"#
    ),
    good: hr_app!(
        "listTimeOffs",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/time_offs", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}, "query": {"start_date": "<%= context.from %>", "end_date": "<%= context.to %>"}}}"#
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
        let takes = |name: &str| operation.query.iter().any(|filter| filter.name == name);
        if !(takes("start_date") && takes("end_date")) {
            continue;
        }
        let last = |wanted: &str| {
            hr.template
                .query()
                .filter(|(name, _)| *name == wanted)
                .map(|(_, field)| field)
                .last()
        };
        let (start, end) = (last("start_date"), last("end_date"));
        match (start, end) {
            (Some(given), None) | (None, Some(given)) => {
                let (present, missing) = if start.is_some() {
                    ("start_date", "end_date")
                } else {
                    ("end_date", "start_date")
                };
                cx.report(
                    hr.file,
                    &RULE,
                    given.key_span,
                    format!(
                        "Template `{}` gives `{present}` without `{missing}`: listing time-offs takes both or neither",
                        hr.name
                    ),
                )
                .label(format!("no `{missing}`"))
                .help(format!(
                    "Add `\"{missing}\"` to the query (a date `YYYY-MM-DD`), or remove `{present}`: the document requires each when the other is used."
                ))
                .pointer(given.pointer());
            }
            (Some(start), Some(end)) => {
                let (Some(from), Some(to)) = (literal(start), literal(end)) else {
                    continue;
                };
                // Dates `YYYY-MM-DD` compare as text; other values are `hr-filter-value`'s.
                if !(is_date(from) && is_date(to)) || to > from {
                    continue;
                }
                cx.report(
                    hr.file,
                    &RULE,
                    end.span,
                    format!(
                        "`end_date` \"{to}\" of template `{}` is not later than `start_date` \"{from}\"",
                        hr.name
                    ),
                )
                .label("not after the start")
                .related(start.span, "the start")
                .help("`end_date` must be later than `start_date`: swap them, or correct the one that is wrong.")
                .pointer(end.pointer());
            }
            (None, None) => {}
        }
    }
}
