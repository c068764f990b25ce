//! `unknown-product`: a product that is not one of the vendor's.

use super::{Check, Context, Rule, capitalise, subject};
use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::fixes::json_string;
use crate::model::{Attribute, CURRENT_PRODUCT, Iparam, IparamType, PRODUCT_PLACEHOLDER, PRODUCTS};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "unknown-product",
    severity: Severity::Error,
    summary: "`type_attributes.product` is not a known product",
    docs: "The product is one of `freshdesk`, `freshservice`, `freshsales`, `freshchat`, \
`freshconnect`, `freshcaller`, `freshteam`, `freshworks_crm` and `omni`, in lowercase, or \
`current` for the product the app is installed on. The vendor's documentation shows \
`\"name of the product\"` as a placeholder, and apps that copy it verbatim are caught here.\n\n\
The vendor's validator checks the product of `domain` iparams only. For `api_key` iparams this rule \
reports the placeholder and misspellings of the products above; a product unrelated to them is \
`unknown-api-key-product`, a warning. A product that differs from a known one only in case or \
spacing is corrected by the fix.",
    bad: "{\n  \"hr_key\": {\"display_name\": \"HR API key\", \"type\": \"api_key\", \"secure\": true, \"type_attributes\": {\"product\": \"name of the product\"}}\n}\n",
    good: "{\n  \"hr_key\": {\"display_name\": \"HR API key\", \"type\": \"api_key\", \"secure\": true, \"type_attributes\": {\"product\": \"freshteam\"}}\n}\n",
    vendor: "Rejects, for domain iparams only: `Invalid product name format '<product>'. Use lowercase without space`.",
    fix: Some(Applicability::Safe),
    check: Check::Iparam(check),
};

/// What is wrong with a product name.
pub(crate) enum ProductProblem {
    /// The documentation's placeholder, copied verbatim.
    Placeholder,
    /// A known product in the wrong case or with spaces.
    Spelling(&'static str),
    /// Close to a known product.
    Misspelt(&'static str),
    /// Nothing like a known product.
    Unrelated,
}

/// `None` when `product` is a known product or `current`.
pub(crate) fn product_problem(product: &str) -> Option<ProductProblem> {
    // Another SDK's product is `other-platform`'s to mention, once.
    if product == CURRENT_PRODUCT
        || PRODUCTS.contains(&product)
        || crate::app::manifest::foreign_product(product).is_some()
    {
        return None;
    }
    let known = || PRODUCTS.iter().copied().chain([CURRENT_PRODUCT]);
    let normalised = product.trim().to_lowercase().replace([' ', '-', '_'], "");
    Some(
        if product.trim().eq_ignore_ascii_case(PRODUCT_PLACEHOLDER) {
            ProductProblem::Placeholder
        } else if let Some(name) =
            known().find(|p| p.chars().filter(|c| *c != '_').eq(normalised.chars()))
        {
            ProductProblem::Spelling(name)
        } else if let Some(name) = suggest::closest_in(product, &PRODUCTS, known()) {
            ProductProblem::Misspelt(name)
        } else {
            ProductProblem::Unrelated
        },
    )
}

pub(crate) fn product_list() -> String {
    format!(
        "The products are {}, and \"current\" for the product the app is installed on.",
        suggest::quoted_list(PRODUCTS)
    )
}

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
        ProductProblem::Unrelated => product_list(),
        ProductProblem::Placeholder => "\"name of the product\" is the placeholder of the vendor's documentation: write the \
                                        product the app is for, or \"current\" for the product it is installed on."
            .to_owned(),
        ProductProblem::Spelling(name) => format!("Write product names in lowercase without spaces: \"{name}\"."),
        ProductProblem::Misspelt(name) => format!("Did you mean \"{name}\"?"),
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
