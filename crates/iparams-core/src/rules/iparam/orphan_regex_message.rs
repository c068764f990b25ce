//! `orphan-regex-message`: a `<name>-error` message with no `<name>` pattern.

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam, REGEX_ERROR_SUFFIX};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "orphan-regex-message",
    severity: Severity::Warning,
    area: Area::Regexes,
    summary: "A `<name>-error` message has no `<name>` pattern",
    docs: r#"A message is shown when its pattern fails; with no pattern of that name it is never
shown. Usually the pattern's name and the message's name differ by a typo."#,
    bad: r#"{
  "code": {"display_name": "Code", "type": "text", "regex": {"code": "^[A-Z]{3}$", "code-error": "Three capital letters", "cod-error": "Too long"}}
}
"#,
    good: r#"{
  "code": {"display_name": "Code", "type": "text", "regex": {"code": "^[A-Z]{3}$", "code-error": "Three capital letters"}}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(regexes) = iparam.regexes() else {
        return;
    };
    for message in &regexes.orphan_messages {
        let key = &message.key.text;
        let name = key.strip_suffix(REGEX_ERROR_SUFFIX).unwrap_or(key);
        let near = suggest::closest(name, regexes.patterns.iter().map(|p| p.name.text.as_ref()));
        let paired = |pattern: &str| {
            regexes
                .patterns
                .iter()
                .any(|p| p.name.text == pattern && p.message.is_some())
        };
        let help = match near {
            Some(pattern) if paired(pattern) => {
                format!(
                    "The pattern `{pattern}` already has its message `{pattern}{REGEX_ERROR_SUFFIX}`; remove this one."
                )
            }
            Some(pattern) => format!(
                "Did you mean `{pattern}{REGEX_ERROR_SUFFIX}`, for the pattern `{pattern}`?"
            ),
            None => format!("There is no pattern `{name}`; remove the message or add the pattern."),
        };
        cx.report(
            &RULE,
            message.key.span,
            format!(
                "Message `{key}` of iparam `{}` belongs to no pattern",
                iparam.key.text
            ),
        )
        .label("never shown")
        .help(help)
        .pointer(iparam.pointer_to(&[Attribute::Regex.name(), key]));
    }
}
