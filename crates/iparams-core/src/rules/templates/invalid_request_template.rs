//! `invalid-request-template`: config/requests.json is not shaped as the platform reads it.

use crate::app::{AppModel, Place};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::templates::request_templates;
use crate::suggest;
use crate::syntax::JsonKind;

pub static RULE: Rule = Rule {
    name: "invalid-request-template",
    severity: Severity::Error,
    area: Area::Templates,
    summary: "A request template of config/requests.json is not `{\"schema\": {...}, \"options\": {...}}`",
    docs: r#"config/requests.json maps each template name (letters, digits, `_` and `-`; at most
100 templates) to an object with a `schema` (required: `method`, `host`, and optionally
`protocol`, `path`, `headers`, `query`) and `options`. `headers` is an object of strings and
`query` an object of strings or numbers. The body is never part of a template: it is given when
the template is invoked, so a `body` (or any other member) in the template is never sent."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getUser": {}}}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{
  "getUser": {
    "schema": {
      "method": "GET",
      "host": "api.example.com",
      "headers": {"X-Retries": 3},
      "body": "{}"
    }
  }
}
=== app/scripts/app.js ===
client.request.invokeTemplate("getUser", {});
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getUser": {}}}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{
  "getUser": {
    "schema": {
      "method": "GET",
      "host": "api.example.com",
      "headers": {"X-Retries": "3"}
    }
  }
}
=== app/scripts/app.js ===
client.request.invokeTemplate("getUser", {});
"#,
    examples: Examples::App,
    vendor: "`fdk validate` checks the file against a schema (`Request template 'X' schema/query must be object`).",
    fix: None,
    checks: &[Check::App(check)],
};

/// At most this many templates.
const MAX_TEMPLATES: usize = 100;

/// The members a `schema` may have.
const SCHEMA_FIELDS: [&str; 6] = ["method", "protocol", "host", "path", "headers", "query"];

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (index, (file, template)) in request_templates(model).enumerate() {
        let name = suggest::shortened(&template.name);
        if template.name.is_empty()
            || !template
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            cx.report(file, &RULE, template.name_span, format!("Template name \"{name}\" may hold only letters, digits, `_` and `-`"))
                .label("not a template name")
                .help("Rename it (and its invocations and the manifest's declaration), for example in camelCase: `getContact`.")
                .pointer(template.pointer());
        }
        if index == MAX_TEMPLATES {
            cx.report(file, &RULE, template.name_span, format!("config/requests.json holds more than {MAX_TEMPLATES} templates"))
                .label("one too many")
                .help(format!("The platform takes at most {MAX_TEMPLATES} templates; pass what varies (ids, filters) through `context` and reuse one template."))
                .pointer(template.pointer());
        }
        if template.kind != JsonKind::Object {
            cx.report(file, &RULE, template.span, format!("Template `{name}` is {}, not an object", template.kind.described()))
                .label("not an object")
                .help("A template is `{\"schema\": {\"method\": ..., \"host\": ..., ...}, \"options\": {...}}`.")
                .pointer(template.pointer());
            continue;
        }
        match template.schema {
            None => {
                cx.report(file, &RULE, template.name_span, format!("Template `{name}` has no `schema`"))
                    .label("no schema")
                    .help("Add `\"schema\": {\"method\": \"GET\", \"host\": \"api.example.com\", \"path\": \"/...\"}`: without it there is nothing to call.")
                    .pointer(template.pointer());
            }
            Some((span, kind)) if kind != JsonKind::Object => {
                cx.report(file, &RULE, span, format!("`schema` of template `{name}` is {}, not an object", kind.described()))
                    .label("not an object")
                    .help("`schema` is an object with `method`, `host` and optionally `protocol`, `path`, `headers` and `query`.")
                    .pointer(format!("{}/schema", template.pointer()));
            }
            Some(_) => {}
        }
        if let Some((span, kind)) = template.options
            && kind != JsonKind::Object
        {
            cx.report(file, &RULE, span, format!("`options` of template `{name}` is {}, not an object", kind.described()))
                .label("not an object")
                .help("`options` is an object such as `{\"maxAttempts\": 3, \"retryDelay\": 1000}`; remove it when there are none.")
                .pointer(format!("{}/options", template.pointer()));
        }
        for (other, span) in &template.others {
            let help = match other.as_ref() {
                "body" => "The body is never part of a template: give it when invoking, `invokeTemplate(\"name\", {body: JSON.stringify(...)})`.".to_owned(),
                _ => match suggest::closest(other, ["schema", "options"]) {
                    Some(meant) => format!("Did you mean `{meant}`? A template has only `schema` and `options`."),
                    None => "A template has only `schema` and `options`; move it into one of them or remove it.".to_owned(),
                },
            };
            let mut pointer = template.pointer();
            crate::pointer::push(&mut pointer, other);
            cx.report(
                file,
                &RULE,
                *span,
                format!(
                    "`{}` is not part of a request template; the platform ignores it",
                    suggest::shortened(other)
                ),
            )
            .label("not read")
            .help(help)
            .pointer(pointer);
        }
        for field in &template.fields {
            match &field.place {
                Place::OtherSchema(member) if member == "headers" || member == "query" => {
                    if field.kind == JsonKind::Object {
                        continue;
                    }
                    cx.report(file, &RULE, field.span, format!("`schema.{member}` of template `{name}` is {}, not an object", field.kind.described()))
                            .label("not an object")
                            .help(format!("`{member}` maps each name to a string: `{{\"Accept\": \"application/json\"}}`. The validator says \"Request template '{name}' schema/{member} must be object\"."))
                            .pointer(field.pointer());
                }
                Place::OtherSchema(member) => {
                    let help = match member.as_ref() {
                        "body" | "data" | "json" => "The body is never part of a template: give it when invoking, `invokeTemplate(\"name\", {body: JSON.stringify(...)})`.".to_owned(),
                        "url" => "A template has no URL: split it into `protocol`, `host` (a domain name) and `path`.".to_owned(),
                        _ => match suggest::closest(member, SCHEMA_FIELDS) {
                            Some(meant) => format!("Did you mean `{meant}`? A schema has {}.", suggest::list(SCHEMA_FIELDS)),
                            None => format!("A schema has {}.", suggest::list(SCHEMA_FIELDS)),
                        },
                    };
                    cx.report(
                        file,
                        &RULE,
                        field.key_span,
                        format!(
                            "`{}` is not a member of a template's schema; the platform ignores it",
                            suggest::shortened(member)
                        ),
                    )
                    .label("not read")
                    .help(help)
                    .pointer(field.pointer());
                }
                Place::Header(header) if field.kind != JsonKind::String => {
                    cx.report(
                        file,
                        &RULE,
                        field.span,
                        format!(
                            "Header `{}` of template `{name}` is {}, not a string",
                            suggest::shortened(header),
                            field.kind.described()
                        ),
                    )
                    .label("not a string")
                    .help("Header values are strings: write it in double quotes.")
                    .pointer(field.pointer());
                }
                Place::Query(parameter)
                    if !matches!(field.kind, JsonKind::String | JsonKind::Number) =>
                {
                    cx.report(file, &RULE, field.span, format!("Query parameter `{}` of template `{name}` is {}, not a string", suggest::shortened(parameter), field.kind.described()))
                        .label("not a string")
                        .help("Query values are strings (or numbers); for several values write them comma-separated in one string.")
                        .pointer(field.pointer());
                }
                _ => {}
            }
        }
    }
}
