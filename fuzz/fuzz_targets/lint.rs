//! Any bytes as an iparams.json: linting and every output format must cope.
#![no_main]

use iparams_fuzz::{invariants, with_linter};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    with_linter(|linter| invariants::lint_is_sound(linter, data));
});
