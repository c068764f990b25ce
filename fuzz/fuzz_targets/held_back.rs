//! Any bytes as an iparams.json whose findings are held back: found again in pieces, they are
//! the report's, in its order.
#![no_main]

use iparams_fuzz::invariants;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    invariants::held_back_findings_are_the_reports(data);
});
