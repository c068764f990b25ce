//! `unknown-product`: a product that is not one of the vendor's.

use std::borrow::Cow;

use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::edits::json_string;
use crate::model::{Attribute, Iparam, IparamType};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::{capitalise, subject};
use crate::rules::iparam::{ProductProblem, product_list, product_problem};

pub static RULE: Rule = Rule {
    name: "unknown-product",
    severity: Severity::Error,
    area: Area::Products,
    summary: "`type_attributes.product` is not a known product",
    docs: r#"The product is one of `freshdesk`, `freshservice`, `freshsales`, `freshchat`,
`freshconnect`, `freshcaller`, `freshteam`, `freshworks_crm` and `omni`, in lowercase, or `current`
for the product the app is installed on. The vendor's documentation shows `"name of the product"` as
a placeholder, and apps that copy it verbatim are caught here.

The vendor's validator checks the product of `domain` iparams only. For `api_key` iparams this rule
reports the placeholder and misspellings of the products above; a product unrelated to them is
`unknown-api-key-product`, a warning. A product that differs from a known one only in case or
spacing is corrected by the fix."#,
    bad: r#"{
  "hr_key": {"display_name": "HR API key", "type": "api_key", "secure": true, "type_attributes": {"product": "name of the product"}}
}
"#,
    good: r#"{
  "hr_key": {"display_name": "HR API key", "type": "api_key", "secure": true, "type_attributes": {"product": "freshteam"}}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Rejects, for domain iparams only: `Invalid product name format '<product>'. Use
lowercase without space`."#,
    fix: Some(Applicability::Safe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(ty) = iparam.known_type().filter(|ty| ty.has_product()) else {
        return;
    };
    let Some(product) = iparam.product else {
        return;
    };
    let Some(problem) = product_problem(product.text) else {
        return;
    };
    let help = match problem {
        // An api_key for a product the vendor does not make is `unknown-api-key-product`'s case.
        ProductProblem::Unrelated if ty == IparamType::ApiKey => return,
        ProductProblem::Unrelated => Cow::Borrowed(product_list()),
        ProductProblem::Placeholder => Cow::Borrowed(
            "\"name of the product\" is the placeholder of the vendor's documentation: write the \
             product the app is for, or \"current\" for the product it is installed on.",
        ),
        ProductProblem::Spelling(name) => Cow::Owned(format!(
            "Write product names in lowercase without spaces: \"{name}\"."
        )),
        ProductProblem::Misspelt(name) => Cow::Owned(format!("Did you mean \"{name}\"?")),
    };
    let diagnostic = cx
        .report(
            &RULE,
            product.span,
            format!(
                "{} names an unknown product \"{}\"",
                capitalise(&subject(iparam)),
                product.text
            ),
        )
        .label("not a product")
        .help(help)
        .pointer(iparam.pointer_to(&[Attribute::TypeAttributes.name(), "product"]));
    if let ProductProblem::Spelling(name) = problem {
        diagnostic.fix(Fix::safe(
            format!("Write \"{name}\""),
            vec![Edit::replace(product.span, json_string(name))],
        ));
    }
}
