//! `request-option-value`: `maxAttempts` or `retryDelay` of a request template out of range.

use crate::app::AppModel;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::templates::{request_app, request_templates};
use crate::suggest;
use crate::syntax::JsonKind;

pub static RULE: Rule = Rule {
    name: "request-option-value",
    severity: Severity::Error,
    area: Area::Templates,
    summary: "A request template's `maxAttempts` is not 1–5, or its `retryDelay` is over 1500 ms",
    docs: r#"`options.maxAttempts` is a whole number from 1 to 5 (default 1): how many times the
platform tries a call that fails on the network, with 429 or with a 5xx. `options.retryDelay` is
the wait between tries in milliseconds, at most 1500. The sources disagree on its lower bound
and default (one says 1–1500, default 1000; another a multiple of 100, default 0), so only a
value over 1500, negative or not a number is reported. `isOAuth` (2.3) is a boolean and `oauth`
(3.x, an integration of config/oauth_config.json) a string."#,
    bad: request_app!(
        r#"{"schema": {"method": "GET", "host": "api.example.com"}, "options": {"maxAttempts": 10, "retryDelay": 5000}}"#
    ),
    good: request_app!(
        r#"{"schema": {"method": "GET", "host": "api.example.com"}, "options": {"maxAttempts": 5, "retryDelay": 1000}}"#
    ),
    examples: Examples::App,
    vendor: "Rejected by the schema check of `fdk validate`.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (file, template) in request_templates(model) {
        let name = suggest::shortened(&template.name);
        for (option, field) in template.option_fields() {
            let number = match field.kind {
                JsonKind::Number => field.text.as_deref().and_then(|t| t.parse::<f64>().ok()),
                _ => None,
            };
            let shown = match (field.kind, field.text.as_deref()) {
                (JsonKind::String, Some(text)) => {
                    format!("\"{}\" (a string)", suggest::shortened(text))
                }
                (_, Some(text)) => suggest::shortened(text).into_owned(),
                (kind, None) => kind.described().to_owned(),
            };
            let problem = match option {
                "maxAttempts" => match number {
                    Some(n) if n.fract() == 0.0 && (1.0..=5.0).contains(&n) => None,
                    _ => Some((
                        format!(
                            "`maxAttempts` {shown} of template `{name}` is not a whole number from 1 to 5"
                        ),
                        "The platform tries a call at most 5 times (network errors, 429 and 5xx); write a number from 1 to 5, such as `3`.",
                    )),
                },
                "retryDelay" => match number {
                    Some(n) if (0.0..=1500.0).contains(&n) => None,
                    _ => Some((
                        format!(
                            "`retryDelay` {shown} of template `{name}` is not a number of milliseconds up to 1500"
                        ),
                        "The wait between tries is at most 1500 ms; write a number such as `1000`.",
                    )),
                },
                "isOAuth" if field.kind != JsonKind::Boolean => Some((
                    format!("`isOAuth` {shown} of template `{name}` is not a boolean"),
                    "Write `true` (without quotes) to send the OAuth token of config/oauth_config.json.",
                )),
                "oauth" if field.kind != JsonKind::String => Some((
                    format!(
                        "`oauth` of template `{name}` is {}, not a string",
                        field.kind.described()
                    ),
                    "On platform 3.x, `oauth` names an integration of config/oauth_config.json, as a string.",
                )),
                _ => None,
            };
            if let Some((message, help)) = problem {
                cx.report(file, &RULE, field.span, message)
                    .label("not allowed")
                    .help(help)
                    .pointer(field.pointer());
            }
        }
    }
}
