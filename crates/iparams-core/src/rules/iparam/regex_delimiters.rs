//! `regex-delimiters`: a pattern written as a `/literal/` with slashes and flags.

use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::edits::json_string;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "regex-delimiters",
    severity: Severity::Warning,
    area: Area::Regexes,
    summary: "A regex pattern is written with `/.../` delimiters",
    docs: r#"Patterns are strings given to `new RegExp(pattern)`, not regex literals: in
`"/^abc$/i"` the slashes are characters the value must contain, and `i` is not a flag but a letter.
Write the pattern alone. The fix removes the slashes; it is unsafe when flags are dropped with them,
since a string pattern cannot carry flags.

A warning on an optional iparam (it can be left empty); an **error** on a required one, where no
value can ever pass and the app cannot be installed."#,
    bad: r#"{
  "code": {"display_name": "Code", "type": "text", "regex": {"code": "/^[A-Z]{3}$/", "code-error": "Three capital letters"}}
}
"#,
    good: r#"{
  "code": {"display_name": "Code", "type": "text", "regex": {"code": "^[A-Z]{3}$", "code-error": "Three capital letters"}}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    // The riskiest fix it makes: safe without flags, unsafe when flags are dropped.
    fix: Some(Applicability::Unsafe),
    checks: &[Check::Iparam(check)],
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
        // On a required iparam no value can pass, so the app cannot be installed.
        let required = iparam.flag(Attribute::Required) == Some(true);
        let severity = if required {
            Severity::Error
        } else {
            Severity::Warning
        };
        let blocks = if required {
            " The iparam is required, and no installer types the slashes (with `^` or `$` inside them, no value can match at all): the app cannot be installed as it is."
        } else {
            ""
        };
        let diagnostic = cx.report(&RULE, entry.pattern.span, format!("Regex `{}` of iparam `{}` is written as a `/literal/`", entry.name.text, iparam.key.text))
            .label("slashes are matched literally")
            .help(format!(
                "The pattern goes to `new RegExp()` as it is, so the value must contain the slashes.{blocks} Write `{body}`.{flags_note}"
            ))
            .pointer(iparam.pointer_to(&[Attribute::Regex.name(), &entry.name.text]))
            .fix(if flags.is_empty() { Fix::safe(title, edits) } else { Fix::unsafe_(title, edits) });
        diagnostic.severity = severity;
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
