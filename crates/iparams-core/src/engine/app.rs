//! One app: iparams.json with the rules that can use the app, and the app's other files with
//! the rules about them.

use super::finish::finish;
use super::report::FileReport;
use super::{Linter, check_reading, enabled_checks};
use crate::app::manifest;
use crate::app::{
    AppFile, AppInput, AppModel, FileId, JsFacts, Script, facts_of, js, template_reads,
};
use crate::reading::{FileKind, Reading};
use crate::rules::{AppContext, Check, Context, RuleSettings};
use crate::source::SourceText;
use crate::span::LineIndex;
use crate::syntax::SyntaxError;

/// One file's findings, with its text for code frames.
#[derive(Debug)]
pub struct CheckedSource<'a> {
    pub path: String,
    pub source: SourceText<'a>,
    pub report: FileReport,
}

/// The files of the app, with what was found in each.
struct Files<'a> {
    paths: Vec<String>,
    sources: Vec<SourceText<'a>>,
    reports: Vec<FileReport>,
}

impl<'a> Files<'a> {
    fn add(&mut self, path: &str, bytes: &'a [u8]) -> FileId {
        self.paths.push(path.to_owned());
        self.sources.push(SourceText::decode(bytes));
        self.reports.push(FileReport {
            well_formed: true,
            ..FileReport::default()
        });
        self.paths.len() - 1
    }
}

impl Linter {
    /// Checks one app: iparams.json with every rule that can use the app, and the app's other
    /// files with the rules about them. Returns a report per file, in the order of the input.
    pub fn check_app<'a>(
        &mut self,
        input: &AppInput<'a>,
        rules: &RuleSettings,
    ) -> Vec<CheckedSource<'a>> {
        let mut files = Files {
            paths: Vec::new(),
            sources: Vec::new(),
            reports: Vec::new(),
        };
        let manifest_file = files.add(input.manifest.path, input.manifest.bytes);
        let config_folder = files.add(input.config_folder, b"");

        let manifest_reading = manifest::read(files.sources[manifest_file].text());
        files.reports[manifest_file] = self.check_manifest_reading(
            &files.sources[manifest_file],
            &manifest_reading.syntax_errors,
            rules,
        );

        let callbacks = input.callbacks.map(|file| {
            let id = files.add(file.path, file.bytes);
            (
                id,
                js::analyze(files.sources[id].text(), file.path, 0, Script::Callbacks),
            )
        });
        let facts = facts_of(
            &manifest_reading,
            callbacks.as_ref().map(|(_, facts)| facts),
        );

        let (iparams_file, declared, iparams_complete) = match input.iparams {
            Some(file) => {
                let id = files.add(file.path, file.bytes);
                let (report, declared) = self.lint_in_app(&files.sources[id], rules, &facts);
                let complete = report.read_to_end;
                files.reports[id] = report;
                (Some(id), declared, complete)
            }
            None => (None, Vec::new(), false),
        };
        let scripts = |files: &mut Files<'a>,
                       list: &[AppFile<'a>],
                       script: Script|
         -> Vec<(FileId, JsFacts)> {
            list.iter()
                .map(|file| {
                    let id = files.add(file.path, file.bytes);
                    (
                        id,
                        js::analyze_file(files.sources[id].text(), file.path, script),
                    )
                })
                .collect()
        };
        let frontend = scripts(&mut files, &input.frontend, Script::Frontend);
        let serverless = scripts(&mut files, &input.serverless, Script::Serverless);
        let templates = input
            .templates
            .iter()
            .map(|file| {
                let id = files.add(file.path, file.bytes);
                (id, template_reads(files.sources[id].text()))
            })
            .collect();

        let model = AppModel {
            facts: &facts,
            manifest: &manifest_reading,
            manifest_file,
            config_folder,
            config_entries: &input.config_entries,
            iparams_file,
            declared,
            iparams_complete,
            callbacks,
            frontend,
            serverless,
            templates,
            paths: files.paths.clone(),
            sources: &files.sources,
            iparams_lines: iparams_file.map(|id| LineIndex::new(files.sources[id].text())),
        };
        let mut cx = AppContext::new(files.paths.len());
        for check in enabled_checks(rules) {
            if let Check::App(check) = check {
                check(&model, &mut cx);
            }
        }
        drop(model);
        for (id, findings) in cx.findings.into_iter().enumerate() {
            let report = &mut files.reports[id];
            let mut diagnostics = std::mem::take(&mut report.diagnostics);
            diagnostics.extend(findings);
            report.diagnostics = finish(diagnostics, rules);
        }
        files
            .paths
            .into_iter()
            .zip(files.sources)
            .zip(files.reports)
            .map(|((path, source), report)| CheckedSource {
                path,
                source,
                report,
            })
            .collect()
    }

    /// The findings of reading manifest.json: its encoding and syntax.
    fn check_manifest_reading(
        &mut self,
        source: &SourceText<'_>,
        errors: &[SyntaxError],
        rules: &RuleSettings,
    ) -> FileReport {
        let mut cx = Context::new(source.text(), &mut self.regexes);
        let reading = Reading {
            kind: FileKind::Manifest,
            problems: &source.problems,
            errors: Some(errors),
            // Its top level is the manifest rules' business.
            root: None,
        };
        check_reading(&reading, rules, &mut cx);
        FileReport {
            well_formed: errors.is_empty() && source.problems.is_empty(),
            diagnostics: finish(cx.diagnostics, rules),
            ..FileReport::default()
        }
    }
}
