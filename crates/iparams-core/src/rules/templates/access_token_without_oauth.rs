//! `access-token-without-oauth`: `<%= access_token %>` in a template that does not use OAuth.

use crate::app::{AppModel, Reference};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::templates::request_templates;
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "access-token-without-oauth",
    severity: Severity::Error,
    area: Area::Templates,
    summary: "A request template uses `<%= access_token %>` without `options.isOAuth` or `options.oauth`",
    docs: r#"`<%= access_token %>` is the token of the app's OAuth integration
(config/oauth_config.json). The platform fills it only for templates that ask for it:
`"options": {"isOAuth": true}` on platform 2.3, `"options": {"oauth": "<integration>"}` on 3.x.
Without that option the header is sent with the placeholder unfilled and the service answers 401."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getFiles": {}}}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{"getFiles": {"schema": {"method": "GET", "host": "www.googleapis.com", "path": "/drive/v3/files", "headers": {"Authorization": "Bearer <%= access_token %>"}}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("getFiles", {});
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getFiles": {}}}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{"getFiles": {"schema": {"method": "GET", "host": "www.googleapis.com", "path": "/drive/v3/files", "headers": {"Authorization": "Bearer <%= access_token %>"}}, "options": {"isOAuth": true}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("getFiles", {});
"#,
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (file, template) in request_templates(model) {
        let oauth = template.option_fields().any(|(name, field)| match name {
            "isOAuth" => model.text(file).get(field.span.start..field.span.end) == Some("true"),
            "oauth" => true,
            _ => false,
        });
        if oauth {
            continue;
        }
        let name = suggest::shortened(&template.name);
        for placeholder in &template.placeholders {
            for (_, span) in placeholder
                .references()
                .filter(|(reference, _)| *reference == Reference::AccessToken)
            {
                cx.report(
                    file,
                    &RULE,
                    span,
                    format!("Template `{name}` uses `access_token` but does not ask for OAuth"),
                )
                .label("never filled")
                .help("Add `\"options\": {\"isOAuth\": true}` to the template (platform 2.3), or `\"options\": {\"oauth\": \"<integration>\"}` naming an integration of config/oauth_config.json (3.x).")
                .pointer(placeholder.pointer());
            }
        }
    }
}
