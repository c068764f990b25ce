//! What iparams checks need from manifest.json: the platform version, and the products (2.x)
//! or modules (3.x) the app is for.

use std::fmt;

use crate::span::Span;
use crate::syntax::{SyntaxError, Value, parse_value};

/// A platform version such as 2.3 or 3.0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Platform {
    pub major: u32,
    pub minor: u32,
}

impl Platform {
    /// Platform 3.x: modules instead of products, secrets as `text` + `secure`.
    pub const fn is_modular(self) -> bool {
        self.major >= 3
    }

    fn parse(text: &str) -> Option<Self> {
        let (major, minor) = text.split_once('.')?;
        Some(Self {
            major: major.parse().ok()?,
            minor: minor.parse().ok()?,
        })
    }
}

impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// The platform versions apps are known to declare.
pub const KNOWN_PLATFORMS: [&str; 6] = ["2.0", "2.1", "2.2", "2.3", "3.0", "3.1"];

/// A name in manifest.json, with where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    pub name: String,
    pub span: Span,
}

/// The parts of manifest.json that matter here.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    /// `None` when `platform-version` is missing or not a version.
    pub platform: Option<Platform>,
    /// The products of a 2.x app (the keys of `product`).
    pub products: Vec<Named>,
    /// The modules of a 3.x app (the keys of `modules`).
    pub modules: Vec<Named>,
    /// The other SDK built on the same framework the app is written for, if it is one
    /// (`platform-version` 1.0, or a product of that SDK): its platform rules are not the
    /// vendor's, so none of them is checked.
    pub foreign: Option<&'static str>,
    /// The request templates it declares: `product.<p>.requests` (2.x) and
    /// `modules.common.requests` (3.x), with where each name is written.
    pub requests: Vec<Named>,
    /// `whitelisted-domains`, when the manifest has it: the origins the request API of
    /// platforms before 2.3 may call.
    pub whitelisted_domains: Option<Vec<Named>>,
    /// The major version of the FDK that `engines.fdk` names (`"9.3.1"`, `"^9.0.0"`), when it
    /// names one: FDK 9 and later write it.
    pub fdk: Option<u32>,
}

impl Manifest {
    pub fn declares_request(&self, name: &str) -> bool {
        self.requests.iter().any(|r| r.name == name)
    }
}

/// Another vendor's SDK built on the same app framework: its name, its platform version and
/// its products.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ForeignSdk {
    pub name: &'static str,
    pub platform: &'static str,
    pub products: &'static [&'static str],
}

/// The SDKs known to share the framework.
pub const FOREIGN_SDKS: [ForeignSdk; 1] = [ForeignSdk {
    name: "SurveySparrow",
    platform: "1.0",
    products: &["surveysparrow"],
}];

/// The SDK whose product `product` is, if it is another SDK's.
pub fn foreign_product(product: &str) -> Option<&'static ForeignSdk> {
    FOREIGN_SDKS
        .iter()
        .find(|sdk| sdk.products.contains(&product))
}

/// What is wrong with a manifest, beside JSON syntax.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ManifestProblem {
    NotAnObject(Span),
    MissingPlatformVersion,
    /// `platform-version` is not a version we know, or not a string.
    UnknownPlatformVersion {
        found: String,
        span: Span,
    },
}

/// A manifest read as far as it goes.
#[derive(Clone, Debug, Default)]
pub struct ManifestReading {
    pub manifest: Manifest,
    pub syntax_errors: Vec<SyntaxError>,
    pub problems: Vec<ManifestProblem>,
}

pub fn read(text: &str) -> ManifestReading {
    let (value, syntax_errors) = parse_value(text);
    let mut reading = ManifestReading {
        syntax_errors,
        ..ManifestReading::default()
    };
    let Some(value) = value else { return reading };
    if value.as_object().is_none() {
        reading
            .problems
            .push(ManifestProblem::NotAnObject(Span::new(
                value.span.start,
                value.span.start + 1,
            )));
        return reading;
    }
    let products = value
        .get("product")
        .and_then(|m| m.value.as_object())
        .unwrap_or_default();
    let version = value.get("platform-version").and_then(|m| m.value.as_str());
    reading.manifest.foreign = FOREIGN_SDKS
        .iter()
        .find(|sdk| {
            version == Some(sdk.platform)
                || products
                    .iter()
                    .any(|p| sdk.products.contains(&p.key.text.as_ref()))
        })
        .map(|sdk| sdk.name);
    match value.get("platform-version") {
        // Another SDK's version is no mistake: its platform is simply not checked.
        Some(_) if reading.manifest.foreign.is_some() => {}
        None => reading
            .problems
            .push(ManifestProblem::MissingPlatformVersion),
        Some(member) => match member.value.as_str().and_then(Platform::parse) {
            Some(platform) if KNOWN_PLATFORMS.contains(&platform.to_string().as_str()) => {
                reading.manifest.platform = Some(platform)
            }
            _ => reading
                .problems
                .push(ManifestProblem::UnknownPlatformVersion {
                    found: text[member.value.span.start..member.value.span.end].to_owned(),
                    span: member.value.span,
                }),
        },
    }
    let keys = |value: &Value<'_>| -> Vec<Named> {
        value
            .as_object()
            .unwrap_or_default()
            .iter()
            .map(|m| Named {
                name: m.key.text.to_string(),
                span: m.key.span,
            })
            .collect()
    };
    reading.manifest.products = value
        .get("product")
        .map(|m| keys(&m.value))
        .unwrap_or_default();
    reading.manifest.modules = value
        .get("modules")
        .map(|m| keys(&m.value))
        .unwrap_or_default();
    let declarers = products.iter().map(|p| &p.value).chain(
        value
            .get("modules")
            .and_then(|m| m.value.get("common"))
            .map(|m| &m.value),
    );
    reading.manifest.requests = declarers
        .filter_map(|declarer| declarer.get("requests"))
        .flat_map(|requests| keys(&requests.value))
        .collect();
    reading.manifest.whitelisted_domains = value.get("whitelisted-domains").map(|member| {
        member
            .value
            .as_array()
            .unwrap_or_default()
            .iter()
            .filter_map(|domain| {
                domain.as_str().map(|name| Named {
                    name: name.to_owned(),
                    span: domain.span,
                })
            })
            .collect()
    });
    reading.manifest.fdk = value
        .get("engines")
        .and_then(|engines| engines.value.get("fdk"))
        .and_then(|fdk| fdk.value.as_str())
        .and_then(major_version);
    reading
}

/// The major version a version or range of npm's starts with: 9 of `9.3.1`, `^9.0.0`, `>=9`.
fn major_version(version: &str) -> Option<u32> {
    let version = version.trim_start_matches(|c: char| !c.is_ascii_digit());
    let digits = version
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(version.len());
    version[..digits].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn platforms_products_and_modules() {
        let two = read(
            r#"{"platform-version": "2.3", "product": {"freshdesk": {}, "freshservice": {}}}"#,
        );
        assert_eq!(two.manifest.platform, Some(Platform { major: 2, minor: 3 }));
        assert_eq!(
            two.manifest
                .products
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>(),
            ["freshdesk", "freshservice"]
        );
        let three =
            read(r#"{"platform-version": "3.0", "modules": {"common": {}, "support_ticket": {}}}"#);
        assert!(three.manifest.platform.unwrap().is_modular());
        assert_eq!(three.manifest.modules.len(), 2);
        assert!(three.problems.is_empty());
    }

    #[test]
    fn declared_requests_and_whitelisted_domains() {
        let two = read(
            r#"{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"a": {}}}, "freshservice": {"requests": {"b": {}}}}, "whitelisted-domains": ["https://*.example.com", 4]}"#,
        );
        let names = |m: &Manifest| {
            m.requests
                .iter()
                .map(|r| r.name.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&two.manifest), ["a", "b"]);
        assert_eq!(
            two.manifest.whitelisted_domains.as_ref().map(Vec::len),
            Some(1)
        );
        let three = read(
            r#"{"platform-version": "3.0", "modules": {"common": {"requests": {"c": {}}}, "support_ticket": {"requests": {"d": {}}}}}"#,
        );
        assert_eq!(names(&three.manifest), ["c"]);
        assert!(three.manifest.declares_request("c"));
        assert_eq!(three.manifest.whitelisted_domains, None);
    }

    #[test]
    fn the_fdk_of_engines() {
        let fdk = |manifest: &str| read(manifest).manifest.fdk;
        assert_eq!(
            fdk(r#"{"engines": {"node": "18.x", "fdk": "9.3.1"}}"#),
            Some(9)
        );
        assert_eq!(fdk(r#"{"engines": {"fdk": "^10.0.1"}}"#), Some(10));
        assert_eq!(fdk(r#"{"engines": {"fdk": ">= 8.3"}}"#), Some(8));
        assert_eq!(fdk(r#"{"engines": {"fdk": "latest"}}"#), None);
        assert_eq!(fdk(r#"{"engines": {"node": "18"}}"#), None);
        assert_eq!(fdk(r#"{"platform-version": "2.3"}"#), None);
    }

    #[test]
    fn problems() {
        assert_eq!(
            read("{}").problems,
            [ManifestProblem::MissingPlatformVersion]
        );
        assert!(matches!(
            read(r#"{"platform-version": "9"}"#).problems[..],
            [ManifestProblem::UnknownPlatformVersion { .. }]
        ));
        assert!(matches!(
            read(r#"{"platform-version": 2.3}"#).problems[..],
            [ManifestProblem::UnknownPlatformVersion { .. }]
        ));
        assert!(!read("{").syntax_errors.is_empty());
    }

    #[test]
    fn another_sdk_is_recognised() {
        let sparrow = read(r#"{"platform-version": "1.0", "product": {"surveysparrow": {}}}"#);
        assert_eq!(sparrow.manifest.foreign, Some("SurveySparrow"));
        assert!(sparrow.problems.is_empty());
        assert_eq!(sparrow.manifest.platform, None);
        assert_eq!(
            read(r#"{"platform-version": "2.3"}"#).manifest.foreign,
            None
        );
    }
}
