//! `empty-display-name`: a blank label.

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "empty-display-name",
    severity: Severity::Warning,
    area: Area::Keys,
    summary: "An iparam's `display_name` is blank",
    docs: r#"`display_name` is the label of the field on the installation page; a blank one
leaves the person installing the app guessing what to enter."#,
    bad: r#"{
  "region": {"display_name": "", "type": "text"}
}
"#,
    good: r#"{
  "region": {"display_name": "Region", "type": "text"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(name) = iparam.string(Attribute::DisplayName) else {
        return;
    };
    if name.text.trim().is_empty() {
        cx.report(
            &RULE,
            name.span,
            format!("Iparam `{}` has a blank `display_name`", iparam.key.text),
        )
        .label("blank label")
        .help("Write the label the installation page should show for this field.")
        .pointer(iparam.pointer_of(Attribute::DisplayName));
    }
}
