//! From the paths on the command line to what to check: whole apps, lone iparams.json files,
//! or standard input.

use std::path::{Path, PathBuf};

use iparams_core::app::{Role, SKIPPED_FOLDERS};
use rayon::prelude::*;

use super::place::{IPARAMS_FILE, MANIFEST_FILE, app_of, is_app};

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

/// Expands the command line's paths: a folder into the apps and iparams.json files below it
/// (skipping what .gitignore ignores), an iparams.json into its app when it is in one. The
/// result is sorted and without repeats.
pub fn discover(paths: &[PathBuf]) -> (Vec<Input>, Vec<DiscoveryError>) {
    // A path not named as a lone JSON file costs a system call or more (is it a folder? an
    // app's iparams.json?): a shell glob of thousands of them is looked at on every thread. A
    // few are looked at here, without starting the threads.
    let found: Vec<(Vec<Input>, Option<DiscoveryError>)> = if paths.len() < 16 {
        paths.iter().map(|path| expand(path)).collect()
    } else {
        paths.par_iter().map(|path| expand(path)).collect()
    };
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for (expanded, error) in found {
        inputs.extend(expanded);
        errors.extend(error);
    }
    sort_without_repeats(&mut inputs);
    (inputs, errors)
}

/// What [`discover`] finds for `folder` named as a folder, whatever its name: for a path taken
/// for a file by its name (see [`expand`]) that its read found to be a folder.
pub fn discover_folder(folder: &Path) -> (Vec<Input>, Vec<DiscoveryError>) {
    let (mut inputs, error) = in_folder(folder);
    sort_without_repeats(&mut inputs);
    (inputs, error.into_iter().collect())
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

/// What one path of the command line stands for.
///
/// A path spelled as a JSON file (`x.json`, not `x.json/`) other than an iparams.json is taken
/// for a lone file by its name: looking at it would cost a system call, and its read
/// finds out anyway (a shell's glob names thousands of files, and this look was a twentieth of
/// the run). Should it be a folder after all, its job checks the folder then (see
/// [`in_folder`]); an app inside it that the command line also names is then checked twice, as
/// repeats are dropped before the folder is known to be one (a rare case, left so).
fn expand(path: &Path) -> (Vec<Input>, Option<DiscoveryError>) {
    if path.as_os_str() == "-" {
        return (vec![Input::Stdin], None);
    }
    let spelled_as_json = path.as_os_str().as_encoded_bytes().ends_with(b".json");
    if spelled_as_json && path.file_name().is_none_or(|name| name != "iparams.json") {
        return (vec![Input::File(path.to_owned())], None);
    }
    if !path.is_dir() {
        // Missing or unreadable files are reported when they are read.
        let input = app_of_iparams(path).map_or_else(|| Input::File(path.to_owned()), Input::App);
        return (vec![input], None);
    }
    in_folder(path)
}

/// What a folder holds to check: itself when it is an app, else the apps and iparams.json
/// files below it; an error when it holds none.
fn in_folder(path: &Path) -> (Vec<Input>, Option<DiscoveryError>) {
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
        let file = |path: &Path| vec![Input::File(path.to_owned())];
        // A folder named so, a path that names nothing: files, until they are read.
        assert_eq!(expand(&named).0, file(&named));
        let missing = folder.join("missing.json");
        assert_eq!(expand(&missing).0, file(&missing));
        // Spelled as a folder, the same folder is looked at, and into.
        let lone = named.join("lone/config/iparams.json");
        let mut slashed = named.clone().into_os_string();
        slashed.push("/");
        assert_eq!(expand(Path::new(&slashed)).0, [Input::File(lone.clone())]);
        assert_eq!(discover_folder(&named).0, [Input::File(lone)]);
        // An app's iparams.json is still looked at, to find its app.
        let in_app = folder.join("app/config/iparams.json");
        std::fs::create_dir_all(in_app.parent().expect("a parent")).expect("folders");
        std::fs::write(folder.join("app/manifest.json"), "{}").expect("writable");
        assert_eq!(expand(&in_app).0, [Input::App(folder.join("app"))]);
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
