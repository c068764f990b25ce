//! `regex-timeout`: a pattern that backtracks catastrophically.

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::unfinished;
use crate::rules::iparam::default_matches;

pub static RULE: Rule = Rule {
    name: "regex-timeout",
    severity: Severity::Warning,
    area: Area::Regexes,
    summary: "Matching a regex against the default value did not finish in time",
    docs: r#"JavaScript regexes backtrack: a pattern with nested repetition such as `^(a+)+$` can
take time exponential in the length of the value, and would freeze the installation page in the
installer's browser. Matching here is cut off after 100 ms, and the pattern is reported. Rewrite it
without repetition inside repetition. A match is also not run, and reported as not checked, when the
text is over 10,000 bytes or once 8 matches have run out of time in one run (each goes on using a
core until the command exits)."#,
    bad: r#"{
  "code": {"display_name": "Code", "type": "text", "default_value": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", "regex": {"code": "^(a+)+$", "code-error": "Letters a only"}}
}
"#,
    good: r#"{
  "code": {"display_name": "Code", "type": "text", "default_value": "aaaa", "regex": {"code": "^a+$", "code-error": "Letters a only"}}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    for (entry, _, outcome) in default_matches(iparam, cx) {
        let Some(unfinished) = unfinished(outcome, cx.regexes()) else {
            continue;
        };
        cx.report(
            &RULE,
            entry.pattern.span,
            format!(
                "Regex `{}` of iparam `{}` {} the default value",
                entry.name.text, iparam.key.text, unfinished.verb
            ),
        )
        .label(unfinished.label)
        .help(unfinished.help)
        .pointer(iparam.pointer_to(&[Attribute::Regex.name(), &entry.name.text]));
    }
}
