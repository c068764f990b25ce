//! `other-platform`: an iparams.json written for another vendor's SDK on the same framework.

use crate::app::manifest::{FOREIGN_SDKS, foreign_product};
use crate::diagnostic::Severity;
use crate::model::Iparam;
use crate::rules::framework::{Area, Check, Context, Examples, FileCheck, Rule, same_check};
use crate::span::Span;

pub static RULE: Rule = Rule {
    name: "other-platform",
    severity: Severity::Info,
    area: Area::Products,
    summary: "The app is written for another SDK on the same framework (SurveySparrow): its platform is not checked",
    docs: r#"Other vendors build app SDKs on the same framework: SurveySparrow's apps declare
`"platform-version": "1.0"` in manifest.json and name `surveysparrow` as the product of their
`api_key` iparams. Their products, platform versions, types and modules are not the vendor's, and
their rules are not known here, so instead of reporting each of them as unknown (every `api_key`'s
product, the manifest's platform version), this says once what is and is not checked.

Still checked: JSON syntax, keys and attributes and their types, defaults against their types and
options, regexes, secrets and credentials, duplicate labels. Not checked: products, platform
versions, types and data-bind values against a platform, and modules."#,
    bad: r#"{
  "surveysparrow_api_key": {"display_name": "SurveySparrow API key", "type": "api_key", "secure": true, "required": true, "type_attributes": {"product": "surveysparrow"}}
}
"#,
    good: r#"{
  "freshdesk_api_key": {"display_name": "Freshdesk API key", "type": "api_key", "secure": true, "required": true, "type_attributes": {"product": "freshdesk"}}
}
"#,
    examples: Examples::Iparams,
    vendor: r#"The vendor's validator does not know these apps: it rejects their manifest's
platform version."#,
    fix: None,
    checks: &[Check::File(|| Box::<OtherPlatform>::default())],
};

#[derive(Default)]
struct OtherPlatform {
    /// The first product of another SDK, and that SDK's name.
    first: Option<(Span, &'static str, String)>,
}

impl FileCheck for OtherPlatform {
    fn iparam(&mut self, iparam: &Iparam<'_, '_>, _cx: &mut Context<'_>) {
        if self.first.is_some() {
            return;
        }
        if let Some(product) = iparam.product
            && let Some(sdk) = foreign_product(product.text)
        {
            self.first = Some((
                product.span,
                sdk.name,
                iparam.pointer_to(&["type_attributes", "product"]),
            ));
        }
    }

    fn append(&mut self, later: Box<dyn FileCheck>) {
        let later = same_check::<Self>(later);
        if self.first.is_none() {
            self.first = later.first;
        }
    }

    fn finish(&mut self, cx: &mut Context<'_>) {
        let from_manifest = cx.app().and_then(|app| app.foreign);
        let (span, name, pointer, because) = match (&self.first, from_manifest) {
            (Some((span, name, pointer)), _) => (
                *span,
                *name,
                pointer.clone(),
                format!("names a product of {name}'s SDK"),
            ),
            (None, Some(name)) => (
                Span::at(0),
                name,
                String::new(),
                format!("belongs to an app whose manifest.json is for {name}'s SDK"),
            ),
            (None, None) => return,
        };
        let platform = FOREIGN_SDKS
            .iter()
            .find(|sdk| sdk.name == name)
            .map_or(String::new(), |sdk| format!(" (platform {})", sdk.platform));
        cx.report(
            &RULE,
            span,
            format!("This iparams.json {because}{platform}, not the vendor's platform"),
        )
        .label(format!("{name}'s SDK"))
        .help(
            "Its products, platform version, types and modules are that SDK's, whose rules are not \
             known here: they are not checked. Still checked: JSON syntax, keys and attributes, \
             defaults, options, regexes, secrets and credentials.",
        )
        .pointer(pointer);
    }
}
