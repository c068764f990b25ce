//! `hr-endpoint-method`: a template that reaches the HR service sends a documented path a
//! method it does not take.

use crate::app::{AppModel, Place};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::hr::{described, hr_app, hr_templates};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "hr-endpoint-method",
    severity: Severity::Error,
    area: Area::Hr,
    summary: "A template calling the HR service sends a documented path a method it does not take (405)",
    docs: r#"Each path of the HR service's endpoint table takes the methods it lists, and the
service answers any other with 405 Method Not Allowed. The table:
- `/api/employees`: GET lists employees, POST creates one (HR Partner, Admin or Account Admin);
- `/api/employees/{id}`: GET reads one (with `include`), PUT updates it; there is no DELETE;
- `/api/employees/{id}/send_invite`: PUT;
- `/api/employee_fields`: GET, POST;
- `/api/branches`, `/api/departments`, `/api/sub_departments`, `/api/business_units`,
  `/api/teams`, `/api/levels`, `/api/time_off_types`: GET;
- `/api/time_offs`: GET lists, POST creates; `/api/time_offs/{id}`: GET;
- `/api/time_offs/{id}/cancel` (the person who raised the request) and
  `/api/time_offs/{id}/approve` (HR Partner, Admin, Reporting Manager or Account Admin): PUT;
- `/api/time_off_types/{id}`: GET.

The help of each finding says what the path's methods do, what they answer and who may call
them."#,
    bad: hr_app!(
        "approveTimeOff",
        r#"{"schema": {"method": "POST", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/time_offs/<%= context.id %>/approve", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json", "Content-Type": "application/json"}}}"#
    ),
    good: hr_app!(
        "approveTimeOff",
        r#"{"schema": {"method": "PUT", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/time_offs/<%= context.id %>/approve", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json", "Content-Type": "application/json"}}}"#
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
        let operations = hr.operations;
        let Some(first) = operations.first() else {
            continue;
        };
        if operations
            .iter()
            .any(|operation| operation.method == method)
        {
            continue;
        }
        let Some(field) = hr.template.field(&Place::Method) else {
            continue;
        };
        let methods: Vec<&str> = operations
            .iter()
            .map(|operation| operation.method)
            .collect();
        let what: Vec<String> = operations.iter().map(described).collect();
        cx.report(
            hr.file,
            &RULE,
            field.span,
            format!(
                "Template `{}` sends {method} to `{}`, which takes {} only: the HR service answers 405 Method Not Allowed",
                hr.name,
                first.path,
                suggest::list(methods.iter().copied())
            ),
        )
        .label(format!("{method} not allowed here"))
        .help(format!("{}.", what.join(". ")))
        .pointer(field.pointer());
    }
}
