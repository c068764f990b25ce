//! What checking a file found, and what of its text must never be shown.

use std::borrow::Cow;

use crate::diagnostic::{Diagnostic, Severity};
use crate::span::Span;

/// What linting one file found.
#[derive(Debug, Clone, Default)]
pub struct FileReport {
    /// Sorted by position.
    pub diagnostics: Vec<Diagnostic>,
    /// Spans whose text is a secret: any output that shows source must mask them.
    pub redactions: Vec<Span>,
    /// How many iparams the file defines (for a values file: how many values it gives).
    pub iparams: usize,
    /// The file is UTF-8 and JSON without a single syntax problem, whatever rules are enabled:
    /// only such a file may be rewritten by fixes.
    pub well_formed: bool,
    /// The parser read the file to its end (recovering from any mistakes on the way), with an
    /// object at the top: every iparam it defines was seen.
    pub read_to_end: bool,
}

impl FileReport {
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }

    /// `text` with every secret replaced by `*`, byte for byte, so spans stay valid.
    pub fn redact<'t>(&self, text: &'t str) -> Cow<'t, str> {
        redact(text, &self.redactions)
    }

    /// The bytes of `text` that [`FileReport::redact`] masks, for an output that masks only
    /// what it shows of the text (with [`masked`]).
    pub fn hidden_spans(&self, text: &str) -> Vec<Span> {
        hidden_spans(text, &self.redactions)
    }

    /// The text of each of the file's secrets (in `text`, the file) worth looking for in text
    /// made from it, such as a fix's replacement: shorter ones would match by chance.
    pub fn secret_texts<'t>(&self, text: &'t str) -> Vec<&'t str> {
        secret_texts(text, &self.redactions)
    }
}

/// `text` with the secret at each of `spans` replaced by `*`, byte for byte, so spans stay
/// valid.
pub fn redact<'t>(text: &'t str, spans: &[Span]) -> Cow<'t, str> {
    if spans.is_empty() {
        return Cow::Borrowed(text);
    }
    Cow::Owned(masked(text, 0, &hidden_spans(text, spans)))
}

/// `part`, which starts at byte `offset` of a text, with the bytes of that text's `hidden`
/// spans (as [`FileReport::hidden_spans`] gives them) that fall in it replaced by `*`, byte
/// for byte: [`redact`] of the whole text, or of only the lines an output shows.
pub fn masked(part: &str, offset: usize, hidden: &[Span]) -> String {
    let mut bytes = part.as_bytes().to_vec();
    let end = offset + part.len();
    let first = hidden.partition_point(|span| span.end <= offset);
    for span in hidden[first..].iter().take_while(|span| span.start < end) {
        bytes[span.start.max(offset) - offset..span.end.min(end) - offset].fill(b'*');
    }
    // Whole characters were replaced by ASCII; a lossy decoding can only be a bug, and even
    // then shows no secret.
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
    }
}

/// The bytes of the secrets at `spans`: sorted, none empty, overlapping or touching ones
/// joined (so their ends are sorted too).
fn hidden_spans(text: &str, spans: &[Span]) -> Vec<Span> {
    let mut parts: Vec<Span> = spans
        .iter()
        .map(|span| secret_part(text, *span))
        .filter(|span| !span.is_empty())
        .collect();
    parts.sort_unstable_by_key(|span| span.start);
    let mut hidden: Vec<Span> = Vec::with_capacity(parts.len());
    for part in parts {
        match hidden.last_mut() {
            Some(last) if part.start <= last.end => last.end = last.end.max(part.end),
            _ => hidden.push(part),
        }
    }
    hidden
}

/// The text of each secret at `spans` worth looking for in other text: shorter ones would
/// match by chance.
pub(crate) fn secret_texts<'t>(text: &'t str, spans: &[Span]) -> Vec<&'t str> {
    spans
        .iter()
        .map(|span| secret_part(text, *span))
        .map(|part| &text[part.start..part.end])
        .filter(|s| s.len() >= 4)
        .collect()
}

/// The part of a secret value that must not be shown: a string's text inside its quotes, or
/// the whole of any other value (a number, or an array of secrets).
fn secret_part(text: &str, span: Span) -> Span {
    match text.as_bytes()[span.start..span.end] {
        // Only a string closed by its quote loses one at the end: an unterminated one may end
        // inside a character.
        [b'"', .., b'"'] => span.inner(),
        _ => span,
    }
}
