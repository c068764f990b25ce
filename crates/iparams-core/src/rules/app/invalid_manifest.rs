//! `invalid-manifest`: a manifest.json the platform checks cannot use.

use crate::app::manifest::KNOWN_PLATFORMS;
use crate::app::{AppModel, ManifestProblem};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::span::Span;

pub static RULE: Rule = Rule {
    name: "invalid-manifest",
    severity: Severity::Error,
    area: Area::App,
    summary: "manifest.json has no usable `platform-version`",
    docs: r#"The platform version in manifest.json decides which iparam types and attributes
exist (`domain` and `api_key` on 2.x, `modules` on 3.x). Without it, or with one that is not a
platform version (2.0 to 2.3, 3.0, 3.1), the app cannot be packed, and the platform-aware checks of
iparams.json are skipped. JSON syntax mistakes in manifest.json are `invalid-json` findings."#,
    bad: r#"=== manifest.json ===
{"product": {"freshdesk": {}}}
=== config/iparams.json ===
{}
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{}
"#,
    examples: Examples::App,
    vendor: "Rejects the app (FDK 6.9 accepts platform-version 2.0 and 2.1 only).",
    fix: None,
    checks: &[Check::App(check)],
};

const SKIPPED: &str = "Until it is fixed, the checks that depend on the platform are skipped.";

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let file = model.manifest_file;
    for problem in &model.manifest.problems {
        let (span, message, help) = match problem {
            ManifestProblem::NotAnObject(span) => (
                *span,
                "manifest.json is not an object".to_owned(),
                SKIPPED.to_owned(),
            ),
            ManifestProblem::MissingPlatformVersion => (
                Span::at(0),
                "manifest.json has no `platform-version`".to_owned(),
                format!(
                    "Add `\"platform-version\": \"2.3\"` (or the version the app is written for). {SKIPPED}"
                ),
            ),
            ManifestProblem::UnknownPlatformVersion { found, span } => (
                *span,
                format!("`platform-version` {found} is not a platform version"),
                format!(
                    "Write one of {} as a string. {SKIPPED}",
                    crate::suggest::quoted_list(KNOWN_PLATFORMS)
                ),
            ),
        };
        cx.report(file, &RULE, span, message)
            .label("no platform")
            .help(help);
    }
}
