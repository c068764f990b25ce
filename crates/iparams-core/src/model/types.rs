//! The vocabulary of the format: iparam types, attributes, products and data-bind values.

/// The 13 iparam types of the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IparamType {
    Text,
    Paragraph,
    Dropdown,
    Email,
    Number,
    PhoneNumber,
    Date,
    Url,
    Radio,
    Checkbox,
    Multiselect,
    Domain,
    ApiKey,
}

impl IparamType {
    pub const ALL: [IparamType; 13] = [
        Self::Text,
        Self::Paragraph,
        Self::Dropdown,
        Self::Email,
        Self::Number,
        Self::PhoneNumber,
        Self::Date,
        Self::Url,
        Self::Radio,
        Self::Checkbox,
        Self::Multiselect,
        Self::Domain,
        Self::ApiKey,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::Paragraph => "paragraph",
            Self::Dropdown => "dropdown",
            Self::Email => "email",
            Self::Number => "number",
            Self::PhoneNumber => "phone_number",
            Self::Date => "date",
            Self::Url => "url",
            Self::Radio => "radio",
            Self::Checkbox => "checkbox",
            Self::Multiselect => "multiselect",
            Self::Domain => "domain",
            Self::ApiKey => "api_key",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "text" => Self::Text,
            "paragraph" => Self::Paragraph,
            "dropdown" => Self::Dropdown,
            "email" => Self::Email,
            "number" => Self::Number,
            "phone_number" => Self::PhoneNumber,
            "date" => Self::Date,
            "url" => Self::Url,
            "radio" => Self::Radio,
            "checkbox" => Self::Checkbox,
            "multiselect" => Self::Multiselect,
            "domain" => Self::Domain,
            "api_key" => Self::ApiKey,
            _ => return None,
        })
    }

    pub fn names() -> impl Iterator<Item = &'static str> {
        Self::ALL.into_iter().map(Self::name)
    }

    /// dropdown, radio and multiselect: the user picks from `options`.
    pub const fn has_options(self) -> bool {
        matches!(self, Self::Dropdown | Self::Radio | Self::Multiselect)
    }

    /// domain and api_key: tied to a product by `type_attributes.product`.
    pub const fn has_product(self) -> bool {
        matches!(self, Self::Domain | Self::ApiKey)
    }

    /// The types the vendor validator lets carry a `regex`.
    pub const fn accepts_regex(self) -> bool {
        matches!(
            self,
            Self::Text | Self::Email | Self::PhoneNumber | Self::Url
        )
    }

    /// What the type is, and what the installation page shows for it (Markdown, one paragraph):
    /// for hovers and completion in editors.
    pub const fn description(self) -> &'static str {
        match self {
            Self::Text => "Single-line text: an `<input type=text>` on the installation page.",
            Self::Paragraph => "Multi-line text: a `<textarea>` of three rows.",
            Self::Dropdown => {
                "One choice from `options`, in a `<select>`; `default_value` must be one of the options."
            }
            Self::Email => {
                "An e-mail address: an `<input type=email>`, checked by the browser (\"Invalid e-mail address!\")."
            }
            Self::Number => {
                "An integer of up to 10 digits: an `<input type=number>`; `min` and `max` can only be set by `utils.set`."
            }
            Self::PhoneNumber => {
                "A phone number: an `<input type=tel>` whose built-in pattern takes `1234567890` or `123-456-7890`."
            }
            Self::Date => "A date, `YYYY-MM-DD`, with a date picker.",
            Self::Url => "A URL: an `<input type=url>`, checked by the browser (\"Invalid URL!\").",
            Self::Radio => "One choice from `options`, as radio buttons.",
            Self::Checkbox => "One checkbox; its `default_value` is a boolean.",
            Self::Multiselect => {
                "Several choices from `options`, in a searchable list; its value and `default_value` are arrays of strings."
            }
            Self::Domain => {
                "The sub-domain of the account of `type_attributes.product`: `https://` and `.<product domain>` are shown fixed around the input. On INSTALL it is checked together with the `api_key` iparam of the same product."
            }
            Self::ApiKey => {
                "The API key of the account of `type_attributes.product`, checked on INSTALL with a call to the product's API together with the `domain` iparam; mark it `\"secure\": true`."
            }
        }
    }

    /// What `default_value` must be for this type, as it reads in a sentence.
    pub const fn expected_default(self) -> &'static str {
        match self {
            Self::Checkbox => "a boolean (`true` or `false`)",
            Self::Multiselect => "an array of strings",
            _ => "a string",
        }
    }
}

/// The attributes an iparam definition may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Attribute {
    DisplayName,
    Description,
    Type,
    Options,
    DefaultValue,
    Required,
    Visible,
    Secure,
    Regex,
    TypeAttributes,
    Events,
    DataBind,
    /// Platform 3.x only: the app modules the iparam belongs to.
    Modules,
}

/// The JSON shape an attribute's value must have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    String,
    Boolean,
    StringArray,
    /// An object whose values are strings.
    StringMap,
    ObjectArray,
    Object,
    /// Depends on the iparam's type (`default_value`).
    PerType,
}

impl Shape {
    pub const fn described(self) -> &'static str {
        match self {
            Shape::String => "a string",
            Shape::Boolean => "a boolean (`true` or `false`)",
            Shape::StringArray => "an array of strings",
            Shape::StringMap => "an object of strings",
            Shape::ObjectArray => "an array of objects",
            Shape::Object => "an object",
            Shape::PerType => "a value of the iparam's type",
        }
    }
}

impl Attribute {
    pub const ALL: [Attribute; 13] = [
        Self::DisplayName,
        Self::Description,
        Self::Type,
        Self::Options,
        Self::DefaultValue,
        Self::Required,
        Self::Visible,
        Self::Secure,
        Self::Regex,
        Self::TypeAttributes,
        Self::Events,
        Self::DataBind,
        Self::Modules,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Self::DisplayName => "display_name",
            Self::Description => "description",
            Self::Type => "type",
            Self::Options => "options",
            Self::DefaultValue => "default_value",
            Self::Required => "required",
            Self::Visible => "visible",
            Self::Secure => "secure",
            Self::Regex => "regex",
            Self::TypeAttributes => "type_attributes",
            Self::Events => "events",
            Self::DataBind => "data-bind",
            Self::Modules => "modules",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "display_name" => Self::DisplayName,
            "description" => Self::Description,
            "type" => Self::Type,
            "options" => Self::Options,
            "default_value" => Self::DefaultValue,
            "required" => Self::Required,
            "visible" => Self::Visible,
            "secure" => Self::Secure,
            "regex" => Self::Regex,
            "type_attributes" => Self::TypeAttributes,
            "events" => Self::Events,
            "data-bind" => Self::DataBind,
            "modules" => Self::Modules,
            _ => return None,
        })
    }

    pub fn names() -> impl Iterator<Item = &'static str> {
        Self::ALL.into_iter().map(Self::name)
    }

    /// What the attribute does (Markdown, one paragraph): for hovers and completion in editors.
    pub const fn description(self) -> &'static str {
        match self {
            Self::DisplayName => "The label of the field on the installation page. Required.",
            Self::Description => "The hint under the field; it may hold examples.",
            Self::Type => {
                "What the field is and which control the installation page shows. Required."
            }
            Self::Options => "The choices of a `dropdown`, `radio` or `multiselect`.",
            Self::DefaultValue => {
                "The value the field starts with: a string, a boolean for `checkbox`, an array for `multiselect`; one of `options` for the option types."
            }
            Self::Required => "`true` makes the field mandatory (an asterisk on its label).",
            Self::Visible => {
                "`false` hides the field (and skips its validation); its value is still saved."
            }
            Self::Secure => {
                "`true` keeps the value from the app's front end: `client.iparams.get()` leaves it out, and it is used through request templates (`<%= iparam.key %>`)."
            }
            Self::Regex => {
                "Extra validation: each entry a pattern the whole value must match, and `<name>-error` entries the message shown when none does. It replaces the type's own check."
            }
            Self::TypeAttributes => {
                "Settings of the type: `product` for `domain` and `api_key` iparams (required for them)."
            }
            Self::Events => {
                "Callbacks on the installation page: `[{\"change\": \"functionName\"}]`, the function declared in `config/assets/iparams.js` and called with the new value."
            }
            Self::DataBind => {
                "Fills the field from the account the app is installed on: `product.domain`, `product.api_key` or `product.url`."
            }
            Self::Modules => "Platform 3.x: the modules of the manifest the iparam belongs to.",
        }
    }

    pub const fn shape(self) -> Shape {
        match self {
            Self::DisplayName | Self::Description | Self::Type | Self::DataBind => Shape::String,
            Self::Required | Self::Visible | Self::Secure => Shape::Boolean,
            Self::Options | Self::Modules => Shape::StringArray,
            Self::Regex => Shape::StringMap,
            Self::Events => Shape::ObjectArray,
            Self::TypeAttributes => Shape::Object,
            Self::DefaultValue => Shape::PerType,
        }
    }

    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

/// What a `data-bind` value fills the field with.
pub fn data_bind_description(value: &str) -> Option<&'static str> {
    Some(match value {
        "product.domain" => {
            "The account's domain: `<sub-domain>.<product domain>` in a `text` iparam, the sub-domain alone in a `domain` iparam."
        }
        "product.api_key" => "The account's API key, in a `text` or `api_key` iparam.",
        "product.url" => "The account's URL, in a `text` iparam.",
        _ => return None,
    })
}

/// The placeholder the vendor's documentation shows for `product`, copied verbatim by some apps.
pub const PRODUCT_PLACEHOLDER: &str = "name of the product";

/// Account values an iparam can be pre-filled with through `data-bind`, and the types each
/// one can fill.
pub static DATA_BIND_VALUES: [(&str, &[IparamType]); 3] = [
    ("product.domain", &[IparamType::Text, IparamType::Domain]),
    ("product.api_key", &[IparamType::Text, IparamType::ApiKey]),
    ("product.url", &[IparamType::Text]),
];

/// Whether a `data-bind` value reads as a name, as the known values do (`product.subdomain`,
/// `domain`): dotted words of letters, digits, `_` and `-`, with a dot, or lower-case letters
/// alone. Anything else (`Tr0ub4dor&3`, `a8f3k2…`) may be a token pasted there by mistake, and
/// is never shown.
pub fn looks_like_a_data_bind_name(text: &str) -> bool {
    let word = |part: &str| {
        part.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
    };
    if text.contains('.') {
        text.split('.').all(word)
    } else {
        !text.is_empty() && text.chars().all(|c| c.is_ascii_lowercase() || c == '_')
    }
}

/// The only installation-page event an iparam can handle.
pub const CHANGE_EVENT: &str = "change";

/// The suffix that names a regex entry's error message: `"age"` pairs with `"age-error"`.
pub const REGEX_ERROR_SUFFIX: &str = "-error";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for ty in IparamType::ALL {
            assert_eq!(IparamType::from_name(ty.name()), Some(ty));
        }
        for attribute in Attribute::ALL {
            assert_eq!(Attribute::from_name(attribute.name()), Some(attribute));
        }
        assert_eq!(IparamType::from_name("Text"), None);
        assert_eq!(Attribute::from_name("Data-bind"), None);
    }

    #[test]
    fn every_name_of_the_vocabulary_is_described() {
        for (value, _) in DATA_BIND_VALUES {
            assert!(data_bind_description(value).is_some(), "{value}");
        }
    }

    #[test]
    fn data_bind_names_and_what_is_not_one() {
        for name in [
            "product.domain",
            "product.subdomain",
            "product.API_KEY",
            "domain",
            "api_key",
        ] {
            assert!(looks_like_a_data_bind_name(name), "{name}");
        }
        for other in [
            "Tr0ub4dor&3horse-stapl",
            "abcd1234efgh5678",
            "hunter2",
            "",
            "a..b",
            "p.9x",
        ] {
            assert!(!looks_like_a_data_bind_name(other), "{other}");
        }
    }
}
