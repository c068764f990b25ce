//! `hr-path`: the path of a template that reaches the HR service is outside `/api`, or an id
//! segment of a documented path is not an id.

use crate::app::hr_service::{self, PATH_PREFIX};
use crate::app::requests::placeholders;
use crate::app::{AppModel, Place};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::hr::{hr_app, hr_templates};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "hr-path",
    severity: Severity::Error,
    area: Area::Hr,
    summary: "A template calling the HR service has a path outside `/api`, or a word where the path takes an id",
    docs: r#"Every path of the HR service starts with `/api` (`/api/employees`,
`/api/time_offs/{id}/approve`): anything else is not its API. Where the endpoint table has
`{id}`, the service takes the id the resource got when it was saved, a number: write it, or a
placeholder the invocation fills (`/api/employees/<%= context.id %>`). A word there
(`/api/employees/me`), or `{id}` itself, which the platform sends as written, reaches no
employee: the service answers 404."#,
    bad: hr_app!(
        "getEmployee",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/employees/{id}", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}}}"#
    ),
    good: hr_app!(
        "getEmployee",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/employees/<%= context.id %>", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}}}"#
    ),
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for hr in hr_templates(model) {
        let name = &hr.name;
        let Some(path) = hr.path() else {
            continue;
        };
        // A path that does not start with `/` is `request-path`'s.
        let Some(rest) = path.strip_prefix('/') else {
            continue;
        };
        let first = rest.split('/').next().unwrap_or("");
        if placeholders(first).next().is_none() && first != &PATH_PREFIX[1..] {
            let Some(field) = hr.template.field(&Place::Path) else {
                cx.report(hr.file, &RULE, hr.template.name_span, format!("Template `{name}` calls the HR service with no `path`, so at `/`"))
                    .label("no path")
                    .help(format!("Add `\"path\"` to its schema: every path of the HR service starts with `{PATH_PREFIX}`, such as \"/api/employees\"."))
                    .pointer(format!("{}/schema", hr.template.pointer()));
                continue;
            };
            let quoted = suggest::shortened(path);
            let help = match hr_service::paths().into_iter().find(|documented| {
                documented.ends_with(&format!("/{first}"))
                    || documented[1..].starts_with(&format!("api/{first}"))
            }) {
                Some(meant) => format!(
                    "Every path of the HR service starts with `{PATH_PREFIX}`: did you mean \"{meant}\"?"
                ),
                None => format!(
                    "Every path of the HR service starts with `{PATH_PREFIX}`, such as \"/api/employees\"."
                ),
            };
            cx.report(
                hr.file,
                &RULE,
                field.span,
                format!(
                    "`path` \"{quoted}\" of template `{name}` does not start with `{PATH_PREFIX}`"
                ),
            )
            .label("outside the API")
            .help(help)
            .pointer(field.pointer());
            continue;
        }
        // A documented path (its operations found once, with the HR calls) has nothing wrong:
        // its segments are not split again.
        if !hr.operations.is_empty() {
            continue;
        }
        let Some(segments) = hr.segments() else {
            continue;
        };
        let Some((documented, wrong)) = hr_service::paths_but_ids(&segments).into_iter().next()
        else {
            continue;
        };
        let Some(field) = hr.template.field(&Place::Path) else {
            continue;
        };
        for index in wrong {
            let crate::app::hr_service::Segment::Literal(segment) = segments[index] else {
                continue;
            };
            let quoted = suggest::shortened(segment);
            let unsubstituted =
                segment.starts_with('{') || segment.starts_with("${") || segment.starts_with(':');
            let why = if unsubstituted {
                format!("the platform sends \"{quoted}\" as written, not an id")
            } else {
                "the service takes a number there".to_owned()
            };
            cx.report(
                hr.file,
                &RULE,
                field.span,
                format!(
                    "Segment \"{quoted}\" of `path` \"{}\" of template `{name}` stands where `{documented}` takes an id: {why}",
                    suggest::shortened(path)
                ),
            )
            .label("not an id")
            .help("Write the id (a number), or a placeholder the invocation fills, such as `<%= context.id %>` with `context: {id}` in `invokeTemplate`; the service answers 404 otherwise.")
            .pointer(field.pointer());
        }
    }
}
