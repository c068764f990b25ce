//! `modules-not-supported`: the 3.x `modules` attribute in a 2.x app.

use super::{Check, Context, Rule};
use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam};

pub static RULE: Rule = Rule {
    name: "modules-not-supported",
    severity: Severity::Error,
    summary: "`modules` on an app of platform 2.x",
    docs: "Platform 3.x apps are made of modules (`support_ticket`, `deal`...) and an iparam can be \
limited to some of them with `modules`. Platform 2.x apps have products, not modules: there the \
attribute means nothing, and the validator of 2.x rejects it as an unknown attribute.",
    bad: "=== manifest.json ===\n{\"platform-version\": \"2.3\", \"product\": {\"freshdesk\": {}}}\n=== config/iparams.json ===\n{\n  \"region\": {\"display_name\": \"Region\", \"type\": \"text\", \"modules\": [\"support_ticket\"]}\n}\n",
    good: "=== manifest.json ===\n{\"platform-version\": \"2.3\", \"product\": {\"freshdesk\": {}}}\n=== config/iparams.json ===\n{\n  \"region\": {\"display_name\": \"Region\", \"type\": \"text\"}\n}\n",
    vendor: "Rejects: `Invalid key(s), modules, found in the '<key>' field.`",
    fix: None,
    check: Check::Iparam(check),
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
