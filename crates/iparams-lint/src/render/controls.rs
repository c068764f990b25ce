//! Control characters of what a user wrote, shown escaped (`\u{1b}`), as compilers show them: a
//! raw ESC, BEL or C1 byte of a checked file, of a key or of a path would otherwise reach the
//! terminal and act there (clear the screen, write the clipboard, forge a link), even with
//! `--color never`.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` is shown escaped: the C0 controls but tab and line feed (a carriage return
/// too: a line's own break is not part of it), DEL and the C1 controls.
pub fn is_control(c: char) -> bool {
    matches!(c, '\0'..='\x08' | '\x0b'..='\x1f' | '\x7f'..='\u{9f}')
}

/// `text` with each control character escaped; borrowed when it has none.
pub fn escaped(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_control(c) {
            push_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Writes `c` as `\u{1b}`.
pub fn push_escape(out: &mut String, c: char) {
    let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
}

/// Whether `text` holds a control character.
pub fn has_control(text: &str) -> bool {
    // Most text is ASCII without one: a byte scan.
    text.bytes()
        .any(|b| b < 0x20 && b != b'\t' && b != b'\n' || b == 0x7f || b == 0xc2)
        && text.chars().any(is_control)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_the_rest_kept() {
        assert_eq!(escaped("plain é\ttab\nline"), "plain é\ttab\nline");
        assert!(matches!(escaped("plain"), Cow::Borrowed(_)));
        assert_eq!(escaped("a\x1b]52;c;x\x07b"), "a\\u{1b}]52;c;x\\u{7}b");
        assert_eq!(escaped("c1\u{9b}2J"), "c1\\u{9b}2J");
        assert_eq!(escaped("over\rwrite"), "over\\u{d}write");
        assert!(has_control("x\u{85}") && has_control("\x1b") && !has_control("é\t\n"));
    }
}
