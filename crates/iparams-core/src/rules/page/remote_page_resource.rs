//! `remote-page-resource`: a custom page that loads scripts or styles from other hosts.

use crate::app::{AppModel, Resource};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "remote-page-resource",
    severity: Severity::Info,
    area: Area::Page,
    summary: "config/iparams.html loads a script or style sheet from another host",
    docs: r#"A custom installation page runs inside the product, in the installer's browser. A
script or style sheet it loads from another host (a CDN, a library's site) is fetched at every
installation: when that host is slow, down, blocked by the installer's network or by the
product's policy for what pages may load, the page loads without it (an input that never
appears, a `postConfigs` that throws). The vendor does not document a Content-Security-Policy for
installation pages, so nothing is promised either way. Files under config/assets/ ship with the
app and are always there; the vendor's own CDNs (`static.freshdev.io`, `cdn.freshdev.io`), from
which its docs and kits load the client and the products' style sheets, are not reported."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script>
<script src="https://code.jquery.com/jquery-3.7.1.min.js"></script></head>
<body><input id="region">
<script>
function postConfigs() { return { region: $(region).val() }; }
function getConfigs(configs) { $(region).val(configs.region); }
</script></body></html>
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script>
<script src="./assets/jquery-3.7.1.min.js"></script></head>
<body><input id="region">
<script>
function postConfigs() { return { region: $(region).val() }; }
function getConfigs(configs) { $(region).val(configs.region); }
</script></body></html>
=== config/assets/jquery-3.7.1.min.js ===
window.$ = function () {};
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
    for (what, reference) in page.html.loaded() {
        let resource = Resource::of(&reference.value);
        let Resource::Remote { host } = &resource else {
            continue;
        };
        if resource.is_vendor_cdn() {
            continue;
        }
        cx.report(page.file, &RULE, reference.span, format!("The page loads a {what} from {host}, at every installation"))
            .label("another host")
            .help("When that host cannot be reached from the installer's browser the page runs without it. To ship it with the app, save the file under config/assets/ and load it as `./assets/…`.");
    }
}
