//! `duplicate-display-name`: two fields with the same label.

use std::borrow::Cow;

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam, IparamType};
use crate::rules::framework::{Area, Check, Context, Examples, FileCheck, Rule, same_check};
use crate::rules::helpers::{PackedSpan, fnv, repeats, string_at};
use crate::secrets;

pub static RULE: Rule = Rule {
    name: "duplicate-display-name",
    severity: Severity::Warning,
    area: Area::Keys,
    summary: "Two iparams have the same `display_name`",
    docs: r#"`display_name` is the label of the field on the installation page. Two fields with
the same label (ignoring case and surrounding spaces) cannot be told apart by the installer, who may
fill one with the other's value: an API key where the domain was expected. Give each field a label
of its own. Blank labels are `empty-display-name`'s; repeated keys are `duplicate-key`'s. Two
`domain` iparams of different products are not reported: the page shows each product's domain after
its field (`.freshdesk.com`, `.freshservice.com`)."#,
    bad: r#"{
  "source_key": {"display_name": "API key", "type": "text", "secure": true},
  "target_key": {"display_name": "API key", "type": "text", "secure": true}
}
"#,
    good: r#"{
  "source_key": {"display_name": "Source API key", "type": "text", "secure": true},
  "target_key": {"display_name": "Target API key", "type": "text", "secure": true}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::File(|| Box::<DuplicateDisplayName>::default())],
};

/// One labelled iparam. Kept for every iparam of a file until its end (50,000 on a large file),
/// so it holds no text, in 32 bytes: the hash of its label, and where its label, key and
/// product are, read again from the source for the few iparams whose hashes are equal.
struct Labelled {
    /// [`label_hash`] of the label.
    hash: u64,
    /// The `display_name` string, quotes included.
    label: PackedSpan,
    /// The key, as written.
    key: PackedSpan,
    /// The product string of a `domain` iparam, or [`PackedSpan::NONE`]: the page shows its domain
    /// after the field (`.freshdesk.com`), so two domains of different products can be told
    /// apart.
    domain_of: PackedSpan,
}

/// What two labels are compared by: trimmed, in lower case.
fn normalized(label: &str) -> String {
    label.trim().to_lowercase()
}

/// The hash of the [`normalized`] label, without making it for an ASCII label.
fn label_hash(label: &str) -> u64 {
    let label = label.trim();
    if label.is_ascii() {
        fnv(label.bytes().map(|byte| byte.to_ascii_lowercase()))
    } else {
        fnv(normalized(label).bytes())
    }
}

#[derive(Default)]
struct DuplicateDisplayName {
    labelled: Vec<Labelled>,
}

impl FileCheck for DuplicateDisplayName {
    fn iparam(&mut self, iparam: &Iparam<'_, '_>, _cx: &mut Context<'_>) {
        let Some(name) = iparam.string(Attribute::DisplayName) else {
            return;
        };
        if name.text.trim().is_empty() {
            return;
        }
        let domain_of = iparam
            .product
            .filter(|_| iparam.known_type() == Some(IparamType::Domain));
        self.labelled.push(Labelled {
            hash: label_hash(name.text),
            label: PackedSpan::of(name.span),
            key: PackedSpan::of(iparam.key.span),
            domain_of: domain_of.map_or(PackedSpan::NONE, |product| PackedSpan::of(product.span)),
        });
    }

    fn append(&mut self, later: Box<dyn FileCheck>) {
        let later = same_check::<Self>(later);
        self.labelled.extend(later.labelled);
    }

    fn finish(&mut self, cx: &mut Context<'_>) {
        let labelled = &self.labelled;
        let text = cx.text();
        let text_at = |place: PackedSpan| string_at(text, place.span());
        let pairs = repeats(
            labelled.len(),
            |index| labelled[index].hash,
            |index| normalized(&text_at(labelled[index].label)),
        );
        for (later, earlier) in pairs {
            let (earlier, later) = (&labelled[earlier as usize], &labelled[later as usize]);
            // A key repeated whole is `duplicate-key`'s: the last one is the one that applies.
            let (earlier_key, key) = (text_at(earlier.key), text_at(later.key));
            let told_apart = earlier.domain_of != PackedSpan::NONE
                && later.domain_of != PackedSpan::NONE
                && text_at(earlier.domain_of) != text_at(later.domain_of);
            if earlier_key == key || told_apart {
                continue;
            }
            let shown = cx.source(later.label.span());
            // Found at the end of the file, this finding is not masked with its iparam's
            // secrets: a label shaped like a credential is masked here.
            let shown = if secrets::looks_secret(&text_at(later.label)) {
                Cow::Borrowed(secrets::MASKED)
            } else {
                crate::suggest::shortened(shown)
            };
            cx.report(
                &RULE,
                later.label.span(),
                format!("Iparams `{earlier_key}` and `{key}` have the same label {shown}"),
            )
            .label("same label")
            .related(earlier.label.span(), format!("`{earlier_key}` has it too"))
            .help("The installer cannot tell the two fields apart. Give each a label of its own.")
            .pointer(pointer_of(&key));
        }
    }
}

/// The pointer of an iparam's `display_name`, as `Iparam::pointer_of` makes it.
fn pointer_of(key: &str) -> String {
    crate::pointer::of_tokens([key, Attribute::DisplayName.name()])
}

#[cfg(test)]
mod tests {
    /// The messages of this rule's findings on `text`.
    fn found(text: &str) -> Vec<String> {
        crate::engine::lint(text.as_bytes())
            .diagnostics
            .into_iter()
            .filter(|finding| finding.rule == super::RULE.name)
            .map(|finding| format!("{} {}", finding.message, finding.pointer))
            .collect()
    }

    #[test]
    fn labels_and_keys_are_read_back_from_the_source_escapes_resolved() {
        let text = r#"{
  "a\u0062c": {"display_name": "\u00c9t\u00e9 key", "type": "text"},
  "other": {"display_name": "Other", "type": "text"},
  "x/y": {"display_name": "  ÉTÉ KEY ", "type": "text"}
}"#;
        assert_eq!(
            found(text),
            ["Iparams `abc` and `x/y` have the same label \"  ÉTÉ KEY \" /x~1y/display_name"]
        );
    }

    #[test]
    fn domains_of_different_products_are_told_apart() {
        let domain = |key: &str, product: &str| {
            format!(
                r#""{key}": {{"display_name": "Domain", "type": "domain", "type_attributes": {{"product": "{product}"}}}}"#
            )
        };
        let text = format!(
            "{{{}, {}, {}}}",
            domain("desk", "freshdesk"),
            domain("service", "freshservice"),
            domain("desk_again", "freshdesk")
        );
        assert_eq!(
            found(&text),
            [
                "Iparams `desk` and `desk_again` have the same label \"Domain\" /desk_again/display_name"
            ]
        );
    }

    #[test]
    fn a_key_repeated_whole_is_left_to_duplicate_key() {
        let text = r#"{"k": {"display_name": "A", "type": "text"}, "k": {"display_name": "a", "type": "text"}}"#;
        assert!(found(text).is_empty());
    }
}
