//! The vendor's products, written once: the name `type_attributes.product` gives each, the
//! domains of its accounts' hosts and how its API takes an account's key (docs/preview.md: the
//! domain input and the installation check; the vendor's API documentation of each product).
//! The rules, the language server, `add`, the preview and its page (through the page's state)
//! all read this table; its order is the order messages list the products in.

/// A product of the vendor.
#[derive(Debug)]
pub struct Product {
    /// As `type_attributes.product` names it.
    pub name: &'static str,
    /// As its users know it, for messages.
    pub title: &'static str,
    /// Where each account's API answers, `<sub-domain><suffix>`; the installation page offers
    /// the first one first. None for a product without hosts of its own.
    pub hosts: &'static [AccountHost],
    /// What the product value means, for hovers and completion.
    pub description: &'static str,
}

/// A domain the accounts of a product have their hosts under.
#[derive(Debug)]
pub struct AccountHost {
    /// What follows an account's sub-domain, lower case: `.freshdesk.com`.
    pub suffix: &'static str,
    /// How its API takes the key, with the paths it holds for (those that start with the prefix
    /// given); `None` where the rules of another group judge it (the HR service) or where the
    /// host serves products of several schemes.
    pub auth: Option<(ApiAuth, &'static str)>,
}

/// How a product's API takes an account's key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApiAuth {
    /// `Authorization: Basic <base64 of key:X>`.
    Basic,
    /// `Authorization: Bearer <token>`, the token as it is.
    Bearer,
    /// `Authorization: Token token=<key>`, the key as it is.
    Token,
    /// The key as it is, in a header of its own, `X-Api-Auth`, rather than `Authorization`.
    KeyHeader,
}

impl ApiAuth {
    /// The scheme of an `Authorization` value it is, when it is one.
    pub fn of_scheme(scheme: &str) -> Option<ApiAuth> {
        [ApiAuth::Basic, ApiAuth::Bearer, ApiAuth::Token]
            .into_iter()
            .find(|auth| {
                auth.scheme()
                    .is_some_and(|name| name.eq_ignore_ascii_case(scheme))
            })
    }

    /// The header of its own it takes the key in.
    pub const X_API_AUTH: &'static str = "X-Api-Auth";

    /// Its `Authorization` scheme; `None` for a header of its own.
    pub const fn scheme(self) -> Option<&'static str> {
        match self {
            ApiAuth::Basic => Some("Basic"),
            ApiAuth::Bearer => Some("Bearer"),
            ApiAuth::Token => Some("Token"),
            ApiAuth::KeyHeader => None,
        }
    }

    /// The header as a template writes it, with `KEY` for the iparam of the key.
    pub const fn written(self) -> &'static str {
        match self {
            ApiAuth::Basic => r#""Authorization": "Basic <%= encode(iparam.KEY + ':X') %>""#,
            ApiAuth::Bearer => r#""Authorization": "Bearer <%= iparam.KEY %>""#,
            ApiAuth::Token => r#""Authorization": "Token token=<%= iparam.KEY %>""#,
            ApiAuth::KeyHeader => r#""X-Api-Auth": "<%= iparam.KEY %>""#,
        }
    }
}

/// The product of the HR service, whose API app/hr_service.rs holds as data.
pub const HR_PRODUCT: Product = Product {
    name: "freshteam",
    title: "Freshteam",
    // Judged by the rules of the HR service, which know its paths.
    hosts: &[AccountHost {
        suffix: ".freshteam.com",
        auth: None,
    }],
    description: "Freshteam: the domain input ends in `.freshteam.com`; the key is checked with `GET /api/branches`.",
};

/// Every product `type_attributes.product` may name (the vendor's product list), in the
/// vendor's order.
pub static PRODUCTS: [Product; 9] = [
    Product {
        name: "freshdesk",
        title: "Freshdesk",
        hosts: &[AccountHost {
            suffix: ".freshdesk.com",
            auth: Some((ApiAuth::Basic, "/")),
        }],
        description: "Freshdesk: the domain input ends in `.freshdesk.com`; the key is checked with `GET /api/v2/settings/helpdesk`.",
    },
    Product {
        name: "freshservice",
        title: "Freshservice",
        hosts: &[AccountHost {
            suffix: ".freshservice.com",
            auth: Some((ApiAuth::Basic, "/")),
        }],
        description: "Freshservice: the domain input ends in `.freshservice.com`; the key is checked with `GET /api/v2/agents`.",
    },
    Product {
        name: "freshsales",
        title: "Freshsales",
        hosts: &[AccountHost {
            suffix: ".freshsales.io",
            auth: Some((ApiAuth::Token, "/")),
        }],
        description: "Freshsales: the domain input ends in `.freshsales.io`.",
    },
    Product {
        name: "freshchat",
        title: "Freshchat",
        hosts: &[AccountHost {
            suffix: ".freshchat.com",
            auth: Some((ApiAuth::Bearer, "/")),
        }],
        description: "Freshchat: the key is checked against `api.freshchat.com`.",
    },
    Product {
        name: "freshconnect",
        title: "Freshconnect",
        hosts: &[],
        description: "Freshconnect.",
    },
    Product {
        name: "freshcaller",
        title: "Freshcaller",
        hosts: &[AccountHost {
            suffix: ".freshcaller.com",
            auth: Some((ApiAuth::KeyHeader, "/")),
        }],
        description: "Freshcaller: the domain input ends in `.freshcaller.com`.",
    },
    HR_PRODUCT,
    Product {
        name: "freshworks_crm",
        title: "Freshworks CRM",
        hosts: &[
            // A suite's host: its CRM answers under /crm/, its other products with their own
            // schemes.
            AccountHost {
                suffix: ".myfreshworks.com",
                auth: Some((ApiAuth::Token, "/crm/")),
            },
            AccountHost {
                suffix: ".freshworks.com",
                auth: None,
            },
        ],
        description: "Freshworks CRM: the domain input ends in `.myfreshworks.com` (or `.freshworks.com`).",
    },
    Product {
        name: "omni",
        title: "Omni",
        hosts: &[],
        description: "The Freshworks omni-channel suite.",
    },
];

/// The names of [`PRODUCTS`], in its order.
pub static PRODUCT_NAMES: [&str; PRODUCTS.len()] = {
    let mut names = [""; PRODUCTS.len()];
    let mut at = 0;
    while at < PRODUCTS.len() {
        names[at] = PRODUCTS[at].name;
        at += 1;
    }
    names
};

/// The product value meaning "whichever product the app is installed on".
pub const CURRENT_PRODUCT: &str = "current";

/// What `current` stands for, as [`Product::description`] says what a product is.
const CURRENT_DESCRIPTION: &str = "Whichever product the app is installed on; required when the manifest lists several products and the iparam is bound with `data-bind`.";

/// The product `type_attributes.product` names `name`.
pub fn product(name: &str) -> Option<&'static Product> {
    PRODUCTS.iter().find(|product| product.name == name)
}

/// What a product value of `type_attributes.product` means: the domain the installation page
/// shows after a `domain` input, and what `current` stands for.
pub fn product_description(name: &str) -> Option<&'static str> {
    if name == CURRENT_PRODUCT {
        return Some(CURRENT_DESCRIPTION);
    }
    product(name).map(|product| product.description)
}

impl Product {
    /// The domains of its accounts' hosts without their leading dot (`freshdesk.com`), the
    /// installation page's first first.
    pub fn domains(&self) -> impl Iterator<Item = &'static str> + use<> {
        self.hosts
            .iter()
            .map(|host| host.suffix.strip_prefix('.').unwrap_or(host.suffix))
    }

    /// The domain the installation page offers first, when the product has hosts of its own.
    pub fn domain(&self) -> Option<&'static str> {
        self.domains().next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_product_is_named_once_and_described() {
        for (at, product) in PRODUCTS.iter().enumerate() {
            assert_eq!(PRODUCT_NAMES[at], product.name);
            assert_eq!(
                PRODUCTS.iter().filter(|p| p.name == product.name).count(),
                1
            );
            assert_eq!(product_description(product.name), Some(product.description));
            for host in product.hosts {
                assert!(host.suffix.starts_with('.'), "{}", host.suffix);
                assert_eq!(host.suffix, host.suffix.to_ascii_lowercase());
            }
        }
        assert!(product_description(CURRENT_PRODUCT).is_some());
        assert!(product_description("zendesk").is_none());
        assert!(product(CURRENT_PRODUCT).is_none());
    }

    #[test]
    fn the_domains_of_a_product_are_its_hosts_without_the_dot() {
        let crm = product("freshworks_crm").map(|p| p.domains().collect::<Vec<_>>());
        assert_eq!(crm, Some(vec!["myfreshworks.com", "freshworks.com"]));
        assert_eq!(
            product("freshsales").and_then(Product::domain),
            Some("freshsales.io")
        );
        assert_eq!(product("omni").and_then(Product::domain), None);
    }
}
