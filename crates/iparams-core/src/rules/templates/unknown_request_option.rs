//! `unknown-request-option`: an option the platform does not have in a request template.

use crate::app::AppModel;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::templates::{request_app, request_templates};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "unknown-request-option",
    severity: Severity::Warning,
    area: Area::Templates,
    summary: "A request template has an option the platform does not know (`timeout`, `per_page`)",
    docs: r#"A template's `options` are `maxAttempts`, `retryDelay`, `isOAuth` (2.3), `oauth`
(3.x) and `security` (client certificates). Anything else is ignored: there is no `timeout`
option (the platform's request timeout is fixed, 15 s in the 2.3 and 3.0 docs), and page sizes
or filters (`per_page`) belong in `schema.query`."#,
    bad: request_app!(
        r#"{"schema": {"method": "GET", "host": "api.example.com"}, "options": {"timeout": 30000}}"#
    ),
    good: request_app!(
        r#"{"schema": {"method": "GET", "host": "api.example.com"}, "options": {"maxAttempts": 3}}"#
    ),
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

/// The options of a template.
const OPTIONS: [&str; 5] = ["maxAttempts", "retryDelay", "isOAuth", "oauth", "security"];

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (file, template) in request_templates(model) {
        let name = suggest::shortened(&template.name);
        for (option, field) in template
            .option_fields()
            .filter(|(option, _)| !OPTIONS.contains(option))
        {
            let shown = suggest::shortened(option);
            let help = match option.to_ascii_lowercase().as_str() {
                "timeout" => "There is no timeout option: the platform's request timeout is fixed (15 s). Remove it.".to_owned(),
                "per_page" | "page" | "limit" => format!("Page sizes and filters are query parameters: move it to `schema.query` (`\"{shown}\": \"...\"`)."),
                _ => match suggest::closest(option, OPTIONS) {
                    Some(meant) => format!("Did you mean `{meant}`? The options are {}.", suggest::list(OPTIONS)),
                    None => format!("The options are {}; remove it.", suggest::list(OPTIONS)),
                },
            };
            cx.report(
                file,
                &RULE,
                field.key_span,
                format!(
                    "`{shown}` is not an option of request templates; template `{name}` ignores it"
                ),
            )
            .label("not an option")
            .help(help)
            .pointer(field.pointer());
        }
    }
}
