//! One place that reads an iparam: what scripts, pages and request templates read, found by
//! the readers of each and checked against the declared iparams alike.

use crate::span::Span;

/// One place that reads the iparam `key`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    pub key: String,
    pub span: Span,
}
