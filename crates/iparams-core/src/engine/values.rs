//! A values file checked against its iparams.json, as the installation page checks what an
//! installer enters.

use super::checks::{check_reading, enabled_checks};
use super::finish::{finish, mask_secrets};
use super::linter::Linter;
use super::report::FileReport;
use crate::app::Declarations;
use crate::app::page_functions::META;
use crate::model::walk_scalars;
use crate::reading::{FileKind, Reading};
use crate::rules::{Check, Context, RuleSettings};
use crate::source::SourceText;
use crate::syntax::{RootShape, Value, parse_value};
use crate::values::{
    Answer, Definitions, DefinitionsFile, ReadDefinitions, Unusable, ValuesFile, last_values,
    read_definitions, secret_spans, stored_secure,
};

impl Linter {
    /// Checks the values file `values` against the iparams.json `definitions` (shown as
    /// `definitions_path` in messages), with the linter's options.
    pub fn check_values(
        &mut self,
        definitions: &SourceText<'_>,
        values: &SourceText<'_>,
        definitions_path: &str,
    ) -> FileReport {
        self.with_own_rules(|linter, rules| {
            linter.check_values_with(definitions, values, definitions_path, rules)
        })
    }

    /// [`Linter::check_values`] with `rules` in place of the linter's own.
    pub fn check_values_with(
        &mut self,
        definitions: &SourceText<'_>,
        values: &SourceText<'_>,
        definitions_path: &str,
        rules: &RuleSettings,
    ) -> FileReport {
        let definitions = Definitions::Json {
            source: definitions,
            path: definitions_path,
        };
        self.check_values_against(definitions, values, rules)
    }

    /// Checks the values file `values` against the iparams a custom installation page stores:
    /// unknown keys, keys it lacks, and secure values masked. When the page's keys are not all
    /// known, the values are not checked against a guess, and one finding says so.
    pub fn check_page_values_with(
        &mut self,
        page: &Declarations,
        values: &SourceText<'_>,
        rules: &RuleSettings,
    ) -> FileReport {
        self.check_values_against(Definitions::Page(page), values, rules)
    }

    /// The values checked against `definitions`.
    pub fn check_values_against(
        &mut self,
        definitions: Definitions<'_>,
        values: &SourceText<'_>,
        rules: &RuleSettings,
    ) -> FileReport {
        let file = match definitions {
            Definitions::Json { source, path } => DefinitionsFile::new(source.text(), path),
            Definitions::Page(page) => {
                let shown = page.file.as_ref().map_or("", |file| file.shown.as_str());
                DefinitionsFile::of_page(shown, &page.sometimes)
            }
        };
        let text = values.text();
        let mut cx = Context::new(text, &mut self.regexes);
        let mut report = FileReport::default();
        let parsed = (!values.is_unreadable()).then(|| parse_value(text));
        let (root, errors) = match &parsed {
            Some((root, errors)) => (root.as_ref(), Some(errors.as_slice())),
            None => (None, None),
        };
        let reading = Reading {
            kind: FileKind::Values,
            problems: &values.problems,
            errors,
            root: root.map(|root| match root.as_object() {
                Some(_) => RootShape::Object(root.span),
                None => RootShape::Other(root.json_kind(), root.span),
            }),
        };
        check_reading(&reading, rules, &mut cx);
        report.well_formed = reading.is_well_formed();
        if let Some(root) = root.filter(|root| root.as_object().is_none()) {
            // Not an object of values, so which are secure cannot be told: none is shown.
            walk_scalars(root, &mut |value| report.redactions.push(value.span));
        }
        if let Some(root) = root.filter(|root| root.as_object().is_some()) {
            let read = read_definitions(definitions);
            check_object(root, &file, read.as_ref(), rules, &mut cx, &mut report);
        }
        report.diagnostics = finish(cx.diagnostics, rules);
        report.redactions.sort_unstable();
        report.redactions.dedup();
        // The last line of defence: a finding about the file's syntax quotes what it read (an
        // unquoted secure value), and no rule of a value's own masks it.
        mask_secrets(&mut report.diagnostics, text, &report.redactions);
        report
    }
}

/// Checks the values object `root` against the definitions.
fn check_object(
    root: &Value<'_>,
    file: &DefinitionsFile<'_>,
    definitions: Result<&ReadDefinitions<'_>, &Unusable>,
    rules: &RuleSettings,
    cx: &mut Context<'_>,
    report: &mut FileReport,
) {
    let members = root.as_object().unwrap_or_default();
    let secure = stored_secure(members);
    report.iparams = members.iter().filter(|m| m.key.text != META).count();
    let iparams = definitions.map(ReadDefinitions::iparams);
    match &iparams {
        Ok(iparams) => report
            .redactions
            .extend(secret_spans(members, iparams, &secure)),
        // Nothing is known of the values, so nothing of them may be shown.
        Err(_) => report
            .redactions
            .extend(members.iter().map(|m| m.value.span)),
    }
    let whole = ValuesFile {
        object: root,
        members,
        definitions: file,
        iparams: iparams.as_deref().map_err(|unusable| *unusable),
    };
    let mut value_checks = Vec::new();
    for check in enabled_checks(rules) {
        match check {
            Check::Values(check) => check(&whole, cx),
            Check::Value(check) => value_checks.push(check),
            _ => {}
        }
    }
    let Ok(iparams) = &iparams else {
        return;
    };
    let given = last_values(members);
    for iparam in iparams {
        let value = given.get(iparam.key()).map(|m| &m.value);
        let answer = Answer {
            definition: iparam,
            value,
            object: root.span,
            definitions: file,
            secret: iparam.is_secret() || secure.contains(&iparam.key()),
        };
        let first = cx.diagnostics.len();
        for check in &value_checks {
            check(&answer, cx);
        }
        if let Some(value) = value.filter(|_| answer.secret) {
            let text = cx.text();
            mask_secrets(&mut cx.diagnostics[first..], text, &[value.span]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;

    fn check(definitions: &str, values: &str) -> FileReport {
        Linter::default().check_values(
            &SourceText::decode(definitions.as_bytes()),
            &SourceText::decode(values.as_bytes()),
            "config/iparams.json",
        )
    }

    fn rules_of(report: &FileReport) -> Vec<&'static str> {
        report.diagnostics.iter().map(|d| d.rule).collect()
    }

    #[test]
    fn values_stored_as_secure_are_never_shown_and_meta_is_no_value() {
        let definitions = r#"{"region": {"display_name": "Region", "type": "dropdown", "options": ["eu", "us"]}}"#;
        let values = r#"{"region": "Zq81v0x7Wm", "__meta": {"secure": ["region"]}}"#;
        let report = check(definitions, values);
        assert_eq!(rules_of(&report), ["value-not-in-options"]);
        let shown = format!("{:?}", report.diagnostics);
        assert!(!shown.contains("Zq81v0x7Wm"), "{shown}");
        let at = values.find("\"Zq81").expect("the value");
        assert!(report.redactions.contains(&Span::new(at, at + 12)));
        assert_eq!(report.iparams, 1);
    }

    #[test]
    fn findings_point_into_the_values_and_name_the_definition() {
        let definitions = "{\n  \"region\": {\"display_name\": \"Region\", \"type\": \"dropdown\", \"options\": [\"eu\", \"us\"], \"default_value\": \"eu\"}\n}\n";
        let values = "{\"region\": \"EU\"}";
        let report = check(definitions, values);
        assert_eq!(rules_of(&report), ["value-not-in-options"]);
        let finding = &report.diagnostics[0];
        assert_eq!(&values[finding.span.start..finding.span.end], "\"EU\"");
        assert_eq!(finding.pointer, "/region");
        assert!(
            finding
                .help
                .as_deref()
                .is_some_and(|h| h.ends_with("`region` is defined at config/iparams.json:2:3.")),
            "{finding:?}"
        );
    }

    #[test]
    fn the_last_of_repeated_keys_counts_on_both_sides() {
        let definitions = r#"{"n": {"display_name": "N", "type": "text"}, "n": {"display_name": "N", "type": "number"}}"#;
        let report = check(definitions, r#"{"n": "12", "n": "twelve"}"#);
        assert_eq!(rules_of(&report), ["duplicate-key", "value-format"]);
    }

    #[test]
    fn broken_definitions_stop_the_check_with_one_finding() {
        let report = check(
            "{\"a\": {\"display_name\": \"A\", \"type\": \"text\",}}",
            r#"{"a": "x", "b": 1}"#,
        );
        assert_eq!(rules_of(&report), ["value-definitions-invalid"]);
        assert_eq!(report.diagnostics[0].span, Span::new(0, 1));
        assert!(
            report.diagnostics[0].help.as_deref().is_some_and(
                |h| h.starts_with("config/iparams.json:1:43: not valid JSON: Trailing comma.")
            ),
            "{:?}",
            report.diagnostics[0]
        );
    }

    #[test]
    fn secret_values_are_redacted_whatever_their_json_kind() {
        let definitions = r#"{"pin": {"display_name": "PIN", "type": "text", "secure": true}}"#;
        let values = r#"{"pin": 123456}"#;
        let report = check(definitions, values);
        assert_eq!(rules_of(&report), ["value-type"]);
        assert!(!report.diagnostics[0].message.contains("123456"));
        assert_eq!(report.redact(values), r#"{"pin": ******}"#);
    }
}
