//! The outline of iparams.json: what each iparam declares, as the app's cross-file rules read it
//! and as the command's front-ends show it (hover, completion, navigation, the installation
//! page, the credential check). Built from the typed model ([`Iparam`]), so that a repeated
//! attribute counts as `JSON.parse` keeps it: the last one.

use std::collections::{HashMap, HashSet};

use crate::model::{Attribute, Iparam, IparamType};
use crate::pointer;
use crate::span::Span;
use crate::syntax::parse_document;

/// A `change` handler named in iparams.json.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handler {
    /// The event's name, as written (`change`).
    pub event: String,
    /// The function's name, as written.
    pub name: String,
    /// Where the function's name is, quotes included.
    pub span: Span,
    /// The JSON pointer of the name: `/<key>/events/<index>/<event>`.
    pub pointer: String,
}

/// What one iparam of iparams.json declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    /// The key, unescaped.
    pub key: String,
    /// Where the key is, quotes included (`key_span.inner()` is the key's text).
    pub key_span: Span,
    /// `type`, when it names a known type.
    pub ty: Option<IparamType>,
    /// `type` as written, when it is a string: an unknown type too.
    pub type_name: Option<String>,
    /// `display_name`, when it is a string.
    pub display_name: Option<String>,
    /// `secure` is `true`.
    pub secure: bool,
    /// `visible` is not `false`: the installation page shows the field.
    pub visible: bool,
    /// The string elements of `options`, in order.
    pub options: Vec<String>,
    /// The handlers `events` names, in order.
    pub handlers: Vec<Handler>,
    /// `type_attributes.product`, when it is a string (`domain` and `api_key` iparams).
    pub product: Option<String>,
    /// What the platform fills it with (`product.api_key`): its `data-bind`, or on a custom
    /// page the `data-bind` of the field its value is read from.
    pub data_bind: Option<String>,
}

impl Declared {
    /// What `iparam` declares.
    pub fn of(iparam: &Iparam<'_, '_>) -> Self {
        let mut handlers = Vec::new();
        let entries = iparam
            .get(Attribute::Events)
            .and_then(|m| m.value.as_array())
            .unwrap_or_default();
        for (index, entry) in entries.iter().enumerate() {
            for pair in entry.as_object().unwrap_or_default() {
                if let Some(name) = pair.value.as_str() {
                    handlers.push(Handler {
                        event: pair.key.text.to_string(),
                        name: name.to_owned(),
                        span: pair.value.span,
                        pointer: iparam.pointer_to(&[
                            Attribute::Events.name(),
                            &index.to_string(),
                            &pair.key.text,
                        ]),
                    });
                }
            }
        }
        let text = |attribute| iparam.string(attribute).map(|text| text.text.to_owned());
        Declared {
            key: iparam.key.text.to_string(),
            key_span: iparam.key.span,
            ty: iparam.known_type(),
            type_name: text(Attribute::Type),
            // Shown by editors and pages: a label shaped like a credential is not.
            display_name: iparam.string(Attribute::DisplayName).map(|label| {
                if iparam.masks(&label) {
                    crate::secrets::MASKED_TEXT.to_owned()
                } else {
                    label.text.to_owned()
                }
            }),
            secure: iparam.is_secure(),
            visible: iparam.flag(Attribute::Visible) != Some(false),
            options: iparam
                .options
                .iter()
                .flatten()
                .map(|option| option.text.to_owned())
                .collect(),
            handlers,
            product: iparam.product.map(|product| product.text.to_owned()),
            data_bind: iparam
                .string(Attribute::DataBind)
                .filter(|bind| !iparam.masks(bind))
                .map(|bind| bind.text.to_owned()),
        }
    }

    /// An iparam known by its key alone, as a custom page stores one: no type, label, options
    /// or handlers, shown, not secure.
    pub fn of_key(key: &str) -> Self {
        Declared {
            key: key.to_owned(),
            key_span: Span::default(),
            ty: None,
            type_name: None,
            display_name: None,
            secure: false,
            visible: true,
            options: Vec::new(),
            handlers: Vec::new(),
            product: None,
            data_bind: None,
        }
    }

    /// The JSON pointer of its member in iparams.json, made when a finding needs it.
    pub fn pointer(&self) -> String {
        pointer::of_key(&self.key)
    }
}

/// The outline of one iparams.json.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    /// One entry per top-level member, in file order: a repeated key once per member.
    pub iparams: Vec<Declared>,
    /// The file was read to its end (no syntax error stopped the parser), so `iparams` lists
    /// every iparam it has.
    pub complete: bool,
}

impl Outline {
    /// The outline of iparams.json's `text`: what can be read of it, whatever its mistakes
    /// (none when its top level is not an object).
    pub fn of(text: &str) -> Self {
        let mut iparams = Vec::new();
        let document = parse_document(text, |member| {
            iparams.push(Declared::of(&Iparam::lower(&member)));
        });
        Outline {
            iparams,
            complete: !document.is_incomplete(),
        }
    }

    /// The iparam `key` as `JSON.parse` keeps it: the last member with that key.
    pub fn get(&self, key: &str) -> Option<&Declared> {
        self.iparams
            .iter()
            .rev()
            .find(|declared| declared.key == key)
    }

    /// Each key once, as `JSON.parse` keeps them: at the place of its first member, declared as
    /// its last.
    pub fn unique(&self) -> Vec<&Declared> {
        unique(&self.iparams)
    }
}

/// Each key of `declared` once, as `JSON.parse` keeps them: at the place of its first member,
/// declared as its last.
pub fn unique(declared: &[Declared]) -> Vec<&Declared> {
    // One pass for the last member of each key, one for the first: not a look from the end
    // for every key.
    let last: HashMap<&str, &Declared> = declared
        .iter()
        .map(|declared| (declared.key.as_str(), declared))
        .collect();
    let mut seen = HashSet::new();
    declared
        .iter()
        .filter(|declared| seen.insert(declared.key.as_str()))
        .map(|first| last[first.key.as_str()])
        .collect()
}

/// The credentials of an installation page: each `domain` iparam of `iparams` (in their order)
/// paired with the first `api_key` iparam of the same product (`type_attributes.product`; a
/// missing one is the empty one) that no earlier domain took. A key listed twice with the same
/// product counts once; a domain without a key of its product is left out.
pub fn credential_pairs<'d>(
    iparams: impl IntoIterator<Item = &'d Declared>,
) -> Vec<(&'d Declared, &'d Declared)> {
    let mut domains: Vec<&Declared> = Vec::new();
    let mut keys: Vec<&Declared> = Vec::new();
    let same = |a: &Declared, b: &Declared| a.key == b.key && product(a) == product(b);
    for declared in iparams {
        let list = match declared.ty {
            Some(IparamType::Domain) => &mut domains,
            Some(IparamType::ApiKey) => &mut keys,
            _ => continue,
        };
        if !list.iter().any(|known| same(known, declared)) {
            list.push(declared);
        }
    }
    let mut taken = vec![false; keys.len()];
    let mut pairs = Vec::new();
    for domain in domains {
        let Some(index) =
            (0..keys.len()).find(|&i| !taken[i] && product(keys[i]) == product(domain))
        else {
            continue;
        };
        taken[index] = true;
        pairs.push((domain, keys[index]));
    }
    pairs
}

/// The product of a `domain` or `api_key` iparam, for pairing: a missing one is the empty one.
fn product(declared: &Declared) -> &str {
    declared.product.as_deref().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"{
      "hr_domain": {"display_name": "Domain", "type": "domain", "type_attributes": {"product": "freshteam"}},
      "hr_key": {"type": "api_key", "secure": true, "type_attributes": {"product": "freshteam"}},
      "region": {"type": "dropdown", "options": ["eu", 3, "us"], "visible": false, "type": "txt"},
      "desk_domain": {"type": "domain", "type_attributes": {"product": "freshdesk"}},
      "hr_domain": {"type": "domain", "type_attributes": {"product": "freshteam"}}
    }"#;

    #[test]
    fn what_each_member_declares_as_json_parse_keeps_it() {
        let outline = Outline::of(TEXT);
        assert!(outline.complete);
        let keys: Vec<&str> = outline.iparams.iter().map(|d| d.key.as_str()).collect();
        assert_eq!(
            keys,
            ["hr_domain", "hr_key", "region", "desk_domain", "hr_domain"]
        );
        let region = outline.get("region").expect("region");
        assert_eq!(region.ty, None);
        assert_eq!(region.type_name.as_deref(), Some("txt"));
        assert_eq!(region.options, ["eu", "us"]);
        assert!(!region.visible);
        assert_eq!(
            &TEXT[region.key_span.inner().start..region.key_span.inner().end],
            "region"
        );
        assert!(outline.get("hr_key").expect("hr_key").secure);
        // The last `hr_domain` wins, at the place of the first.
        assert_eq!(
            outline.get("hr_domain").expect("hr_domain").display_name,
            None
        );
        let unique: Vec<&str> = outline.unique().iter().map(|d| d.key.as_str()).collect();
        assert_eq!(unique, ["hr_domain", "hr_key", "region", "desk_domain"]);
        assert_eq!(outline.unique()[0].display_name, None);
    }

    #[test]
    fn a_label_shaped_like_a_credential_is_not_given_out() {
        let outline = Outline::of(
            r#"{"a": {"display_name": "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "type": "text"},
                "b": {"display_name": "GitHub token", "type": "text"}}"#,
        );
        let labels: Vec<_> = outline
            .iparams
            .iter()
            .map(|d| d.display_name.as_deref())
            .collect();
        assert_eq!(labels, [Some("********"), Some("GitHub token")]);
    }

    #[test]
    fn what_a_broken_file_has_before_its_mistake() {
        let outline = Outline::of(r#"{"a": {"type": "text"}, "b": {"type": "#);
        assert!(!outline.complete);
        assert_eq!(outline.iparams[0].key, "a");
        assert_eq!(Outline::of("[1, 2]").iparams, []);
    }

    #[test]
    fn domains_pair_with_the_first_free_key_of_their_product() {
        let outline = Outline::of(TEXT);
        let pairs: Vec<(&str, &str)> = credential_pairs(&outline.iparams)
            .into_iter()
            .map(|(domain, key)| (domain.key.as_str(), key.key.as_str()))
            .collect();
        // The second `hr_domain` is the first again; `desk_domain` has no key of its product.
        assert_eq!(pairs, [("hr_domain", "hr_key")]);
    }
}
