//! `iparams-lint add`: a new iparam from flags, checked with the linter's own rules before it is
//! written, and inserted into config/iparams.json as one block that follows the file's layout.

mod ask;

use std::cell::RefCell;
use std::io::Write;
use std::path::{Path, PathBuf};

use iparams_core::app::{IparamsSource, Outline, Script, js};
use iparams_core::model::{CHANGE_EVENT, IparamType, REGEX_ERROR_SUFFIX};
use iparams_core::products::{CURRENT_PRODUCT, PRODUCT_NAMES};
use iparams_core::syntax::{Value, parse_value};
use iparams_core::{
    Diagnostic, Edit, FileReport, LineIndex, Linter, RuleSettings, Severity, SourceText,
    insert_object_member, json_string, lint, pointer, redact, suggest,
};

use crate::cli::AddArgs;
use crate::environment::{Environment, exit};
use crate::output::{describe_io_error, emit, fail, unified_diff};
use crate::workspace::{IPARAMS_FILE, MANIFEST_FILE, PAGE_FILE, Target, Workspace, app_of};
use crate::write::replace_file;

/// Where the app's change callbacks live, relative to the folder of iparams.json.
const CALLBACKS_IN_CONFIG: &str = "assets/iparams.js";

pub fn run(args: AddArgs, env: &Environment, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8 {
    let may_ask = env.interactive && !args.no_input;
    match add(args, may_ask, stdout, stderr) {
        Ok(status) => status,
        Err(message) => fail(stderr, &message),
    }
}

/// Where the new iparam goes.
struct Place {
    iparams: PathBuf,
    /// What the linter checks for its verdict: the app the file is the iparams.json of, or the
    /// file on its own.
    target: Target,
    /// The file is an app's config/iparams.json (so it may be created).
    in_app: bool,
}

/// What the new iparam is, every answer checked on its own.
struct Answers {
    key: String,
    kind: IparamType,
    /// The members of the new iparam, in the order they are written: name, JSON.
    fields: Vec<(&'static str, String)>,
    /// `fields` with a secure default masked, for what is printed.
    shown_fields: Vec<(&'static str, String)>,
    /// Change callbacks to declare in iparams.js.
    callbacks: Vec<String>,
}

fn add(
    mut args: AddArgs,
    may_ask: bool,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<u8, String> {
    let mut workspace = Workspace::new(args.rules.config.as_deref(), &args.rules.rules)?;
    let place = locate(args.target.as_deref())?;
    let shown = place.iparams.display().to_string();
    let original = match std::fs::read(&place.iparams) {
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

/// The message for a key the file already has; `None` when it is new.
fn already_defined(text: &str, outline: &Outline, key: &str, shown: &str) -> Option<String> {
    let existing = outline.iparams.iter().find(|d| d.key == key)?;
    let line = LineIndex::new(text)
        .position(text, existing.key_span.start)
        .line;
    Some(format!(
        "{shown}:{line}: `{key}` is already an iparam of this file; choose another key, or edit that one"
    ))
}

/// The findings about the iparam `key`: at its pointer or under it.
fn about<'d>(diagnostics: &'d [Diagnostic], key: &str) -> Vec<&'d Diagnostic> {
    let at = pointer::of_key(key);
    diagnostics
        .iter()
        .filter(|d| pointer::is_within(&d.pointer, &at))
        .collect()
}

/// The file and its app, for checking an answer as it is typed: the iparam the answers so far
/// make is inserted as `add` would insert it, and the linter runs on the result, so the rules
/// stay the single source of what is accepted.
struct Draft<'a> {
    text: &'a str,
    root: &'a Value<'a>,
    outline: &'a Outline,
    place: &'a Place,
    settings: &'a RuleSettings,
    callbacks_path: &'a Path,
    workspace: RefCell<&'a mut Workspace>,
}

impl Draft<'_> {
    fn existing(&self, key: &str) -> Option<String> {
        already_defined(
            self.text,
            self.outline,
            key,
            &self.place.iparams.display().to_string(),
        )
    }

    /// The linter's findings on the iparam `args` describes (every needed answer given), with
    /// the JSON pointer each is at; `Err` when the answers themselves are refused.
    fn findings(&self, args: &AddArgs) -> Result<Vec<Diagnostic>, String> {
        let answers = answers(args)?;
        let edit = insert_object_member(self.text, self.root, &answers.key, &answers.fields)
            .ok_or("cannot find where to add the iparam")?;
        let new_text = apply(self.text, &edit);
        let callbacks = callbacks_change(self.callbacks_path, &answers.callbacks)?;
        let mut workspace = self.workspace.borrow_mut();
        workspace.overlay(&self.place.iparams, new_text.clone().into_bytes());
        match callbacks {
            Some(change) => workspace.overlay(self.callbacks_path, change.new.into_bytes()),
            None => workspace.remove_overlay(self.callbacks_path),
        }
        let (report, _) = verdict(&workspace, self.place, self.settings);
        Ok(about(&report.diagnostics, &answers.key)
            .into_iter()
            .cloned()
            .collect())
    }
}

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

fn apply(text: &str, edit: &Edit) -> String {
    let mut out = String::with_capacity(text.len() + edit.replacement.len());
    out.push_str(&text[..edit.span.start]);
    out.push_str(&edit.replacement);
    out.push_str(&text[edit.span.end..]);
    out
}

/// The answers the flags give, each checked; `Err` names what is missing or wrong.
fn answers(args: &AddArgs) -> Result<Answers, String> {
    let kind = match args.kind.as_deref() {
        Some(name) => Some(kind_of(name)?),
        None => None,
    };
    let missing = missing(args);
    let (Some(key), Some(kind), Some(display_name)) = (&args.key, kind, &args.display_name) else {
        return Err(missing_answers(&missing));
    };
    if !missing.is_empty() {
        return Err(missing_answers(&missing));
    }

    let string = |text: &str| json_string(text);
    let strings = |items: &[String]| {
        let quoted: Vec<String> = items.iter().map(|item| json_string(item)).collect();
        format!("[{}]", quoted.join(", "))
    };
    let mut fields: Vec<(&'static str, String)> = vec![("display_name", string(display_name))];
    if let Some(description) = &args.description {
        fields.push(("description", string(description)));
    }
    fields.push(("type", string(kind.name())));
    if let Some(options) = &args.options {
        let options: Vec<String> = options.iter().map(|o| o.trim().to_owned()).collect();
        fields.push(("options", strings(&options)));
    }
    let secure = args.secure || kind == IparamType::ApiKey;
    let mut shown_fields = Vec::new();
    if let Some(default) = &args.default {
        let value = match kind {
            IparamType::Checkbox => match default.trim() {
                "true" | "false" => default.trim().to_owned(),
                other => {
                    return Err(format!(
                        "--default {other:?}: a checkbox's default is `true` or `false`"
                    ));
                }
            },
            IparamType::Multiselect => {
                let chosen: Vec<String> = default
                    .split(',')
                    .map(|o| o.trim().to_owned())
                    .filter(|o| !o.is_empty())
                    .collect();
                strings(&chosen)
            }
            _ => string(default),
        };
        shown_fields = fields.clone();
        shown_fields.push((
            "default_value",
            if secure {
                string("********")
            } else {
                value.clone()
            },
        ));
        fields.push(("default_value", value));
    }
    let mut rest: Vec<(&'static str, String)> = Vec::new();
    if args.required {
        rest.push(("required", "true".to_owned()));
    }
    if secure {
        rest.push(("secure", "true".to_owned()));
    }
    if args.hidden {
        rest.push(("visible", "false".to_owned()));
    }
    if let Some(product) = &args.product {
        let product = product_of(product)?;
        rest.push((
            "type_attributes",
            format!("{{\"product\": {}}}", string(product)),
        ));
    }
    if let Some(regex) = regex_object(args)? {
        rest.push(("regex", regex));
    }
    let mut callbacks = Vec::new();
    if !args.event.is_empty() {
        let mut events = Vec::new();
        for event in &args.event {
            let (name, function) = event_of(event)?;
            events.push(format!("{{{}: {}}}", string(name), string(function)));
            callbacks.push(function.to_owned());
        }
        rest.push(("events", format!("[{}]", events.join(", "))));
    }
    if shown_fields.is_empty() {
        shown_fields = fields.clone();
    }
    fields.extend(rest.iter().cloned());
    shown_fields.extend(rest);
    Ok(Answers {
        key: key.clone(),
        kind,
        fields,
        shown_fields,
        callbacks,
    })
}

/// The flags still needed (a --type that is not a type counts as given: [`answers`] says why).
fn missing(args: &AddArgs) -> Vec<&'static str> {
    let kind = args.kind.as_deref().and_then(IparamType::from_name);
    let mut missing = Vec::new();
    if args.key.is_none() {
        missing.push("--key KEY");
    }
    if args.kind.is_none() {
        missing.push("--type TYPE");
    }
    if args.display_name.is_none() {
        missing.push("--display-name LABEL");
    }
    if let Some(kind) = kind {
        if kind.has_options() && args.options.is_none() {
            missing.push("--options A,B,…");
        }
        if kind.has_product() && args.product.is_none() {
            missing.push("--product PRODUCT");
        }
    }
    missing
}

fn missing_answers(missing: &[&str]) -> String {
    format!(
        "missing answers (without a terminal, or with --no-input, every answer comes from flags): give {}",
        missing.join(", ")
    )
}

fn kind_of(name: &str) -> Result<IparamType, String> {
    IparamType::from_name(name).ok_or_else(|| {
        let hint = suggest::closest(name, IparamType::names())
            .map(|s| format!("did you mean `{s}`? "))
            .unwrap_or_default();
        format!(
            "--type {name:?} is not a type; {hint}the types are {}",
            suggest::quoted_list(IparamType::ALL.iter().map(|t| t.name()))
        )
    })
}

fn product_of(name: &str) -> Result<&str, String> {
    if name == CURRENT_PRODUCT || PRODUCT_NAMES.contains(&name) {
        return Ok(name);
    }
    let known: Vec<&str> = PRODUCT_NAMES
        .iter()
        .copied()
        .chain([CURRENT_PRODUCT])
        .collect();
    let hint = suggest::closest(name, known.iter().copied())
        .map(|s| format!("did you mean `{s}`? "))
        .unwrap_or_default();
    Err(format!(
        "--product {name:?} is not a product; {hint}the products are {}",
        suggest::quoted_list(known.iter().copied())
    ))
}

/// `{"NAME": "PATTERN", "NAME-error": "MESSAGE"}` from the paired `--regex` and `--regex-error`.
fn regex_object(args: &AddArgs) -> Result<Option<String>, String> {
    if args.regex.is_empty() && args.regex_error.is_empty() {
        return Ok(None);
    }
    let pairs = |flag: &str, given: &[String]| -> Result<Vec<(String, String)>, String> {
        given
            .iter()
            .map(|item| {
                item.split_once('=')
                    .map(|(name, value)| (name.trim().to_owned(), value.to_owned()))
                    .filter(|(name, _)| !name.is_empty())
                    .ok_or_else(|| format!("{flag} {item:?}: write it as NAME=VALUE"))
            })
            .collect()
    };
    let patterns = pairs("--regex", &args.regex)?;
    let messages = pairs("--regex-error", &args.regex_error)?;
    let mut entries = Vec::new();
    for (name, pattern) in &patterns {
        let Some((_, message)) = messages.iter().find(|(n, _)| n == name) else {
            return Err(format!(
                "--regex {name}=…: the message shown when it does not match is missing; add --regex-error {name}=MESSAGE"
            ));
        };
        entries.push(format!("{}: {}", json_string(name), json_string(pattern)));
        entries.push(format!(
            "{}: {}",
            json_string(&format!("{name}{REGEX_ERROR_SUFFIX}")),
            json_string(message)
        ));
    }
    if let Some((name, _)) = messages
        .iter()
        .find(|(name, _)| !patterns.iter().any(|(n, _)| n == name))
    {
        return Err(format!(
            "--regex-error {name}=…: there is no --regex {name}=PATTERN for it to explain"
        ));
    }
    Ok(Some(format!("{{{}}}", entries.join(", "))))
}

/// `change=FUNCTION`, checked.
fn event_of(event: &str) -> Result<(&str, &str), String> {
    let Some((name, function)) = event.split_once('=') else {
        return Err(format!(
            "--event {event:?}: write it as {CHANGE_EVENT}=FUNCTION"
        ));
    };
    if name != CHANGE_EVENT {
        return Err(format!(
            "--event {event:?}: the event {name:?} is not supported; the only event is `{CHANGE_EVENT}`"
        ));
    }
    let identifier = function
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && function
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if !identifier {
        return Err(format!(
            "--event {event:?}: {function:?} is not a JavaScript function name; use letters, digits, `_` and `$`, not starting with a digit"
        ));
    }
    Ok((name, function))
}

/// A change to config/assets/iparams.js.
struct FileChange {
    existed: bool,
    old: String,
    new: String,
}

/// iparams.js with a `function NAME(value) { return ""; }` for each callback it does not
/// declare; `None` when it declares them all.
fn callbacks_change(path: &Path, callbacks: &[String]) -> Result<Option<FileChange>, String> {
    if callbacks.is_empty() {
        return Ok(None);
    }
    let (existed, old) = match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => (true, text),
            Err(_) => {
                return Err(format!(
                    "{}: not UTF-8; fix its encoding, then run again",
                    path.display()
                ));
            }
        },
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => (false, String::new()),
        Err(error) => return Err(format!("{}: {}", path.display(), describe_io_error(&error))),
    };
    let facts = js::analyze(&old, "iparams.js", 0, Script::Callbacks);
    let newline = if old.contains("\r\n") { "\r\n" } else { "\n" };
    // The file's own indentation, from its code: the ` * ` of a JSDoc comment is not one.
    let indent = old
        .lines()
        .filter(|line| !line.trim_start().starts_with(['*', '/']))
        .map(|line| &line[..line.len() - line.trim_start().len()])
        .find(|indent| !indent.is_empty())
        .unwrap_or("  ");
    let mut new = old.clone();
    for name in callbacks {
        if facts.functions.iter().any(|(declared, _)| declared == name) {
            continue;
        }
        if !new.is_empty() {
            if !new.ends_with('\n') {
                new.push_str(newline);
            }
            new.push_str(newline);
        }
        new.push_str(&format!(
            "function {name}(value) {{{newline}{indent}return \"\";{newline}}}{newline}"
        ));
    }
    Ok((new != old).then_some(FileChange { existed, old, new }))
}

/// The report on iparams.json as it is overlaid in `workspace` (with the app around it when it
/// has one), as every front-end checks it; and what could not be checked.
fn verdict(
    workspace: &Workspace,
    place: &Place,
    settings: &RuleSettings,
) -> (FileReport, Vec<String>) {
    let mut linter = Linter::default();
    let shown = place.target_shown();
    let checked = workspace.check(&mut linter, &place.target, &shown, settings);
    let verdict = match &place.target {
        Target::App(_) => checked.verdict(IPARAMS_FILE),
        _ => checked.named(),
    };
    let report = verdict.map(|verdict| verdict.report.clone());
    (report.unwrap_or_default(), checked.errors)
}

impl Place {
    /// How output names what is checked: the app's folder, or the file.
    fn target_shown(&self) -> String {
        match &self.target {
            Target::App(root) | Target::File(root) => root.display().to_string(),
            Target::Stdin => String::new(),
        }
    }
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
