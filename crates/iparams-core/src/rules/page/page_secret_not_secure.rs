//! `page-secret-not-secure`: a custom page stores a value named or labelled as a secret without
//! listing it in `__meta.secure`.

use crate::app::html::FieldTextKind;
use crate::app::page_functions::{META, Stored};
use crate::app::{AppModel, Declared, InstallPage};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::secret_labels::named_secret;
use crate::secrets::{Sensitivity, key_sensitivity};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "page-secret-not-secure",
    severity: Severity::Warning,
    area: Area::Page,
    summary: "config/iparams.html stores a value named or labelled as a secret, not listed in `__meta.secure`",
    docs: r#"A custom page marks the values that are secret by listing their keys in the
`__meta.secure` array of the object `postConfigs` returns; every other value is stored in clear
and reaches the front end through `client.iparams.get()`. This is the page's counterpart of
`sensitive-key-not-secure` and `secret-label-not-secure`: a key returned by `postConfigs` is
reported when `__meta.secure` does not list it and its name ends with a word that names a
secret (`api_key`, `authToken`, `password2`, read as those rules read keys; other words after it,
as in `token_saved_at`, make a key about the secret), or the field its value is read from does: its
`<label>` (or the `label` of the vendor's components, `<fw-input label="Bot token">`) or its
placeholder ("Paste your API key"). A field bound to the account's API key
(`data-bind="product.api_key"`) is `api-key-not-secure`'s.

A `_meta` property (one underscore) is not `__meta`: the platform stores it as one more value and
secures nothing; it is reported once, and the keys it lists are not reported again. An entry
that joins keys in one string (`secure: ["a, b"]`) is `secure-key-not-stored`'s. Nothing is
reported while `__meta.secure` cannot be read whole (a list built at run time), nor for a key
that a misspelt entry of the list means (`apiKey` for `api_key`: `secure-key-not-stored`).

The help says what to write; `--fix` edits iparams.json only, so no fix is offered."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><label for="token">Slack bot token</label><input id="token">
<script>
function postConfigs() { return { __meta: { secure: [] }, slack_hook: document.getElementById("token").value }; }
function getConfigs(configs) {}
</script></body></html>
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><label for="token">Slack bot token</label><input id="token">
<script>
function postConfigs() { return { __meta: { secure: ["slack_hook"] }, slack_hook: document.getElementById("token").value }; }
function getConfigs(configs) {}
</script></body></html>
"#,
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

/// Why a stored value reads as a secret.
enum Named {
    /// Its key: the sensitive word.
    Key(&'static str),
    /// A text of its field, with the secret the text names.
    Field(FieldTextKind, String, String),
}

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let Some(page) = super::page(model) else {
        return;
    };
    let Some((file, stored)) = page.stored() else {
        return;
    };
    for (span, listed) in &stored.misspelt_meta {
        let stored_in_clear = match &listed[..] {
            [] => String::new(),
            keys => format!(
                " As it is, {} {} stored in clear.",
                suggest::quoted_list(keys.iter().map(String::as_str)),
                if keys.len() == 1 { "is" } else { "are" }
            ),
        };
        cx.report(
            file,
            &RULE,
            *span,
            format!("`postConfigs` returns `_meta`, which the platform stores as a value: the secure keys go in `{META}`"),
        )
        .label("one underscore")
        .help(format!("Rename it `{META}`.{stored_in_clear}"));
    }
    if !stored.secure_complete {
        return;
    }
    // Keys `__meta.secure` means but misses, which `secure-key-not-stored` reports, and the
    // keys of a `_meta`, reported above.
    let listed_elsewhere = |key: &str| {
        let mut misspelt = stored.misspelt_meta.iter().flat_map(|(_, keys)| keys);
        let mut joined = stored.joined_secure().flat_map(|(_, keys)| keys);
        let mut meant = stored.unreturned_secure().filter_map(|(_, _, meant)| meant);
        misspelt.any(|listed| listed == key)
            || joined.any(|listed| listed == key)
            || meant.any(|listed| listed == key)
    };
    for declared in &model.declared {
        if declared.secure || listed_elsewhere(&declared.key) {
            continue;
        }
        let Some(named) = named_as_secret(page, stored, declared) else {
            continue;
        };
        let key = &declared.key;
        let message = match &named {
            Named::Key(word) => format!(
                "`{key}` is named like a secret (\"{word}\"), but `{META}.secure` does not list it"
            ),
            Named::Field(kind, text, phrase) => {
                let what = match kind {
                    FieldTextKind::Label => "labelled",
                    FieldTextKind::Placeholder => "with the placeholder",
                };
                let text = suggest::shortened(text);
                format!(
                    "`{key}` is read from the field {what} \"{text}\" (\"{phrase}\"), but `{META}.secure` does not list it"
                )
            }
        };
        let add = match &stored.secure[..] {
            [] => {
                format!("`{META}: {{ secure: [\"{key}\"] }}` to the object `postConfigs` returns")
            }
            listed => {
                let mut keys: Vec<&str> = listed.iter().map(|(k, _)| k.as_str()).collect();
                keys.push(key);
                let keys = keys.iter().map(|k| format!("\"{k}\"")).collect::<Vec<_>>();
                format!(
                    "\"{key}\" to `{META}.secure`: `secure: [{}]`",
                    keys.join(", ")
                )
            }
        };
        cx.report(file, &RULE, declared.key_span, message)
            .label("stored in clear")
            .help(format!(
                "Add {add} if the value is a secret: as it is, the front end reads it with `client.iparams.get()`. If it is not, rename it."
            ));
    }
}

/// Why the value stored under `declared` reads as a secret: its key, else its field's label or
/// placeholder. A field bound to the account's API key is `api-key-not-secure`'s.
fn named_as_secret(page: &InstallPage, stored: &Stored, declared: &Declared) -> Option<Named> {
    // With no vendor's verdict on a page's keys, only a key that ends with the secret's name:
    // `trello_token_saved_at` is about a token, not one.
    if let Sensitivity::Word(word) = key_sensitivity(&declared.key)
        && declared
            .key
            .trim_end_matches(|c: char| !c.is_ascii_alphabetic())
            .to_ascii_lowercase()
            .ends_with(word)
    {
        return Some(Named::Key(word));
    }
    if declared.data_bind.as_deref() == Some("product.api_key") {
        return None;
    }
    let (_, id) = stored.fields.iter().find(|(key, _)| *key == declared.key)?;
    page.html
        .field_texts
        .iter()
        .filter(|text| text.id == *id)
        .find_map(|text| {
            let phrase = named_secret(&text.text)?;
            Some(Named::Field(text.kind, text.text.clone(), phrase))
        })
}
