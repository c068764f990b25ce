//! Request templates (config/requests.json and the like), as far as the iparams they read.

use super::Read;
use crate::span::Span;

/// `<%= iparam.key %>` placeholders of request templates.
pub fn template_reads(text: &str) -> Vec<Read> {
    const OPEN: &str = "<%=";
    let mut reads = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find(OPEN).map(|at| at + from) {
        let Some(close) = text[open..].find("%>").map(|at| at + open) else {
            break;
        };
        let inner = &text[open + OPEN.len()..close];
        let trimmed = inner.trim();
        if let Some(key) = trimmed.strip_prefix("iparam.") {
            let start =
                open + OPEN.len() + (inner.len() - inner.trim_start().len()) + "iparam.".len();
            reads.push(Read {
                key: key.to_owned(),
                span: Span::new(start, start + key.len()),
            });
        }
        from = close + 2;
    }
    reads
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_placeholders() {
        let text = r#"{"headers": {"Authorization": "Bearer <%= iparam.api_key %>", "X": "<%=iparam.first-name%>", "Y": "<%= context.x %>"}}"#;
        let reads: Vec<_> = template_reads(text)
            .into_iter()
            .map(|r| (r.key, &text[r.span.start..r.span.end]))
            .collect();
        assert_eq!(
            reads,
            [
                ("api_key".to_owned(), "api_key"),
                ("first-name".to_owned(), "first-name")
            ]
        );
    }
}
