//! `vendor-secure-false-positive`: explains a warning of the vendor's validator that is wrong.

use crate::diagnostic::Severity;
use crate::model::{Iparam, IparamType};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::subject;
use crate::rules::iparam::can_hold_secret;
use crate::secrets::Sensitivity;

pub static RULE: Rule = Rule {
    name: "vendor-secure-false-positive",
    severity: Severity::Info,
    area: Area::Secrets,
    summary: "`fdk validate` will warn that this iparam looks secure, though it does not",
    docs: r#"The vendor's validator warns about any key that contains `auth`, `token`, `key` or
`secret`, even inside another word (`monkey`, `author`, `keyword`), in names about a secret rather
than of one (`token_url`, `auth_type`), and on types that cannot hold a secret (a checkbox named
`use_api_key`). This note predicts the warning and explains it, so it can be ignored with
confidence. The warning does not fail validation."#,
    bad: r#"{
  "monkey_name": {"display_name": "Monkey's name", "type": "text"}
}
"#,
    good: r#"{
  "pet_name": {"display_name": "Monkey's name", "type": "text"}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Warns: `iparam '<key>' appears to be a secure param but it isn't marked as
secure.`"#,
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let ty = iparam.known_type();
    // api_key iparams have their own rule, which mentions the vendor's warning.
    if iparam.is_secure()
        || !iparam.is_object()
        || ty == Some(IparamType::ApiKey)
        || !iparam.vendor_warns
    {
        return;
    }
    let reason = match iparam.sensitivity {
        Sensitivity::Word(_) if can_hold_secret(ty) => return,
        Sensitivity::Word(word) => format!(
            "its name has \"{word}\", but a {} cannot hold a secret",
            ty.map_or("value", |t| t.name())
        ),
        Sensitivity::Describes { secret, descriptor } => {
            format!(
                "the name is about a credential's `{descriptor}`, not the credential itself (\"{secret}\" is followed by \"{descriptor}\")"
            )
        }
        Sensitivity::Substring(fragment) => {
            format!(
                "its name contains \"{fragment}\" inside another word; the vendor's check is a plain substring test"
            )
        }
        Sensitivity::None => return,
    };
    cx.report(&RULE, iparam.key.span, format!("`fdk validate` will warn that {} appears to be a secure param", subject(iparam)))
        .label("vendor false positive")
        .help(format!("The warning is a false positive: {reason}. It does not fail validation; no change is needed."))
        .pointer(iparam.pointer());
}
