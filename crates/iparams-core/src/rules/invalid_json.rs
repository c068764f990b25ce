//! `invalid-json`: the text is not JSON.

use super::{Check, Context, FileKind, Rule};
use crate::diagnostic::Severity;
use crate::syntax::{SyntaxError, SyntaxErrorKind};

pub static RULE: Rule = Rule {
    name: "invalid-json",
    severity: Severity::Error,
    summary: "The file is not valid JSON",
    docs: "The vendor's tools read iparams.json with `JSON.parse`, which accepts strict JSON only: no \
comments, no trailing commas, double-quoted strings and keys, lowercase `true`, `false` and `null`.\n\n\
Unlike `JSON.parse`, this linter does not stop at the first mistake. Trailing commas, comments, \
missing commas, single quotes, unquoted keys and misspelt literals are reported and read past, so \
every other finding in the file is still shown. Mistakes it cannot read past (an unclosed object, \
a stray character) end the check of the file at that point, and say so.\n\n\
Values files checked by `iparams-lint values` are read the same way, since the vendor's tools \
read `iparam_test_data.json` with `JSON.parse` too.",
    bad: "{\n  \"api_key\": {\n    \"display_name\": \"API key\",\n    \"type\": \"text\",\n    \"secure\": true,\n  }\n}\n",
    good: "{\n  \"api_key\": {\n    \"display_name\": \"API key\",\n    \"type\": \"text\",\n    \"secure\": true\n  }\n}\n",
    vendor: "Rejects the app with the `JSON.parse` message (`iparams.json: Unexpected token } in JSON at position 96`), \
without line or column, and checks nothing else.",
    fix: None,
    check: Check::Syntax,
};

pub(crate) fn report(errors: &[SyntaxError], file: FileKind, cx: &mut Context<'_>) {
    for error in errors {
        let (message, label, mut help) = describe(&error.kind, file);
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
    }
}

/// The message, label and help for a syntax error in a file of kind `file`.
pub(crate) fn describe(kind: &SyntaxErrorKind, file: FileKind) -> (String, String, String) {
    use SyntaxErrorKind as K;
    let (message, label, help): (String, &str, String) = match kind {
        K::Empty => (
            "The file is empty".into(),
            "no JSON here",
            match file {
                FileKind::Definitions => "An app with no installation parameters still needs `{}` in config/iparams.json.",
                FileKind::Values => "A values file is one object of `\"key\": value` pairs; write `{}` when there are none.",
                FileKind::Manifest => "manifest.json describes the app: its platform version and products or modules.",
            }
            .into(),
        ),
        K::TrailingComma => (
            "Trailing comma".into(),
            "remove this comma",
            "JSON allows no comma after the last member of an object or the last item of an array.".into(),
        ),
        K::Comment => (
            "Comments are not allowed in JSON".into(),
            "comment",
            "Remove it. To explain an iparam to the person installing the app, use its `description`.".into(),
        ),
        K::InvalidWhitespace { character } => (
            format!("U+{:04X} is not whitespace in JSON", *character as u32),
            "invisible character",
            "Replace it with a plain space; it usually comes from text copied out of a web page or a word processor."
                .into(),
        ),
        K::MissingComma => (
            "Missing comma".into(),
            "add `,` here",
            "Members of an object, and items of an array, are separated by commas.".into(),
        ),
        K::ExtraComma => ("Extra comma".into(), "remove this comma", "Two commas in a row leave an empty entry, which JSON does not allow.".into()),
        K::SingleQuotedString => (
            "Strings must be in double quotes".into(),
            "single quotes",
            "Replace the single quotes with double quotes.".into(),
        ),
        K::UnquotedKey { name } => (format!("Key `{name}` is not in quotes"), "unquoted key", format!("Write it as \"{name}\".")),
        K::UnquotedString { word } => (
            format!("`{word}` is not in quotes"),
            "unquoted string",
            format!("Strings must be in double quotes: \"{word}\"."),
        ),
        K::WrongLiteral { found, replacement } => (
            format!("`{found}` is not a JSON value"),
            "not a JSON literal",
            format!("Write `{replacement}`: JSON's literals are `true`, `false` and `null`, in lowercase."),
        ),
        K::InvalidNumber { text } => (format!("`{text}` is not a valid JSON number"), "invalid number", number_help(text)),
        K::InvalidEscape { escape } => (format!("Invalid escape `{escape}`"), "invalid escape", escape_help(escape)),
        K::ControlCharacter { character: '\t' } => (
            "Tab character inside a string".into(),
            "raw tab",
            "JSON strings cannot hold raw control characters: write it as `\\t`.".into(),
        ),
        K::ControlCharacter { character } => (
            format!("Control character U+{:04X} inside a string", *character as u32),
            "control character",
            format!("JSON strings cannot hold raw control characters: remove it or write `\\u{:04x}`.", *character as u32),
        ),
        K::UnterminatedString => (
            "String is not closed".into(),
            "no closing quote on this line",
            "Add the closing `\"`. A JSON string cannot span lines: write `\\n` for a line break.".into(),
        ),
        K::UnterminatedComment => ("Comment is never closed".into(), "no `*/` after this", "JSON has no comments; remove it.".into()),
        K::ExpectedValue { found } => (
            format!("Expected a value, found {found}"),
            "expected a value",
            "A value is a string in double quotes, a number, `true`, `false`, `null`, an object or an array.".into(),
        ),
        K::ExpectedKey { found } => (
            format!("Expected a key in double quotes, found {found}"),
            "expected a key",
            "Each member of an object is `\"key\": value`.".into(),
        ),
        K::ExpectedColon { found } => (
            format!("Expected `:` after the key, found {found}"),
            "expected `:`",
            "Each member of an object is `\"key\": value`.".into(),
        ),
        K::ExpectedCommaOrClose { close, found } => (
            format!("Expected `,` or `{close}`, found {found}"),
            "unexpected here",
            format!("Separate entries with commas, and close with `{close}`."),
        ),
        K::Unclosed { close } => (
            format!("The file ends before the closing `{close}`"),
            "never closed",
            format!("Add the missing `{close}`, or the `}}` or `]` of an inner object or array."),
        ),
        K::TrailingContent => (
            "Unexpected text after the end of the JSON".into(),
            "after the end",
            format!("{} one object; remove what follows it, or move it inside the object.", match file {
                FileKind::Definitions => "iparams.json holds",
                FileKind::Values => "A values file holds",
                FileKind::Manifest => "manifest.json holds",
            }),
        ),
        K::TooDeep { limit } => (
            format!("Nesting is deeper than {limit} levels"),
            "too deep",
            match file {
                FileKind::Definitions => "An iparams.json needs four levels at most; this is not an iparams file.",
                FileKind::Values => "A values file needs two levels at most; this is not a values file.",
                FileKind::Manifest => "This is not an app manifest.",
            }
            .into(),
        ),
    };
    (message, label.to_owned(), help)
}

fn number_help(text: &str) -> String {
    let digits = text.trim_start_matches(['-', '+']);
    if text.eq_ignore_ascii_case("nan") || digits.eq_ignore_ascii_case("infinity") {
        "JSON has no NaN or Infinity; use a string or null.".into()
    } else if text.starts_with('+') {
        "JSON numbers cannot start with `+`; remove it.".into()
    } else if digits.starts_with("0x") || digits.starts_with("0X") {
        "JSON numbers are decimal; write the value in decimal, or as a string.".into()
    } else if digits.len() > 1 && digits.starts_with('0') && digits.as_bytes()[1].is_ascii_digit() {
        "JSON numbers cannot have leading zeros; to keep the digits as written, use a string."
            .into()
    } else if digits.starts_with('.') {
        format!("Write a digit before the point: `0{digits}`.")
    } else if digits.ends_with('.') {
        "Write a digit after the point, or remove the point.".into()
    } else {
        "A JSON number is digits with an optional `-`, fraction and exponent, such as `12`, `-3.5` or `1e6`.".into()
    }
}

fn escape_help(escape: &str) -> String {
    let letter = escape.chars().nth(1).unwrap_or(' ');
    if "dDwWsS.[](){}*+?^$|".contains(letter) {
        format!(
            "In a JSON string a backslash must itself be escaped: write `\\{escape}` to put `{escape}` in a regex."
        )
    } else {
        "JSON strings allow only `\\\"`, `\\\\`, `\\/`, `\\b`, `\\f`, `\\n`, `\\r`, `\\t` and `\\uXXXX`; write `\\\\` for a backslash."
            .into()
    }
}
