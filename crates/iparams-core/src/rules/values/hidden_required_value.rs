//! `hidden-required-value`: a required field nobody can see, given no value.

use crate::diagnostic::Severity;
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::values::{Answer, Unanswered};

pub static RULE: Rule = Rule {
    name: "hidden-required-value",
    severity: Severity::Error,
    area: Area::Values,
    summary: "A required iparam that is hidden has no value, so the installation cannot be completed",
    docs: r#"An iparam with `"visible": false` is not shown on the installation page, so no
installer can fill it. When it is also required and the values give it none (missing, `null`, `""`,
`[]`, or an unticked checkbox, as for `value-required`), INSTALL stays blocked, unless a `change`
callback shows the field or sets it with `utils.set`. Give it a value, and in iparams.json a
`default_value` (which the page submits for a hidden field) or `"visible": true`, or make it
optional.

`value-required` reports the visible fields; this rule the hidden ones, whose fix is in iparams.json
as much as in the values."#,
    bad: r#"{
  "region": "eu"
}
"#,
    good: r#"{
  "region": "eu",
  "tenant": "main"
}
"#,
    examples: Examples::Values {
        definitions: r#"{
  "region": {"display_name": "Region", "type": "text", "required": true},
  "tenant": {"display_name": "Tenant", "type": "text", "required": true, "visible": false}
}
"#,
        good_definitions: None,
    },
    vendor: r#"Older FDK releases reported `'<key>' is a required field.`, as for any required
iparam, without noticing that the field is hidden."#,
    fix: None,
    checks: &[Check::Value(check)],
};

fn check(answer: &Answer<'_>, cx: &mut Context<'_>) {
    if !answer.is_required() || !answer.is_hidden() {
        return;
    }
    let Some(why) = answer.unanswered() else {
        return;
    };
    let named = answer.named();
    let span = answer
        .value
        .map_or_else(|| answer.missing_span(), |value| value.span);
    let (message, label) = if why == Unanswered::Unchecked {
        (
            format!("The required {named} is hidden and not ticked"),
            "hidden, required, unticked",
        )
    } else {
        (
            format!("The required {named} is hidden and has no value"),
            "hidden, required, no value",
        )
    };
    let mut help =
        "`\"visible\": false` hides the field, so no installer can fill it and INSTALL stays \
                    blocked, unless a `change` callback shows it or sets it with `utils.set`."
            .to_owned();
    match answer.quoted_default() {
        Some(default) => help.push_str(&format!(
            " The page would submit its default, {default}: give that value here."
        )),
        None => help.push_str(&format!(
            " Give {} here, and in iparams.json a `default_value` or `\"visible\": true`; or make it optional.",
            answer.what_to_give()
        )),
    }
    answer.report(cx, &RULE, span, message, &help).label(label);
}
