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

/// The products `type_attributes.product` may name (the vendor's product list).
pub static PRODUCTS: [&str; 9] = [
    "freshdesk",
    "freshservice",
    "freshsales",
    "freshchat",
    "freshconnect",
    "freshcaller",
    "freshteam",
    "freshworks_crm",
    "omni",
];

/// The product value meaning "whichever product the app is installed on".
pub const CURRENT_PRODUCT: &str = "current";

/// The placeholder the vendor's documentation shows for `product`, copied verbatim by some apps.
pub const PRODUCT_PLACEHOLDER: &str = "name of the product";

/// Account values an iparam can be pre-filled with through `data-bind`, and the types each
/// one can fill.
pub static DATA_BIND_VALUES: [(&str, &[IparamType]); 3] = [
    ("product.domain", &[IparamType::Text, IparamType::Domain]),
    ("product.api_key", &[IparamType::Text, IparamType::ApiKey]),
    ("product.url", &[IparamType::Text]),
];

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
}
