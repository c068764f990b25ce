//! Rules that need the app around iparams.json: its manifest, config/ folder, callbacks and code.

pub(super) mod data_bind_not_on_platform;
pub(super) mod data_bind_product;
pub(super) mod deprecated_test_data;
pub(super) mod invalid_manifest;
pub(super) mod invalid_request_template;
pub(super) mod invalid_utils_set;
pub(super) mod iparams_html_and_json;
pub(super) mod javascript_syntax_error;
pub(super) mod key_not_usable_in_templates;
pub(super) mod missing_handler;
pub(super) mod missing_iparams_file;
pub(super) mod modules_not_supported;
pub(super) mod query_string_in_path;
pub(super) mod request_host;
pub(super) mod request_method;
pub(super) mod request_option_value;
pub(super) mod request_path;
pub(super) mod request_protocol;
pub(super) mod secure_iparam_in_frontend;
pub(super) mod type_not_on_platform;
pub(super) mod unexpected_config_file;
pub(super) mod unknown_iparam_read;
pub(super) mod unknown_module;
pub(super) mod unknown_request_option;
pub(super) mod unknown_utils_key;
pub(super) mod unused_iparam;
