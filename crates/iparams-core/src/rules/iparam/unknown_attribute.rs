//! `unknown-attribute`: a member of a definition that is not an attribute.

use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::edits::json_string;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "unknown-attribute",
    severity: Severity::Error,
    area: Area::Keys,
    summary: "An iparam has an attribute the format does not define",
    docs: r#"Attribute names are case-sensitive: `defaultValue`, `displayName` and `Data-bind`
are not `default_value`, `display_name` and `data-bind`, so the installation page ignores them and
the vendor's validator rejects the app. The vendor's own documentation sample writes `Data-bind`
with a capital D; its validator rejects exactly that.

A name that differs from an attribute only in case or separators is renamed by the fix."#,
    bad: r#"{
  "region": {"display_name": "Region", "type": "text", "defaultValue": "us"}
}
"#,
    good: r#"{
  "region": {"display_name": "Region", "type": "text", "default_value": "us"}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Rejects: `Invalid key(s), <keys>, found in the '<key>' field.` FDK 6.9 also
rejects `modules`, which platform 3.x apps need."#,
    // The riskiest fix it makes: safe for a case or separator difference, unsafe for another
    // suggestion.
    fix: Some(Applicability::Unsafe),
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    for entry in iparam.members.iter().filter(|m| m.attribute.is_none()) {
        let key = &entry.member.key;
        let suggestion = suggest::closest(&key.text, Attribute::names());
        let mut help = match suggestion {
            Some("data-bind") if key.text.eq_ignore_ascii_case("data-bind") => {
                "Write `data-bind` in lowercase. The vendor's documentation sample capitalises it, but the validator \
                 rejects `Data-bind` and the installation page ignores it."
                    .to_owned()
            }
            Some(name) => format!("Did you mean `{name}`? Attribute names are case-sensitive."),
            None => format!("The attributes are {}.", suggest::list(Attribute::names())),
        };
        let diagnostic = cx
            .report(
                &RULE,
                key.span,
                format!(
                    "Iparam `{}` has an unknown attribute `{}`",
                    iparam.key.text, key.text
                ),
            )
            .label("not an attribute")
            .pointer(iparam.pointer_to(&[&key.text]));
        // Renaming onto an attribute that is already there would make a duplicate.
        if let Some(name) = suggestion.filter(|name| {
            iparam
                .get(Attribute::from_name(name).expect("a suggested attribute"))
                .is_none()
        }) {
            let certain =
                key.text.to_lowercase().replace(['_', '-'], "") == name.replace(['_', '-'], "");
            let title = format!("Rename `{}` to `{name}`", key.text);
            let edits = vec![Edit::replace(key.span, json_string(name))];
            diagnostic.fix(if certain {
                Fix::safe(title, edits)
            } else {
                Fix::unsafe_(title, edits)
            });
        } else if suggestion.is_some() {
            help.push_str(" It is already defined, so remove this one.");
        }
        diagnostic.help(help);
    }
}
