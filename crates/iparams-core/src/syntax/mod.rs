//! The span-keeping JSON layer: every key and value knows its byte range.
//!
//! The parser is written for a linter rather than a loader: it keeps duplicate keys, recovers
//! from the mistakes people make by hand (trailing commas, comments, missing commas, single
//! quotes, unquoted keys, `True`), reports each one with its position, and never recurses
//! deeper than [`MAX_DEPTH`].

mod error;
mod literal;
mod parser;
mod scan;
mod stretches;
mod tree;

pub use error::{SyntaxError, SyntaxErrorKind};
pub use literal::{offset_in_literal, span_in_literal};
pub use parser::{Document, MAX_DEPTH, RootShape, parse_document, parse_value};
pub use scan::write_string;
#[cfg(test)]
pub(crate) use stretches::evenly;
pub use stretches::{likely_boundaries, parse_document_in_stretches};
pub use tree::{JsonKind, Key, Member, Value, ValueKind};
