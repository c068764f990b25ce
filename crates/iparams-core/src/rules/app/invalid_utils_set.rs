//! `invalid-utils-set`: a `utils.set` attribute that the field cannot take.

use crate::app::{AppModel, Literal, UtilsMethod};
use crate::diagnostic::Severity;
use crate::model::IparamType;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "invalid-utils-set",
    severity: Severity::Error,
    area: Area::App,
    summary: "`utils.set` sets an attribute the field does not have, or a value of the wrong type",
    docs: r#"`utils.set(key, {...})` takes `value`, `label`, `hint` (strings; `value` is an array
of strings for a multiselect and a boolean for a checkbox), `visible`, `disabled`, `required`
(booleans), `values` (an array of strings, for dropdown, radio and multiselect only) and `min`,
`max` (numbers, for number fields only). Anything else is ignored by the installation page; values
that are literals are checked against these types."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text", "events": [{"change": "onRegion"}]},
  "zone": {"display_name": "Zone", "type": "text"}
}
=== config/assets/iparams.js ===
function onRegion(value) {
  utils.set("zone", { values: ["a", "b"], visible: "true" });
}
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text", "events": [{"change": "onRegion"}]},
  "zone": {"display_name": "Zone", "type": "dropdown", "options": ["a"], "default_value": "a"}
}
=== config/assets/iparams.js ===
function onRegion(value) {
  utils.set("zone", { values: ["a", "b"], visible: true });
}
"#,
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

const ATTRIBUTES: [&str; 9] = [
    "value", "label", "visible", "disabled", "required", "hint", "values", "min", "max",
];

/// The literal types an attribute takes on a field of type `ty`.
fn accepted(attribute: &str, ty: Option<IparamType>) -> &'static [Literal] {
    match attribute {
        "value" => match ty {
            Some(IparamType::Multiselect) => &[Literal::StringArray],
            Some(IparamType::Checkbox) => &[Literal::Boolean],
            _ => &[Literal::String, Literal::Number],
        },
        "label" | "hint" => &[Literal::String],
        "visible" | "disabled" | "required" => &[Literal::Boolean],
        "values" => &[Literal::StringArray],
        _ => &[Literal::Number],
    }
}

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    // `utils` belongs to pages generated from iparams.json, whose types these checks read.
    if model.source.is_page() {
        return;
    }
    let Some((file, facts)) = &model.callbacks else {
        return;
    };
    for call in facts
        .utils_calls
        .iter()
        .filter(|call| call.method == UtilsMethod::Set)
    {
        let Some(declared) = call.key.as_ref().and_then(|(key, _)| model.declared(key)) else {
            continue;
        };
        let key = &declared.key;
        let ty = declared.ty;
        let type_name = ty.map_or("this", IparamType::name);
        for attribute in &call.attributes {
            let name = attribute.name.as_str();
            let problem = if !ATTRIBUTES.contains(&name) {
                let hint = suggest::closest(name, ATTRIBUTES)
                    .map(|a| format!("Did you mean `{a}`? "))
                    .unwrap_or_default();
                Some((
                    attribute.name_span,
                    format!("`utils.set` has no attribute `{name}`"),
                    format!("{hint}The attributes are {}.", suggest::list(ATTRIBUTES)),
                ))
            } else if name == "values" && !ty.is_some_and(IparamType::has_options) {
                Some((
                    attribute.name_span,
                    format!("`values` cannot be set on the {type_name} field `{key}`"),
                    "Only dropdown, radio and multiselect fields have choices to replace."
                        .to_owned(),
                ))
            } else if matches!(name, "min" | "max") && ty != Some(IparamType::Number) {
                Some((
                    attribute.name_span,
                    format!("`{name}` cannot be set on the {type_name} field `{key}`"),
                    "`min` and `max` apply to number fields only.".to_owned(),
                ))
            } else if attribute.value != Literal::Computed
                && !accepted(name, ty).contains(&attribute.value)
            {
                let expected: Vec<&str> =
                    accepted(name, ty).iter().map(|l| l.described()).collect();
                Some((
                    attribute.value_span,
                    format!(
                        "`{name}` of the {type_name} field `{key}` is given {}, not {}",
                        attribute.value.described(),
                        expected.join(" or ")
                    ),
                    "The installation page ignores a value of the wrong type.".to_owned(),
                ))
            } else {
                None
            };
            if let Some((span, message, help)) = problem {
                let help = format!(
                    "{help} (`{key}` is defined at {}.)",
                    model.defined_at(declared.key_span)
                );
                cx.report(*file, &RULE, span, message)
                    .label("not accepted")
                    .help(help);
            }
        }
    }
}
