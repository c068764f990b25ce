//! `unknown-module`: a module the manifest does not declare.

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "unknown-module",
    severity: Severity::Error,
    area: Area::App,
    summary: "`modules` names a module that manifest.json does not declare",
    docs: r#"Each name in an iparam's `modules` must be a module of the app, a key of `modules`
in manifest.json; any other name limits the iparam to a module that does not exist."#,
    bad: r#"=== manifest.json ===
{"platform-version": "3.0", "modules": {"common": {}, "support_ticket": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text", "modules": ["support_tickets"]}
}
"#,
    good: r#"=== manifest.json ===
{"platform-version": "3.0", "modules": {"common": {}, "support_ticket": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text", "modules": ["support_ticket"]}
}
"#,
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(manifest) = cx.app().and_then(|app| app.manifest.as_ref()) else {
        return;
    };
    if !manifest.platform.is_some_and(|p| p.is_modular()) {
        return;
    }
    let items = iparam
        .get(Attribute::Modules)
        .and_then(|m| m.value.as_array())
        .unwrap_or_default();
    let declared = || manifest.modules.iter().map(|m| m.name.as_str());
    for (index, item) in items.iter().enumerate() {
        let Some(name) = item.as_str() else { continue };
        if declared().any(|module| module == name) {
            continue;
        }
        let help = match suggest::closest(name, declared()) {
            Some(module) => format!(
                "Did you mean \"{module}\"? manifest.json declares {}.",
                suggest::quoted_list(declared())
            ),
            None if manifest.modules.is_empty() => "manifest.json declares no modules.".to_owned(),
            None => format!(
                "manifest.json declares {}.",
                suggest::quoted_list(declared())
            ),
        };
        cx.report(
            &RULE,
            item.span,
            format!(
                "Iparam `{}` is for module \"{name}\", which the app does not have",
                iparam.key.text
            ),
        )
        .label("not a module of this app")
        .help(help)
        .pointer(iparam.pointer_to(&[Attribute::Modules.name(), &index.to_string()]));
    }
}
