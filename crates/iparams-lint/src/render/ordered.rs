//! Output in job order while jobs finish in any order.
//!
//! A job whose turn it is writes straight to the output, so a large file's findings never wait
//! in memory as one rendered copy; a job that finishes early keeps its output until the jobs
//! before it are written. Jobs are checked roughly in order, so little waits.
//!
//! Output kept by one thread is often written out by another. Its buffer then goes back to the
//! thread that filled it, to be filled again, rather than being freed where it was written: the
//! allocator frees a block under the lock of the thread that took it, and a thread freeing
//! another's blocks kept that one waiting (tens of waits a run of 2,000 small files).

use std::io::{self, Write};
use std::sync::Mutex;
use std::thread::ThreadId;

use iparams_core::sync::lock;

use super::in_order::InOrder;

/// The output shared by the jobs of a run.
///
/// Two locks, so that a job that asks whether it is its turn never waits for the job that is
/// writing: only that job and the writing out of jobs that finished early take the output's.
pub struct Ordered<'o> {
    out: Mutex<Out<'o>>,
    turns: Mutex<Turns>,
    /// Written between two jobs' pieces (the renderer's separator).
    separator: &'static [u8],
}

struct Out<'o> {
    out: &'o mut (dyn Write + Send),
    /// Whether any piece was written yet: pieces after the first are separated.
    wrote: bool,
}

#[derive(Default)]
struct Turns {
    /// The output of jobs that finished before their turn, and whose turn it is.
    finished: InOrder<Option<Kept>>,
    spare: Spare,
}

/// Buffers of output kept until its turn, written out, waiting for the threads that filled them.
#[derive(Default)]
struct Spare(Vec<Kept>);

/// Output a job keeps until its turn: its pieces, separated, in a buffer of one thread's.
#[derive(Debug)]
struct Kept {
    /// The thread that fills it.
    filled_by: ThreadId,
    bytes: Vec<u8>,
}

/// How many written-out buffers wait for their threads, at most, and how large each may be:
/// a few kilobytes each in a run of small files; a larger one is freed at once.
const SPARE_KEPT: usize = 16;
const SPARE_CAPACITY: usize = 64 * 1024;

impl Spare {
    /// A buffer for the calling thread to keep output in: one of its own written out, if any.
    fn buffer(&mut self) -> Kept {
        let thread = std::thread::current().id();
        match self.0.iter().position(|kept| kept.filled_by == thread) {
            Some(at) => {
                let mut kept = self.0.swap_remove(at);
                kept.bytes.clear();
                kept
            }
            None => Kept {
                filled_by: thread,
                bytes: Vec::new(),
            },
        }
    }

    /// Takes back a buffer whose output was written, for its thread to fill again.
    fn give_back(&mut self, kept: Kept) {
        if self.0.len() < SPARE_KEPT && kept.bytes.capacity() <= SPARE_CAPACITY {
            self.0.push(kept);
        }
    }
}

impl<'o> Ordered<'o> {
    pub fn new(out: &'o mut (dyn Write + Send), separator: &'static [u8]) -> Self {
        Self {
            out: Mutex::new(Out { out, wrote: false }),
            turns: Mutex::default(),
            separator,
        }
    }

    /// The output of job `index`; jobs are numbered from 0 in output order, and each must be
    /// [finished](JobOutput::finish).
    pub fn job(&self, index: usize) -> JobOutput<'_, 'o> {
        JobOutput {
            ordered: self,
            index,
            kept: None,
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
            .field("next", &lock(&self.turns).finished.next())
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
    kept: Option<Kept>,
}

impl JobOutput<'_, '_> {
    /// Writes one piece (a file's findings, a diff) with `write`: straight to the output when
    /// it is this job's turn, else into memory until it is.
    pub fn piece(&mut self, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) {
        let separator = self.ordered.separator;
        // Only this job's `finish` moves the turn on, so the answer holds while it writes.
        let mut turns = lock(&self.ordered.turns);
        if turns.finished.next() != self.index {
            let kept = self.kept.get_or_insert_with(|| turns.spare.buffer());
            drop(turns);
            let mut separated = Separated {
                pending: (!kept.bytes.is_empty()).then_some(separator),
                out: &mut kept.bytes,
                wrote: false,
            };
            let _ = write(&mut separated);
            return;
        }
        drop(turns);
        let out = &mut *lock(&self.ordered.out);
        // Kept by this very thread: freed here.
        if let Some(kept) = self.kept.take() {
            out.put(&kept.bytes, separator);
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
        let mut turns = lock(&self.ordered.turns);
        if turns.finished.next() != self.index {
            turns.finished.arrive(self.index, self.kept, |_| {});
            return;
        }
        let out = &mut *lock(&self.ordered.out);
        let Turns { finished, spare } = &mut *turns;
        finished.arrive(self.index, self.kept, |kept| {
            if let Some(kept) = kept {
                out.put(&kept.bytes, separator);
                spare.give_back(kept);
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

    /// Where a job's kept output is, if it kept any.
    fn kept_at(job: &JobOutput<'_, '_>) -> Option<usize> {
        job.kept.as_ref().map(|kept| kept.bytes.as_ptr() as usize)
    }

    #[test]
    fn kept_output_goes_back_to_the_thread_that_kept_it() {
        let mut out = Vec::new();
        {
            let ordered = &Ordered::new(&mut out, b",");
            let (kept, wait_for_kept) = std::sync::mpsc::channel();
            let (written, wait_for_written) = std::sync::mpsc::channel();
            std::thread::scope(|scope| {
                let other = scope.spawn(move || {
                    // Job 1 is kept on this thread, and written out by the other one.
                    let mut second = ordered.job(1);
                    text(&mut second, "b");
                    let first_buffer = kept_at(&second);
                    second.finish();
                    kept.send(()).expect("the other thread waits");
                    wait_for_written.recv().expect("job 0 ends");
                    let mut fourth = ordered.job(3);
                    text(&mut fourth, "d");
                    let again = kept_at(&fourth);
                    fourth.finish();
                    (first_buffer, again)
                });
                wait_for_kept.recv().expect("job 1 is kept");
                let mut first = ordered.job(0);
                text(&mut first, "a");
                first.finish();
                written.send(()).expect("the other thread waits");
                let (first_buffer, again) = other.join().expect("no panic");
                assert!(first_buffer.is_some());
                assert_eq!(again, first_buffer, "the buffer came back to its thread");
                // Another thread's buffer is never given to this one.
                let mut fifth = ordered.job(4);
                text(&mut fifth, "e");
                assert!(kept_at(&fifth).is_some());
                assert_ne!(kept_at(&fifth), first_buffer);
                let mut third = ordered.job(2);
                text(&mut third, "c");
                third.finish();
                fifth.finish();
            });
        }
        assert_eq!(String::from_utf8(out).unwrap(), "a,b,c,d,e");
    }

    #[test]
    fn a_job_keeps_its_pieces_separated_until_its_turn() {
        let mut out = Vec::new();
        {
            let ordered = Ordered::new(&mut out, b"|");
            let mut second = ordered.job(1);
            text(&mut second, "b1");
            text(&mut second, "");
            text(&mut second, "b2");
            let mut first = ordered.job(0);
            text(&mut first, "a");
            first.finish();
            // Its turn now: what it kept goes first, then what it writes.
            text(&mut second, "b3");
            second.finish();
        }
        assert_eq!(String::from_utf8(out).unwrap(), "a|b1|b2|b3");
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
