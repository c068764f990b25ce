//! `root-not-object`: the top level is not an object of iparams.

use crate::diagnostic::Severity;
use crate::reading::{FileKind, Reading};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::span::Span;
use crate::syntax::{JsonKind, RootShape};

pub static RULE: Rule = Rule {
    name: "root-not-object",
    severity: Severity::Error,
    area: Area::File,
    summary: "The top level of iparams.json, or of a values file, is not an object",
    docs: r#"iparams.json is one JSON object: each member's key is an iparam key and its value is
that iparam's definition. An array of definitions, or any other value, declares nothing.

A values file checked by `iparams-lint values` is one object too, mapping each iparam key to its
value, as `client.iparams.get()` returns them."#,
    bad: r#"[
  {"display_name": "Region", "type": "text"}
]
"#,
    good: r#"{
  "region": {"display_name": "Region", "type": "text"}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Not checked: the validator's checks find nothing to iterate over and the app
passes."#,
    fix: None,
    checks: &[Check::Reading(check)],
};

fn check(reading: &Reading<'_>, cx: &mut Context<'_>) {
    let Some(RootShape::Other(kind, span)) = reading.root else {
        return;
    };
    let file = reading.kind;
    let help = match (file, kind) {
        (FileKind::Iparams, JsonKind::Array) => {
            "Make each definition a member of one object, under the key the app reads it by: \
             `{\"region\": {\"display_name\": \"Region\", \"type\": \"text\"}}`."
        }
        (FileKind::Iparams, _) => {
            "iparams.json is one object whose keys are the iparam keys; use `{}` when the app has none."
        }
        (FileKind::Values, _) => {
            "A values file is one object that maps each iparam key to its value, such as \
             `{\"region\": \"eu\", \"notify\": true}`."
        }
        (FileKind::Requests, _) => {
            "config/requests.json is one object that maps each template name to its `schema` and \
             `options`, such as `{\"getContact\": {\"schema\": {\"method\": \"GET\", ...}}}`."
        }
        (FileKind::Manifest, _) => {
            "manifest.json is one object, such as `{\"platform-version\": \"2.3\", \"product\": {...}}`."
        }
    };
    let contents = match file {
        FileKind::Iparams => "iparams",
        FileKind::Values => "values",
        FileKind::Manifest => "app settings",
        FileKind::Requests => "request templates",
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
