//! Output in job order while jobs are checked in parallel.
//!
//! A job whose turn it is (every job before it has finished) writes straight to the output; one
//! that finishes early keeps its output until the jobs before it are written, so output stays in
//! path order. A piece may ask to be written in its turn instead, its job waiting for it: the
//! human format does while it still draws findings in full, as it draws the run's first ones.
//! Jobs are taken in order, so little output waits and a job seldom waits for long.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use iparams_core::sync::lock;

/// The output shared by the jobs of a run.
pub struct Ordered<'o> {
    state: Mutex<State<'o>>,
    turn_passed: Condvar,
    /// Written between two jobs' pieces (the renderer's separator).
    separator: &'static [u8],
}

struct State<'o> {
    out: &'o mut (dyn Write + Send),
    /// The job whose turn it is.
    turn: usize,
    /// Whether any piece was written yet: pieces after the first are separated.
    wrote: bool,
    /// The output of jobs that finished before their turn.
    finished: BTreeMap<usize, Vec<u8>>,
}

impl State<'_> {
    /// Writes `piece` after `separator` if something was written before it; an empty piece is
    /// not written. Output errors (a closed pipe) are not worth reporting; the run goes on.
    fn put(&mut self, piece: &[u8], separator: &[u8]) {
        if piece.is_empty() {
            return;
        }
        if self.wrote {
            let _ = self.out.write_all(separator);
        }
        let _ = self.out.write_all(piece);
        self.wrote = true;
    }
}

impl<'o> Ordered<'o> {
    pub fn new(out: &'o mut (dyn Write + Send), separator: &'static [u8]) -> Self {
        Self {
            state: Mutex::new(State {
                out,
                turn: 0,
                wrote: false,
                finished: BTreeMap::new(),
            }),
            turn_passed: Condvar::new(),
            separator,
        }
    }

    /// The output of job `index`; jobs are numbered from 0 in output order, and each one's
    /// output is handed on when it is dropped.
    pub fn job(&self, index: usize) -> JobOutput<'_, 'o> {
        JobOutput {
            ordered: self,
            index,
            kept: Vec::new(),
        }
    }

    /// Whether any piece was written.
    pub fn wrote(&self) -> bool {
        lock(&self.state).wrote
    }
}

impl std::fmt::Debug for Ordered<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ordered")
            .field("turn", &lock(&self.state).turn)
            .finish_non_exhaustive()
    }
}

/// The output of one job. Dropping it hands its output on, also when the job panicked, so that
/// the jobs after it are written.
#[derive(Debug)]
pub struct JobOutput<'a, 'o> {
    ordered: &'a Ordered<'o>,
    index: usize,
    /// Pieces written before the job's turn, separated.
    kept: Vec<u8>,
}

impl<'o> JobOutput<'_, 'o> {
    /// Writes one piece (a file's findings, a diff) with `write`, after the separator if
    /// anything was written before it: straight to the output when it is this job's turn, else
    /// into memory until it is, or, `in_turn`, once the job's turn has come.
    pub fn piece(&mut self, in_turn: bool, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) {
        let separator = self.ordered.separator;
        let mut state = lock(&self.ordered.state);
        if in_turn {
            state = self.wait_for_turn(state);
        }
        if state.turn != self.index {
            drop(state);
            let mut separated = Separated {
                pending: (!self.kept.is_empty()).then_some(separator),
                out: &mut self.kept,
                wrote: false,
            };
            let _ = write(&mut separated);
            return;
        }
        let state = &mut *state;
        state.put(&std::mem::take(&mut self.kept), separator);
        let mut separated = Separated {
            pending: state.wrote.then_some(separator),
            out: &mut *state.out,
            wrote: false,
        };
        let _ = write(&mut separated);
        state.wrote |= separated.wrote;
    }

    fn wait_for_turn<'s>(&self, state: MutexGuard<'s, State<'o>>) -> MutexGuard<'s, State<'o>> {
        self.ordered
            .turn_passed
            .wait_while(state, |state| state.turn != self.index)
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for JobOutput<'_, '_> {
    fn drop(&mut self) {
        let separator = self.ordered.separator;
        let mut state = lock(&self.ordered.state);
        let kept = std::mem::take(&mut self.kept);
        if state.turn != self.index {
            state.finished.insert(self.index, kept);
            return;
        }
        state.put(&kept, separator);
        state.turn += 1;
        // The jobs after it that finished meanwhile.
        while let Some(kept) = {
            let next = state.turn;
            state.finished.remove(&next)
        } {
            state.put(&kept, separator);
            state.turn += 1;
        }
        drop(state);
        self.ordered.turn_passed.notify_all();
    }
}

/// Writes the separator before the first byte of a piece, if the piece has any.
struct Separated<'w> {
    out: &'w mut dyn Write,
    pending: Option<&'static [u8]>,
    wrote: bool,
}

impl Write for Separated<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if bytes.is_empty() {
            return Ok(0);
        }
        if let Some(separator) = self.pending.take() {
            self.out.write_all(separator)?;
        }
        self.wrote = true;
        self.out.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;

    fn text(job: &mut JobOutput<'_, '_>, text: &'static str) {
        job.piece(false, |out| out.write_all(text.as_bytes()));
    }

    fn text_in_turn(job: &mut JobOutput<'_, '_>, text: &'static str) {
        job.piece(true, |out| out.write_all(text.as_bytes()));
    }

    /// Jobs finished out of order are written in order, pieces separated, empty ones not; a
    /// job's pieces kept before its turn come before those it writes in its turn.
    #[test]
    fn jobs_are_written_in_order_whenever_they_finish() {
        let mut out = Vec::new();
        {
            let ordered = Ordered::new(&mut out, b",");
            let (mut first, mut second, mut third) =
                (ordered.job(0), ordered.job(1), ordered.job(2));
            text(&mut third, "c");
            text(&mut second, "b1");
            text(&mut second, "");
            drop(third);
            text(&mut first, "a");
            assert!(ordered.wrote(), "the job whose turn it is writes at once");
            drop(first);
            // Its turn now: what it kept goes first, then what it writes.
            text(&mut second, "b2");
            drop(second);
        }
        assert_eq!(String::from_utf8(out).unwrap(), "a,b1,b2,c");
    }

    /// A piece written in its turn waits for the jobs before it, on another thread.
    #[test]
    fn a_piece_in_turn_waits_for_the_jobs_before_it() {
        let mut out = Vec::new();
        {
            let ordered = &Ordered::new(&mut out, b",");
            let (started, wait_for_start) = mpsc::channel();
            std::thread::scope(|scope| {
                let later = scope.spawn(move || {
                    let mut job = ordered.job(1);
                    started.send(()).expect("the test waits");
                    text_in_turn(&mut job, "b");
                    assert!(ordered.wrote(), "written after the first job");
                });
                wait_for_start.recv().expect("the later job starts");
                let mut first = ordered.job(0);
                text(&mut first, "a");
                drop(first);
                later.join().expect("the later job is written");
            });
        }
        assert_eq!(String::from_utf8(out).unwrap(), "a,b");
    }

    /// A job that panics still passes the turn on.
    #[test]
    fn a_job_that_panics_passes_its_turn_on() {
        let mut out = Vec::new();
        {
            let ordered = &Ordered::new(&mut out, b"\n");
            std::thread::scope(|scope| {
                let second = scope.spawn(|| text(&mut ordered.job(1), "second"));
                let first = scope.spawn(|| {
                    let mut job = ordered.job(0);
                    text(&mut job, "first");
                    panic!("a rule panicked");
                });
                assert!(first.join().is_err());
                second.join().expect("the second job is written");
            });
        }
        assert_eq!(String::from_utf8(out).unwrap(), "first\nsecond");
    }

    #[test]
    fn empty_pieces_get_no_separator() {
        let mut out = Vec::new();
        {
            let ordered = Ordered::new(&mut out, b"\n");
            text(&mut ordered.job(0), "");
            text(&mut ordered.job(1), "x");
        }
        assert_eq!(out, b"x");
    }
}
