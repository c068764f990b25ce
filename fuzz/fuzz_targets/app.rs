//! An app whose config/requests.json and one script come from the input (`requests 0xFF
//! script`), checked with every rule by the core's app entry point.
#![no_main]

use iparams_fuzz::invariants::{self, Renderings};
use iparams_fuzz::with_linter;
use libfuzzer_sys::fuzz_target;

fuzz_target!(init: iparams_lint::quiet_parser_panics(), |data: &[u8]| {
    with_linter(|linter| invariants::app_is_sound(linter, data, Renderings::OneByLength));
});
