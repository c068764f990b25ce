//! `root-not-object`: the top level is not an object of iparams.

use super::{Check, Context, FileKind, Rule};
use crate::diagnostic::Severity;
use crate::span::Span;
use crate::syntax::{JsonKind, RootShape};

pub static RULE: Rule = Rule {
    name: "root-not-object",
    severity: Severity::Error,
    summary: "The top level of iparams.json, or of a values file, is not an object",
    docs: "iparams.json is one JSON object: each member's key is an iparam key and its value is that \
iparam's definition. An array of definitions, or any other value, declares nothing.\n\n\
A values file checked by `iparams-lint values` is one object too, mapping each iparam key to its \
value, as `client.iparams.get()` returns them.",
    bad: "[\n  {\"display_name\": \"Region\", \"type\": \"text\"}\n]\n",
    good: "{\n  \"region\": {\"display_name\": \"Region\", \"type\": \"text\"}\n}\n",
    vendor: "Not checked: the validator's checks find nothing to iterate over and the app passes.",
    fix: None,
    check: Check::Syntax,
};

pub(crate) fn report(root: RootShape, file: FileKind, cx: &mut Context<'_>) {
    let RootShape::Other(kind, span) = root else {
        return;
    };
    let help = match (file, kind) {
        (FileKind::Definitions, JsonKind::Array) => {
            "Make each definition a member of one object, under the key the app reads it by: \
             `{\"region\": {\"display_name\": \"Region\", \"type\": \"text\"}}`."
        }
        (FileKind::Definitions, _) => {
            "iparams.json is one object whose keys are the iparam keys; use `{}` when the app has none."
        }
        (FileKind::Values, _) => {
            "A values file is one object that maps each iparam key to its value, such as \
             `{\"region\": \"eu\", \"notify\": true}`."
        }
        (FileKind::Manifest, _) => {
            "manifest.json is one object, such as `{\"platform-version\": \"2.3\", \"product\": {...}}`."
        }
    };
    let contents = match file {
        FileKind::Definitions => "iparams",
        FileKind::Values => "values",
        FileKind::Manifest => "app settings",
    };
    let first_character = Span::new(
        span.start,
        span.start + cx.source(span).chars().next().map_or(0, char::len_utf8),
    );
    cx.report(
        &RULE,
        first_character,
        format!(
            "The top level is {}, not an object of {contents}",
            kind.described()
        ),
    )
    .label(format!("{} starts here", kind.described()))
    .help(help);
}
