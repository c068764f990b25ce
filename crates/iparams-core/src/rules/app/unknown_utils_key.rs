//! `unknown-utils-key`: a callback that reads or changes an iparam that does not exist.

use crate::app::{AppModel, UtilsMethod};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "unknown-utils-key",
    severity: Severity::Error,
    area: Area::App,
    summary: "`utils.get` or `utils.set` names a key that iparams.json does not define",
    docs: r#"In config/assets/iparams.js, `utils.get(key)` reads the value of another field of
the installation page and `utils.set(key, {...})` changes it; a key that iparams.json does not
define makes the call do nothing (or throw) on the installation page."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text", "events": [{"change": "onRegion"}]},
  "zone": {"display_name": "Zone", "type": "text"}
}
=== config/assets/iparams.js ===
function onRegion(value) {
  utils.set("zones", { visible: value !== "" });
}
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text", "events": [{"change": "onRegion"}]},
  "zone": {"display_name": "Zone", "type": "text"}
}
=== config/assets/iparams.js ===
function onRegion(value) {
  utils.set("zone", { visible: value !== "" });
}
"#,
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    // `utils` belongs to pages generated from iparams.json, whose types these checks read.
    if model.source.is_page() {
        return;
    }
    let Some((file, facts)) = &model.callbacks else {
        return;
    };
    if !model.iparams_complete {
        return;
    }
    for call in &facts.utils_calls {
        let Some((key, span)) = &call.key else {
            continue;
        };
        if model.declared(key).is_some() {
            continue;
        }
        let method = if call.method == UtilsMethod::Get {
            "utils.get"
        } else {
            "utils.set"
        };
        let help = match suggest::closest(key, model.declared.iter().map(|d| d.key.as_str())) {
            Some(meant) => format!("Did you mean \"{meant}\"? {}", model.defined_iparams()),
            None => model.defined_iparams(),
        };
        cx.report(
            *file,
            &RULE,
            *span,
            format!("`{method}` names \"{key}\", which iparams.json does not define"),
        )
        .label("no such iparam")
        .help(help);
    }
}
