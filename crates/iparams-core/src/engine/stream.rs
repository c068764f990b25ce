//! The findings a report held back, found again and handed over in pieces: a file with more
//! findings than its memory budget is checked twice, but never holds them all.
//!
//! The findings of each iparam's own checks are made again a few runs of iparams at a time.
//! Those of reading the file and of the file as a whole (duplicate keys, duplicate labels) are
//! made again from what the file checks kept of every iparam, a window of the text at a time:
//! each window holds what the first pass measured to fit in the budget.

use std::time::Duration;

use rayon::prelude::*;

use super::Linter;
use super::batch::FileChecks;
use super::finish::finish;
use crate::diagnostic::Diagnostic;
use crate::ecma_regex::RegexEngine;
use crate::rules::{FileCheck, Keep, RuleSettings};
use crate::source::SourceText;
use crate::syntax::{Member, parse_document};

/// What finding a held-back report's findings again needs, beyond the file itself
/// ([`Linter::lint_holding`]).
pub struct HeldBack {
    /// The file checks, having seen every iparam, not finished.
    file_checks: Vec<Box<dyn FileCheck>>,
    /// The findings of reading the file, in the order they were found.
    reading: Vec<Diagnostic>,
    /// Where each window of the text starts, the first at 0: the findings of reading the file
    /// and of the file as a whole that start in one take at most a part of the budget (or are
    /// one place's).
    windows: Vec<usize>,
}

impl std::fmt::Debug for HeldBack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HeldBack")
            .field("file_checks", &self.file_checks.len())
            .field("reading", &self.reading.len())
            .field("windows", &self.windows)
            .finish()
    }
}

impl HeldBack {
    /// Measures what the file checks find at the end (the findings made and forgotten, where
    /// each starts and its size noted) and cuts the text into windows of a part of `budget`
    /// bytes of findings.
    pub(super) fn new(
        checks: &FileChecks<'_>,
        mut file_checks: Vec<Box<dyn FileCheck>>,
        reading: Vec<Diagnostic>,
        budget: usize,
        timeout: Duration,
    ) -> Self {
        let measured: Vec<Vec<(usize, usize)>> = file_checks
            .par_iter_mut()
            .map(|check| checks.finish_one(check.as_mut(), &Keep::Measure, timeout).1)
            .collect();
        let mut measured: Vec<(usize, usize)> = measured.into_iter().flatten().collect();
        measured.extend(reading.iter().map(|d| (d.span.start, d.footprint())));
        measured.sort_unstable();
        // A quarter of the budget a window: the allocator keeps the room a window's findings
        // freed for the next ones, which reuse it only in part (windows of the whole budget
        // took 46 MB at the peak for a file of 7.5 MB, a quarter 33 MB).
        let per_window = budget / 4;
        let mut windows = vec![0];
        let mut size = 0;
        for (start, footprint) in measured {
            // A window ends only where findings start at another place than its last.
            if size + footprint > per_window && windows.last().is_some_and(|&last| start > last) {
                windows.push(start);
                size = 0;
            }
            size += footprint;
        }
        Self {
            file_checks,
            reading,
            windows,
        }
    }
}

impl Linter {
    /// Every finding of a file whose report held them back ([`FileReport::held_back`]), handed
    /// to `each` in consecutive pieces, in the order the report would have held them: the file
    /// is parsed again, a few runs of iparams at a time checked on every thread, and the
    /// findings of reading it and of the file as a whole made again a window at a time and put
    /// in their places among theirs.
    ///
    /// Stops checking at the first error `each` returns, and returns it.
    ///
    /// [`FileReport::held_back`]: super::FileReport::held_back
    pub fn stream_held_back<E>(
        &mut self,
        source: &SourceText<'_>,
        rules: &RuleSettings,
        held: HeldBack,
        mut each: impl FnMut(&[Diagnostic]) -> Result<(), E>,
    ) -> Result<(), E> {
        let text = source.text();
        let checks = FileChecks::new(text, rules, None, false);
        let timeout = self.options.regex_timeout;
        // Two runs a thread: enough to keep the threads busy, few enough that a round's
        // findings take a few megabytes at most.
        let round_size = 2 * rayon::current_num_threads();
        let mut engines = vec![std::mem::replace(
            &mut self.regexes,
            RegexEngine::new(timeout),
        )];
        engines.resize_with(round_size, || RegexEngine::new(timeout));
        let mut merge = Merge {
            late: Late {
                held,
                checks: &checks,
                rules,
                timeout,
                next: 0,
            },
            current: Vec::new().into_iter().peekable(),
            piece: Vec::new(),
        };
        let mut outcome = Ok(());
        let mut round: Vec<Vec<Member<'_>>> = Vec::with_capacity(round_size);
        let mut check_round = |round: &mut Vec<Vec<Member<'_>>>| {
            if outcome.is_ok() {
                let found: Vec<Vec<Diagnostic>> = round
                    .par_iter()
                    .zip(engines.par_iter_mut())
                    .map(|(run, engine)| {
                        finish(checks.check_run(run, engine, true).diagnostics, rules)
                    })
                    .collect();
                let piece = merge.piece(found.into_iter().flatten());
                if !piece.is_empty() {
                    outcome = each(piece);
                }
            }
            round.clear();
        };
        parse_in_runs(text, |run| {
            round.push(run);
            if round.len() == round_size {
                check_round(&mut round);
            }
        });
        if !round.is_empty() {
            check_round(&mut round);
        }
        self.regexes = engines.swap_remove(0);
        outcome?;
        while let Some(piece) = merge.rest() {
            if !piece.is_empty() {
                each(piece)?;
            }
        }
        Ok(())
    }
}

/// The findings of reading the file and of the file as a whole, made again a window at a time.
struct Late<'a> {
    held: HeldBack,
    checks: &'a FileChecks<'a>,
    rules: &'a RuleSettings,
    timeout: Duration,
    /// The window to make next.
    next: usize,
}

impl Late<'_> {
    /// Where the next window starts; `None` once all are made.
    fn next_start(&self) -> Option<usize> {
        self.held.windows.get(self.next).copied()
    }

    /// The findings that start in the next window, in order.
    fn next_window(&mut self) -> Option<Vec<Diagnostic>> {
        let start = self.next_start()?;
        self.next += 1;
        let end = self.next_start().unwrap_or(usize::MAX);
        let window = start..end;
        let mut found: Vec<Diagnostic> = self
            .held
            .reading
            .iter()
            .filter(|d| window.contains(&d.span.start))
            .cloned()
            .collect();
        // One check after the other, on this thread: a window is a small part of the file's
        // findings, and finishing the checks on every thread held no less memory (44 MB for
        // a file of 7.5 MB with 200,000 findings, either way).
        let mut regexes = RegexEngine::new(self.timeout);
        let mut cx = self
            .checks
            .context(&mut regexes)
            .keeping(Keep::Within(window));
        for check in &mut self.held.file_checks {
            check.finish(&mut cx);
        }
        found.extend(cx.into_found().0);
        Some(finish(found, self.rules))
    }
}

/// The findings of the iparams' own checks, in order, merged with the others.
struct Merge<'a> {
    late: Late<'a>,
    /// What is left of the window made last.
    current: std::iter::Peekable<std::vec::IntoIter<Diagnostic>>,
    /// The piece being handed over; its room reused.
    piece: Vec<Diagnostic>,
}

impl Merge<'_> {
    /// The next piece: `found` (in order, and after every finding of the pieces before), each
    /// after the other findings that come before it.
    ///
    /// One of the others at the same place and of the same rule as a found one comes after it,
    /// as in the report's order, where findings at the same place keep the order they were
    /// found in, and the iparams' own come first.
    fn piece(&mut self, found: impl Iterator<Item = Diagnostic>) -> &[Diagnostic] {
        self.piece.clear();
        for finding in found {
            let key = (finding.span, finding.rule);
            loop {
                while let Some(other) = self.current.next_if(|other| (other.span, other.rule) < key)
                {
                    self.piece.push(other);
                }
                if self.current.peek().is_some() {
                    break;
                }
                match self.late.next_start() {
                    Some(start) if start <= finding.span.start => {
                        let window = self.late.next_window().unwrap_or_default();
                        self.current = window.into_iter().peekable();
                    }
                    _ => break,
                }
            }
            self.piece.push(finding);
        }
        &self.piece
    }

    /// The next piece of the others after every one found: what is left of the window made
    /// last, or the next window; `None` when none is left.
    fn rest(&mut self) -> Option<&[Diagnostic]> {
        self.piece.clear();
        self.piece.extend(&mut self.current);
        if self.piece.is_empty() {
            self.piece = self.late.next_window()?;
        }
        Some(&self.piece)
    }
}

/// Parses `text`, handing its top-level members to `each_run` in runs of [`RUN`], in order (the
/// last may be shorter). Its syntax errors were reported when the file was first checked.
fn parse_in_runs<'r>(text: &'r str, mut each_run: impl FnMut(Vec<Member<'r>>)) {
    let mut run = Vec::with_capacity(RUN);
    parse_document(text, |member| {
        run.push(member);
        if run.len() == RUN {
            each_run(std::mem::replace(&mut run, Vec::with_capacity(RUN)));
        }
    });
    if !run.is_empty() {
        each_run(run);
    }
}

/// How many consecutive iparams a task checks when held-back findings are found again.
const RUN: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::LintOptions;
    use crate::engine::parallel::tests::examples_repeated;

    /// A linter that checks every file in parallel, as a large one.
    fn linter() -> Linter {
        Linter::new(LintOptions {
            parallel_from: 0,
            ..LintOptions::default()
        })
    }

    /// The findings a held-back report streams, gathered; the number of pieces; the number of
    /// windows the findings of the file as a whole were made in.
    fn streamed(text: &str, budget: usize) -> (Vec<Diagnostic>, usize, usize) {
        let source = SourceText::decode(text.as_bytes());
        let rules = RuleSettings::default();
        let mut linter = linter();
        let (report, held) = linter.lint_holding(&source, &rules, budget);
        assert!(report.held_back && report.diagnostics.is_empty());
        let held = held.expect("what finding them again needs");
        let windows = held.windows.len();
        let (mut all, mut pieces) = (Vec::new(), 0);
        let outcome: Result<(), ()> = linter.stream_held_back(&source, &rules, held, |piece| {
            assert!(!piece.is_empty());
            all.extend_from_slice(piece);
            pieces += 1;
            Ok(())
        });
        assert_eq!(outcome, Ok(()));
        (all, pieces, windows)
    }

    /// Duplicate keys across runs (found at the end), a syntax error in the middle (found on
    /// reading) and the iparams' own findings come out as the report holds them all, whether
    /// the findings of the file as a whole are made in one window or in many.
    #[test]
    fn streamed_findings_are_the_reports_in_its_order() {
        let mut text = examples_repeated(40);
        let middle = text[text.len() / 2..].find(",\n").unwrap() + text.len() / 2;
        text.replace_range(middle..middle + 1, ", ,");
        let whole = linter().lint(&SourceText::decode(text.as_bytes()));
        assert!(!whole.held_back);
        assert!(whole.diagnostics.iter().any(|d| d.rule == "invalid-json"));
        let duplicates = whole
            .diagnostics
            .iter()
            .filter(|d| d.rule == "duplicate-key")
            .count();
        assert!(duplicates > 1000, "{duplicates} duplicate keys");
        let footprint: usize = whole.diagnostics.iter().map(Diagnostic::footprint).sum();
        let mut windows_made = Vec::new();
        for budget in [footprint / 2, footprint / 20] {
            let (all, pieces, windows) = streamed(&text, budget);
            assert!(pieces > 2, "{pieces} pieces");
            assert_eq!(all, whole.diagnostics, "budget {budget}");
            windows_made.push(windows);
        }
        assert!(windows_made[1] > 5, "windows: {windows_made:?}");
    }

    /// A file whose findings are nearly all about the file as a whole (3,000 iparams with one
    /// label) holds them back too, found past the budget as the file checks finish.
    #[test]
    fn findings_of_the_file_as_a_whole_are_held_back_too() {
        let members: Vec<String> = (0..3000)
            .map(|n| format!("\"field_{n}\": {{\"display_name\": \"Same\", \"type\": \"text\"}}"))
            .collect();
        let text = format!("{{\n{}\n}}\n", members.join(",\n"));
        let whole = linter().lint(&SourceText::decode(text.as_bytes()));
        let labels = whole
            .diagnostics
            .iter()
            .filter(|d| d.rule == "duplicate-display-name")
            .count();
        // Nothing else: the budget is spent only as the file checks finish.
        assert_eq!((labels, whole.diagnostics.len()), (2999, 2999));
        let footprint: usize = whole.diagnostics.iter().map(Diagnostic::footprint).sum();
        let (all, _, windows) = streamed(&text, footprint / 4);
        assert_eq!(all, whole.diagnostics);
        assert!(windows >= 4, "{windows} windows");
    }

    /// Within its budget, a report holds every finding itself.
    #[test]
    fn a_report_within_its_budget_holds_all() {
        let text = examples_repeated(10);
        let source = SourceText::decode(text.as_bytes());
        let whole = linter().lint(&source);
        let footprint = whole
            .diagnostics
            .iter()
            .map(Diagnostic::footprint)
            .sum::<usize>();
        let (report, held) =
            linter().lint_holding(&source, &RuleSettings::default(), 4 * footprint);
        assert!(!report.held_back && held.is_none());
        assert_eq!(report.diagnostics, whole.diagnostics);
    }

    #[test]
    fn streaming_stops_at_the_first_error() {
        let text = examples_repeated(40);
        let source = SourceText::decode(text.as_bytes());
        let rules = RuleSettings::default();
        let mut linter = linter();
        let (_, held) = linter.lint_holding(&source, &rules, 100_000);
        let mut calls = 0;
        let outcome = linter.stream_held_back(&source, &rules, held.unwrap(), |_| {
            calls += 1;
            Err("closed")
        });
        assert_eq!(outcome, Err("closed"));
        assert_eq!(calls, 1);
    }
}
