//! Request templates (config/requests.json and the like), as far as the iparams they read.

use super::iparam_read::Read;
use super::requests::placeholders;
use crate::span::Span;

/// `<%= iparam.key %>` placeholders of request templates.
pub fn template_reads(text: &str) -> Vec<Read> {
    placeholders(text)
        .filter_map(|(expression, start, _)| {
            let key = expression.strip_prefix("iparam.")?;
            let start = start + "iparam.".len();
            Some(Read {
                key: key.to_owned(),
                span: Span::new(start, start + key.len()),
            })
        })
        .collect()
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
