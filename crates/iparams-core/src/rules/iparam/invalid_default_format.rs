//! `invalid-default-format`: a default the installation page would reject.

use crate::diagnostic::Severity;
use crate::formats::{format_error, format_example};
use crate::model::{Attribute, DefaultValue, Iparam, Text};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::subject;

pub static RULE: Rule = Rule {
    name: "invalid-default-format",
    severity: Severity::Error,
    area: Area::Defaults,
    summary: "`default_value` is not a valid value of its type",
    docs: r#"The installation page checks the value of an `email`, `url`, `phone_number`, `date`
or `number` iparam, so a default that fails the check must be corrected by every installer:

- email: an address as browsers accept it in an e-mail field;
- url: a complete `https://` URL (the vendor's check is unanchored and accepts text around a URL;
  this one does not);
- phone_number: 10 digits, bare or 3-3-4 with dashes, as the vendor's check accepts;
- date: `YYYY-MM-DD` and a real day of the calendar (the vendor's check lets `2014-02-31` through);
- number: an integer of at most 10 digits.

An iparam with a `regex` is checked against its patterns instead (see `default-fails-regex`), as on
the installation page, where a custom regex replaces the built-in check. An empty default is no
default and is not checked."#,
    bad: r#"{
  "start": {"display_name": "Start date", "type": "date", "default_value": "2014-02-31"}
}
"#,
    good: r#"{
  "start": {"display_name": "Start date", "type": "date", "default_value": "2014-02-28"}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Not checked by FDK 6.9; older releases checked e-mail, URL, number, date (without
a calendar) and phone formats."#,
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(ty) = iparam.known_type() else {
        return;
    };
    if iparam.get(Attribute::Regex).is_some() {
        return;
    }
    let value = match iparam.default {
        DefaultValue::Text(text) if !text.text.is_empty() => text,
        DefaultValue::Number(raw, span) => Text { text: raw, span },
        _ => return,
    };
    let Some(reason) = format_error(ty, value.text, !iparam.masks(&value)) else {
        return;
    };
    let example = format_example(ty).unwrap_or("a valid value");
    cx.report(
        &RULE,
        value.span,
        format!(
            "Default {} of {} {reason}",
            iparam.quote(&value),
            subject(iparam)
        ),
    )
    .label(format!("not a valid {}", ty.name()))
    .help(format!(
        "The installation page would reject it; use {example}."
    ))
    .pointer(iparam.pointer_of(Attribute::DefaultValue));
}
