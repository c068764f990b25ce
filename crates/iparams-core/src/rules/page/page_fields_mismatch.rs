//! `page-fields-mismatch`: `getConfigs` and `postConfigs` disagree on the keys.

use crate::app::AppModel;
use crate::app::page_functions::{Body, PageFunctionName};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "page-fields-mismatch",
    severity: Severity::Warning,
    area: Area::Page,
    summary: "`getConfigs` reads a key `postConfigs` does not store, or leaves a stored one unread",
    docs: r#"`postConfigs` decides which keys are stored; `getConfigs(configs)` gets them back when
the settings are edited and fills the form. A key `getConfigs` reads that `postConfigs` never
returns is always `undefined` (often a spelling apart); a key `postConfigs` stores that
`getConfigs` never reads leaves its field empty on every edit, so the installer retypes it or
stores an empty value. A key read under another spelling is reported once, where it is read.
Secure keys are left out of the second check: pages often leave their fields empty on purpose.
Checked when both functions can be read whole."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><input id="region"><input id="team">
<script>
function postConfigs() { return { region: region.value, team: team.value }; }
function getConfigs(configs) { region.value = configs.regoin; }
</script></body></html>
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><input id="region"><input id="team">
<script>
function postConfigs() { return { region: region.value, team: team.value }; }
function getConfigs(configs) { region.value = configs.region; team.value = configs.team; }
</script></body></html>
"#,
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let Some(page) = super::page(model) else {
        return;
    };
    let Some((stored_in, stored)) = page.stored().filter(|(_, stored)| stored.complete) else {
        return;
    };
    let Some((filled_in, getter)) = page.function(PageFunctionName::GetConfigs) else {
        return;
    };
    let Body::GetConfigs(filled) = &getter.body else {
        return;
    };
    if filled.whole {
        return;
    }
    let stored_keys = || stored.keys.iter().map(|(key, _)| key.as_str());
    // Stored keys already named by a finding: a key spelt apart is one finding, not two.
    let mut told: Vec<&str> = Vec::new();
    for (key, span) in &filled.keys {
        if stored_keys().any(|stored| stored == key) {
            continue;
        }
        let help = match suggest::closest(key, stored_keys()) {
            Some(meant) => {
                told.push(meant);
                format!("Did you mean `{meant}`? {}", model.defined_iparams())
            }
            None => model.defined_iparams(),
        };
        cx.report(
            filled_in,
            &RULE,
            *span,
            format!("`getConfigs` reads `{key}`, which `postConfigs` never stores"),
        )
        .label("always undefined")
        .help(help);
    }
    for (key, span) in &stored.keys {
        let secure = stored.secure.iter().any(|(secure, _)| secure == key);
        if secure || told.contains(&key.as_str()) || filled.keys.iter().any(|(read, _)| read == key)
        {
            continue;
        }
        told.push(key);
        cx.report(stored_in, &RULE, *span, format!("`postConfigs` stores `{key}`, but `getConfigs` never reads it back"))
            .label("empty when the settings are edited")
            .help(format!("Fill its field in `getConfigs(configs)` from `configs.{key}`, or it comes back empty whenever the app's settings are edited."));
    }
}
