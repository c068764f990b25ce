//! From the paths on the command line to the files to check.

use std::path::{Path, PathBuf};

/// Where a file's bytes come from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Input {
    File(PathBuf),
    Stdin,
}

/// A path that named nothing to check.
#[derive(Debug)]
pub struct DiscoveryError {
    pub path: PathBuf,
    pub message: String,
}

/// The file an app keeps its iparams in, relative to the app's folder.
const IPARAMS_FILE: [&str; 2] = ["config", "iparams.json"];

/// Expands folders into the `config/iparams.json` files below them, skipping what .gitignore
/// ignores; files are taken as given. The result is sorted and without repeats.
pub fn discover(paths: &[PathBuf]) -> (Vec<Input>, Vec<DiscoveryError>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            inputs.push(Input::Stdin);
        } else if path.is_dir() {
            let found = find_iparams_files(path);
            if found.is_empty() {
                errors.push(DiscoveryError {
                    path: path.clone(),
                    message: "no config/iparams.json found in this folder".into(),
                });
            }
            inputs.extend(found.into_iter().map(Input::File));
        } else {
            // Missing or unreadable files are reported when they are read.
            inputs.push(Input::File(path.clone()));
        }
    }
    inputs.sort();
    inputs.dedup();
    (inputs, errors)
}

fn find_iparams_files(root: &Path) -> Vec<PathBuf> {
    ignore::WalkBuilder::new(root)
        .hidden(false)
        // A .gitignore counts even before `git init`.
        .require_git(false)
        .filter_entry(|entry| !matches!(entry.file_name().to_str(), Some(".git" | "node_modules")))
        .build()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_some_and(|t| t.is_file()))
        .map(ignore::DirEntry::into_path)
        .filter(|path| is_iparams_file(path))
        // `iparams-lint .` shows `config/iparams.json`, not `./config/iparams.json`.
        .map(|path| path.strip_prefix(".").map(Path::to_owned).unwrap_or(path))
        .collect()
}

fn is_iparams_file(path: &Path) -> bool {
    let mut components = path.components().rev().map(|c| c.as_os_str());
    components
        .next()
        .is_some_and(|name| name == IPARAMS_FILE[1])
        && components.next().is_some_and(|dir| dir == IPARAMS_FILE[0])
}
