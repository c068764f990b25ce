//! The single list of rules, and finding a rule by its name.

use super::framework::Rule;
use super::{app, file, hr, iparam, page, templates, values};

/// Every rule, in the order of their areas (a test keeps it so), as the docs present them.
pub static REGISTRY: &[&Rule] = &[
    &file::invalid_json::RULE,
    &file::invalid_encoding::RULE,
    &file::root_not_object::RULE,
    &file::duplicate_key::RULE,
    &iparam::iparam_not_object::RULE,
    &iparam::empty_key::RULE,
    &iparam::reserved_key::RULE,
    &iparam::missing_attribute::RULE,
    &iparam::unknown_type::RULE,
    &iparam::unknown_attribute::RULE,
    &iparam::attribute_type::RULE,
    &iparam::empty_display_name::RULE,
    &iparam::duplicate_display_name::RULE,
    &iparam::missing_options::RULE,
    &iparam::options_not_allowed::RULE,
    &iparam::duplicate_option::RULE,
    &iparam::empty_option::RULE,
    &iparam::default_value_type::RULE,
    &iparam::numeric_default::RULE,
    &iparam::default_not_in_options::RULE,
    &iparam::invalid_default_format::RULE,
    &iparam::missing_default::RULE,
    &iparam::missing_product::RULE,
    &iparam::unknown_product::RULE,
    &iparam::unknown_api_key_product::RULE,
    &iparam::freshchat_domain::RULE,
    &iparam::type_attributes_not_allowed::RULE,
    &iparam::other_platform::RULE,
    &iparam::api_key_not_secure::RULE,
    &iparam::sensitive_key_not_secure::RULE,
    &iparam::secret_label_not_secure::RULE,
    &iparam::vendor_secure_false_positive::RULE,
    &iparam::secure_default_value::RULE,
    &iparam::hardcoded_credential::RULE,
    &iparam::high_entropy_string::RULE,
    &app::credential_in_code::RULE,
    &app::secret_like_string_in_code::RULE,
    &iparam::regex_not_supported::RULE,
    &iparam::empty_regex::RULE,
    &iparam::missing_regex_message::RULE,
    &iparam::orphan_regex_message::RULE,
    &iparam::invalid_regex::RULE,
    &iparam::regex_delimiters::RULE,
    &iparam::default_fails_regex::RULE,
    &iparam::regex_timeout::RULE,
    &iparam::unanchored_regex::RULE,
    &iparam::unsupported_event::RULE,
    &iparam::event_entry::RULE,
    &iparam::invalid_handler_name::RULE,
    &iparam::unknown_data_bind::RULE,
    &iparam::data_bind_not_allowed::RULE,
    &iparam::hidden_required::RULE,
    &app::invalid_manifest::RULE,
    &app::iparams_html_and_json::RULE,
    &app::missing_iparams_file::RULE,
    &app::unexpected_config_file::RULE,
    &app::deprecated_test_data::RULE,
    &app::modules_not_supported::RULE,
    &app::unknown_module::RULE,
    &app::type_not_on_platform::RULE,
    &app::data_bind_product::RULE,
    &app::data_bind_not_on_platform::RULE,
    &app::missing_handler::RULE,
    &app::unknown_utils_key::RULE,
    &app::invalid_utils_set::RULE,
    &app::iparams_api_on_install_page::RULE,
    &app::javascript_syntax_error::RULE,
    &app::file_not_read::RULE,
    &app::unknown_iparam_read::RULE,
    &app::secure_iparam_in_frontend::RULE,
    &app::secure_iparam_logged::RULE,
    &app::key_not_usable_in_templates::RULE,
    &app::unused_iparam::RULE,
    &app::unused_suppression::RULE,
    &page::page_function_missing::RULE,
    &page::page_function_not_declared::RULE,
    &page::validate_not_boolean::RULE,
    &page::missing_app_client::RULE,
    &page::page_keys_unknown::RULE,
    &page::post_configs_always_throws::RULE,
    &page::secure_key_not_stored::RULE,
    &page::page_secret_not_secure::RULE,
    &page::page_fields_mismatch::RULE,
    &page::missing_page_asset::RULE,
    &page::remote_page_resource::RULE,
    &templates::invalid_request_template::RULE,
    &templates::credential_in_template::RULE,
    &templates::credential_iparam_not_secure::RULE,
    &templates::request_method::RULE,
    &templates::request_protocol::RULE,
    &templates::request_host::RULE,
    &templates::fixed_account_host::RULE,
    &templates::product_auth_scheme::RULE,
    &templates::request_path::RULE,
    &templates::query_string_in_path::RULE,
    &templates::request_option_value::RULE,
    &templates::unknown_request_option::RULE,
    &templates::unsubstituted_placeholder::RULE,
    &templates::misplaced_placeholder::RULE,
    &templates::access_token_without_oauth::RULE,
    &templates::undeclared_request_template::RULE,
    &templates::unknown_request_template::RULE,
    &templates::unused_request_template::RULE,
    &templates::missing_template_context::RULE,
    &templates::ignored_invoke_option::RULE,
    &templates::context_host_in_frontend::RULE,
    &templates::legacy_request_api::RULE,
    &hr::hr_domain_host::RULE,
    &hr::hr_path::RULE,
    &hr::hr_unknown_endpoint::RULE,
    &hr::hr_endpoint_method::RULE,
    &hr::hr_unknown_filter::RULE,
    &hr::hr_filter_value::RULE,
    &hr::hr_include::RULE,
    &hr::hr_date_range::RULE,
    &hr::hr_always_empty::RULE,
    &hr::hr_authorization::RULE,
    &hr::hr_accept::RULE,
    &hr::hr_content_type::RULE,
    &hr::hr_body::RULE,
    &values::value_definitions_invalid::RULE,
    &values::unknown_value_key::RULE,
    &values::missing_value_key::RULE,
    &values::value_required::RULE,
    &values::hidden_required_value::RULE,
    &values::value_type::RULE,
    &values::value_format::RULE,
    &values::value_not_in_options::RULE,
    &values::value_duplicate_option::RULE,
    &values::value_fails_regex::RULE,
    &values::value_regex_timeout::RULE,
    &values::verify_credentials::RULE,
];

/// The rule called `name`.
pub fn find(name: &str) -> Option<&'static Rule> {
    REGISTRY.iter().copied().find(|rule| rule.name == name)
}

/// `invalid-json`, the rule of syntax errors: only its fixes apply to a file that does not parse.
pub static INVALID_JSON: &Rule = &file::invalid_json::RULE;

/// `verify-credentials`, which the command reports from the HR service's answers.
pub static VERIFY_CREDENTIALS: &Rule = &values::verify_credentials::RULE;

/// The rule called `name`, or the closest name when there is none.
pub fn resolve(name: &str) -> Result<&'static Rule, Option<&'static str>> {
    find(name).ok_or_else(|| crate::suggest::closest(name, REGISTRY.iter().map(|r| r.name)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Area;

    #[test]
    fn the_registry_lists_rules_area_by_area() {
        for pair in REGISTRY.windows(2) {
            assert!(
                pair[0].area <= pair[1].area,
                "{} ({:?}) is listed before {} ({:?})",
                pair[0].name,
                pair[0].area,
                pair[1].name,
                pair[1].area
            );
        }
    }

    #[test]
    fn group_names_are_no_rule_names() {
        // A name given to `--select` stands for a rule or for a group, never both.
        for area in Area::ALL {
            assert!(find(area.name()).is_none(), "{} is both", area.name());
            assert_eq!(Area::named(area.name()), Some(area));
        }
    }

    #[test]
    fn names_are_unique_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for rule in REGISTRY {
            assert!(seen.insert(rule.name), "{} is registered twice", rule.name);
            assert!(
                rule.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'-')
                    && !rule.name.starts_with('-'),
                "{} is not kebab-case",
                rule.name
            );
            assert!(
                !rule.summary.is_empty() && !rule.docs.is_empty() && !rule.vendor.is_empty(),
                "{}",
                rule.name
            );
        }
    }
}
