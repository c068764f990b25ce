//! `request-protocol`: a request template's `protocol` is `http`, or not a protocol.

use crate::app::{AppModel, Place};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::templates::{request_app, request_templates};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "request-protocol",
    severity: Severity::Error,
    area: Area::Templates,
    summary: "A request template's `protocol` is `http` (the app cannot be packed) or not a protocol",
    docs: r#"`schema.protocol` is `https` (the default) or `http`, and takes no placeholder. `http`
works only while testing locally: an app whose templates use it cannot be packed or published."#,
    bad: request_app!(
        r#"{"schema": {"method": "GET", "protocol": "http", "host": "api.example.com"}}"#
    ),
    good: request_app!(
        r#"{"schema": {"method": "GET", "protocol": "https", "host": "api.example.com"}}"#
    ),
    examples: Examples::App,
    vendor: "`fdk pack` rejects `http`.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (file, template) in request_templates(model) {
        let Some(field) = template.field(&Place::Protocol) else {
            continue;
        };
        let name = suggest::shortened(&template.name);
        match field.as_str() {
            Some("https") => {}
            Some("http") => {
                cx.report(file, &RULE, field.span, format!("Template `{name}` uses `http`: the app cannot be packed"))
                    .label("plain http")
                    .help("`http` works only in local testing; `fdk pack` rejects it. Call the service over `https` (remove `protocol`, whose default is \"https\").")
                    .pointer(field.pointer());
            }
            other => {
                let shown = other.map_or_else(
                    || field.kind.described().to_owned(),
                    |text| format!("\"{}\"", suggest::shortened(text)),
                );
                cx.report(file, &RULE, field.span, format!("`protocol` {shown} of template `{name}` is not a protocol the platform takes"))
                    .label("not a protocol")
                    .help("Write \"https\" (the default, so it may be left out); \"http\" only works in local testing.")
                    .pointer(field.pointer());
            }
        }
    }
}
