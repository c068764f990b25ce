//! Running the examples of the rule docs, so `explain` can show what they report and tests can
//! prove them: an iparams.json, a whole app written as `=== path ===` sections, or a values file
//! for the rule's example iparams.json.

use super::app::CheckedSource;
use super::linter::Linter;
use crate::app::{AppInput, IparamsSource, example_files};
use crate::rules::{Rule, RuleSettings};
use crate::source::SourceText;

impl Linter {
    /// Checks the failing example of `rule`, or its passing one.
    pub fn check_example(&mut self, rule: &Rule, passing: bool) -> Vec<CheckedSource<'static>> {
        let example = if passing { rule.good } else { rule.bad };
        if let Some((bad, good)) = rule.example_definitions() {
            let definitions = if passing { good } else { bad };
            let values = SourceText::decode(example.as_bytes());
            // The definitions of an app written as files: its custom page's iparams.
            let files = example_files(definitions);
            let page = AppInput::from_example(&files)
                .filter(|app| app.iparams_source() == IparamsSource::Page)
                .map(|app| self.check_app(&app, &RuleSettings::default()).summary);
            let report = match page.map(|summary| summary.declarations) {
                Some(page) => self.with_own_rules(|linter, rules| {
                    linter.check_page_values_with(&page, &values, rules)
                }),
                None => self.check_values(
                    &SourceText::decode(definitions.as_bytes()),
                    &values,
                    "config/iparams.json",
                ),
            };
            return vec![CheckedSource {
                relative: "values.json".to_owned(),
                path: "values.json".to_owned(),
                source: values,
                report,
            }];
        }
        let files = example_files(example);
        match AppInput::from_example(&files) {
            Some(input) => self.check_app(&input, &RuleSettings::default()).files,
            None => {
                let source = SourceText::decode(example.as_bytes());
                let report = self.lint(&source);
                vec![CheckedSource {
                    relative: "config/iparams.json".to_owned(),
                    path: "config/iparams.json".to_owned(),
                    source,
                    report,
                }]
            }
        }
    }
}
