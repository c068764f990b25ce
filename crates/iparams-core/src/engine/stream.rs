//! The findings a report held back, found again and handed over in pieces: a file with more
//! findings than its memory budget is checked twice, but never holds them all.

use rayon::prelude::*;

use super::Linter;
use super::file::FileChecks;
use super::finish::finish;
use super::parallel::BATCH;
use crate::diagnostic::Diagnostic;
use crate::ecma_regex::RegexEngine;
use crate::rules::RuleSettings;
use crate::source::SourceText;
use crate::syntax::{Member, parse_document};

impl Linter {
    /// Every finding of a file whose report held back those of each iparam's own checks
    /// ([`FileReport::held_back`](super::FileReport::held_back)), handed to `each` in
    /// consecutive pieces, in the order the report would have held them: the file is parsed
    /// again, a few runs of iparams at a time checked on every thread, and the report's own
    /// findings (`held`, as the report holds them) put in their places among theirs.
    ///
    /// Stops checking at the first error `each` returns, and returns it.
    pub fn stream_held_back<E>(
        &mut self,
        source: &SourceText<'_>,
        rules: &RuleSettings,
        held: Vec<Diagnostic>,
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
            held: held.into_iter().peekable(),
            piece: Vec::new(),
        };
        let mut outcome = Ok(());
        let mut round: Vec<Vec<Member<'_>>> = Vec::with_capacity(round_size);
        let mut check_round = |round: &mut Vec<Vec<Member<'_>>>| {
            if outcome.is_ok() {
                let found: Vec<Vec<Diagnostic>> = round
                    .par_iter()
                    .zip(engines.par_iter_mut())
                    .map(|(members, engine)| {
                        let mut batch = checks.batch(engine);
                        for member in members {
                            batch.check(member);
                        }
                        finish(batch.finish().into_findings(), rules)
                    })
                    .collect();
                let piece = merge.piece(found.into_iter().flatten());
                if !piece.is_empty() {
                    outcome = each(piece);
                }
            }
            round.clear();
        };
        let mut batch = Vec::with_capacity(BATCH);
        parse_document(text, |member| {
            batch.push(member);
            if batch.len() == BATCH {
                round.push(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)));
                if round.len() == round_size {
                    check_round(&mut round);
                }
            }
        });
        if !batch.is_empty() {
            round.push(batch);
        }
        if !round.is_empty() {
            check_round(&mut round);
        }
        self.regexes = engines.swap_remove(0);
        outcome?;
        let rest = merge.rest();
        if rest.is_empty() {
            return Ok(());
        }
        each(rest)
    }
}

/// The findings of the iparams' own checks, in order, merged with those the report held.
struct Merge {
    held: std::iter::Peekable<std::vec::IntoIter<Diagnostic>>,
    /// The piece being handed over; its room reused.
    piece: Vec<Diagnostic>,
}

impl Merge {
    /// The next piece: `found` (in order, and after every finding of the pieces before), each
    /// after the held findings that come before it.
    ///
    /// A held finding at the same place and of the same rule as a found one comes after it,
    /// as in the report's order, where findings at the same place keep the order they were
    /// found in, and the iparams' own come first.
    fn piece(&mut self, found: impl Iterator<Item = Diagnostic>) -> &[Diagnostic] {
        self.piece.clear();
        for finding in found {
            let key = (finding.span, finding.rule);
            while let Some(held) = self.held.next_if(|held| (held.span, held.rule) < key) {
                self.piece.push(held);
            }
            self.piece.push(finding);
        }
        &self.piece
    }

    /// The last piece: the held findings after every one found.
    fn rest(&mut self) -> &[Diagnostic] {
        self.piece.clear();
        self.piece.extend(&mut self.held);
        &self.piece
    }
}

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

    /// The findings a held-back report streams, gathered, and the number of pieces.
    fn streamed(text: &str, budget: usize) -> (Vec<Diagnostic>, usize) {
        let source = SourceText::decode(text.as_bytes());
        let rules = RuleSettings::default();
        let mut linter = linter();
        let report = linter.lint_holding(&source, &rules, budget);
        assert!(report.held_back, "a budget of {budget} bytes holds back");
        let (mut all, mut pieces) = (Vec::new(), 0);
        let outcome: Result<(), ()> =
            linter.stream_held_back(&source, &rules, report.diagnostics, |piece| {
                assert!(!piece.is_empty());
                all.extend_from_slice(piece);
                pieces += 1;
                Ok(())
            });
        assert_eq!(outcome, Ok(()));
        (all, pieces)
    }

    /// Duplicate keys across runs (found at the end), a syntax error in the middle (found on
    /// reading) and the iparams' own findings come out as the report holds them all.
    #[test]
    fn streamed_findings_are_the_reports_in_its_order() {
        let mut text = examples_repeated(40);
        let middle = text[text.len() / 2..].find(",\n").unwrap() + text.len() / 2;
        text.replace_range(middle..middle + 1, ", ,");
        let whole = linter().lint(&SourceText::decode(text.as_bytes()));
        assert!(!whole.held_back);
        assert!(whole.diagnostics.iter().any(|d| d.rule == "invalid-json"));
        assert!(whole.diagnostics.iter().any(|d| d.rule == "duplicate-key"));
        for budget in [0, 4096, whole.diagnostics.len() * 100] {
            let (all, pieces) = streamed(&text, budget);
            assert!(pieces > 2, "{pieces} pieces");
            assert_eq!(all, whole.diagnostics, "budget {budget}");
        }
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
        let report = linter().lint_holding(&source, &RuleSettings::default(), 4 * footprint);
        assert!(!report.held_back);
        assert_eq!(report.diagnostics, whole.diagnostics);
    }

    #[test]
    fn streaming_stops_at_the_first_error() {
        let text = examples_repeated(40);
        let source = SourceText::decode(text.as_bytes());
        let rules = RuleSettings::default();
        let mut linter = linter();
        let report = linter.lint_holding(&source, &rules, 0);
        let mut calls = 0;
        let outcome = linter.stream_held_back(&source, &rules, report.diagnostics, |_| {
            calls += 1;
            Err("closed")
        });
        assert_eq!(outcome, Err("closed"));
        assert_eq!(calls, 1);
    }
}
