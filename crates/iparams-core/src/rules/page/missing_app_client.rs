//! `missing-app-client`: a custom installation page that does not load the platform's client.

use crate::app::page::{APP_CLIENT, CDN_CLIENT_URL, older_client};
use crate::app::{AppModel, Platform, Resource};
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
`<script src="{{{appclient}}}"></script>`: the platform puts the right URL in its place, and
a client file of the vendor's CDN (`fresh_client.js`, `app-client@2.js`) is an old client that
newer platform features do not reach. On platforms 2.0 to 2.2, or when `engines.fdk` of
manifest.json names an FDK before 9, loading `fresh_client.js` from the vendor's CDN is right
and is not reported; a manifest without `engines.fdk` is taken for FDK 9 on platform 2.3 and
later. A page that loads no client at all is reported on every platform, with the client its
platform takes."#,
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

/// The platform from which pages served by [`APP_CLIENT_FDK`] and later load `{{{appclient}}}`.
const APP_CLIENT_PLATFORM: Platform = Platform { major: 2, minor: 3 };

/// The FDK from which the platform fills in `{{{appclient}}}`.
const APP_CLIENT_FDK: u32 = 9;

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
    let manifest = &model.manifest.manifest;
    // With no platform known, neither client can be called wrong.
    let app_client = manifest.platform.map(|platform| {
        platform >= APP_CLIENT_PLATFORM && manifest.fdk.is_none_or(|fdk| fdk >= APP_CLIENT_FDK)
    });
    let older = loaded
        .find_map(|(src, resource, _)| older_client(&src.value).map(|name| (src, resource, name)));
    match (older, app_client) {
        (Some((src, resource, name)), Some(true)) => {
            let from = match resource {
                Resource::Remote { host } => format!(" from {host}"),
                _ => String::new(),
            };
            let platform = manifest.platform.map(|p| p.to_string()).unwrap_or_default();
            let kit = match manifest.fdk {
                Some(fdk) => format!("FDK {fdk}"),
                None => format!(
                    "FDK {APP_CLIENT_FDK} and later (manifest.json names no FDK in `engines`)"
                ),
            };
            cx.report(page.file, &RULE, src.span, format!("The page loads `{name}`{from}, the client of older kits, not `{APP_CLIENT}`"))
                .label("the client of older kits")
                .help(format!("On platform {platform} with {kit}, write `{APP_CLIENT}` in its place: the platform fills in the client's URL."));
        }
        (Some(_), _) => {}
        (None, app_client) => {
            let at = page
                .html
                .scripts
                .first()
                .map_or(Span::at(0), |script| Span::at(script.tag.start));
            let (client, help) = match app_client {
                Some(true) => (
                    format!("`{APP_CLIENT}`"),
                    format!(
                        "Load the client with `<script src=\"{APP_CLIENT}\"></script>` in the page's head, before the scripts that call `app.initialized()`."
                    ),
                ),
                Some(false) => (
                    "`fresh_client.js`".to_owned(),
                    format!(
                        "Load the client with `<script src=\"{CDN_CLIENT_URL}\"></script>` in the page's head, before the scripts that call `app.initialized()`: on this platform and kit the platform fills in no `{APP_CLIENT}`."
                    ),
                ),
                None => (
                    "`{{{appclient}}}` or `fresh_client.js`".to_owned(),
                    format!(
                        "Load the client in the page's head, before the scripts that call `app.initialized()`: `<script src=\"{APP_CLIENT}\"></script>` with FDK {APP_CLIENT_FDK} and later on platform {APP_CLIENT_PLATFORM} and later, `<script src=\"{CDN_CLIENT_URL}\"></script>` before."
                    ),
                ),
            };
            cx.report(
                page.file,
                &RULE,
                at,
                format!("The page never loads the platform's client ({client})"),
            )
            .label("no client script")
            .help(help);
        }
    }
}
