//! `freshchat-domain`: a domain iparam for Freshchat, which has none.

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam, IparamType};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "freshchat-domain",
    severity: Severity::Error,
    area: Area::Products,
    summary: "A `domain` iparam names the product freshchat",
    docs: r#"The `domain` type asks for the account's sub-domain of a product. The vendor's
validator does not accept it for freshchat; ask for the account's address with a `url` or `text`
iparam."#,
    bad: r#"{
  "chat_domain": {"display_name": "Chat domain", "type": "domain", "type_attributes": {"product": "freshchat"}}
}
"#,
    good: r#"{
  "chat_url": {"display_name": "Chat API URL", "type": "url"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Rejects: `Invalid type 'domain' for freshchat product found in iparams.json.`",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    if iparam.known_type() != Some(IparamType::Domain) {
        return;
    }
    let Some(product) = iparam.product.filter(|p| p.text == "freshchat") else {
        return;
    };
    cx.report(&RULE, product.span, format!("The domain iparam `{}` is for freshchat, which has no domain iparam", iparam.key.text))
        .label("freshchat")
        .help("`fdk validate` rejects a domain iparam for freshchat: ask for the account's address with a `url` iparam instead.")
        .pointer(iparam.pointer_to(&[Attribute::TypeAttributes.name(), "product"]));
}
