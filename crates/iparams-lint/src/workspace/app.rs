//! An app folder read once into owned files: what the core's app input borrows from.

use std::path::{Path, PathBuf};

use iparams_core::app::{AppFile, AppInput, IparamsSource, Role, SKIPPED_FOLDERS};

use super::discover;
use super::place::{IPARAMS_FILE, MANIFEST_FILE, PAGE_FILE};
use super::state::Workspace;
use crate::output::describe_io_error;

/// The files of one app, as read.
#[derive(Debug)]
pub struct LoadedApp {
    pub root: PathBuf,
    /// How output names the app's folder.
    pub shown_root: String,
    /// The files worth reading, in path order within the app.
    pub files: Vec<LoadedFile>,
    /// How output names config/, for findings about the folder itself.
    pub config_folder: String,
    /// The entries of config/, with whether each is a folder.
    pub config_entries: Vec<(String, bool)>,
    /// The files under config/assets/, by their paths from config/ (`assets/iparams.css`).
    pub config_assets: Vec<String>,
    /// Files that could not be read: "path: why" (manifest.json aside).
    pub errors: Vec<String>,
    /// Why manifest.json could not be read, when it is there but could not be.
    pub manifest_error: Option<String>,
}

/// One file of an app.
#[derive(Debug)]
pub struct LoadedFile {
    /// How output names it.
    pub shown: String,
    /// Its path inside the app, with `/` separators.
    pub relative: String,
    pub path: PathBuf,
    pub bytes: Vec<u8>,
    /// The text came from an overlay (an editor's buffer, standard input), not the disk.
    pub overlaid: bool,
}

impl Workspace {
    /// The app in folder `root`, each file read once (through the overlays); `shown` is how
    /// output names the folder.
    pub fn load_app(&self, root: &Path, shown: &str) -> LoadedApp {
        LoadedApp::load(self, root, shown)
    }
}

impl LoadedApp {
    fn load(workspace: &Workspace, root: &Path, shown: &str) -> Self {
        let shown_path = |relative: &str| shown_in(root, shown, relative);
        let mut found = discover::app_files(root);
        // Files an editor holds that the disk does not have yet.
        for relative in workspace.overlaid_in(root) {
            if Role::of(&relative) != Role::Other && !found.iter().any(|(r, _)| *r == relative) {
                let path = root.join(&relative);
                found.push((relative, path));
            }
        }
        found.sort();
        let mut app = Self {
            root: root.to_owned(),
            shown_root: shown.to_owned(),
            files: Vec::new(),
            config_folder: shown_path("config"),
            config_entries: config_entries(root),
            config_assets: config_assets(root),
            errors: Vec::new(),
            manifest_error: None,
        };
        for (relative, path) in found {
            let overlaid = workspace.overlaid(&path).is_some();
            let bytes = match workspace.read(&path) {
                Ok(bytes) => bytes,
                Err(error) => {
                    let why = describe_io_error(&error);
                    if relative == MANIFEST_FILE {
                        // Said once, by the check (see `check.rs`).
                        app.manifest_error = Some(why);
                    } else {
                        app.errors.push(format!("{}: {why}", shown_path(&relative)));
                    }
                    continue;
                }
            };
            app.files.push(LoadedFile {
                shown: shown_path(&relative),
                relative,
                path,
                bytes,
                overlaid,
            });
        }
        app
    }

    /// How output names the file at `relative` inside the app.
    pub fn shown(&self, relative: &str) -> String {
        shown_in(&self.root, &self.shown_root, relative)
    }

    /// The file at `relative` inside the app.
    pub fn file(&self, relative: &str) -> Option<&LoadedFile> {
        self.files.iter().find(|file| file.relative == relative)
    }

    /// Where the app's iparams come from, by the files it has (the core's one decision).
    pub fn iparams_source(&self) -> IparamsSource {
        IparamsSource::of(
            self.file(IPARAMS_FILE).is_some(),
            self.file(PAGE_FILE).is_some(),
        )
    }

    /// Replaces the text of the file at `relative` (once fixes are applied to it).
    pub fn replace(&mut self, relative: &str, bytes: Vec<u8>) {
        if let Some(file) = self.files.iter_mut().find(|file| file.relative == relative) {
            file.bytes = bytes;
        }
    }

    /// The app as the core checks it; `None` without a readable manifest.json (see
    /// [`LoadedApp::check`] for what is checked then).
    pub fn input(&self) -> Option<AppInput<'_>> {
        let manifest = self.file(MANIFEST_FILE)?;
        let mut input = AppInput::new(manifest.as_input(), &self.config_folder);
        input.config_entries = self.config_entries.clone();
        input.config_assets = self.config_assets.clone();
        for file in &self.files {
            input.add(file.as_input());
        }
        Some(input)
    }
}

impl LoadedFile {
    /// The file as the core reads it.
    fn as_input(&self) -> AppFile<'_> {
        AppFile {
            relative: &self.relative,
            path: &self.shown,
            bytes: &self.bytes,
        }
    }
}

/// How output names `relative` in the app at `root`, shown as `shown`: `config/iparams.json`
/// for the app in the current folder, `apps/hr/config/iparams.json` otherwise.
fn shown_in(root: &Path, shown: &str, relative: &str) -> String {
    if root == Path::new(".") {
        relative.to_owned()
    } else {
        format!("{shown}/{relative}")
    }
}

/// How many files of config/assets/ are listed: a page references a handful, and a folder of
/// thousands (an unignored `node_modules`) is not the app's own.
const MAX_ASSETS: usize = 10_000;

/// The files under config/assets/ by their paths from config/, sorted: what a custom page's
/// `src` and `href` may name. Ignore files are not read: a built bundle the repository ignores is
/// still served with the page.
fn config_assets(root: &Path) -> Vec<String> {
    let config = root.join("config");
    let mut found = Vec::new();
    let mut folders = vec![config.join("assets")];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            if found.len() >= MAX_ASSETS {
                break;
            }
            let path = entry.path();
            let Ok(file_type) = entry.file_type() else {
                continue;
            };
            if file_type.is_dir() {
                let skipped = entry
                    .file_name()
                    .to_str()
                    .is_some_and(|name| SKIPPED_FOLDERS.contains(&name));
                if !skipped {
                    folders.push(path);
                }
            } else if let Ok(relative) = path.strip_prefix(&config) {
                found.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort();
    found
}

/// What config/ holds, sorted.
fn config_entries(root: &Path) -> Vec<(String, bool)> {
    let Ok(entries) = std::fs::read_dir(root.join("config")) else {
        return Vec::new();
    };
    let mut list: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|entry| {
            (
                entry.file_name().to_string_lossy().into_owned(),
                entry.path().is_dir(),
            )
        })
        .collect();
    list.sort();
    list
}
