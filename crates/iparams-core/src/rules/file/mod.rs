//! Rules about a JSON file as a whole: its encoding, its syntax, its top level, its keys.

pub(super) mod duplicate_key;
pub(super) mod invalid_encoding;
pub(super) mod invalid_json;
pub(super) mod root_not_object;
