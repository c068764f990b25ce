//! `default-fails-regex`: a default the iparam's own regex rejects.

use crate::diagnostic::Severity;
use crate::ecma_regex::MatchOutcome;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::subject;
use crate::rules::iparam::default_matches;

pub static RULE: Rule = Rule {
    name: "default-fails-regex",
    severity: Severity::Error,
    area: Area::Regexes,
    summary: "`default_value` does not match one of the iparam's regex patterns",
    docs: r#"The installation page checks the value against every pattern of `regex` and shows
the failing pattern's message, so a default that fails a pattern greets every installer with an
error. Patterns are applied as JavaScript's `RegExp.test` does: anywhere in the value unless
anchored with `^` and `$`. Matching is bounded in time (see `regex-timeout`)."#,
    bad: r#"{
  "code": {"display_name": "Code", "type": "text", "default_value": "ab", "regex": {"code": "^[A-Z]{3}$", "code-error": "Three capital letters"}}
}
"#,
    good: r#"{
  "code": {"display_name": "Code", "type": "text", "default_value": "ABC", "regex": {"code": "^[A-Z]{3}$", "code-error": "Three capital letters"}}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    for (entry, default, outcome) in default_matches(iparam, cx) {
        if outcome != MatchOutcome::NotMatched {
            continue;
        }
        let name = &entry.name.text;
        let shown = entry
            .message
            .and_then(|m| m.value.as_str())
            .map_or_else(|| "an error".to_owned(), |text| format!("\"{text}\""));
        cx.report(&RULE, default.span, format!("Default {} of {} does not match its regex `{name}`", iparam.quote(&default), subject(iparam)))
            .label(format!("fails `{name}`"))
            .related(entry.pattern.span, "this pattern")
            .help(format!("The installation page would show {shown} for the preselected value; change the default or the pattern."))
            .pointer(iparam.pointer_of(Attribute::DefaultValue));
    }
}
