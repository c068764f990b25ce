//! `missing-app-client`: a custom installation page that does not load the platform's client.

use crate::app::page::{APP_CLIENT, CDN_CLIENT};
use crate::app::{AppModel, Resource};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::span::Span;

pub static RULE: Rule = Rule {
    name: "missing-app-client",
    severity: Severity::Error,
    area: Area::Page,
    summary: "config/iparams.html does not load the client with `{{{appclient}}}`",
    docs: r#"A custom installation page reaches the product (`app.initialized()`, then
`client.request.invokeTemplate`, `client.data`, `client.interface`) through the platform's
client script. With FDK 9 and later on platform 2.3 and later, the page must load it as
`<script src="{{{appclient}}}"></script>`: the platform puts the right URL in its place. Pages
written for older kits load `fresh_client.js` from the vendor's CDN instead, an old client that
newer platform features do not reach."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="https://static.freshdev.io/fdk/2.0/assets/fresh_client.js"></script></head>
<body><input id="region">
<script>
function postConfigs() { return { region: region.value }; }
function getConfigs(configs) { region.value = configs.region; }
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
    vendor: "Not checked by `fdk validate`; the page fails at run time without a client.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let Some(page) = super::page(model) else {
        return;
    };
    let mut loaded = page.loaded();
    if loaded
        .clone()
        .any(|(_, resource, _)| *resource == Resource::AppClient)
    {
        return;
    }
    match loaded.find(|(src, _, _)| src.value.ends_with(CDN_CLIENT)) {
        Some((cdn, _, _)) => {
            cx.report(page.file, &RULE, cdn.span, format!("The page loads the old client from the vendor's CDN ({CDN_CLIENT}), not `{APP_CLIENT}`"))
                .label("the client of older kits")
                .help(format!("Write `{APP_CLIENT}` in its place: with FDK 9 and later the platform fills in the client's URL."));
        }
        None => {
            let at = page
                .html
                .scripts
                .first()
                .map_or(Span::at(0), |script| Span::at(script.tag.start));
            cx.report(
                page.file,
                &RULE,
                at,
                format!("The page never loads the platform's client (`{APP_CLIENT}`)"),
            )
            .label("no client script")
            .help(format!(
                "Load the client with `<script src=\"{APP_CLIENT}\"></script>` in the page's head, before the scripts that call `app.initialized()`."
            ));
        }
    }
}
