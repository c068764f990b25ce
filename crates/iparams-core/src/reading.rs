//! What reading a JSON file found before any of its content is looked at: the view of the rules
//! about the file itself (its encoding, its syntax, its top level).

use crate::source::EncodingProblem;
use crate::syntax::{RootShape, SyntaxError, SyntaxErrorKind};

/// Which kind of JSON file was read: the help for the same mistake differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// config/iparams.json: the iparam definitions.
    Iparams,
    /// A values file (`iparams-lint values`).
    Values,
    /// The manifest.json of an app.
    Manifest,
    /// config/requests.json: the request templates of an app.
    Requests,
}

/// What reading one JSON file found.
#[derive(Clone, Copy, Debug)]
pub struct Reading<'r> {
    pub kind: FileKind,
    /// What decoding the bytes found.
    pub problems: &'r [EncodingProblem],
    /// What parsing found; `None` when the text could not be decoded, so was not parsed.
    pub errors: Option<&'r [SyntaxError]>,
    /// The top level, when the file was parsed and its top level matters.
    pub root: Option<RootShape>,
}

impl Reading<'_> {
    /// The file is UTF-8 and JSON without a single syntax problem: only such a file may be
    /// rewritten by fixes.
    pub fn is_well_formed(&self) -> bool {
        self.problems.is_empty() && self.errors.is_some_and(<[SyntaxError]>::is_empty)
    }
}

/// The message, label and help for a syntax error in a file of kind `file`.
pub fn describe_syntax_error(kind: &SyntaxErrorKind, file: FileKind) -> (String, String, String) {
    use SyntaxErrorKind as K;
    let (message, label, help): (String, &str, String) = match kind {
        K::Empty => (
            "The file is empty".into(),
            "no JSON here",
            match file {
                FileKind::Iparams => "An app with no installation parameters still needs `{}` in config/iparams.json.",
                FileKind::Values => "A values file is one object of `\"key\": value` pairs; write `{}` when there are none.",
                FileKind::Manifest => "manifest.json describes the app: its platform version and products or modules.",
                FileKind::Requests => "config/requests.json holds one object of request templates; write `{}` when there are none, or remove the file.",
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
                FileKind::Iparams => "iparams.json holds",
                FileKind::Values => "A values file holds",
                FileKind::Manifest => "manifest.json holds",
                FileKind::Requests => "config/requests.json holds",
            }),
        ),
        K::TooDeep { limit } => (
            format!("Nesting is deeper than {limit} levels"),
            "too deep",
            match file {
                FileKind::Iparams => "An iparams.json needs four levels at most; this is not an iparams file.",
                FileKind::Values => "A values file needs two levels at most; this is not a values file.",
                FileKind::Manifest => "This is not an app manifest.",
                FileKind::Requests => "A request template needs four levels at most; this is not a requests.json.",
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
