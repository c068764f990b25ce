//! `modules-not-supported`: the 3.x `modules` attribute in a 2.x app.

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "modules-not-supported",
    severity: Severity::Error,
    area: Area::App,
    summary: "`modules` on an app of platform 2.x",
    docs: r#"Platform 3.x apps are made of modules (`support_ticket`, `deal`...) and an iparam
can be limited to some of them with `modules`. Platform 2.x apps have products, not modules: there
the attribute means nothing, and the validator of 2.x rejects it as an unknown attribute."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text", "modules": ["support_ticket"]}
}
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text"}
}
"#,
    examples: Examples::App,
    vendor: "Rejects: `Invalid key(s), modules, found in the '<key>' field.`",
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
    let Some(member) = iparam.get(Attribute::Modules) else {
        return;
    };
    cx.report(&RULE, member.key.span, format!("Iparam `{}` has `modules`, but this app is on platform {platform}", iparam.key.text))
        .label("platform 3.x only")
        .help("Modules exist on platform 3.x only; on 2.x every iparam belongs to the whole app. Remove `modules`, or move the app to platform 3.x.")
        .pointer(iparam.pointer_of(Attribute::Modules));
}
