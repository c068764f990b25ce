//! `unanchored-regex`: a pattern that accepts any value containing a match.

use crate::diagnostic::Severity;
use crate::ecma_regex::Compiled;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::iparam::compiled_patterns;

pub static RULE: Rule = Rule {
    name: "unanchored-regex",
    severity: Severity::Info,
    area: Area::Regexes,
    summary: "A regex pattern has neither `^` nor `$`, so it matches anywhere in the value",
    docs: r#"The installation page tests patterns with `RegExp.test`, which succeeds when the
pattern matches any part of the value: `[1-9][0-9]` accepts `abc42def`. When the whole value must
match, anchor the pattern: `^[1-9][0-9]$`."#,
    bad: r#"{
  "age": {"display_name": "Age", "type": "text", "regex": {"age": "[1-9][0-9]", "age-error": "10 to 99"}}
}
"#,
    good: r#"{
  "age": {"display_name": "Age", "type": "text", "regex": {"age": "^[1-9][0-9]$", "age-error": "10 to 99"}}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    for (entry, compiled) in compiled_patterns(iparam, cx) {
        let (Some(pattern), Compiled::Valid(_)) = (entry.pattern.as_str(), compiled) else {
            continue;
        };
        if pattern.is_empty()
            || pattern.starts_with('^')
            || (pattern.ends_with('$') && !pattern.ends_with("\\$"))
            || pattern.starts_with('/')
        {
            continue;
        }
        cx.report(&RULE, entry.pattern.span, format!("Regex `{}` of iparam `{}` matches anywhere in the value", entry.name.text, iparam.key.text))
            .label("no `^` or `$`")
            .help(format!(
                "`RegExp.test` accepts a value that merely contains a match. If the whole value must match, write \"{}\".",
                anchored(pattern)
            ))
            .pointer(iparam.pointer_to(&[Attribute::Regex.name(), &entry.name.text]));
    }
}

/// `^...$` around the pattern, grouping it when an alternation would otherwise bind the anchors
/// to its first and last branches only.
fn anchored(pattern: &str) -> String {
    if pattern.contains('|') {
        format!("^(?:{pattern})$")
    } else {
        format!("^{pattern}$")
    }
}
