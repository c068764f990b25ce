//! `missing-product`: a domain or api_key iparam not tied to a product.

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::{capitalise, subject};

pub static RULE: Rule = Rule {
    name: "missing-product",
    severity: Severity::Error,
    area: Area::Products,
    summary: "A domain or api_key iparam has no `type_attributes.product`",
    docs: r#"`domain` and `api_key` iparams belong to a product: the installation page builds the
domain's fixed part from it, and validates the key against it. Name the product in
`type_attributes`, or write `current` for the product the app is installed on."#,
    bad: r#"{
  "hr_domain": {"display_name": "HR domain", "type": "domain"}
}
"#,
    good: r#"{
  "hr_domain": {"display_name": "HR domain", "type": "domain", "type_attributes": {"product": "freshteam"}}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Rejects: `type_attributes must be specified for type <type> in iparams.json.` or
`Mandatory key(s) product missing in type_attributes for <key> in iparams.json.`; with `data-bind`
and no `type_attributes`, the validator crashes instead."#,
    fix: None,
    checks: &[Check::Iparam(check)],
};

const EXAMPLE: &str = "`\"type_attributes\": {\"product\": \"freshdesk\"}`, or \"current\" for the product the app is installed on";

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    if !iparam.known_type().is_some_and(|ty| ty.has_product()) {
        return;
    }
    let Some(member) = iparam.get(Attribute::TypeAttributes) else {
        cx.report(
            &RULE,
            iparam.key.span,
            format!("{} has no `type_attributes`", capitalise(&subject(iparam))),
        )
        .label("no product")
        .help(format!("Name the product it belongs to: {EXAMPLE}."))
        .pointer(iparam.pointer());
        return;
    };
    if member.value.as_object().is_none() {
        return;
    }
    match member.value.get("product") {
        None => {
            cx.report(
                &RULE,
                member.value.span,
                format!("`type_attributes` of {} has no `product`", subject(iparam)),
            )
            .label("no product")
            .help(format!("Add it: {EXAMPLE}."))
            .pointer(iparam.pointer_of(Attribute::TypeAttributes));
        }
        Some(product) if product.value.as_str().is_none() => {
            cx.report(
                &RULE,
                product.value.span,
                format!("`product` of {} must be a string", subject(iparam)),
            )
            .label("expected a product name")
            .help(format!("Write {EXAMPLE}."))
            .pointer(iparam.pointer_to(&[Attribute::TypeAttributes.name(), "product"]));
        }
        Some(_) => {}
    }
}
