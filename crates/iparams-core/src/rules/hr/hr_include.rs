//! `hr-include`: `include` of a template that reads an employee names an attribute the
//! service does not embed.

use crate::app::AppModel;
use crate::app::hr_service::{EMBEDDED, Format};
use crate::app::requests::has_placeholder_mark;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::hr::{hr_app, hr_templates};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "hr-include",
    severity: Severity::Error,
    area: Area::Hr,
    summary: "`include` of a template reading an HR employee names an attribute that is not one of the embedded ones",
    docs: r#"Reading one employee (`GET /api/employees/{id}`, HR Partner, Admin or Account Admin)
answers the employee object; the embedded attributes are left out unless `include` names
them, separated by commas: `awards`, `honors`, `certificates`, `licenses`,
`background_verification_details`, `visas`, `government_documents`, `dependents`,
`bank_accounts`, `prev_employments`, `qualifications`, `compensation_details`, `bonuses`,
`stocks`, `additional_teams`, `additional_managers`, `additional_hr_managers`, `languages`,
`roles`, `branch`, `team`, `business_unit`, `sub_department`, `department`, `level`,
`reporting_to`, `hr_incharge`, `shift`, `user_function`, `cost_center`, `user_title`,
`user_suffix_name`, `user_honorary_suffix`, `user_professional_suffix`,
`user_academic_suffix`, `retirement_status`, `citizenship_status`, `termination_category`,
`time_off` and `user_documents`. Any other name is not an attribute of the employee."#,
    bad: hr_app!(
        "getEmployee",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/employees/<%= context.id %>", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}, "query": {"include": "branch,manager"}}}"#
    ),
    good: hr_app!(
        "getEmployee",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/employees/<%= context.id %>", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}, "query": {"include": "branch,reporting_to"}}}"#
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
        if !operation
            .query
            .iter()
            .any(|filter| filter.format == Format::Include)
        {
            continue;
        }
        for (name, field) in hr.template.query() {
            if name != "include" {
                continue;
            }
            let Some(value) = field.as_str() else {
                continue;
            };
            for item in value.split(',').map(str::trim) {
                // A placeholder's names are known at run time only.
                if item.is_empty()
                    || has_placeholder_mark(item)
                    || item.contains("%>")
                    || EMBEDDED.contains(&item)
                {
                    continue;
                }
                let quoted = suggest::shortened(item);
                let help = match suggest::closest(item, EMBEDDED) {
                    Some(meant) => format!(
                        "Did you mean `{meant}`? `include` takes the embedded attributes of an employee, separated by commas."
                    ),
                    None => format!(
                        "`include` takes the embedded attributes of an employee, separated by commas: {}.",
                        suggest::list(EMBEDDED)
                    ),
                };
                cx.report(
                    hr.file,
                    &RULE,
                    field.span,
                    format!(
                        "`include` of template `{}` names \"{quoted}\", which is not an embedded attribute of an employee",
                        hr.name
                    ),
                )
                .label("not an embedded attribute")
                .help(help)
                .pointer(field.pointer());
            }
        }
    }
}
