//! `invalid-regex`: a pattern JavaScript cannot compile.

use crate::diagnostic::Severity;
use crate::ecma_regex::Compiled;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::iparam::compiled_patterns;
use crate::span::Span;

pub static RULE: Rule = Rule {
    name: "invalid-regex",
    severity: Severity::Error,
    area: Area::Regexes,
    summary: "A regex pattern is not a valid JavaScript regular expression",
    docs: r#"The installation page builds each pattern with `new RegExp(pattern)`, so patterns
follow JavaScript's syntax (without flags), not that of Rust, Python or PCRE: `(?<=...)`, `[^]` and
`\cJ` are valid, possessive quantifiers and `(?i)` are not. The error is pointed at its exact place
inside the JSON string. Remember that in JSON a backslash is written twice: the pattern `\d+` is the
string `"\\d+"`."#,
    bad: r#"{
  "code": {"display_name": "Code", "type": "text", "regex": {"code": "^([A-Z]{3}$", "code-error": "Three capital letters"}}
}
"#,
    good: r#"{
  "code": {"display_name": "Code", "type": "text", "regex": {"code": "^([A-Z]{3})$", "code-error": "Three capital letters"}}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Rejects: `Invalid regex entered for '<name>' in the '<key>' field.`, without
saying what is wrong."#,
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    for (entry, compiled) in compiled_patterns(iparam, cx) {
        let Compiled::Invalid(error) = compiled else {
            continue;
        };
        let literal = entry.pattern.span;
        let span = error
            .span_in_literal
            .map(|inner| {
                Span::new(
                    literal.start + inner.start,
                    (literal.start + inner.end).min(literal.end),
                )
            })
            .filter(|span| literal.contains(*span))
            .unwrap_or(literal);
        let inline_flags = entry.pattern.as_str().is_some_and(has_inline_flags);
        let mut help = if inline_flags {
            "JavaScript has no inline flags such as `(?i)`: wrap the part in a modifier group, `(?i:abc)`, or spell out both cases, `[Aa]`. ".to_owned()
        } else {
            error.help.map(|h| format!("{h}. ")).unwrap_or_default()
        };
        help.push_str("The installation page compiles the pattern with JavaScript's `new RegExp()`, and would fail.");
        cx.report(
            &RULE,
            span,
            format!(
                "Regex `{}` of iparam `{}` is not valid JavaScript: {}",
                entry.name.text,
                iparam.key.text,
                lowercase_first(&error.message)
            ),
        )
        .label(lowercase_first(&error.message))
        .help(help)
        .pointer(iparam.pointer_to(&[Attribute::Regex.name(), &entry.name.text]));
    }
}

/// `(?i)` or `(?im)`: PCRE's inline flags, which JavaScript only has as `(?i:...)` groups.
fn has_inline_flags(pattern: &str) -> bool {
    pattern.match_indices("(?").any(|(at, _)| {
        let rest = &pattern[at + 2..];
        let letters = rest.chars().take_while(char::is_ascii_alphabetic).count();
        letters > 0 && rest[letters..].starts_with(')')
    })
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_lowercase().chain(chars).collect())
        .unwrap_or_default()
}
