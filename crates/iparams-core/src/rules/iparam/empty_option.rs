//! `empty-option`: a blank choice.

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam};
use crate::rules::{Area, Check, Context, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "empty-option",
    severity: Severity::Warning,
    area: Area::Options,
    summary: "An option is an empty or blank string",
    docs: r#"A blank option shows as an empty choice. To let installers leave a dropdown unset,
make the iparam optional rather than adding an empty choice."#,
    bad: r#"{
  "priority": {"display_name": "Priority", "type": "dropdown", "options": ["", "Low", "High"], "default_value": "Low"}
}
"#,
    good: r#"{
  "priority": {"display_name": "Priority", "type": "dropdown", "options": ["Low", "High"], "default_value": "Low"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(options) = &iparam.options else {
        return;
    };
    for (index, option) in options
        .iter()
        .enumerate()
        .filter(|(_, o)| o.text.trim().is_empty())
    {
        let (article, what) = if option.text.is_empty() {
            ("an", "empty")
        } else {
            ("a", "blank")
        };
        cx.report(
            &RULE,
            option.span,
            format!("Iparam `{}` has {article} {what} option", iparam.key.text),
        )
        .label(format!("{what} choice"))
        .help("Remove it; to let the field stay unset, leave `required` false instead.")
        .pointer(iparam.pointer_to(&[Attribute::Options.name(), &index.to_string()]));
    }
}
