//! Any bytes as an iparams.json checked in stretches on every thread, as a large file is: the
//! findings are those of one thread reading it whole.
#![no_main]

use iparams_fuzz::invariants;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    invariants::parallel_check_is_sequential(data);
});
