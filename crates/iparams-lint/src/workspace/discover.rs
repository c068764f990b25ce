//! From the paths on the command line to what to check: whole apps, lone iparams.json files,
//! or standard input.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use iparams_core::app::{Role, SKIPPED_FOLDERS};
use rayon::prelude::*;

use super::place::{IPARAMS_FILE, InApp, MANIFEST_FILE, app_of, is_app};

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

impl std::fmt::Display for DiscoveryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

/// What the command line's paths stand for.
#[derive(Debug, Default)]
pub struct Discovered {
    /// What to check, sorted and without repeats.
    pub inputs: Vec<Input>,
    /// Paths that named nothing to check.
    pub errors: Vec<DiscoveryError>,
    /// Files named that no rule reads (a stylesheet of an app, a script outside any app): said
    /// once, never parsed as something else.
    pub notes: Vec<DiscoveryError>,
}

/// Expands the command line's paths: a folder into the apps and iparams.json files below it
/// (skipping what .gitignore ignores), or into its app when it is inside one; a file of an app
/// into its app, whatever file of the app it is; any other JSON file into itself, checked as an
/// iparams.json alone.
pub fn discover(paths: &[PathBuf]) -> Discovered {
    // Which app a file is in is asked once per folder: a shell glob names thousands of files
    // of a few folders. A path not spelled as a JSON file costs a system call (is it a
    // folder?); a few are looked at here, without starting the threads.
    let looked: Vec<Looked> = if paths.len() < 16 {
        paths.iter().map(|path| look(path)).collect()
    } else {
        paths.par_iter().map(|path| look(path)).collect()
    };
    let mut folders: Vec<PathBuf> = looked
        .iter()
        .filter_map(|looked| match looked {
            Looked::File(path) => Some(folder_of(path).to_owned()),
            _ => None,
        })
        .collect();
    folders.sort_unstable();
    folders.dedup();
    let apps: HashMap<PathBuf, Option<InApp>> = if folders.len() < 16 {
        folders
            .into_iter()
            .map(|folder| {
                let app = app_of(&folder);
                (folder, app)
            })
            .collect()
    } else {
        folders
            .into_par_iter()
            .map(|folder| {
                let app = app_of(&folder);
                (folder, app)
            })
            .collect()
    };
    let mut found = Discovered::default();
    for looked in looked {
        match looked {
            Looked::Stdin => found.inputs.push(Input::Stdin),
            Looked::Folder(expanded, error) => {
                found.inputs.extend(expanded);
                found.errors.extend(error);
            }
            Looked::File(path) => {
                let app = apps.get(folder_of(&path)).cloned().flatten();
                let kind = file_kind(&path, app);
                // A lone file's read says what is wrong with it; an app is checked whole and a
                // file no rule reads is not read, so a name that cannot be is said so here.
                if kind != FileKind::Lone
                    && let Err(error) = std::fs::metadata(&path)
                {
                    let message = match error.kind() {
                        std::io::ErrorKind::NotFound => "no such file".to_owned(),
                        _ => format!("cannot be read: {error}"),
                    };
                    found.errors.push(DiscoveryError { path, message });
                    continue;
                }
                match kind {
                    FileKind::OfApp(root) => found.inputs.push(Input::App(root)),
                    FileKind::Lone => found.inputs.push(Input::File(path)),
                    FileKind::Unread(message) => found.notes.push(DiscoveryError { path, message }),
                }
            }
        }
    }
    sort_without_repeats(&mut found.inputs);
    found
}

/// One path of the command line, after a first look.
enum Looked {
    Stdin,
    /// A folder, with what it holds to check.
    Folder(Vec<Input>, Option<DiscoveryError>),
    /// A file, or a path that names nothing (reported when it is read).
    File(PathBuf),
}

/// The folder a file is in, as [`app_of`] is asked about it.
pub fn folder_of(file: &Path) -> &Path {
    match file.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    }
}

/// What a file is to the checker.
#[derive(Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A file of the app in this folder that rules read: the app is checked.
    OfApp(PathBuf),
    /// A JSON file outside any app: checked as an iparams.json on its own.
    Lone,
    /// A file no rule reads, and why.
    Unread(String),
}

/// The JSON files of an app other than iparams.json, by name: outside an app, none of them is
/// an iparams.json to check on its own.
const OTHER_APP_JSON: [&str; 4] = [
    MANIFEST_FILE,
    "requests.json",
    "oauth_config.json",
    "iparam_test_data.json",
];

/// What the file at `path` is, given the app its folder is in.
pub fn file_kind(path: &Path, app: Option<InApp>) -> FileKind {
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned());
    let Some(app) = app else {
        let json = name.as_deref().is_some_and(|name| name.ends_with(".json"));
        // Files of an app's other kinds are read as part of their app, never as iparams.json.
        let app_kind = name
            .as_deref()
            .is_some_and(|name| OTHER_APP_JSON.contains(&name));
        return if json && !app_kind {
            FileKind::Lone
        } else {
            FileKind::Unread(
                "not inside an app (no manifest.json beside a config/ folder above it); \
                 iparams-lint reads scripts and pages as part of their app, and checks JSON \
                 files outside an app as iparams.json files"
                    .into(),
            )
        };
    };
    let relative = match (app.relative.as_str(), name) {
        ("", Some(name)) => name,
        (folder, Some(name)) => format!("{folder}/{name}"),
        (_, None) => String::new(),
    };
    if is_read(&relative) {
        FileKind::OfApp(app.root)
    } else {
        FileKind::Unread(
            "no rule reads this file (iparams-lint reads an app's manifest.json, config/, and \
             the scripts and pages of app/ and server/)"
                .into(),
        )
    }
}

/// Whether a rule reads the file at `relative` inside an app: a file of a known kind, or any
/// file of config/ (whose entries rules check). The command checks the app of such a file, and
/// the language server publishes its findings.
pub fn is_read(relative: &str) -> bool {
    Role::of(relative) != Role::Other
        || (relative.starts_with("config/")
            && !relative
                .split('/')
                .any(|part| SKIPPED_FOLDERS.contains(&part)))
}

/// What [`discover`] finds for `folder` named as a folder, whatever its name: for a path taken
/// for a file by its name (see [`look`]) that its read found to be a folder.
pub fn discover_folder(folder: &Path) -> Discovered {
    let (mut inputs, error) = in_folder(folder);
    sort_without_repeats(&mut inputs);
    Discovered {
        inputs,
        errors: error.into_iter().collect(),
        notes: Vec::new(),
    }
}

/// Sorts `inputs` (a path in the order of its components, as `Ord` for paths has it) and drops
/// repeats.
///
/// Comparing two paths component by component costs hundreds of instructions, and a shell glob
/// of thousands of files is sorted on the one thread that plans the run. Paths spelled as their
/// components are (see [`spelled_plainly`]) are the same path only when their bytes are the
/// same, and are in the same order as their bytes with each `/` taken as the lowest byte.
fn sort_without_repeats(inputs: &mut Vec<Input>) {
    if !cfg!(unix) || !inputs.iter().all(|i| i.path().is_none_or(spelled_plainly)) {
        inputs.sort();
        inputs.dedup();
        return;
    }
    inputs.sort_by(|a, b| {
        a.rank()
            .cmp(&b.rank())
            .then_with(|| match (a.path_bytes(), b.path_bytes()) {
                (Some(a), Some(b)) => plain_order(a, b),
                _ => std::cmp::Ordering::Equal,
            })
    });
    inputs.dedup_by(|a, b| a.rank() == b.rank() && a.path_bytes() == b.path_bytes());
}

/// Whether `path` is spelled as its components are: no empty component (`//`, a `/` at the
/// end), none that is `.` or `..`. The components of such a path, joined with `/`, give it
/// back byte for byte.
fn spelled_plainly(path: &Path) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    !bytes.is_empty()
        && !bytes.ends_with(b"/")
        && bytes
            .split(|&byte| byte == b'/')
            .enumerate()
            // An absolute path starts with an empty part: the root.
            .all(|(index, part)| (index == 0 || !part.is_empty()) && part != b"." && part != b"..")
}

/// The order of two paths spelled plainly: their bytes', with `/` below any other byte (which a
/// name on Unix cannot hold, nor a NUL), so that a component that is a prefix of another comes
/// first, and the root before any name.
fn plain_order(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    let lowest_slash = |byte: u8| if byte == b'/' { 0 } else { byte };
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(at) => lowest_slash(a[at]).cmp(&lowest_slash(b[at])),
        None => a.len().cmp(&b.len()),
    }
}

impl Input {
    /// Its variant's place in the order of inputs.
    fn rank(&self) -> u8 {
        match self {
            Input::App(_) => 0,
            Input::File(_) => 1,
            Input::Stdin => 2,
        }
    }

    fn path(&self) -> Option<&Path> {
        match self {
            Input::App(path) | Input::File(path) => Some(path),
            Input::Stdin => None,
        }
    }

    fn path_bytes(&self) -> Option<&[u8]> {
        self.path().map(|path| path.as_os_str().as_encoded_bytes())
    }
}

/// What one path of the command line is, at a first look.
///
/// A path spelled as a JSON file (`x.json`, not `x.json/`) is taken for a file by its name:
/// looking at it would cost a system call, and its read finds out anyway (a shell's glob names
/// thousands of files, and this look was a twentieth of the run). Should it be a folder after
/// all, its job checks the folder then (see [`in_folder`]); an app inside it that the command
/// line also names is then checked twice, as repeats are dropped before the folder is known to
/// be one (a rare case, left so).
fn look(path: &Path) -> Looked {
    if path.as_os_str() == "-" {
        return Looked::Stdin;
    }
    let spelled_as_json = path.as_os_str().as_encoded_bytes().ends_with(b".json");
    if spelled_as_json || !path.is_dir() {
        // Missing or unreadable files are reported when they are read.
        return Looked::File(path.to_owned());
    }
    let (inputs, error) = in_folder(path);
    Looked::Folder(inputs, error)
}

/// What a folder holds to check: itself when it is an app, its app when it is inside one
/// (`config/`, `app/`: as git finds its root), else the apps and iparams.json files below it;
/// an error when it holds none.
fn in_folder(path: &Path) -> (Vec<Input>, Option<DiscoveryError>) {
    let found = if is_app(path) {
        vec![Input::App(clean(path.to_owned()))]
    } else if let Some(app) = app_of(path) {
        vec![Input::App(clean(app.root))]
    } else {
        find_in(path)
    };
    let error = found.is_empty().then(|| DiscoveryError {
        path: path.to_owned(),
        message: "no app or config/iparams.json found in this folder, nor an app above it".into(),
    });
    (found, error)
}

/// The app whose iparams.json `file` is, by [`app_of`]; `None` for any other file.
pub fn app_of_iparams(file: &Path) -> Option<PathBuf> {
    // Only a file named iparams.json is looked for an app around (on the disk): however its
    // path is spelled (`iparams.json` typed inside config/, `./`, `..`).
    if file.file_name().is_none_or(|name| name != "iparams.json") {
        return None;
    }
    app_of(file)
        .filter(|app| app.relative == IPARAMS_FILE)
        .map(|app| app.root)
}

fn find_in(root: &Path) -> Vec<Input> {
    let mut found = Vec::new();
    for entry in walk(root).filter(|entry| entry.file_type().is_some_and(|t| t.is_file())) {
        let path = entry.path();
        let name = path.file_name().and_then(|n| n.to_str());
        if name == Some(MANIFEST_FILE)
            && let Some(app) = app_of(path).filter(|app| app.relative == MANIFEST_FILE)
        {
            // Spelled as `app_of` spells the app of its iparams.json, which is found too.
            found.push(Input::App(app.root));
        } else if name == Some("iparams.json")
            && path.parent().is_some_and(|dir| dir.ends_with("config"))
        {
            found.push(
                app_of_iparams(path)
                    .map_or_else(|| Input::File(clean(path.to_owned())), Input::App),
            );
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_spelled_as_a_json_file_is_taken_for_one_without_a_look() {
        let folder = std::env::temp_dir().join(format!("iparams-named-{}", std::process::id()));
        let named = folder.join("apps.json");
        std::fs::create_dir_all(named.join("lone/config")).expect("a scratch folder");
        std::fs::write(named.join("lone/config/iparams.json"), "{}").expect("writable");
        let inputs = |path: &Path| discover(&[path.to_owned()]).inputs;
        let file = |path: &Path| vec![Input::File(path.to_owned())];
        // A folder named so, a path that names nothing: files, until they are read.
        assert_eq!(inputs(&named), file(&named));
        let missing = folder.join("missing.json");
        assert_eq!(inputs(&missing), file(&missing));
        // Spelled as a folder, the same folder is looked at, and into.
        let lone = named.join("lone/config/iparams.json");
        let mut slashed = named.clone().into_os_string();
        slashed.push("/");
        assert_eq!(inputs(Path::new(&slashed)), [Input::File(lone.clone())]);
        assert_eq!(discover_folder(&named).inputs, [Input::File(lone)]);
        let _ = std::fs::remove_dir_all(&folder);
    }

    #[test]
    fn any_file_or_folder_of_an_app_is_its_app() {
        let folder = std::env::temp_dir().join(format!("iparams-of-app-{}", std::process::id()));
        let app = folder.join("app");
        let read = [
            "manifest.json",
            "config/iparams.json",
            "config/requests.json",
            "config/assets/iparams.js",
            "config/iparams.html",
            "app/scripts/app.js",
            "server/server.js",
        ];
        for file in read.iter().chain(&["app/styles/style.css"]) {
            let path = app.join(file);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("folders");
            std::fs::write(&path, "{}").expect("writable");
        }
        let of_app = [Input::App(app.clone())];
        for file in read.iter().chain(&["config", "app/scripts"]) {
            let found = discover(&[app.join(file)]);
            assert_eq!(found.inputs, of_app, "{file}");
            assert!(found.errors.is_empty() && found.notes.is_empty(), "{file}");
        }
        // A file no rule reads is said so, and not checked as anything.
        let style = discover(&[app.join("app/styles/style.css")]);
        assert!(style.inputs.is_empty());
        assert!(
            style.notes[0]
                .message
                .starts_with("no rule reads this file")
        );
        // A file of the app it does not hold is an error, not a check of the app.
        let missing = discover(&[app.join("config/oauth_config.json")]);
        assert!(missing.inputs.is_empty());
        assert_eq!(missing.errors[0].message, "no such file");
        // Outside an app, only JSON files are checked (as iparams.json); a script is not.
        let script = folder.join("lone.js");
        std::fs::write(&script, "x").expect("writable");
        let lone = discover(&[script]);
        assert!(lone.inputs.is_empty());
        assert!(lone.notes[0].message.starts_with("not inside an app"));
        // Nor an app's other JSON files: templates are never read as iparams.
        let requests = folder.join("requests.json");
        std::fs::write(&requests, "{}").expect("writable");
        let lone = discover(&[requests]);
        assert!(lone.inputs.is_empty() && lone.notes.len() == 1);
        assert_eq!(discover(&[folder.join("other.json")]).inputs.len(), 1);
        let _ = std::fs::remove_dir_all(&folder);
    }

    /// Paths of the command line, spelled every which way: repeated, plain or not, absolute or
    /// relative, with names that sort around `/`.
    fn random_inputs(seed: &mut u64) -> Vec<Input> {
        const PARTS: [&str; 12] = [
            "a", "b", "a-b", "a.b", "ab", "-", ".", "..", "", "é", " x", "a0",
        ];
        let mut next = |below: usize| {
            *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (*seed >> 33) as usize % below
        };
        (0..next(12))
            .map(|_| {
                let mut path = String::new();
                if next(4) == 0 {
                    path.push('/');
                }
                let parts: Vec<&str> = (0..1 + next(4)).map(|_| PARTS[next(PARTS.len())]).collect();
                path.push_str(&parts.join("/"));
                if next(8) == 0 {
                    path.push('/');
                }
                match next(5) {
                    0 => Input::App(PathBuf::from(path)),
                    1 => Input::Stdin,
                    _ => Input::File(PathBuf::from(path)),
                }
            })
            .collect()
    }

    #[test]
    fn inputs_are_sorted_and_without_repeats_as_paths_compare() {
        let mut seed = 0x2545_f491_4f6c_dd1d;
        let mut plain = 0;
        for _ in 0..20_000 {
            let inputs = random_inputs(&mut seed);
            let mut expected = inputs.clone();
            expected.sort();
            expected.dedup();
            let mut ours = inputs.clone();
            sort_without_repeats(&mut ours);
            assert_eq!(ours, expected, "{inputs:?}");
            plain += usize::from(inputs.iter().all(|i| i.path().is_none_or(spelled_plainly)));
        }
        // Many runs take the quick way.
        assert!(plain > 2_000, "{plain}");
    }
}
