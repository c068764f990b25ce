//! `missing-attribute`: `display_name` or `type` is missing.

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam, IparamType};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "missing-attribute",
    severity: Severity::Error,
    area: Area::Keys,
    summary: "An iparam has no `display_name` or no `type`",
    docs: r#"Every iparam needs a `display_name`, the label on the installation page, and a
`type`, which decides the input shown and how its value is checked."#,
    bad: r#"{
  "region": {"description": "Where your data lives"}
}
"#,
    good: r#"{
  "region": {"display_name": "Region", "description": "Where your data lives", "type": "text"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Rejects: `The mandatory key(s), <missing>, missing for the '<key>' field.`",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    if !iparam.is_object() || Attribute::from_name(&iparam.key.text).is_some() {
        return;
    }
    let missing: Vec<Attribute> = [Attribute::DisplayName, Attribute::Type]
        .into_iter()
        .filter(|&attribute| iparam.get(attribute).is_none())
        .collect();
    if missing.is_empty() {
        return;
    }
    let names: Vec<String> = missing.iter().map(|a| format!("`{}`", a.name())).collect();
    let mut hints = Vec::new();
    for attribute in &missing {
        // A near-miss such as `displayName` is what the author meant.
        let near = iparam
            .members
            .iter()
            .filter(|m| m.attribute.is_none())
            .find(|m| suggest::closest(&m.member.key.text, [attribute.name()]).is_some());
        hints.push(match (near, attribute) {
            (Some(near), _) => format!(
                "`{}` is there, but names are case-sensitive: rename it to `{}`.",
                near.member.key.text,
                attribute.name()
            ),
            (None, Attribute::DisplayName) => {
                "Add `\"display_name\"`: the label shown on the installation page.".to_owned()
            }
            (None, _) => format!(
                "Add `\"type\"`, one of {}.",
                suggest::list(IparamType::names())
            ),
        });
    }
    cx.report(
        &RULE,
        iparam.key.span,
        format!("Iparam `{}` has no {}", iparam.key.text, names.join(" or ")),
    )
    .label(format!("missing {}", names.join(" and ")))
    .help(hints.join(" "))
    .pointer(iparam.pointer());
}
