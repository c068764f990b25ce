//! `data-bind-product`: a bound domain or api_key whose product is not the app's.

use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::model::{Attribute, Iparam};
use crate::products::CURRENT_PRODUCT;
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::subject;
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "data-bind-product",
    severity: Severity::Error,
    area: Area::App,
    summary: "A bound domain or api_key iparam names a product the app is not for",
    docs: r#"A `domain` or `api_key` iparam with `data-bind` is filled from the account the app
is installed on, so its `type_attributes.product` must be that product: `current` when manifest.json
lists several products (the app may be installed on any), otherwise the manifest's product or
`current`. The fix writes `current`."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}, "freshservice": {}}}
=== config/iparams.json ===
{
  "domain": {"display_name": "Domain", "type": "domain", "data-bind": "product.domain", "type_attributes": {"product": "freshdesk"}}
}
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}, "freshservice": {}}}
=== config/iparams.json ===
{
  "domain": {"display_name": "Domain", "type": "domain", "data-bind": "product.domain", "type_attributes": {"product": "current"}}
}
"#,
    examples: Examples::App,
    vendor: r#"Rejects: the product must be "current" when the manifest lists several products,
else the manifest's product."#,
    fix: Some(Applicability::Safe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(manifest) = cx.app().and_then(|app| app.manifest.as_ref()) else {
        return;
    };
    if !iparam.known_type().is_some_and(|ty| ty.has_product())
        || iparam.get(Attribute::DataBind).is_none()
    {
        return;
    }
    let Some(product) = iparam.product.filter(|p| p.text != CURRENT_PRODUCT) else {
        return;
    };
    let products: Vec<&str> = manifest.products.iter().map(|p| p.name.as_str()).collect();
    let (message, help) = match products.as_slice() {
        [] => return,
        [only] if *only == product.text => return,
        [only] => (
            format!(
                "{} is bound to the account, but names \"{}\" while the app is for {only}",
                crate::rules::helpers::capitalise(&subject(iparam)),
                product.text
            ),
            format!("Write \"{only}\" or \"current\"."),
        ),
        several => (
            format!(
                "{} is bound to the account, and the app is for several products",
                crate::rules::helpers::capitalise(&subject(iparam))
            ),
            format!(
                "The app can be installed on {}, so the product must be \"current\".",
                suggest::quoted_list(several.iter().copied())
            ),
        ),
    };
    cx.report(&RULE, product.span, message)
        .label("not the app's product")
        .help(help)
        .pointer(iparam.pointer_to(&[Attribute::TypeAttributes.name(), "product"]))
        .fix(Fix::safe(
            "Write \"current\"",
            vec![Edit::replace(product.span, "\"current\"")],
        ));
}
