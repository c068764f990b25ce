//! `value-type`: a value of a JSON type the installation page never gives the iparam.

use crate::diagnostic::Severity;
use crate::model::IparamType;
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::syntax::{Value, ValueKind};
use crate::values::Answer;

pub static RULE: Rule = Rule {
    name: "value-type",
    severity: Severity::Error,
    area: Area::Values,
    summary: "A value is not of the JSON type the installation page gives its iparam",
    docs: r#"The installation page hands the app a boolean for a checkbox, an array of strings
for a multiselect and a string for every other type, since that is what a browser's inputs hold. A
values file should hold the same, or the app sees one shape when run with the file and another once
installed (`value.trim()` fails on a number).

One exception: a `number` iparam takes a JSON number as well as a string (`30` or `"30"`), as
test-data files commonly write it; its digits are checked by `value-format`. A number for any other
type is reported, with the quoted form to write instead. A bare string for a multiselect is reported
too (wrap it in an array), as a warning only, since the vendor's check takes it as a one-element
list; it is still checked against the options.

Empty values (`null`, `""`, `[]`) are no value rather than a wrong type: see `value-required`."#,
    bad: r#"{
  "zip_code": 75001,
  "notify": "true",
  "teams": "Support"
}
"#,
    good: r#"{
  "zip_code": "75001",
  "notify": true,
  "teams": ["Support"]
}
"#,
    examples: Examples::Values {
        definitions: r#"{
  "zip_code": {"display_name": "ZIP code", "type": "text"},
  "notify": {"display_name": "Notify", "type": "checkbox"},
  "teams": {"display_name": "Teams", "type": "multiselect", "options": ["Sales", "Support"], "default_value": ["Sales"]}
}
"#,
        good_definitions: None,
    },
    vendor: r#"Older FDK releases did not check JSON types: their pattern tests turned any value
into text (`75001` into "75001"), and a multiselect's bare string passed as one selection."#,
    fix: None,
    checks: &[Check::Value(check)],
};

/// The JSON type a value of `ty` has on the installation page, as it reads in a sentence.
fn expected(ty: IparamType) -> &'static str {
    match ty {
        IparamType::Checkbox => "a boolean (`true` or `false`)",
        IparamType::Multiselect => "an array of strings",
        IparamType::Number => "a string or a number",
        _ => "a string",
    }
}

fn fits(ty: IparamType, value: &Value<'_>) -> bool {
    matches!(
        (ty, &value.kind),
        (IparamType::Checkbox, ValueKind::Bool(_))
            | (IparamType::Multiselect, ValueKind::Array(_))
            | (IparamType::Number, ValueKind::Number(_))
    ) || (!matches!(ty, IparamType::Checkbox | IparamType::Multiselect)
        && matches!(value.kind, ValueKind::String(_)))
}

fn check(answer: &Answer<'_>, cx: &mut Context<'_>) {
    let (Some(ty), Some(value)) = (answer.ty(), answer.given()) else {
        return;
    };
    if !fits(ty, value) {
        let message = format!(
            "The value of {} must be {}, found {}",
            answer.subject(),
            expected(ty),
            answer.describe(value, cx)
        );
        let help = help(answer, ty, value, cx);
        // The vendor's check takes a multiselect's bare string as a one-element list.
        let bare = ty == IparamType::Multiselect && matches!(value.kind, ValueKind::String(_));
        let severity = if bare {
            Severity::Warning
        } else {
            RULE.severity
        };
        let diagnostic = answer
            .report(cx, &RULE, value.span, message, &help)
            .label(format!("expected {}", expected(ty)));
        diagnostic.severity = severity;
        return;
    }
    if ty != IparamType::Multiselect {
        return;
    }
    for (index, item) in value.as_array().unwrap_or_default().iter().enumerate() {
        if item.as_str().is_some() {
            continue;
        }
        let message = format!(
            "Item {index} of the value of {} is {}, not a string",
            answer.subject(),
            answer.describe(item, cx)
        );
        answer
            .report(
                cx,
                &RULE,
                item.span,
                message,
                "A multiselect's value lists the selected options, each a string.",
            )
            .label("expected a string")
            .pointer(answer.item_pointer(index));
    }
}

fn help(answer: &Answer<'_>, ty: IparamType, value: &Value<'_>, cx: &Context<'_>) -> String {
    match (ty, &value.kind) {
        (IparamType::Checkbox, _) => {
            "Write `true` or `false`, without quotes: the installation page saves a checkbox as a boolean."
                .to_owned()
        }
        (IparamType::Multiselect, ValueKind::String(_)) => format!(
            "Wrap it in an array: `[{}]`. The installation page always saves a multiselect as an array of the \
             selected options; older FDK releases accepted a bare string here, so the app saw a string when \
             run locally and an array once installed.",
            answer.quote(value, cx)
        ),
        (IparamType::Multiselect, _) => {
            "List the selected options in an array of strings, such as `[\"Sales\"]`.".to_owned()
        }
        (IparamType::Number, _) => {
            "Give the number as a string (`\"30\"`) or as a JSON number (`30`).".to_owned()
        }
        (_, ValueKind::Number(raw)) => format!(
            "Write it as a string, `{}`: the installation page saves what is typed or chosen as a string, \
             so the app would get a number from this file and a string once installed.",
            answer.quote_text(raw)
        ),
        _ => "Give a string: the installation page saves what is typed or chosen as a string.".to_owned(),
    }
}
