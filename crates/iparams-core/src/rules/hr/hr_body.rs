//! `hr-body`: a body written at the invocation of a template that creates or changes a record of
//! the HR service, checked against what the service requires.

use crate::app::hr_service::{self, BodyType};
use crate::app::{AppModel, Literal};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::helpers::invocations;
use crate::rules::hr::hr_templates;
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "hr-body",
    severity: Severity::Error,
    area: Area::Hr,
    summary: "The body given to an HR service template lacks a required attribute, or has a value of the wrong type, outside its allowed values or too long",
    docs: r#"A template's body is given where it is invoked: `invokeTemplate("createTimeOff",
{body: JSON.stringify({...})})`. When the template creates or changes a record of the HR service
and the body is an object literal, its attributes are checked against the service's document:
the required ones of a create (employee: `first_name`, `last_name`, `official_email`, `role_ids`;
time-off: `start_date`, `end_date`, `leave_type_id`, `comments`; employee field: `label`,
`section_name`), the type of each (dates as `YYYY-MM-DD`), enumerations such as `gender` or
`field_type`, and length bounds such as `designation` (at most 128 characters). The service answers
each of these with 400 and `errors[].field`. Values computed at run time are not checked, and a
body that spreads another object is not checked for missing attributes."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"requestTimeOff": {}}}}}
=== config/iparams.json ===
{"hr_domain": {"display_name": "HR domain", "type": "domain", "type_attributes": {"product": "freshteam"}, "required": true},
 "hr_api_key": {"display_name": "HR API key", "type": "api_key", "type_attributes": {"product": "freshteam"}, "secure": true, "required": true}}
=== config/requests.json ===
{"requestTimeOff": {"schema": {"method": "POST", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/time_offs", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json", "Content-Type": "application/json"}}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("requestTimeOff", {body: JSON.stringify({start_date: "2026-03-02", end_date: "02/03/2026", leave_type_id: 2})});
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"requestTimeOff": {}}}}}
=== config/iparams.json ===
{"hr_domain": {"display_name": "HR domain", "type": "domain", "type_attributes": {"product": "freshteam"}, "required": true},
 "hr_api_key": {"display_name": "HR API key", "type": "api_key", "type_attributes": {"product": "freshteam"}, "secure": true, "required": true}}
=== config/requests.json ===
{"requestTimeOff": {"schema": {"method": "POST", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/time_offs", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json", "Content-Type": "application/json"}}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("requestTimeOff", {body: JSON.stringify({start_date: "2026-03-02", end_date: "2026-03-03", leave_type_id: 2, comments: "Dentist"})});
"#,
    examples: Examples::App,
    vendor: "Not checked; the service answers 400.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let templates: Vec<_> = hr_templates(model).collect();
    for (file, _, invocation) in invocations(model) {
        let (Some(named), Some(body)) = (&invocation.template, &invocation.body) else {
            continue;
        };
        let Some(template) = templates
            .iter()
            .rev()
            .find(|t| t.template.name == named.name)
        else {
            continue;
        };
        let Some(operation) = template.operation() else {
            continue;
        };
        let Some(expected) = operation.body else {
            continue;
        };
        let name = &template.name;
        let call = format!(
            "`{} {}` ({})",
            operation.method, operation.path, operation.does
        );
        if body.complete && expected.enforce_required {
            let missing: Vec<&str> = expected
                .fields
                .iter()
                .filter(|field| field.required)
                .filter(|field| !body.fields.iter().any(|given| given.name == field.name))
                .map(|field| field.name)
                .collect();
            if !missing.is_empty() {
                cx.report(
                    file,
                    &RULE,
                    body.span,
                    format!(
                        "The body sent with template `{name}` lacks {}, which {call} requires",
                        suggest::list(missing.iter().copied())
                    ),
                )
                .label("missing required attributes")
                .help(format!(
                    "Add {}: the HR service answers 400 with `errors[].field` naming each.",
                    suggest::list(missing.iter().copied())
                ));
            }
        }
        for given in &body.fields {
            let Some(field) = expected.fields.iter().find(|f| f.name == given.name) else {
                continue;
            };
            let text = given.text.as_deref();
            let quoted = text
                .map(|t| format!(" \"{}\"", suggest::shortened(t)))
                .unwrap_or_default();
            let problem = match (field.ty, given.value) {
                (_, Literal::Computed | Literal::Null) => None,
                (BodyType::String, Literal::String)
                | (BodyType::Integer, Literal::Number)
                | (BodyType::Boolean, Literal::Boolean)
                | (BodyType::Object, Literal::Object)
                | (BodyType::Array, Literal::Array | Literal::StringArray) => None,
                (BodyType::Date, Literal::String) => (!text.is_some_and(hr_service::is_date))
                    .then(|| "is not a date `YYYY-MM-DD`".to_owned()),
                (ty, found) => Some(format!(
                    "is {}, where the service takes {}",
                    found.described(),
                    described(ty)
                )),
            }
            .or_else(|| {
                let text = text?;
                if !field.values.is_empty() && !field.values.contains(&text) {
                    return Some(format!(
                        "is not one of {}",
                        suggest::quoted_list(field.values.iter().copied())
                    ));
                }
                let (low, high) = field.length?;
                let length = text.chars().count();
                let allowed = if low == 0 {
                    format!("at most {high}")
                } else {
                    format!("{low} to {high}")
                };
                (length < low || length > high)
                    .then(|| format!("has {length} characters, where {allowed} are allowed"))
            });
            let Some(problem) = problem else { continue };
            cx.report(
                file,
                &RULE,
                given.value_span,
                format!(
                    "`{}`{quoted} in the body of template `{name}` {problem}",
                    given.name
                ),
            )
            .label("rejected by the HR service")
            .help(format!(
                "{call} answers 400 at `{}` for this value.",
                given.name
            ));
        }
    }
}

fn described(ty: BodyType) -> &'static str {
    match ty {
        BodyType::String => "a string",
        BodyType::Integer => "an integer",
        BodyType::Boolean => "a boolean",
        BodyType::Date => "a date string `YYYY-MM-DD`",
        BodyType::Object => "an object",
        BodyType::Array => "an array",
    }
}
