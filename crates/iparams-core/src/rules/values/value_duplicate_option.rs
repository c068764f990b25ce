//! `value-duplicate-option`: a multiselect value that selects an option twice.

use crate::diagnostic::Severity;
use crate::model::IparamType;
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::repeated_strings;
use crate::values::Answer;

pub static RULE: Rule = Rule {
    name: "value-duplicate-option",
    severity: Severity::Error,
    area: Area::Values,
    summary: "A multiselect value selects the same option twice",
    docs: r#"The installation page selects each option of a multiselect at most once, so it never
saves an array with a repeated option. An app tested with one may count, bill or notify twice where
installed apps never do. Remove the repetition."#,
    bad: r#"{
  "teams": ["Sales", "Support", "Sales"]
}
"#,
    good: r#"{
  "teams": ["Sales", "Support"]
}
"#,
    examples: Examples::Values {
        definitions: r#"{
  "teams": {"display_name": "Teams", "type": "multiselect", "options": ["Sales", "Support"], "default_value": ["Sales"]}
}
"#,
        good_definitions: None,
    },
    vendor: r#"Not checked: older FDK releases accepted any array whose elements were all
options."#,
    fix: None,
    checks: &[Check::Value(check)],
};

fn check(answer: &Answer<'_>, cx: &mut Context<'_>) {
    if answer.ty() != Some(IparamType::Multiselect) {
        return;
    }
    let Some(items) = answer.given().and_then(|value| value.as_array()) else {
        return;
    };
    for (index, text, item, first) in repeated_strings(items) {
        let message = format!(
            "{} is selected more than once in the value of {}",
            answer.quote_text(text),
            answer.subject()
        );
        answer
            .report(
                cx,
                &RULE,
                item.span,
                message,
                "The installation page selects each option at most once; remove the repetition.",
            )
            .label("selected again")
            .related(first.span, "first selected here")
            .pointer(answer.item_pointer(index));
    }
}
