//! `sensitive-key-not-secure`: a text iparam whose name says it holds a secret.

use crate::diagnostic::{Applicability, Severity};
use crate::model::Iparam;
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::mark_secure;
use crate::rules::iparam::can_hold_secret;
use crate::secrets::Sensitivity;

pub static RULE: Rule = Rule {
    name: "sensitive-key-not-secure",
    severity: Severity::Warning,
    area: Area::Secrets,
    summary: "A text iparam named like a secret (`api_key`, `authToken`, `password`) is not secure",
    docs: r#"The vendor's validator warns when an iparam's key contains `auth`, `token`, `key` or
`secret` and it is not secure. This rule predicts that warning, worded exactly as `fdk validate`
prints it, for keys where one of those is a whole word (`api_key`, `authToken`, `clientSecret`) on a
`text` or `paragraph` iparam, which can hold a secret. It also covers `password` and `credentials`,
which the vendor does not look for.

A fragment inside another word (`monkey`, `author`), or a type that cannot hold a secret (a
checkbox), is `vendor-secure-false-positive` instead. The fix (unsafe) sets `"secure": true`."#,
    bad: r#"{
  "authToken": {"display_name": "Auth token", "type": "text"}
}
"#,
    good: r#"{
  "authToken": {"display_name": "Auth token", "type": "text", "secure": true}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Warns: `iparam '<key>' appears to be a secure param but it isn't marked as
secure.` (any key containing auth, token, key or secret, except those containing api_domain)."#,
    fix: Some(Applicability::Unsafe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    if iparam.is_secure() || !iparam.is_object() || !can_hold_secret(iparam.known_type()) {
        return;
    }
    let key = &iparam.key.text;
    let Sensitivity::Word(word) = iparam.sensitivity else {
        return;
    };
    let vendor = if iparam.vendor_warns {
        format!(
            "`fdk validate` will warn: \"iparam '{key}' appears to be a secure param but it isn't marked as secure.\" "
        )
    } else {
        "`fdk validate` does not look for this word, but the value is still exposed. ".to_owned()
    };
    let help = format!(
        "{vendor}If it holds a secret, add `\"secure\": true` so the front end never receives it; if not, rename it."
    );
    let fix = mark_secure(cx, iparam);
    let diagnostic = cx
        .report(
            &RULE,
            iparam.key.span,
            format!("`{key}` is named like a secret (\"{word}\") but is not marked secure"),
        )
        .label("sensitive name")
        .help(help)
        .pointer(iparam.pointer());
    if let Some(fix) = fix {
        diagnostic.fix(fix);
    }
}
