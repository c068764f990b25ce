//! `iparam-not-object`: a definition that is not an object.

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "iparam-not-object",
    severity: Severity::Error,
    area: Area::Keys,
    summary: "An iparam's definition is not an object",
    docs: r#"Each member of iparams.json defines one iparam with an object of attributes, at
least `display_name` and `type`. A string, number or array there defines nothing the installation
page can show."#,
    bad: r#"{
  "region": "us"
}
"#,
    good: r#"{
  "region": {"display_name": "Region", "type": "text", "default_value": "us"}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Rejects: `The mandatory key(s), display_name, type, missing for the '<key>'
field.`"#,
    fix: None,
    checks: &[Check::Iparam(check)],
};

fn check(iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
    // A definition's key that is itself an attribute name is `reserved-key`'s case: the file
    // is probably one bare definition, and that rule explains it better.
    if iparam.is_object() || Attribute::from_name(&iparam.key.text).is_some() {
        return;
    }
    let key = &iparam.key.text;
    let help = if key == "$schema" {
        // Editors map a schema by this key in other files; here the vendor's tools read it as
        // an iparam like any other.
        "The vendor's tools read every top-level key of iparams.json as an iparam, `$schema` too. Remove it, and map the schema to the file in the editor instead: in VS Code, `\"json.schemas\": [{\"fileMatch\": [\"**/config/iparams.json\"], \"url\": \"...\"}]` in settings (`iparams-lint schema` prints the schema; the extension maps it for you).".to_owned()
    } else {
        format!(
            "Define it with an object of attributes: `\"{key}\": {{\"display_name\": \"...\", \"type\": \"text\"}}`."
        )
    };
    cx.report(
        &RULE,
        iparam.value.span,
        format!(
            "Iparam `{key}` is {}, not an object",
            iparam.value.json_kind().described()
        ),
    )
    .label("expected an object")
    .help(help)
    .pointer(iparam.pointer());
}
