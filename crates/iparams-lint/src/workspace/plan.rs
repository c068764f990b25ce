//! What to check: the jobs for what discovery found, each with the rule levels that apply to it.

use std::path::PathBuf;

use super::config::{JobRules, RuleSources};
use super::discover::{self, Discovered, DiscoveryError, FileKind, Input};
use super::place::{MANIFEST_FILE, app_of};

/// What to check: one job per app or lone file, in path order.
#[derive(Debug, Default)]
pub struct Plan {
    pub jobs: Vec<Job>,
    /// Paths on the command line that named nothing to check.
    pub errors: Vec<DiscoveryError>,
    /// Files named on the command line that no rule reads, each with why.
    pub notes: Vec<DiscoveryError>,
    /// Whether a job reads standard input, which must then be given to
    /// [`Workspace::give_stdin`](crate::workspace::Workspace::give_stdin) before the jobs run.
    pub reads_stdin: bool,
    /// The file of an app that standard input stands for (an editor's unsaved buffer).
    pub stdin_path: Option<PathBuf>,
}

/// One app or file to check, with the rule levels that apply to it.
#[derive(Debug)]
pub struct Job {
    pub target: Target,
    /// How output names it: the file, or the app's folder.
    pub shown: String,
    /// The levels of its files, and which are left out.
    pub settings: JobRules,
}

/// What a job checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// An app folder: iparams.json with the app around it, and the app's other files.
    App(PathBuf),
    /// An iparams.json outside any app, checked with its own rules only.
    File(PathBuf),
    /// Standard input outside any app, named as `--stdin-filename` says.
    Stdin,
}

/// The jobs for what was discovered, each with its rule levels, without those configuration
/// or `--exclude` leaves out.
pub(super) fn plan_inputs(
    rules: &mut RuleSources,
    discovered: Discovered,
    stdin_filename: Option<&str>,
) -> Result<Plan, String> {
    let mut plan = Plan {
        errors: discovered.errors,
        notes: discovered.notes,
        ..Plan::default()
    };
    for input in discovered.inputs {
        let (target, shown, location, from_stdin) = match input {
            Input::App(root) => {
                let location = root.join("config/iparams.json");
                let shown = root.to_string_lossy().into_owned();
                (Target::App(root), shown, location, false)
            }
            Input::File(path) => {
                let shown = path.to_string_lossy().into_owned();
                (Target::File(path.clone()), shown, path, false)
            }
            Input::Stdin => {
                let name = stdin_filename.unwrap_or("<stdin>").to_owned();
                // The text an editor holds of a file of an app stands for that file in its
                // app, whatever file it is.
                let path = PathBuf::from(&name);
                // Outside an app, what is piped in is an iparams.json, whatever its name.
                let app = stdin_filename.and_then(|_| app_of(discover::folder_of(&path)));
                let kind = match app {
                    Some(app) => discover::file_kind(&path, Some(app)),
                    None => FileKind::Lone,
                };
                match kind {
                    FileKind::OfApp(root) => {
                        let shown = root.to_string_lossy().into_owned();
                        plan.stdin_path = Some(path.clone());
                        (Target::App(root), shown, path, true)
                    }
                    FileKind::Lone => (Target::Stdin, name, path, true),
                    FileKind::Unread(message) => {
                        plan.notes.push(DiscoveryError { path, message });
                        continue;
                    }
                }
            }
        };
        let config = rules.config_for(&location)?;
        // An app is left out when its manifest.json and iparams.json both are (a glob of its
        // folder); else each of its files is, by its own path, when it is checked.
        let excluded = match &target {
            Target::App(root) => {
                let manifest = root.join(MANIFEST_FILE);
                rules.excludes(config.as_deref(), &location)
                    && rules.excludes(config.as_deref(), &manifest)
            }
            _ => rules.excludes(config.as_deref(), &location),
        };
        // Text given on standard input is checked even where configuration leaves its path out.
        if !from_stdin && excluded {
            continue;
        }
        plan.reads_stdin |= from_stdin;
        let settings = match &target {
            Target::App(root) if !from_stdin => rules.for_app(root)?,
            _ => JobRules::uniform(rules.settings(config.as_deref(), &location)),
        };
        plan.jobs.push(Job {
            target,
            shown,
            settings,
        });
    }
    Ok(plan)
}
