//! Any bytes as JavaScript (first byte: the file's kind and where it runs), read by the oxc-based
//! readers of callbacks, iparams reads and template invocations.
#![no_main]

use iparams_fuzz::invariants;
use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: iparams_lint::quiet_parser_panics(),
    |data: &[u8]| invariants::scripts_are_sound(data)
);
