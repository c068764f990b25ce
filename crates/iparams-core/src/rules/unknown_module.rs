//! `unknown-module`: a module the manifest does not declare.

use super::{Check, Context, Rule};
use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "unknown-module",
    severity: Severity::Error,
    summary: "`modules` names a module that manifest.json does not declare",
    docs: "Each name in an iparam's `modules` must be a module of the app, a key of `modules` in \
manifest.json; any other name limits the iparam to a module that does not exist.",
    bad: "=== manifest.json ===\n{\"platform-version\": \"3.0\", \"modules\": {\"common\": {}, \"support_ticket\": {}}}\n=== config/iparams.json ===\n{\n  \"region\": {\"display_name\": \"Region\", \"type\": \"text\", \"modules\": [\"support_tickets\"]}\n}\n",
    good: "=== manifest.json ===\n{\"platform-version\": \"3.0\", \"modules\": {\"common\": {}, \"support_ticket\": {}}}\n=== config/iparams.json ===\n{\n  \"region\": {\"display_name\": \"Region\", \"type\": \"text\", \"modules\": [\"support_ticket\"]}\n}\n",
    vendor: "Not checked.",
    fix: None,
    check: Check::Iparam(check),
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
