//! What can be wrong with the text of a JSON file, as data; the `invalid-json` rule words it.

use crate::span::Span;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub kind: SyntaxErrorKind,
    pub span: Span,
    /// A second place that explains the first, such as the bracket that is never closed.
    pub related: Option<Span>,
    /// The parser stopped here: nothing after this point was read.
    pub fatal: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyntaxErrorKind {
    /// The file holds nothing but whitespace (or comments).
    Empty,
    /// A comma right before `}` or `]`. Recovered.
    TrailingComma,
    /// `//` or `/* */`. Recovered.
    Comment,
    /// A no-break space or other Unicode space JSON does not count as whitespace. Recovered.
    InvalidWhitespace { character: char },
    /// Two values with no comma between them. Recovered as if the comma were there.
    MissingComma,
    /// `,,`. Recovered.
    ExtraComma,
    /// `'text'`. Recovered as a string.
    SingleQuotedString,
    /// `{apiKey: 1}`. Recovered as the key `apiKey`.
    UnquotedKey { name: String },
    /// `"type": text`. Recovered as the string `text`.
    UnquotedString { word: String },
    /// `True`, `None`, `undefined`, `NaN`... Recovered as the JSON literal it stands for.
    WrongLiteral {
        found: String,
        replacement: &'static str,
    },
    /// A number JSON does not allow: `01`, `+1`, `1.`, `.5`, `0x1F`. Recovered.
    InvalidNumber { text: String },
    /// `\x`, `\'`, a bad `\u` escape. Recovered.
    InvalidEscape { escape: String },
    /// A raw tab or other control character inside a string. Recovered.
    ControlCharacter { character: char },
    /// A string that runs into the end of its line. Recovered by closing it there.
    UnterminatedString,
    /// A `/* comment` with no end.
    UnterminatedComment,
    /// Something that cannot start a value where a value must be.
    ExpectedValue { found: Found },
    /// Where a key must be.
    ExpectedKey { found: Found },
    /// No `:` after a key.
    ExpectedColon { found: Found },
    /// After a value inside an object or array, neither a comma nor the closing bracket.
    ExpectedCommaOrClose { close: char, found: Found },
    /// The file ends inside an object or array; the span is where it was opened.
    Unclosed { close: char },
    /// Text after the end of the top-level value.
    TrailingContent,
    /// Nesting deeper than the parser follows.
    TooDeep { limit: usize },
}

/// What the parser found instead of what it expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    EndOfFile,
    Char(char),
}

impl std::fmt::Display for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Found::EndOfFile => f.write_str("the end of the file"),
            Found::Char(c) if c.is_control() || c.is_whitespace() => {
                write!(f, "the character U+{:04X}", *c as u32)
            }
            Found::Char(c) => write!(f, "`{c}`"),
        }
    }
}
