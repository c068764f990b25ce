//! `iparams-lint check`: find the files, lint (and fix) them in parallel, render the findings
//! in path order, and decide the exit status.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use iparams_core::{Applicability, Linter, RuleSettings, Severity, SourceText};
use rayon::prelude::*;

use crate::cli::{CheckArgs, FailLevel};
use crate::config::{self, Config};
use crate::discover::{Input, discover};
use crate::render::{self, CheckedFile, RenderOptions, Renderer, Summary};
use crate::write::replace_file;
use crate::{Environment, exit};

/// Output is kept to this width when the terminal's is unknown, so logs are stable.
const DEFAULT_WIDTH: usize = 100;

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
}

/// One file to check, with the rule levels that apply to it.
struct Job {
    input: Input,
    /// The path shown in output.
    shown: String,
    settings: RuleSettings,
}

/// What checking one file produced.
#[derive(Default)]
struct Outcome {
    piece: String,
    summary: Summary,
    diff: Option<String>,
    /// The fixed text of standard input, printed in place of the findings.
    stdin_text: Option<String>,
    error: Option<String>,
}

pub fn run(
    args: CheckArgs,
    env: &Environment,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> u8 {
    let command_line = match config::parse_command_line_rules(&args.rules) {
        Ok(levels) => levels,
        Err(message) => return fail(stderr, &message),
    };
    let explicit = match args.config.as_deref().map(Config::load).transpose() {
        Ok(config) => config.map(Arc::new),
        Err(error) => return fail(stderr, &error.to_string()),
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

    let mut configs = ConfigFinder {
        explicit,
        found: HashMap::new(),
    };
    let mut jobs = Vec::new();
    for input in inputs {
        let (shown, location) = match &input {
            Input::File(path) => (path.display().to_string(), path.clone()),
            Input::Stdin => {
                let name = args
                    .stdin_filename
                    .clone()
                    .unwrap_or_else(|| "<stdin>".to_owned());
                (name.clone(), PathBuf::from(name))
            }
        };
        let config = match configs.for_file(&location) {
            Ok(config) => config,
            Err(message) => return fail(stderr, &message),
        };
        if matches!(input, Input::File(_)) && config.as_ref().is_some_and(|c| c.ignores(&location))
        {
            continue;
        }
        let settings = config.map_or_else(
            || config::settings_without_config(&command_line),
            |c| c.settings(&location, &command_line),
        );
        jobs.push(Job {
            input,
            shown,
            settings,
        });
    }

    let stdin_bytes = if jobs.iter().any(|job| job.input == Input::Stdin) {
        let mut bytes = Vec::new();
        if let Err(error) = stdin.read_to_end(&mut bytes) {
            return fail(stderr, &format!("cannot read standard input: {error}"));
        }
        bytes
    } else {
        Vec::new()
    };

    let mode = Mode::of(&args);
    let fail_level = match args.fail_level {
        FailLevel::Error => Severity::Error,
        FailLevel::Warning => Severity::Warning,
        FailLevel::Info => Severity::Info,
    };
    let options = RenderOptions {
        color: env.color(args.color),
        width: env.terminal_width.unwrap_or(DEFAULT_WIDTH),
        quiet: args.quiet,
        fail_level,
    };
    let renderer = render::renderer(args.format, options);
    let outcomes: Vec<Outcome> = jobs
        .par_iter()
        .map_init(Linter::default, |linter, job| {
            process(linter, job, mode, renderer.as_ref(), &stdin_bytes)
        })
        .collect();

    let mut summary = Summary::default();
    let mut pieces = Vec::new();
    let mut diffs = String::new();
    let mut stdin_text = None;
    let mut at_fail_level = false;
    for outcome in outcomes {
        if let Some(error) = outcome.error {
            let _ = writeln!(stderr, "iparams-lint: {error}");
            trouble = true;
        }
        at_fail_level |= match fail_level {
            Severity::Error => outcome.summary.errors > 0,
            Severity::Warning => outcome.summary.errors + outcome.summary.warnings > 0,
            Severity::Info => {
                outcome.summary.errors + outcome.summary.warnings + outcome.summary.infos > 0
            }
        };
        summary.merge(&outcome.summary);
        pieces.push(outcome.piece);
        diffs.push_str(&outcome.diff.unwrap_or_default());
        stdin_text = stdin_text.or(outcome.stdin_text);
    }

    if let Mode::Diff(_) = mode {
        let _ = stdout.write_all(diffs.as_bytes());
        let _ = writeln!(
            stderr,
            "{} would be fixed in {}.",
            render::plural(summary.fixed, "problem"),
            render::plural(summary.fixed_files, "file")
        );
        return if trouble {
            exit::TROUBLE
        } else if summary.fixed > 0 {
            exit::FINDINGS
        } else {
            exit::CLEAN
        };
    }
    let report = renderer.finish(pieces, &summary);
    // With standard input fixed, the fixed text is the output and the findings go aside.
    let (findings_out, text_out): (&mut dyn Write, Option<String>) = match stdin_text {
        Some(text) => (stderr, Some(text)),
        None => (stdout, None),
    };
    // A closed pipe (`| head`) is not an error worth reporting.
    let _ = findings_out
        .write_all(report.as_bytes())
        .and_then(|()| findings_out.flush());
    if let Some(text) = text_out {
        let _ = stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush());
    }
    if trouble {
        exit::TROUBLE
    } else if at_fail_level {
        exit::FINDINGS
    } else {
        exit::CLEAN
    }
}

/// Reports a problem that stops the run before any file is checked.
fn fail(stderr: &mut dyn Write, message: &str) -> u8 {
    let _ = writeln!(stderr, "iparams-lint: {message}");
    exit::TROUBLE
}

fn process(
    linter: &mut Linter,
    job: &Job,
    mode: Mode,
    renderer: &dyn Renderer,
    stdin_bytes: &[u8],
) -> Outcome {
    let bytes = match &job.input {
        Input::Stdin => stdin_bytes.to_vec(),
        Input::File(path) => match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(error) => {
                return Outcome {
                    error: Some(format!("{}: {}", job.shown, describe_io_error(&error))),
                    ..Outcome::default()
                };
            }
        },
    };
    let source = SourceText::decode(&bytes);
    let mut outcome = Outcome::default();
    let (report, text) = match mode {
        Mode::Check => (linter.lint_with(&source, &job.settings), None),
        Mode::Fix(allowed) | Mode::Diff(allowed) => {
            let fixed = linter.fix(&source, &job.settings, allowed);
            if let Some(text) = &fixed.text {
                outcome.summary.fixed = fixed.fixed;
                outcome.summary.fixed_files = 1;
                match (mode, &job.input) {
                    (Mode::Diff(_), _) => {
                        outcome.diff = Some(unified_diff(&job.shown, source.text(), text))
                    }
                    (_, Input::File(path)) => {
                        if let Err(error) = replace_file(path, &bytes, text.as_bytes()) {
                            outcome.error = Some(format!("{}: {error}", job.shown));
                            outcome.summary.fixed = 0;
                            outcome.summary.fixed_files = 0;
                        }
                    }
                    (_, Input::Stdin) => {}
                }
            }
            if job.input == Input::Stdin && matches!(mode, Mode::Fix(_)) {
                outcome.stdin_text = Some(
                    fixed
                        .text
                        .clone()
                        .unwrap_or_else(|| source.text().to_owned()),
                );
            }
            (fixed.report, fixed.text)
        }
    };
    let shown_text = text.as_deref().unwrap_or(source.text());
    outcome.summary.add(&report);
    outcome.piece = renderer.file(&CheckedFile {
        path: &job.shown,
        text: shown_text,
        report: &report,
    });
    outcome
}

fn unified_diff(path: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(2)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}

/// Configuration files, found once per folder.
struct ConfigFinder {
    explicit: Option<Arc<Config>>,
    found: HashMap<PathBuf, Option<Arc<Config>>>,
}

impl ConfigFinder {
    fn for_file(&mut self, file: &Path) -> Result<Option<Arc<Config>>, String> {
        if let Some(config) = &self.explicit {
            return Ok(Some(Arc::clone(config)));
        }
        let folder = file
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_owned();
        if let Some(config) = self.found.get(&folder) {
            return Ok(config.clone());
        }
        let config = match config::find(&folder) {
            None => None,
            Some(path) => Some(Arc::new(
                Config::load(&path).map_err(|error| error.to_string())?,
            )),
        };
        self.found.insert(folder, config.clone());
        Ok(config)
    }
}

fn describe_io_error(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::IsADirectory => "is a folder".into(),
        _ => format!("cannot read: {error}"),
    }
}
