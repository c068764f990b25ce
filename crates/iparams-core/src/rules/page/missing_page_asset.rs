//! `missing-page-asset`: a custom page loads a file of the app that is not there.

use crate::app::{AppModel, Resource};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "missing-page-asset",
    severity: Severity::Error,
    area: Area::Page,
    summary: "config/iparams.html loads a script or style sheet that config/ does not hold",
    docs: r#"A custom page's own scripts live under config/assets/ and are loaded relative to the
page (`./assets/iparams.js`). A script that is not there loads nothing, so the functions it holds
(often `postConfigs` and `getConfigs`) are missing at installation; a path that leaves config/
(`../app/x.js`, `/assets/x.js`) is not served with the page at all. Scripts are JavaScript
files (`.js`, `.mjs`, `.cjs`; sources compiled in the browser, `.jsx` for Babel, are not
checked) and are errors. A style sheet (`<link rel="stylesheet" href="./assets/iparams.css">`)
that is not there is a warning: the page installs, unstyled."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><input id="region">
<script src="./assets/iparam.js"></script></body></html>
=== config/assets/iparams.js ===
function postConfigs() { return { region: region.value }; }
function getConfigs(configs) { region.value = configs.region; }
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><input id="region">
<script src="./assets/iparams.js"></script></body></html>
=== config/assets/iparams.js ===
function postConfigs() { return { region: region.value }; }
function getConfigs(configs) { region.value = configs.region; }
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
    let assets = model.config_assets;
    let scripts = page
        .loaded()
        .filter(|(src, _, _)| is_javascript(&src.value))
        .map(|(src, resource, _)| (Loaded::Script, src, resource.clone()));
    let sheets = page
        .html
        .stylesheets
        .iter()
        .map(|href| (Loaded::StyleSheet, href, Resource::of(&href.value)));
    let mut loaded: Vec<_> = scripts.chain(sheets).collect();
    loaded.sort_by_key(|(_, reference, _)| reference.span.start);
    for (what, reference, resource) in loaded {
        let shown = suggest::shortened(&reference.value);
        let (noun, severity) = match what {
            Loaded::Script => ("script", Severity::Error),
            // Without its styles the page still installs.
            Loaded::StyleSheet => ("style sheet", Severity::Warning),
        };
        let diagnostic = match &resource {
            Resource::Local(path) if assets.contains(path) => continue,
            Resource::Local(path) => {
                let help = match suggest::closest(path, assets.iter().map(String::as_str)) {
                    Some(meant) => format!("Did you mean `./{meant}`? config/ holds no `{path}`."),
                    None => format!(
                        "Add config/{path}, or correct the path: config/ holds no such file."
                    ),
                };
                cx.report(
                    page.file,
                    &RULE,
                    reference.span,
                    format!("The page loads the {noun} \"{shown}\", which is not in config/"),
                )
                .label("no such file")
                .help(help)
            }
            Resource::Elsewhere => {
                cx.report(page.file, &RULE, reference.span, format!("The page loads the {noun} \"{shown}\", outside config/"))
                    .label("not served with the page")
                    .help("Only config/ is served with the installation page: put the file under config/assets/ and load it as `./assets/…`.")
            }
            Resource::Remote { .. } | Resource::AppClient => continue,
        };
        diagnostic.severity = severity;
    }
}

/// What the page loads.
#[derive(Clone, Copy)]
enum Loaded {
    Script,
    StyleSheet,
}

/// A reference to a JavaScript file, by its extension (query and fragment aside).
fn is_javascript(reference: &str) -> bool {
    let path = reference.split(['?', '#']).next().unwrap_or_default();
    let lower = path.to_ascii_lowercase();
    [".js", ".mjs", ".cjs"]
        .iter()
        .any(|ext| lower.ends_with(ext))
}
