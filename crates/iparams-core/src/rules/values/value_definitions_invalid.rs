//! `value-definitions-invalid`: the iparams.json the values belong to cannot be read.

use crate::diagnostic::Severity;
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::span::Span;
use crate::values::ValuesFile;

pub static RULE: Rule = Rule {
    name: "value-definitions-invalid",
    severity: Severity::Error,
    area: Area::Values,
    summary: "The iparams.json that defines the values cannot be read, so the values are not checked",
    docs: r#"Values are checked against the iparams that iparams.json defines. When that file is
not JSON without a single mistake (a trailing comma, a comment, UTF-16), or its top level is not an
object, the installation page cannot be built from it, and checking the values would rest on a guess
of what its author meant. So the values are not checked at all: one finding, at the start of the
values file, says what is wrong with iparams.json and where. Nothing of the values is shown in the
output, since nothing is known of which are secret.

Run `iparams-lint check` on iparams.json to see every problem in it."#,
    bad: r#"{
  "region": "eu"
}
"#,
    good: r#"{
  "region": "eu"
}
"#,
    examples: Examples::Values {
        definitions: r#"{
  "region": {"display_name": "Region", "type": "text",}
}
"#,
        good_definitions: Some(
            r#"{
  "region": {"display_name": "Region", "type": "text"}
}
"#,
        ),
    },
    vendor: r#"Older FDK releases stop with the `JSON.parse` error of iparams.json, without a
line or column."#,
    fix: None,
    checks: &[Check::Values(check)],
};

/// Reports that the values were not checked, when their definitions cannot be used.
fn check(values: &ValuesFile<'_>, cx: &mut Context<'_>) {
    let Err(unusable) = values.iparams else {
        return;
    };
    let (object, file, problem) = (values.object.span, values.definitions, &unusable.problem);
    let place = unusable
        .at
        .map_or_else(|| file.path.to_owned(), |span| file.place(span));
    cx.report(
        &RULE,
        Span::new(object.start, object.start + 1),
        format!("The values were not checked: {} cannot be used", file.path),
    )
    .label("not checked")
    .help(format!(
        "{place}: {problem}. Fix it (`iparams-lint check {}` lists every problem), then check the values \
         again; checked against a guess of the definitions, wrong values could pass and right ones fail.",
        file.path
    ));
}
