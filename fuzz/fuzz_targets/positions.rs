//! The language server's byte offset ⇄ position conversions, against a reference.
#![no_main]

use iparams_fuzz::invariants;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| invariants::positions_are_sound(data));
