//! `iparams-lint check`: find the apps and files, lint (and fix) them in parallel, render the
//! findings in path order, and decide the exit status.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use iparams_core::app::{AppFile, AppInput};
use iparams_core::fix::FixOutcome;
use iparams_core::{Applicability, FileReport, Linter, RuleSettings, SourceText, redact};
use rayon::prelude::*;

use crate::cli::CheckArgs;
use crate::config::RuleSources;
use crate::discover::{self, Input, discover};
use crate::output::{self, describe_io_error, emit, fail, flush};
use crate::render::ordered::{JobOutput, Ordered};
use crate::render::{self, CheckedFile, Renderer, Summary};
use crate::write::replace_file;
use crate::{Environment, exit};

/// App scripts larger than this are not the app's own code (bundles, libraries) and are skipped.
const MAX_SCRIPT_BYTES: usize = 2 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Check,
    /// Write the fixes up to this applicability.
    Fix(Applicability),
    /// Print them as a diff instead.
    Diff(Applicability),
}

impl Mode {
    fn of(args: &CheckArgs) -> Self {
        let allowed = if args.unsafe_fixes {
            Applicability::Unsafe
        } else {
            Applicability::Safe
        };
        if args.diff {
            Mode::Diff(allowed)
        } else if args.fix || args.unsafe_fixes {
            Mode::Fix(allowed)
        } else {
            Mode::Check
        }
    }

    fn fixes(self) -> Option<Applicability> {
        match self {
            Mode::Check => None,
            Mode::Fix(allowed) | Mode::Diff(allowed) => Some(allowed),
        }
    }
}

/// One app or file to check, with the rule levels that apply to it.
struct Job {
    input: Input,
    /// How output names it: the file, or the app's folder.
    shown: String,
    settings: RuleSettings,
    /// The app's iparams.json comes from standard input (an editor's unsaved buffer).
    iparams_from_stdin: bool,
}

/// What checking one job produced, besides its output.
#[derive(Default)]
struct Outcome {
    summary: Summary,
    /// The fixed text of standard input, printed in place of the findings.
    stdin_text: Option<String>,
    errors: Vec<String>,
    /// Checked outside any app, with in-file rules only.
    alone: bool,
}

pub fn run(
    args: CheckArgs,
    env: &Environment,
    stdin: &mut dyn Read,
    stdout: &mut (dyn Write + Send),
    stderr: &mut (dyn Write + Send),
) -> u8 {
    let mut sources = match RuleSources::new(&args.rules) {
        Ok(sources) => sources,
        Err(message) => return fail(stderr, &message),
    };
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let (inputs, discovery_errors) = discover(&paths);
    let mut trouble = !discovery_errors.is_empty();
    for error in &discovery_errors {
        let _ = writeln!(
            stderr,
            "iparams-lint: {}: {}",
            error.path.display(),
            error.message
        );
    }

    let mut jobs = Vec::new();
    for input in inputs {
        let (input, shown, location, iparams_from_stdin) = match input {
            Input::App(root) => {
                let location = root.join("config/iparams.json");
                (
                    Input::App(root.clone()),
                    root.display().to_string(),
                    location,
                    false,
                )
            }
            Input::File(path) => (
                Input::File(path.clone()),
                path.display().to_string(),
                path,
                false,
            ),
            Input::Stdin => {
                let name = args
                    .stdin_filename
                    .clone()
                    .unwrap_or_else(|| "<stdin>".to_owned());
                match discover::app_of(Path::new(&name)) {
                    Some(root) => (
                        Input::App(root.clone()),
                        root.display().to_string(),
                        PathBuf::from(&name),
                        true,
                    ),
                    None => (Input::Stdin, name.clone(), PathBuf::from(name), false),
                }
            }
        };
        let config = match sources.config_for(&location) {
            Ok(config) => config,
            Err(message) => return fail(stderr, &message),
        };
        if !matches!(input, Input::Stdin)
            && !iparams_from_stdin
            && config.as_ref().is_some_and(|c| c.ignores(&location))
        {
            continue;
        }
        let settings = sources.settings(config.as_deref(), &location);
        jobs.push(Job {
            input,
            shown,
            settings,
            iparams_from_stdin,
        });
    }

    let stdin_bytes = if jobs
        .iter()
        .any(|job| job.input == Input::Stdin || job.iparams_from_stdin)
    {
        let mut bytes = Vec::new();
        if let Err(error) = stdin.read_to_end(&mut bytes) {
            return fail(stderr, &format!("cannot read standard input: {error}"));
        }
        bytes
    } else {
        Vec::new()
    };

    let mode = Mode::of(&args);
    let (renderer, fail_level) = output::renderer(&args.output, env);
    // With standard input fixed, the fixed text is the output and the findings go aside.
    let stdin_fixed = matches!(mode, Mode::Fix(_))
        && jobs
            .iter()
            .any(|job| job.input == Input::Stdin || job.iparams_from_stdin);
    let diff = matches!(mode, Mode::Diff(_));
    let totals_first = !diff && renderer.totals_first();
    // The output of a format that states totals first waits here for the totals.
    let mut held = Vec::new();
    let (outcomes, wrote_files) = {
        let target: &mut (dyn Write + Send) = if totals_first {
            &mut held
        } else if stdin_fixed {
            &mut *stderr
        } else {
            &mut *stdout
        };
        if !diff && !totals_first {
            let _ = renderer.begin(&Summary::default(), target);
        }
        let ordered = Ordered::new(target, if diff { b"" } else { renderer.separator() });
        let outcomes: Vec<Outcome> = jobs
            .par_iter()
            .enumerate()
            .map_init(Linter::default, |linter, (index, job)| {
                let mut output = ordered.job(index);
                let mut context = JobContext {
                    mode,
                    renderer: renderer.as_ref(),
                    stdin: &stdin_bytes,
                    output: &mut output,
                };
                let outcome = match &job.input {
                    Input::App(root) => check_app(linter, job, root, &mut context),
                    Input::File(_) | Input::Stdin => check_alone(linter, job, &mut context),
                };
                output.finish();
                outcome
            })
            .collect();
        let wrote_files = ordered.wrote();
        (outcomes, wrote_files)
    };

    let mut summary = Summary::default();
    let mut stdin_text = None;
    let mut alone = Vec::new();
    for outcome in outcomes {
        for error in &outcome.errors {
            let _ = writeln!(stderr, "iparams-lint: {error}");
            trouble = true;
        }
        summary.merge(&outcome.summary);
        stdin_text = stdin_text.or(outcome.stdin_text);
        alone.push(outcome.alone);
    }

    if diff {
        let fixed = render::plural(summary.fixed, "problem");
        let _ = writeln!(
            stderr,
            "{fixed} would be fixed in {}.",
            render::plural(summary.fixed_files, "file")
        );
        flush(stdout);
        return if trouble {
            exit::TROUBLE
        } else if summary.fixed > 0 {
            exit::FINDINGS
        } else {
            exit::CLEAN
        };
    }
    let findings_out: &mut dyn Write = if stdin_fixed { stderr } else { stdout };
    if totals_first {
        let _ = renderer.begin(&summary, findings_out);
        let _ = findings_out.write_all(&held);
    }
    let _ = renderer.end(&summary, wrote_files, findings_out);
    flush(findings_out);
    if let Some(text) = stdin_text {
        emit(stdout, &text);
    }
    if !args.output.quiet {
        say_once_about_lone_files(&jobs, &alone, stderr);
    }
    output::status(trouble, &summary, fail_level)
}

/// Files outside any app get in-file rules only: said once per run, not once per file.
fn say_once_about_lone_files(jobs: &[Job], alone: &[bool], stderr: &mut dyn Write) {
    let lone: Vec<&str> = jobs
        .iter()
        .zip(alone)
        .filter(|(_, alone)| **alone)
        .map(|(job, _)| job.shown.as_str())
        .collect();
    let note = match lone.as_slice() {
        [] => return,
        [one] => format!("{one} is not inside an app (no manifest.json beside its config/ folder)"),
        many => format!(
            "{} iparams.json files are not inside an app (no manifest.json beside their config/ folder)",
            many.len()
        ),
    };
    let _ = writeln!(
        stderr,
        "note: {note}; only the rules of iparams.json itself were checked."
    );
}

/// What a job works with: what every job shares, and its own output.
struct JobContext<'c, 'a, 'o> {
    mode: Mode,
    renderer: &'c dyn Renderer,
    stdin: &'c [u8],
    output: &'c mut JobOutput<'a, 'o>,
}

impl Outcome {
    /// Counts a checked file's findings, and writes them unless fixes are shown as a diff.
    fn add(
        &mut self,
        context: &mut JobContext<'_, '_, '_>,
        path: &str,
        text: &str,
        report: &FileReport,
    ) {
        self.summary.add(report);
        if !matches!(context.mode, Mode::Diff(_)) {
            let renderer = context.renderer;
            context
                .output
                .piece(|out| renderer.file(&CheckedFile { path, text, report }, out));
        }
    }
}

/// A lone iparams.json, or standard input.
fn check_alone(linter: &mut Linter, job: &Job, context: &mut JobContext<'_, '_, '_>) -> Outcome {
    let mut outcome = Outcome {
        alone: true,
        ..Outcome::default()
    };
    let bytes = match &job.input {
        Input::File(path) => match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(error) => {
                outcome
                    .errors
                    .push(format!("{}: {}", job.shown, describe_io_error(&error)));
                return outcome;
            }
        },
        _ => context.stdin.to_vec(),
    };
    let source = SourceText::decode(&bytes);
    let fixed = context
        .mode
        .fixes()
        .map(|allowed| linter.fix(&source, &job.settings, allowed));
    let report = match fixed {
        None => linter.lint_with(&source, &job.settings),
        Some(fixed) => {
            let path = match &job.input {
                Input::File(path) => Some(path.as_path()),
                _ => None,
            };
            if let Some(text) = handle_fix(&mut outcome, job, context, path, &bytes, &fixed) {
                let report = fixed.report;
                outcome.add(context, &job.shown, &text, &report);
                return outcome;
            }
            fixed.report
        }
    };
    outcome.add(context, &job.shown, source.text(), &report);
    outcome
}

/// Writes, diffs or returns (for standard input) a fix; returns the fixed text when there is one.
fn handle_fix(
    outcome: &mut Outcome,
    job: &Job,
    context: &mut JobContext<'_, '_, '_>,
    path: Option<&Path>,
    original: &[u8],
    outcome_of_fix: &FixOutcome,
) -> Option<String> {
    let fixed = outcome_of_fix.text.as_deref();
    let count = outcome_of_fix.fixed;
    let from_stdin = job.input == Input::Stdin || job.iparams_from_stdin;
    if from_stdin && matches!(context.mode, Mode::Fix(_)) {
        outcome.stdin_text = Some(fixed.map_or_else(
            || String::from_utf8_lossy(original).into_owned(),
            str::to_owned,
        ));
    }
    let text = fixed?;
    outcome.summary.fixed = count;
    outcome.summary.fixed_files = 1;
    let shown = path.map_or_else(|| job.shown.clone(), |p| p.display().to_string());
    match (context.mode, path) {
        (Mode::Diff(_), _) => {
            let diff = masked_diff(&shown, original, outcome_of_fix);
            context.output.piece(|out| out.write_all(diff.as_bytes()));
        }
        (Mode::Fix(_), Some(path)) if !from_stdin => {
            if let Err(error) = replace_file(path, original, text.as_bytes()) {
                outcome.errors.push(format!("{shown}: {error}"));
                outcome.summary.fixed = 0;
                outcome.summary.fixed_files = 0;
                return None;
            }
        }
        _ => {}
    }
    Some(text.to_owned())
}

/// A whole app: iparams.json with the app-aware rules, and the app's other files.
fn check_app(
    linter: &mut Linter,
    job: &Job,
    root: &Path,
    context: &mut JobContext<'_, '_, '_>,
) -> Outcome {
    let mut outcome = Outcome::default();
    let shown = |relative: &str| {
        if root == Path::new(".") {
            relative.to_owned()
        } else {
            format!("{}/{relative}", job.shown)
        }
    };
    let mut files: Vec<(String, String, Vec<u8>)> = Vec::new();
    for (relative, path) in discover::app_files(root) {
        if relative == "config/iparams.json" && job.iparams_from_stdin {
            continue;
        }
        match std::fs::read(&path) {
            Ok(bytes) if bytes.len() > MAX_SCRIPT_BYTES && !relative.ends_with(".json") => {}
            Ok(bytes) => files.push((shown(&relative), relative, bytes)),
            Err(error) => outcome.errors.push(format!(
                "{}: {}",
                shown(&relative),
                describe_io_error(&error)
            )),
        }
    }
    if job.iparams_from_stdin {
        let relative = "config/iparams.json".to_owned();
        files.push((shown(&relative), relative, context.stdin.to_vec()));
    }
    let config_folder = shown("config");
    let config_entries: Vec<(String, bool)> = std::fs::read_dir(root.join("config"))
        .map(|entries| {
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
        })
        .unwrap_or_default();
    if app_input(&files, &config_folder, &config_entries).is_none() {
        outcome.errors.push(format!(
            "{}: manifest.json cannot be read",
            shown("manifest.json")
        ));
        return outcome;
    }

    if let Some(allowed) = context.mode.fixes()
        && let Some(index) = files
            .iter()
            .position(|(_, relative, _)| relative == "config/iparams.json")
    {
        let facts = app_input(&files, &config_folder, &config_entries)
            .map(|input| input.facts())
            .unwrap_or_default();
        let original = files[index].2.clone();
        let fixed = linter.fix_in(
            &SourceText::decode(&original),
            &job.settings,
            allowed,
            Some(&facts),
        );
        let path = root.join("config/iparams.json");
        if let Some(text) = handle_fix(&mut outcome, job, context, Some(&path), &original, &fixed) {
            files[index].2 = text.into_bytes();
        }
    }

    let input =
        app_input(&files, &config_folder, &config_entries).expect("the manifest was found above");
    let mut checked = linter.check_app(&input, &job.settings);
    checked.sort_by(|a, b| a.path.cmp(&b.path));
    for file in checked {
        // The config folder is a file of the output only when something is said about it.
        if file.path == config_folder && file.report.diagnostics.is_empty() {
            continue;
        }
        outcome.add(context, &file.path, file.source.text(), &file.report);
    }
    outcome
}

/// The app made of `files`: (path as shown, path inside the app, bytes). `None` without a
/// manifest.json.
fn app_input<'a>(
    files: &'a [(String, String, Vec<u8>)],
    config_folder: &'a str,
    config_entries: &[(String, bool)],
) -> Option<AppInput<'a>> {
    let (manifest_path, _, manifest) = files
        .iter()
        .find(|(_, relative, _)| relative == "manifest.json")?;
    let mut input = AppInput::new(
        AppFile {
            path: manifest_path,
            bytes: manifest,
        },
        config_folder,
    );
    input.config_entries = config_entries.to_vec();
    for (path, relative, bytes) in files {
        input.add(relative, AppFile { path, bytes });
    }
    Some(input)
}

/// What `--diff` prints for a fix of the file shown as `path`, whose bytes were `original`:
/// an output like the others, so the secrets of both texts are masked, context lines included.
/// Empty when the fix changed nothing.
pub fn masked_diff(path: &str, original: &[u8], fixed: &FixOutcome) -> String {
    let Some(text) = fixed.text.as_deref() else {
        return String::new();
    };
    let before = String::from_utf8_lossy(original);
    let before = redact(&before, &fixed.original_redactions);
    let after = redact(text, &fixed.report.redactions);
    unified_diff(path, &before, &after)
}

fn unified_diff(path: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(2)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}
