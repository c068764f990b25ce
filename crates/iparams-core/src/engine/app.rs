//! One app: iparams.json with the rules that can use the app, and the app's other files with
//! the rules about them.

use super::checks::{check_reading, enabled_checks};
use super::finish::{finish, mask_secrets};
use super::linter::Linter;
use super::report::FileReport;
use crate::app::manifest;
use crate::app::{
    AppFile, AppInput, AppModel, FileId, InstallPage, JsFacts, Loadable, Requests, RequestsFile,
    Script, facts_of, js, template_reads,
};
use crate::reading::{FileKind, Reading};
use crate::rules::{AppContext, Check, Context, RuleSettings};
use crate::source::SourceText;
use crate::syntax::{RootShape, SyntaxError, parse_value};

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
    /// Adds a script and reads what it does; the credentials written in it are never shown.
    fn add_script(&mut self, file: &AppFile<'a>, script: Script) -> (FileId, JsFacts) {
        let id = self.add(file.path, file.bytes);
        let facts = js::analyze_file(self.sources[id].text(), file.path, script);
        self.reports[id].redactions.clone_from(&facts.secrets);
        (id, facts)
    }

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

        let manifest_reading = manifest::read(files.sources[manifest_file].text());
        files.reports[manifest_file] = self.check_json_reading(
            FileKind::Manifest,
            &files.sources[manifest_file],
            Some(&manifest_reading.syntax_errors),
            // Its top level is the manifest rules' business.
            None,
            rules,
        );

        let callbacks = input
            .callbacks
            .map(|file| files.add_script(&file, Script::Callbacks));
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
                .map(|file| files.add_script(file, script))
                .collect()
        };
        let mut install_scripts = scripts(&mut files, &input.install_scripts, Script::Callbacks);
        let page = input.page.map(|file| {
            let id = files.add(file.path, file.bytes);
            let scripts: Vec<Loadable<'_>> = callbacks
                .iter()
                .chain(&install_scripts)
                .map(|(file, facts)| Loadable {
                    file: *file,
                    path: &files.paths[*file],
                    facts,
                })
                .collect();
            let text = files.sources[id].text();
            let (page, facts) = InstallPage::read(id, text, input.config_folder, &scripts);
            files.reports[id].redactions.clone_from(&facts.secrets);
            (page, facts)
        });
        // The page's inline scripts are scripts of the installation page like the others.
        let page = page.map(|(page, facts)| {
            install_scripts.push((page.file, facts));
            page
        });
        // Without iparams.json, the page's `postConfigs` says what the app's iparams are.
        let iparams_from_page = page.is_some() && input.iparams.is_none();
        let (iparams_file, declared, iparams_complete) = match &page {
            Some(page) if iparams_from_page => (
                page.stored().map(|(file, _)| file),
                page.declared(),
                page.keys_known(),
            ),
            _ => (iparams_file, declared, iparams_complete),
        };
        let frontend = scripts(&mut files, &input.frontend, Script::Frontend);
        let serverless = scripts(&mut files, &input.serverless, Script::Serverless);
        let requests_file = input.requests.map(|file| files.add(file.path, file.bytes));
        let other_templates: Vec<FileId> = input
            .templates
            .iter()
            .map(|file| files.add(file.path, file.bytes))
            .collect();

        // requests.json, read with the span-keeping parser, as iparams.json is.
        let requests = requests_file.map(|id| {
            let source = &files.sources[id];
            let (root, errors) = if source.is_unreadable() {
                (None, None)
            } else {
                let (root, errors) = parse_value(source.text());
                (root, Some(errors))
            };
            let shape = match &root {
                Some(value) if value.as_object().is_some() => RootShape::Object(value.span),
                Some(value) => RootShape::Other(value.json_kind(), value.span),
                None => RootShape::Absent,
            };
            let complete = errors
                .as_ref()
                .is_some_and(|errors| !errors.iter().any(|error| error.fatal));
            let report = self.check_json_reading(
                FileKind::Requests,
                source,
                errors.as_deref(),
                errors.is_some().then_some(shape),
                rules,
            );
            let lowered = Requests::lower(root.as_ref(), complete, source.text());
            let written_credentials = lowered.written_credentials(source.text());
            (
                report,
                RequestsFile {
                    file: id,
                    root,
                    requests: lowered,
                    written_credentials,
                },
            )
        });
        let requests = requests.map(|(mut report, requests)| {
            // Credentials written in templates are never shown, whatever rules are on.
            let written = requests.written_credentials.iter();
            report
                .redactions
                .extend(written.map(|credential| credential.span));
            report.redactions.sort_unstable();
            report.redactions.dedup();
            files.reports[requests.file] = report;
            requests
        });
        let mut templates: Vec<(FileId, Vec<_>)> = requests
            .iter()
            .map(|r| (r.file, r.requests.reads()))
            .collect();
        templates.extend(
            other_templates
                .into_iter()
                .map(|id| (id, template_reads(files.sources[id].text()))),
        );

        let model = AppModel {
            facts: &facts,
            manifest: &manifest_reading,
            manifest_file,
            config_entries: &input.config_entries,
            config_assets: &input.config_assets,
            iparams_file,
            declared,
            iparams_complete,
            page,
            iparams_from_page,
            callbacks,
            install_scripts,
            frontend,
            serverless,
            requests,
            templates,
            paths: files.paths.clone(),
            sources: &files.sources,
            iparams_lines: Default::default(),
            hr_calls: Default::default(),
        };
        let mut cx = AppContext::new(files.paths.len());
        for check in enabled_checks(rules) {
            if let Check::App(check) = check {
                check(&model, &mut cx);
            }
        }
        drop(model);
        // Each entry of config/ a finding is about, as a file with no text: the finding is
        // about it as a whole.
        let mut entries: Vec<(String, Vec<_>)> = Vec::new();
        for (name, finding) in cx.entries {
            match entries.iter_mut().find(|(entry, _)| *entry == name) {
                Some((_, found)) => found.push(finding),
                None => entries.push((name, vec![finding])),
            }
        }
        let mut findings = cx.findings;
        for (name, found) in entries {
            let path = format!("{}/{name}", input.config_folder);
            // An entry the app's files hold already (a config/*.json read for templates).
            match files.paths.iter().position(|read| *read == path) {
                Some(id) => findings[id].extend(found),
                None => {
                    files.add(&path, b"");
                    findings.push(found);
                }
            }
        }
        for (id, findings) in findings.into_iter().enumerate() {
            let report = &mut files.reports[id];
            let mut diagnostics = std::mem::take(&mut report.diagnostics);
            diagnostics.extend(findings);
            // The last line of defence, as for iparams.json: app rules quote templates and
            // scripts, and no secret of the file survives in what they wrote.
            mask_secrets(
                &mut diagnostics,
                files.sources[id].text(),
                &report.redactions,
            );
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

    /// The findings of reading a JSON file of the app other than iparams.json (manifest.json,
    /// requests.json): its encoding and syntax, and its top level when `root` is given.
    fn check_json_reading(
        &mut self,
        kind: FileKind,
        source: &SourceText<'_>,
        errors: Option<&[SyntaxError]>,
        root: Option<RootShape>,
        rules: &RuleSettings,
    ) -> FileReport {
        let mut cx = Context::new(source.text(), &mut self.regexes);
        let reading = Reading {
            kind,
            problems: &source.problems,
            errors,
            root,
        };
        check_reading(&reading, rules, &mut cx);
        FileReport {
            well_formed: reading.is_well_formed(),
            diagnostics: finish(cx.diagnostics, rules),
            ..FileReport::default()
        }
    }
}
