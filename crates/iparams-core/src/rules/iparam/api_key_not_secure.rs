//! `api-key-not-secure`: an api_key that the front end can read.

use crate::app::AppModel;
use crate::diagnostic::{Applicability, Severity};
use crate::model::{Iparam, IparamType};
use crate::rules::framework::{AppContext, Area, Check, Context, Examples, Rule};
use crate::rules::helpers::mark_secure;

pub static RULE: Rule = Rule {
    name: "api-key-not-secure",
    severity: Severity::Warning,
    area: Area::Secrets,
    summary: r#"An `api_key` iparam is not marked `"secure": true`"#,
    docs: r#"The format says to use `api_key` with `secure` true. A value that is not secure is
handed to the app's front end by `client.iparams.get()`, where anyone using the app can read it in
the browser; a secure one is only usable through the request method, on the server side. The fix
(unsafe: the app's code must then use the request method) sets `"secure": true`.

On a custom installation page (config/iparams.html) the same holds for a key whose field the
platform fills with the account's API key (`data-bind="product.api_key"`, the value read with
`document.getElementById(…)` or the field's id): it belongs in `__meta.secure`."#,
    bad: r#"{
  "hr_key": {"display_name": "HR API key", "type": "api_key", "type_attributes": {"product": "freshteam"}}
}
"#,
    good: r#"{
  "hr_key": {"display_name": "HR API key", "type": "api_key", "secure": true, "type_attributes": {"product": "freshteam"}}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Warns only when the key's name contains auth, token, key or secret: `iparam
'<key>' appears to be a secure param but it isn't marked as secure.`"#,
    fix: Some(Applicability::Unsafe),
    checks: &[Check::Iparam(check), Check::App(check_page)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    if iparam.known_type() != Some(IparamType::ApiKey) || iparam.is_secure() {
        return;
    }
    let key = &iparam.key.text;
    let mut help = "Add `\"secure\": true`: otherwise `client.iparams.get()` hands the key to the browser, where anyone \
                    using the app can read it. A secure iparam is used through the request method."
        .to_owned();
    if iparam.vendor_warns {
        help.push_str(&format!(" `fdk validate` warns too: \"iparam '{key}' appears to be a secure param but it isn't marked as secure.\""));
    }
    let fix = mark_secure(cx, iparam);
    let diagnostic = cx
        .report(
            &RULE,
            iparam.key.span,
            format!("API key `{key}` is not marked secure"),
        )
        .label("readable by the front end")
        .help(help)
        .pointer(iparam.pointer());
    if let Some(fix) = fix {
        diagnostic.fix(fix);
    }
}

/// A custom page's key filled with the account's API key, and not listed as secure.
fn check_page(model: &AppModel<'_>, cx: &mut AppContext) {
    let (true, Some(file)) = (model.source.is_page(), model.iparams_file) else {
        return;
    };
    let api_keys = model
        .declared
        .iter()
        .filter(|d| !d.secure && d.data_bind.as_deref() == Some("product.api_key"));
    for declared in api_keys {
        let key = &declared.key;
        cx.report(file, &RULE, declared.key_span, format!("API key `{key}` is not listed in `__meta.secure`"))
            .label("readable by the front end")
            .help(format!(
                "Its field is filled with the account's API key (`data-bind=\"product.api_key\"`): list \"{key}\" in the `__meta.secure` array of the object `postConfigs` returns, or `client.iparams.get()` hands the key to the browser, where anyone using the app can read it."
            ));
    }
}

#[cfg(test)]
mod tests {
    use crate::app::{AppInput, example_files};
    use crate::engine::Linter;
    use crate::rules::RuleSettings;

    fn findings(secure: &str) -> Vec<String> {
        let app = format!(
            r#"=== manifest.json ===
{{"platform-version": "2.3", "product": {{"freshdesk": {{}}}}}}
=== config/iparams.html ===
<input id="key" data-bind="product.api_key"><input id="domain" data-bind="product.domain">
<script>
function postConfigs() {{
  return {{ __meta: {{ secure: [{secure}] }}, api_key: document.getElementById("key").value, domain: domain.value }};
}}
</script>
"#
        );
        let files = example_files(&app);
        let input = AppInput::from_example(&files).expect("an app");
        let checked = Linter::default()
            .check_app(&input, &RuleSettings::default())
            .files;
        checked
            .iter()
            .flat_map(|file| &file.report.diagnostics)
            .filter(|d| d.rule == "api-key-not-secure")
            .map(|d| d.message.clone())
            .collect()
    }

    #[test]
    fn a_custom_page_s_account_api_key_is_secure() {
        assert_eq!(
            findings(""),
            ["API key `api_key` is not listed in `__meta.secure`"]
        );
        assert!(findings(r#""api_key""#).is_empty());
    }
}
