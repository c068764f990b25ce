//! `credential-in-code`: a credential of a known format committed in the app's code.

use crate::app::{AppModel, CodeSecretKind};
use crate::diagnostic::Severity;
use crate::rules::app::written_in_code::{place, secrets_in_code};
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "credential-in-code",
    severity: Severity::Error,
    area: Area::Secrets,
    summary: "The app's code writes out a credential of a known format",
    docs: r#"The app's code (`app/`, `server/`, `config/assets/`, the inline scripts of its
pages) is committed and shipped in the app package: a key written in it is readable by everyone
who has the app, and the same for every account that installs it. Every string literal, literal
part of a template literal and comment is searched for the formats `hardcoded-credential` knows
(AWS, GitHub, Slack, Stripe, Google, OpenAI, Anthropic, Groq, SendGrid and Twilio keys, JSON Web
Tokens, private keys, passwords in URLs, `Basic` values that decode to a `user:password` pair),
and for a scheme followed by a key: `Bearer 8f3Kq2LmN5vX1tK9`, `Token token=…`. A placeholder
(`Bearer YOUR_TOKEN`, `xxxx…`) is not reported.

Revoke the credential: removing it from the code leaves it in the history and in every package
already shipped. Then let installers enter it in a secure iparam, used through a request template
(`<%= iparam.api_key %>`) or serverless code (`args.iparams.api_key`). Files of a third party (a
`.min.` file name, or a folder named `vendor`, `vendors`, `third_party`, `third-party` or
`bower_components`) are not searched. The credential is masked in every output of this tool (a
comment that holds one, whole)."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{}
=== server/server.js ===
exports = {
  onTicketCreateHandler: async function () {
    const aws = { accessKeyId: "AKIAIOSFODNN7EXAMPLE" };
    return aws;
  }
};
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "aws_access_key": {"display_name": "AWS access key", "type": "text", "secure": true}
}
=== server/server.js ===
exports = {
  onTicketCreateHandler: async function (args) {
    const aws = { accessKeyId: args.iparams.aws_access_key };
    return aws;
  }
};
"#,
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (file, _, secret) in secrets_in_code(model) {
        let CodeSecretKind::Credential(kind) = secret.kind else {
            continue;
        };
        cx.report(
            file,
            &RULE,
            secret.span,
            format!(
                "{} holds what looks like {kind} (committed and shipped with the app)",
                capitalized(place(secret))
            ),
        )
        .label("credential (masked)")
        .help(
            "Revoke it: everyone who has the app package can read it. Then let installers enter \
             it in a secure iparam, and use it through a request template \
             (`<%= iparam.api_key %>`) or serverless code (`args.iparams.api_key`).",
        );
    }
}

fn capitalized(place: &str) -> String {
    let mut chars = place.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
