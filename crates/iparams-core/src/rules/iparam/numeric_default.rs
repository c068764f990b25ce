//! `numeric-default`: a number iparam's default written as a JSON number.

use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::edits::json_string;
use crate::model::{Attribute, DefaultValue, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::subject;

pub static RULE: Rule = Rule {
    name: "numeric-default",
    severity: Severity::Warning,
    area: Area::Defaults,
    summary: "A number iparam's `default_value` is a JSON number, where the format documents a string",
    docs: r#"The format documents `default_value` as a string for every type but checkbox and
multiselect, `number` included. Real apps often write `"default_value": 30`, which the installation
page shows as well, so this is a warning rather than an error. The fix writes the same digits as a
string."#,
    bad: r#"{
  "interval": {"display_name": "Sync interval (minutes)", "type": "number", "default_value": 30}
}
"#,
    good: r#"{
  "interval": {"display_name": "Sync interval (minutes)", "type": "number", "default_value": "30"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: Some(Applicability::Safe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let DefaultValue::Number(raw, span) = iparam.default else {
        return;
    };
    // A secure iparam's default is never shown, whatever its type.
    let (shown, quoted) = if iparam.masks_span(span) {
        ("a JSON number".to_owned(), "a string".to_owned())
    } else {
        (format!("the JSON number {raw}"), format!("\"{raw}\""))
    };
    let fix_title = if iparam.masks_span(span) {
        "Write the number as a string".to_owned()
    } else {
        format!("Write {raw} as \"{raw}\"")
    };
    cx.report(
        &RULE,
        span,
        format!(
            "`default_value` of {} is {shown}, not a string",
            subject(iparam)
        ),
    )
    .label("a number")
    .help(format!(
        "Write it as {quoted}: the format documents the default of a number iparam as a string."
    ))
    .pointer(iparam.pointer_of(Attribute::DefaultValue))
    .fix(Fix::safe(
        fix_title,
        vec![Edit::replace(span, json_string(raw))],
    ));
}
