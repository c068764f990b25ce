//! `high-entropy-string`: a long random token, of no known format, in a definition.

use crate::diagnostic::Severity;
use crate::model::Iparam;
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::iparam::random_tokens;

pub static RULE: Rule = Rule {
    name: "high-entropy-string",
    severity: Severity::Warning,
    area: Area::Secrets,
    summary: "A string holds a long run of random hex digits, as some keys and secrets are",
    docs: r#"Many services' keys, signing secrets and webhook tokens are plain random strings of
no known format. A run of at least 32 characters that mixes lower case, upper case and digits with
a high entropy is one for certain, and `hardcoded-credential` reports it as an error. A run of 32 or
more hex digits (letters and digits, in one case) is how such keys look too, but also how hashes,
commit ids and some identifiers look: this rule reports those, in every string of a definition but
its `regex` patterns, as a warning, since no one can tell from the text alone.

URLs, UUIDs, paths and words run together are not reported. If the value is a secret, remove it and
revoke it; if it is an example, replace it with an obvious placeholder. The token is masked in every
output of this tool (the whole string when it is all token)."#,
    bad: r#"{
  "signing_secret": {"display_name": "Signing secret", "type": "text", "secure": true, "description": "For example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}
}
"#,
    good: r#"{
  "signing_secret": {"display_name": "Signing secret", "type": "text", "secure": true, "description": "The 64 hex digits under Settings, Signing"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    for token in random_tokens(iparam, cx, false) {
        cx.report(
            &RULE,
            token.span,
            format!(
                "Iparam `{}` holds what looks like a random hex token{}",
                iparam.key.text, token.place
            ),
        )
        .label("random token (masked)")
        .help(
            "A run of 32 or more hex digits is how many API keys and signing secrets look, and \
             how hashes and identifiers look too. If it is a secret, remove it and revoke it: \
             this file is committed and shipped in the app package. If it is an example, write \
             an obvious placeholder instead.",
        )
        .pointer(token.pointer);
    }
}
