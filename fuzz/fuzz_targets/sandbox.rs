//! One request to the HR sandbox (method, path, query, headers, body from the input), answered
//! in process by a service over an in-memory database.
//!
//! Seeding a database takes about 20 ms, a hundred times a request: one service serves 1,000
//! requests before a fresh one replaces it, and its clock moves on a minute before each, so
//! that the rate limit never refuses them all. A crash that needs what earlier requests
//! created may then not replay alone; the replay (tests/properties.rs) uses a fresh service.
#![no_main]

use std::cell::RefCell;

use iparams_fuzz::invariants;
use libfuzzer_sys::fuzz_target;

type Sandbox = (
    iparams_sandbox::Service,
    iparams_sandbox::Tokens,
    iparams_sandbox::ManualClock,
);

thread_local! {
    static SANDBOX: RefCell<(Option<Sandbox>, u32)> = const { RefCell::new((None, 0)) };
}

fuzz_target!(|data: &[u8]| {
    SANDBOX.with_borrow_mut(|(sandbox, served)| {
        if *served % 1_000 == 0 {
            *sandbox = Some(invariants::sandbox_service());
        }
        *served += 1;
        let (service, tokens, clock) = sandbox.as_ref().expect("made above");
        clock.advance(60_000);
        invariants::sandbox_is_sound(service, tokens, invariants::SANDBOX_PORT, data);
    });
});
