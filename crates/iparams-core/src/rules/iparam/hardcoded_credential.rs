//! `hardcoded-credential`: a real-looking credential anywhere in a definition.

use crate::diagnostic::Severity;
use crate::model::Iparam;
use crate::pointer;
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::iparam::random_tokens;

pub static RULE: Rule = Rule {
    name: "hardcoded-credential",
    severity: Severity::Error,
    area: Area::Secrets,
    summary: "A string has the shape of a real credential, or is a long random token",
    docs: r#"Strings shaped like real credentials (AWS access keys, GitHub, Slack, Stripe,
Google, OpenAI, Anthropic, Groq, SendGrid and Twilio keys, JSON Web Tokens, private keys, bearer
tokens, `Basic` values whose base64 (padded or not) decodes to a `user:password` pair, passwords in
URLs), and long random tokens of no known format (a run of 32 or more characters
that mixes lower case, upper case and digits with a high entropy, as keys, secrets and webhook tokens
are), have no place in iparams.json, whatever attribute holds them: the file is committed and shipped
in the app package. Remove the credential and revoke it. A token given as an example in a
description is reported too: a real token often ends up there, and no one can tell from the text;
write an obvious placeholder such as `123456789:ABCdef...` instead. A token in a URL's query
(`?token=…`) is looked for; its host and path, which hold names and hashes, are not. Runs of hex digits, which hashes
share with keys, are `high-entropy-string`'s. The credential is masked in every output of this
tool."#,
    bad: r#"{
  "repo": {"display_name": "Repository", "type": "url", "default_value": "https://bot:s3cr3t-pass@git.example.com/app"}
}
"#,
    good: r#"{
  "repo": {"display_name": "Repository", "type": "url", "default_value": "https://git.example.com/app"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    for hit in &iparam.credentials {
        let mut path = iparam.pointer();
        for segment in iparam.value.path_to(hit.span) {
            pointer::push(&mut path, &segment);
        }
        cx.report(&RULE, hit.span, format!("Iparam `{}` contains what looks like {}", iparam.key.text, hit.kind))
            .label("credential (masked)")
            .help("Remove it and revoke it: this file is committed and shipped in the app package. Let installers enter credentials in a secure iparam.")
            .pointer(path);
    }
    for token in random_tokens(iparam, cx, true) {
        cx.report(&RULE, token.span, format!("Iparam `{}` contains what looks like a secret token{}", iparam.key.text, token.place))
            .label("random token (masked)")
            .help("A run of 32 or more random characters that mixes cases and digits is how keys and secrets look. Remove it and revoke it: this file is committed and shipped in the app package. If it is an example, write an obvious placeholder instead.")
            .pointer(token.pointer);
    }
}
