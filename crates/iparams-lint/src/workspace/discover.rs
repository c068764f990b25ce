//! From the paths on the command line to what to check: whole apps, lone iparams.json files,
//! or standard input.

use std::path::{Path, PathBuf};

use iparams_core::app::{Role, SKIPPED_FOLDERS};
use rayon::prelude::*;

/// One thing to check.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Input {
    /// An app folder: manifest.json and config/ inside it.
    App(PathBuf),
    /// An iparams.json outside any app, checked on its own.
    File(PathBuf),
    Stdin,
}

/// A path that named nothing to check.
#[derive(Debug)]
pub struct DiscoveryError {
    pub path: PathBuf,
    pub message: String,
}

/// Expands the command line's paths: a folder into the apps and iparams.json files below it
/// (skipping what .gitignore ignores), an iparams.json into its app when it is in one. The
/// result is sorted and without repeats.
pub fn discover(paths: &[PathBuf]) -> (Vec<Input>, Vec<DiscoveryError>) {
    // Each path costs a system call or more (is it a folder? an app's iparams.json?): a shell
    // glob of thousands of files is looked at on every thread, in order.
    let found: Vec<(Vec<Input>, Option<DiscoveryError>)> =
        paths.par_iter().map(|path| expand(path)).collect();
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for (expanded, error) in found {
        inputs.extend(expanded);
        errors.extend(error);
    }
    inputs.sort();
    inputs.dedup();
    (inputs, errors)
}

/// What one path of the command line stands for.
fn expand(path: &Path) -> (Vec<Input>, Option<DiscoveryError>) {
    if path.as_os_str() == "-" {
        return (vec![Input::Stdin], None);
    }
    if !path.is_dir() {
        // Missing or unreadable files are reported when they are read.
        let input = app_of(path).map_or_else(|| Input::File(path.to_owned()), Input::App);
        return (vec![input], None);
    }
    let found = if is_app(path) {
        vec![Input::App(clean(path.to_owned()))]
    } else {
        find_in(path)
    };
    let error = found.is_empty().then(|| DiscoveryError {
        path: path.to_owned(),
        message: "no app or config/iparams.json found in this folder".into(),
    });
    (found, error)
}

/// A folder with manifest.json and config/ is an app.
pub fn is_app(folder: &Path) -> bool {
    folder.join("manifest.json").is_file() && folder.join("config").is_dir()
}

/// The app an `app/config/iparams.json` belongs to.
pub fn app_of(file: &Path) -> Option<PathBuf> {
    let config = file
        .parent()
        .filter(|dir| dir.file_name().is_some_and(|n| n == "config"))?;
    let root = config
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    (file.file_name().is_some_and(|n| n == "iparams.json") && is_app(root))
        .then(|| clean(root.to_owned()))
}

fn find_in(root: &Path) -> Vec<Input> {
    let mut found = Vec::new();
    for entry in walk(root).filter(|entry| entry.file_type().is_some_and(|t| t.is_file())) {
        let path = entry.path();
        let name = path.file_name().and_then(|n| n.to_str());
        if name == Some("manifest.json")
            && let Some(folder) = path.parent().filter(|folder| is_app(folder))
        {
            found.push(Input::App(clean(folder.to_owned())));
        } else if name == Some("iparams.json")
            && path.parent().is_some_and(|dir| dir.ends_with("config"))
        {
            found
                .push(app_of(path).map_or_else(|| Input::File(clean(path.to_owned())), Input::App));
        }
    }
    found
}

/// The files below `root`, honouring .gitignore (even outside a git repository) and skipping
/// dependency and tool folders.
pub fn walk(root: &Path) -> impl Iterator<Item = ignore::DirEntry> {
    ignore::WalkBuilder::new(root)
        .hidden(false)
        .require_git(false)
        .filter_entry(|entry| {
            !entry
                .file_name()
                .to_str()
                .is_some_and(|name| SKIPPED_FOLDERS.contains(&name))
        })
        .build()
        .filter_map(Result::ok)
}

/// `iparams-lint .` shows `config/iparams.json`, not `./config/iparams.json`.
fn clean(path: PathBuf) -> PathBuf {
    match path.strip_prefix(".") {
        Ok(rest) if rest.as_os_str().is_empty() => PathBuf::from("."),
        Ok(rest) => rest.to_owned(),
        Err(_) => path,
    }
}

/// The files of an app worth reading, with their paths inside the app (`/` separators).
pub fn app_files(root: &Path) -> Vec<(String, PathBuf)> {
    let mut files: Vec<(String, PathBuf)> = walk(root)
        .filter(|entry| entry.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|entry| {
            let relative = entry
                .path()
                .strip_prefix(root)
                .ok()?
                .to_string_lossy()
                .replace('\\', "/");
            (Role::of(&relative) != Role::Other).then(|| (relative, entry.into_path()))
        })
        .collect();
    files.sort();
    files
}
