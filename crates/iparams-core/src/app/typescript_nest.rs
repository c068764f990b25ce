//! A look at TypeScript before oxc's parser reads it: text that would take that parser
//! exponential time is not given to it.
//!
//! In TypeScript, `a < (b = ...` can begin type arguments and `(b = ...` an arrow function's
//! parameters. The parser tries each reading in turn, and reads what follows again for each
//! try, so every level of such a nest doubles the work below it: `x = a<(c = ` repeated
//! 20 times takes a second and 600 MB, and 1.6 KB found by the `js` fuzz target took 38 s and
//! 5 GB. JavaScript is not read that way and is not affected.
//!
//! The look is one pass over the tokens, roughly lexed (strings, comments, templates and
//! regular expressions are skipped; JSX closing tags are skipped), keeping the stack of open
//! brackets. Each token is charged `2^(d/2)`, where `d` counts the open `<` and the `(` that
//! begin an expression: measured on oxc, each such pair doubled the work. A text is refused
//! when the charge passes [`WORK_PER_BYTE`] a byte: the 3,952 TypeScript files found on the
//! development machine (node_modules) were charged at most 0.44 a byte and were at most 6
//! deep, and its 12,311 JavaScript files, read the same way, 0.71 (minified bundles) and 9.

use crate::span::Span;

/// What a text may be charged per byte before it is refused, and what any text may be
/// charged: over five times the most charged real file, and a nest 16 deep on a short line.
/// What is read cost oxc at most 0.44 µs and 240 bytes of memory a byte, as measured.
const WORK_PER_BYTE: u64 = 4;
const WORK_ALWAYS: u64 = 1 << 12;

/// A text refused: where it was deepest before the charge passed the budget, and how deep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooNested {
    /// The first token that deep.
    pub span: Span,
    /// The `<` and expression-opening `(` open there.
    pub depth: u32,
}

/// `Some` when `text`, read as TypeScript, nests `<` and `(` so that oxc's parser would take
/// too long (see the module's documentation).
pub fn too_nested(text: &str) -> Option<TooNested> {
    let budget = (text.len() as u64)
        .saturating_mul(WORK_PER_BYTE)
        .saturating_add(WORK_ALWAYS);
    let (work, deepest) = charge(text, budget);
    (work > budget).then_some(deepest)
}

/// What reading `text` is charged, up to the first token past `budget`, and where it was
/// deepest until then.
fn charge(text: &str, budget: u64) -> (u64, TooNested) {
    let mut scan = Scan::new(text.as_bytes());
    let mut work: u64 = 0;
    let mut deepest = TooNested {
        span: Span::at(0),
        depth: 0,
    };
    while work <= budget
        && let Some(token) = scan.next_token()
    {
        let depth = scan.stack.counted;
        work = work.saturating_add(1 << (depth / 2).min(62));
        if depth > deepest.depth {
            deepest = TooNested { span: token, depth };
        }
    }
    (work, deepest)
}

/// An open bracket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Open {
    /// `<`: type arguments or a comparison.
    Angle,
    /// `(` where an expression begins: a group or an arrow function's parameters.
    Group,
    /// `(` after an expression: a call's arguments.
    Call,
    Bracket,
    Brace,
    /// `${` in a template literal.
    Substitution,
}

impl Open {
    const ALL: usize = 6;

    /// Whether the parser may try two readings of what follows.
    fn doubles(self) -> bool {
        matches!(self, Open::Angle | Open::Group)
    }
}

/// The open brackets, with how many of each kind, so that a closing bracket with nothing to
/// close is seen at once (a text of closing brackets costs no search).
#[derive(Default)]
struct Stack {
    open: Vec<Open>,
    of_kind: [u32; Open::ALL],
    /// The open brackets that double the work.
    counted: u32,
}

impl Stack {
    fn push(&mut self, open: Open) {
        self.open.push(open);
        self.of_kind[open as usize] += 1;
        self.counted += u32::from(open.doubles());
    }

    fn pop(&mut self) -> Option<Open> {
        let open = self.open.pop()?;
        self.of_kind[open as usize] -= 1;
        self.counted -= u32::from(open.doubles());
        Some(open)
    }

    fn top(&self) -> Option<Open> {
        self.open.last().copied()
    }

    /// Closes the innermost bracket of `kinds`, and every bracket opened inside it (a `<`
    /// never closed was a comparison). Returns the one closed; `None` when none is open.
    fn close(&mut self, kinds: &[Open]) -> Option<Open> {
        if kinds.iter().all(|kind| self.of_kind[*kind as usize] == 0) {
            return None;
        }
        loop {
            let open = self.pop()?;
            if kinds.contains(&open) {
                return Some(open);
            }
        }
    }

    /// Closes the `<` on top: what follows cannot be type arguments.
    fn close_angles(&mut self) {
        while self.top() == Some(Open::Angle) {
            self.pop();
        }
    }
}

/// Words after which an expression begins: a `/` after them starts a regular expression, and
/// a `(` a group.
const BEFORE_EXPRESSION: &[&[u8]] = &[
    b"return",
    b"typeof",
    b"instanceof",
    b"in",
    b"of",
    b"new",
    b"delete",
    b"void",
    b"throw",
    b"case",
    b"do",
    b"else",
    b"await",
    b"yield",
    b"if",
    b"while",
    b"for",
    b"switch",
    b"catch",
    b"with",
];

/// Words that begin a statement and have no place in type arguments: a `<` still open before
/// one was a comparison (in code without semicolons, the statement before ended at its line).
const STATEMENTS: &[&[u8]] = &[
    b"const",
    b"let",
    b"var",
    b"return",
    b"if",
    b"else",
    b"for",
    b"while",
    b"do",
    b"switch",
    b"case",
    b"break",
    b"continue",
    b"throw",
    b"try",
    b"catch",
    b"finally",
    b"function",
    b"class",
    b"export",
];

struct Scan<'t> {
    text: &'t [u8],
    at: usize,
    stack: Stack,
    /// Whether the last token ended an expression (a name, a literal, a closing bracket).
    after_expression: bool,
}

impl<'t> Scan<'t> {
    fn new(text: &'t [u8]) -> Self {
        Scan {
            text,
            at: 0,
            stack: Stack::default(),
            after_expression: false,
        }
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.text.get(self.at + ahead).copied()
    }

    /// The next token's span, with the stack updated for it; `None` at the end.
    fn next_token(&mut self) -> Option<Span> {
        self.skip_space_and_comments();
        let start = self.at;
        let byte = self.peek(0)?;
        self.at += 1;
        let mut after_expression = false;
        match byte {
            b'"' | b'\'' => {
                self.skip_string(byte);
                after_expression = true;
            }
            b'`' => after_expression = self.skip_template(),
            b'/' if !self.after_expression => {
                self.skip_regex();
                after_expression = true;
            }
            b'<' if self.peek(0) == Some(b'/') => self.skip_closing_tag(),
            b'<' if matches!(self.peek(0), Some(b'<' | b'=')) => self.at += 1,
            b'<' => self.stack.push(Open::Angle),
            b'(' if self.after_expression => self.stack.push(Open::Call),
            b'(' => self.stack.push(Open::Group),
            b'[' => self.stack.push(Open::Bracket),
            b'{' => self.stack.push(Open::Brace),
            b')' => {
                self.stack.close(&[Open::Group, Open::Call]);
                after_expression = true;
            }
            b']' => {
                self.stack.close(&[Open::Bracket]);
                after_expression = true;
            }
            b'}' => {
                if self.stack.close(&[Open::Brace, Open::Substitution]) == Some(Open::Substitution)
                {
                    after_expression = self.skip_template();
                } else {
                    after_expression = true;
                }
            }
            b'=' if self.peek(0) == Some(b'>') => self.at += 1,
            // Type arguments hold no `=` (`==`, `===`), `&&`, `||` or `??`: a `<` before one
            // on the same level was a comparison, and the parser's try at it has failed.
            b'=' => {
                while self.peek(0) == Some(b'=') {
                    self.at += 1;
                }
                self.stack.close_angles();
            }
            b'&' | b'|' | b'?' if self.peek(0) == Some(byte) => {
                self.at += 1;
                self.stack.close_angles();
            }
            b'>' if self.stack.top() == Some(Open::Angle) => {
                self.stack.pop();
                after_expression = true;
            }
            b';' => self.stack.close_angles(),
            b'+' | b'-' if self.peek(0) == Some(byte) => {
                self.at += 1;
                after_expression = true;
            }
            _ if is_word_byte(byte) => {
                while self.peek(0).is_some_and(is_word_byte) {
                    self.at += 1;
                }
                let word = &self.text[start..self.at];
                if STATEMENTS.contains(&word) {
                    self.stack.close_angles();
                }
                after_expression = !BEFORE_EXPRESSION.contains(&word);
            }
            _ => {}
        }
        self.after_expression = after_expression;
        // An escape at the very end steps past it.
        self.at = self.at.min(self.text.len());
        Some(Span::new(start, self.at))
    }

    fn skip_space_and_comments(&mut self) {
        loop {
            match (self.peek(0), self.peek(1)) {
                (Some(byte), _) if byte.is_ascii_whitespace() => self.at += 1,
                (Some(b'/'), Some(b'/')) => self.skip_past(|text, at| text[at] == b'\n'),
                (Some(b'/'), Some(b'*')) => {
                    self.at += 2;
                    self.skip_past(|text, at| text[at..].starts_with(b"*/"));
                    self.at += 1;
                }
                _ => return,
            }
        }
    }

    /// Moves past the first place where `ends` holds, or to the end of the text.
    fn skip_past(&mut self, ends: impl Fn(&[u8], usize) -> bool) {
        while self.at < self.text.len() {
            let found = ends(self.text, self.at);
            self.at += 1;
            if found {
                return;
            }
        }
    }

    /// A string opened by `quote`, to its closing quote or the end of its line.
    fn skip_string(&mut self, quote: u8) {
        while let Some(byte) = self.peek(0) {
            self.at += 1;
            match byte {
                b'\\' => self.at += 1,
                b'\n' => return,
                _ if byte == quote => return,
                _ => {}
            }
        }
    }

    /// A template's text, to its end (`true`: the template ended an expression) or to a `${`,
    /// which is opened (`false`).
    fn skip_template(&mut self) -> bool {
        while let Some(byte) = self.peek(0) {
            self.at += 1;
            match byte {
                b'\\' => self.at += 1,
                b'`' => return true,
                b'$' if self.peek(0) == Some(b'{') => {
                    self.at += 1;
                    self.stack.push(Open::Substitution);
                    return false;
                }
                _ => {}
            }
        }
        true
    }

    /// A regular expression, to its closing `/` (outside a class) or the end of its line.
    fn skip_regex(&mut self) {
        let mut in_class = false;
        while let Some(byte) = self.peek(0) {
            self.at += 1;
            match byte {
                b'\\' => self.at += 1,
                b'\n' => return,
                b'[' => in_class = true,
                b']' => in_class = false,
                b'/' if !in_class => return,
                _ => {}
            }
        }
    }

    /// A JSX closing tag, `</name>`, to its `>` or the end of its line.
    fn skip_closing_tag(&mut self) {
        self.skip_past(|text, at| matches!(text[at], b'>' | b'\n'));
    }
}

fn is_word_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'$') || byte >= 0x80
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repeated(unit: &str, times: usize) -> String {
        format!("x = {}", unit.repeat(times))
    }

    #[test]
    fn nests_that_double_the_parsers_work_are_refused() {
        // Each of these took oxc over a second at 20 repeats (the last at 12).
        for unit in [
            "a<(c = ",
            "a<(c = (d) => ",
            "a<(c, d = () => ",
            "a<b<(c = () => ",
            "a<[b<[(c = (d) => (e",
        ] {
            let text = repeated(unit, 20);
            let refused = too_nested(&text).unwrap_or_else(|| panic!("{unit:?} is refused"));
            // Refused where the charge passed the budget, 19 deep for the first.
            assert!(refused.depth >= 16, "{unit:?}: {refused:?}");
            assert!(text.is_char_boundary(refused.span.start));
        }
    }

    #[test]
    fn shallow_nests_are_read() {
        // 6 deep at most: a few milliseconds for oxc.
        for unit in ["a<(c = ", "a<b<(c = () => "] {
            assert_eq!(too_nested(&repeated(unit, 3)), None, "{unit:?}");
        }
    }

    #[test]
    fn ordinary_typescript_is_read() {
        let component = r#"
import React, { useState } from "react";
type Props<T extends Record<string, Array<Map<string, T>>>> = { items: T[]; onPick?: (item: T) => void };
export function List<T,>({ items, onPick }: Props<T>) {
  const [picked, setPicked] = useState<T | null>(null);
  const label = `picked ${picked ? String(picked) : "none"} of ${items.length}`;
  if (items.length < 1 || items.length >= 100) return null;
  const pattern = /<(\w+)[^>]*>/g; // a tag (with attributes)
  return (
    <ul className="list" title='don&apos;t'>
      {items.map((item, index) => (
        <li key={index} onClick={() => { setPicked(item); onPick?.(item); }}>{label} (first)</li>
      ))}
      <br/>
    </ul>
  );
}
"#;
        assert_eq!(too_nested(component), None);
        // Without semicolons, a comparison's `<` stays open to the end of the block.
        let comparisons =
            "function f(a, b) {\n".to_owned() + &"  const ok = a < b && b < a\n".repeat(40) + "}\n";
        assert_eq!(too_nested(&comparisons).map(|nest| nest.depth), None);
    }

    #[test]
    fn tokens_are_whole_characters_within_the_text() {
        for text in [
            "\"\\",
            "'\\é",
            "`\\",
            "`${",
            "/\\",
            "/[",
            "/*",
            "//",
            "</",
            "é\\",
            "a<é>\"é\\é",
        ] {
            let mut scan = Scan::new(text.as_bytes());
            while let Some(token) = scan.next_token() {
                assert!(token.end <= text.len(), "{text:?}: {token:?}");
                assert!(
                    text.is_char_boundary(token.start) && text.is_char_boundary(token.end),
                    "{text:?}: {token:?}"
                );
            }
        }
    }

    #[test]
    fn closing_brackets_with_nothing_open_are_ignored() {
        let text = ")]}>".repeat(10_000) + &"(".repeat(3);
        assert_eq!(too_nested(&text), None);
    }

    #[test]
    fn the_text_found_by_fuzzing_is_refused() {
        let found = include_bytes!(
            "../../../../fixtures/reliability/fuzz-findings/js/typescript-type-arguments-backtrack-exponentially"
        );
        // The `js` target's first byte chooses the file (App.tsx); the rest is the text.
        let text = String::from_utf8_lossy(&found[1..]);
        assert!(too_nested(&text).is_some());
    }
}
