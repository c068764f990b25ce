//! `high-entropy-string`: a long random token, of no known format, in a definition.

use crate::diagnostic::Severity;
use crate::model::Iparam;
use crate::pointer;
use crate::rules::{Area, Check, Context, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "high-entropy-string",
    severity: Severity::Warning,
    area: Area::Secrets,
    summary: "A string holds a long random token, as API keys and secrets are",
    docs: r#"`hardcoded-credential` knows the shapes of some providers' keys; many services'
keys, secrets and webhook tokens are plain random strings instead. This rule looks, in every string
of a definition but its `regex` patterns, for a run of at least 32 characters of base64 or base64url
that mixes lower case, upper case and digits with a high entropy, or of hex digits with letters and
digits: a token pasted into a `description`, a `data-bind`, a `default_value`, an option or a
`display_name` is committed and shipped in the app package.

URLs, UUIDs, paths and words run together (`enableAgentAsApprover2024`) are not reported. A token
given as an example in a description is still reported: a real token often ends up there, and no one
can tell from the text. Replace an example with an obvious placeholder such as
`123456789:ABCdef...`. The token is masked in every output of this tool (the whole string when it is
all token)."#,
    bad: r#"{
  "bot_token": {"display_name": "Bot token", "type": "text", "secure": true, "description": "For example 776622144:WqkVVjtLdnus3klphcUuAaGA8WCsEzU7F6m"}
}
"#,
    good: r#"{
  "bot_token": {"display_name": "Bot token", "type": "text", "secure": true, "description": "For example 123456789:ABCdefGhIJKlmNoPQRsTUVwxyZ"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    for &span in &iparam.random_tokens {
        let segments = iparam.value.path_to(span);
        let mut path = iparam.pointer();
        for segment in &segments {
            pointer::push(&mut path, segment);
        }
        // The attribute that holds it: `options`, not the option's index.
        let place = segments
            .first()
            .map_or_else(String::new, |attribute| format!(" (in `{attribute}`)"));
        cx.report(
            &RULE,
            span,
            format!(
                "Iparam `{}` holds what looks like a random token{place}",
                iparam.key.text
            ),
        )
        .label("random token (masked)")
        .help(
            "A run of 32 or more random characters is how API keys and secrets look. If it is \
             real, remove it and revoke it: this file is committed and shipped in the app \
             package. If it is an example, write an obvious placeholder instead.",
        )
        .pointer(path);
    }
}
