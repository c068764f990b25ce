//! `missing-default`: a choice type without a default, which the vendor's validator rejects.

use crate::diagnostic::{Applicability, Fix, Severity};
use crate::edits::{insert_member, json_string};
use crate::model::{Attribute, DefaultValue, Iparam, IparamType};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::rules::helpers::{capitalise, subject};

pub static RULE: Rule = Rule {
    name: "missing-default",
    severity: Severity::Error,
    area: Area::Defaults,
    summary: "A dropdown, radio or multiselect has no `default_value`, which `fdk validate` rejects",
    docs: r#"The format calls `default_value` optional, but the vendor's validator (FDK 6.9, run
by `fdk validate`, `fdk pack` and `fdk run`) rejects a dropdown, radio or multiselect without one,
and reports it twice. It is an error here, as the app cannot be packed or run until a default is
set, although the format calls it optional (the help says so). A multiselect's default is an array
(`["a"]`). The fix (unsafe: it picks a choice for the installer) preselects the first option."#,
    bad: r#"{
  "priority": {"display_name": "Priority", "type": "dropdown", "options": ["Low", "High"]}
}
"#,
    good: r#"{
  "priority": {"display_name": "Priority", "type": "dropdown", "options": ["Low", "High"], "default_value": "Low"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Rejects: `In the '<key>' field, specify the default value for the <type> type.`",
    fix: Some(Applicability::Unsafe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(ty) = iparam.known_type().filter(|ty| ty.has_options()) else {
        return;
    };
    if !matches!(iparam.default, DefaultValue::Absent) {
        return;
    }
    let first = iparam.options.as_deref().and_then(<[_]>::first);
    // The default the help suggests and the fix writes: the first option (in an array, for a
    // multiselect), written as JSON once for both.
    let value = first.map(|first| match ty {
        IparamType::Multiselect => ["[", &json_string(first.text), "]"].concat(),
        _ => json_string(first.text),
    });
    let suggestion = match (ty, value.as_deref()) {
        (IparamType::Multiselect, Some(value)) => [
            ": an array of the preselected options, such as `",
            value,
            "`",
        ]
        .concat(),
        (IparamType::Multiselect, None) => ": an array of the preselected options".to_owned(),
        (_, Some(value)) => [", such as ", value].concat(),
        (_, None) => String::new(),
    };
    let help = format!(
        "The format makes it optional, but `fdk validate` and `fdk pack` reject the app with \"In the '{}' field, \
         specify the default value for the {} type.\" Add a `default_value`{suggestion}.",
        iparam.key.text,
        ty.name(),
    );
    let fix = first.zip(value.as_deref()).and_then(|(first, value)| {
        let edit = insert_member(
            cx.text(),
            iparam.value,
            Attribute::DefaultValue.name(),
            value,
        )?;
        Some(Fix::unsafe_(
            ["Preselect \"", first.text, "\""].concat(),
            vec![edit],
        ))
    });
    let diagnostic = cx
        .report(
            &RULE,
            iparam.key.span,
            format!("{} has no `default_value`", capitalise(&subject(iparam))),
        )
        .label("no default")
        .help(help)
        .pointer(iparam.pointer());
    if let Some(fix) = fix {
        diagnostic.fix(fix);
    }
}
