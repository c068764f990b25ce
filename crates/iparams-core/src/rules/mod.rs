//! The rules: the framework they are written in ([`Rule`], [`Check`], [`Context`],
//! [`RuleSettings`], the helpers the rules of several groups share) and the rules themselves, one
//! file each, grouped by what they check: `file/` (a JSON file as a whole), `iparam/`, `app/`
//! (iparams.json with the app around it: manifest, config/ folder, callbacks and code),
//! `page/` (a custom installation page, config/iparams.html), `templates/` (request templates, config/requests.json, and the code that invokes them), `hr/`
//! (the templates that reach the HR service) and `values/` (installation values). What only the
//! rules of one group share is in that group's `mod.rs`; no rule file exports to another.
//!
//! [`REGISTRY`] is the single list of rules and of what runs: the engine runs every enabled
//! rule's [`Check`]s at the moment each kind of check is for, and never names a rule. The CLI's
//! `rules` and `explain`, SARIF's rule table and `docs/rules.md` are generated from it.

mod context;
pub(crate) mod helpers;
mod settings;

mod app;
mod file;
mod hr;
mod iparam;
mod page;
mod templates;
mod values;

use std::any::Any;

pub use context::{AppContext, Context};
/// For front-ends that check a name as it is typed (`add`): the rules' own test.
pub use helpers::{as_identifier, is_identifier};
pub use settings::{Level, RuleSettings};

use crate::app::AppModel;
use crate::diagnostic::{Applicability, Severity};
use crate::model::Iparam;
use crate::reading::Reading;
use crate::values::{Answer, ValuesFile};

/// What a rule is and how it is documented.
#[derive(Debug)]
pub struct Rule {
    /// Stable kebab-case name, used in output and configuration.
    pub name: &'static str,
    pub severity: Severity,
    /// What part of the app it is about, for the docs.
    pub area: Area,
    /// One line: what the rule finds.
    pub summary: &'static str,
    /// What it checks and why it matters, in Markdown, wrapped for the source: read it with
    /// [`Rule::docs`].
    pub(crate) docs: &'static str,
    /// A file the rule reports...
    pub bad: &'static str,
    /// ...and the same file corrected.
    pub good: &'static str,
    /// What `bad` and `good` are.
    pub examples: Examples,
    /// What the vendor's validator (`fdk validate`) does in the same case, wrapped for the
    /// source: read it with [`Rule::vendor`].
    pub(crate) vendor: &'static str,
    /// Whether findings carry a fix, and how safe it is.
    pub fix: Option<Applicability>,
    /// What runs, and when.
    pub checks: &'static [Check],
}

/// What part of the app a rule is about: the docs list rules by area, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Area {
    File,
    Keys,
    Options,
    Defaults,
    Products,
    Secrets,
    Regexes,
    Events,
    DataBind,
    Installation,
    App,
    Page,
    Templates,
    Hr,
    Values,
}

impl Area {
    pub const ALL: [Area; 15] = [
        Area::File,
        Area::Keys,
        Area::Options,
        Area::Defaults,
        Area::Products,
        Area::Secrets,
        Area::Regexes,
        Area::Events,
        Area::DataBind,
        Area::Installation,
        Area::App,
        Area::Page,
        Area::Templates,
        Area::Hr,
        Area::Values,
    ];

    /// How the docs title it.
    pub fn title(self) -> &'static str {
        match self {
            Area::File => "The file",
            Area::Keys => "Keys and attributes",
            Area::Options => "Options",
            Area::Defaults => "Default values",
            Area::Products => "Products",
            Area::Secrets => "Secrets",
            Area::Regexes => "Regexes",
            Area::Events => "Events",
            Area::DataBind => "data-bind",
            Area::Installation => "Installation",
            Area::App => "The app",
            Area::Page => "A custom installation page (config/iparams.html)",
            Area::Templates => "Request templates",
            Area::Hr => "The HR service",
            Area::Values => "Installation values (`values`)",
        }
    }
}

/// What a rule's examples are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Examples {
    /// An iparams.json.
    Iparams,
    /// A whole app, each file opening with `=== path ===`.
    App,
    /// A values file for the iparams.json `definitions` (the `good` one for `good_definitions`,
    /// when given: for a rule about iparams.json as the values see it).
    Values {
        definitions: &'static str,
        good_definitions: Option<&'static str>,
    },
    /// A values file for the iparams.json `definitions`, checked against the product's API by
    /// `values --verify`: the examples need the network (the HR sandbox's tests prove them).
    Verified { definitions: &'static str },
}

/// One check of a rule, and when it runs.
#[derive(Debug)]
pub enum Check {
    /// Once per JSON file (iparams.json, a values file, the manifest), with what reading it
    /// found: its encoding, its syntax, its top level.
    Reading(fn(&Reading<'_>, &mut Context<'_>)),
    /// On each iparam of iparams.json.
    Iparam(fn(&Iparam<'_, '_>, &mut Context<'_>)),
    /// Sees every iparam of iparams.json, then the end of the file.
    File(fn() -> Box<dyn FileCheck>),
    /// Once per app, across its files.
    App(fn(&AppModel<'_>, &mut AppContext)),
    /// On each iparam of iparams.json with the value a values file gives it.
    Value(fn(&Answer<'_>, &mut Context<'_>)),
    /// Once per values file, with its definitions.
    Values(fn(&ValuesFile<'_>, &mut Context<'_>)),
}

impl Rule {
    /// What the rule checks and why it matters, in Markdown, each paragraph and list item on
    /// one line.
    pub fn docs(&self) -> String {
        unwrap_lines(self.docs)
    }

    /// What the vendor's validator (`fdk validate`) does in the same case, on one line.
    pub fn vendor(&self) -> String {
        unwrap_lines(self.vendor)
    }

    /// For a values rule, the iparams.json files its `bad` and `good` examples are values for;
    /// `None` for the rules of iparams.json itself.
    pub fn example_definitions(&self) -> Option<(&'static str, &'static str)> {
        match self.examples {
            Examples::Values {
                definitions,
                good_definitions,
            } => Some((definitions, good_definitions.unwrap_or(definitions))),
            Examples::Verified { definitions } => Some((definitions, definitions)),
            _ => None,
        }
    }

    /// Whether the rule reports what a service answers (`values --verify`), so that its
    /// examples cannot be run offline.
    pub fn needs_network(&self) -> bool {
        matches!(self.examples, Examples::Verified { .. })
    }

    /// Whether the rule only reports with the app around iparams.json (its examples are apps).
    pub fn needs_app(&self) -> bool {
        self.examples == Examples::App
    }
}

/// A check that needs the whole file: it sees each iparam, then `finish`.
///
/// A large file is checked in runs of consecutive iparams on several threads, each with its
/// own instance of the check; the instances are then joined in file order with `append`.
pub trait FileCheck: Any + Send {
    fn iparam(&mut self, iparam: &Iparam<'_, '_>, cx: &mut Context<'_>);
    /// Takes in what `later` saw of the iparams that follow the ones this instance saw.
    fn append(&mut self, later: Box<dyn FileCheck>);
    /// Reports what the iparams seen show together.
    fn finish(&mut self, cx: &mut Context<'_>);
}

/// `later` as the check it is: lanes hold the same checks in the same order.
pub(crate) fn same_check<T: FileCheck>(later: Box<dyn FileCheck>) -> Box<T> {
    let later: Box<dyn Any> = later;
    later
        .downcast()
        .unwrap_or_else(|_| unreachable!("lanes hold the same checks in the same order"))
}

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
    &app::javascript_syntax_error::RULE,
    &app::unknown_iparam_read::RULE,
    &app::secure_iparam_in_frontend::RULE,
    &app::key_not_usable_in_templates::RULE,
    &app::unused_iparam::RULE,
    &page::page_function_missing::RULE,
    &page::page_function_not_declared::RULE,
    &page::validate_not_boolean::RULE,
    &page::missing_app_client::RULE,
    &page::page_keys_unknown::RULE,
    &page::secure_key_not_stored::RULE,
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

/// `text` with the lines that continue a paragraph or a list item joined to it: rule docs are
/// wrapped in the source, and shown by terminals, SARIF viewers and Markdown alike.
fn unwrap_lines(text: &str) -> String {
    let mut joined = String::with_capacity(text.len());
    let mut after_blank = true;
    for (index, line) in text.split('\n').enumerate() {
        let item = line.starts_with("- ") || line.starts_with("* ");
        let continues = index > 0 && !line.is_empty() && !after_blank && !item;
        if continues {
            joined.push(' ');
            joined.push_str(line.trim_start());
        } else {
            if index > 0 {
                joined.push('\n');
            }
            joined.push_str(line);
        }
        after_blank = line.is_empty();
    }
    joined
}

/// The rule called `name`.
pub fn find(name: &str) -> Option<&'static Rule> {
    REGISTRY.iter().copied().find(|rule| rule.name == name)
}

/// `verify-credentials`, which the command reports from the HR service's answers.
pub static VERIFY_CREDENTIALS: &Rule = &values::verify_credentials::RULE;

/// The rule called `name`, or the closest name when there is none.
pub fn resolve(name: &str) -> Result<&'static Rule, Option<&'static str>> {
    find(name).ok_or_else(|| crate::suggest::closest(name, REGISTRY.iter().map(|r| r.name)))
}

#[cfg(test)]
mod tests {
    use super::*;

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
