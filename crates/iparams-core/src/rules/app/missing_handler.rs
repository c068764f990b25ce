//! `missing-handler`: a change handler that config/assets/iparams.js does not declare.

use crate::app::AppModel;
use crate::app::js::FunctionValue;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "missing-handler",
    severity: Severity::Error,
    area: Area::App,
    summary: "A `change` handler is not a function declared in config/assets/iparams.js",
    docs: r#"The installation page calls a `change` handler as a global function of
config/assets/iparams.js, and the vendor's validator looks for it as a top-level function
declaration: `function onRegionChange(value) {...}`. A handler written as an arrow function or a
`const`/`var` holding a function expression is reported missing by `fdk validate`, even though the
browser could call some of them. Without config/assets/iparams.js at all, the vendor's validator
crashes."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text", "events": [{"change": "onRegionChange"}]}
}
=== config/assets/iparams.js ===
const onRegionChange = (value) => (value ? "" : "Enter a region");
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text", "events": [{"change": "onRegionChange"}]}
}
=== config/assets/iparams.js ===
function onRegionChange(value) {
  return value ? "" : "Enter a region";
}
"#,
    examples: Examples::App,
    vendor: r#"Rejects: `The <fn> function does not exist for the '<key>' field.`; crashes when
config/assets/iparams.js is missing."#,
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let Some(iparams) = model.iparams_file else {
        return;
    };
    for declared in &model.declared {
        for handler in declared
            .handlers
            .iter()
            .filter(|h| crate::rules::helpers::is_identifier(&h.name))
        {
            let name = &handler.name;
            let (message, help) = match &model.callbacks {
                None => (
                    format!(
                        "Handler `{name}` of `{}` cannot be found: config/assets/iparams.js does not exist",
                        declared.key
                    ),
                    format!(
                        "Create config/assets/iparams.js with `function {name}(value) {{ ... }}`; without the file the vendor's validator crashes."
                    ),
                ),
                Some((file, facts)) => {
                    if facts.functions.iter().any(|(function, _)| function == name) {
                        continue;
                    }
                    let path = "config/assets/iparams.js";
                    match facts
                        .function_values
                        .iter()
                        .find(|(value, ..)| value == name)
                    {
                        Some((_, span, how)) => {
                            let written = match how {
                                FunctionValue::Arrow => "an arrow function",
                                FunctionValue::Expression => "a variable holding a function",
                                FunctionValue::WindowProperty => "a property of `window`",
                            };
                            let at = model.position(*file, *span);
                            (
                                format!(
                                    "Handler `{name}` of `{}` is {written} in {path}, not a function declaration",
                                    declared.key
                                ),
                                format!(
                                    "The platform looks handlers up as global function declarations, and `fdk validate` reports this one missing: write `function {name}(value) {{ ... }}` ({at})."
                                ),
                            )
                        }
                        None if !facts.syntax_errors.is_empty() => (
                            format!(
                                "Handler `{name}` of `{}` cannot be found: {path} has a syntax error",
                                declared.key
                            ),
                            format!(
                                "Fix the syntax error at {} first (see `javascript-syntax-error`): the page cannot call any callback of a file that does not parse.",
                                model.position(*file, facts.syntax_errors[0].span)
                            ),
                        ),
                        None => {
                            let declared_names = facts.functions.iter().map(|(f, _)| f.as_str());
                            let hint = suggest::closest(name, declared_names)
                                .map(|f| format!("Did you mean `{f}`? "))
                                .unwrap_or_default();
                            (
                                format!(
                                    "Handler `{name}` of `{}` is not declared in {path}",
                                    declared.key
                                ),
                                format!(
                                    "{hint}Declare it there as `function {name}(value) {{ ... }}`; the page calls it with the new value."
                                ),
                            )
                        }
                    }
                }
            };
            cx.report(iparams, &RULE, handler.span, message)
                .label("no such function")
                .help(help)
                .pointer(handler.pointer.clone());
        }
    }
}
