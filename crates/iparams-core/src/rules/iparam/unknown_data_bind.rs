//! `unknown-data-bind`: a data-bind value the platform does not fill.

use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::edits::json_string;
use crate::model::{Attribute, DATA_BIND_VALUES, Iparam};
use crate::rules::{Area, Check, Context, Examples, Rule};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "unknown-data-bind",
    severity: Severity::Error,
    area: Area::DataBind,
    summary: "`data-bind` names an account value the platform does not provide",
    docs: r#"`data-bind` pre-fills an iparam from the account the app is installed on. The values
are `product.domain` (every platform), and `product.api_key` and `product.url` (platform 3.x, where
secrets are text iparams; platform 2.x apps use `product.api_key` on `api_key` iparams too). Any
other value fills nothing. A value that differs from a known one only in case is corrected by the
fix."#,
    bad: r#"{
  "domain": {"display_name": "Domain", "type": "text", "data-bind": "product.subdomain"}
}
"#,
    good: r#"{
  "domain": {"display_name": "Domain", "type": "text", "data-bind": "product.domain"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: Some(Applicability::Safe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(value) = iparam.string(Attribute::DataBind) else {
        return;
    };
    let known = || DATA_BIND_VALUES.iter().map(|(name, _)| *name);
    if known().any(|name| name == value.text) {
        return;
    }
    let exact = known().find(|name| name.eq_ignore_ascii_case(value.text.trim()));
    let help = match exact.or_else(|| suggest::closest_in(value.text, &DATA_BIND_VALUES, known())) {
        Some(name) => format!(
            "Did you mean \"{name}\"? The values are {}.",
            suggest::quoted_list(known())
        ),
        None => format!("The values are {}.", suggest::quoted_list(known())),
    };
    let diagnostic = cx
        .report(
            &RULE,
            value.span,
            format!(
                "Iparam `{}` binds to an unknown value \"{}\"",
                iparam.key.text, value.text
            ),
        )
        .label("fills nothing")
        .help(help)
        .pointer(iparam.pointer_of(Attribute::DataBind));
    if let Some(name) = exact {
        diagnostic.fix(Fix::safe(
            format!("Write \"{name}\""),
            vec![Edit::replace(value.span, json_string(name))],
        ));
    }
}
