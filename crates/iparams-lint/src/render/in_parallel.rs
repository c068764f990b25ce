//! Pieces of output made on every thread and written in order by one.
//!
//! The calling thread writes, and makes pieces too while none is ready for it; the others only
//! make them. Pieces are taken in order, so each is written as soon as it and those before it
//! are made, and no thread waits for the others between pieces (making them in groups, each
//! written once the whole group was made, left a thread idle at every group's end).

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use iparams_core::sync::lock;

/// Makes pieces `0..pieces` on `threads` threads, `make` appending piece `n` to an empty
/// string with the state `maker` gives each thread, and writes them to `out` in order: the
/// same bytes as making them in turn. At most `ahead` pieces are made before their turn, so
/// a slow `out` (a pager) keeps little in memory.
///
/// Stops at the first error of `out`, which it returns.
pub fn made_in_parallel<State>(
    pieces: usize,
    threads: usize,
    ahead: usize,
    maker: impl Fn() -> State + Sync,
    make: impl Fn(&mut State, usize, &mut String) + Sync,
    out: &mut dyn Write,
) -> io::Result<()> {
    let shared = Shared {
        pieces,
        // None ahead would make none at all.
        ahead: ahead.max(1),
        taken: AtomicUsize::new(0),
        turns: Mutex::new(Turns::default()),
        changed: Condvar::new(),
    };
    let (shared, maker, make) = (&shared, &maker, &make);
    // In place: the scope's own work is the writer's, and `out` stays on this thread.
    rayon::in_place_scope(|scope| {
        for _ in 1..threads {
            scope.spawn(move |_| {
                let _stop = StopOnPanic(shared);
                let mut state = None;
                while let Some((piece, mut text)) = shared.take_with_room() {
                    make(state.get_or_insert_with(maker), piece, &mut text);
                    shared.made(piece, text);
                }
            });
        }
        let _stop = StopOnPanic(shared);
        let written = shared.write_in_order(maker, make, out);
        if written.is_err() {
            shared.stop();
        }
        written
    })
}

struct Shared {
    pieces: usize,
    ahead: usize,
    /// The next piece to make.
    taken: AtomicUsize,
    turns: Mutex<Turns>,
    /// A piece was made or written, or the work stopped.
    changed: Condvar,
}

#[derive(Default)]
struct Turns {
    /// Pieces made before their turn.
    waiting: BTreeMap<usize, String>,
    /// How many pieces are written.
    written: usize,
    /// Writing failed, or a thread panicked: nothing more is made or waited for.
    stopped: bool,
    /// Strings written out, to be filled again.
    spare: Vec<String>,
}

impl Shared {
    fn turns(&self) -> MutexGuard<'_, Turns> {
        lock(&self.turns)
    }

    fn wait<'a>(&self, turns: MutexGuard<'a, Turns>) -> MutexGuard<'a, Turns> {
        self.changed
            .wait(turns)
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The next piece for a thread that only makes them, and a string to make it in, once it
    /// is within `ahead` of the writer; `None` when none is left or the work stopped.
    fn take_with_room(&self) -> Option<(usize, String)> {
        let piece = self.taken.fetch_add(1, Ordering::Relaxed);
        if piece >= self.pieces {
            return None;
        }
        let mut turns = self.turns();
        while piece >= turns.written + self.ahead && !turns.stopped {
            turns = self.wait(turns);
        }
        if turns.stopped {
            return None;
        }
        Some((piece, turns.spare.pop().unwrap_or_default()))
    }

    /// The next piece for the writer to make, if one is left within `ahead` of `written`: the
    /// writer never waits for room, which only it makes.
    fn take_within(&self, written: usize) -> Option<usize> {
        let end = self.pieces.min(written + self.ahead);
        self.taken
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |next| {
                (next < end).then_some(next + 1)
            })
            .ok()
    }

    fn made(&self, piece: usize, text: String) {
        self.turns().waiting.insert(piece, text);
        self.changed.notify_all();
    }

    fn stop(&self) {
        self.turns().stopped = true;
        self.changed.notify_all();
    }

    /// The writer's part: writes each piece in turn, making one whenever the next is not
    /// ready and one is left to make.
    fn write_in_order<State>(
        &self,
        maker: &impl Fn() -> State,
        make: &impl Fn(&mut State, usize, &mut String),
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let mut state = None;
        // The string the writer makes its pieces in.
        let mut own = String::new();
        let mut written = 0;
        while written < self.pieces {
            let ready = {
                let mut turns = self.turns();
                if turns.stopped {
                    // Another thread panicked; the scope raises its panic.
                    return Ok(());
                }
                turns.waiting.remove(&written)
            };
            let text = match ready {
                Some(text) => text,
                None => match self.take_within(written) {
                    Some(piece) => {
                        make(state.get_or_insert_with(maker), piece, &mut own);
                        if piece != written {
                            let spare = self.turns().spare.pop().unwrap_or_default();
                            self.made(piece, std::mem::replace(&mut own, spare));
                            continue;
                        }
                        std::mem::take(&mut own)
                    }
                    None => {
                        let mut turns = self.turns();
                        while !turns.waiting.contains_key(&written) && !turns.stopped {
                            turns = self.wait(turns);
                        }
                        continue;
                    }
                },
            };
            out.write_all(text.as_bytes())?;
            written += 1;
            let mut text = text;
            text.clear();
            let mut turns = self.turns();
            turns.written = written;
            if own.capacity() == 0 {
                own = text;
            } else {
                turns.spare.push(text);
            }
            drop(turns);
            self.changed.notify_all();
        }
        Ok(())
    }
}

/// Stops the work when its thread unwinds, so that no thread waits for it forever.
struct StopOnPanic<'a>(&'a Shared);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;

    /// Piece `n` as a test makes it: its number, `n % 7` times, so pieces differ in length.
    fn piece_text(piece: usize, text: &mut String) {
        for _ in 0..=piece % 7 {
            text.push_str(&format!("{piece};"));
        }
    }

    fn in_turn(pieces: usize) -> String {
        let mut text = String::new();
        for piece in 0..pieces {
            piece_text(piece, &mut text);
        }
        text
    }

    #[test]
    fn pieces_are_written_in_order_whatever_the_threads() {
        for threads in [1, 2, 3, 8] {
            for pieces in [0, 1, 2, 5, 100] {
                let mut out = Vec::new();
                made_in_parallel(
                    pieces,
                    threads,
                    2 * threads,
                    || (),
                    |_, piece, text| piece_text(piece, text),
                    &mut out,
                )
                .unwrap();
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    in_turn(pieces),
                    "{pieces} pieces on {threads} threads"
                );
            }
        }
    }

    /// Made before their turn: never more than `ahead`, and one the writer made.
    #[test]
    fn few_pieces_wait_for_a_slow_writer() {
        /// Counts the pieces made and not yet written, and notes the most.
        struct Slow<'a> {
            made: &'a AtomicUsize,
            most_waiting: usize,
            written: usize,
        }
        impl Write for Slow<'_> {
            fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
                std::thread::sleep(std::time::Duration::from_millis(2));
                self.written += 1;
                let waiting = self.made.load(Ordering::SeqCst) - self.written;
                self.most_waiting = self.most_waiting.max(waiting);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let made = AtomicUsize::new(0);
        let mut out = Slow {
            made: &made,
            most_waiting: 0,
            written: 0,
        };
        let ahead = 3;
        made_in_parallel(
            40,
            4,
            ahead,
            || (),
            |_, piece, text| {
                text.push_str(&piece.to_string());
                made.fetch_add(1, Ordering::SeqCst);
            },
            &mut out,
        )
        .unwrap();
        assert_eq!(out.written, 40);
        assert!(
            out.most_waiting <= ahead,
            "{} pieces waited, {ahead} allowed",
            out.most_waiting
        );
    }

    #[test]
    fn an_error_of_the_output_stops_the_work_and_is_returned() {
        /// Fails from its third write on.
        struct Failing(usize);
        impl Write for Failing {
            fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
                self.0 += 1;
                if self.0 >= 3 {
                    return Err(io::Error::from(io::ErrorKind::BrokenPipe));
                }
                Ok(bytes.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let made = AtomicUsize::new(0);
        let error = made_in_parallel(
            10_000,
            3,
            4,
            || (),
            |_, piece, text| {
                made.fetch_add(1, Ordering::Relaxed);
                text.push_str(&piece.to_string());
            },
            &mut Failing(0),
        )
        .unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
        // The two written, the one that failed, and at most a few made ahead on each thread.
        let made = made.load(Ordering::Relaxed);
        assert!(made < 20, "{made} of 10,000 pieces were made");
    }

    #[test]
    fn a_panic_while_making_is_raised_not_waited_for() {
        let panicked = AtomicBool::new(false);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            made_in_parallel(
                1_000,
                2,
                4,
                || (),
                |_, piece, text| {
                    if piece == 5 {
                        panicked.store(true, Ordering::Relaxed);
                        panic!("piece 5");
                    }
                    text.push_str(&piece.to_string());
                },
                &mut Vec::new(),
            )
        }));
        assert!(panicked.load(Ordering::Relaxed));
        assert!(outcome.is_err(), "the panic is raised");
    }
}
