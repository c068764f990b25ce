//! `secure-default-value`: a secret committed to the repository.

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam};
use crate::rules::{Area, Check, Context, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "secure-default-value",
    severity: Severity::Warning,
    area: Area::Secrets,
    summary: "A secure iparam has a `default_value`",
    docs: r#"A secure iparam holds a secret, and a default for it is a secret written into the
app: it sits in version control and ships in the app package to every installation. Leave it empty
and let each installer enter their own. The value is never shown in any output of this tool."#,
    bad: r#"{
  "api_token": {"display_name": "API token", "type": "text", "secure": true, "default_value": "0123456789abcdef"}
}
"#,
    good: r#"{
  "api_token": {"display_name": "API token", "type": "text", "secure": true}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    if !iparam.is_secure() {
        return;
    }
    let Some(member) = iparam.get(Attribute::DefaultValue) else {
        return;
    };
    let mut holds_text = false;
    member
        .value
        .walk_strings(&mut |text, _| holds_text |= !text.is_empty());
    if !holds_text {
        return;
    }
    cx.report(&RULE, member.value.span, format!("Secure iparam `{}` has a default value", iparam.key.text))
        .label("a secret in the repository")
        .help("Remove the default: it ships in the app package and sits in version control. Each installer should enter their own value.")
        .pointer(iparam.pointer_of(Attribute::DefaultValue));
}
