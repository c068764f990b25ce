//! `value-not-in-options`: a choice the installation page does not offer.

use crate::diagnostic::Severity;
use crate::model::{IparamType, Text};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::secrets::MASKED;
use crate::span::Span;
use crate::suggest;
use crate::syntax::ValueKind;
use crate::values::Answer;

pub static RULE: Rule = Rule {
    name: "value-not-in-options",
    severity: Severity::Error,
    area: Area::Values,
    summary: "A dropdown, radio or multiselect value is not one of the iparam's options",
    docs: r#"A dropdown or radio offers only its `options`, and a multiselect a subset of them,
so any other value is one no installer can choose. Options are compared exactly, case and spaces
included; the closest option is suggested. Each element of a multiselect's array is checked, and so
is a bare string given to a multiselect (also reported by `value-type`). When the iparam has no
options, nothing is checked here (`missing-options` reports the definition)."#,
    bad: r#"{
  "priority": "Urgent",
  "teams": ["Sales", "support"]
}
"#,
    good: r#"{
  "priority": "High",
  "teams": ["Sales", "Support"]
}
"#,
    examples: Examples::Values {
        definitions: r#"{
  "priority": {"display_name": "Priority", "type": "dropdown", "options": ["Low", "High"], "default_value": "Low"},
  "teams": {"display_name": "Teams", "type": "multiselect", "options": ["Sales", "Support"], "default_value": ["Sales"]}
}
"#,
        good_definitions: None,
    },
    vendor: r#"Older FDK releases rejected `iparam_test_data.json` with `Test data for '<key>' is
not specified in the options`, without saying which value or listing the options."#,
    fix: None,
    checks: &[Check::Value(check)],
};

fn check(answer: &Answer<'_>, cx: &mut Context<'_>) {
    let Some(ty) = answer.ty().filter(|ty| ty.has_options()) else {
        return;
    };
    let (Some(options), Some(value)) = (answer.options(), answer.given()) else {
        return;
    };
    match &value.kind {
        ValueKind::String(text) => report_if_missing(answer, options, text, value.span, None, cx),
        ValueKind::Array(items) if ty == IparamType::Multiselect => {
            for (index, item) in items.iter().enumerate() {
                if let Some(text) = item.as_str() {
                    report_if_missing(answer, options, text, item.span, Some(index), cx);
                }
            }
        }
        _ => {}
    }
}

/// Reports `text` (item `index` of a multiselect's array) unless it is an option.
fn report_if_missing(
    answer: &Answer<'_>,
    options: &[Text<'_>],
    text: &str,
    span: Span,
    index: Option<usize>,
    cx: &mut Context<'_>,
) {
    if options.iter().any(|option| option.text == text) {
        return;
    }
    let quoted = answer.quote_text(text);
    let message = match index {
        Some(_) => format!(
            "{quoted}, selected for {}, is not one of its options",
            answer.subject()
        ),
        None => format!(
            "Value {quoted} of {} is not one of its options",
            answer.subject()
        ),
    };
    let listed = suggest::quoted_list(suggest::distinct(options.iter().map(|o| o.text)));
    let near = (quoted != MASKED)
        .then(|| suggest::closest_unique(text, options.iter().map(|o| o.text)))
        .flatten();
    let help = match near {
        Some(option) => format!("Did you mean \"{option}\"? The options are {listed}."),
        None => format!("The options are {listed}; the installation page offers nothing else."),
    };
    let diagnostic = answer
        .report(cx, &RULE, span, message, &help)
        .label("not an option");
    if let Some(index) = index {
        diagnostic.pointer(answer.item_pointer(index));
    }
}
