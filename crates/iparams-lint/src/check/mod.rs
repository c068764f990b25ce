//! `iparams-lint check`: find the apps and files, lint (and fix) them in parallel, render the
//! findings in path order, and decide the exit status; with `--watch`, again on every change.

mod show_settings;
pub mod watch;

use std::io::{Read, Write};
use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use iparams_core::{Applicability, FixOutcome, Linter, SourceText, redact};

use crate::cli::CheckArgs;
use crate::environment::{Environment, exit};
use crate::output::{self, describe_io_error, emit, fail, flush};
use crate::render::ordered::{JobOutput, Ordered};
use crate::render::{self, CheckedFile, Renderer, Summary};
use crate::workspace::config::Choices;
use crate::workspace::{IPARAMS_FILE, Job, Plan, Target, Workspace};
use crate::write::replace_file;

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
        } else if args.fix {
            // As in ruff, `--unsafe-fixes` alone writes nothing: it widens `--fix` and `--diff`.
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

/// What checking one job produced, besides its output.
#[derive(Default)]
struct JobOutcome {
    summary: Summary,
    /// The fixed text of standard input, printed in place of the findings.
    stdin_text: Option<String>,
    errors: Vec<String>,
    /// Checked outside any app, with in-file rules only.
    alone: bool,
    /// The files so checked inside the folder the job turned out to be (see `check_folder`).
    alone_inside: Vec<String>,
}

pub fn run(
    args: CheckArgs,
    env: &Environment,
    stdin: &mut dyn Read,
    stdout: &mut (dyn Write + Send),
    stderr: &mut (dyn Write + Send),
) -> u8 {
    if args.show_settings.is_some() {
        return show_settings::run(&args, stdout, stderr);
    }
    // Plan: what to check, and with which rule levels.
    let mut workspace = match Workspace::new(&Choices::of(&args.rules, &args.exclude)) {
        Ok(workspace) => workspace,
        Err(message) => return fail(stderr, &message),
    };
    let paths = args.paths_or_working_folder();
    let plan = match workspace.plan(&paths, args.stdin_filename.as_deref()) {
        Ok(plan) => plan,
        Err(message) => return fail(stderr, &message),
    };
    for error in &plan.errors {
        let _ = writeln!(stderr, "iparams-lint: {error}");
    }
    for note in &plan.notes {
        let _ = writeln!(stderr, "note: {note}; not checked.");
    }
    if plan.reads_stdin {
        let bytes = match crate::read::read_input(stdin) {
            Ok(bytes) => bytes,
            Err(error) => return fail(stderr, &format!("cannot read standard input: {error}")),
        };
        workspace.give_stdin(&plan, bytes);
    }

    // Check: every job in parallel, its output written in path order as it finishes.
    let mode = Mode::of(&args);
    let (renderer, failing) = output::renderer(&args.output, env);
    let route = Route::new(mode, renderer.as_ref(), &plan);
    // The output of a format that states totals first waits here for the totals.
    let mut held = Vec::new();
    let (mut outcomes, wrote_files) = {
        let target: &mut (dyn Write + Send) = if route.totals_first {
            &mut held
        } else if route.aside {
            &mut *stderr
        } else {
            &mut *stdout
        };
        if !route.diff && !route.totals_first {
            let _ = renderer.begin(&Summary::default(), target);
        }
        let separator = if route.diff {
            b""
        } else {
            renderer.separator()
        };
        let ordered = Ordered::new(target, separator);
        let outcomes = check_jobs(&workspace, &plan, mode, renderer.as_ref(), &ordered);
        (outcomes, ordered.wrote())
    };

    // Finish: totals, what goes after the findings, and the exit status.
    let mut trouble = !plan.errors.is_empty();
    let mut summary = Summary {
        unsafe_fixes: args.unsafe_fixes,
        ..Summary::default()
    };
    let mut stdin_text = None;
    for outcome in &mut outcomes {
        for error in &outcome.errors {
            let _ = writeln!(stderr, "iparams-lint: {error}");
            trouble = true;
        }
        summary.merge(&outcome.summary);
        stdin_text = stdin_text.or(outcome.stdin_text.take());
    }
    if route.diff {
        let fixed = render::plural(summary.fixed, "problem");
        let _ = writeln!(
            stderr,
            "{fixed} would be fixed in {}.",
            render::plural(summary.fixed_files, "file")
        );
        if let Some(note) = summary.withheld_note() {
            let _ = writeln!(stderr, "{note}");
        }
        flush(stdout);
        return if trouble {
            exit::TROUBLE
        } else if summary.fixed > 0 {
            exit::FINDINGS
        } else {
            exit::CLEAN
        };
    }
    let findings_out: &mut dyn Write = if route.aside { stderr } else { stdout };
    if route.totals_first {
        let _ = renderer.begin(&summary, findings_out);
        let _ = findings_out.write_all(&held);
    }
    let _ = renderer.end(&summary, wrote_files, findings_out);
    flush(findings_out);
    if let Some(text) = stdin_text {
        emit(stdout, &text);
    }
    if !args.output.quiet {
        say_once_about_lone_files(&plan.jobs, &outcomes, stderr);
    }
    output::status(trouble, &summary, failing)
}

/// Where the findings of a run go.
#[derive(Clone, Copy, Debug)]
struct Route {
    /// Nowhere: fixes are shown as a diff on standard output instead.
    diff: bool,
    /// Held until the end, for a format that states totals first (JUnit).
    totals_first: bool,
    /// To standard error: standard input is being fixed, and its fixed text is the output.
    aside: bool,
}

impl Route {
    fn new(mode: Mode, renderer: &dyn Renderer, plan: &Plan) -> Self {
        let diff = matches!(mode, Mode::Diff(_));
        Self {
            diff,
            totals_first: !diff && renderer.totals_first(),
            aside: matches!(mode, Mode::Fix(_)) && plan.reads_stdin,
        }
    }
}

/// Checks every job of the plan in parallel: each thread, with a linter of its own, takes the
/// next job in plan order until none is left; output is written in plan order. Plain threads
/// rather than the pool's: a job that waits for its turn to write must not be one the pool runs
/// while it waits on work lower on its own stack (a large file is checked on the pool, started
/// only then).
fn check_jobs(
    workspace: &Workspace,
    plan: &Plan,
    mode: Mode,
    renderer: &dyn Renderer,
    ordered: &Ordered<'_>,
) -> Vec<JobOutcome> {
    let next_job = AtomicUsize::new(0);
    let outcomes: Vec<OnceLock<JobOutcome>> = plan.jobs.iter().map(|_| OnceLock::new()).collect();
    let check_until_none_left = || {
        let mut linter = Linter::default();
        loop {
            let index = next_job.fetch_add(1, Ordering::Relaxed);
            let Some(job) = plan.jobs.get(index) else {
                break;
            };
            let mut output = ordered.job(index);
            let mut context = JobContext {
                mode,
                renderer,
                workspace,
                output: &mut output,
            };
            let outcome = check_job(&mut linter, job, &mut context);
            let _ = outcomes[index].set(outcome);
        }
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(plan.jobs.len());
    if threads <= 1 {
        // One job (the common case: one app): no thread to start.
        check_until_none_left();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(check_until_none_left);
            }
        });
    }
    // A job that panicked has ended the scope with its panic: every one is here.
    outcomes
        .into_iter()
        .map(|outcome| outcome.into_inner().expect("every job is checked"))
        .collect()
}

/// Files outside any app get in-file rules only: said once per run, not once per file.
fn say_once_about_lone_files(jobs: &[Job], outcomes: &[JobOutcome], stderr: &mut dyn Write) {
    let lone: Vec<&str> = jobs
        .iter()
        .zip(outcomes)
        .flat_map(|(job, outcome)| {
            let itself = outcome.alone.then_some(job.shown.as_str());
            itself
                .into_iter()
                .chain(outcome.alone_inside.iter().map(String::as_str))
        })
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
    workspace: &'c Workspace,
    output: &'c mut JobOutput<'a, 'o>,
}

impl JobOutcome {
    /// Counts a checked file's findings, and writes them unless fixes are shown as a diff.
    fn add(&mut self, context: &mut JobContext<'_, '_, '_>, file: &CheckedFile<'_>) {
        self.summary.add(file.report);
        if !matches!(context.mode, Mode::Diff(_)) {
            let renderer = context.renderer;
            context
                .output
                .piece(renderer.in_turn(), |out| renderer.file(file, out));
        }
    }
}

/// One job: an app, or a lone file.
fn check_job(linter: &mut Linter, job: &Job, context: &mut JobContext<'_, '_, '_>) -> JobOutcome {
    match &job.target {
        Target::App(root) => check_app(linter, job, root, context),
        Target::File(_) | Target::Stdin => check_alone(linter, job, context),
    }
}

/// A lone iparams.json, or standard input.
fn check_alone(linter: &mut Linter, job: &Job, context: &mut JobContext<'_, '_, '_>) -> JobOutcome {
    let mut outcome = JobOutcome::default();
    let (bytes, path) = match &job.target {
        Target::File(path) => match context.workspace.read(path) {
            Ok(bytes) => (bytes, Some(path.as_path())),
            // The plan takes a path named `*.json` for a file without looking.
            Err(_) if path.is_dir() => return check_folder(linter, path, context),
            Err(error) => {
                outcome
                    .errors
                    .push(format!("{}: {}", job.shown, describe_io_error(&error)));
                return outcome;
            }
        },
        _ => (context.workspace.stdin().to_vec(), None),
    };
    // Only a file that was read is said to be checked alone.
    outcome.alone = true;
    let source = SourceText::decode(&bytes);
    let fixed = context
        .mode
        .fixes()
        .map(|allowed| linter.fix(&source, job.settings.main(), allowed));
    let report = match fixed {
        None => linter.lint_with(&source, job.settings.main()),
        Some(fixed) => {
            let change = Change {
                shown: &job.shown,
                path,
                from_stdin: path.is_none(),
                original: &bytes,
            };
            if let Some(text) = handle_fix(&mut outcome, context, &change, &fixed) {
                outcome.add(context, &CheckedFile::new(&job.shown, &text, &fixed.report));
                return outcome;
            }
            fixed.report
        }
    };
    outcome.add(
        context,
        &CheckedFile::new(&job.shown, source.text(), &report),
    );
    outcome
}

/// A file that fixes may change.
struct Change<'c> {
    /// How output names it.
    shown: &'c str,
    /// Where it is written; `None` for standard input.
    path: Option<&'c Path>,
    /// Its text came from standard input: the fixed text is printed, never written.
    from_stdin: bool,
    original: &'c [u8],
}

/// Writes, diffs or returns (for standard input) a fix; returns the fixed text when there is one.
fn handle_fix(
    outcome: &mut JobOutcome,
    context: &mut JobContext<'_, '_, '_>,
    change: &Change<'_>,
    fixed: &FixOutcome,
) -> Option<String> {
    if change.from_stdin && matches!(context.mode, Mode::Fix(_)) {
        outcome.stdin_text = Some(
            fixed
                .text
                .clone()
                .unwrap_or_else(|| String::from_utf8_lossy(change.original).into_owned()),
        );
    }
    let text = fixed.text.as_deref()?;
    outcome.summary.fixed = fixed.fixed;
    outcome.summary.fixed_files = 1;
    let shown = change
        .path
        .map_or_else(|| change.shown.to_owned(), |p| p.display().to_string());
    match (context.mode, change.path) {
        (Mode::Diff(_), _) => {
            let diff = masked_diff(&shown, change.original, fixed);
            context
                .output
                .piece(false, |out| out.write_all(diff.as_bytes()));
        }
        (Mode::Fix(_), Some(path)) if !change.from_stdin => {
            if let Err(error) = replace_file(path, change.original, text.as_bytes()) {
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

/// A folder the plan took for a file by its name (`x.json`), found out when its job read it:
/// checked as a folder named on the command line is, its apps and files in path order, in
/// this job's turn.
fn check_folder(
    linter: &mut Linter,
    folder: &Path,
    context: &mut JobContext<'_, '_, '_>,
) -> JobOutcome {
    let mut outcome = JobOutcome::default();
    let plan = match context.workspace.plan_folder(folder) {
        Ok(plan) => plan,
        Err(message) => {
            outcome.errors.push(message);
            return outcome;
        }
    };
    outcome
        .errors
        .extend(plan.errors.iter().map(ToString::to_string));
    for job in &plan.jobs {
        let inner = check_job(linter, job, context);
        outcome.summary.merge(&inner.summary);
        outcome.errors.extend(inner.errors);
        if inner.alone {
            outcome.alone_inside.push(job.shown.clone());
        }
        outcome.alone_inside.extend(inner.alone_inside);
    }
    outcome
}

/// A whole app, checked as every front-end checks it (`LoadedApp::check`): iparams.json with
/// the app-aware rules, and the app's other files; fixed first when asked.
fn check_app(
    linter: &mut Linter,
    job: &Job,
    root: &Path,
    context: &mut JobContext<'_, '_, '_>,
) -> JobOutcome {
    let mut app = context.workspace.load_app(root, &job.shown);
    let mut outcome = JobOutcome::default();

    if let Some(allowed) = context.mode.fixes()
        && let Some(iparams) = app.file(IPARAMS_FILE)
    {
        // With the app's facts; without a readable manifest, as a file on its own is fixed.
        let facts = app.input().map(|input| input.facts());
        let source = SourceText::decode(&iparams.bytes);
        let fixed = linter.fix_in(&source, job.settings.main(), allowed, facts.as_ref());
        let change = Change {
            shown: &job.shown,
            path: Some(&iparams.path),
            from_stdin: iparams.overlaid,
            original: &iparams.bytes,
        };
        if let Some(text) = handle_fix(&mut outcome, context, &change, &fixed) {
            app.replace(IPARAMS_FILE, text.into_bytes());
        }
    }

    let mut checked = app.check(linter, &job.settings);
    let mut errors = std::mem::take(&mut checked.errors);
    errors.append(&mut outcome.errors);
    outcome.errors = errors;
    checked.verdicts.sort_by(|a, b| a.shown.cmp(&b.shown));
    for verdict in &checked.verdicts {
        let source = checked.source(verdict);
        outcome.add(
            context,
            &CheckedFile::new(&verdict.shown, source.text(), &verdict.report),
        );
    }
    outcome
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
    output::unified_diff(path, &before, &after)
}
