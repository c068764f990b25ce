//! What a form posts to the preview's store endpoint (keys to strings, arrays of strings and
//! booleans), checked with the code of `iparams-lint values` against rich definitions.
#![no_main]

use iparams_fuzz::invariants::{self, DEFINITIONS, Renderings};
use iparams_fuzz::with_linter;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    with_linter(|linter| {
        invariants::form_values_are_sound(linter, DEFINITIONS, data, Renderings::OneByLength)
    });
});
