//! `secure-iparam-logged`: serverless code writes a secure iparam to its logs.

use crate::app::AppModel;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "secure-iparam-logged",
    severity: Severity::Warning,
    area: Area::App,
    summary: "Serverless code writes a secure iparam to its logs (`console.log(args.iparams)`)",
    docs: r#"What serverless code writes with `console.log` (and `info`, `warn`, `error`,
`debug`, `trace`, `dir`, `table`) is kept in the app's logs, which its developers, and whoever
they share them with, read: a secure iparam logged there is a secret no longer. Reported: the
whole object (`args.iparams`, or a variable named `iparams`) in a logged argument, when the app has
a secure iparam, and a secure key's value (`args.iparams.api_key`, `args.iparams["api_key"]`,
in a template literal, a concatenation or `JSON.stringify` alike). Not reported: what tells
nothing of the value (`Object.keys(args.iparams)`, `typeof`, `!`, a comparison, the condition of
`?:`), and keys that are not secure. Log that a value is set, or its length, instead of the
value."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"events": {"onTicketCreate": {"handler": "onTicketCreateHandler"}}}}}
=== config/iparams.json ===
{
  "api_key": {"display_name": "API key", "type": "text", "secure": true}
}
=== server/server.js ===
exports = {
  onTicketCreateHandler: function (args) {
    console.log(`Calling the API with ${args.iparams.api_key}`);
  }
};
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"events": {"onTicketCreate": {"handler": "onTicketCreateHandler"}}}}}
=== config/iparams.json ===
{
  "api_key": {"display_name": "API key", "type": "text", "secure": true}
}
=== server/server.js ===
exports = {
  onTicketCreateHandler: function (args) {
    console.log(`Calling the API (key set: ${Boolean(args.iparams.api_key)})`);
  }
};
"#,
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let secure: Vec<&str> = model
        .declared
        .iter()
        .filter(|declared| declared.secure)
        .map(|declared| declared.key.as_str())
        .collect();
    if secure.is_empty() {
        return;
    }
    for (file, facts) in &model.serverless {
        for logged in &facts.logged_iparams {
            let message = match &logged.key {
                None => format!(
                    "Every iparam is written to the logs here, the secure ones ({}) included",
                    suggest::list(secure.iter().copied())
                ),
                Some(key) if secure.contains(&key.as_str()) => {
                    format!(
                        "The secure iparam `{}` is written to the logs here",
                        suggest::shortened(key)
                    )
                }
                Some(_) => continue,
            };
            cx.report(*file, &RULE, logged.span, message)
                .label("logged")
                .help(
                    "The app's logs are read by its developers and whoever they share them with. \
                     Log that the value is set (or the keys of the object) instead of the value.",
                );
        }
    }
}
