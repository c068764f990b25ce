//! `duplicate-display-name`: two fields with the same label.

use std::collections::HashMap;

use crate::diagnostic::Severity;
use crate::model::{Attribute, Iparam, IparamType};
use crate::rules::{Area, Check, Context, Examples, FileCheck, Rule, same_check};
use crate::span::Span;

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

/// One labelled iparam. Kept for every iparam of a file until its end, so kept small: one
/// allocation for the label and key, the pointer made only for a finding.
struct Labelled {
    /// The label, trimmed and in lower case, then the key.
    label_and_key: Box<str>,
    label_len: usize,
    span: Span,
    /// The product of a `domain` iparam: the page shows its domain after the field
    /// (`.freshdesk.com`), so two domains of different products can be told apart.
    domain_of: Option<Box<str>>,
}

impl Labelled {
    fn label(&self) -> &str {
        &self.label_and_key[..self.label_len]
    }

    fn key(&self) -> &str {
        &self.label_and_key[self.label_len..]
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
        let label = name.text.trim();
        if label.is_empty() {
            return;
        }
        // Made at its size, so the box below takes it as it is: one allocation an iparam.
        let key = &*iparam.key.text;
        let mut label_and_key = String::with_capacity(label.len() + key.len());
        if label.is_ascii() {
            label_and_key.push_str(label);
            label_and_key.make_ascii_lowercase();
        } else {
            label_and_key.push_str(&label.to_lowercase());
        }
        let label_len = label_and_key.len();
        label_and_key.push_str(key);
        self.labelled.push(Labelled {
            label_and_key: label_and_key.into_boxed_str(),
            label_len,
            span: name.span,
            domain_of: (iparam.known_type() == Some(IparamType::Domain))
                .then(|| iparam.product.map(|p| Box::from(p.text)))
                .flatten(),
        });
    }

    fn append(&mut self, later: Box<dyn FileCheck>) {
        let later = same_check::<Self>(later);
        self.labelled.extend(later.labelled);
    }

    fn finish(&mut self, cx: &mut Context<'_>) {
        let mut first: HashMap<&str, &Labelled> = HashMap::new();
        for labelled in &self.labelled {
            // A key repeated whole is `duplicate-key`'s: the last one is the one that applies.
            let Some(earlier) = first.get(labelled.label()) else {
                first.insert(labelled.label(), labelled);
                continue;
            };
            let told_apart = matches!(
                (&earlier.domain_of, &labelled.domain_of),
                (Some(a), Some(b)) if a != b
            );
            if earlier.key() == labelled.key() || told_apart {
                continue;
            }
            let shown = cx.source(labelled.span);
            cx.report(
                &RULE,
                labelled.span,
                format!(
                    "Iparams `{}` and `{}` have the same label {}",
                    earlier.key(),
                    labelled.key(),
                    crate::suggest::shortened(shown)
                ),
            )
            .label("same label")
            .related(earlier.span, format!("`{}` has it too", earlier.key()))
            .help("The installer cannot tell the two fields apart. Give each a label of its own.")
            .pointer(pointer_of(labelled.key()));
        }
    }
}

/// The pointer of an iparam's `display_name`, as `Iparam::pointer_of` makes it.
fn pointer_of(key: &str) -> String {
    let mut pointer = crate::pointer::of_key(key);
    crate::pointer::push(&mut pointer, Attribute::DisplayName.name());
    pointer
}
