//! `data-bind-not-allowed`: data-bind on a type the value cannot fill.

use crate::diagnostic::Severity;
use crate::model::{Attribute, DATA_BIND_VALUES, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::subject;
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "data-bind-not-allowed",
    severity: Severity::Error,
    area: Area::DataBind,
    summary: "`data-bind` on an iparam type its value cannot fill",
    docs: r#"`product.domain` fills a `text` iparam (with the whole domain) or a `domain` iparam
(with the sub-domain); `product.api_key` fills a `text` or `api_key` iparam; `product.url` fills a
`text` iparam. On any other type the binding does nothing."#,
    bad: r#"{
  "domain": {"display_name": "Domain", "type": "url", "data-bind": "product.domain"}
}
"#,
    good: r#"{
  "domain": {"display_name": "Domain", "type": "text", "data-bind": "product.domain"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(ty) = iparam.known_type() else {
        return;
    };
    let Some(value) = iparam.string(Attribute::DataBind) else {
        return;
    };
    let Some((name, types)) = DATA_BIND_VALUES
        .iter()
        .find(|(name, _)| *name == value.text)
    else {
        return;
    };
    if types.contains(&ty) {
        return;
    }
    cx.report(
        &RULE,
        value.span,
        format!("\"{name}\" cannot fill {}", subject(iparam)),
    )
    .label(format!("not for {}", ty.name()))
    .help(format!(
        "\"{name}\" fills {} iparams; change the type, or remove `data-bind`.",
        suggest::list(types.iter().map(|t| t.name())).replace(", ", " or ")
    ))
    .pointer(iparam.pointer_of(Attribute::DataBind));
}
