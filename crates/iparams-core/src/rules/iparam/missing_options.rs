//! `missing-options`: a choice type without choices.

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::{capitalise, subject};

pub static RULE: Rule = Rule {
    name: "missing-options",
    severity: Severity::Error,
    area: Area::Options,
    summary: "A dropdown, radio or multiselect has no options",
    docs: r#"`dropdown`, `radio` and `multiselect` iparams offer the strings of `options` as
their choices; without options, or with an empty list, there is nothing to choose."#,
    bad: r#"{
  "priority": {"display_name": "Priority", "type": "dropdown", "default_value": "Low"}
}
"#,
    good: r#"{
  "priority": {"display_name": "Priority", "type": "dropdown", "options": ["Low", "High"], "default_value": "Low"}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Rejects: `In the '<key>' field, specify options for the <type> type.` An empty
array passes."#,
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(ty) = iparam.known_type().filter(|ty| ty.has_options()) else {
        return;
    };
    match iparam.get(Attribute::Options) {
        None => {
            cx.report(
                &RULE,
                iparam.key.span,
                format!("{} has no `options`", capitalise(&subject(iparam))),
            )
            .label("no options")
            .help(format!(
                "Add the choices: `\"options\": [\"Low\", \"High\"]`; a {} offers one per option.",
                ty.name()
            ))
            .pointer(iparam.pointer());
        }
        Some(member) if member.value.as_array().is_some_and(<[_]>::is_empty) => {
            cx.report(
                &RULE,
                member.value.span,
                format!("`options` of {} is empty", subject(iparam)),
            )
            .label("no choices")
            .help("List at least one choice.")
            .pointer(iparam.pointer_of(Attribute::Options));
        }
        Some(_) => {}
    }
}
