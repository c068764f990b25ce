//! Hover: a finding's rule documentation, and what an attribute, type, product or data-bind
//! value means.

use serde_json::Value;

use super::server::State;

pub fn hover(_state: &mut State, _params: lsp_types::HoverParams) -> Value {
    Value::Null
}
