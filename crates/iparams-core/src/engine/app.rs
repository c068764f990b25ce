//! One app: iparams.json with the rules that can use the app, and the app's other files with
//! the rules about them. The model the rules see is built in steps, each reading one kind of
//! file once; what front-ends keep of it comes back with the findings ([`CheckedApp`]).

use super::checks::{check_reading, enabled_checks};
use super::finish::{finish, mask_secrets};
use super::linter::Linter;
use super::report::FileReport;
use super::suppress::suppress;
use crate::app::manifest::{self, ManifestReading};
use crate::app::{
    AppFacts, AppFile, AppInput, AppModel, AppSummary, Declared, FileId, InstallPage,
    IparamsSource, JsFacts, Loadable, Requests, RequestsFile, Script, facts_of, js, template_reads,
};
use crate::diagnostic::Diagnostic;
use crate::reading::{FileKind, Reading};
use crate::rules::{AppContext, Check, Context, RuleSettings};
use crate::source::SourceText;
use crate::suppression::Suppression;
use crate::syntax::{RootShape, SyntaxError, parse_value};

/// One file's findings, with its text for code frames.
#[derive(Debug)]
pub struct CheckedSource<'a> {
    /// Its path inside the app, as the caller gave it (`config/iparams.json`); for an entry of
    /// config/ that findings are about and the caller gave no file for, `config/<name>`.
    pub relative: String,
    /// How output names it.
    pub path: String,
    pub source: SourceText<'a>,
    pub report: FileReport,
}

/// What checking an app gives: each file's findings, in the order the files were read, and
/// what front-ends keep of the app's model.
#[derive(Debug)]
pub struct CheckedApp<'a> {
    pub files: Vec<CheckedSource<'a>>,
    pub summary: AppSummary,
}

/// The files of the app, with what was found in each.
#[derive(Default)]
struct Files<'a> {
    relatives: Vec<String>,
    paths: Vec<String>,
    sources: Vec<SourceText<'a>>,
    reports: Vec<FileReport>,
    /// The suppression comments of each file.
    suppressions: Vec<Vec<Suppression>>,
}

impl<'a> Files<'a> {
    fn add(&mut self, file: &AppFile<'a>) -> FileId {
        self.add_text(file.relative, file.path, file.bytes)
    }

    fn add_text(&mut self, relative: &str, path: &str, bytes: &'a [u8]) -> FileId {
        self.relatives.push(relative.to_owned());
        self.paths.push(path.to_owned());
        self.sources.push(SourceText::decode(bytes));
        self.reports.push(FileReport {
            well_formed: true,
            ..FileReport::default()
        });
        self.suppressions.push(Vec::new());
        self.paths.len() - 1
    }

    /// Adds a script and reads what it does; the credentials written in it are never shown.
    fn add_script(&mut self, file: &AppFile<'a>, script: Script) -> (FileId, JsFacts) {
        let id = self.add(file);
        let facts = js::analyze_file(self.sources[id].text(), file.path, script);
        self.reports[id].redactions.clone_from(&facts.secrets);
        self.suppressions[id].clone_from(&facts.suppressions);
        (id, facts)
    }

    fn add_scripts(&mut self, files: &[AppFile<'a>], script: Script) -> Vec<(FileId, JsFacts)> {
        let add = |file| self.add_script(file, script);
        files.iter().map(add).collect()
    }

    /// Adds config/iparams.html, read once with the scripts it may load (`scripts`): the page,
    /// and the facts of its inline scripts, which are scripts of the installation page.
    fn add_page(
        &mut self,
        file: &AppFile<'a>,
        config_folder: &str,
        scripts: &[&(FileId, JsFacts)],
    ) -> (InstallPage, JsFacts) {
        let id = self.add(file);
        let loadable: Vec<Loadable<'_>> = scripts
            .iter()
            .map(|(file, facts)| Loadable {
                file: *file,
                path: &self.paths[*file],
                facts,
            })
            .collect();
        let text = self.sources[id].text();
        let (page, facts) = InstallPage::read(id, text, config_folder, &loadable);
        self.reports[id].redactions.clone_from(&facts.secrets);
        self.suppressions[id].clone_from(&facts.suppressions);
        (page, facts)
    }

    /// Each file with its findings: the checks' `found` (per file, then per file or folder
    /// whose text no rule reads, by its path inside the app) joined to what reading it found,
    /// masked and finished. `input` says how output names those.
    fn finish(
        mut self,
        found: AppContext,
        input: &AppInput<'_>,
        rules: &RuleSettings,
    ) -> Vec<CheckedSource<'a>> {
        let mut findings = found.findings;
        for (relative, found) in entries(found.entries) {
            // An entry the app's files hold already (a config/*.json read for templates).
            match self.relatives.iter().position(|read| *read == relative) {
                Some(id) => findings[id].extend(found),
                None => {
                    self.add_text(&relative, &shown_unread(input, &relative), b"");
                    findings.push(found);
                }
            }
        }
        for (id, findings) in findings.into_iter().enumerate() {
            let report = &mut self.reports[id];
            let mut diagnostics = std::mem::take(&mut report.diagnostics);
            diagnostics.extend(findings);
            let text = self.sources[id].text();
            suppress(&mut diagnostics, text, &mut self.suppressions[id], rules);
            // The last line of defence, as for iparams.json: app rules quote templates and
            // scripts, and no secret of the file survives in what they wrote.
            mask_secrets(&mut diagnostics, text, &report.redactions);
            report.diagnostics = finish(diagnostics, rules);
        }
        let files = self.relatives.into_iter().zip(self.paths);
        files
            .zip(self.sources.into_iter().zip(self.reports))
            .map(|((relative, path), (source, report))| CheckedSource {
                relative,
                path,
                source,
                report,
            })
            .collect()
    }
}

/// How output names the file or folder at `relative` inside the app, which no rule reads.
fn shown_unread(input: &AppInput<'_>, relative: &str) -> String {
    match input.unread.iter().find(|file| file.relative == relative) {
        Some(file) => file.path.to_owned(),
        None => {
            let in_config = relative.strip_prefix("config/").unwrap_or(relative);
            format!("{}/{in_config}", input.config_folder)
        }
    }
}

/// The findings about files and folders with no text (a finding is about each as a whole),
/// grouped by path in the order first found.
fn entries(found: Vec<(String, Diagnostic)>) -> Vec<(String, Vec<Diagnostic>)> {
    let mut entries: Vec<(String, Vec<Diagnostic>)> = Vec::new();
    for (name, finding) in found {
        match entries.iter_mut().find(|(entry, _)| *entry == name) {
            Some((_, findings)) => findings.push(finding),
            None => entries.push((name, vec![finding])),
        }
    }
    entries
}

/// What declares the app's iparams, as the rules read it.
struct Definitions {
    file: Option<FileId>,
    declared: Vec<Declared>,
    complete: bool,
}

impl Definitions {
    /// What declares the app's iparams, by their `source`: the custom `page`'s `postConfigs`,
    /// or iparams.json as read (`json`).
    fn chosen(source: IparamsSource, json: Option<Self>, page: Option<&InstallPage>) -> Self {
        match (source, page) {
            (IparamsSource::Page, Some(page)) => Definitions {
                file: page.stored().map(|(file, _)| file),
                declared: page.declared(),
                complete: page.keys_known(),
            },
            _ => json.unwrap_or(Definitions {
                file: None,
                declared: Vec::new(),
                complete: false,
            }),
        }
    }
}

/// Runs every enabled rule's app check over `model`.
fn run_app_checks(model: &AppModel<'_>, rules: &RuleSettings) -> AppContext {
    let mut found = AppContext::new(model.paths.len());
    for check in enabled_checks(rules) {
        if let Check::App(check) = check {
            check(model, &mut found);
        }
    }
    found
}

impl Linter {
    /// Checks one app: iparams.json with every rule that can use the app, and the app's other
    /// files with the rules about them. Returns a report per file, in the order they were read,
    /// and what front-ends keep of the app's model.
    pub fn check_app<'a>(&mut self, input: &AppInput<'a>, rules: &RuleSettings) -> CheckedApp<'a> {
        let mut files = Files::default();
        let source = input.iparams_source();
        let (manifest_file, manifest) = self.read_manifest(&mut files, input, rules);
        let callbacks = input
            .callbacks
            .map(|file| files.add_script(&file, Script::Callbacks));
        let facts = facts_of(&manifest, callbacks.as_ref().map(|(_, facts)| facts));
        let json = input
            .iparams
            .map(|file| self.read_iparams(&mut files, &file, rules, &facts));
        let mut install_scripts = files.add_scripts(&input.install_scripts, Script::Callbacks);
        let page = input.page.map(|file| {
            let loadable: Vec<_> = callbacks.iter().chain(&install_scripts).collect();
            let (page, facts) = files.add_page(&file, input.config_folder, &loadable);
            // The page's inline scripts are scripts of the installation page like the others.
            install_scripts.push((page.file, facts));
            page
        });
        let definitions = Definitions::chosen(source, json, page.as_ref());
        let frontend = files.add_scripts(&input.frontend, Script::Frontend);
        let serverless = files.add_scripts(&input.serverless, Script::Serverless);
        let requests_file = input.requests.map(|file| files.add(&file));
        let other_templates: Vec<FileId> = input.templates.iter().map(|f| files.add(f)).collect();
        // Read once every file is in: the templates borrow the files' texts.
        let requests = requests_file.map(|id| {
            let (report, requests) = self.read_requests(id, &files.sources[id], rules);
            files.reports[id] = report;
            requests
        });
        let mut templates: Vec<(FileId, Vec<_>)> = requests
            .iter()
            .map(|requests| (requests.file, requests.requests.reads()))
            .collect();
        for id in other_templates {
            templates.push((id, template_reads(files.sources[id].text())));
        }

        let model = AppModel {
            facts: &facts,
            manifest: &manifest,
            manifest_file,
            config_entries: &input.config_entries,
            config_assets: &input.config_assets,
            unread: &input.unread,
            iparams_file: definitions.file,
            declared: definitions.declared,
            iparams_complete: definitions.complete,
            page,
            source,
            callbacks,
            install_scripts,
            frontend,
            serverless,
            requests,
            templates,
            relatives: files.relatives.clone(),
            paths: files.paths.clone(),
            sources: &files.sources,
            iparams_lines: Default::default(),
            hr_calls: Default::default(),
        };
        let found = run_app_checks(&model, rules);
        let summary = model.summary();
        drop(model);
        CheckedApp {
            files: files.finish(found, input, rules),
            summary,
        }
    }

    /// Reads manifest.json, checked as a JSON file (its top level is the manifest rules'
    /// business).
    fn read_manifest<'a>(
        &mut self,
        files: &mut Files<'a>,
        input: &AppInput<'a>,
        rules: &RuleSettings,
    ) -> (FileId, ManifestReading) {
        let id = files.add(&input.manifest);
        let reading = manifest::read(files.sources[id].text());
        files.reports[id] = self.check_json_reading(
            FileKind::Manifest,
            &files.sources[id],
            Some(&reading.syntax_errors),
            None,
            rules,
        );
        (id, reading)
    }

    /// Checks iparams.json with every rule that can use the app's `facts`.
    fn read_iparams<'a>(
        &mut self,
        files: &mut Files<'a>,
        file: &AppFile<'a>,
        rules: &RuleSettings,
        facts: &AppFacts,
    ) -> Definitions {
        let id = files.add(file);
        let (report, declared) = self.lint_in_app(&files.sources[id], rules, facts);
        let complete = report.read_to_end;
        files.reports[id] = report;
        Definitions {
            file: Some(id),
            declared,
            complete,
        }
    }

    /// Reads config/requests.json with the span-keeping parser, as iparams.json is: its tree,
    /// its templates, and the credentials they write out, which no output shows.
    fn read_requests<'s>(
        &mut self,
        id: FileId,
        source: &'s SourceText<'_>,
        rules: &RuleSettings,
    ) -> (FileReport, RequestsFile<'s>) {
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
        let mut report = self.check_json_reading(
            FileKind::Requests,
            source,
            errors.as_deref(),
            errors.is_some().then_some(shape),
            rules,
        );
        let requests = Requests::lower(root.as_ref(), complete, source.text());
        let written_credentials = requests.written_credentials(source.text());
        // Credentials written in templates are never shown, whatever rules are on.
        let written = written_credentials.iter();
        report
            .redactions
            .extend(written.map(|credential| credential.span));
        report.redactions.sort_unstable();
        report.redactions.dedup();
        let requests = RequestsFile {
            file: id,
            root,
            requests,
            written_credentials,
        };
        (report, requests)
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
