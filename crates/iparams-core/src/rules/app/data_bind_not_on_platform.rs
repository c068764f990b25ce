//! `data-bind-not-on-platform`: a data-bind value of platform 3.x in a 2.x app.

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam, IparamType};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "data-bind-not-on-platform",
    severity: Severity::Error,
    area: Area::App,
    summary: "A data-bind value that the app's platform does not fill",
    docs: r#"`product.url`, and `product.api_key` on a `text` iparam, are platform 3.x data-bind
values, where secrets are text iparams. On platform 2.x only `product.domain` fills a text iparam,
and the account's key is an `api_key` iparam (which `product.api_key` can fill)."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "url": {"display_name": "Account URL", "type": "text", "data-bind": "product.url"}
}
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "domain": {"display_name": "Account domain", "type": "text", "data-bind": "product.domain"}
}
"#,
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(platform) = cx
        .app()
        .and_then(|app| app.platform())
        .filter(|p| !p.is_modular())
    else {
        return;
    };
    let Some(value) = iparam.string(Attribute::DataBind) else {
        return;
    };
    let help = match (value.text, iparam.known_type()) {
        ("product.url", _) => {
            "On platform 2.x, bind a text iparam to \"product.domain\" for the account's domain."
        }
        ("product.api_key", Some(ty)) if ty != IparamType::ApiKey => {
            "On platform 2.x the account's key is an `api_key` iparam (with `\"secure\": true`), which \"product.api_key\" can fill."
        }
        _ => return,
    };
    cx.report(
        &RULE,
        value.span,
        format!(
            "\"{}\" on iparam `{}` is not filled on platform {platform}",
            value.text, iparam.key.text
        ),
    )
    .label("a platform 3.x value")
    .help(help)
    .pointer(iparam.pointer_of(Attribute::DataBind));
}
