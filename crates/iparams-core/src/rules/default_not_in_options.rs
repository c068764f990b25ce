//! `default-not-in-options`: a preselected value that is not a choice.

use super::{Check, Context, Rule, subject};
use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::fixes::json_string;
use crate::model::{Attribute, DefaultValue, Iparam, Text};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "default-not-in-options",
    severity: Severity::Error,
    summary: "`default_value` is not one of the iparam's options",
    docs: "The default of a dropdown or radio must be one of its `options`, and every element of a \
multiselect's default must be. Options are compared exactly, case included. When the default \
differs from an option only in case, the fix uses the option.",
    bad: "{\n  \"priority\": {\"display_name\": \"Priority\", \"type\": \"dropdown\", \"options\": [\"Low\", \"High\"], \"default_value\": \"Urgent\"}\n}\n",
    good: "{\n  \"priority\": {\"display_name\": \"Priority\", \"type\": \"dropdown\", \"options\": [\"Low\", \"High\"], \"default_value\": \"High\"}\n}\n",
    vendor: "Rejects: `The default value specified for the '<key>' <type> type is not listed in the options.`",
    fix: Some(Applicability::Safe),
    check: Check::Iparam(check),
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(options) = iparam.options.as_deref().filter(|o| !o.is_empty()) else {
        return;
    };
    match &iparam.default {
        DefaultValue::Text(text) if iparam.known_type().is_some_and(|ty| ty.has_options()) => {
            report_if_missing(iparam, options, text, None, cx);
        }
        DefaultValue::List(items, array) => {
            let elements = array.as_array().unwrap_or_default();
            for item in items {
                let index = elements
                    .iter()
                    .position(|e| e.span == item.span)
                    .unwrap_or_default();
                report_if_missing(iparam, options, item, Some(index), cx);
            }
        }
        _ => {}
    }
}

fn report_if_missing(
    iparam: &Iparam<'_, '_>,
    options: &[Text<'_>],
    value: &Text<'_>,
    index: Option<usize>,
    cx: &mut Context<'_>,
) {
    if options.iter().any(|option| option.text == value.text) {
        return;
    }
    let same_but_case: Vec<&Text<'_>> = options
        .iter()
        .filter(|o| o.text.eq_ignore_ascii_case(value.text))
        .collect();
    let near = suggest::closest(value.text, options.iter().map(|o| o.text));
    let listed = suggest::quoted_list(options.iter().map(|o| o.text));
    let help = match near {
        Some(option) => format!("Did you mean \"{option}\"? The options are {listed}."),
        None => format!(
            "Use one of {listed}, or add {} to `options`.",
            iparam.quote(value)
        ),
    };
    let diagnostic = cx
        .report(
            &RULE,
            value.span,
            format!(
                "Default {} of {} is not one of its options",
                iparam.quote(value),
                subject(iparam)
            ),
        )
        .label("not an option")
        .help(help)
        .pointer(match index {
            Some(index) => iparam.pointer_to(&[Attribute::DefaultValue.name(), &index.to_string()]),
            None => iparam.pointer_of(Attribute::DefaultValue),
        });
    if let [option] = same_but_case.as_slice() {
        diagnostic.fix(Fix::safe(
            format!("Use the option \"{}\"", option.text),
            vec![Edit::replace(value.span, json_string(option.text))],
        ));
    }
}
