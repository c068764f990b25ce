//! The new iparam where it would go: iparams.json with it inserted, iparams.js with its change
//! callbacks declared, and the linter's verdict on the app (or file) as it would be. What `add`
//! writes, and what its questions check each answer with ([`Draft`]).

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use iparams_core::app::{Outline, Script, js};
use iparams_core::syntax::Value;
use iparams_core::{
    Diagnostic, Edit, FileReport, LineIndex, Linter, RuleSettings, insert_object_member, pointer,
};

use super::answers::answers;
use crate::cli::AddArgs;
use crate::output::describe_io_error;
use crate::workspace::config::JobRules;
use crate::workspace::{IPARAMS_FILE, Target, Workspace};

/// Where the new iparam goes.
pub(super) struct Place {
    pub(super) iparams: PathBuf,
    /// What the linter checks for its verdict: the app the file is the iparams.json of, or the
    /// file on its own.
    pub(super) target: Target,
    /// The file is an app's config/iparams.json (so it may be created).
    pub(super) in_app: bool,
}

/// The message for a key the file already has; `None` when it is new.
pub(super) fn already_defined(
    text: &str,
    outline: &Outline,
    key: &str,
    shown: &str,
) -> Option<String> {
    let existing = outline.iparams.iter().find(|d| d.key == key)?;
    let line = LineIndex::new(text)
        .position(text, existing.key_span.start)
        .line;
    Some(format!(
        "{shown}:{line}: `{key}` is already an iparam of this file; choose another key, or edit that one"
    ))
}

/// The findings about the iparam `key`: at its pointer or under it.
pub(super) fn about<'d>(diagnostics: &'d [Diagnostic], key: &str) -> Vec<&'d Diagnostic> {
    let at = pointer::of_key(key);
    diagnostics
        .iter()
        .filter(|d| pointer::is_within(&d.pointer, &at))
        .collect()
}

/// The file and its app, for checking an answer as it is typed: the iparam the answers so far
/// make is inserted as `add` would insert it, and the linter runs on the result, so the rules
/// stay the single source of what is accepted.
pub(super) struct Draft<'a> {
    pub(super) text: &'a str,
    pub(super) root: &'a Value<'a>,
    pub(super) outline: &'a Outline,
    pub(super) place: &'a Place,
    pub(super) settings: &'a RuleSettings,
    pub(super) callbacks_path: &'a Path,
    pub(super) workspace: RefCell<&'a mut Workspace>,
}

impl Draft<'_> {
    pub(super) fn existing(&self, key: &str) -> Option<String> {
        already_defined(
            self.text,
            self.outline,
            key,
            &self.place.iparams.display().to_string(),
        )
    }

    /// The linter's findings on the iparam `args` describes (every needed answer given), with
    /// the JSON pointer each is at; `Err` when the answers themselves are refused.
    pub(super) fn findings(&self, args: &AddArgs) -> Result<Vec<Diagnostic>, String> {
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

/// `text` with `edit` made.
pub(super) fn apply(text: &str, edit: &Edit) -> String {
    let mut out = String::with_capacity(text.len() + edit.replacement.len());
    out.push_str(&text[..edit.span.start]);
    out.push_str(&edit.replacement);
    out.push_str(&text[edit.span.end..]);
    out
}

/// A change to config/assets/iparams.js.
pub(super) struct FileChange {
    pub(super) existed: bool,
    pub(super) old: String,
    pub(super) new: String,
}

/// iparams.js with a `function NAME(value) { return ""; }` for each callback it does not
/// declare; `None` when it declares them all.
pub(super) fn callbacks_change(
    path: &Path,
    callbacks: &[String],
) -> Result<Option<FileChange>, String> {
    if callbacks.is_empty() {
        return Ok(None);
    }
    let (existed, old) = match crate::read::read_file(path) {
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
pub(super) fn verdict(
    workspace: &Workspace,
    place: &Place,
    settings: &RuleSettings,
) -> (FileReport, Vec<String>) {
    let mut linter = Linter::default();
    let shown = place.target_shown();
    // Only iparams.json's verdict is read: its own levels are every file's.
    let settings = JobRules::uniform(settings.clone());
    let checked = workspace.check(&mut linter, &place.target, &shown, &settings);
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
