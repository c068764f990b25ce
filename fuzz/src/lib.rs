//! What the fuzz targets share: the checks of tests/invariants.rs (the property tests run the
//! same ones), and one long-lived linter per process. The command keeps one linter per thread
//! for a whole run too; its cap on user-regex matches abandoned after their timeout is per
//! linter, so a fresh one per input would let runaway matches pile up.

#[path = "../../tests/invariants.rs"]
pub mod invariants;

use std::cell::RefCell;

use iparams_core::Linter;

thread_local! {
    static LINTER: RefCell<Linter> = RefCell::new(Linter::default());
}

/// Runs `check` with this thread's linter.
pub fn with_linter<T>(check: impl FnOnce(&mut Linter) -> T) -> T {
    LINTER.with_borrow_mut(check)
}
