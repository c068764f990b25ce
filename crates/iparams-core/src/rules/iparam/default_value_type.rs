//! `default-value-type`: a default of the wrong JSON type for its iparam.

use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::model::{Attribute, DefaultValue, Iparam, IparamType};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::{describe, subject};
use crate::syntax::ValueKind;

pub static RULE: Rule = Rule {
    name: "default-value-type",
    severity: Severity::Error,
    area: Area::Defaults,
    summary: "`default_value` is not of the JSON type its iparam's type needs",
    docs: r#"A checkbox's default is a boolean, a multiselect's an array of strings, and every
other type's a string. The fix removes the quotes from `"true"` on a checkbox, wraps a single string
in an array on a multiselect, and takes a dropdown's or radio's single string out of its array.

A multiselect default written as one string that is one of the options, and a dropdown or radio
default written as a one-element array holding an option, are only warnings: the vendor's validator
accepts both as the same choice."#,
    bad: r#"{
  "notify": {"display_name": "Notify", "type": "checkbox", "default_value": "true"}
}
"#,
    good: r#"{
  "notify": {"display_name": "Notify", "type": "checkbox", "default_value": true}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Rejects a checkbox's non-boolean default: `Specify either true or false for the
default_value key in the '<key>' field.` Other types are not checked."#,
    fix: Some(Applicability::Safe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(ty) = iparam.known_type() else {
        return;
    };
    let pointer = || iparam.pointer_of(Attribute::DefaultValue);
    match &iparam.default {
        DefaultValue::Mismatched(value) => {
            let source = cx.source(value.span).to_owned();
            let is_option = |text: &str| {
                iparam
                    .options
                    .as_deref()
                    .is_some_and(|options| options.iter().any(|option| option.text == text))
            };
            // The vendor's validator takes a lone option for a one-element list, and a
            // one-element list for its option: the format is not followed, but the app works.
            let lone = match (ty, &value.kind) {
                (IparamType::Multiselect, ValueKind::String(text)) => is_option(text),
                (IparamType::Dropdown | IparamType::Radio, ValueKind::Array(items)) => {
                    matches!(&items[..], [item] if item.as_str().is_some_and(is_option))
                }
                _ => false,
            };
            let severity = if lone {
                Severity::Warning
            } else {
                RULE.severity
            };
            let accepted = if lone {
                " The vendor's validator accepts it as the same choice, but the format does not."
            } else {
                ""
            };
            let message = format!(
                "`default_value` of {} must be {}, found {}",
                subject(iparam),
                ty.expected_default(),
                describe(cx, iparam, value)
            );
            let fix = match (ty, &value.kind) {
                (IparamType::Checkbox, ValueKind::String(text))
                    if matches!(text.as_ref(), "true" | "false") =>
                {
                    Some(Fix::safe(
                        format!("Replace {source} with {text}"),
                        vec![Edit::replace(value.span, text.to_string())],
                    ))
                }
                (IparamType::Multiselect, ValueKind::String(_)) => Some(Fix::safe(
                    "Wrap the default in an array",
                    vec![Edit::replace(value.span, format!("[{source}]"))],
                )),
                (IparamType::Dropdown | IparamType::Radio, ValueKind::Array(items)) => {
                    match &items[..] {
                        [item] if item.as_str().is_some() => Some(Fix::safe(
                            "Take the default out of the array",
                            vec![Edit::replace(value.span, cx.source(item.span).to_owned())],
                        )),
                        _ => None,
                    }
                }
                _ => None,
            };
            let diagnostic = cx
                .report(&RULE, value.span, message)
                .label(format!("expected {}", ty.expected_default()))
                .help(format!("{}{accepted}", help(ty)))
                .pointer(pointer());
            diagnostic.severity = severity;
            if let Some(fix) = fix {
                diagnostic.fix(fix);
            }
        }
        DefaultValue::List(_, array) => {
            for (index, item) in array.as_array().unwrap_or_default().iter().enumerate() {
                if item.as_str().is_none() {
                    let message = format!(
                        "`default_value` of {} must hold strings, but item {index} is {}",
                        subject(iparam),
                        describe(cx, iparam, item)
                    );
                    cx.report(&RULE, item.span, message)
                        .label("expected a string")
                        .help(help(ty))
                        .pointer(format!("{}/{index}", pointer()));
                }
            }
        }
        _ => {}
    }
}

fn help(ty: IparamType) -> &'static str {
    match ty {
        IparamType::Checkbox => "Write `true` or `false`, without quotes.",
        IparamType::Multiselect => "List the preselected options as strings in an array.",
        _ => "Write the default as a string in double quotes.",
    }
}
