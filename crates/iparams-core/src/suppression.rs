//! Suppression comments, where people write code: `iparams-lint-ignore-next-line RULE[, RULE…]`
//! as the whole of a script's comment (`//` or `/* */`) or of a page's `<!-- -->` turns off the
//! named rules' findings on the line after the comment. Only rule names are read (not groups):
//! a suppression says which finding it expects. Text after ` -- ` is the reason, for readers.
//! iparams.json has no comments: there, configuration turns rules off.

use crate::span::Span;

/// What a suppression comment opens with.
pub const MARKER: &str = "iparams-lint-ignore-next-line";

/// One suppression comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suppression {
    /// The whole comment, delimiters included.
    pub comment: Span,
    /// The rule names it gives, in its order.
    pub names: Vec<SuppressedName>,
}

/// A rule name of a suppression comment, and whether it suppressed a finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuppressedName {
    pub name: String,
    pub span: Span,
    /// Set when a finding of the rule on the suppressed line was dropped.
    pub used: bool,
}

/// The suppression written in a comment whose text (delimiters excluded) is `content`, at
/// `content_start` in the file, the whole comment being `comment`; `None` for another comment.
pub fn read(content: &str, content_start: usize, comment: Span) -> Option<Suppression> {
    // A block comment's lines may open with `*`, as in JSDoc.
    let opened = content.trim_start_matches(|c: char| c.is_whitespace() || c == '*');
    let after = opened.strip_prefix(MARKER)?;
    // `iparams-lint-ignore-next-linefoo` is another word.
    if after.chars().next().is_some_and(|c| !c.is_whitespace()) {
        return None;
    }
    let start = content_start + (content.len() - after.len());
    let listed = after.find(" -- ").map_or(after, |reason| &after[..reason]);
    let separator = |c: char| c == ',' || c.is_whitespace();
    let mut names = Vec::new();
    let mut rest = listed;
    while let Some(begin) = rest.find(|c: char| !separator(c)) {
        let word = &rest[begin..];
        let length = word.find(separator).unwrap_or(word.len());
        let at = start + (listed.len() - rest.len()) + begin;
        names.push(SuppressedName {
            name: word[..length].to_owned(),
            span: Span::new(at, at + length),
            used: false,
        });
        rest = &word[length..];
    }
    Some(Suppression { comment, names })
}

/// The offset where each line of `text` starts.
pub fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(at, _)| at + 1))
        .collect()
}

/// The line (from 0) `offset` is on, given the file's [`line_starts`].
pub fn line_of(line_starts: &[usize], offset: usize) -> usize {
    line_starts.partition_point(|&start| start <= offset) - 1
}

impl Suppression {
    /// The line its names suppress: the one after the comment's last line.
    pub fn suppressed_line(&self, line_starts: &[usize]) -> usize {
        line_of(line_starts, self.comment.end.saturating_sub(1)) + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(suppression: &Suppression, text: &str) -> Vec<String> {
        suppression
            .names
            .iter()
            .map(|name| {
                assert_eq!(&text[name.span.start..name.span.end], name.name);
                name.name.clone()
            })
            .collect()
    }

    #[test]
    fn names_are_read_with_their_places() {
        let text = "// iparams-lint-ignore-next-line unknown-iparam-read, credential-in-code";
        let read = read(&text[2..], 2, Span::new(0, text.len())).expect("a suppression");
        assert_eq!(
            names(&read, text),
            ["unknown-iparam-read", "credential-in-code"]
        );
        let block = "/* iparams-lint-ignore-next-line a,b  c -- the key is a sample */";
        let read = super::read(&block[2..block.len() - 2], 2, Span::new(0, block.len()))
            .expect("a suppression");
        assert_eq!(names(&read, block), ["a", "b", "c"]);
    }

    #[test]
    fn other_comments_are_not_suppressions() {
        for content in [
            " TODO",
            " see iparams-lint-ignore-next-line below",
            " iparams-lint-ignore-next-linefoo",
        ] {
            assert_eq!(read(content, 0, Span::new(0, 1)), None, "{content}");
        }
        let bare = read(" iparams-lint-ignore-next-line", 0, Span::new(0, 1));
        assert_eq!(bare.map(|read| read.names.len()), Some(0));
    }

    #[test]
    fn the_line_after_the_comment_is_suppressed() {
        let text = "a\n/* iparams-lint-ignore-next-line x\n */\nb\n";
        let starts = line_starts(text);
        let end = text.find("*/").unwrap() + 2;
        let read = read(&text[4..end - 2], 4, Span::new(2, end)).expect("a suppression");
        assert_eq!(read.suppressed_line(&starts), 3);
        assert_eq!(line_of(&starts, text.find('b').unwrap()), 3);
    }
}
