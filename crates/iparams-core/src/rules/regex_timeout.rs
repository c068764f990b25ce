//! `regex-timeout`: a pattern that backtracks catastrophically.

use super::{Check, Context, Rule, default_matches};
use crate::diagnostic::Severity;
use crate::ecma_regex::MatchOutcome;
use crate::model::{Attribute, Iparam};

pub static RULE: Rule = Rule {
    name: "regex-timeout",
    severity: Severity::Warning,
    summary: "Matching a regex against the default value did not finish in time",
    docs: "JavaScript regexes backtrack: a pattern with nested repetition such as `^(a+)+$` can take \
time exponential in the length of the value, and would freeze the installation page in the \
installer's browser. Matching here is cut off after 100 ms (configurable), and the pattern is \
reported. Rewrite it without repetition inside repetition.",
    bad: "{\n  \"code\": {\"display_name\": \"Code\", \"type\": \"text\", \"default_value\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\", \"regex\": {\"code\": \"^(a+)+$\", \"code-error\": \"Letters a only\"}}\n}\n",
    good: "{\n  \"code\": {\"display_name\": \"Code\", \"type\": \"text\", \"default_value\": \"aaaa\", \"regex\": {\"code\": \"^a+$\", \"code-error\": \"Letters a only\"}}\n}\n",
    vendor: "Not checked.",
    fix: None,
    check: Check::Iparam(check),
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let limit = cx.regexes().timeout().as_millis();
    for (entry, _, outcome) in default_matches(iparam, cx) {
        if outcome != MatchOutcome::TimedOut {
            continue;
        }
        cx.report(
            &RULE,
            entry.pattern.span,
            format!("Regex `{}` of iparam `{}` ran for over {limit} ms on the default value", entry.name.text, iparam.key.text),
        )
        .label("catastrophic backtracking")
        .help("The pattern repeats a repetition (as in `(a+)+`), so some values take exponential time and would freeze the installation page. Rewrite it without nested repetition.")
        .pointer(iparam.pointer_to(&[Attribute::Regex.name(), &entry.name.text]));
    }
}
