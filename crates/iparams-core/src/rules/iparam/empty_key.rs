//! `empty-key`: an iparam whose key is "".

use crate::diagnostic::Severity;
use crate::model::Iparam;
use crate::rules::framework::{Area, Check, Context, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "empty-key",
    severity: Severity::Error,
    area: Area::Keys,
    summary: "An iparam's key is empty",
    docs: r#"The key is how the app reads the value (`client.iparams.get("region")`,
`args.iparams.region`); an empty key cannot be read back."#,
    bad: r#"{
  "": {"display_name": "Region", "type": "text"}
}
"#,
    good: r#"{
  "region": {"display_name": "Region", "type": "text"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Rejects: `The iparam key should be a non-empty string.`",
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    if iparam.key.text.is_empty() {
        cx.report(&RULE, iparam.key.span, "Iparam key is empty")
            .label("empty key")
            .help("Give the iparam a key: the app reads its value by it, as in `client.iparams.get(\"region\")`.")
            .pointer(iparam.pointer());
    }
}
