//! `options-not-allowed`: options on a type that has no choices.

use crate::diagnostic::{Applicability, Fix, Severity};
use crate::edits::remove_member;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::{capitalise, subject};

pub static RULE: Rule = Rule {
    name: "options-not-allowed",
    severity: Severity::Error,
    area: Area::Options,
    summary: "`options` on a type other than dropdown, radio or multiselect",
    docs: r#"Only `dropdown`, `radio` and `multiselect` iparams have choices. On any other type
`options` does nothing; usually the type is wrong. The fix (unsafe, since it may be the type that is
wrong) removes `options`."#,
    bad: r#"{
  "priority": {"display_name": "Priority", "type": "text", "options": ["Low", "High"]}
}
"#,
    good: r#"{
  "priority": {"display_name": "Priority", "type": "dropdown", "options": ["Low", "High"], "default_value": "Low"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Rejects: `Options must not be specified for <type> type in the '<key>' field.`",
    fix: Some(Applicability::Unsafe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(ty) = iparam.known_type().filter(|ty| !ty.has_options()) else {
        return;
    };
    let Some(member) = iparam.get(Attribute::Options) else {
        return;
    };
    let members = iparam.value.as_object().unwrap_or_default();
    let index = members
        .iter()
        .position(|m| std::ptr::eq(m, member))
        .expect("the member is in its object");
    cx.report(&RULE, member.key.span, format!("{} cannot have `options`", capitalise(&subject(iparam))))
        .label(format!("not used by a {} iparam", ty.name()))
        .help("Only dropdown, radio and multiselect iparams have choices: change the type, or remove `options`.")
        .pointer(iparam.pointer_of(Attribute::Options))
        .fix(Fix::unsafe_("Remove `options`", vec![remove_member(members, index)]));
}
