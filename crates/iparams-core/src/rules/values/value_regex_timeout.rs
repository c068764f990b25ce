//! `value-regex-timeout`: a pattern that backtracks catastrophically on a value.

use crate::diagnostic::Severity;
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::unfinished;
use crate::values::Answer;

pub static RULE: Rule = Rule {
    name: "value-regex-timeout",
    severity: Severity::Warning,
    area: Area::Values,
    summary: "Matching one of an iparam's regexes against a value did not finish in time",
    docs: r#"JavaScript regexes backtrack: a pattern with nested repetition such as `^(a+)+$` can
take time exponential in the length of the value, and would freeze the installation page in the
installer's browser on this value. Matching is cut off after 100 ms, and the pattern is reported:
nothing can be said of whether the value matches. Rewrite the pattern in iparams.json without
repetition inside repetition. A match is also not run, and reported as not checked, when the text is
over 10,000 bytes or once 8 matches have run out of time in one run (each goes on using a core until
the command exits)."#,
    bad: r#"{
  "code": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"
}
"#,
    good: r#"{
  "code": "aaaa"
}
"#,
    examples: Examples::Values {
        definitions: r#"{
  "code": {"display_name": "Code", "type": "text", "regex": {"code": "^(a+)+$", "code-error": "Letters a only"}}
}
"#,
        good_definitions: None,
    },
    vendor: "Not checked: older FDK releases would hang on such a value.",
    fix: None,
    checks: &[Check::Value(check)],
};

fn check(answer: &Answer<'_>, cx: &mut Context<'_>) {
    let Some(value) = answer.given() else {
        return;
    };
    for (entry, outcome) in answer.regex_outcomes(cx) {
        let Some(unfinished) = unfinished(outcome, cx.regexes()) else {
            continue;
        };
        let message = format!(
            "Regex `{}` of iparam `{}` {} the value",
            entry.name.text,
            answer.key(),
            unfinished.verb
        );
        answer
            .report(cx, &RULE, value.span, message, &unfinished.help)
            .label(unfinished.label);
    }
}
