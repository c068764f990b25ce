//! `type-attributes-not-allowed`: type_attributes where they do nothing.

use crate::diagnostic::{Applicability, Fix, Severity};
use crate::edits::remove_member;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::subject;

pub static RULE: Rule = Rule {
    name: "type-attributes-not-allowed",
    severity: Severity::Warning,
    area: Area::Products,
    summary: "`type_attributes` on a type other than domain or api_key",
    docs: r#"Only `domain` and `api_key` iparams use `type_attributes.product`. On other types it
has no effect, which often means the type is not the intended one (a key typed `text` where
`api_key` was meant). The fix removes it."#,
    bad: r#"{
  "api_token": {"display_name": "API token", "type": "text", "secure": true, "type_attributes": {"product": "freshdesk"}}
}
"#,
    good: r#"{
  "api_token": {"display_name": "API token", "type": "text", "secure": true}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: Some(Applicability::Unsafe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(ty) = iparam.known_type().filter(|ty| !ty.has_product()) else {
        return;
    };
    let Some(member) = iparam.get(Attribute::TypeAttributes) else {
        return;
    };
    let members = iparam.value.as_object().unwrap_or_default();
    let index = members
        .iter()
        .position(|m| std::ptr::eq(m, member))
        .expect("the member is in its object");
    cx.report(&RULE, member.key.span, format!("`type_attributes` has no effect on {}", subject(iparam)))
        .label(format!("ignored for {}", ty.name()))
        .help("Only domain and api_key iparams use `type_attributes`; remove it, or change the type if one of those was meant.")
        .pointer(iparam.pointer_of(Attribute::TypeAttributes))
        .fix(Fix::unsafe_("Remove `type_attributes`", vec![remove_member(members, index)]));
}
