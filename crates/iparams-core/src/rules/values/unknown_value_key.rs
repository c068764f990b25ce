//! `unknown-value-key`: a value for an iparam that iparams.json does not define.

use std::collections::HashSet;

use crate::app::page_functions::META;
use crate::diagnostic::Severity;
use crate::pointer;
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::suggest;
use crate::syntax::Member;
use crate::values::{Definition, DefinitionsFile, ValuesFile};

pub static RULE: Rule = Rule {
    name: "unknown-value-key",
    severity: Severity::Warning,
    area: Area::Values,
    summary: "A values file gives a value for a key that is not an iparam",
    docs: r#"Every key of a values file should be the key of an iparam defined in iparams.json.
Any other key has no field on the installation page and is not returned by `client.iparams.get()`,
so a misspelt key (`api_kye`) leaves the real iparam without its value, and a key left over from an
iparam that was renamed or removed does nothing. Keys are compared exactly, case included; the
closest iparam key is suggested. `__meta`, which the vendor's saved values carry to name the
secure ones (`"__meta": {"secure": ["api_key"]}`), is not a value; the values it names are never
shown.

It is a warning, since an extra key on its own breaks nothing; the misspelt iparam usually has its
own finding (such as `value-required`)."#,
    bad: r#"{
  "api_kye": "acme",
  "region": "eu"
}
"#,
    good: r#"{
  "api_key": "acme",
  "region": "eu"
}
"#,
    examples: Examples::Values {
        definitions: r#"{
  "api_key": {"display_name": "API key", "type": "text", "secure": true},
  "region": {"display_name": "Region", "type": "text"}
}
"#,
        good_definitions: None,
    },
    vendor: r#"Not checked by FDK 6.9, which only warns that `iparam_test_data.json` is
deprecated."#,
    fix: None,
    checks: &[Check::Values(check)],
};

/// How many iparam keys a finding lists when none is close.
const LISTED: usize = 12;

/// Reports each key of the values object that names no iparam, once.
fn check(values: &ValuesFile<'_>, cx: &mut Context<'_>) {
    if let Ok(iparams) = values.iparams {
        report(values.members, iparams, values.definitions, cx);
    }
}

fn report(
    members: &[Member<'_>],
    iparams: &[Definition<'_>],
    file: &DefinitionsFile<'_>,
    cx: &mut Context<'_>,
) {
    let keys: Vec<&str> = iparams.iter().map(Definition::key).collect();
    let known: HashSet<&str> = keys.iter().copied().collect();
    let mut reported = HashSet::new();
    for member in members {
        let key = member.key.text.as_ref();
        if known.contains(key) || key == META || !reported.insert(key) {
            continue;
        }
        let first = match suggest::closest_unique(key, keys.iter().copied()) {
            Some(near) => format!("Did you mean `{near}`?"),
            None if keys.is_empty() => format!("{} defines no iparams.", file.path),
            None if keys.len() > LISTED => format!(
                "The iparams include {}, and {} more.",
                suggest::list(keys[..LISTED].iter().copied()),
                keys.len() - LISTED
            ),
            None => format!("The iparams are {}.", suggest::list(keys.iter().copied())),
        };
        cx.report(
            &RULE,
            member.key.span,
            format!("`{key}` is not an iparam of {}", file.path),
        )
        .label("no such iparam")
        .help(format!(
            "{first} The installation page has no field for it, and `client.iparams.get()` does not return it."
        ))
        .pointer(pointer::of_key(key));
    }
}
