//! `hr-unknown-endpoint`: a template that reaches the HR service calls a path the endpoint
//! table does not have.

use crate::app::hr_service::{self, Segment};
use crate::app::{AppModel, Place};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::hr::{hr_app, hr_templates};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "hr-unknown-endpoint",
    severity: Severity::Warning,
    area: Area::Hr,
    summary: "A template calling the HR service uses a path that is not in the service's endpoint table",
    docs: r#"The HR service's document lists its endpoints under `/api`: employees (list, create,
read, update, send the portal invitation), employee fields (list, create), branches,
departments, sub-departments, business units, teams and levels (list), time-offs (list,
create, read, cancel, approve) and time-off types (list, read). A path outside this table is
most often a typo (`/api/employee`, `/api/timeoffs`, a trailing `/`), which the service
answers with 404. The document also says some endpoints are not shown (roles, for one): if the
path is one of those, turn the rule off for this template's pointer in `.iparams-lint.toml`.

Rate limits are per account and minute, whatever the path: Trial 10 calls, Growth and Pro
MAX(50, subscribed employees), Enterprise MAX(100, 2 × subscribed employees), Free none; the
service answers 429 beyond."#,
    bad: hr_app!(
        "listTimeOffs",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/timeoffs", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}}}"#
    ),
    good: hr_app!(
        "listTimeOffs",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/time_offs", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}}}"#
    ),
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for hr in hr_templates(model) {
        // Documented: nothing to report, and no need to split the path again.
        if !hr.operations.is_empty() {
            continue;
        }
        let Some(segments) = hr.segments() else {
            continue;
        };
        // Outside `/api` is `hr-path`'s; a placeholder where the table has a name may be any
        // documented path.
        if segments.first() != Some(&Segment::Literal("api"))
            || !hr_service::paths_but_ids(&segments).is_empty()
            || hr_service::may_be_documented(&segments)
        {
            continue;
        }
        let Some(field) = hr.template.field(&Place::Path) else {
            continue;
        };
        let Some(path) = hr.path() else {
            continue;
        };
        // The path as the table writes it: ids and placeholders as `{id}`.
        let shape: Vec<&str> = segments
            .iter()
            .map(|segment| match segment {
                Segment::Literal(text) if !hr_service::is_id(text) => text,
                _ => hr_service::ID_SEGMENT,
            })
            .collect();
        let shape = format!("/{}", shape.join("/"));
        let paths = hr_service::paths();
        let trimmed = shape.trim_end_matches('/');
        let help = if trimmed != shape && paths.contains(&trimmed) {
            format!("Remove the trailing `/`: the documented path is \"{trimmed}\".")
        } else if let Some(meant) = suggest::closest(&shape, paths.iter().copied()) {
            format!(
                "Did you mean \"{meant}\"? If the path is one of the endpoints the document does not show, turn this rule off for the template."
            )
        } else {
            format!(
                "The documented paths are {}. If the path is one of the endpoints the document does not show, turn this rule off for the template.",
                suggest::quoted_list(paths.iter().copied())
            )
        };
        cx.report(
            hr.file,
            &RULE,
            field.span,
            format!(
                "`path` \"{}\" of template `{}` is not in the HR service's endpoint table",
                suggest::shortened(path),
                hr.name
            ),
        )
        .label("undocumented path")
        .help(help)
        .pointer(field.pointer());
    }
}
