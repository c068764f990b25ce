//! `missing-regex-message`: a pattern without the message shown when it fails.

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam, REGEX_ERROR_SUFFIX};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "missing-regex-message",
    severity: Severity::Error,
    area: Area::Regexes,
    summary: "A regex pattern has no `<name>-error` message",
    docs: r#"Each entry of `regex` pairs a pattern named `<name>` with the message `<name>-error`
that the installation page shows when the value does not match."#,
    bad: r#"{
  "code": {"display_name": "Code", "type": "text", "regex": {"code": "^[A-Z]{3}$"}}
}
"#,
    good: r#"{
  "code": {"display_name": "Code", "type": "text", "regex": {"code": "^[A-Z]{3}$", "code-error": "Three capital letters"}}
}
"#,
    examples: Examples::Iparams,
    vendor: "Rejects: `In the '<key>' field, error message is missing for '<name>'.`",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(regexes) = iparam.regexes() else {
        return;
    };
    for entry in regexes
        .patterns
        .iter()
        .filter(|entry| entry.message.is_none())
    {
        let name = &entry.name.text;
        cx.report(&RULE, entry.name.span, format!("Regex `{name}` of iparam `{}` has no error message", iparam.key.text))
            .label(format!("no `{name}{REGEX_ERROR_SUFFIX}`"))
            .help(format!("Add `\"{name}{REGEX_ERROR_SUFFIX}\": \"...\"`, the message shown when the value does not match."))
            .pointer(iparam.pointer_to(&[Attribute::Regex.name(), name]));
    }
}
