//! Any bytes as a values file, checked against a fixed, rich set of definitions.
#![no_main]

use iparams_fuzz::invariants::{self, DEFINITIONS, Renderings};
use iparams_fuzz::with_linter;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    with_linter(|linter| {
        invariants::values_are_sound(linter, DEFINITIONS, data, Renderings::OneByLength)
    });
});
