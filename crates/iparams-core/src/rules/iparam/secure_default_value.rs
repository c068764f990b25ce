//! `secure-default-value`: a secret committed to the repository.

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam, walk_scalars};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::syntax::ValueKind;

pub static RULE: Rule = Rule {
    name: "secure-default-value",
    severity: Severity::Warning,
    area: Area::Secrets,
    summary: "A secure iparam has a `default_value`",
    docs: r#"A secure iparam holds a secret, and a default for it is a secret written into the
app: it sits in version control and ships in the app package to every installation. Leave it empty
and let each installer enter their own. A default of any JSON type counts (a PIN written as a
number, `true`, a list); `null`, `""`, `[]` and `false` (an unticked checkbox) do not. The value is
never shown in any output of this tool."#,
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
    // A PIN written as a number, a flag or a list is as much a secret as a string: only
    // nothing (`null`, `""`, `[]`, and `false`, a checkbox left unticked) is no secret.
    let mut holds_value = false;
    walk_scalars(&member.value, &mut |value| {
        holds_value |= match &value.kind {
            ValueKind::Null | ValueKind::Bool(false) => false,
            ValueKind::String(text) => !text.is_empty(),
            _ => true,
        }
    });
    if !holds_value {
        return;
    }
    cx.report(&RULE, member.value.span, format!("Secure iparam `{}` has a default value", iparam.key.text))
        .label("a secret in the repository")
        .help("Remove the default: it ships in the app package and sits in version control. Each installer should enter their own value.")
        .pointer(iparam.pointer_of(Attribute::DefaultValue));
}
