//! A large iparams.json checked on several threads: one parses while batches of consecutive
//! iparams are checked as tasks, joined in file order.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::Linter;
use super::batch::{BatchFindings, FileChecks};
use crate::ecma_regex::RegexEngine;
use crate::in_order::InOrder;
use crate::syntax::{Document, Member, parse_document};

impl Linter {
    /// Parses on this thread and checks runs of [`BATCH`] iparams as tasks on the thread pool,
    /// each with a regex engine of its own; each run's outcome is joined to those before it as
    /// soon as they are all done, so that finished runs do not wait in memory.
    ///
    /// Once the findings joined take more than `budget` bytes, they are dropped, and the runs
    /// after them no longer make those of each iparam's own checks: the last value returned
    /// is then `None` (see [`FileReport::held_back`](super::FileReport::held_back)), and
    /// otherwise the bytes the findings kept take (counted only with a budget).
    pub(super) fn check_in_parallel<'r>(
        &mut self,
        checks: &FileChecks<'r>,
        budget: Option<usize>,
    ) -> (Document, BatchFindings, Option<usize>) {
        let timeout = self.options.regex_timeout;
        let engines = Mutex::new(vec![std::mem::replace(
            &mut self.regexes,
            RegexEngine::new(timeout),
        )]);
        let joined: Mutex<Joined> = Mutex::default();
        let held_back = AtomicBool::new(false);
        // Runs waiting or being checked: past this, the parser checks a run itself, so that
        // parsed iparams never pile up in memory faster than they are checked.
        let in_flight = AtomicUsize::new(0);
        let most_in_flight = 2 * rayon::current_num_threads();
        // Runs checked, handed back to be freed on the parsing thread, which allocated them:
        // freed on the thread that checked them, they took the lock of the parser's heap
        // (the allocator's arena) as it allocated the next runs, and both threads waited.
        let spent: Mutex<Vec<Vec<Member<'r>>>> = Mutex::default();
        let check_batch = |batch: Vec<Member<'r>>, index: usize| {
            let mut engine = lock(&engines)
                .pop()
                .unwrap_or_else(|| RegexEngine::new(timeout));
            let keeps_findings = !held_back.load(Ordering::Relaxed);
            let mut found = checks.check_run(&batch, &mut engine, keeps_findings);
            found.shrink_to_fit();
            // Counted as the run arrives, not when it is joined: runs checked out of turn wait
            // for the ones before them, and hold their findings meanwhile.
            let bytes = budget.map_or(0, |_| found.footprint());
            lock(&spent).push(batch);
            lock(&engines).push(engine);
            let Joined {
                in_order,
                found: joined,
                footprint,
            } = &mut *lock(&joined);
            if let Some(budget) = budget
                && !held_back.load(Ordering::Relaxed)
            {
                *footprint += bytes;
                if *footprint > budget {
                    held_back.store(true, Ordering::Relaxed);
                    if let Some(joined) = joined {
                        joined.forget_findings();
                    }
                }
            }
            in_order.arrive(index, found, |mut found| {
                // Those that waited are forgotten as they are joined.
                if held_back.load(Ordering::Relaxed) {
                    found.forget_findings();
                }
                match joined {
                    Some(joined) => joined.append(found),
                    None => *joined = Some(found),
                }
            });
        };
        let document = rayon::in_place_scope(|scope| {
            let mut batches = 0;
            let dispatch = |batch: Vec<Member<'r>>| {
                // Taken first, then freed: not under the lock the checking threads push to.
                let checked = std::mem::take(&mut *lock(&spent));
                drop(checked);
                let index = batches;
                batches += 1;
                if in_flight.load(Ordering::Acquire) < most_in_flight {
                    in_flight.fetch_add(1, Ordering::AcqRel);
                    let (check_batch, in_flight) = (&check_batch, &in_flight);
                    scope.spawn(move |_| {
                        check_batch(batch, index);
                        in_flight.fetch_sub(1, Ordering::AcqRel);
                    });
                } else {
                    check_batch(batch, index);
                }
            };
            parse_in_runs(checks.text, dispatch)
        });
        self.regexes = lock(&engines).swap_remove(0);
        let Joined {
            found, footprint, ..
        } = joined.into_inner().unwrap_or_else(PoisonError::into_inner);
        let found = found.unwrap_or_else(|| checks.batch(&mut self.regexes).finish());
        let kept = (!held_back.into_inner()).then_some(footprint);
        (document, found, kept)
    }
}

/// The runs checked so far, joined in file order.
#[derive(Default)]
struct Joined {
    in_order: InOrder<BatchFindings>,
    /// What the runs joined so far found.
    found: Option<BatchFindings>,
    /// The bytes the findings of the runs that arrived take, counted while there is a budget
    /// and it is not spent.
    footprint: usize,
}

/// Parses `text`, handing its top-level members to `each_run` in runs of [`BATCH`], in order
/// (the last may be shorter).
pub(super) fn parse_in_runs<'r>(
    text: &'r str,
    mut each_run: impl FnMut(Vec<Member<'r>>),
) -> Document {
    let mut run = Vec::with_capacity(BATCH);
    let document = parse_document(text, |member| {
        run.push(member);
        if run.len() == BATCH {
            each_run(std::mem::replace(&mut run, Vec::with_capacity(BATCH)));
        }
    });
    if !run.is_empty() {
        each_run(run);
    }
    document
}

/// The data behind `mutex`, even if a thread panicked holding it (the panic is raised anyway).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How many consecutive iparams a task checks when a file is checked in parallel.
pub(super) const BATCH: usize = 256;

/// Files from this size on are checked on several threads.
pub(super) const PARALLEL_FROM: usize = 1 << 20;

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::engine::LintOptions;
    use crate::rules::{Check, REGISTRY};
    use crate::source::SourceText;

    /// Every rule's failing example, its iparams repeated `times` under the same keys, so that
    /// duplicate keys fall in different runs of a parallel check. Without events, which would
    /// silence `hidden-required` outside an app.
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
                    members.push(text);
                }
            });
        }
        let body = vec![members.join(",\n"); times].join(",\n");
        format!("{{\n{body}\n}}\n")
    }

    #[test]
    fn parallel_and_sequential_checks_agree() {
        let text = examples_repeated(40);
        let source = SourceText::decode(text.as_bytes());
        let lint = |parallel_from: usize| {
            Linter::new(LintOptions {
                parallel_from,
                ..LintOptions::default()
            })
            .lint(&source)
        };
        let sequential = lint(usize::MAX);
        let parallel = lint(0);
        assert!(
            sequential.iparams > 4 * BATCH,
            "{} iparams: too few runs",
            sequential.iparams
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
    }
}
