//! A large iparams.json checked on every thread: its top-level object is read in stretches at
//! once (see [`parse_document_in_stretches`]), and each stretch's iparams are checked as they
//! are read, on the thread that reads them; the stretches' findings are joined in file order.

use std::sync::Mutex;

use super::batch::{BatchFindings, FileChecks};
use super::linter::Linter;
use crate::ecma_regex::RegexEngine;
use crate::sync::lock;
use crate::syntax::{Document, likely_boundaries, parse_document_in_stretches};

impl Linter {
    /// Checks the file in stretches that shrink toward its end (see [`stretch_starts`]), from
    /// where top-level iparams likely start.
    pub(super) fn check_in_parallel(
        &mut self,
        checks: &FileChecks<'_>,
    ) -> (Document, BatchFindings) {
        let near = stretch_starts(checks.text.len(), rayon::current_num_threads());
        let guesses = likely_boundaries(checks.text, &near);
        self.check_in_stretches(checks, &guesses)
    }

    /// Checks the file in stretches from each of `guesses` (see
    /// [`check_in_parallel`](Self::check_in_parallel)).
    fn check_in_stretches(
        &mut self,
        checks: &FileChecks<'_>,
        guesses: &[usize],
    ) -> (Document, BatchFindings) {
        let timeout = self.options.regex_timeout;
        let engines = Mutex::new(vec![std::mem::replace(
            &mut self.regexes,
            RegexEngine::new(timeout),
        )]);
        let mut joined: Option<BatchFindings> = None;
        let document = parse_document_in_stretches(
            checks.text,
            guesses,
            |read| {
                let mut engine = lock(&engines)
                    .pop()
                    .unwrap_or_else(|| RegexEngine::new(timeout));
                let mut batch = checks.batch(&mut engine);
                read(&mut |member| batch.check(&member));
                let found = batch.finish();
                lock(&engines).push(engine);
                found
            },
            |found| match &mut joined {
                Some(joined) => joined.append(found),
                None => joined = Some(found),
            },
        );
        self.regexes = lock(&engines).swap_remove(0);
        let found = joined.unwrap_or_else(|| checks.batch(&mut self.regexes).finish());
        (document, found)
    }
}

/// Where the stretches of a file of `len` bytes, read on `threads` threads, start after the
/// first, as near as a boundary is found: each stretch is a part of what is left, half of it
/// shared among the threads, so that stretches shrink toward the end and the threads end close
/// together (the last stretch is read by one thread while the others wait); and none is
/// smaller than [`SMALLEST_PER_THREAD`] of a thread's share of the file, each start being a
/// guess (a guess costs a look for a boundary, and a wrong one a stretch read in vain).
fn stretch_starts(len: usize, threads: usize) -> Vec<usize> {
    let smallest = (len / (threads * SMALLEST_PER_THREAD)).max(1);
    let mut starts = Vec::new();
    let mut at = 0;
    loop {
        at += ((len - at) / (2 * threads)).max(smallest);
        if at >= len {
            return starts;
        }
        starts.push(at);
    }
}

/// The smallest stretch, as a part of a thread's share of the file.
const SMALLEST_PER_THREAD: usize = 24;

#[cfg(test)]
pub(super) mod tests {
    use std::time::Duration;

    use super::*;
    use crate::diagnostic::Diagnostic;
    use crate::engine::linter::{LintOptions, PARALLEL_FROM};
    use crate::rules::{Check, REGISTRY, RuleSettings};
    use crate::source::SourceText;
    use crate::syntax::{evenly, parse_document};

    /// How long a match may run in these checks: far less than the shortened failing example of
    /// `regex-timeout` takes (see [`examples_repeated`]), and enough for the other examples'
    /// patterns, which run in place, without a limit.
    const MATCH_TIMEOUT: Duration = Duration::from_millis(1);

    fn options(parallel_from: usize) -> LintOptions {
        LintOptions {
            parallel_from,
            regex_timeout: MATCH_TIMEOUT,
            ..LintOptions::default()
        }
    }

    /// Every rule's failing example, its iparams repeated `times` under the same keys, so that
    /// duplicate keys fall in different runs of a parallel check. Without events, which would
    /// silence `hidden-required` outside an app. The default value that `^(a+)+$` fails on
    /// has 20 `a`s instead of 44: still far past [`MATCH_TIMEOUT`] (2^19 ways to split them),
    /// but the thread left running each such match ends, instead of taking a core from the
    /// other tests until they all end.
    pub(in crate::engine) fn examples_repeated(times: usize) -> String {
        let mut members = Vec::new();
        for rule in REGISTRY {
            if !rule
                .checks
                .iter()
                .any(|check| matches!(check, Check::Iparam(_) | Check::File(_)))
            {
                continue;
            }
            parse_document(rule.bad, |member| {
                let text = &rule.bad[member.key.span.start..member.value.span.end];
                if !text.contains("\"events\"") {
                    members.push(text.replace(&"a".repeat(44), &"a".repeat(20)));
                }
            });
        }
        assert!(
            members.iter().any(|member| member.contains("^(a+)+$")),
            "a catastrophic pattern among the examples"
        );
        let body = vec![members.join(",\n"); times].join(",\n");
        format!("{{\n{body}\n}}\n")
    }

    #[test]
    fn stretches_shrink_toward_the_end_of_the_file() {
        for threads in 1..=8 {
            for len in [1, 100, 10_560_000] {
                let starts = stretch_starts(len, threads);
                let mut ends = starts.clone();
                ends.push(len);
                let sizes: Vec<usize> = std::iter::once(0)
                    .chain(starts.iter().copied())
                    .zip(&ends)
                    .map(|(start, &end)| end - start)
                    .collect();
                let what = format!("{len} bytes on {threads} threads: {sizes:?}");
                assert!(
                    starts.iter().all(|&start| start > 0 && start < len),
                    "{what}"
                );
                assert!(sizes.windows(2).all(|pair| pair[0] >= pair[1]), "{what}");
                if len >= 100 {
                    // A quarter of the file first on 2 threads, then less and less, and at
                    // most a few dozen stretches a thread.
                    assert_eq!(sizes[0], len / (2 * threads), "{what}");
                    assert!(sizes.len() > 2 * threads, "{what}");
                    assert!(sizes.len() < 20 * threads, "{what}");
                    let smallest = len / (threads * SMALLEST_PER_THREAD);
                    let last = sizes.len() - 1;
                    assert!(sizes[..last].iter().all(|&size| size >= smallest), "{what}");
                }
            }
        }
    }

    #[test]
    fn parallel_and_sequential_checks_agree() {
        let text = examples_repeated(40);
        let source = SourceText::decode(text.as_bytes());
        let lint = |parallel_from: usize| Linter::new(options(parallel_from)).lint(&source);
        let sequential = lint(usize::MAX);
        let parallel = lint(0);
        let near = stretch_starts(text.len(), rayon::current_num_threads());
        assert_eq!(
            likely_boundaries(&text, &near).len(),
            near.len(),
            "the file is read in stretches"
        );
        assert_eq!(parallel.iparams, sequential.iparams);
        assert_eq!(parallel.redactions, sequential.redactions);
        assert_eq!(parallel.diagnostics, sequential.diagnostics);
        let count = |rule: &str| {
            sequential
                .diagnostics
                .iter()
                .filter(|d| d.rule == rule)
                .count()
        };
        assert!(count("duplicate-key") > sequential.iparams / 2);
        assert!(count("hidden-required") > 0);
        assert_eq!(
            count("regex-timeout"),
            40,
            "the catastrophic match is cut off"
        );
    }

    /// The findings of `found` once its file checks are finished, as a file checked on one
    /// thread finishes them.
    fn finished(checks: &FileChecks<'_>, found: BatchFindings) -> Vec<Diagnostic> {
        let mut regexes = RegexEngine::new(MATCH_TIMEOUT);
        let mut cx = checks.context(&mut regexes);
        cx.diagnostics = found.diagnostics;
        for mut check in found.file_checks {
            check.finish(&mut cx);
        }
        cx.diagnostics
    }

    #[test]
    fn stretches_from_wrong_guesses_find_what_one_thread_finds() {
        // Broken here and there, so that stretches meet errors, then broken for good halfway.
        let broken = examples_repeated(3)
            .replacen("\"type\"", "'type'", 2)
            .replacen("},\n", "},,\n", 3)
            .replacen(",\n", ", // a comment, with a comma\n", 5);
        let halfway = broken.len() / 2 + broken[broken.len() / 2..].find(",\n").unwrap_or(0);
        let cut_short = format!("{}\"x\" \"y\"{}", &broken[..halfway], &broken[halfway..]);
        for text in [broken, cut_short] {
            let checks = FileChecks::new(&text, &RuleSettings::default(), None, false);
            let mut regexes = RegexEngine::new(MATCH_TIMEOUT);
            let mut batch = checks.batch(&mut regexes);
            let whole = parse_document(&text, |member| batch.check(&member));
            let whole_found = batch.finish();
            let (iparams, redactions) = (whole_found.iparams, whole_found.redactions.clone());
            let expected = finished(&checks, whole_found);
            assert!(expected.iter().any(|d| d.rule == "regex-timeout"));
            assert!(whole.errors.len() >= 5, "{:?}", whole.errors);
            assert_eq!(whole.is_incomplete(), text.contains("\"x\" \"y\""));
            // After every comma, most of them deep in an iparam or inside a comment; and a few.
            let every_comma: Vec<usize> = text.match_indices(',').map(|(at, _)| at + 1).collect();
            let some: Vec<usize> = every_comma.iter().step_by(97).copied().collect();
            for guesses in [
                every_comma,
                some,
                likely_boundaries(&text, &evenly(text.len(), 5)),
            ] {
                let mut linter = Linter::new(options(PARALLEL_FROM));
                let (document, found) = linter.check_in_stretches(&checks, &guesses);
                assert_eq!(document.root, whole.root);
                assert_eq!(document.errors, whole.errors);
                assert_eq!(found.iparams, iparams);
                assert_eq!(found.redactions, redactions);
                let found = finished(&checks, found);
                assert_eq!(found, expected, "from {} guesses", guesses.len());
            }
        }
    }
}
