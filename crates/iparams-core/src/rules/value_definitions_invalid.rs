//! `value-definitions-invalid`: the iparams.json the values belong to cannot be read.

use super::{Check, Context, Rule};
use crate::diagnostic::Severity;
use crate::span::Span;
use crate::values::DefinitionsFile;

pub static RULE: Rule = Rule {
    name: "value-definitions-invalid",
    severity: Severity::Error,
    summary: "The iparams.json that defines the values cannot be read, so the values are not checked",
    docs: "Values are checked against the iparams that iparams.json defines. When that file is not \
JSON without a single mistake (a trailing comma, a comment, UTF-16), or its top level is not an \
object, the installation page cannot be built from it, and checking the values would rest on a \
guess of what its author meant. So the values are not checked at all: one finding, at the start \
of the values file, says what is wrong with iparams.json and where. Nothing of the values is \
shown in the output, since nothing is known of which are secret.\n\n\
Run `iparams-lint check` on iparams.json to see every problem in it.",
    bad: "{\n  \"region\": \"eu\"\n}\n",
    good: "{\n  \"region\": \"eu\"\n}\n",
    vendor: "Older FDK releases stop with the `JSON.parse` error of iparams.json, without a line or column.",
    fix: None,
    check: Check::Values {
        definitions: "{\n  \"region\": {\"display_name\": \"Region\", \"type\": \"text\",}\n}\n",
        good_definitions: Some(
            "{\n  \"region\": {\"display_name\": \"Region\", \"type\": \"text\"}\n}\n",
        ),
        each: None,
    },
};

/// Reports that the values of the object at `object` were not checked, because `file` is
/// `problem` (at `place`, when there is one).
pub(crate) fn report(
    object: Span,
    file: &DefinitionsFile<'_>,
    place: Option<String>,
    problem: &str,
    cx: &mut Context<'_>,
) {
    let place = place.unwrap_or_else(|| file.path.to_owned());
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
