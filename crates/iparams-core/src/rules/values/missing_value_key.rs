//! `missing-value-key`: a values file without a key the custom installation page stores.

use crate::diagnostic::Severity;
use crate::pointer;
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::span::Span;
use crate::values::{ValuesFile, last_values};

pub static RULE: Rule = Rule {
    name: "missing-value-key",
    severity: Severity::Warning,
    area: Area::Values,
    summary: "A values file lacks a key that the app's custom installation page stores",
    docs: r#"An app with a custom installation page (config/iparams.html) stores at INSTALL every
key of the object its `postConfigs()` returns, empty or not: its installed values always have them
all (a key given only in a branch, `if (token) config.token = token;`, is not expected). A values
file without one of them is not what an installation stores (the page's key was
renamed, or the file was written by hand), and code that reads the key gets `undefined`. For apps
with iparams.json, missing values are the business of `value-required`, since an optional iparam
may be left out."#,
    bad: r#"{
  "region": "eu"
}
"#,
    good: r#"{
  "region": "eu",
  "api_key": "k-123"
}
"#,
    examples: Examples::Values {
        definitions: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<script src="{{{appclient}}}"></script>
<input id="region"><input id="key" type="password">
<script>
function postConfigs() {
  return { __meta: { secure: ["api_key"] }, region: region.value, api_key: key.value };
}
function getConfigs(configs) { region.value = configs.region; }
</script>
"#,
        good_definitions: None,
    },
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::Values(check)],
};

fn check(values: &ValuesFile<'_>, cx: &mut Context<'_>) {
    let Ok(iparams) = values.iparams else {
        return;
    };
    let given = last_values(values.members);
    let brace = Span::new(values.object.span.start, values.object.span.start + 1);
    for iparam in iparams {
        let key = iparam.key();
        if given.contains_key(key) || !values.definitions.always_stored(key) {
            continue;
        }
        cx.report(&RULE, brace, format!("The values have no `{key}`, which the installation page always stores"))
            .label("a key missing")
            .help(format!(
                "`postConfigs` returns `{key}` ({}), so every installation stores it: add it, or rename the key the values give it under.",
                iparam.defined_at(values.definitions)
            ))
            .pointer(pointer::of_key(key));
    }
}
