//! `unused-iparam`: an iparam that no code of the app reads.

use std::collections::HashSet;

use crate::app::AppModel;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "unused-iparam",
    severity: Severity::Info,
    area: Area::App,
    summary: "An iparam that the app never reads",
    docs: r#"Every installer fills every field of the installation page, so a field the app never
reads is work for nothing. Reads are `client.iparams.get("key")` in the front end,
`args.iparams.key` in serverless code, `<%= iparam.key %>` in request templates and in the strings
given to the request API of platforms before 2.3 (`client.request.get(url, options)`,
`$request.post(…)`, written in the call or in a variable it is given), and `utils.get`/`utils.set` in the installation page's scripts (every
JavaScript or TypeScript file of config/assets/). When some code reads iparams without naming
which (`client.iparams.get()`), when some code does not parse, or when the app has no code to read
them, nothing is reported."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text"},
  "legacy_zone": {"display_name": "Zone", "type": "text"}
}
=== app/scripts/app.js ===
client.iparams.get("region").then(show);
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text"}
}
=== app/scripts/app.js ===
client.iparams.get("region").then(show);
"#,
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let Some(file) = model.iparams_file else {
        return;
    };
    let has_code = model.readers().next().is_some() || !model.templates.is_empty();
    // Code that does not parse may read anything.
    let unreadable = model
        .readers()
        .chain(model.install_page())
        .any(|(_, facts)| !facts.syntax_errors.is_empty());
    if !model.iparams_complete || !has_code || unreadable || model.reads_all() {
        return;
    }
    let mut read: HashSet<&str> = model
        .readers()
        .flat_map(|(_, facts)| facts.reads.iter().chain(&facts.request_reads))
        .map(|r| r.key.as_str())
        .collect();
    read.extend(
        model
            .templates
            .iter()
            .flat_map(|(_, reads)| reads.iter().map(|r| r.key.as_str())),
    );
    for (_, script) in model.install_page() {
        read.extend(
            script
                .utils_calls
                .iter()
                .filter_map(|call| call.key.as_ref().map(|(key, _)| key.as_str()))
                .chain(script.request_reads.iter().map(|r| r.key.as_str()))
                .chain(script.reads.iter().map(|r| r.key.as_str())),
        );
    }
    for declared in model
        .declared
        .iter()
        .filter(|d| !read.contains(d.key.as_str()))
    {
        let key = &declared.key;
        cx.report(file, &RULE, declared.key_span, format!("Iparam `{key}` is never read by the app"))
            .label("never read")
            .help(format!(
                "No `client.iparams.get(\"{key}\")`, `args.iparams.{key}`, `<%= iparam.{key} %>` or `utils.get(\"{key}\")` reads it: remove it, or read it where the app needs it."
            ))
            .pointer(declared.pointer());
    }
}
