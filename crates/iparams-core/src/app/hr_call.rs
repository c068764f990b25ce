//! A template of config/requests.json that calls the HR service, and the place the app's model
//! keeps them, which `hr_calls.rs` fills on first use.

use std::sync::OnceLock;

use super::hr_service::Operation;

/// A template whose host is the HR service's: `<sub-domain>.freshteam.com` (the sub-domain
/// written or a placeholder), or a host that is only a `domain` iparam of the service's product
/// (a mistake `hr-domain-host` reports, whose intent is clear).
#[derive(Debug)]
pub struct HrCall {
    /// Its index among requests.json's templates.
    pub template: usize,
    /// Its name, shortened for messages.
    pub name: String,
    /// The documented operations of its path, every method; empty when the path is not
    /// documented or cannot be known.
    pub operations: &'static [Operation],
}

/// The model's HR calls, found on first use.
#[derive(Debug, Default)]
pub struct HrCalls(pub(super) OnceLock<Vec<HrCall>>);
