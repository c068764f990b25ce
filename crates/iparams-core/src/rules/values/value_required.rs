//! `value-required`: a required iparam without a value.

use crate::diagnostic::Severity;
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::values::{Answer, Unanswered};

pub static RULE: Rule = Rule {
    name: "value-required",
    severity: Severity::Error,
    area: Area::Values,
    summary: "A required iparam has no value, or a required checkbox is not ticked",
    docs: r#"The installation page does not accept INSTALL until every required field is filled.
A value counts as missing when its key is absent, or when it is `null`, `""` or, for a multiselect,
`[]` (no option selected); a required checkbox must be `true`, since an unticked box is no answer. A
`default_value` does not stand in for a missing value: the page preselects the default, but a values
file is what the installer submits, so it must hold the value itself.

Older FDK releases treated any falsy value as missing. That is followed here, with one difference: a
JSON `0` given to a number iparam is a value, since an installer can type 0. A string of spaces is a
value, as in a browser's required field (the format checks may still reject it). A required iparam
that is also hidden is reported by `hidden-required-value` instead."#,
    bad: r#"{
  "region": "",
  "accept_terms": false
}
"#,
    good: r#"{
  "region": "eu",
  "accept_terms": true
}
"#,
    examples: Examples::Values {
        definitions: r#"{
  "region": {"display_name": "Region", "type": "text", "required": true},
  "accept_terms": {"display_name": "I accept the terms", "type": "checkbox", "required": true}
}
"#,
        good_definitions: None,
    },
    vendor: r#"Older FDK releases rejected `iparam_test_data.json` with `'<key>' is a required
field.` for any falsy value, a JSON 0 included. FDK 6.9 only warns that the file is deprecated."#,
    fix: None,
    checks: &[Check::Value(check)],
};

fn check(answer: &Answer<'_>, cx: &mut Context<'_>) {
    if !answer.is_required() || answer.is_hidden() {
        return;
    }
    let Some(why) = answer.unanswered() else {
        return;
    };
    let key = answer.key();
    let named = answer.named();
    let span = answer
        .value
        .map_or_else(|| answer.missing_span(), |value| value.span);
    let (message, label) = match why {
        Unanswered::Absent => (
            format!("The required {named} has no value"),
            format!("`{key}` is missing"),
        ),
        Unanswered::Null => (format!("The required {named} is null"), "no value".into()),
        Unanswered::Empty => (format!("The required {named} is empty"), "empty".into()),
        Unanswered::NoneSelected => (
            format!("The required {named} has no option selected"),
            "nothing selected".into(),
        ),
        Unanswered::Unchecked => (
            format!("The required checkbox `{key}` is not ticked"),
            "`false` is no answer".into(),
        ),
    };
    let help = if why == Unanswered::Unchecked {
        "A required checkbox must be ticked: the installation page does not accept INSTALL until it is. \
         Set it to `true`, or make the iparam optional."
            .to_owned()
    } else {
        let mut help = format!(
            "The installation page does not accept INSTALL without it. Give {}.",
            answer.what_to_give()
        );
        if let (Unanswered::Absent, Some(default)) = (why, answer.quoted_default()) {
            help.push_str(&format!(
                " The page would preselect its default, {default}, but a values file must hold the value itself."
            ));
        }
        help
    };
    answer.report(cx, &RULE, span, message, &help).label(label);
}
