//! `duplicate-option`: the same choice twice.

use crate::diagnostic::{Applicability, Fix, Severity};
use crate::edits::remove_item;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::repeated_strings;

pub static RULE: Rule = Rule {
    name: "duplicate-option",
    severity: Severity::Warning,
    area: Area::Options,
    summary: "An option is listed twice",
    docs: r#"The installation page shows every entry of `options`, so a repeated one appears
twice and the person installing cannot tell the two apart. The fix removes the repetition."#,
    bad: r#"{
  "priority": {"display_name": "Priority", "type": "radio", "options": ["Low", "High", "Low"], "default_value": "Low"}
}
"#,
    good: r#"{
  "priority": {"display_name": "Priority", "type": "radio", "options": ["Low", "High"], "default_value": "Low"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: Some(Applicability::Safe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(items) = iparam
        .get(Attribute::Options)
        .and_then(|m| m.value.as_array())
    else {
        return;
    };
    for (index, text, item, first) in repeated_strings(items) {
        cx.report(
            &RULE,
            item.span,
            format!(
                "Option \"{text}\" of iparam `{}` is listed twice",
                iparam.key.text
            ),
        )
        .label("repeated")
        .related(first.span, "first listed here")
        .help("Remove the repetition: the installation page would show the choice twice.")
        .pointer(iparam.pointer_to(&[Attribute::Options.name(), &index.to_string()]))
        .fix(Fix::safe(
            format!("Remove the second \"{text}\""),
            vec![remove_item(items, index)],
        ));
    }
}
