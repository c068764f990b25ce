//! Calls to other hosts, which only `values --verify` and the preview make: the agent each call
//! goes through.

use std::time::Duration;

/// An agent for calls whose every answer is the caller's to read (no status is an error) and
/// that follow no redirect (a key must not go to another host), with a time limit.
pub fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into()
}
