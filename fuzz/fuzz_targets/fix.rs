//! Any bytes as an iparams.json, fixed with the safe fixes, then with the unsafe ones too.
#![no_main]

use iparams_core::Applicability;
use iparams_fuzz::{invariants, with_linter};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    with_linter(|linter| {
        invariants::fix_is_sound(linter, data, Applicability::Safe);
        invariants::fix_is_sound(linter, data, Applicability::Unsafe);
    });
});
