//! Rules about one iparam of iparams.json (or, for a few, all of them at the end of the file),
//! and what only they share: an iparam's regex patterns compiled and matched on its default,
//! what is wrong with a product name, which types can hold a secret.

pub(super) mod api_key_not_secure;
pub(super) mod attribute_type;
pub(super) mod data_bind_not_allowed;
pub(super) mod default_fails_regex;
pub(super) mod default_not_in_options;
pub(super) mod default_value_type;
pub(super) mod duplicate_display_name;
pub(super) mod duplicate_option;
pub(super) mod empty_display_name;
pub(super) mod empty_key;
pub(super) mod empty_option;
pub(super) mod empty_regex;
pub(super) mod event_entry;
pub(super) mod freshchat_domain;
pub(super) mod hardcoded_credential;
pub(super) mod hidden_required;
pub(super) mod high_entropy_string;
pub(super) mod invalid_default_format;
pub(super) mod invalid_handler_name;
pub(super) mod invalid_regex;
pub(super) mod iparam_not_object;
pub(super) mod missing_attribute;
pub(super) mod missing_default;
pub(super) mod missing_options;
pub(super) mod missing_product;
pub(super) mod missing_regex_message;
pub(super) mod numeric_default;
pub(super) mod options_not_allowed;
pub(super) mod orphan_regex_message;
pub(super) mod other_platform;
pub(super) mod regex_delimiters;
pub(super) mod regex_not_supported;
pub(super) mod regex_timeout;
pub(super) mod reserved_key;
pub(super) mod secret_label_not_secure;
pub(super) mod secure_default_value;
pub(super) mod sensitive_key_not_secure;
pub(super) mod type_attributes_not_allowed;
pub(super) mod unanchored_regex;
pub(super) mod unknown_api_key_product;
pub(super) mod unknown_attribute;
pub(super) mod unknown_data_bind;
pub(super) mod unknown_product;
pub(super) mod unknown_type;
pub(super) mod unsupported_event;
pub(super) mod vendor_secure_false_positive;

use std::sync::LazyLock;

use crate::ecma_regex::{Compiled, MatchOutcome};
use crate::model::{DefaultValue, Iparam, IparamType, PRODUCT_PLACEHOLDER, RegexEntry, Text};
use crate::products::{CURRENT_PRODUCT, PRODUCT_NAMES};
use crate::rules::framework::Context;
use crate::rules::helpers::{compile_patterns, match_patterns};
use crate::span::Span;
use crate::suggest;

/// Each string pattern of the iparam's `regex`, compiled.
pub(crate) fn compiled_patterns<'a, 's>(
    iparam: &Iparam<'a, 's>,
    cx: &mut Context<'_>,
) -> Vec<(RegexEntry<'a, 's>, Compiled)> {
    let text = cx.text();
    compile_patterns(iparam, text, cx.regexes())
}

/// The outcome of each valid pattern of the iparam on its default value, when the iparam's
/// type takes a regex and its default is a non-empty string.
pub(crate) fn default_matches<'a, 's>(
    iparam: &Iparam<'a, 's>,
    cx: &mut Context<'_>,
) -> Vec<(RegexEntry<'a, 's>, Text<'a>, MatchOutcome)> {
    let DefaultValue::Text(default) = iparam.default else {
        return Vec::new();
    };
    if default.text.is_empty() || !iparam.known_type().is_some_and(|ty| ty.accepts_regex()) {
        return Vec::new();
    }
    let text = cx.text();
    match_patterns(iparam, default.text, text, cx.regexes())
        .into_iter()
        .map(|(entry, outcome)| (entry, default, outcome))
        .collect()
}

/// What is wrong with a product name.
pub(crate) enum ProductProblem {
    /// The documentation's placeholder, copied verbatim.
    Placeholder,
    /// A known product in the wrong case or with spaces.
    Spelling(&'static str),
    /// Close to a known product.
    Misspelt(&'static str),
    /// Nothing like a known product.
    Unrelated,
}

/// `None` when `product` is a known product or `current`.
pub(crate) fn product_problem(product: &str) -> Option<ProductProblem> {
    // Another SDK's product is `other-platform`'s to mention, once.
    if product == CURRENT_PRODUCT
        || PRODUCT_NAMES.contains(&product)
        || crate::app::manifest::foreign_product(product).is_some()
    {
        return None;
    }
    let known = || PRODUCT_NAMES.iter().copied().chain([CURRENT_PRODUCT]);
    let normalised = product.trim().to_lowercase().replace([' ', '-', '_'], "");
    Some(
        if product.trim().eq_ignore_ascii_case(PRODUCT_PLACEHOLDER) {
            ProductProblem::Placeholder
        } else if let Some(name) =
            known().find(|p| p.chars().filter(|c| *c != '_').eq(normalised.chars()))
        {
            ProductProblem::Spelling(name)
        } else if let Some(name) = suggest::closest_in(product, &PRODUCT_NAMES, known()) {
            ProductProblem::Misspelt(name)
        } else {
            ProductProblem::Unrelated
        },
    )
}

pub(crate) fn product_list() -> &'static str {
    // Made once: a large file quotes it in thousands of findings.
    static LIST: LazyLock<String> = LazyLock::new(|| {
        format!(
            "The products are {}, and \"current\" for the product the app is installed on.",
            suggest::quoted_list(PRODUCT_NAMES)
        )
    });
    &LIST
}

/// Types whose value can be a secret.
pub(crate) fn can_hold_secret(ty: Option<IparamType>) -> bool {
    matches!(ty, None | Some(IparamType::Text | IparamType::Paragraph))
}

/// A long random token in an iparam, as `hardcoded-credential` and `high-entropy-string`
/// report it.
pub(super) struct RandomToken {
    pub span: Span,
    /// The pointer of the string that holds it.
    pub pointer: String,
    /// ` (in `description`)`: the attribute that holds it (not an option's index), or nothing.
    pub place: String,
}

/// The iparam's random tokens: the strong ones (base64 mixing lower case, upper case and
/// digits: how keys and secrets look, reported as credentials) or the others (hex, which
/// hashes and identifiers share with keys: the detector is unsure).
pub(super) fn random_tokens(
    iparam: &Iparam<'_, '_>,
    cx: &Context<'_>,
    strong: bool,
) -> Vec<RandomToken> {
    iparam
        .random_tokens
        .iter()
        .filter(|span| crate::secrets::is_hex_token(cx.source(**span)) != strong)
        .map(|&span| {
            let segments = iparam.value.path_to(span);
            let mut pointer = iparam.pointer();
            for segment in &segments {
                crate::pointer::push(&mut pointer, segment);
            }
            let place = segments
                .first()
                .map_or_else(String::new, |attribute| format!(" (in `{attribute}`)"));
            RandomToken {
                span,
                pointer,
                place,
            }
        })
        .collect()
}
