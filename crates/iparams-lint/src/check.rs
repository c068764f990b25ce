//! `iparams-lint check`: find the files, lint (and fix) them in parallel, render the findings
//! in path order, and decide the exit status.

use std::io::{Read, Write};
use std::path::PathBuf;

use iparams_core::{Applicability, Linter, RuleSettings, SourceText};
use rayon::prelude::*;

use crate::cli::CheckArgs;
use crate::config::RuleSources;
use crate::discover::{Input, discover};
use crate::output::{self, describe_io_error, emit, fail};
use crate::render::{self, CheckedFile, Renderer, Summary};
use crate::write::replace_file;
use crate::{Environment, exit};

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
        let config = match sources.config_for(&location) {
            Ok(config) => config,
            Err(message) => return fail(stderr, &message),
        };
        if matches!(input, Input::File(_)) && config.as_ref().is_some_and(|c| c.ignores(&location))
        {
            continue;
        }
        let settings = sources.settings(config.as_deref(), &location);
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
    let (renderer, fail_level) = output::renderer(&args.output, env);
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
    for outcome in outcomes {
        if let Some(error) = outcome.error {
            let _ = writeln!(stderr, "iparams-lint: {error}");
            trouble = true;
        }
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
    emit(findings_out, &report);
    if let Some(text) = text_out {
        emit(stdout, &text);
    }
    output::status(trouble, &summary, fail_level)
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
