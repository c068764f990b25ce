//! Any bytes as an iparams.json: linting and every output format must cope (each execution
//! renders in one format, chosen by the input's length).
#![no_main]

use iparams_fuzz::invariants::{self, Renderings};
use iparams_fuzz::with_linter;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    with_linter(|linter| invariants::lint_is_sound(linter, data, Renderings::OneByLength));
});
