//! `value-format`: an email, url, phone number, date or number the installation page rejects, or
//! a domain that is not the bare sub-domain the page stores.

use crate::diagnostic::Severity;
use crate::formats::{domain_error, format_error, format_example};
use crate::model::{Attribute, IparamType};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::values::Answer;

pub static RULE: Rule = Rule {
    name: "value-format",
    severity: Severity::Error,
    area: Area::Values,
    summary: "A value is not a valid email, url, phone number, date, number or sub-domain",
    docs: r#"The installation page checks the value of an `email`, `url`, `phone_number`, `date`
or `number` iparam before it accepts INSTALL, with the same checks as `invalid-default-format`:

- email: an address as browsers accept it in an e-mail field.
- url: a complete URL that starts with `https://` in lower case; the page rejects `http://`. Older
  FDK releases used an unanchored pattern, so `see https://www.example.com` passed with the text
  around it; here the value must be the URL alone, since that is what the app will call. A wildcard
  host such as `https://*.google.com` is accepted, as older FDK releases and browsers' URL parsers
  accept it (some apps take host patterns).
- phone_number: 10 digits, bare (`9876545677`) or grouped 3-3-4 with dashes (`987-654-5677`),
  exactly what older FDK releases accepted; `987-832654-5677` and `+1 987 654 5677` are rejected.
- date: `YYYY-MM-DD` and a real day of the calendar. Older FDK releases checked the shape only, so
  `2014-02-31` passed; here it does not.
- number: an integer of at most 10 digits, as the format specifies. Older FDK releases accepted
  decimals such as `-987.5677`; the finding says so.
- domain: the sub-domain alone (`acme`), one label of a host name: letters, digits and dashes,
  neither first nor last, at most 63 characters. The page shows its field between a fixed
  `https://` and the product's domain (`.freshteam.com`), and cuts a full URL or host name typed
  into it to its sub-domain: `https://acme.freshteam.com` is stored as `acme`, which the finding
  names. A value with a space or any other character a host name cannot hold (`acme corp!`)
  would make the app call a host that does not exist.

As on the installation page, a custom `regex` replaces the built-in check (see `value-fails-regex`),
and an empty optional value is not checked."#,
    bad: r#"{
  "site": "see https://www.example.com",
  "start": "2014-02-31",
  "amount": "-987.5677",
  "account": "https://acme.freshteam.com"
}
"#,
    good: r#"{
  "site": "https://www.example.com",
  "start": "2014-02-28",
  "amount": "-987",
  "account": "acme"
}
"#,
    examples: Examples::Values {
        definitions: r#"{
  "site": {"display_name": "Website", "type": "url"},
  "start": {"display_name": "Start date", "type": "date"},
  "amount": {"display_name": "Amount", "type": "number"},
  "account": {"display_name": "Account", "type": "domain", "type_attributes": {"product": "freshteam"}}
}
"#,
        good_definitions: None,
    },
    vendor: r#"Older FDK releases rejected `iparam_test_data.json` values with `For 'Iparam test
data' of the '<key>': Please enter a valid <type>.`, with the gaps above (unanchored URLs, no
calendar, decimals)."#,
    fix: None,
    checks: &[Check::Value(check)],
};

fn check(answer: &Answer<'_>, cx: &mut Context<'_>) {
    let Some(ty) = answer.ty() else {
        return;
    };
    let iparam = answer.definition.iparam();
    if iparam.is_some_and(|iparam| iparam.get(Attribute::Regex).is_some()) {
        return;
    }
    let (Some(value), Some(text)) = (answer.given(), answer.text()) else {
        return;
    };
    let reveal = !answer.masks(value);
    let reason = if ty == IparamType::Domain {
        domain_error(text, reveal)
    } else {
        format_error(ty, text, reveal)
    };
    let Some(reason) = reason else {
        return;
    };
    let mut message = format!(
        "Value {} of {} {reason}",
        answer.quote(value, cx),
        answer.subject()
    );
    if let Some(note) = older_fdk_accepted(ty, text) {
        message.push_str("; ");
        message.push_str(note);
    }
    let example = format_example(ty).unwrap_or("a valid value");
    let help = if ty == IparamType::Domain {
        format!(
            "Give {example}: the page shows `https://` before it and the product's domain after it."
        )
    } else {
        format!("The installation page would reject it; give {example}.")
    };
    answer
        .report(cx, &RULE, value.span, message, &help)
        .label(if ty == IparamType::Domain {
            "not a bare sub-domain".to_owned()
        } else {
            format!("not a valid {}", ty.name())
        });
}

/// Why older FDK releases let this value through, where they did.
fn older_fdk_accepted(ty: IparamType, text: &str) -> Option<&'static str> {
    match ty {
        IparamType::Number if is_decimal(text) => Some(
            "older FDK releases accepted decimals, but the format allows integers of at most 10 digits",
        ),
        IparamType::Url
            if text
                .find("https://")
                .is_some_and(|at| text[at + 8..].starts_with(|c: char| !c.is_whitespace())) =>
        {
            Some("older FDK releases accepted it, as their URL pattern is not anchored")
        }
        IparamType::Date if is_date_shaped(text) => {
            Some("older FDK releases accepted it, as they had no calendar check")
        }
        _ => None,
    }
}

/// `-987.5677`: digits, a point, digits.
fn is_decimal(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    digits.split_once('.').is_some_and(|(whole, fraction)| {
        [whole, fraction]
            .iter()
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// Four, two and two digits joined by dashes: the shape older FDK releases checked.
fn is_date_shaped(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    parts.len() == 3
        && parts
            .iter()
            .zip([4, 2, 2])
            .all(|(part, len)| part.len() == len && part.bytes().all(|b| b.is_ascii_digit()))
}
