//! `invalid-json`: the text is not JSON.

use crate::diagnostic::{Applicability, Edit, Fix, Severity};
use crate::reading::{Reading, describe_syntax_error};
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::syntax::SyntaxErrorKind;

pub static RULE: Rule = Rule {
    name: "invalid-json",
    severity: Severity::Error,
    area: Area::File,
    summary: "The file is not valid JSON",
    docs: r#"The vendor's tools read iparams.json with `JSON.parse`, which accepts strict JSON
only: no comments, no trailing commas, double-quoted strings and keys, lowercase `true`, `false` and
`null`.

Unlike `JSON.parse`, this linter does not stop at the first mistake. Trailing commas, comments,
missing commas, single quotes, unquoted keys and misspelt literals are reported and read past, so
every other finding in the file is still shown. Mistakes it cannot read past (an unclosed object, a
stray character) end the check of the file at that point, and say so.

Values files checked by `iparams-lint values` are read the same way, since the vendor's tools read
`iparam_test_data.json` with `JSON.parse` too.

`--fix` removes a trailing comma (a safe fix: the value is the same without it). A file whose only
syntax errors are trailing commas then gets its other fixes in the same run; a file with any other
syntax error is never changed."#,
    bad: r#"{
  "api_key": {
    "display_name": "API key",
    "type": "text",
    "secure": true,
  }
}
"#,
    good: r#"{
  "api_key": {
    "display_name": "API key",
    "type": "text",
    "secure": true
  }
}
"#,
    examples: Examples::Iparams,
    vendor: r#"Rejects the app with the `JSON.parse` message (`iparams.json: Unexpected token }
in JSON at position 96`), without line or column, and checks nothing else."#,
    fix: Some(Applicability::Safe),
    checks: &[Check::Reading(check)],
};

fn check(reading: &Reading<'_>, cx: &mut Context<'_>) {
    for error in reading.errors.unwrap_or_default() {
        let (message, label, mut help) = describe_syntax_error(&error.kind, reading.kind);
        if error.fatal && error.kind != SyntaxErrorKind::Empty {
            help.push_str(" Nothing after this point was checked.");
        }
        let diagnostic = cx.report(&RULE, error.span, message);
        diagnostic.label(label).help(help);
        if let Some(related) = error.related {
            let note = match error.kind {
                SyntaxErrorKind::ExpectedColon { .. } => "after this key",
                _ => "opened here",
            };
            diagnostic.related(related, note);
        }
        if error.kind == SyntaxErrorKind::TrailingComma {
            diagnostic.fix(Fix::safe(
                "Remove the trailing comma",
                vec![Edit::delete(error.span)],
            ));
        }
    }
}
