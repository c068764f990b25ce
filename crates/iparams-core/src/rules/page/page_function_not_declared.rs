//! `page-function-not-declared`: a page function the product cannot call as the validator wants.

use crate::app::AppModel;
use crate::app::js::FunctionValue;
use crate::app::page_functions::{Defined, PageFunctionName};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "page-function-not-declared",
    severity: Severity::Error,
    area: Area::Page,
    summary: "`postConfigs`, `getConfigs` or `validate` is not a top-level function declaration",
    docs: r#"The product calls `postConfigs`, `getConfigs` and `validate` as global functions of the
page, and the vendor's validator wants them as top-level function declarations
(`function postConfigs() {…}`). A declaration inside another function (an event listener, a
`DOMContentLoaded` callback) is not global at all: the product never finds it, and neither does
it find one declared in a module script (`<script type="module">`), whose top-level names are the
module's own. A top-level
`const` or `let` is not a property of `window` either; `var`, `window.name = …` and function
expressions work in a browser but the validator rejects them."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><input id="region">
<script>
const postConfigs = () => ({ region: region.value });
function getConfigs(configs) { region.value = configs.region; }
</script></body></html>
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><input id="region">
<script>
function postConfigs() { return { region: region.value }; }
function getConfigs(configs) { region.value = configs.region; }
</script></body></html>
"#,
    examples: Examples::App,
    vendor: "Rejects the page for `postConfigs` and `getConfigs` (top-level function declarations); does not look at `validate`.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let Some(page) = super::page(model) else {
        return;
    };
    for name in PageFunctionName::ALL {
        let function = name.name();
        let definitions: Vec<_> = page
            .definitions
            .iter()
            .filter(|(_, f)| f.name() == name)
            .collect();
        // Declared somewhere: the browser ends up with a global function.
        if definitions
            .iter()
            .any(|(_, f)| f.defined == Defined::Declaration)
        {
            continue;
        }
        for (file, definition) in definitions {
            let (label, why) = match definition.defined {
                Defined::Nested => (
                    "declared inside another function or block",
                    "it is not global, so the product never finds it",
                ),
                Defined::InModule => (
                    "declared in a module script",
                    "its top-level names are the module's own, not globals, so the product never finds it",
                ),
                Defined::Value(FunctionValue::Arrow | FunctionValue::Expression) => (
                    "a variable holding a function",
                    "a `const` or `let` is not a property of `window`, and the validator wants a declaration",
                ),
                Defined::Value(FunctionValue::WindowProperty) => (
                    "a property of `window`",
                    "the validator wants a declaration",
                ),
                Defined::Declaration => continue,
            };
            let (message, help) = match definition.defined {
                Defined::InModule => (
                    format!("`{function}` is declared in a module script: {why}"),
                    format!(
                        "Declare `function {function}(…) {{ … }}` at the top level of a classic script (one without `type=\"module\"`), as the validator wants."
                    ),
                ),
                _ => (
                    format!("`{function}` is not a top-level function declaration: {why}"),
                    format!(
                        "Write it at the top level of the script as `function {function}(…) {{ … }}` (an `async function` works too)."
                    ),
                ),
            };
            cx.report(*file, &RULE, definition.span, message)
                .label(label)
                .help(help);
        }
    }
}
