//! Output in job order while jobs finish in any order.
//!
//! A job whose turn it is writes straight to the output, so a large file's findings never wait
//! in memory as one rendered copy; a job that finishes early keeps its output until the jobs
//! before it are written. Jobs are checked roughly in order, so little waits.

use std::io::{self, Write};
use std::sync::{Mutex, MutexGuard};

use iparams_core::in_order::InOrder;

/// The output shared by the jobs of a run.
pub struct Ordered<'o> {
    state: Mutex<State<'o>>,
    separator: &'static [u8],
}

struct State<'o> {
    out: &'o mut (dyn Write + Send),
    /// The pieces of the jobs that finished, taken in job order.
    finished: InOrder<Vec<Vec<u8>>>,
    /// Whether any piece was written yet: pieces after the first are separated.
    wrote: bool,
}

impl<'o> Ordered<'o> {
    /// Pieces written to `out` are separated by `separator`; empty pieces are not written.
    pub fn new(out: &'o mut (dyn Write + Send), separator: &'static [u8]) -> Self {
        Self {
            state: Mutex::new(State {
                out,
                finished: InOrder::default(),
                wrote: false,
            }),
            separator,
        }
    }

    /// The output of job `index`; jobs are numbered from 0 in output order, and each must be
    /// [finished](JobOutput::finish).
    pub fn job(&self, index: usize) -> JobOutput<'_, 'o> {
        JobOutput {
            ordered: self,
            index,
            kept: Vec::new(),
        }
    }

    /// Whether any piece was written.
    pub fn wrote(&self) -> bool {
        self.lock().wrote
    }

    fn lock(&self) -> MutexGuard<'_, State<'o>> {
        // A job that panicked while writing leaves the output as it was: keep writing after it.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl std::fmt::Debug for Ordered<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ordered")
            .field("next", &self.lock().finished.next())
            .finish_non_exhaustive()
    }
}

/// Writes `piece` to `out`, after `separator` if something was written before it.
fn put(out: &mut dyn Write, wrote: &mut bool, piece: &[u8], separator: &[u8]) {
    if piece.is_empty() {
        return;
    }
    // Output errors (a closed pipe) are not worth reporting; the run goes on.
    if *wrote {
        let _ = out.write_all(separator);
    }
    let _ = out.write_all(piece);
    *wrote = true;
}

/// The output of one job.
#[derive(Debug)]
pub struct JobOutput<'a, 'o> {
    ordered: &'a Ordered<'o>,
    index: usize,
    /// Pieces written before the job's turn.
    kept: Vec<Vec<u8>>,
}

impl JobOutput<'_, '_> {
    /// Writes one piece (a file's findings, a diff) with `write`: straight to the output when
    /// it is this job's turn, else into memory until it is.
    pub fn piece(&mut self, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) {
        let separator = self.ordered.separator;
        let mut state = self.ordered.lock();
        if state.finished.next() == self.index {
            let state = &mut *state;
            for piece in std::mem::take(&mut self.kept) {
                put(&mut *state.out, &mut state.wrote, &piece, separator);
            }
            let wrote = state.wrote;
            let mut out = Separated {
                out: &mut *state.out,
                pending: wrote.then_some(separator),
                wrote: false,
            };
            let _ = write(&mut out);
            let wrote_now = out.wrote;
            state.wrote |= wrote_now;
        } else {
            drop(state);
            let mut piece = Vec::new();
            let _ = write(&mut piece);
            self.kept.push(piece);
        }
    }

    /// Ends the job: its output, and that of any later job that was waiting for it, is written.
    pub fn finish(self) {
        let separator = self.ordered.separator;
        let state = &mut *self.ordered.lock();
        let State {
            out,
            finished,
            wrote,
        } = state;
        finished.arrive(self.index, self.kept, |pieces| {
            for piece in &pieces {
                put(&mut **out, wrote, piece, separator);
            }
        });
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
    use super::*;

    fn text(job: &mut JobOutput<'_, '_>, text: &'static str) {
        job.piece(|out| out.write_all(text.as_bytes()));
    }

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
            text(&mut second, "b2");
            third.finish();
            second.finish();
            text(&mut first, "a");
            assert!(ordered.wrote(), "the job whose turn it is writes at once");
            first.finish();
        }
        assert_eq!(String::from_utf8(out).unwrap(), "a,b1,b2,c");
    }

    #[test]
    fn empty_pieces_get_no_separator() {
        let mut out = Vec::new();
        {
            let ordered = Ordered::new(&mut out, b"\n");
            let mut empty = ordered.job(0);
            text(&mut empty, "");
            empty.finish();
            let mut full = ordered.job(1);
            text(&mut full, "x");
            full.finish();
        }
        assert_eq!(out, b"x");
    }
}
