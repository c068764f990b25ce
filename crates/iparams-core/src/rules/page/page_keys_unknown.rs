//! `page-keys-unknown`: the keys a custom page stores cannot be read without running it.

use crate::app::AppModel;
use crate::app::page_functions::PageFunctionName;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "page-keys-unknown",
    severity: Severity::Info,
    area: Area::Page,
    summary: "the keys `postConfigs` returns cannot be told from the code",
    docs: r#"For an app with a custom installation page, the app's iparams are the properties of
the object `postConfigs` returns. They are read from the code when the object is written out: an
object literal, a variable given an object and then properties (`config.key = …`,
`Object.assign(config, {…})`), spreads of such variables, or a global given exactly one object
literal (`window.iparams = {…}` at the top of the script, filled by the fields' handlers and
returned by `postConfigs`). When the object is built otherwise (by another function, with
computed keys, in a loop or a callback such as `forEach` or jQuery's `.each`, or by a helper it is
handed to), the keys are not guessed: this note says so once, and the rules that need the app's
iparams (reads of unknown iparams, unused iparams, secure keys) stay quiet for the app."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><form id="form"></form>
<script>
function postConfigs() { return Object.fromEntries(new FormData(form)); }
function getConfigs(configs) {}
</script></body></html>
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><input id="region">
<script>
function postConfigs() { return { region: region.value }; }
function getConfigs(configs) { region.value = configs.region; }
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
    let Some((file, function)) = page.function(PageFunctionName::PostConfigs) else {
        return;
    };
    if page.keys_known() {
        return;
    }
    cx.report(file, &RULE, function.span, "The keys `postConfigs` returns cannot be told from the code, so the app's iparams are unknown")
        .label("keys not known")
        .help("Checks that need the app's iparams (reads of unknown iparams, unused ones, secure keys) are skipped for this app. Returning an object literal (`return { key: field.value, … }`) lets them run.");
}
