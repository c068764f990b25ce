//! `regex-delimiters`: a pattern written as a `/literal/` with slashes and flags.

use super::{Check, Context, Rule};
use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::fixes::json_string;
use crate::model::{Attribute, Iparam};

pub static RULE: Rule = Rule {
    name: "regex-delimiters",
    severity: Severity::Warning,
    summary: "A regex pattern is written with `/.../` delimiters",
    docs: "Patterns are strings given to `new RegExp(pattern)`, not regex literals: in `\"/^abc$/i\"` \
the slashes are characters the value must contain, and `i` is not a flag but a letter. Write the \
pattern alone. The fix removes the slashes; it is unsafe when flags are dropped with them, since \
a string pattern cannot carry flags.",
    bad: "{\n  \"code\": {\"display_name\": \"Code\", \"type\": \"text\", \"regex\": {\"code\": \"/^[A-Z]{3}$/\", \"code-error\": \"Three capital letters\"}}\n}\n",
    good: "{\n  \"code\": {\"display_name\": \"Code\", \"type\": \"text\", \"regex\": {\"code\": \"^[A-Z]{3}$\", \"code-error\": \"Three capital letters\"}}\n}\n",
    vendor: "Not checked.",
    // The riskiest fix it makes: safe without flags, unsafe when flags are dropped.
    fix: Some(Applicability::Unsafe),
    check: Check::Iparam(check),
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(regexes) = iparam.regexes() else {
        return;
    };
    for entry in &regexes.patterns {
        let Some(pattern) = entry.pattern.as_str() else {
            continue;
        };
        let Some((body, flags)) = split_literal(pattern) else {
            continue;
        };
        let flags_note = if flags.is_empty() {
            String::new()
        } else {
            format!(
                " The flags `{flags}` cannot be given to a string pattern; drop them or build them into the pattern."
            )
        };
        let title = format!("Remove the delimiters: {}", json_string(body));
        let edits = vec![Edit::replace(entry.pattern.span, json_string(body))];
        cx.report(&RULE, entry.pattern.span, format!("Regex `{}` of iparam `{}` is written as a `/literal/`", entry.name.text, iparam.key.text))
            .label("slashes are matched literally")
            .help(format!(
                "The pattern goes to `new RegExp()` as it is, so the value must contain the slashes. Write `{body}`.{flags_note}"
            ))
            .pointer(iparam.pointer_to(&[Attribute::Regex.name(), &entry.name.text]))
            .fix(if flags.is_empty() { Fix::safe(title, edits) } else { Fix::unsafe_(title, edits) });
    }
}

/// `/body/flags` → (`body`, `flags`).
fn split_literal(pattern: &str) -> Option<(&str, &str)> {
    let rest = pattern.strip_prefix('/')?;
    let close = rest.rfind('/')?;
    let (body, flags) = (&rest[..close], &rest[close + 1..]);
    let flags_ok = flags.chars().all(|c| "dgimsuvy".contains(c));
    (!body.is_empty() && flags_ok).then_some((body, flags))
}
