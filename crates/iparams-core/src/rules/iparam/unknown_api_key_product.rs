//! `unknown-api-key-product`: an api_key tied to a product that is not the vendor's.

use std::sync::LazyLock;

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam, IparamType};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::iparam::{ProductProblem, product_list, product_problem};

pub static RULE: Rule = Rule {
    name: "unknown-api-key-product",
    severity: Severity::Warning,
    area: Area::Products,
    summary: "An `api_key` iparam names a product that is not one of the vendor's",
    docs: r#"The installation page validates an `api_key` against its `type_attributes.product`.
A product that is not one of the vendor's (`freshdesk`, `freshservice`, `freshsales`, `freshchat`,
`freshconnect`, `freshcaller`, `freshteam`, `freshworks_crm`, `omni`, or `current`) gives it nothing
to validate against. The vendor's validator does not check an api_key's product at all, so this is a
warning; for a third-party service's key, use a `text` iparam with `"secure": true`."#,
    bad: r#"{
  "survey_key": {"display_name": "Survey API key", "type": "api_key", "secure": true, "type_attributes": {"product": "surveytool"}}
}
"#,
    good: r#"{
  "survey_key": {"display_name": "Survey API key", "type": "text", "secure": true}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::Iparam(check)],
};

/// Made once: a large file has it in hundreds of findings.
static HELP: LazyLock<String> = LazyLock::new(|| {
    format!(
        "The installation page validates an api_key against its product. For another service's key, use a `text` \
         iparam with `\"secure\": true`. {}",
        product_list()
    )
});

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    if iparam.known_type() != Some(IparamType::ApiKey) {
        return;
    }
    let Some(product) = iparam.product else {
        return;
    };
    let Some(ProductProblem::Unrelated) = product_problem(product.text) else {
        return;
    };
    cx.report(
        &RULE,
        product.span,
        format!(
            "The api_key iparam `{}` names \"{}\", which is not one of the vendor's products ({})",
            iparam.key.text,
            product.text,
            crate::products::PRODUCT_NAMES.join(", ")
        ),
    )
    .label("not a vendor product")
    .help(&**HELP)
    .pointer(iparam.pointer_to(&[Attribute::TypeAttributes.name(), "product"]));
}
