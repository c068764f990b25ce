//! `ignored-invoke-option`: an option of `invokeTemplate` that the platform ignores.

use crate::app::AppModel;
use crate::app::Script;
use crate::app::invocations::{FRONTEND_ONLY_KEYS, INVOKE_KEYS};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::helpers::invocations;
use crate::rules::templates::request_app;
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "ignored-invoke-option",
    severity: Severity::Warning,
    area: Area::Templates,
    summary: "`invokeTemplate` is given an option the platform ignores (`headers`, `iparam`, `url`, or `cache` in serverless code)",
    docs: r#"The second argument of `invokeTemplate` takes `context` (the template's
`<%= context.NAME %>` values), `body` (a string: `JSON.stringify(…)`), `query` (run-time query
parameters), `options` and, in the front end only, `cache` and `ttl`. Anything else is dropped
without a word: headers, the URL and iparams belong to the template in config/requests.json, and
serverless code has no cache."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getUser": {}}}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{"getUser": {"schema": {"method": "GET", "host": "api.example.com"}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("getUser", {headers: {"X-Trace": "1"}});
"#,
    good: request_app!(
        r#"{"schema": {"method": "GET", "host": "api.example.com", "headers": {"X-Trace": "1"}}}"#
    ),
    examples: Examples::App,
    vendor: "Not checked; the platform ignores the option.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (file, script, invocation) in invocations(model) {
        for key in &invocation.keys {
            let option = key.name.as_str();
            let (problem, help) = if !INVOKE_KEYS.contains(&option) {
                let help = match option {
                    "headers" => "Headers belong to the template: put them in `schema.headers` of config/requests.json (with `<%= context.NAME %>` for values known at run time).".to_owned(),
                    "url" | "host" | "path" => "The URL belongs to the template: `schema.host` and `schema.path` of config/requests.json.".to_owned(),
                    "iparam" | "iparams" => "Templates read iparams themselves: write `<%= iparam.KEY %>` in the template.".to_owned(),
                    "json" | "data" => "Send a body as a string in `body`: `body: JSON.stringify(…)`.".to_owned(),
                    _ => match suggest::closest(option, INVOKE_KEYS) {
                        Some(meant) => format!("Did you mean `{meant}`?"),
                        None => format!("The options are {}.", suggest::quoted_list(INVOKE_KEYS)),
                    },
                };
                ("the platform ignores it", help)
            } else if script == Script::Serverless && FRONTEND_ONLY_KEYS.contains(&option) {
                (
                    "serverless code has no response cache",
                    "Remove it: only the front end's `client.request.invokeTemplate` caches responses.".to_owned(),
                )
            } else {
                continue;
            };
            cx.report(
                file,
                &RULE,
                key.span,
                format!("`{option}` is not an option of invokeTemplate here: {problem}"),
            )
            .label("ignored")
            .help(help);
        }
    }
}
