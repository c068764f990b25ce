//! `javascript-syntax-error`: app code the parser cannot read whole.

use crate::app::AppModel;
use crate::app::js::Unread;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "javascript-syntax-error",
    severity: Severity::Warning,
    area: Area::App,
    summary: "A script of the app has a JavaScript syntax error",
    docs: r#"The app's scripts (config/assets/, the front end and server/) are parsed
to find the callbacks and the iparams they read. A syntax error is reported with its position, and
the checks go on with what could be read; in config/assets/iparams.js it also breaks every
installation-page callback.

TypeScript that nests `<` and `(` so deeply that its parser would take exponential time (each `<`
may begin type arguments and each `(` an arrow function's parameters, and the parser tries both
readings of what follows, level after level) is not read at all, and is reported here where it is
deepest. Real code nests a handful deep; the limit leaves room for many times that. A file on
which the parser itself fails (oxc 0.146 panics on `export { "\\u" }`) is reported the same way,
at its start."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text", "events": [{"change": "onRegion"}]}
}
=== config/assets/iparams.js ===
function onRegion(value) {
  return value ? "" : "Enter a region";
}}
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text", "events": [{"change": "onRegion"}]}
}
=== config/assets/iparams.js ===
function onRegion(value) {
  return value ? "" : "Enter a region";
}
"#,
    examples: Examples::App,
    vendor: "Fails with the esprima parser's message when it reads config/assets/iparams.js.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (file, facts) in model.install_page().chain(model.readers()) {
        for error in &facts.syntax_errors {
            let message = error.message.trim_end_matches('.');
            if let Some(why) = error.unread {
                let (label, help) = match why {
                    Unread::TooNested => (
                        "nested too deeply",
                        "Each `<` may begin type arguments and each `(` an arrow function's \
                         parameters, and TypeScript's parser tries both readings of what follows: \
                         nested this deep, that takes exponential time, so none of this file's \
                         checks ran. Close the brackets, or split the expression.",
                    ),
                    Unread::TooDeep => (
                        "nested too deeply",
                        "The parser and the checks go one level down for each level of the code's \
                         nesting: this deep, they would run out of stack, so none of this file's \
                         checks ran. Split the code into functions, or the expression into \
                         statements.",
                    ),
                    Unread::ParserFailed => (
                        "not read",
                        "The parser stopped with an error of its own (a bug in it, which the file \
                         may not have), so none of this file's checks ran. Please report it to \
                         iparams-lint with the file.",
                    ),
                };
                cx.report(*file, &RULE, error.span, format!("Not read: {message}"))
                    .label(label)
                    .help(help);
                continue;
            }
            cx.report(
                *file,
                &RULE,
                error.span,
                format!("JavaScript syntax error: {message}"),
            )
            .label("cannot be parsed")
            .help("The other checks of this file went on with what could be read.");
        }
    }
}
