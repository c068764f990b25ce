//! `reserved-key`: an iparam key that is the name of an attribute.

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "reserved-key",
    severity: Severity::Error,
    area: Area::Keys,
    summary: "An iparam key is the name of an attribute",
    docs: r#"Attribute names (`display_name`, `type`, `options`, `default_value`, `secure`, ...)
are reserved and cannot be iparam keys. Most often the file holds one bare definition instead of an
object of definitions, so every attribute reads as an iparam.

The vendor's validator stops checking an iparam once it finds this; here every other rule still
runs."#,
    bad: r#"{
  "display_name": "Region",
  "type": "text"
}
"#,
    good: r#"{
  "region": {
    "display_name": "Region",
    "type": "text"
  }
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Rejects: `Do not use reserved keywords, display_name, description, type, required,
visible, default_value, options, regex, secure, data-bind, type_attributes, events, as keys.` and
skips the iparam's other checks."#,
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    let Some(attribute) = Attribute::from_name(&iparam.key.text) else {
        return;
    };
    let help = if iparam.is_object() {
        format!(
            "Rename the iparam, for example to `{}_setting`, and read it by that key in the app.",
            attribute.name()
        )
    } else {
        "This looks like an iparam's attributes written directly at the top level. Wrap them in an \
         object under the iparam's key: `{\"region\": {\"display_name\": ..., \"type\": ...}}`."
            .to_owned()
    };
    cx.report(
        &RULE,
        iparam.key.span,
        format!(
            "`{}` is an attribute name and cannot be an iparam key",
            attribute.name()
        ),
    )
    .label("reserved")
    .help(help)
    .pointer(iparam.pointer());
}
