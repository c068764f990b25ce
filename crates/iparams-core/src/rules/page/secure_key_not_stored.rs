//! `secure-key-not-stored`: `__meta.secure` names a key `postConfigs` does not return.

use crate::app::AppModel;
use crate::diagnostic::Severity;
use crate::edits::json_string;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::span::Span;
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "secure-key-not-stored",
    severity: Severity::Error,
    area: Area::Page,
    summary: "`__meta.secure` lists a key that `postConfigs` does not return",
    docs: r#"A custom page marks the iparams whose values are secret by listing their keys in the
`__meta.secure` array of the object `postConfigs` returns. A key listed there that the object does
not have protects nothing, and the value meant to be secure (often the same key spelled another
way: `apiKey` for `api_key`) is stored as an ordinary one, readable by the front end with
`client.iparams.get`. One string that joins several keys (`secure: ["api_key, token"]`) secures
none of them: the platform looks for one key named `api_key, token`; the help gives the list
split into one string per key. Checked when every key `postConfigs` returns can be read."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><input id="key" type="password">
<script>
function postConfigs() { return { __meta: { secure: ["apiKey"] }, api_key: key.value }; }
function getConfigs(configs) {}
</script></body></html>
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><input id="key" type="password">
<script>
function postConfigs() { return { __meta: { secure: ["api_key"] }, api_key: key.value }; }
function getConfigs(configs) {}
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
    let Some((file, stored)) = page.stored().filter(|(_, stored)| stored.complete) else {
        return;
    };
    let keys = || stored.keys.iter().map(|(key, _)| key.as_str());
    let returned = if stored.keys.is_empty() {
        "no key".to_owned()
    } else {
        suggest::quoted_list(keys())
    };
    for (span, joined) in stored.joined_secure() {
        let written = model
            .text(file)
            .get(span.start..span.end)
            .unwrap_or_default();
        // In the entry's own quotes, when the key needs no escaping in them.
        let quoted = |key: &str| match written.chars().next() {
            Some(quote @ ('\'' | '`')) if !key.contains([quote, '\\', '$']) => {
                format!("{quote}{key}{quote}")
            }
            _ => json_string(key),
        };
        let split = joined
            .iter()
            .map(|key| quoted(key))
            .collect::<Vec<_>>()
            .join(", ");
        cx.report(
            file,
            &RULE,
            span,
            format!(
                "`__meta.secure` lists {} in one string: the platform looks for one key named {}",
                suggest::quoted_list(joined.iter().copied()),
                suggest::shortened(written),
            ),
        )
        .label("one string, several keys")
        .help(format!(
            "Split it: each key is a string of its own ({split}), or none of them is secure."
        ));
    }
    let joined: Vec<Span> = stored.joined_secure().map(|(span, _)| span).collect();
    for (secure, span, meant) in stored.unreturned_secure() {
        if joined.contains(&span) {
            continue;
        }
        let help = match meant {
            Some(meant) => format!(
                "Did you mean \"{meant}\"? As it is, `{meant}` is stored as an ordinary value. The object returns {returned}."
            ),
            None => {
                format!("List the keys of the object that hold secrets; it returns {returned}.")
            }
        };
        cx.report(
            file,
            &RULE,
            span,
            format!("`__meta.secure` lists \"{secure}\", which `postConfigs` does not return"),
        )
        .label("no such key in the returned object")
        .help(help);
    }
}
