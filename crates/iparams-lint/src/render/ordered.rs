//! Output in job order while jobs are checked in parallel.
//!
//! A job writes when its turn comes, once every job before it has finished: output stays in path
//! order, a renderer may count across the run (the human format's `--max-diagnostics` draws the
//! run's first findings), and no rendered output waits in memory. Jobs are taken in order, so
//! a job seldom waits for long.

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
}

impl<'o> Ordered<'o> {
    pub fn new(out: &'o mut (dyn Write + Send), separator: &'static [u8]) -> Self {
        Self {
            state: Mutex::new(State {
                out,
                turn: 0,
                wrote: false,
            }),
            turn_passed: Condvar::new(),
            separator,
        }
    }

    /// The output of job `index`; jobs are numbered from 0 in output order, and each one's turn
    /// passes when its output is dropped.
    pub fn job(&self, index: usize) -> JobOutput<'_, 'o> {
        JobOutput {
            ordered: self,
            index,
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

/// The output of one job. Dropping it passes the turn on, also when the job panicked, so
/// that the jobs after it are not left waiting.
#[derive(Debug)]
pub struct JobOutput<'a, 'o> {
    ordered: &'a Ordered<'o>,
    index: usize,
}

impl<'o> JobOutput<'_, 'o> {
    /// Writes one piece (a file's findings, a diff) with `write`, after the separator if
    /// anything was written before it; waits for the job's turn first. Output errors (a
    /// closed pipe) are not worth reporting: the run goes on.
    pub fn piece(&mut self, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) {
        let mut state = self.wait_for_turn();
        let state = &mut *state;
        let mut separated = Separated {
            pending: state.wrote.then_some(self.ordered.separator),
            out: &mut *state.out,
            wrote: false,
        };
        let _ = write(&mut separated);
        state.wrote |= separated.wrote;
    }

    fn wait_for_turn(&self) -> MutexGuard<'_, State<'o>> {
        self.ordered
            .turn_passed
            .wait_while(lock(&self.ordered.state), |state| state.turn != self.index)
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for JobOutput<'_, '_> {
    fn drop(&mut self) {
        self.wait_for_turn().turn += 1;
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
        job.piece(|out| out.write_all(text.as_bytes()));
    }

    /// Jobs finished in reverse order on their own threads are written in order, pieces
    /// separated, empty ones not.
    #[test]
    fn jobs_are_written_in_order_whenever_they_finish() {
        let mut out = Vec::new();
        {
            let ordered = &Ordered::new(&mut out, b",");
            let (started, wait_for_start) = mpsc::channel();
            std::thread::scope(|scope| {
                for (index, pieces) in [(2, &["c"][..]), (1, &["b1", "", "b2"]), (0, &["a"])] {
                    let started = started.clone();
                    scope.spawn(move || {
                        let mut job = ordered.job(index);
                        started.send(()).expect("the test waits");
                        for piece in pieces {
                            text(&mut job, piece);
                        }
                    });
                    // Each job asks for its turn before the one before it exists.
                    wait_for_start.recv().expect("the job starts");
                }
            });
        }
        assert_eq!(String::from_utf8(out).unwrap(), "a,b1,b2,c");
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
