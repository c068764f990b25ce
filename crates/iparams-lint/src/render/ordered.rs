//! Output in job order while jobs finish in any order.
//!
//! A job whose turn it is writes straight to the output, so a large file's findings never wait
//! in memory as one rendered copy; a job that finishes early keeps its output until the jobs
//! before it are written. Jobs are checked roughly in order, so little waits.

use std::io::{self, Write};
use std::sync::Mutex;

use iparams_core::in_order::InOrder;

use super::lock;

/// The output shared by the jobs of a run.
///
/// Two locks, so that a job that asks whether it is its turn never waits for the job that is
/// writing: only that job and the writing out of jobs that finished early take the output's.
pub struct Ordered<'o> {
    out: Mutex<Out<'o>>,
    /// The output of jobs that finished before their turn, and whose turn it is.
    finished: Mutex<InOrder<Vec<Vec<u8>>>>,
    /// Written between two jobs' pieces (the renderer's separator).
    separator: &'static [u8],
}

struct Out<'o> {
    out: &'o mut (dyn Write + Send),
    /// Whether any piece was written yet: pieces after the first are separated.
    wrote: bool,
}

impl<'o> Ordered<'o> {
    pub fn new(out: &'o mut (dyn Write + Send), separator: &'static [u8]) -> Self {
        Self {
            out: Mutex::new(Out { out, wrote: false }),
            finished: Mutex::default(),
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
        lock(&self.out).wrote
    }
}

impl std::fmt::Debug for Ordered<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ordered")
            .field("next", &lock(&self.finished).next())
            .finish_non_exhaustive()
    }
}

impl Out<'_> {
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
        // Only this job's `finish` moves the turn on, so the answer holds while it writes.
        let in_turn = lock(&self.ordered.finished).next() == self.index;
        if !in_turn {
            let mut piece = Vec::new();
            let _ = write(&mut piece);
            self.kept.push(piece);
            return;
        }
        let separator = self.ordered.separator;
        let out = &mut *lock(&self.ordered.out);
        for piece in std::mem::take(&mut self.kept) {
            out.put(&piece, separator);
        }
        let mut separated = Separated {
            out: &mut *out.out,
            pending: out.wrote.then_some(separator),
            wrote: false,
        };
        let _ = write(&mut separated);
        out.wrote |= separated.wrote;
    }

    /// Ends the job: its output, and that of any later job that was waiting for it, is written
    /// now if it is its turn, or when the jobs before it end.
    pub fn finish(self) {
        let separator = self.ordered.separator;
        // Always in this order (turns, then output), so no two jobs wait for each other.
        let mut finished = lock(&self.ordered.finished);
        if finished.next() != self.index {
            finished.arrive(self.index, self.kept, |_| {});
            return;
        }
        let out = &mut *lock(&self.ordered.out);
        finished.arrive(self.index, self.kept, |pieces| {
            for piece in &pieces {
                out.put(piece, separator);
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
