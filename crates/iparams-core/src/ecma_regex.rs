//! The apps' own regexes: JavaScript syntax, checked the way `new RegExp(pattern)` reads them,
//! and matched with a time limit, since a user pattern can backtrack for ever.
//!
//! Syntax is checked with oxc's parser, which follows the ECMAScript grammar (Annex B
//! included, as browsers and Node read a pattern without flags) and places each error inside
//! the JSON string literal. Matching uses regress, an ECMAScript engine. regress has no step
//! limit, so a match runs on a worker thread and the only bound on a catastrophic pattern is to
//! stop waiting — unless the pattern's shape bounds its backtracking on that text (see
//! [`Paths`]), as most real patterns do on real defaults. Such a match runs in place: it needs
//! no thread, and it still runs once catastrophic matches have used up the threads allowed.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

use oxc_allocator::Allocator;
use oxc_regular_expression::ast::{Disjunction, Pattern, Term};
use oxc_regular_expression::{ConstructorParser, Options};

use crate::fast_hash::FastHashMap;
use crate::span::Span;

/// How long one match may run before it is abandoned.
pub const DEFAULT_MATCH_TIMEOUT: Duration = Duration::from_millis(100);

/// Longer texts are not matched: no default or installation value is this long, and matching
/// cost grows with length.
pub const MAX_MATCH_INPUT: usize = 10_000;

/// Entries either cache may hold before it is emptied; a linter lives for a whole run, and
/// distinct patterns and texts grow with the input.
const CACHE_LIMIT: usize = 4096;

/// Matches left running after a timeout (regress cannot be interrupted) before the engine stops
/// starting new ones: each holds a core until the process exits.
pub const MAX_ABANDONED: usize = 8;

/// Why a pattern is not valid JavaScript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    pub message: String,
    pub help: Option<String>,
    /// Where in the string literal (quotes included) the problem is, when known.
    pub span_in_literal: Option<Span>,
}

#[derive(Clone, Debug)]
pub enum Compiled {
    Valid(Arc<UserRegex>),
    Invalid(PatternError),
    /// Valid JavaScript that the matching engine cannot run; nothing can be said of matches.
    Unrunnable,
}

/// A valid pattern, ready to match.
#[derive(Debug)]
pub struct UserRegex {
    regex: regress::Regex,
    /// A bound on its backtracking, when its shape gives one.
    paths: Option<Paths>,
}

/// What bounds the backtracking of a pattern in which only single characters (a literal, `.`,
/// a class, an escape) are repeated, with no back-reference and no look-around: at each start,
/// each repetition chooses one of at most `length + 1` counts, each alternation one of its
/// branches and each optional part whether to match it, so a match tries at most `(length + 1)^(repeats + 1) × branches` paths, each of at
/// most `terms` steps. Repeated groups, the shape of catastrophic patterns such as `(a+)+`, give
/// no bound.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Paths {
    /// Repetitions of a single character whose count can vary.
    repeats: u32,
    /// The product of the branch counts of every alternation (an optional part has two).
    branches: u64,
    terms: u64,
}

/// Whether `term` always matches exactly one character: a literal, `.`, a class or an escape.
fn matches_one_character(term: &Term<'_>) -> bool {
    matches!(
        term,
        Term::Character(_)
            | Term::Dot(_)
            | Term::CharacterClassEscape(_)
            | Term::UnicodePropertyEscape(_)
            | Term::CharacterClass(_)
    )
}

/// Matches bounded to this many steps run in place: at most a few milliseconds.
const IN_PLACE_STEPS: u64 = 1_000_000;

impl Paths {
    fn of(pattern: &Pattern<'_>) -> Option<Paths> {
        let mut paths = Paths {
            branches: 1,
            ..Paths::default()
        };
        paths.add_disjunction(&pattern.body)?;
        Some(paths)
    }

    fn add_disjunction(&mut self, disjunction: &Disjunction<'_>) -> Option<()> {
        self.branches = self
            .branches
            .checked_mul(disjunction.body.len().max(1) as u64)?;
        for alternative in &disjunction.body {
            for term in &alternative.body {
                self.add_term(term)?;
            }
        }
        Some(())
    }

    fn add_term(&mut self, term: &Term<'_>) -> Option<()> {
        self.terms += 1;
        match term {
            Term::BoundaryAssertion(_) => Some(()),
            _ if matches_one_character(term) => Some(()),
            Term::CapturingGroup(group) => self.add_disjunction(&group.body),
            Term::IgnoreGroup(group) => self.add_disjunction(&group.body),
            // An optional part (`?`, `{0,1}`) is tried once or skipped, whatever it holds.
            Term::Quantifier(quantifier) if quantifier.max.is_some_and(|max| max <= 1) => {
                self.branches = self.branches.checked_mul(2)?;
                self.add_term(&quantifier.body)
            }
            Term::Quantifier(quantifier) => {
                if !matches_one_character(&quantifier.body) {
                    return None;
                }
                if quantifier.max != Some(quantifier.min) {
                    self.repeats += 1;
                }
                Some(())
            }
            // Look-arounds and back-references: no bound is known.
            _ => None,
        }
    }

    /// The most steps a match on a text of `length` bytes can take, if it can be told.
    fn steps(self, length: usize) -> Option<u64> {
        let choices = length as u64 + 1;
        choices
            .checked_pow(self.repeats + 1)?
            .checked_mul(self.branches)?
            .checked_mul(self.terms.max(1))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchOutcome {
    Matched,
    NotMatched,
    /// The match did not finish within the timeout: the pattern backtracks catastrophically.
    TimedOut,
    /// Not matched: the text is longer than [`MAX_MATCH_INPUT`], or the pattern's backtracking
    /// has no bound and too many catastrophic matches are still running.
    Skipped,
}

/// Compiles and matches user patterns, remembering each pattern it has seen.
pub struct RegexEngine {
    cache: FastHashMap<String, Compiled>,
    /// Outcomes by (regex, text): several rules ask about the same default.
    outcomes: FastHashMap<(usize, String), MatchOutcome>,
    abandoned: usize,
    allocator: Allocator,
    worker: Option<Worker>,
    timeout: Duration,
}

impl std::fmt::Debug for RegexEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegexEngine")
            .field("patterns", &self.cache.len())
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl Default for RegexEngine {
    fn default() -> Self {
        Self::new(DEFAULT_MATCH_TIMEOUT)
    }
}

impl RegexEngine {
    pub fn new(timeout: Duration) -> Self {
        Self {
            cache: FastHashMap::default(),
            outcomes: FastHashMap::default(),
            abandoned: 0,
            allocator: Allocator::default(),
            worker: None,
            timeout,
        }
    }

    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Compiles the pattern written as the JSON string literal `literal` (quotes included),
    /// whose unescaped text is `pattern`.
    pub fn compile(&mut self, literal: &str, pattern: &str) -> Compiled {
        if let Some(compiled) = self.cache.get(literal) {
            return compiled.clone();
        }
        let compiled = match self.check_syntax(literal) {
            Err(error) => Compiled::Invalid(error),
            Ok(paths) => match regress::Regex::with_flags(pattern, "") {
                Ok(regex) => Compiled::Valid(Arc::new(UserRegex { regex, paths })),
                Err(_) => Compiled::Unrunnable,
            },
        };
        if self.cache.len() >= CACHE_LIMIT {
            // Outcomes are keyed by the address of a cached regex, which may now be reused.
            self.cache.clear();
            self.outcomes.clear();
        }
        self.cache.insert(literal.to_owned(), compiled.clone());
        compiled
    }

    /// The pattern's syntax error, or what bounds its backtracking.
    fn check_syntax(&mut self, literal: &str) -> Result<Option<Paths>, PatternError> {
        let result =
            ConstructorParser::new(&self.allocator, literal, None, Options::default()).parse();
        let result = result
            .map(|pattern| Paths::of(&pattern))
            .map_err(|error| PatternError {
                message: error
                    .message
                    .trim_start_matches("Invalid regular expression: ")
                    .to_owned(),
                help: error.help.as_ref().map(ToString::to_string),
                span_in_literal: error.labels.first().map(|label| {
                    Span::new(
                        label.offset() as usize,
                        (label.offset() + label.len()) as usize,
                    )
                }),
            });
        self.allocator.reset();
        result
    }

    /// Whether `regex` finds a match in `text`, as JavaScript's `RegExp.prototype.test` does
    /// (anywhere in the text unless the pattern is anchored), within the timeout.
    pub fn test(&mut self, regex: &Arc<UserRegex>, text: &str) -> MatchOutcome {
        // The compile cache keeps every regex alive, so its address identifies it.
        let key = (Arc::as_ptr(regex) as usize, text.to_owned());
        if let Some(outcome) = self.outcomes.get(&key) {
            return *outcome;
        }
        let outcome = self.run(regex, text);
        if self.outcomes.len() >= CACHE_LIMIT {
            self.outcomes.clear();
        }
        self.outcomes.insert(key, outcome);
        outcome
    }

    fn run(&mut self, regex: &Arc<UserRegex>, text: &str) -> MatchOutcome {
        if text.len() > MAX_MATCH_INPUT {
            return MatchOutcome::Skipped;
        }
        let bounded = regex
            .paths
            .and_then(|paths| paths.steps(text.len()))
            .is_some_and(|steps| steps <= IN_PLACE_STEPS);
        if bounded {
            return if regex.regex.find(text).is_some() {
                MatchOutcome::Matched
            } else {
                MatchOutcome::NotMatched
            };
        }
        if self.abandoned >= MAX_ABANDONED {
            return MatchOutcome::Skipped;
        }
        let worker = self.worker.get_or_insert_with(Worker::spawn);
        if worker
            .jobs
            .send((Arc::clone(regex), text.to_owned()))
            .is_err()
        {
            self.worker = None;
            return MatchOutcome::Skipped;
        }
        match worker.results.recv_timeout(self.timeout) {
            Ok(true) => MatchOutcome::Matched,
            Ok(false) => MatchOutcome::NotMatched,
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                // The thread is left to finish on its own; a fresh one takes the next job.
                self.worker = None;
                self.abandoned += 1;
                MatchOutcome::TimedOut
            }
        }
    }
}

type Job = (Arc<UserRegex>, String);

/// A thread that runs matches, so the caller can stop waiting for one.
#[derive(Debug)]
struct Worker {
    jobs: Sender<Job>,
    results: Receiver<bool>,
}

impl Worker {
    fn spawn() -> Self {
        let (jobs, job_receiver) = mpsc::channel::<Job>();
        let (result_sender, results) = mpsc::channel();
        let spawned = thread::Builder::new()
            .name("iparams-regex".into())
            .spawn(move || {
                for (regex, text) in job_receiver {
                    if result_sender
                        .send(regex.regex.find(&text).is_some())
                        .is_err()
                    {
                        break;
                    }
                }
            });
        // Without a thread the channel is closed, and `test` reports every match as skipped.
        drop(spawned);
        Self { jobs, results }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn literal(pattern: &str) -> String {
        format!("\"{}\"", pattern.replace('\\', "\\\\"))
    }

    fn compile(engine: &mut RegexEngine, pattern: &str) -> Compiled {
        engine.compile(&literal(pattern), pattern)
    }

    #[test]
    fn javascript_syntax_is_accepted() {
        let mut engine = RegexEngine::default();
        for pattern in [
            "[^]",
            r"\cJ",
            "(?<=a)b",
            r"(?<year>\d{4})",
            "a]",
            r"^[\w.+-]+@\w+$",
            "",
        ] {
            assert!(
                matches!(compile(&mut engine, pattern), Compiled::Valid(_)),
                "{pattern}"
            );
        }
    }

    #[test]
    fn errors_point_inside_the_literal() {
        let mut engine = RegexEngine::default();
        let Compiled::Invalid(error) = compile(&mut engine, "^[a-z]+(abc$") else {
            panic!("should be invalid")
        };
        assert_eq!(error.message, "Unterminated capturing group");
        let span = error.span_in_literal.unwrap();
        assert_eq!(&literal("^[a-z]+(abc$")[span.start..span.start + 1], "(");
        assert!(matches!(
            compile(&mut engine, "a{2,1}"),
            Compiled::Invalid(_)
        ));
        assert!(matches!(
            compile(&mut engine, "[z-a]"),
            Compiled::Invalid(_)
        ));
    }

    #[test]
    fn matching_is_unanchored_like_test() {
        let mut engine = RegexEngine::default();
        let Compiled::Valid(regex) = compile(&mut engine, "[1-9][0-9]") else {
            panic!()
        };
        assert_eq!(engine.test(&regex, "age 42!"), MatchOutcome::Matched);
        assert_eq!(engine.test(&regex, "age 4"), MatchOutcome::NotMatched);
    }

    /// How long a test lets a catastrophic match run: far less than [`catastrophic`] takes.
    const CUT_OFF: Duration = Duration::from_millis(1);

    /// A text on which `^(a+)+$` backtracks through 2^19 ways of splitting its `a`s before it
    /// fails: tens of milliseconds in a test build, still several optimised, so always past
    /// [`CUT_OFF`]; yet it ends, and the thread left running it does not take a core from the
    /// other tests for the rest of the run (as `(a+)+` on 40 `a`s would). `tail` tells texts
    /// apart without adding to the work.
    fn catastrophic(tail: usize) -> String {
        format!("{}{}!", "a".repeat(20), "b".repeat(tail))
    }

    #[test]
    fn catastrophic_patterns_are_cut_off() {
        let mut engine = RegexEngine::new(CUT_OFF);
        let Compiled::Valid(regex) = compile(&mut engine, "^(a+)+$") else {
            panic!()
        };
        assert_eq!(
            engine.test(&regex, &catastrophic(0)),
            MatchOutcome::TimedOut
        );
        // The engine keeps working after abandoning a match, on a fresh thread given the usual
        // time.
        engine.timeout = DEFAULT_MATCH_TIMEOUT;
        assert_eq!(engine.test(&regex, "aaa"), MatchOutcome::Matched);
    }

    #[test]
    fn abandoned_matches_are_capped() {
        let mut engine = RegexEngine::new(CUT_OFF);
        let Compiled::Valid(regex) = compile(&mut engine, "^(a+)+$") else {
            panic!()
        };
        // Each of these takes far over the limit, then ends on its own.
        let texts: Vec<String> = (0..=MAX_ABANDONED).map(catastrophic).collect();
        for text in &texts[..MAX_ABANDONED] {
            assert_eq!(engine.test(&regex, text), MatchOutcome::TimedOut);
        }
        assert_eq!(
            engine.test(&regex, &texts[MAX_ABANDONED]),
            MatchOutcome::Skipped
        );
        // A pattern whose backtracking is bounded still runs, in place.
        let Compiled::Valid(bounded) = compile(&mut engine, "^[a-z]+$") else {
            panic!()
        };
        assert_eq!(engine.test(&bounded, "abc"), MatchOutcome::Matched);
    }

    fn paths(engine: &mut RegexEngine, pattern: &str) -> Option<Paths> {
        match compile(engine, pattern) {
            Compiled::Valid(regex) => regex.paths,
            other => panic!("{pattern}: {other:?}"),
        }
    }

    #[test]
    fn backtracking_is_bounded_only_for_repeated_single_characters() {
        let mut engine = RegexEngine::default();
        let bounded = |repeats, branches, terms| {
            Some(Paths {
                repeats,
                branches,
                terms,
            })
        };
        assert_eq!(
            paths(&mut engine, "^[A-Za-z0-9_ -]{3,64}$"),
            bounded(1, 1, 3)
        );
        assert_eq!(
            paths(&mut engine, r"^\d{10}$|^\d{3}-\d{3}-\d{4}$"),
            bounded(0, 2, 10)
        );
        let url = paths(&mut engine, r"^(?:https?://)?[^/]+(/.*)?$");
        assert_eq!(url.map(|p| (p.repeats, p.branches)), Some((2, 8)));
        for unbounded in [
            "^(a+)+$",
            "(a|aa)*",
            r"(\w)\1",
            "(?=a+)a",
            r"^(?<x>a)\k<x>$",
        ] {
            assert_eq!(paths(&mut engine, unbounded), None, "{unbounded}");
        }
        let two_repeats = paths(&mut engine, "a*b*").unwrap();
        assert_eq!(two_repeats.steps(9), Some(1000 * 2));
        assert_eq!(
            Paths {
                repeats: 40,
                branches: 1,
                terms: 1
            }
            .steps(1000),
            None
        );
    }

    #[test]
    fn matches_in_place_and_on_the_worker_agree() {
        let mut engine = RegexEngine::default();
        let cases = [
            ("^[a-z]+@[a-z]+\\.com$", "ann@example.com", true),
            ("^[a-z]+@[a-z]+\\.com$", "ann@example.org", false),
            ("^\\d{3}-\\d{4}$", "555-1234", true),
            ("colou?r", "the colour", true),
            ("^(?:Low|High)$", "Medium", false),
        ];
        for (pattern, text, expected) in cases {
            let Compiled::Valid(regex) = compile(&mut engine, pattern) else {
                panic!("{pattern}")
            };
            assert!(regex.paths.is_some(), "{pattern} runs in place");
            assert_eq!(
                regex.regex.find(text).is_some(),
                expected,
                "{pattern} on {text}"
            );
            let outcome = if expected {
                MatchOutcome::Matched
            } else {
                MatchOutcome::NotMatched
            };
            assert_eq!(engine.test(&regex, text), outcome, "{pattern} on {text}");
        }
        // A shape without a bound still goes to the worker, and still matches.
        let Compiled::Valid(regex) = compile(&mut engine, "^(ab)+$") else {
            panic!()
        };
        assert_eq!(regex.paths, None);
        assert_eq!(engine.test(&regex, "ababab"), MatchOutcome::Matched);
        assert!(engine.worker.is_some());
    }
}
