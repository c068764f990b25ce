//! `value-fails-regex`: a value one of the iparam's own patterns rejects.

use crate::diagnostic::Severity;
use crate::ecma_regex::MatchOutcome;
use crate::model::REGEX_ERROR_SUFFIX;
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::values::Answer;

pub static RULE: Rule = Rule {
    name: "value-fails-regex",
    severity: Severity::Error,
    area: Area::Values,
    summary: "A value does not match one of its iparam's regex patterns",
    docs: r#"Every pattern of the iparam's `regex` is applied to the value, as JavaScript's
`RegExp.test` applies it (anywhere in the value unless anchored with `^` and `$`), and each failing
pattern is reported with its own `-error` message, the one the installer would see. Matching is
bounded in time (see `value-regex-timeout`); a pattern that does not compile is left to
`iparams-lint check` (`invalid-regex`).

A custom regex replaces the built-in check of an email, url, phone number, date or number, as on the
installation page: the value is not checked by `value-format` then. Patterns apply to the types
whose value is typed in, `number` included (older FDK releases applied them there, though their
validator rejects a regex on a number); choices from options are not matched.

Every pattern must match, as the format describes each pattern with its own message and as older FDK
releases checked test data. (Some installation pages join the patterns into one `(p1)|(p2)`, which a
value passes by matching any one of them: a value reported here may get through such a page, but not
the check the app's author wrote.)"#,
    bad: r#"{
  "username": "testdata1234"
}
"#,
    good: r#"{
  "username": "test1234"
}
"#,
    examples: Examples::Values {
        definitions: r#"{
  "username": {"display_name": "User name", "type": "text", "regex": {"characters": "^[a-zA-Z0-9]*$", "characters-error": "Letters and digits only", "length": "^.{1,8}$", "length-error": "At most 8 characters"}}
}
"#,
        good_definitions: None,
    },
    vendor: r#"Older FDK releases rejected `iparam_test_data.json` with `For 'Iparam test data'
of the '<key>': <the failing pattern's message>`."#,
    fix: None,
    checks: &[Check::Value(check)],
};

/// Patterns up to this long are quoted in the help.
const SHOWN_PATTERN_LIMIT: usize = 40;

fn check(answer: &Answer<'_>, cx: &mut Context<'_>) {
    let Some(value) = answer.given() else {
        return;
    };
    for (entry, outcome) in answer.regex_outcomes(cx) {
        if outcome != MatchOutcome::NotMatched {
            continue;
        }
        let name = &entry.name.text;
        let pattern = entry.pattern.as_str().unwrap_or_default();
        let quoted = answer.quote(value, cx);
        let subject = answer.subject();
        let (message, mut help) = match entry.message.and_then(|m| m.value.as_str()) {
            Some(shown) => (
                format!("Value {quoted} of {subject} fails its regex `{name}`: \"{shown}\""),
                format!("The installation page shows \"{shown}\" and refuses the value."),
            ),
            None => (
                format!("Value {quoted} of {subject} fails its regex `{name}`"),
                format!(
                    "The installation page refuses the value without saying why: the regex has no \
                     `{name}{REGEX_ERROR_SUFFIX}` message."
                ),
            ),
        };
        // A long pattern wraps badly and says little at a glance; its definition is named below.
        if pattern.chars().count() <= SHOWN_PATTERN_LIMIT {
            help.push_str(&format!(" The pattern is `{pattern}`."));
        }
        answer
            .report(cx, &RULE, value.span, message, &help)
            .label(format!("fails `{name}`"));
    }
}
