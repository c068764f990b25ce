//! `invalid-encoding`: the file is not plain UTF-8.

use crate::diagnostic::Severity;
use crate::reading::Reading;
use crate::rules::framework::{Area, Check, Context, Examples, Rule};
use crate::source::EncodingProblem;
use crate::span::Span;

pub static RULE: Rule = Rule {
    name: "invalid-encoding",
    severity: Severity::Error,
    area: Area::File,
    summary: "The file is not UTF-8 without a byte-order mark",
    docs: r#"JSON text exchanged between programs must be UTF-8 without a byte-order mark (RFC
8259, section 8.1). A byte-order mark is an invisible character that `JSON.parse` reads as an
unexpected token; bytes that are not UTF-8 become U+FFFD replacement characters in the labels the
installation page shows; a UTF-16 file cannot be read at all.

After a byte-order mark or stray bytes the rest of the file is still checked; a UTF-16 file is not."#,
    bad: r#"﻿{}
"#,
    good: r#"{}
"#,
    examples: Examples::Iparams,
    vendor: r#"Not checked as such: a byte-order mark makes `JSON.parse` fail with an
unexpected-token error; stray bytes pass silently."#,
    fix: None,
    checks: &[Check::Reading(check)],
};

/// Beyond this many places, the rest are counted in one last finding.
const MAX_REPORTED: usize = 10;

fn check(reading: &Reading<'_>, cx: &mut Context<'_>) {
    let problems = reading.problems;
    let invalid_runs = problems
        .iter()
        .filter(|p| matches!(p, EncodingProblem::InvalidUtf8 { .. }))
        .count();
    let mut reported = 0;
    for problem in problems {
        match problem {
            EncodingProblem::ByteOrderMark => {
                cx.report(&RULE, Span::new(0, 3), "The file starts with a byte-order mark (BOM)")
                    .label("invisible BOM")
                    .help("Save the file as UTF-8 without BOM: JSON forbids it, and `JSON.parse` reads it as an unexpected character.");
            }
            EncodingProblem::Utf16 { big_endian } => {
                let order = if *big_endian {
                    "big-endian"
                } else {
                    "little-endian"
                };
                cx.report(
                    &RULE,
                    Span::at(0),
                    format!("The file is UTF-16 ({order}), not UTF-8"),
                )
                .label("UTF-16")
                .help("Save it as UTF-8; nothing in it can be checked until then.");
            }
            EncodingProblem::InvalidUtf8 { span, bytes } => {
                reported += 1;
                if reported > MAX_REPORTED {
                    continue;
                }
                let hex: Vec<String> = bytes.iter().take(8).map(|b| format!("0x{b:02X}")).collect();
                let mut help = windows_1252_guess(bytes).map_or_else(
                    || "Save the file as UTF-8.".to_owned(),
                    |text| format!("The file looks saved as Windows-1252 or Latin-1, where these bytes read `{text}`; save it as UTF-8."),
                );
                if reported == MAX_REPORTED && invalid_runs > MAX_REPORTED {
                    help.push_str(&format!(
                        " {} more places with bytes that are not UTF-8 are not shown.",
                        invalid_runs - MAX_REPORTED
                    ));
                }
                cx.report(
                    &RULE,
                    *span,
                    format!("Bytes that are not UTF-8: {}", hex.join(" ")),
                )
                .label("not UTF-8")
                .help(help);
            }
        }
    }
}

/// What the bytes would be in Windows-1252, when they are all printable letters or signs there.
fn windows_1252_guess(bytes: &[u8]) -> Option<String> {
    bytes
        .iter()
        .map(|&b| match b {
            0xA0..=0xFF => char::from_u32(u32::from(b)),
            0x80 => Some('€'),
            0x91 | 0x92 => Some('\''),
            0x93 | 0x94 => Some('"'),
            0x96 | 0x97 => Some('-'),
            _ => None,
        })
        .collect()
}
