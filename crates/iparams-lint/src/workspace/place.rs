//! Which app a path is in: the one way every front-end finds it.
//!
//! As git finds a repository's root, [`app_of`] walks up from the path to the nearest folder
//! that is an app ([`is_app`]: it holds manifest.json and a config/ folder). The path is made
//! absolute and its `.` and `..` are resolved by their names (a symbolic link is taken as
//! given, not followed); the app's folder is then spelled as the path was, so that output names
//! it as the user did: `apps/hr` for `apps/hr/config/iparams.json`, `..` for `prod.json` given
//! in `apps/hr/deploy`, an absolute path for an absolute one.

use std::path::{Component, Path, PathBuf};

/// What makes a folder an app, relative to the app's folder (with a config/ folder).
pub const MANIFEST_FILE: &str = "manifest.json";
/// Where the preview stores the values INSTALL accepted, relative to the app's folder; the
/// folder holds a `.gitignore` of `*` ([`STATE_GITIGNORE`]) so that git leaves it alone.
pub const INSTALLED_VALUES_FILE: &str = ".iparams-lint/installed.json";
/// The `.gitignore` of the preview's folder: everything in it, itself included.
pub const STATE_GITIGNORE: &str =
    "# Written by iparams-lint: values (secrets among them) that stay on this machine.\n*\n";

/// Where an app keeps its iparams, relative to the app's folder.
pub const IPARAMS_FILE: &str = "config/iparams.json";

/// Where an app that writes its own installation page keeps it, instead of iparams.json.
pub const PAGE_FILE: &str = "config/iparams.html";

/// Where a path is in its app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InApp {
    /// The app's folder, spelled as the path was: relative for a relative path (`.` for the
    /// current folder), absolute for an absolute one.
    pub root: PathBuf,
    /// The path inside the app, with `/` separators (`config/iparams.json`); empty for the
    /// app's folder itself.
    pub relative: String,
}

impl InApp {
    /// The path of `relative` inside the app, spelled as its folder is: `config/iparams.json`
    /// for the app in the current folder, `apps/hr/config/iparams.json` otherwise.
    pub fn path(&self, relative: &str) -> PathBuf {
        if self.root == Path::new(".") {
            PathBuf::from(relative)
        } else {
            self.root.join(relative)
        }
    }
}

/// Whether `path`, with every symbolic link on the way resolved, is inside `folder` (itself
/// resolved). A path that does not exist yet is judged by its nearest existing ancestor, the rest
/// being plain names; `false` when neither can be resolved.
pub fn resolves_inside(folder: &Path, path: &Path) -> bool {
    let Ok(folder) = std::fs::canonicalize(folder) else {
        return false;
    };
    let mut existing = path;
    let mut rest = Vec::new();
    let resolved = loop {
        match std::fs::canonicalize(existing) {
            Ok(resolved) => break resolved,
            Err(_) => match (existing.parent(), existing.file_name()) {
                (Some(parent), Some(name)) => {
                    rest.push(name);
                    existing = if parent.as_os_str().is_empty() {
                        Path::new(".")
                    } else {
                        parent
                    };
                }
                _ => return false,
            },
        }
    };
    let mut full = resolved;
    for name in rest.into_iter().rev() {
        full.push(name);
    }
    full.starts_with(&folder)
}

/// Why the command may not read or write `path`, when it is in an app by its name ([`app_of`])
/// but a symbolic link on the way takes it outside the app's folder (a link planted in a
/// repository must not make the command print or overwrite a file elsewhere): "PATH: a symbolic
/// link takes it outside the app's folder ROOT". `None` when it stays inside, or is in no app.
pub fn link_out_of_app(path: &Path) -> Option<String> {
    let app = app_of(path)?;
    (!resolves_inside(&app.root, path)).then(|| {
        format!(
            "{}: a symbolic link takes it outside the app's folder {}",
            path.display(),
            app.root.display()
        )
    })
}

/// A folder with manifest.json and config/ is an app.
pub fn is_app(folder: &Path) -> bool {
    folder.join(MANIFEST_FILE).is_file() && folder.join("config").is_dir()
}

/// The app `path` is in: the nearest folder at or above it that [`is_app`]. `None` outside
/// any app.
pub fn app_of(path: &Path) -> Option<InApp> {
    let given = if path.as_os_str().is_empty() {
        Path::new(".")
    } else {
        path
    };
    let mut absolute = normalized(&std::path::absolute(given).ok()?);
    let mut shown = normalized(given);
    let mut inside: Vec<String> = Vec::new();
    loop {
        if is_app(&absolute) {
            inside.reverse();
            let root = if shown.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                shown
            };
            return Some(InApp {
                root,
                relative: inside.join("/"),
            });
        }
        let name = absolute.file_name()?.to_string_lossy().into_owned();
        inside.push(name);
        absolute.pop();
        shown = parent_as_spelled(shown);
    }
}

/// `path` with its `.` components dropped and each `..` taking away the name before it (a `..`
/// at the start of a relative path stays; at the root, it is the root).
pub(super) fn normalized(path: &Path) -> PathBuf {
    let mut parts: Vec<Component<'_>> = Vec::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => match parts.last() {
                Some(Component::Normal(_)) => {
                    parts.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => parts.push(part),
            },
            _ => parts.push(part),
        }
    }
    parts.iter().collect()
}

/// The folder above `path` (normalised), spelled in its terms: its last name taken away, or
/// one more `..` when it has none left.
fn parent_as_spelled(mut path: PathBuf) -> PathBuf {
    match path.components().next_back() {
        Some(Component::Normal(_)) => {
            path.pop();
            path
        }
        Some(Component::RootDir | Component::Prefix(_)) => path,
        _ => path.join(".."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder of its own under the temporary folder, removed when dropped.
    struct Folder(PathBuf);

    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn scratch(name: &str) -> Folder {
        let dir = std::env::temp_dir().join(format!("iparams-place-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("apps/hr/config/assets")).expect("folders");
        std::fs::create_dir_all(dir.join("apps/hr/deploy")).expect("folders");
        std::fs::create_dir_all(dir.join("apps/bare/config")).expect("folders");
        std::fs::write(dir.join("apps/hr/manifest.json"), "{}").expect("writable");
        Folder(dir)
    }

    #[test]
    fn the_nearest_app_at_or_above_a_path() {
        let folder = scratch("nearest");
        let hr = folder.0.join("apps/hr");
        let found = |path: &Path| app_of(path).map(|app| (app.root, app.relative));
        assert_eq!(
            found(&hr.join("config/iparams.json")),
            Some((hr.clone(), IPARAMS_FILE.to_owned()))
        );
        assert_eq!(
            found(&hr.join("config/assets/iparams.js")),
            Some((hr.clone(), "config/assets/iparams.js".to_owned()))
        );
        // A file that does not exist yet is in its app all the same.
        assert_eq!(
            found(&hr.join("server/new.js")),
            Some((hr.clone(), "server/new.js".to_owned()))
        );
        assert_eq!(found(&hr), Some((hr.clone(), String::new())));
        // `.` and `..` by their names.
        assert_eq!(
            found(&folder.0.join("apps/bare/../hr/./deploy/prod.json")),
            Some((hr.clone(), "deploy/prod.json".to_owned()))
        );
        // A folder with config/ but no manifest.json is not an app.
        assert_eq!(found(&folder.0.join("apps/bare/config/iparams.json")), None);
    }

    #[test]
    fn the_app_is_spelled_as_the_path_was() {
        let spelled = |given: &str, from: &str| {
            let mut path = PathBuf::from(given);
            for _ in 0..from.split('/').filter(|p| !p.is_empty()).count() {
                path = parent_as_spelled(path);
            }
            path
        };
        assert_eq!(
            spelled("apps/hr/config/iparams.json", "config/iparams.json"),
            Path::new("apps/hr")
        );
        assert_eq!(
            spelled("config/iparams.json", "config/iparams.json"),
            Path::new("")
        );
        assert_eq!(spelled("prod.json", "deploy/prod.json"), Path::new(".."));
        assert_eq!(spelled("../x.json", "a/x.json"), Path::new("../.."));
        assert_eq!(spelled("/a/b/c.json", "b/c.json"), Path::new("/a"));
        assert_eq!(
            normalized(Path::new("./a/../../b/./c")),
            Path::new("../b/c")
        );
        assert_eq!(normalized(Path::new("/../a")), Path::new("/a"));
    }
}
