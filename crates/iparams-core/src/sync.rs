//! Locks shared by the threads that check one large file, or many.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// The data behind `mutex`, even if a thread panicked holding it: the panic is raised anyway
/// where the thread is joined, and what the others hold is whole.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
