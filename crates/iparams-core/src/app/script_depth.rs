//! How deep a script nests, looked at before oxc's parser reads it: the parser and every walk of
//! its tree recurse once or more per level, so a script nested thousands deep (`{` 10,000
//! times, `!` 30,000 times) would overflow the stack of whatever thread reads it, and the
//! process aborts. A script is read in place when shallow, on a thread with a stack for its
//! depth when deeper, and not read at all (an error finding) past [`MAX_DEPTH`].
//!
//! The depth is the most code tokens that can be open at once, counted over the rough tokens
//! of [`Scan`] (strings, comments and regular expressions one token each): every token is one
//! level more, an opening bracket one level that its closing bracket gives back, and a `,` or
//! a `;` ends what was open since the innermost bracket (but for the `;` before an `else` or a
//! `while`, which goes on with the statement it ends). That is more than the parser's nesting
//! for real code (a chain of `+` is counted whole), never less but for text the rough tokens
//! misread (a quote in JSX text, say).

use super::typescript_nest::{Reading, Scan};
use crate::span::Span;

/// The deepest script read. Far over what real code reaches (a level per token of the longest
/// expression, inside its brackets), far under what a stack of [`STACK_PER_LEVEL`] a level
/// holds for it.
pub const MAX_DEPTH: u32 = 40_000;

/// Scripts at most this deep are read on the caller's thread: any thread's stack (2 MiB for
/// one the standard library starts) holds them beside what the caller has used.
pub const IN_PLACE_DEPTH: u32 = 256;

/// The stack a level may take, parsed and walked: about four times what the deepest-taking
/// nests measured (calls and functions nested in calls) take in an unoptimised build.
pub const STACK_PER_LEVEL: usize = 4 * 1024;

/// What the thread of a deeper script is given besides its levels.
pub const STACK_BASE: usize = 8 * 1024 * 1024;

/// A script's depth, and where it was first that deep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Depth {
    pub depth: u32,
    pub span: Span,
}

impl Depth {
    /// The stack a thread needs to read a script this deep.
    pub fn stack(self) -> usize {
        STACK_BASE + self.depth as usize * STACK_PER_LEVEL
    }
}

/// How deep `text` nests (see the module's documentation); the scan stops once past
/// [`MAX_DEPTH`].
pub fn depth(text: &str) -> Depth {
    let mut scan = Scan::new(text, Reading::Code);
    let mut deepest = Depth {
        depth: 0,
        span: Span::at(0),
    };
    // The depth where each open bracket opened.
    let mut bases: Vec<u32> = Vec::new();
    let mut depth: u32 = 0;
    // The depth a `;` ended, for an `else` or a `while` right after it.
    let mut before_semicolon: Option<u32> = None;
    loop {
        let code = scan.in_code();
        let Some(token) = scan.next_token() else {
            break;
        };
        let open = scan.open_brackets();
        if open < bases.len() {
            depth = bases[open];
            bases.truncate(open);
        }
        bases.resize(open, depth);
        if !code {
            continue;
        }
        // Bytes: a token of the rough lexing may end inside a character.
        let word = &text.as_bytes()[token.start..token.end];
        if matches!(word, b"," | b";") {
            before_semicolon = (word == b";").then_some(depth);
            depth = bases.last().copied().unwrap_or(0);
        } else {
            if matches!(word, b"else" | b"while")
                && let Some(before) = before_semicolon
            {
                depth = depth.max(before);
            }
            before_semicolon = None;
        }
        depth = depth.saturating_add(1);
        if depth > deepest.depth {
            // On whole characters, as every finding's span.
            let span = Span::new(
                text.floor_char_boundary(token.start),
                text.ceil_char_boundary(token.end),
            );
            deepest = Depth { depth, span };
            if depth > MAX_DEPTH {
                break;
            }
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deepest(text: &str) -> u32 {
        depth(text).depth
    }

    #[test]
    fn every_kind_of_nest_counts_a_level_or_more_each() {
        let n = 1000;
        for (what, text) in [
            ("blocks", format!("{}{}", "{".repeat(n), "}".repeat(n))),
            ("groups", format!("x={}1{};", "(".repeat(n), ")".repeat(n))),
            ("arrays", format!("x={}{};", "[".repeat(n), "]".repeat(n))),
            ("calls", format!("x={}1{};", "f(".repeat(n), ")".repeat(n))),
            ("nots", format!("x={}1;", "!".repeat(n))),
            ("ifs", format!("{};", "if(a)".repeat(n))),
            ("else ifs", format!("if(a)b;{}", "else if(a)b;".repeat(n))),
            ("assignments", format!("{}1;", "a=".repeat(n))),
            ("sums", format!("x={}1;", "a+".repeat(n))),
            ("conditions", format!("x={}a;", "a?a:".repeat(n))),
            ("arrows", format!("x={}1;", "a=>".repeat(n))),
            ("members", format!("x=a{};", ".b".repeat(n))),
            (
                "commas in groups",
                format!("x={}1{};", "(1,".repeat(n), ")".repeat(n)),
            ),
            (
                "templates",
                format!("x={}1{};", "`${".repeat(n), "}`".repeat(n)),
            ),
        ] {
            assert!(deepest(&text) >= n as u32, "{what}: {}", deepest(&text));
        }
    }

    #[test]
    fn statements_and_lists_end_what_was_open() {
        let statements = "a = b + c;\n".repeat(10_000);
        assert!(deepest(&statements) < 10, "{}", deepest(&statements));
        let list = format!("x = [{}];", "1, ".repeat(10_000));
        assert!(deepest(&list) < 10, "{}", deepest(&list));
        let nested = "function f() { if (a) { return g(1, [2, 3], { k: 4 }); } }";
        assert!(deepest(nested) < 20, "{}", deepest(nested));
    }

    #[test]
    fn strings_comments_and_regular_expressions_are_one_token() {
        let text = format!(
            "x = \"{0}\"; // {0}\n/* {0} */ y = /{1}/; z = `{0}`;",
            "((((,;".repeat(5_000),
            "\\(".repeat(5_000)
        );
        assert!(deepest(&text) < 10, "{}", deepest(&text));
    }

    #[test]
    fn text_that_is_not_ascii_is_counted_whole() {
        assert!(deepest("x = é + ü; /* ✓ */ y = \"日本\";") < 10);
        let past = format!("x = {}é;", "!".repeat(MAX_DEPTH as usize - 2));
        let found = depth(&past);
        assert_eq!(found.depth, MAX_DEPTH + 1);
        assert_eq!(&past[found.span.start..found.span.end], "é");
    }

    #[test]
    fn the_scan_stops_past_the_limit_at_the_first_token_that_deep() {
        let text = format!("x = {}1;", "(".repeat(MAX_DEPTH as usize * 2));
        let found = depth(&text);
        assert_eq!(found.depth, MAX_DEPTH + 1);
        assert_eq!(found.span.start, "x = ".len() + MAX_DEPTH as usize - 2);
    }
}
