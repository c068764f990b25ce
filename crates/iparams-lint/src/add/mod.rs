//! `iparams-lint add`: a new iparam from flags, checked with the linter's own rules before it is
//! written, and inserted into config/iparams.json as one block that follows the file's layout.

mod answers;
mod ask;
mod draft;

use std::cell::RefCell;
use std::io::Write;
use std::path::{Path, PathBuf};

use iparams_core::app::{IparamsSource, Outline};
use iparams_core::syntax::parse_value;
use iparams_core::{
    Diagnostic, LineIndex, Severity, SourceText, insert_object_member, lint, redact,
};

use crate::cli::AddArgs;
use crate::environment::{Environment, exit};
use crate::output::{describe_io_error, emit, fail, unified_diff};
use crate::workspace::config::Choices;
use crate::workspace::{
    IPARAMS_FILE, MANIFEST_FILE, PAGE_FILE, Target, Workspace, app_of, link_out_of_app,
};
use crate::write::replace_file;
use answers::{answers, missing};
use draft::{Draft, Place, about, already_defined, apply, callbacks_change, verdict};

/// Where the app's change callbacks live, relative to the folder of iparams.json.
const CALLBACKS_IN_CONFIG: &str = "assets/iparams.js";

pub fn run(args: AddArgs, env: &Environment, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8 {
    let may_ask = env.interactive && !args.no_input;
    match add(args, may_ask, stdout, stderr) {
        Ok(status) => status,
        Err(message) => fail(stderr, &message),
    }
}

fn add(
    mut args: AddArgs,
    may_ask: bool,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<u8, String> {
    let mut workspace = Workspace::new(&Choices::of(&args.rules, &[]))?;
    let place = locate(args.target.as_deref())?;
    let shown = place.iparams.display().to_string();
    if let Some(why) = link_out_of_app(&place.iparams) {
        return Err(format!("{why}; nothing written (remove the link)"));
    }
    let original = match crate::read::read_file(&place.iparams) {
        Ok(bytes) => Some(bytes),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound && place.in_app => None,
        Err(error) => return Err(format!("{shown}: {}", describe_io_error(&error))),
    };

    // The file as it is: readable JSON with an object at the top, or nothing is written.
    let source = original.as_deref().map(SourceText::decode);
    let text = match &source {
        Some(source) => {
            readable(source, &shown)?;
            source.text()
        }
        None => "{}\n",
    };
    let (root, errors) = parse_value(text);
    if let Some(error) = errors.first() {
        return Err(syntax_error(text, error.span.start, &shown));
    }
    let Some(root) = root.filter(|root| root.as_object().is_some()) else {
        return Err(format!(
            "{shown}: the file does not hold a JSON object; nothing written"
        ));
    };
    let outline = Outline::of(text);
    let settings = workspace.settings_for(&place.iparams)?;
    let callbacks_path = place
        .iparams
        .parent()
        .unwrap_or(Path::new(""))
        .join(CALLBACKS_IN_CONFIG);

    // On a terminal, what the flags did not say is asked for, each answer checked as the
    // iparam it makes would be.
    let asked = may_ask && !missing(&args).is_empty();
    if asked {
        let draft = Draft {
            text,
            root: &root,
            outline: &outline,
            place: &place,
            settings: &settings,
            callbacks_path: &callbacks_path,
            workspace: RefCell::new(&mut workspace),
        };
        if let Err(ask::Stopped(why)) = ask::fill(&mut args, &draft, stderr) {
            return Err(format!("{why}; nothing written"));
        }
    }
    let answers = answers(&args)?;
    // (Not in `answers`: an empty key typed at the prompt gets the linter's own message.)
    if answers.key.trim().is_empty() {
        return Err("--key is empty; give the iparam a key such as `api_domain`".to_owned());
    }

    if let Some(message) = already_defined(text, &outline, &answers.key, &shown) {
        return Err(message);
    }
    let insert = |fields: &[(&str, String)]| {
        insert_object_member(text, &root, &answers.key, fields)
            .ok_or_else(|| format!("{shown}: cannot find where to add the iparam"))
    };
    let edit = insert(&answers.fields)?;
    let new_text = apply(text, &edit);
    let shown_edit = insert(&answers.shown_fields)?;
    let shown_text = apply(text, &shown_edit);

    // config/assets/iparams.js, when a callback must be declared there.
    if let Some(why) = link_out_of_app(&callbacks_path).filter(|_| !answers.callbacks.is_empty()) {
        return Err(format!("{why}; nothing written (remove the link)"));
    }
    let callbacks = callbacks_change(&callbacks_path, &answers.callbacks)?;

    // The linter's verdict on the file as it would be.
    workspace.overlay(&place.iparams, new_text.clone().into_bytes());
    match &callbacks {
        Some(change) => workspace.overlay(&callbacks_path, change.new.clone().into_bytes()),
        None => workspace.remove_overlay(&callbacks_path),
    }
    let (report, errors) = verdict(&workspace, &place, &settings);
    for error in &errors {
        emit(stderr, &format!("iparams-lint: {error}\n"));
    }
    let mut about_new = about(&report.diagnostics, &answers.key);
    // An iparam just added is read nowhere yet: that is the next step, said once below, not a
    // finding.
    let unread = about_new.iter().any(|d| d.rule == UNUSED_IPARAM);
    about_new.retain(|d| d.rule != UNUSED_IPARAM);
    let errors: Vec<&&Diagnostic> = about_new
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    for diagnostic in &about_new {
        emit(stderr, &describe(diagnostic));
    }
    if !errors.is_empty() {
        return Err(format!(
            "{shown}: not written: the linter finds {} error{} in the new iparam `{}` (above); change the flags and run again",
            errors.len(),
            if errors.len() == 1 { "" } else { "s" },
            answers.key
        ));
    }

    // After questions, the block as it will be inserted, and the last word to the user.
    if asked && !args.yes && !args.dry_run {
        let block = shown_edit
            .replacement
            .trim_start_matches(',')
            .trim_start_matches(['\r', '\n'])
            .trim_end();
        match ask::confirm(&shown, block, stderr) {
            Ok(true) => {}
            Ok(false) => {
                emit(stdout, &format!("Nothing written to {shown}.\n"));
                return Ok(exit::CLEAN);
            }
            Err(ask::Stopped(why)) => return Err(format!("{why}; nothing written")),
        }
    }

    if args.dry_run {
        let old_text = text_of(source.as_ref());
        // As `check --diff` does: the secrets already in the file (a secure default) are
        // masked in both texts, context lines included.
        let masked = |text: &str| redact(text, &lint(text.as_bytes()).redactions).into_owned();
        let mut diff = unified_diff(&shown, &masked(old_text), &masked(&shown_text));
        if let Some(change) = &callbacks {
            diff.push_str(&unified_diff(
                &callbacks_path.display().to_string(),
                &change.old,
                &change.new,
            ));
        }
        emit(stdout, &diff);
        return Ok(exit::CLEAN);
    }

    write(&place.iparams, original.as_deref(), new_text.as_bytes())
        .map_err(|why| format!("{shown}: {why}"))?;
    if let Some(change) = &callbacks {
        write(
            &callbacks_path,
            change.existed.then_some(change.old.as_bytes()),
            change.new.as_bytes(),
        )
        .map_err(|why| format!("{}: {why}", callbacks_path.display()))?;
    }
    emit(
        stdout,
        &format!(
            "Added the {} iparam `{}` to {shown}\n",
            answers.kind.name(),
            answers.key
        ),
    );
    if unread {
        let key = &answers.key;
        emit(
            stdout,
            &format!(
                "Next: read it where the app needs it: `client.iparams.get(\"{key}\")` in the front end, `args.iparams.{key}` in serverless code, or `<%= iparam.{key} %>` in a request template.\n"
            ),
        );
    }
    Ok(exit::CLEAN)
}

/// The rule that reports an iparam no code reads, which a new iparam always is.
const UNUSED_IPARAM: &str = "unused-iparam";

fn text_of<'a>(source: Option<&'a SourceText<'_>>) -> &'a str {
    source.map_or("", SourceText::text)
}

/// Why `add` writes nothing for an app whose installation page is its own `page`.
fn custom_page(page: &Path) -> String {
    format!(
        "{}: the app writes its own installation page, so its iparams are what the page's \
         `postConfigs()` returns; nothing written (an iparams.json beside the page would give the \
         app two installation pages). Add a field to the page and its key to the object \
         `postConfigs()` returns.",
        page.display()
    )
}

/// The iparams.json `target` names: an app folder's (the current folder's without one), or a
/// file.
fn locate(target: Option<&Path>) -> Result<Place, String> {
    let folder = match target {
        None => Path::new("."),
        Some(path) if path.is_dir() => path,
        Some(path) => {
            let app = app_of(path);
            if let Some(app) = app.as_ref().filter(|app| app.relative == PAGE_FILE) {
                return Err(custom_page(&app.path(PAGE_FILE)));
            }
            let in_app = app.is_some_and(|app| app.relative == IPARAMS_FILE);
            return Ok(Place {
                iparams: path.to_owned(),
                target: Target::File(path.to_owned()),
                in_app,
            });
        }
    };
    // The folder named is the app, whether or not it has its config/ folder yet.
    if !folder.join(MANIFEST_FILE).is_file() {
        return Err(format!(
            "{}: not an app folder (it has no {MANIFEST_FILE}); name an app folder or an iparams.json",
            folder.display()
        ));
    }
    let in_folder = |relative: &str| {
        if folder == Path::new(".") {
            PathBuf::from(relative)
        } else {
            folder.join(relative)
        }
    };
    let iparams = in_folder(IPARAMS_FILE);
    let page = in_folder(PAGE_FILE);
    // An iparams.json beside the app's own page would give it two installation pages.
    if IparamsSource::of(iparams.is_file(), page.is_file()).is_page() {
        return Err(custom_page(&page));
    }
    Ok(Place {
        iparams,
        target: Target::App(folder.to_owned()),
        in_app: true,
    })
}

/// Refuses a file whose text is not exactly its bytes as UTF-8.
fn readable(source: &SourceText<'_>, shown: &str) -> Result<(), String> {
    use iparams_core::EncodingProblem;
    for problem in &source.problems {
        match problem {
            EncodingProblem::ByteOrderMark => {}
            EncodingProblem::Utf16 { .. } => {
                return Err(format!(
                    "{shown}: the file is UTF-16; save it as UTF-8, then run again"
                ));
            }
            EncodingProblem::InvalidUtf8 { span, .. } => {
                let position = LineIndex::new(source.text()).position(source.text(), span.start);
                return Err(format!(
                    "{shown}:{}:{}: the file is not UTF-8 here; fix its encoding, then run again",
                    position.line, position.column
                ));
            }
        }
    }
    Ok(())
}

/// The positioned message for a file with a JSON syntax error, worded by the linter.
fn syntax_error(text: &str, offset: usize, shown: &str) -> String {
    let report = iparams_core::lint(text.as_bytes());
    let message = report
        .diagnostics
        .iter()
        .find(|d| d.rule == "invalid-json")
        .map_or_else(|| "a JSON syntax error".to_owned(), |d| d.message.clone());
    let offset = report
        .diagnostics
        .iter()
        .find(|d| d.rule == "invalid-json")
        .map_or(offset, |d| d.span.start);
    let position = LineIndex::new(text).position(text, offset);
    format!(
        "{shown}:{}:{}: {message}; nothing written: fix the file (`iparams-lint {shown}` shows every problem), then run again",
        position.line, position.column
    )
}

/// One finding about the new iparam, for standard error.
fn describe(diagnostic: &Diagnostic) -> String {
    let mut text = format!(
        "{}[{}]: {}\n",
        diagnostic.severity, diagnostic.rule, diagnostic.message
    );
    if let Some(help) = &diagnostic.help {
        text.push_str(&format!("  help: {help}\n"));
    }
    text
}

/// Writes `new` at `path`: atomically over the `old` text, or as a new file (with its folders).
fn write(path: &Path, old: Option<&[u8]>, new: &[u8]) -> Result<(), String> {
    match old {
        Some(old) => replace_file(path, old, new).map_err(|error| error.to_string()),
        None => {
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent)
                    .map_err(|error| format!("cannot create its folder: {error}"))?;
            }
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .and_then(|mut file| file.write_all(new))
                .map_err(|error| format!("cannot write it: {error}"))
        }
    }
}
