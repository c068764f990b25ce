//! The workspace itself: the configuration found so far, the text that overlays files (an
//! editor's buffers, standard input) and the plan of what to check; loading an app
//! (`app.rs`) and checking a target (`check.rs`) are its methods too.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use iparams_core::RuleSettings;

use super::config::{Choices, JobRules, Resolved, RuleSources};
use super::discover::{self, discover};
use super::place;
use super::plan::{Plan, plan_inputs};
use crate::read;

/// Files, configuration and unsaved text, as the front-ends see them.
#[derive(Debug)]
pub struct Workspace {
    rules: RuleSources,
    /// Text that wins over the file at the same (absolute, normalised) path.
    overlays: HashMap<PathBuf, Vec<u8>>,
    /// Standard input, when it is checked on its own (not as a file of an app).
    stdin: Vec<u8>,
}

impl Workspace {
    /// A workspace with what the command line says of configuration; `Err` says what is
    /// wrong with it.
    pub fn new(choices: &Choices) -> Result<Self, String> {
        Ok(Self {
            rules: RuleSources::new(choices)?,
            overlays: HashMap::new(),
            stdin: Vec::new(),
        })
    }

    /// Makes `text` the contents of the file at `path`, whatever the disk holds.
    pub fn overlay(&mut self, path: &Path, text: Vec<u8>) {
        self.overlays.insert(key(path), text);
    }

    /// The file at `path` is the disk's again (an editor closed it).
    pub fn remove_overlay(&mut self, path: &Path) {
        self.overlays.remove(&key(path));
    }

    /// Reads configuration files again on their next use (one was edited, created or removed).
    pub fn forget_configuration(&mut self) {
        self.rules.forget_found();
    }

    /// The text that stands for the file at `path`, if any.
    pub fn overlaid(&self, path: &Path) -> Option<&[u8]> {
        // A run of the command has none: it need not ask for the working folder per file.
        if self.overlays.is_empty() {
            return None;
        }
        self.overlays.get(&key(path)).map(Vec::as_slice)
    }

    /// The paths inside folder `root` (relative, with `/` separators) of the overlaid files.
    pub fn overlaid_in(&self, root: &Path) -> Vec<String> {
        let root = key(root);
        self.overlays
            .keys()
            .filter_map(|path| path.strip_prefix(&root).ok())
            .map(|relative| relative.to_string_lossy().replace('\\', "/"))
            .collect()
    }

    /// The bytes of the file at `path`: its overlay, or the disk's.
    pub fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        match self.overlaid(path) {
            Some(text) => Ok(text.to_vec()),
            None => read::read_file(path),
        }
    }

    /// Standard input, as the plan needs it: the unsaved text of the file `--stdin-filename`
    /// names when that file is in an app, or a file of its own.
    pub fn give_stdin(&mut self, plan: &Plan, bytes: Vec<u8>) {
        match &plan.stdin_path {
            Some(path) => self.overlay(path, bytes),
            None => self.stdin = bytes,
        }
    }

    /// Standard input checked on its own.
    pub fn stdin(&self) -> &[u8] {
        &self.stdin
    }

    /// The jobs for the command line's `paths` (`-` for standard input, named by
    /// `stdin_filename`), without the files that configuration ignores. `Err` is a
    /// configuration that cannot be read.
    pub fn plan(
        &mut self,
        paths: &[PathBuf],
        stdin_filename: Option<&str>,
    ) -> Result<Plan, String> {
        plan_inputs(&mut self.rules, discover(paths), stdin_filename)
    }

    /// The jobs for `folder`, as [`Workspace::plan`] finds them for a folder named on the
    /// command line: for a path the plan took for a file by its name, found out to be a folder
    /// when its job read it. Configuration is looked up with a copy of what was found so far
    /// (the jobs share the workspace; what the copy finds is not kept).
    pub fn plan_folder(&self, folder: &Path) -> Result<Plan, String> {
        plan_inputs(
            &mut self.rules.clone(),
            discover::discover_folder(folder),
            None,
        )
    }

    /// The rule levels of the files of the app at `root`, as a plan of the app has them.
    pub fn rules_for_app(&mut self, root: &Path) -> Result<JobRules, String> {
        self.rules.for_app(root)
    }

    /// The configuration that applies to `path`: to the file, to the app whose folder (or a
    /// folder inside it) it is, or else to an iparams.json in that folder's config/.
    pub fn resolve_settings(&mut self, path: &Path) -> Result<Resolved, String> {
        let file = if path.is_dir() {
            let root = place::app_of(path).map_or_else(|| path.to_owned(), |app| app.root);
            if root == Path::new(".") {
                PathBuf::from(place::IPARAMS_FILE)
            } else {
                root.join(place::IPARAMS_FILE)
            }
        } else {
            path.to_owned()
        };
        self.rules.resolve(&file)
    }

    /// The rule levels for the file at `path`: configuration found above it (or given), and
    /// the command line's.
    pub fn settings_for(&mut self, path: &Path) -> Result<RuleSettings, String> {
        let config = self.rules.config_for(path)?;
        Ok(self.rules.settings(config.as_deref(), path))
    }
}

/// The overlay key of `path`: absolute, `.` and `..` resolved by name as
/// [`app_of`](super::place::app_of) resolves them, so that `./a/b`, `c/../a/b` and `a/b` meet.
fn key(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    place::normalized(&absolute)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::place::IPARAMS_FILE;
    use crate::workspace::plan::Target;

    /// A folder of its own under the temporary folder, removed when dropped.
    struct Folder(PathBuf);

    impl Folder {
        fn new(name: &str) -> Self {
            let dir = std::env::temp_dir()
                .join(format!("iparams-workspace-{}-{name}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).expect("a scratch folder");
            Folder(dir)
        }

        fn write(&self, relative: &str, text: &str) -> PathBuf {
            let path = self.0.join(relative);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("folders");
            std::fs::write(&path, text).expect("writable");
            path
        }
    }

    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    const MANIFEST: &str = r#"{"platform-version": "2.3", "product": {"freshdesk": {}}}"#;

    #[test]
    fn overlays_win_over_the_disk_whatever_the_spelling_of_the_path() {
        let folder = Folder::new("overlay");
        let path = folder.write("app/config/iparams.json", "{}");
        let mut workspace = Workspace::new(&Choices::default()).expect("no configuration");
        assert_eq!(workspace.read(&path).expect("readable"), b"{}");
        let spelled_otherwise = folder.0.join("app/./config/iparams.json");
        workspace.overlay(&spelled_otherwise, b"{\"a\": 1}".to_vec());
        assert_eq!(workspace.read(&path).expect("readable"), b"{\"a\": 1}");
        assert_eq!(
            workspace.overlaid_in(&folder.0.join("app")),
            ["config/iparams.json"]
        );
    }

    #[test]
    fn an_app_is_loaded_once_with_its_unsaved_files() {
        let folder = Folder::new("load");
        folder.write("app/manifest.json", MANIFEST);
        folder.write("app/config/iparams.json", "{}");
        folder.write("app/app/scripts/app.js", "client.iparams.get('a');");
        folder.write("app/app/styles/app.css", "body {}");
        let root = folder.0.join("app");
        let mut workspace = Workspace::new(&Choices::default()).expect("no configuration");
        // A script the editor holds but the disk does not have yet.
        workspace.overlay(&root.join("server/server.js"), b"exports = {};".to_vec());
        let app = workspace.load_app(&root, "app");
        let relatives: Vec<&str> = app.files.iter().map(|f| f.relative.as_str()).collect();
        assert_eq!(
            relatives,
            [
                "app/scripts/app.js",
                "config/iparams.json",
                "manifest.json",
                "server/server.js"
            ]
        );
        let server = app.file("server/server.js").expect("the unsaved script");
        assert!(server.overlaid);
        assert_eq!(server.shown, "app/server/server.js");
        assert!(!app.file(IPARAMS_FILE).expect("iparams.json").overlaid);
        assert_eq!(app.config_entries, [("iparams.json".to_owned(), false)]);
        let input = app.input().expect("a manifest");
        assert_eq!(input.serverless.len(), 1);
        assert_eq!(input.frontend.len(), 1);
    }

    #[test]
    fn plans_skip_what_configuration_ignores_but_never_standard_input() {
        let folder = Folder::new("plan");
        folder.write(".iparams-lint.toml", "ignore = [\"legacy/**\"]\n");
        folder.write("legacy/config/iparams.json", "{}");
        folder.write("current/config/iparams.json", "{}");
        let mut workspace = Workspace::new(&Choices::default()).expect("no configuration");
        let plan = workspace
            .plan(std::slice::from_ref(&folder.0), None)
            .expect("a readable configuration");
        let targets: Vec<&Target> = plan.jobs.iter().map(|job| &job.target).collect();
        assert_eq!(
            targets,
            [&Target::File(folder.0.join("current/config/iparams.json"))]
        );
        assert!(!plan.reads_stdin);

        let ignored = folder.0.join("legacy/config/iparams.json");
        let name = ignored.to_string_lossy().into_owned();
        let plan = workspace
            .plan(&[PathBuf::from("-")], Some(&name))
            .expect("a readable configuration");
        assert_eq!(plan.jobs.len(), 1);
        assert_eq!(plan.jobs[0].target, Target::Stdin);
        assert!(plan.reads_stdin);
        assert_eq!(plan.stdin_path, None);
    }

    #[test]
    fn standard_input_named_in_an_app_is_that_file_unsaved() {
        let folder = Folder::new("stdin");
        folder.write("app/manifest.json", MANIFEST);
        let iparams = folder.write("app/config/iparams.json", "{}");
        let mut workspace = Workspace::new(&Choices::default()).expect("no configuration");
        let name = iparams.to_string_lossy().into_owned();
        let plan = workspace
            .plan(&[PathBuf::from("-")], Some(&name))
            .expect("a readable configuration");
        assert_eq!(plan.jobs[0].target, Target::App(folder.0.join("app")));
        assert_eq!(plan.stdin_path.as_deref(), Some(iparams.as_path()));
        workspace.give_stdin(&plan, b"{\"b\": 2}".to_vec());
        let app = workspace.load_app(&folder.0.join("app"), "app");
        let file = app.file(IPARAMS_FILE).expect("iparams.json");
        assert!(file.overlaid);
        assert_eq!(file.bytes, b"{\"b\": 2}");
    }

    #[test]
    fn an_app_without_a_readable_manifest_is_checked_as_its_iparams_json_alone() {
        let folder = Folder::new("no-manifest");
        folder.write(
            "app/config/iparams.json",
            r#"{"a": {"display_name": "A", "type": "txt"}}"#,
        );
        folder.write("app/app/scripts/app.js", "client.iparams.get('b');");
        let root = folder.0.join("app");
        let workspace = Workspace::new(&Choices::default()).expect("no configuration");
        let mut linter = iparams_core::Linter::default();
        let checked = workspace.check(
            &mut linter,
            &Target::App(root.clone()),
            "app",
            &JobRules::default(),
        );
        assert_eq!(
            checked.errors,
            ["app/manifest.json: no such file; only the rules of iparams.json itself were checked"]
        );
        let relatives: Vec<Option<&str>> = checked
            .verdicts
            .iter()
            .map(|verdict| verdict.relative.as_deref())
            .collect();
        assert_eq!(relatives, [Some(IPARAMS_FILE)]);
        let verdict = checked.verdict(IPARAMS_FILE).expect("iparams.json");
        assert_eq!(verdict.shown, "app/config/iparams.json");
        assert_eq!(verdict.report.diagnostics[0].rule, "unknown-type");
        assert!(checked.source(verdict).text().contains("\"txt\""));
    }

    #[test]
    fn a_file_is_checked_in_its_app_and_its_verdict_named() {
        let folder = Folder::new("named");
        folder.write("app/manifest.json", MANIFEST);
        let iparams = folder.write("app/config/iparams.json", "{}");
        folder.write("app/app/scripts/app.js", "client.iparams.get('missing');");
        let lone = folder.write(
            "lone.json",
            r#"{"a": {"display_name": "A", "type": "txt"}}"#,
        );
        let mut workspace = Workspace::new(&Choices::default()).expect("no configuration");
        workspace.overlay(
            &iparams,
            br#"{"b": {"display_name": "B", "type": "txt"}}"#.to_vec(),
        );
        let mut linter = iparams_core::Linter::default();
        let rules = JobRules::default();
        let checked = workspace.check(&mut linter, &Target::File(iparams.clone()), "x", &rules);
        assert!(checked.errors.is_empty(), "{:?}", checked.errors);
        let named = checked.named().expect("iparams.json's verdict");
        assert_eq!(named.relative.as_deref(), Some(IPARAMS_FILE));
        assert!(
            named
                .report
                .diagnostics
                .iter()
                .any(|d| d.rule == "unknown-type")
        );
        // The script's read of an undefined iparam is the app's to find.
        let script = checked.verdict("app/scripts/app.js").expect("the script");
        assert!(!script.report.diagnostics.is_empty());

        let shown = lone.display().to_string();
        let checked = workspace.check(&mut linter, &Target::File(lone), &shown, &rules);
        let named = checked.named().expect("the lone file's verdict");
        assert_eq!(
            (named.relative.as_deref(), named.shown.as_str()),
            (None, shown.as_str())
        );
        assert!(
            named
                .report
                .diagnostics
                .iter()
                .any(|d| d.rule == "unknown-type")
        );
    }
}
