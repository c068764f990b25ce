//! The one check every front-end runs: what a target names, read once through the overlays
//! ([`Loaded`]), checked with `iparams_core` ([`Checked`]), each file's findings with its path
//! inside the app as well as the path output shows.
//!
//! The manifest policy is here, so that every front-end says the same: an app whose
//! manifest.json is missing or cannot be read is still checked, its iparams.json with the rules
//! of iparams.json itself (the app-aware rules need the manifest), and [`Checked::errors`] says
//! so once: `APP/manifest.json: WHY; only the rules of iparams.json itself were checked`.

use std::collections::HashMap;
use std::path::PathBuf;

use iparams_core::app::{AppSummary, Declarations, DeclaringFile, Role};
use iparams_core::values::Definitions;
use iparams_core::{FileReport, Level, Linter, REGISTRY, RuleSettings, SourceText, finish};

use super::app::LoadedApp;
use super::config::JobRules;
use super::place::{IPARAMS_FILE, MANIFEST_FILE, app_of};
use super::plan::Target;
use super::state::Workspace;
use crate::output::describe_io_error;

/// What a target names, read once.
#[derive(Debug)]
pub enum Loaded {
    /// An app: its files, and the path inside it of the file the target named, if it named one.
    App {
        app: LoadedApp,
        named: Option<String>,
    },
    /// A file outside any app (or one no rule of its app reads), or standard input: checked as
    /// an iparams.json on its own.
    Alone(Alone),
}

/// A file checked on its own.
#[derive(Debug)]
pub struct Alone {
    /// How output names it.
    pub shown: String,
    /// Where it is; `None` for standard input.
    pub path: Option<PathBuf>,
    /// Its text, or why it could not be read (which [`Checked::errors`] tells).
    pub bytes: Result<Vec<u8>, String>,
}

/// The verdict on one file of a check.
#[derive(Debug)]
pub struct Verdict {
    /// Its path inside its app, with `/` separators (`config/iparams.json`; `config` for
    /// findings about the config/ folder itself); `None` for a file checked on its own.
    pub relative: Option<String>,
    /// How output names it.
    pub shown: String,
    pub report: FileReport,
    /// Where its text is in what was loaded.
    text: TextOf,
}

/// Where the text of a verdict's file is.
#[derive(Debug, Clone, Copy)]
enum TextOf {
    /// The app's file at this index.
    AppFile(usize),
    /// The file checked on its own.
    Alone,
    /// No text: the config/ folder.
    Nothing,
}

/// What a check found: the files as loaded, a verdict per file checked, what could not be
/// checked, and what the check learned of the app.
#[derive(Debug)]
pub struct Checked {
    pub loaded: Loaded,
    /// The app's model as the check left it (its declared iparams, every read of one, its
    /// manifest and templates): what front-ends read instead of the files. `None` for a file
    /// checked on its own; for an app whose manifest.json cannot be read, only iparams.json's
    /// declarations.
    pub summary: Option<AppSummary>,
    /// The files checked, in the order the core gives them (an app's: manifest.json, config/,
    /// the callbacks, iparams.json, scripts, templates).
    pub verdicts: Vec<Verdict>,
    /// What could not be read or checked, each "path: why", for the front-end to tell.
    pub errors: Vec<String>,
}

impl Workspace {
    /// Reads what `target` names, each file once, through the overlays: an app's folder (shown
    /// as `shown`), a file (in its app when [`app_of`] finds one whose rules read it, the app's
    /// folder then shown as `app_of` spells it; else on its own, shown as `shown`), or standard
    /// input (shown as `shown`).
    pub fn load(&self, target: &Target, shown: &str) -> Loaded {
        match target {
            Target::App(root) => Loaded::App {
                app: self.load_app(root, shown),
                named: None,
            },
            Target::File(path) => match app_of(path) {
                Some(app) if Role::of(&app.relative) != Role::Other => {
                    let shown_root = app.root.to_string_lossy().into_owned();
                    Loaded::App {
                        app: self.load_app(&app.root, &shown_root),
                        named: Some(app.relative),
                    }
                }
                _ => Loaded::Alone(Alone {
                    shown: shown.to_owned(),
                    path: Some(path.clone()),
                    bytes: self.read(path).map_err(|error| describe_io_error(&error)),
                }),
            },
            Target::Stdin => Loaded::Alone(Alone {
                shown: shown.to_owned(),
                path: None,
                bytes: Ok(self.stdin().to_vec()),
            }),
        }
    }

    /// Checks what `target` names (see [`Workspace::load`]) with `settings`, as every
    /// front-end does.
    pub fn check(
        &self,
        linter: &mut Linter,
        target: &Target,
        shown: &str,
        settings: &JobRules,
    ) -> Checked {
        self.load(target, shown).check(linter, settings)
    }
}

impl Loaded {
    /// Checks what was loaded with `settings`.
    pub fn check(self, linter: &mut Linter, settings: &JobRules) -> Checked {
        match self {
            Loaded::App { app, named } => app.check_naming(named, linter, settings),
            Loaded::Alone(alone) => {
                let mut verdicts = Vec::new();
                let mut errors = Vec::new();
                match &alone.bytes {
                    Ok(bytes) => verdicts.push(Verdict {
                        relative: None,
                        shown: alone.shown.clone(),
                        report: linter.lint_with(&SourceText::decode(bytes), settings.main()),
                        text: TextOf::Alone,
                    }),
                    Err(why) => errors.push(format!("{}: {why}", alone.shown)),
                }
                Checked {
                    loaded: Loaded::Alone(alone),
                    summary: None,
                    verdicts,
                    errors,
                }
            }
        }
    }

    /// The app, when one was loaded.
    pub fn app(&self) -> Option<&LoadedApp> {
        match self {
            Loaded::App { app, .. } => Some(app),
            Loaded::Alone(_) => None,
        }
    }
}

impl LoadedApp {
    /// Checks the app with `settings`: every file with the rules about it, iparams.json with
    /// every rule that can use the app; with a manifest.json that is missing or cannot be read,
    /// iparams.json alone (see the module's documentation).
    pub fn check(self, linter: &mut Linter, settings: &JobRules) -> Checked {
        self.check_naming(None, linter, settings)
    }

    /// [`LoadedApp::check`], `named` the file inside the app the target named.
    fn check_naming(
        mut self,
        named: Option<String>,
        linter: &mut Linter,
        settings: &JobRules,
    ) -> Checked {
        let mut errors = std::mem::take(&mut self.errors);
        let levels = FileLevels::of(&self, settings);
        let (mut verdicts, summary) = match self.input() {
            Some(input) => {
                let checked = linter.check_app(&input, &levels.run);
                // The core names each file by its path inside the app, as it was given; a
                // file it left unread has no text to show (nor a secret of it to mask).
                let loaded: HashMap<&str, usize> = (self.files.iter().enumerate())
                    .filter(|(_, file)| {
                        !input
                            .unread
                            .iter()
                            .any(|unread| unread.relative == file.relative)
                    })
                    .map(|(index, file)| (file.relative.as_str(), index))
                    .collect();
                let verdicts = checked.files.into_iter().map(|file| {
                    let text = loaded
                        .get(file.relative.as_str())
                        .map_or(TextOf::Nothing, |&index| TextOf::AppFile(index));
                    Verdict {
                        relative: Some(file.relative),
                        shown: file.path,
                        report: file.report,
                        text,
                    }
                });
                (verdicts.collect(), Some(checked.summary))
            }
            None => {
                let why = self.manifest_error.as_deref().unwrap_or("no such file");
                errors.push(format!(
                    "{}: {why}; only the rules of iparams.json itself were checked",
                    self.shown(MANIFEST_FILE)
                ));
                let iparams = self
                    .files
                    .iter()
                    .enumerate()
                    .find(|(_, file)| file.relative == IPARAMS_FILE);
                let verdicts = iparams
                    .iter()
                    .map(|&(index, file)| Verdict {
                        relative: Some(file.relative.clone()),
                        shown: file.shown.clone(),
                        report: linter.lint_with(&SourceText::decode(&file.bytes), &levels.run),
                        text: TextOf::AppFile(index),
                    })
                    .collect();
                let declarations = iparams.map(|(_, file)| {
                    let declaring = DeclaringFile {
                        relative: file.relative.clone(),
                        shown: file.shown.clone(),
                    };
                    Declarations::of_iparams_json(declaring, SourceText::decode(&file.bytes).text())
                });
                (verdicts, declarations.map(AppSummary::of_declarations))
            }
        };
        levels.settle(&mut verdicts, settings);
        Checked {
            loaded: Loaded::App { app: self, named },
            summary,
            verdicts,
            errors,
        }
    }
}

/// The levels an app is checked with, when configuration tells its files apart: each file's
/// findings are settled at its own levels after one check of the whole app.
struct FileLevels {
    /// What the check runs with: every rule on for some file, at the severity its findings
    /// give (the job's own levels when its files are not told apart).
    run: RuleSettings,
    /// Whether each verdict is to be settled at its file's levels.
    per_file: bool,
}

impl FileLevels {
    fn of(app: &LoadedApp, settings: &JobRules) -> Self {
        let same = || Self {
            run: settings.main().clone(),
            per_file: false,
        };
        if settings.is_uniform() {
            return same();
        }
        let config_entries = app
            .config_entries
            .iter()
            .map(|(name, _)| format!("config/{name}"));
        let relatives = (app.files.iter().map(|file| file.relative.clone()))
            .chain(config_entries)
            .chain(["config".to_owned()]);
        let levels: Vec<Option<RuleSettings>> = relatives
            .map(|relative| settings.for_file(&relative))
            .collect();
        if levels
            .iter()
            .all(|levels| levels.as_ref() == Some(settings.main()))
        {
            return same();
        }
        let levels: Vec<RuleSettings> = levels.into_iter().flatten().collect();
        // A rule runs when some file has it on; each file's findings then get their levels.
        let mut run = RuleSettings::default();
        for rule in REGISTRY {
            if !levels.iter().any(|levels| levels.is_enabled(rule)) {
                run.set(rule.name, Level::Off).expect("a registered rule");
            }
        }
        Self {
            run,
            per_file: true,
        }
    }

    /// Settles each verdict's findings at its file's levels, dropping the verdicts of the
    /// files left out.
    fn settle(&self, verdicts: &mut Vec<Verdict>, settings: &JobRules) {
        if !self.per_file {
            return;
        }
        verdicts.retain_mut(|verdict| {
            let relative = verdict.relative.as_deref().unwrap_or_default();
            let Some(levels) = settings.for_file(relative) else {
                return false;
            };
            let found = std::mem::take(&mut verdict.report.diagnostics);
            verdict.report.diagnostics = finish(found, &levels);
            true
        });
    }
}

impl Checked {
    /// The text of `verdict`'s file, decoded as the core decoded it for the check (so that
    /// the spans of its findings point into it).
    pub fn source(&self, verdict: &Verdict) -> SourceText<'_> {
        let bytes: &[u8] = match (verdict.text, &self.loaded) {
            (TextOf::AppFile(index), Loaded::App { app, .. }) => &app.files[index].bytes,
            (TextOf::Alone, Loaded::Alone(alone)) => alone.bytes.as_deref().unwrap_or_default(),
            _ => b"",
        };
        SourceText::decode(bytes)
    }

    /// The verdict on the file at `relative` inside the app.
    pub fn verdict(&self, relative: &str) -> Option<&Verdict> {
        self.verdicts
            .iter()
            .find(|verdict| verdict.relative.as_deref() == Some(relative))
    }

    /// The verdict on the file the target named: the file checked on its own, or the named
    /// file of its app. `None` for an app's folder, or when the file could not be checked.
    pub fn named(&self) -> Option<&Verdict> {
        match &self.loaded {
            Loaded::App {
                named: Some(relative),
                ..
            } => self.verdict(relative),
            Loaded::App { named: None, .. } => None,
            Loaded::Alone(_) => self.verdicts.first(),
        }
    }
}

/// Checks the installation values `values` against their `definitions` (iparams.json, or the
/// keys a custom installation page stores): what `iparams-lint values` reports, and what the
/// preview's INSTALL answers before it stores values.
pub fn check_values(
    definitions: Definitions<'_>,
    values: &SourceText<'_>,
    settings: &RuleSettings,
) -> FileReport {
    Linter::default().check_values_against(definitions, values, settings)
}
