//! `secret-label-not-secure`: an iparam whose label says it holds a secret, not secure.

use crate::diagnostic::{Applicability, Severity};
use crate::model::{Attribute, Iparam, Text};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::mark_secure;
use crate::rules::iparam::can_hold_secret;
use crate::secret_labels::named_secret;

pub static RULE: Rule = Rule {
    name: "secret-label-not-secure",
    severity: Severity::Warning,
    area: Area::Secrets,
    summary: r#"A text iparam labelled as a secret ("Slack bot token", "Crypt Key") is not secure"#,
    docs: r#"`sensitive-key-not-secure` reads the key, as the vendor does; many secrets hide
behind keys that do not say so (`slack_hook` labelled "Slack bot token", `d4sign_crypt` labelled
"Crypt Key"). This rule reads what the installer reads: when the `display_name`, or the first clause
of the `description`, names a secret (an API key, a token, a password or passphrase, a secret, a
private, secret, access, crypt, encryption or signing key, or the key of an API named with words
between: "API Freshdesk key", "key to your Zendesk API") on a `text` or `paragraph` iparam that is
not secure, the value reaches the front end through `client.iparams.get()`.

A word that describes the secret rather than holding it is not reported ("Token expiry in days",
"OAuth token URL"), nor is a key of another kind ("Primary key column", "Sort key of the API",
"API publishable key"), the key of something that is not secret ("API domain key", "API region
key", "API account ID key"), or two things named together ("API URL and key"), nor are types
that cannot hold one (a dropdown choosing an authentication type, a checkbox), nor keys that
`sensitive-key-not-secure` already reports. As the vendor exempts keys that contain `api_domain`,
a label that says "API domain" is never read as a secret. The fix (unsafe) sets
`"secure": true`."#,
    bad: r#"{
  "slack_hook": {"display_name": "Slack bot token", "type": "text", "required": true}
}
"#,
    good: r#"{
  "slack_hook": {"display_name": "Slack bot token", "type": "text", "required": true, "secure": true}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Not checked: `fdk validate` reads only the key (`auth`, `token`, `key`, `secret`),
never the label or the description."#,
    fix: Some(Applicability::Unsafe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    if iparam.is_secure()
        || !iparam.is_object()
        || !can_hold_secret(iparam.known_type())
        || iparam.sensitivity.is_word()
    {
        return;
    }
    let label = |attribute: Attribute, first_clause: bool| {
        let text = iparam.string(attribute)?;
        let read = if first_clause {
            // Bytes, not chars: the marks are ASCII, and this runs on every description.
            let end = text
                .text
                .bytes()
                .position(|b| matches!(b, b',' | b'.' | b';' | b'(' | b':' | b'!' | b'?'))
                .unwrap_or(text.text.len());
            &text.text[..end]
        } else {
            text.text
        };
        named_secret(read).map(|phrase| (attribute, text, phrase))
    };
    let Some((attribute, text, phrase)) =
        label(Attribute::DisplayName, false).or_else(|| label(Attribute::Description, true))
    else {
        return;
    };
    let fix = mark_secure(cx, iparam);
    let where_ = match attribute {
        Attribute::DisplayName => "label",
        _ => "description",
    };
    let diagnostic = report(cx, iparam, text, where_, &phrase);
    if let Some(fix) = fix {
        diagnostic.fix(fix);
    }
}

fn report<'c>(
    cx: &'c mut Context<'_>,
    iparam: &Iparam<'_, '_>,
    text: Text<'_>,
    where_: &str,
    phrase: &str,
) -> &'c mut crate::diagnostic::Diagnostic {
    let key = &iparam.key.text;
    cx.report(
        &RULE,
        text.span,
        format!("The {where_} of `{key}` says it holds a secret (\"{phrase}\"), but it is not marked secure"),
    )
    .label("names a secret")
    .help(format!(
        "`fdk validate` does not check this: it reads only the key, and `{key}` does not look \
         secret to it. Without `\"secure\": true` the value reaches the front end through \
         `client.iparams.get()`. Add it if the value is a secret; if not, reword the {where_}."
    ))
    .pointer(iparam.pointer())
}
