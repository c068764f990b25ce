//! `unknown-type`: `type` is not one of the 13 types.

use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::edits::json_string;
use crate::model::{Attribute, Iparam, IparamType, TypeField};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "unknown-type",
    severity: Severity::Error,
    area: Area::Keys,
    summary: "An iparam's `type` is not a known type",
    docs: r#"The types are `text`, `paragraph`, `dropdown`, `email`, `number`, `phone_number`,
`date`, `url`, `radio`, `checkbox`, `multiselect`, `domain` and `api_key`, in lowercase. Names from
other form libraries (`textarea`, `select`, `boolean`, `password`) are mapped to their equivalents
in the suggestion. A misspelt type is fixed automatically."#,
    bad: r#"{
  "notes": {"display_name": "Notes", "type": "textarea"}
}
"#,
    good: r#"{
  "notes": {"display_name": "Notes", "type": "paragraph"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Rejects: `Invalid type, <type>, found in the '<key>' field.`",
    fix: Some(Applicability::Safe),
    checks: &[Check::Iparam(check)],
};

/// Names from other form vocabularies, and the type that does the same here.
const EQUIVALENTS: [(&str, IparamType); 17] = [
    ("string", IparamType::Text),
    ("textarea", IparamType::Paragraph),
    ("multiline", IparamType::Paragraph),
    ("select", IparamType::Dropdown),
    ("boolean", IparamType::Checkbox),
    ("bool", IparamType::Checkbox),
    ("toggle", IparamType::Checkbox),
    ("switch", IparamType::Checkbox),
    ("integer", IparamType::Number),
    ("int", IparamType::Number),
    ("numeric", IparamType::Number),
    ("phone", IparamType::PhoneNumber),
    ("tel", IparamType::PhoneNumber),
    ("link", IparamType::Url),
    ("uri", IparamType::Url),
    ("datetime", IparamType::Date),
    ("apikey", IparamType::ApiKey),
];

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let TypeField::Unknown(found) = iparam.ty else {
        return;
    };
    let lower = found.text.to_lowercase();
    let suggestion = EQUIVALENTS
        .iter()
        .find(|(alias, _)| *alias == lower)
        .map(|(_, ty)| ty.name())
        .or_else(|| suggest::closest(found.text, IparamType::names()));
    let secret_words = ["password", "secret", "token", "secure", "hidden"];
    let mut help = match suggestion {
        Some(name) => format!("Did you mean \"{name}\"? "),
        None if secret_words.contains(&lower.as_str()) => {
            "For a secret, use \"text\" with `\"secure\": true`, which keeps the value from the app's front end. ".to_owned()
        }
        None => String::new(),
    };
    help.push_str(&format!(
        "The types are {}.",
        suggest::list(IparamType::names())
    ));
    let diagnostic = cx
        .report(
            &RULE,
            found.span,
            format!(
                "Iparam `{}` has an unknown type \"{}\"",
                iparam.key.text, found.text
            ),
        )
        .label("not a type")
        .help(help)
        .pointer(iparam.pointer_of(Attribute::Type));
    if let Some(name) = suggestion {
        diagnostic.fix(Fix::safe(
            format!("Change the type to \"{name}\""),
            vec![Edit::replace(found.span, json_string(name))],
        ));
    }
}
