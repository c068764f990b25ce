//! Pieces of output made on every thread and written in order by one.
//!
//! The calling thread writes, and makes pieces too while none is ready for it; the others only
//! make them. Pieces are taken in order, so each is written as soon as it and those before it
//! are made, and no thread waits for the others between pieces (making them in groups, each
//! written once the whole group was made, left a thread idle at every group's end).
//!
//! Only the writer ever waits. A thread that would get too far ahead of it stops instead, and
//! the writer sets another to work once it has written: a thread of the pool that waited could
//! be holding, further down its stack, the very piece the writer waits for (the pool runs
//! other work inside a `rayon::join` that making a piece may call, such as counting a large
//! text's lines).

use std::io::{self, Write};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use iparams_core::sync::lock;

use super::in_order::InOrder;

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
        turns: Mutex::new(Turns::default()),
        arrived: Condvar::new(),
    };
    let (shared, maker, make) = (&shared, &maker, &make);
    // In place: the scope's own work is the writer's, and `out` stays on this thread.
    rayon::in_place_scope(|scope| {
        let help = move |_: &rayon::Scope<'_>| {
            let _stop = StopOnPanic(shared);
            let mut state = None;
            while let Take::Piece(piece, mut text) = shared.take(Taker::Helper) {
                make(state.get_or_insert_with(maker), piece, &mut text);
                shared.made(piece, text);
            }
        };
        for _ in 1..threads {
            scope.spawn(help);
        }
        let _stop = StopOnPanic(shared);
        let written = shared.write_in_order(maker, make, out, || scope.spawn(help));
        if written.is_err() {
            shared.stop();
        }
        written
    })
}

struct Shared {
    pieces: usize,
    ahead: usize,
    turns: Mutex<Turns>,
    /// A piece was made before its turn, or the work stopped: what the writer waits for.
    arrived: Condvar,
}

#[derive(Default)]
struct Turns {
    /// The next piece to make.
    taken: usize,
    /// The pieces made, taken in turn by the writer: its next is the piece to write next.
    made: InOrder<String>,
    /// Threads that stopped making pieces, too far ahead of the writer.
    stopped_ahead: usize,
    /// Writing failed, or a thread panicked: nothing more is made or waited for.
    stopped: bool,
    /// Strings written out, empty, to be filled again.
    spare: Vec<String>,
}

/// What a thread asking for a piece gets.
enum Take {
    /// The piece to make, and an empty string to make it in.
    Piece(usize, String),
    /// None within `ahead` of the writer.
    TooFarAhead,
    /// None left, or the work stopped.
    NoneLeft,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Taker {
    Writer,
    Helper,
}

impl Shared {
    fn turns(&self) -> MutexGuard<'_, Turns> {
        lock(&self.turns)
    }

    /// The next piece to make, if one is left within `ahead` of the writer; a helper that gets
    /// none for that is counted, to be set to work again.
    fn take(&self, taker: Taker) -> Take {
        let mut turns = self.turns();
        if turns.stopped || turns.taken == self.pieces {
            return Take::NoneLeft;
        }
        if turns.taken >= turns.made.next() + self.ahead {
            if taker == Taker::Helper {
                turns.stopped_ahead += 1;
            }
            return Take::TooFarAhead;
        }
        let piece = turns.taken;
        turns.taken += 1;
        Take::Piece(piece, turns.spare.pop().unwrap_or_default())
    }

    fn made(&self, piece: usize, text: String) {
        self.turns().made.put(piece, text);
        self.arrived.notify_one();
    }

    fn stop(&self) {
        self.turns().stopped = true;
        self.arrived.notify_one();
    }

    /// The writer's part: writes each piece in turn, making one whenever the next is not
    /// ready and one is left to make; `help` sets another thread to making pieces.
    fn write_in_order<State>(
        &self,
        maker: &impl Fn() -> State,
        make: &impl Fn(&mut State, usize, &mut String),
        out: &mut dyn Write,
        help: impl Fn(),
    ) -> io::Result<()> {
        let mut state = None;
        loop {
            let mut turns = self.turns();
            // Stopped: another thread panicked, and the scope raises its panic.
            if turns.stopped || turns.made.next() == self.pieces {
                return Ok(());
            }
            let Some(mut text) = turns.made.take_next() else {
                drop(turns);
                if let Take::Piece(piece, mut text) = self.take(Taker::Writer) {
                    make(state.get_or_insert_with(maker), piece, &mut text);
                    self.turns().made.put(piece, text);
                } else {
                    // The next piece is being made on another thread.
                    let turns = self.turns();
                    let _made = self
                        .arrived
                        .wait_while(turns, |turns| !turns.stopped && !turns.made.is_ready())
                        .unwrap_or_else(PoisonError::into_inner);
                }
                continue;
            };
            drop(turns);
            out.write_all(text.as_bytes())?;
            text.clear();
            let stopped_ahead = {
                let mut turns = self.turns();
                turns.spare.push(text);
                std::mem::take(&mut turns.stopped_ahead)
            };
            for _ in 0..stopped_ahead {
                help();
            }
        }
    }
}

/// Stops the work when its thread unwinds, so that the writer does not wait for it forever.
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
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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

    /// Made before their turn: never more than `ahead`.
    #[test]
    fn few_pieces_wait_for_a_slow_writer() {
        let made = AtomicUsize::new(0);
        let mut out = Slow::counting(&made);
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
        assert_eq!(out.writes, 40);
        assert!(
            out.most_waiting <= ahead,
            "{} pieces waited, {ahead} allowed",
            out.most_waiting
        );
    }

    /// A writer that takes 2 ms a piece, so that the other threads get ahead of it; counting,
    /// it notes the most pieces made and not yet written at any write.
    #[derive(Default)]
    struct Slow<'a> {
        bytes: Vec<u8>,
        writes: usize,
        made: Option<&'a AtomicUsize>,
        most_waiting: usize,
    }

    impl<'a> Slow<'a> {
        fn counting(made: &'a AtomicUsize) -> Self {
            Self {
                made: Some(made),
                ..Self::default()
            }
        }
    }

    impl Write for Slow<'_> {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            std::thread::sleep(std::time::Duration::from_millis(2));
            self.bytes.extend_from_slice(bytes);
            self.writes += 1;
            if let Some(made) = self.made {
                let waiting = made.load(Ordering::SeqCst) - self.writes;
                self.most_waiting = self.most_waiting.max(waiting);
            }
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A thread too far ahead of the writer stops, and another is set to work once the writer
    /// has caught up: pieces late in the output are made on other threads than the writer's.
    #[test]
    fn threads_too_far_ahead_are_set_to_work_again() {
        let writer = std::thread::current().id();
        let by_others = Mutex::new(Vec::new());
        let mut out = Slow::default();
        made_in_parallel(
            40,
            2,
            2,
            || (),
            |_, piece, text| {
                if std::thread::current().id() != writer {
                    lock(&by_others).push(piece);
                }
                piece_text(piece, text);
            },
            &mut out,
        )
        .unwrap();
        assert_eq!(String::from_utf8(out.bytes).unwrap(), in_turn(40));
        let by_others = by_others.into_inner().unwrap();
        assert!(
            by_others.iter().any(|&piece| piece >= 20),
            "made on other threads: {by_others:?}"
        );
    }

    /// Making a piece may use the pool (a large text's lines are counted on every thread):
    /// no thread of the pool waits, so none holds a piece the writer waits for.
    #[test]
    fn pieces_made_with_the_pool_come_out_whatever_waits() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        for _ in 0..3 {
            let mut out = Slow::default();
            pool.install(|| {
                made_in_parallel(
                    30,
                    4,
                    2,
                    || (),
                    |_, piece, text| {
                        let (left, right) = rayon::join(|| piece * 2, || piece % 7);
                        std::thread::sleep(std::time::Duration::from_micros(300));
                        assert_eq!(left / 2 % 7, right);
                        piece_text(piece, text);
                    },
                    &mut out,
                )
            })
            .unwrap();
            assert_eq!(String::from_utf8(out.bytes).unwrap(), in_turn(30));
        }
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
