//! `invalid-handler-name`: a callback name that cannot name a JavaScript function.

use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::edits::json_string;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::{RESERVED, is_identifier};

pub static RULE: Rule = Rule {
    name: "invalid-handler-name",
    severity: Severity::Error,
    area: Area::Events,
    summary: "An event handler is not a valid JavaScript function name",
    docs: r#"The installation page calls the handler as a global function, `window[name](value)`,
declared in config/assets/iparams.js. The name must be a JavaScript identifier: no parentheses,
spaces, dashes or dots, not starting with a digit, and not a reserved word. The fix removes call
parentheses (`validate()` → `validate`)."#,
    bad: r#"{
  "domain": {"display_name": "Domain", "type": "text", "events": [{"change": "checkDomain()"}]}
}
"#,
    good: r#"{
  "domain": {"display_name": "Domain", "type": "text", "events": [{"change": "checkDomain"}]}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Rejects it as missing from config/assets/iparams.js: `The <fn> function does not
exist for the '<key>' field.`"#,
    fix: Some(Applicability::Safe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    for (index, entry) in iparam
        .get(Attribute::Events)
        .and_then(|m| m.value.as_array())
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        for pair in entry.as_object().unwrap_or_default() {
            let Some(name) = pair.value.as_str() else {
                continue;
            };
            if is_identifier(name) {
                continue;
            }
            let called = name
                .trim()
                .strip_suffix("()")
                .map(str::trim)
                .filter(|inner| is_identifier(inner));
            let help = if let Some(inner) = called {
                format!(
                    "Write the function's name only, \"{inner}\": the page calls it with the new value."
                )
            } else if RESERVED.contains(&name) {
                format!("`{name}` is a reserved word in JavaScript; choose another function name.")
            } else {
                "A function name has letters, digits, `_` and `$` only, and does not start with a digit.".to_owned()
            };
            let diagnostic = cx
                .report(
                    &RULE,
                    pair.value.span,
                    format!(
                        "Handler \"{name}\" of iparam `{}` is not a function name",
                        iparam.key.text
                    ),
                )
                .label("not a JavaScript identifier")
                .help(help)
                .pointer(iparam.pointer_to(&[
                    Attribute::Events.name(),
                    &index.to_string(),
                    &pair.key.text,
                ]));
            if let Some(inner) = called {
                diagnostic.fix(Fix::safe(
                    format!("Write \"{inner}\""),
                    vec![Edit::replace(pair.value.span, json_string(inner))],
                ));
            }
        }
    }
}
