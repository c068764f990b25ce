//! A look at TypeScript before oxc's parser reads it: text that would take that parser
//! exponential time is not given to it.
//!
//! In TypeScript, `a < (b = ...` can begin type arguments and `(b = ...` an arrow function's
//! parameters. The parser tries each reading in turn, and reads what follows again for each
//! try, so every level of such a nest doubles the work below it: `x = a<(c = ` repeated
//! 20 times takes oxc about a second and hundreds of megabytes, and an input of a few kilobytes
//! found by the `js` fuzz target, tens of seconds and gigabytes. JavaScript is not read that
//! way and is not affected.
//!
//! The look is one pass over the tokens, roughly lexed, keeping the stack of open brackets.
//! Each token is charged `2^(d/2)`, where `d` counts the open `<` and the `(` that begin an
//! expression: measured on oxc, each such pair doubled the work. The text is read twice (see
//! [`Reading`]): as code, where strings, templates, regular expressions, comments and JSX
//! closing tags are regions whose brackets count while they last (see [`Scan`]), and bare,
//! where nothing opens a region. A text is refused when either reading charges more than
//! [`WORK_PER_BYTE`] a byte. None of 9,592 real files is: the 3,952 TypeScript files found on
//! the development machine (node_modules), the most charged at 0.66 a byte, and the 5,640
//! `.tsx` files of three public React projects (excalidraw, shadcn-ui, ant-design), at 0.74.
//! Of the machine's 12,311 JavaScript files, read as code, 27 would be: all rustdoc search
//! indexes, one-line data in strings full of unbalanced brackets.

use crate::span::Span;

/// What a text may be charged per byte before it is refused, and what any text may be
/// charged: over seven times the most charged real file, and a nest 16 deep on a short line.
/// What is let through then costs oxc well under a microsecond and a kilobyte a byte.
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
    let budget = budget(text);
    [Reading::Code, Reading::Bare]
        .into_iter()
        .find_map(|reading| {
            let (work, deepest) = charge(text, reading, budget);
            (work > budget).then_some(deepest)
        })
}

/// What `text` may be charged.
fn budget(text: &str) -> u64 {
    (text.len() as u64)
        .saturating_mul(WORK_PER_BYTE)
        .saturating_add(WORK_ALWAYS)
}

/// How the scan takes quotes, backticks, `//`, `/*`, `/` and `</`.
///
/// A region the rough lexing misreads can hide what is in it once it ends: the parser reads
/// text between JSX tags, where a quote opens no string, and a `/` after `if (x)` opens a
/// regular expression where one after `(x)` divides. Nests hidden that way behind a quote on
/// each line took the parser seconds and gigabytes. Read bare, nothing is hidden; read as code,
/// brackets in strings and comments do not add up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reading {
    /// They open strings, templates, comments, regular expressions and JSX closing tags.
    Code,
    /// They open nothing.
    Bare,
}

/// What `text`, read as `reading` has it, is charged (stopping once past `budget`), and where
/// it was deepest.
fn charge(text: &str, reading: Reading, budget: u64) -> (u64, TooNested) {
    let mut scan = Scan::new(text, reading);
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
    b"new",
    b"delete",
    b"void",
    b"throw",
    b"case",
    b"do",
    b"else",
    b"if",
    b"while",
    b"for",
    b"switch",
    b"catch",
    b"with",
];

/// Words that are keywords in some places and names in others: `for (x of y)` and `of / 2`,
/// `await x` and, in a script, `await / 2`.
const CONTEXTUAL: &[&[u8]] = &[b"of", b"await", b"yield"];

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

/// What the scan is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Code,
    /// A string opened by this quote.
    Quoted(u8),
    /// A template's text.
    Template,
    Regex {
        in_class: bool,
    },
    LineComment,
    BlockComment,
    /// `</name>`.
    ClosingTag,
}

/// The tokens of a text, with the brackets open after each.
///
/// Read as code, strings, templates, regular expressions, comments and JSX closing tags are
/// regions whose brackets count while the region lasts and are forgotten at its end: a region
/// the rough lexing misreads (a backtick in JSX text is no template to the parser) hides no
/// nest while it lasts, and the brackets of real strings and comments do not add up. What it
/// hides once it ends, the bare reading sees (see [`Reading`]).
pub(super) struct Scan<'t> {
    text: &'t str,
    at: usize,
    stack: Stack,
    mode: Mode,
    /// The brackets of each kind open where the current region began.
    region_kinds: [u32; Open::ALL],
    /// What the last token leaves room for.
    after: After,
    reading: Reading,
}

/// What the last token leaves room for, as a `/` or a `(` after it tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum After {
    /// An operator, an opening bracket, a keyword such as `return`: an expression begins, so a
    /// `/` opens a regular expression and a `(` a group.
    Operator,
    /// A name, a literal, a closing bracket: a `/` divides and a `(` calls.
    Operand,
    /// A word that is a keyword in some places and a name in others ([`CONTEXTUAL`]). A `/`
    /// after it is taken to divide, so that it cannot hide brackets as a regular expression the
    /// parser does not see, and a `(` to open a group, which counts.
    Either,
    /// A `.`: the word after it is a property's name, even `return` or `of`.
    Dot,
}

impl<'t> Scan<'t> {
    pub(super) fn new(text: &'t str, reading: Reading) -> Self {
        Scan {
            text,
            at: 0,
            stack: Stack::default(),
            mode: Mode::Code,
            region_kinds: [0; Open::ALL],
            after: After::Operator,
            reading,
        }
    }

    /// The brackets open, of every kind (those of a region while it lasts).
    pub(super) fn open_brackets(&self) -> usize {
        self.stack.open.len()
    }

    /// Whether the next token is one of code, not of a string, comment or other region.
    pub(super) fn in_code(&self) -> bool {
        self.mode == Mode::Code
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.text.as_bytes().get(self.at + ahead).copied()
    }

    /// The next token's span, with the stack updated for it; `None` at the end.
    pub(super) fn next_token(&mut self) -> Option<Span> {
        let token = if self.mode == Mode::Code {
            self.code_token()
        } else {
            self.region_token()
        };
        token.map(|start| Span::new(start, self.at))
    }

    /// A token of code; its start.
    fn code_token(&mut self) -> Option<usize> {
        while self.peek(0).is_some_and(|byte| byte.is_ascii_whitespace()) {
            self.at += 1;
        }
        let start = self.at;
        let byte = self.peek(0)?;
        self.at += 1;
        let mut after = After::Operator;
        let code = self.reading == Reading::Code;
        match byte {
            b'/' if code && self.peek(0) == Some(b'/') => {
                self.at += 1;
                return Some(self.begin(Mode::LineComment, start));
            }
            b'/' if code && self.peek(0) == Some(b'*') => {
                self.at += 1;
                return Some(self.begin(Mode::BlockComment, start));
            }
            b'"' | b'\'' if code => return Some(self.begin(Mode::Quoted(byte), start)),
            b'`' if code => return Some(self.begin(Mode::Template, start)),
            b'/' if code && self.after == After::Operator => {
                return Some(self.begin(Mode::Regex { in_class: false }, start));
            }
            b'<' if code && self.peek(0) == Some(b'/') => {
                self.at += 1;
                return Some(self.begin(Mode::ClosingTag, start));
            }
            b'<' if matches!(self.peek(0), Some(b'<' | b'=')) => self.at += 1,
            b'<' => self.stack.push(Open::Angle),
            b'(' if self.after == After::Operand => self.stack.push(Open::Call),
            b'(' => self.stack.push(Open::Group),
            b'[' => self.stack.push(Open::Bracket),
            b'{' => self.stack.push(Open::Brace),
            b')' => {
                self.stack.close(&[Open::Group, Open::Call]);
                after = After::Operand;
            }
            b']' => {
                self.stack.close(&[Open::Bracket]);
                after = After::Operand;
            }
            b'}' => {
                if self.stack.close(&[Open::Brace, Open::Substitution]) == Some(Open::Substitution)
                {
                    return Some(self.begin(Mode::Template, start));
                }
                after = After::Operand;
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
                after = After::Operand;
            }
            b';' => self.stack.close_angles(),
            b'+' | b'-' if self.peek(0) == Some(byte) => {
                self.at += 1;
                after = After::Operand;
            }
            // `...`: an expression follows.
            b'.' if self.peek(0) == Some(b'.') => {
                while self.peek(0) == Some(b'.') {
                    self.at += 1;
                }
            }
            b'.' => after = After::Dot,
            _ if is_word_byte(byte) => {
                while self.peek(0).is_some_and(is_word_byte) {
                    self.at += 1;
                }
                let word = &self.text.as_bytes()[start..self.at];
                after = if self.after == After::Dot {
                    After::Operand
                } else {
                    if STATEMENTS.contains(&word) {
                        self.stack.close_angles();
                    }
                    if CONTEXTUAL.contains(&word) {
                        After::Either
                    } else if BEFORE_EXPRESSION.contains(&word) {
                        After::Operator
                    } else {
                        After::Operand
                    }
                };
            }
            _ => {}
        }
        self.after = after;
        Some(start)
    }

    /// Enters a region whose opening token began at `start`.
    fn begin(&mut self, mode: Mode, start: usize) -> usize {
        self.mode = mode;
        self.region_kinds = self.stack.of_kind;
        start
    }

    /// Leaves the current region, forgetting the brackets opened in it.
    fn end(&mut self) {
        let region_base: u32 = self.region_kinds.iter().sum();
        while self.stack.open.len() > region_base as usize {
            self.stack.pop();
        }
        // A comment is not a token of the code around it.
        if !matches!(self.mode, Mode::LineComment | Mode::BlockComment) {
            self.after = After::Operand;
        }
        self.mode = Mode::Code;
    }

    /// A token inside a region: one bracket, the region's end, or a run of other bytes; its
    /// start.
    fn region_token(&mut self) -> Option<usize> {
        let start = self.at;
        let byte = self.peek(0)?;
        self.at += 1;
        let mode = self.mode;
        match (mode, byte) {
            (Mode::Quoted(_) | Mode::Template | Mode::Regex { .. }, b'\\') => {
                // The escaped character, whole.
                let escaped = self
                    .text
                    .get(self.at..)
                    .and_then(|rest| rest.chars().next());
                self.at += escaped.map_or(0, char::len_utf8);
            }
            (Mode::Quoted(quote), _) if byte == quote => self.end(),
            (
                Mode::Quoted(_) | Mode::Regex { .. } | Mode::LineComment | Mode::ClosingTag,
                b'\n',
            ) => {
                self.end();
            }
            (Mode::Template, b'`') => self.end(),
            (Mode::Template, b'$') if self.peek(0) == Some(b'{') => {
                self.at += 1;
                self.end();
                self.stack.push(Open::Substitution);
                self.after = After::Operator;
            }
            (Mode::Regex { in_class: false }, b'/') | (Mode::ClosingTag, b'>') => self.end(),
            (Mode::BlockComment, b'*') if self.peek(0) == Some(b'/') => {
                self.at += 1;
                self.end();
            }
            (_, b'<') => self.stack.push(Open::Angle),
            (_, b'(') => self.stack.push(Open::Group),
            (_, b'[') => {
                self.stack.push(Open::Bracket);
                if let Mode::Regex { .. } = mode {
                    self.mode = Mode::Regex { in_class: true };
                }
            }
            (_, b'{') => self.stack.push(Open::Brace),
            (_, b'>') => {
                if self.stack.top() == Some(Open::Angle) && self.opened_in_region(Open::Angle) {
                    self.stack.pop();
                }
            }
            (_, b')' | b']' | b'}') => {
                let kinds: &[Open] = match byte {
                    b')' => &[Open::Group, Open::Call],
                    b']' => &[Open::Bracket],
                    _ => &[Open::Brace],
                };
                self.close_in_region(kinds);
                if let (Mode::Regex { .. }, b']') = (mode, byte) {
                    self.mode = Mode::Regex { in_class: false };
                }
            }
            _ => {
                while self.peek(0).is_some_and(|next| !is_special_in_region(next)) {
                    self.at += 1;
                }
            }
        }
        Some(start)
    }

    /// Whether a bracket of `kind` opened in the current region is still open.
    fn opened_in_region(&self, kind: Open) -> bool {
        self.stack.of_kind[kind as usize] > self.region_kinds[kind as usize]
    }

    /// Closes the innermost bracket of `kinds` opened in the current region, if there is one.
    fn close_in_region(&mut self, kinds: &[Open]) {
        if kinds.iter().any(|kind| self.opened_in_region(*kind)) {
            self.stack.close(kinds);
        }
    }
}

/// The bytes that may end a run of plain bytes in a region.
fn is_special_in_region(byte: u8) -> bool {
    matches!(
        byte,
        b'\\'
            | b'\n'
            | b'"'
            | b'\''
            | b'`'
            | b'$'
            | b'/'
            | b'*'
            | b'>'
            | b'<'
            | b'('
            | b')'
            | b'['
            | b']'
            | b'{'
            | b'}'
    )
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
            let mut scan = Scan::new(text, Reading::Code);
            while let Some(token) = scan.next_token() {
                assert!(token.end <= text.len(), "{text:?}: {token:?}");
                assert!(
                    text.is_char_boundary(token.start) && text.is_char_boundary(token.end),
                    "{text:?}: {token:?}"
                );
            }
        }
    }

    /// Whether `reading` alone charges `text` past its budget.
    fn charged_past_budget(text: &str, reading: Reading) -> bool {
        let budget = budget(text);
        charge(text, reading, budget).0 > budget
    }

    #[test]
    fn a_slash_after_a_name_divides() {
        // Each of these divides, but was taken for the start of a regular expression, whose
        // brackets were forgotten at the end of its line while the parser's nest went on: 20
        // lines took oxc 2.2 to 2.6 s and 700 to 800 MB.
        for name in ["a.of", "a.return", "a?.typeof", "of", "await", "yield"] {
            let text = format!("x = {}", format!("{name} / a<(c = \n").repeat(20));
            assert!(charged_past_budget(&text, Reading::Code), "{name}");
        }
        // After a keyword it is a regular expression, whose brackets are its own.
        let tests = "if (ok) return /[(<]/.test(x);\n".repeat(40);
        assert_eq!(too_nested(&tests), None);
    }

    #[test]
    fn a_region_misread_hides_no_nest_from_the_bare_reading() {
        // A quote on each line of JSX text, which is text to the parser (the `js` target's
        // find), and a `/` after `if (a)`, which opens a regular expression there, and was
        // taken to divide: the quote after it opened a string to the end of the line. The
        // second took oxc 1.1 s and 680 MB at 18 lines.
        let found = include_bytes!(
            "../../../../fixtures/reliability/fuzz-findings/js/typescript-nest-behind-quotes-in-jsx-text"
        );
        let quoted = String::from_utf8_lossy(&found[1..]).into_owned();
        let after_if = format!(
            "x = a<(c = (() => {}",
            "{ if (a) /'/.test(a<(c = (() => \n".repeat(18)
        );
        for text in [quoted, after_if] {
            assert!(!charged_past_budget(&text, Reading::Code), "{text}");
            let refused = too_nested(&text).expect("refused");
            assert!(refused.depth >= 16, "{refused:?}");
        }
    }

    #[test]
    fn closing_brackets_with_nothing_open_are_ignored() {
        let text = ")]}>".repeat(10_000) + &"(".repeat(3);
        assert_eq!(too_nested(&text), None);
    }

    #[test]
    fn the_texts_found_by_fuzzing_are_refused() {
        // The `js` target's first byte chooses the file (App.tsx for all three); the rest is
        // the text. The second hid its nest from the first version of this look behind a
        // backtick in JSX text, which it took for a template: 44 s and 11 GB for oxc. The third
        // hid it behind a quote on each line of JSX text (the input it was cut from: over 60 s
        // and 20 GB through the command).
        for found in [
            &include_bytes!(
                "../../../../fixtures/reliability/fuzz-findings/js/typescript-type-arguments-backtrack-exponentially"
            )[..],
            &include_bytes!(
                "../../../../fixtures/reliability/fuzz-findings/js/typescript-nest-behind-a-backtick-in-jsx-text"
            )[..],
            &include_bytes!(
                "../../../../fixtures/reliability/fuzz-findings/js/typescript-nest-behind-quotes-in-jsx-text"
            )[..],
        ] {
            let text = String::from_utf8_lossy(&found[1..]);
            assert!(too_nested(&text).is_some());
        }
    }
}
