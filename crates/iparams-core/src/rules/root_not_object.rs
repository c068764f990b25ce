//! `root-not-object`: the top level is not an object of iparams.

use super::{Check, Context, Rule};
use crate::diagnostic::Severity;
use crate::span::Span;
use crate::syntax::{JsonKind, RootShape};

pub static RULE: Rule = Rule {
    name: "root-not-object",
    severity: Severity::Error,
    summary: "The top level of iparams.json is not an object",
    docs: "iparams.json is one JSON object: each member's key is an iparam key and its value is that \
iparam's definition. An array of definitions, or any other value, declares nothing.",
    bad: "[\n  {\"display_name\": \"Region\", \"type\": \"text\"}\n]\n",
    good: "{\n  \"region\": {\"display_name\": \"Region\", \"type\": \"text\"}\n}\n",
    vendor: "Not checked: the validator's checks find nothing to iterate over and the app passes.",
    fix: None,
    check: Check::Syntax,
};

pub(crate) fn report(root: RootShape, cx: &mut Context<'_>) {
    let RootShape::Other(kind, span) = root else {
        return;
    };
    let help = if kind == JsonKind::Array {
        "Make each definition a member of one object, under the key the app reads it by: \
         `{\"region\": {\"display_name\": \"Region\", \"type\": \"text\"}}`."
    } else {
        "iparams.json is one object whose keys are the iparam keys; use `{}` when the app has none."
    };
    let first_character = Span::new(
        span.start,
        span.start + cx.source(span).chars().next().map_or(0, char::len_utf8),
    );
    cx.report(
        &RULE,
        first_character,
        format!(
            "The top level is {}, not an object of iparams",
            kind.described()
        ),
    )
    .label(format!("{} starts here", kind.described()))
    .help(help);
}
