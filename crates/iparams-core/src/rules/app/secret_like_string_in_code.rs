//! `secret-like-string-in-code`: a string that looks like a key, given to a name meaning a
//! secret in the app's code.

use crate::app::{AppModel, Authored, CodeSecretKind};
use crate::diagnostic::Severity;
use crate::rules::app::written_in_code::secrets_in_code;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "secret-like-string-in-code",
    severity: Severity::Warning,
    area: Area::Secrets,
    summary: "The app's code gives a key-like string to a name meaning a secret (`apiKey = \"…\"`)",
    docs: r#"Many services' keys are random strings of no known format, which
`credential-in-code` cannot tell from other strings. Given to a variable, property or object key
whose name means a secret (`apiKey`, `API_TOKEN`, `client_secret`, `password`; not `authType` or
`tokenUrl`, which describe one), a string of 16 or more characters of a key's alphabet that mixes
letters and digits with a high entropy is most likely one: the code is committed and shipped in
the app package. No one can tell from the text alone, hence a warning.

Placeholders (`YOUR_API_KEY`, `xxxx…`, `example-…`), URLs, paths and words run together are not
reported, nor minified or bundled files (lines of 300 bytes on average), whose names are not the
author's, nor third-party files (see `credential-in-code`). If it is a key, revoke it and let
installers enter it in a secure iparam. The string is masked in every output of this tool."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{}
=== server/server.js ===
const SHIPPING_API_KEY = "Hx4Tb9WcQ2nR7yLp3VsK";
exports = { onAppInstallHandler: function () { renderData(null, { key: SHIPPING_API_KEY }); } };
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "shipping_api_key": {"display_name": "Shipping API key", "type": "text", "secure": true}
}
=== server/server.js ===
exports = { onAppInstallHandler: function (args) { renderData(null, { key: args.iparams.shipping_api_key }); } };
"#,
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let secrets: Vec<_> = secrets_in_code(model).collect();
    for &(file, written, secret) in &secrets {
        let CodeSecretKind::Named(name) = &secret.kind else {
            continue;
        };
        // A credential of a known format is `credential-in-code`'s, as an error.
        let known = secrets.iter().any(|(other, _, found)| {
            *other == file
                && found.span == secret.span
                && matches!(found.kind, CodeSecretKind::Credential(_))
        });
        if written != Authored::Own || known {
            continue;
        }
        let name = suggest::shortened(name);
        cx.report(
            file,
            &RULE,
            secret.span,
            format!(
                "`{name}` is given a string that looks like a key (committed and shipped with the app)"
            ),
        )
        .label("key-like string (masked)")
        .help(
            "If it is a key, revoke it: everyone who has the app package can read it. Then let \
             installers enter it in a secure iparam, and use it through a request template \
             (`<%= iparam.api_key %>`) or serverless code (`args.iparams.api_key`).",
        );
    }
}
