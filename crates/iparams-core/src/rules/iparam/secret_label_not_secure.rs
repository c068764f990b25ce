//! `secret-label-not-secure`: an iparam whose label says it holds a secret, not secure.

use crate::diagnostic::{Applicability, Severity};
use crate::model::{Attribute, Iparam, Text};
use crate::rules::helpers::mark_secure;
use crate::rules::iparam::can_hold_secret;
use crate::rules::{Area, Check, Context, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "secret-label-not-secure",
    severity: Severity::Warning,
    area: Area::Secrets,
    summary: r#"A text iparam labelled as a secret ("Slack bot token", "Crypt Key") is not secure"#,
    docs: r#"`sensitive-key-not-secure` reads the key, as the vendor does; many secrets hide
behind keys that do not say so (`slack_hook` labelled "Slack bot token", `d4sign_crypt` labelled
"Crypt Key"). This rule reads what the installer reads: when the `display_name`, or the first clause
of the `description`, names a secret (an API key, a token, a password or passphrase, a secret, a
private, secret, access, crypt, encryption or signing key) on a `text` or `paragraph` iparam that is
not secure, the value reaches the front end through `client.iparams.get()`.

A word that describes the secret rather than holding it is not reported ("Token expiry in days",
"OAuth token URL"), nor are types that cannot hold one (a dropdown choosing an authentication type,
a checkbox), nor keys that `sensitive-key-not-secure` already reports. The fix (unsafe) sets
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

/// Phrases that name a secret, as words of a label (lower case; `-` and `_` read as spaces).
const SECRETS: [&[&str]; 18] = [
    &["api", "key"],
    &["api", "keys"],
    &["apikey"],
    &["token"],
    &["tokens"],
    &["password"],
    &["passwords"],
    &["passwd"],
    &["passphrase"],
    &["secret"],
    &["secrets"],
    &["private", "key"],
    &["secret", "key"],
    &["access", "key"],
    &["crypt", "key"],
    &["encryption", "key"],
    &["signing", "key"],
    &["senha"],
];

/// The phrases of [`SECRETS`] each first letter (an ASCII code) can begin, one bit each, in the
/// list's order.
const SECRET_HEADS: [u32; 128] = {
    assert!(SECRETS.len() <= 32, "a phrase for each bit of a u32");
    let mut heads = [0; 128];
    let mut index = 0;
    while index < SECRETS.len() {
        heads[SECRETS[index][0].as_bytes()[0] as usize] |= 1 << index;
        index += 1;
    }
    heads
};

/// Words that, right after a secret's name, make the label about the secret rather than the
/// secret itself: "Token expiry in days", "OAuth token URL".
const DESCRIPTORS: [&str; 22] = [
    "url",
    "uri",
    "endpoint",
    "expiry",
    "expiration",
    "expires",
    "expire",
    "ttl",
    "lifetime",
    "length",
    "type",
    "format",
    "header",
    "name",
    "field",
    "id",
    "validity",
    "duration",
    "refresh",
    "prefix",
    "location",
    "path",
];

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

/// The secret `text` names, as written in the phrase list, when it names one.
fn named_secret(text: &str) -> Option<String> {
    if text.is_ascii() {
        // Most labels: words split and compared byte by byte, without a lower-cased copy.
        let words = text
            .as_bytes()
            .split(|b| !b.is_ascii_alphanumeric())
            .filter(|word| !word.is_empty());
        return first_secret(words, <[u8]>::eq_ignore_ascii_case);
    }
    let lower = text.to_lowercase();
    let words = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::as_bytes);
    first_secret(words, |word, name| word == name)
}

/// The first of [`SECRETS`] that `words` name, unless a descriptor follows it; `same` tells
/// whether a word is a given (lower-case) word.
fn first_secret<'w>(
    words: impl Iterator<Item = &'w [u8]>,
    same: impl Fn(&[u8], &[u8]) -> bool,
) -> Option<String> {
    // The word at hand and the two after it: a phrase of up to two words, then a descriptor.
    let mut words = words.fuse();
    let mut window = [None, words.next(), words.next()];
    loop {
        window = [window[1], window[2], words.next()];
        let word = window[0]?;
        // Most words cannot begin a secret's name: their first letter says so, and it picks
        // the few phrases that might.
        let head = word[0].to_ascii_lowercase();
        let mut candidates = SECRET_HEADS.get(usize::from(head)).copied().unwrap_or(0);
        while candidates != 0 {
            let phrase = SECRETS[candidates.trailing_zeros() as usize];
            candidates &= candidates - 1;
            // Names of another length are passed over before any comparison.
            if phrase[0].len() != word.len() {
                continue;
            }
            let named = phrase
                .iter()
                .zip(&window)
                .all(|(name, word)| word.is_some_and(|word| same(word, name.as_bytes())));
            if !named {
                continue;
            }
            let described = window[phrase.len()].is_some_and(|next| {
                DESCRIPTORS
                    .iter()
                    .any(|descriptor| same(next, descriptor.as_bytes()))
            });
            if !described {
                return Some(phrase.join(" "));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::named_secret;

    #[test]
    fn secrets_named_and_described() {
        assert_eq!(named_secret("Slack bot token").as_deref(), Some("token"));
        assert_eq!(
            named_secret("Crypt Key (D4Sign)").as_deref(),
            Some("crypt key")
        );
        assert_eq!(named_secret("Groq API-Key").as_deref(), Some("api key"));
        assert_eq!(named_secret("Token expiry in days"), None);
        assert_eq!(named_secret("Dell OAuth Token URL"), None);
        assert_eq!(named_secret("Authentication type"), None);
        assert_eq!(named_secret("Keyboard shortcut"), None);
        assert_eq!(named_secret("Monkey"), None);
        assert_eq!(named_secret("API"), None);
        assert_eq!(named_secret("SECRET KEY").as_deref(), Some("secret"));
        assert_eq!(named_secret("Private KEY ID"), None);
        assert_eq!(
            named_secret("Private KEY for signing").as_deref(),
            Some("private key")
        );
        assert_eq!(named_secret("Signing key name"), None);
        assert_eq!(named_secret("Clé API, token"), Some("token".into()));
        assert_eq!(named_secret("Senha do usuário").as_deref(), Some("senha"));
    }
}
