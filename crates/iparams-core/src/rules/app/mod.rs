//! Rules about the app around iparams.json: its manifest, config/ folder, callbacks and code
//! (request templates have their own groups: `templates/`, `hr/`).

pub(super) mod credential_in_code;
pub(super) mod data_bind_not_on_platform;
pub(super) mod data_bind_product;
pub(super) mod deprecated_test_data;
pub(super) mod file_not_read;
pub(super) mod invalid_manifest;
pub(super) mod invalid_utils_set;
pub(super) mod iparams_api_on_install_page;
pub(super) mod iparams_html_and_json;
pub(super) mod javascript_syntax_error;
pub(super) mod key_not_usable_in_templates;
pub(super) mod missing_handler;
pub(super) mod missing_iparams_file;
pub(super) mod modules_not_supported;
pub(super) mod secret_like_string_in_code;
pub(super) mod secure_iparam_in_frontend;
pub(super) mod secure_iparam_logged;
pub(super) mod type_not_on_platform;
pub(super) mod unexpected_config_file;
pub(super) mod unknown_iparam_read;
pub(super) mod unknown_module;
pub(super) mod unknown_utils_key;
pub(super) mod unused_iparam;
pub(super) mod unused_suppression;
mod written_in_code;
