//! `regex-not-supported`: a regex on a type whose value it cannot check.

use std::borrow::Cow;

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam, IparamType};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::{capitalise, subject};

pub static RULE: Rule = Rule {
    name: "regex-not-supported",
    severity: Severity::Error,
    area: Area::Regexes,
    summary: "`regex` on a type other than text, email, phone_number or url",
    docs: r#"The vendor's validator accepts a `regex` only on `text`, `email`, `phone_number` and
`url` iparams. Its own documentation sample puts one on a `number` iparam, and that sample fails
`fdk validate`. To check another type's value, use a `change` event and return an error message from
its callback."#,
    bad: r#"{
  "age": {"display_name": "Age", "type": "number", "regex": {"age": "^[1-9][0-9]$", "age-error": "10 to 99"}}
}
"#,
    good: r#"{
  "age": {"display_name": "Age", "type": "text", "regex": {"age": "^[1-9][0-9]$", "age-error": "10 to 99"}}
}
"#,
    examples: Examples::Iparams,
    vendor: "Rejects: `Regex for <type> type is not supported.`",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(ty) = iparam.known_type().filter(|ty| !ty.accepts_regex()) else {
        return;
    };
    let Some(member) = iparam.get(Attribute::Regex) else {
        return;
    };
    const HELP: &str = "Only text, email, phone_number and url iparams take a `regex`; to check this \
                        value, add a `change` event whose callback returns an error message.";
    let help = if ty == IparamType::Number {
        Cow::Owned(format!(
            "{HELP} (The vendor's documentation sample puts a regex on a number iparam; `fdk validate` rejects that sample too.)"
        ))
    } else {
        Cow::Borrowed(HELP)
    };
    cx.report(
        &RULE,
        member.key.span,
        format!("{} cannot have a `regex`", capitalise(&subject(iparam))),
    )
    .label(format!("not supported on {}", ty.name()))
    .help(help)
    .pointer(iparam.pointer_of(Attribute::Regex));
}
