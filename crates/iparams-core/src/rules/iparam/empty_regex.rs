//! `empty-regex`: `"regex": {}`.

use crate::diagnostic::{Applicability, Fix, Severity};
use crate::edits::remove_member;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "empty-regex",
    severity: Severity::Error,
    area: Area::Regexes,
    summary: "`regex` is an empty object",
    docs: r#"An empty `regex` checks nothing; the vendor's validator rejects it. Add a pattern
and its message, or remove the attribute (the fix does the latter)."#,
    bad: r#"{
  "code": {"display_name": "Code", "type": "text", "regex": {}}
}
"#,
    good: r#"{
  "code": {"display_name": "Code", "type": "text", "regex": {"code": "^[A-Z]{3}$", "code-error": "Three capital letters"}}
}
"#,
    examples: Examples::Iparams,
    vendor: "Rejects: `For the '<key>' field, regex should not be empty.`",
    fix: Some(Applicability::Safe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(member) = iparam.get(Attribute::Regex) else {
        return;
    };
    if !member.value.as_object().is_some_and(<[_]>::is_empty) {
        return;
    }
    let members = iparam.value.as_object().unwrap_or_default();
    let index = members
        .iter()
        .position(|m| std::ptr::eq(m, member))
        .expect("the member is in its object");
    cx.report(&RULE, member.value.span, format!("`regex` of iparam `{}` is empty", iparam.key.text))
        .label("no patterns")
        .help("Add a pattern and its message, `{\"code\": \"^[A-Z]{3}$\", \"code-error\": \"Three capital letters\"}`, or remove `regex`.")
        .pointer(iparam.pointer_of(Attribute::Regex))
        .fix(Fix::safe("Remove the empty `regex`", vec![remove_member(members, index)]));
}
