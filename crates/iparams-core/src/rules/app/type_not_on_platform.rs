//! `type-not-on-platform`: a domain or api_key iparam in a 3.x app.

use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::model::{Attribute, Iparam, IparamType, TypeField};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::mark_secure;

pub static RULE: Rule = Rule {
    name: "type-not-on-platform",
    severity: Severity::Error,
    area: Area::App,
    summary: "A `domain` or `api_key` iparam in an app of platform 3.x",
    docs: r#"Platform 3.x has no `domain` and `api_key` types. A secret is a `text` iparam with
`"secure": true`; the account's own domain or key can be pre-filled with `"data-bind":
"product.domain"` or `"product.api_key"`. The fix (unsafe: the app's code may depend on the type)
makes the iparam `text`, secure when it was an api_key."#,
    bad: r#"=== manifest.json ===
{"platform-version": "3.0", "modules": {"common": {}}}
=== config/iparams.json ===
{
  "hr_key": {"display_name": "HR API key", "type": "api_key", "secure": true, "type_attributes": {"product": "freshteam"}}
}
"#,
    good: r#"=== manifest.json ===
{"platform-version": "3.0", "modules": {"common": {}}}
=== config/iparams.json ===
{
  "hr_key": {"display_name": "HR API key", "type": "text", "secure": true}
}
"#,
    examples: Examples::App,
    vendor: "Rejects the type on platform 3.x.",
    fix: Some(Applicability::Unsafe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(platform) = cx
        .app()
        .and_then(|app| app.platform())
        .filter(|p| p.is_modular())
    else {
        return;
    };
    let TypeField::Known(ty @ (IparamType::Domain | IparamType::ApiKey), span) = iparam.ty else {
        return;
    };
    let (instead, bind) = if ty == IparamType::ApiKey {
        (
            "`\"type\": \"text\"` with `\"secure\": true`",
            "product.api_key",
        )
    } else {
        ("`\"type\": \"text\"`", "product.domain")
    };
    let mut edits = vec![Edit::replace(span, "\"text\"")];
    if ty == IparamType::ApiKey && !iparam.is_secure() {
        edits.extend(
            mark_secure(cx, iparam)
                .map(|fix| fix.edits)
                .unwrap_or_default(),
        );
    }
    cx.report(&RULE, span, format!("Type `{}` does not exist on platform {platform}", ty.name()))
        .label(format!("not a {platform} type"))
        .help(format!(
            "Write {instead} instead (and drop `type_attributes`); to pre-fill it from the account the app is installed on, add `\"data-bind\": \"{bind}\"`."
        ))
        .pointer(iparam.pointer_of(Attribute::Type))
        .fix(Fix::unsafe_("Make it a text iparam", edits));
}
