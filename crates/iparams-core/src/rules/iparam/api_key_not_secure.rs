//! `api-key-not-secure`: an api_key that the front end can read.

use crate::diagnostic::{Applicability, Severity};
use crate::model::{Iparam, IparamType};
use crate::rules::helpers::mark_secure;
use crate::rules::{Area, Check, Context, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "api-key-not-secure",
    severity: Severity::Warning,
    area: Area::Secrets,
    summary: r#"An `api_key` iparam is not marked `"secure": true`"#,
    docs: r#"The format says to use `api_key` with `secure` true. A value that is not secure is
handed to the app's front end by `client.iparams.get()`, where anyone using the app can read it in
the browser; a secure one is only usable through the request method, on the server side. The fix
(unsafe: the app's code must then use the request method) sets `"secure": true`."#,
    bad: r#"{
  "hr_key": {"display_name": "HR API key", "type": "api_key", "type_attributes": {"product": "freshteam"}}
}
"#,
    good: r#"{
  "hr_key": {"display_name": "HR API key", "type": "api_key", "secure": true, "type_attributes": {"product": "freshteam"}}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Warns only when the key's name contains auth, token, key or secret: `iparam
'<key>' appears to be a secure param but it isn't marked as secure.`"#,
    fix: Some(Applicability::Unsafe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    if iparam.known_type() != Some(IparamType::ApiKey) || iparam.is_secure() {
        return;
    }
    let key = &iparam.key.text;
    let mut help = "Add `\"secure\": true`: otherwise `client.iparams.get()` hands the key to the browser, where anyone \
                    using the app can read it. A secure iparam is used through the request method."
        .to_owned();
    if iparam.vendor_warns {
        help.push_str(&format!(" `fdk validate` warns too: \"iparam '{key}' appears to be a secure param but it isn't marked as secure.\""));
    }
    let fix = mark_secure(cx, iparam);
    let diagnostic = cx
        .report(
            &RULE,
            iparam.key.span,
            format!("API key `{key}` is not marked secure"),
        )
        .label("readable by the front end")
        .help(help)
        .pointer(iparam.pointer());
    if let Some(fix) = fix {
        diagnostic.fix(fix);
    }
}
