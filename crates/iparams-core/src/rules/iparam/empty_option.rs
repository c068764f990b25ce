//! `empty-option`: a blank choice.

use crate::diagnostic::Severity;
use crate::model::{Attribute, DefaultValue, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "empty-option",
    severity: Severity::Warning,
    area: Area::Options,
    summary: "An option is an empty or blank string",
    docs: r#"A blank option shows as an empty choice. To let installers leave a dropdown unset,
make the iparam optional rather than adding an empty choice.

One exception is the vendor's dynamic-options pattern: `"options": [""]` with `"default_value": ""`
(`[""]` on a multiselect), whose real choices a change callback sets with `utils.set(key, {values: [...]})`. In an app whose
config/assets/iparams.js does that for the key, it is not reported; in an app that does not, it is a
warning; outside an app, where the callbacks cannot be seen, it is only an info. The help never
suggests an edit that another rule would report (removing the only option would leave `options`
empty)."#,
    bad: r#"{
  "priority": {"display_name": "Priority", "type": "dropdown", "options": ["", "Low", "High"], "default_value": "Low"}
}
"#,
    good: r#"{
  "priority": {"display_name": "Priority", "type": "dropdown", "options": ["Low", "High"], "default_value": "Low"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::Iparam(check)],
};

/// The vendor's dynamic-options pattern: `"options": [""]` with a blank default (`""`, or `[""]`
/// on a multiselect), whose real choices a change callback sets with
/// `utils.set(key, {values: [...]})`.
fn is_placeholder(iparam: &Iparam<'_, '_>, options: &[crate::model::Text<'_>]) -> bool {
    let blank_default = match &iparam.default {
        DefaultValue::List(items, list) => {
            matches!(items.as_slice(), [only] if only.text.is_empty())
                && list.as_array().is_some_and(|all| all.len() == 1)
        }
        _ => iparam
            .string(Attribute::DefaultValue)
            .is_some_and(|default| default.text.is_empty()),
    };
    matches!(options, [only] if only.text.is_empty()) && blank_default
}

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(options) = &iparam.options else {
        return;
    };
    let placeholder = is_placeholder(iparam, options);
    if placeholder
        && cx
            .app()
            .is_some_and(|app| app.filled.contains(iparam.key.text.as_ref()))
    {
        return;
    }
    // Outside an app, the callbacks cannot be seen: the pattern is only mentioned.
    let severity = if placeholder && cx.app().is_none() {
        Severity::Info
    } else {
        RULE.severity
    };
    let default_is_blank = iparam
        .string(Attribute::DefaultValue)
        .is_some_and(|d| d.text.trim().is_empty());
    let others = options.iter().filter(|o| !o.text.trim().is_empty()).count();
    let key = &iparam.key.text;
    let help = if placeholder {
        format!(
            "This is the placeholder of options filled at run time: a change callback in \
             config/assets/iparams.js should give the real ones with `utils.set(\"{key}\", \
             {{values: [...]}})`. {}",
            if cx.app().is_some() {
                "No callback of this app does, so the installer sees one empty choice."
            } else {
                "This file is not checked inside its app, so whether a callback does is not known."
            }
        )
    } else if others == 0 {
        "List the real choices in `options` (a dropdown needs at least one), or fill them from a \
         callback with `utils.set(key, {values: [...]})`."
            .to_owned()
    } else if default_is_blank {
        "Remove it, and make `default_value` one of the other options; to let the field stay \
         unset, leave `required` false instead."
            .to_owned()
    } else {
        "Remove it; to let the field stay unset, leave `required` false instead.".to_owned()
    };
    for (index, option) in options
        .iter()
        .enumerate()
        .filter(|(_, o)| o.text.trim().is_empty())
    {
        let (article, what) = if option.text.is_empty() {
            ("an", "empty")
        } else {
            ("a", "blank")
        };
        let diagnostic = cx
            .report(
                &RULE,
                option.span,
                format!("Iparam `{key}` has {article} {what} option"),
            )
            .label(format!("{what} choice"))
            .help(help.clone())
            .pointer(iparam.pointer_to(&[Attribute::Options.name(), &index.to_string()]));
        diagnostic.severity = severity;
    }
}
