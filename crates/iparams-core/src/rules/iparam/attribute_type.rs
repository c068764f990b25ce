//! `attribute-type`: an attribute's value has the wrong JSON shape.

use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::edits::json_string;
use crate::model::{Attribute, DATA_BIND_VALUES, Iparam, Shape};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::describe;
use crate::syntax::{Value, ValueKind};

pub static RULE: Rule = Rule {
    name: "attribute-type",
    severity: Severity::Error,
    area: Area::Keys,
    summary: "An attribute's value is not of the type the format requires",
    docs: r#"`display_name`, `description`, `type` and `data-bind` are strings; `required`,
`visible` and `secure` are booleans; `options` and `modules` are arrays of strings; `regex` is an
object of strings; `events` is an array of objects; `type_attributes` is an object. (`default_value`
depends on the iparam's type: see `default-value-type`.)

`"true"` in quotes is a string, not a boolean: the vendor's validator rejects it for `required` and
`secure`, and for `visible` the installation page treats any non-empty string as true. The fix
removes the quotes, and wraps a lone option, module or event in the array it belongs in."#,
    bad: r#"{
  "region": {"display_name": "Region", "type": "text", "required": "true"}
}
"#,
    good: r#"{
  "region": {"display_name": "Region", "type": "text", "required": true}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Rejects non-booleans in `required` and `secure` (`Specify either true or false for
the required key in the '<key>' field.`), `options` that are not an array (`For the '<key>' <type>
type, add the options as an array.`) and `events` that are not an array (`For the '<key>' <type>
type, add the Events as an array.`). Other attributes are not checked."#,
    // The riskiest fix it makes: most fixes are safe; the riskiest one is unsafe.
    fix: Some(Applicability::Unsafe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    for entry in &iparam.members {
        let Some(attribute) = entry.attribute else {
            continue;
        };
        let value = &entry.member.value;
        match (attribute.shape(), &value.kind) {
            (Shape::PerType, _)
            | (Shape::String, ValueKind::String(_))
            | (Shape::Boolean, ValueKind::Bool(_))
            | (Shape::ObjectArray, ValueKind::Array(_))
            | (Shape::Object, ValueKind::Object(_)) => {}
            (Shape::StringArray, ValueKind::Array(items)) => {
                for (index, item) in items.iter().enumerate() {
                    if item.as_str().is_none() {
                        report_item(iparam, attribute, &index.to_string(), item, cx);
                    }
                }
            }
            (Shape::StringMap, ValueKind::Object(members)) => {
                for member in members.iter().filter(|m| m.value.as_str().is_none()) {
                    report_item(iparam, attribute, &member.key.text, &member.value, cx);
                }
            }
            (shape, _) => report_value(iparam, attribute, shape, value, cx),
        }
    }
}

fn report_value(
    iparam: &Iparam<'_, '_>,
    attribute: Attribute,
    shape: Shape,
    value: &Value<'_>,
    cx: &mut Context<'_>,
) {
    let name = attribute.name();
    let key = &iparam.key.text;
    let source = cx.source(value.span);
    let (message, fix) = match (shape, &value.kind) {
        (Shape::Boolean, ValueKind::String(text)) if matches!(text.as_ref(), "true" | "false") => (
            format!("`{name}` of iparam `{key}` is the string {source}, not a boolean"),
            Some(Fix::safe(
                format!("Replace {source} with {text}"),
                vec![Edit::replace(value.span, text.to_string())],
            )),
        ),
        (Shape::StringArray, ValueKind::String(text)) if !text.contains(',') => (
            format!(
                "`{name}` of iparam `{key}` must be an array of strings, found a single string"
            ),
            Some(Fix::safe(
                format!("Wrap {source} in an array"),
                vec![Edit::replace(value.span, format!("[{source}]"))],
            )),
        ),
        (Shape::StringArray, ValueKind::String(text)) => {
            let items: Vec<String> = text
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(json_string)
                .collect();
            (
                format!(
                    "`{name}` of iparam `{key}` is one comma-separated string, not an array of strings"
                ),
                Some(Fix::unsafe_(
                    "Split it into an array of strings",
                    vec![Edit::replace(value.span, format!("[{}]", items.join(", ")))],
                )),
            )
        }
        (Shape::ObjectArray, ValueKind::Object(_)) => (
            format!(
                "`{name}` of iparam `{key}` must be an array of objects, found a single object"
            ),
            Some(Fix::safe(
                "Wrap the object in an array",
                vec![Edit::replace(value.span, format!("[{source}]"))],
            )),
        ),
        (Shape::Object, ValueKind::String(text)) if attribute == Attribute::TypeAttributes => (
            format!("`{name}` of iparam `{key}` must be an object, found a string"),
            Some(Fix::safe(
                format!("Write it as {{\"product\": {source}}}"),
                vec![Edit::replace(
                    value.span,
                    format!("{{\"product\": {}}}", json_string(text)),
                )],
            )),
        ),
        _ => (
            format!(
                "`{name}` of iparam `{key}` must be {}, found {}",
                shape.described(),
                describe(cx, iparam, value)
            ),
            None,
        ),
    };
    let help = match attribute {
        Attribute::Required | Attribute::Visible | Attribute::Secure => "Write `true` or `false`, without quotes.".to_owned(),
        Attribute::Options => "List the choices as strings: `\"options\": [\"Low\", \"High\"]`.".to_owned(),
        Attribute::Events => "Write it as an array of `{\"change\": \"handlerName\"}` objects.".to_owned(),
        Attribute::TypeAttributes => "Write it as `\"type_attributes\": {\"product\": \"freshdesk\"}`.".to_owned(),
        Attribute::Regex => "Pair each pattern with its message: `\"regex\": {\"code\": \"^[A-Z]{3}$\", \"code-error\": \"Three capital letters\"}`.".to_owned(),
        Attribute::Modules => "List module names as strings: `\"modules\": [\"support_ticket\"]`.".to_owned(),
        Attribute::DisplayName => "Write the label shown on the installation page, in double quotes.".to_owned(),
        Attribute::Description => "Write the help text shown under the field, in double quotes.".to_owned(),
        Attribute::Type => "Write the type's name in double quotes, such as \"text\".".to_owned(),
        Attribute::DataBind => format!(
            "Write one of {} in double quotes.",
            crate::suggest::quoted_list(DATA_BIND_VALUES.iter().map(|(name, _)| *name))
        ),
        _ => format!("Write {}.", shape.described()),
    };
    let diagnostic = cx
        .report(&RULE, value.span, message)
        .label(format!("expected {}", shape.described()))
        .help(help)
        .pointer(iparam.pointer_of(attribute));
    if let Some(fix) = fix {
        diagnostic.fix(fix);
    }
}

fn report_item(
    iparam: &Iparam<'_, '_>,
    attribute: Attribute,
    segment: &str,
    item: &Value<'_>,
    cx: &mut Context<'_>,
) {
    let what = match attribute {
        Attribute::Regex => format!("regex entry `{segment}`"),
        _ => format!("item {segment}"),
    };
    let message = format!(
        "`{}` of iparam `{}` must hold strings, but {what} is {}",
        attribute.name(),
        iparam.key.text,
        describe(cx, iparam, item)
    );
    let quotable = matches!(item.kind, ValueKind::Number(_) | ValueKind::Bool(_));
    let source = cx.source(item.span).to_owned();
    let diagnostic = cx
        .report(&RULE, item.span, message)
        .label("expected a string")
        .help("Put it in double quotes.")
        .pointer(iparam.pointer_to(&[attribute.name(), segment]));
    if quotable {
        diagnostic.fix(Fix::safe(
            format!("Write {source} as a string"),
            vec![Edit::replace(item.span, json_string(&source))],
        ));
    }
}
