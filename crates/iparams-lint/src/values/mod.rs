//! `iparams-lint values`: check installation values against the iparams.json of their app, and
//! show what `client.iparams.get()` would return for them; with `--verify`, check their
//! credentials with the HR service ([`verify`]).

pub mod verify;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use iparams_core::app::{Declarations, IparamsSource};
use iparams_core::values::{Definitions, GetPreview, preview_get};
use iparams_core::{Linter, SourceText};

use crate::cli::ValuesArgs;
use crate::environment::Environment;
use crate::output::{self, describe_io_error, emit, fail};
use crate::render::{self, CheckedFile, Summary};
use crate::workspace::config::{Choices, JobRules};
use crate::workspace::{
    INSTALLED_VALUES_FILE, IPARAMS_FILE, PAGE_FILE, Target, Workspace, app_of, check_values,
    link_out_of_app,
};

/// Where an older app keeps its test values, relative to the app's folder.
const TEST_DATA_FILE: &str = "config/iparam_test_data.json";

pub fn run(
    args: ValuesArgs,
    env: &Environment,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> u8 {
    let mut workspace = match Workspace::new(&Choices::of(&args.rules, &[])) {
        Ok(workspace) => workspace,
        Err(message) => return fail(stderr, &message),
    };
    // Refused before anything is read or asked: the key must not cross the network in clear.
    if let Some(refusal) = args
        .hr_url
        .as_deref()
        .and_then(|url| crate::net::refuse_plain_http(url, args.allow_http))
    {
        return fail(stderr, &format!("--hr-url {refusal}"));
    }
    let from_stdin = args.values.as_os_str() == "-";
    // The values file: as given, or an app folder's: what the preview stored, else the older
    // test data; which one is said, since the folder alone does not tell.
    let values_path = if !from_stdin && args.values.is_dir() {
        let candidates = [
            (INSTALLED_VALUES_FILE, "the values the preview stored"),
            (TEST_DATA_FILE, "the app's test data"),
        ];
        // Whatever is at the name, a link or a FIFO too: the read says what is wrong with it.
        let Some((found, what)) = candidates
            .iter()
            .map(|(file, what)| (args.values.join(file), what))
            .find(|(path, _)| path.symlink_metadata().is_ok_and(|entry| !entry.is_dir()))
        else {
            return fail(
                stderr,
                &format!(
                    "{}: neither {INSTALLED_VALUES_FILE} (what `iparams-lint preview` stores) \
                     nor {TEST_DATA_FILE} in this folder; name the values file itself",
                    args.values.display()
                ),
            );
        };
        let _ = writeln!(
            stderr,
            "iparams-lint: values: checking {}, {what}",
            found.display()
        );
        found
    } else if from_stdin {
        PathBuf::from(args.stdin_filename.as_deref().unwrap_or("<stdin>"))
    } else {
        args.values.clone()
    };
    let shown = values_path.display().to_string();
    if let Some(why) = (!from_stdin)
        .then(|| link_out_of_app(&values_path))
        .flatten()
    {
        return fail(
            stderr,
            &format!("{why}; it is not read (remove the link, or copy the file into the app)"),
        );
    }
    // What defines the values: iparams.json as given, or the app's; an app that writes its own
    // installation page and has no iparams.json, its page.
    let app_definitions = || {
        app_of(&values_path).map(|app| {
            let has = |relative| app.path(relative).is_file();
            app.path(IparamsSource::of(has(IPARAMS_FILE), has(PAGE_FILE)).file())
        })
    };
    let Some(iparams_path) = args.iparams.clone().or_else(app_definitions) else {
        return fail(
            stderr,
            &format!(
                "{shown}: not in an app (no folder at or above it holds manifest.json and config/); name its iparams.json with --iparams PATH"
            ),
        );
    };

    if from_stdin {
        let bytes = match crate::read::read_input(stdin) {
            Ok(bytes) => bytes,
            Err(error) => return fail(stderr, &format!("cannot read standard input: {error}")),
        };
        workspace.overlay(&values_path, bytes);
    }
    let values_bytes = match workspace.read(&values_path) {
        Ok(bytes) => bytes,
        Err(error) => return fail(stderr, &format!("{shown}: {}", describe_io_error(&error))),
    };
    let iparams_shown = iparams_path.display().to_string();
    let settings = match workspace.settings_for(&values_path) {
        Ok(settings) => settings,
        Err(message) => return fail(stderr, &message),
    };
    let values = SourceText::decode(&values_bytes);

    // A custom page: the keys its `postConfigs` returns, as the check of its app found them.
    let page = if iparams_path.extension().is_some_and(|ext| ext == "html") {
        match page_iparams(&workspace, &iparams_path) {
            Ok(page) => Some(page),
            Err(why) => return fail(stderr, &format!("{iparams_shown}: {why}")),
        }
    } else {
        None
    };
    if page.is_some() && args.verify {
        return fail(
            stderr,
            "--verify reads the `domain` and `api_key` iparams of iparams.json; a custom page's iparams have no types",
        );
    }
    let iparams_bytes = match &page {
        Some(_) => Vec::new(),
        None => match workspace.read(&iparams_path) {
            Ok(bytes) => bytes,
            Err(error) => {
                return fail(
                    stderr,
                    &format!("{iparams_shown}: {}", describe_io_error(&error)),
                );
            }
        },
    };
    let iparams_json = SourceText::decode(&iparams_bytes);
    let definitions = match &page {
        Some(page) => Definitions::Page(page),
        None => Definitions::Json {
            source: &iparams_json,
            path: &iparams_shown,
        },
    };
    let mut report = check_values(definitions, &values, &settings);
    if args.verify {
        verify::verify(
            &iparams_json,
            &values,
            args.hr_url.as_deref(),
            &settings,
            &mut report,
            stderr,
        );
    }
    let mut summary = Summary::default();
    summary.add(&report);
    let (renderer, failing) = output::renderer(&args.output, env);
    let findings = render::document(
        renderer.as_ref(),
        &CheckedFile::new(&shown, values.text(), &report),
        &summary,
    );

    if args.show_get {
        // The object is the output; the findings go aside, as with a fixed standard input.
        match preview_get(definitions, &values) {
            Ok(preview) => {
                emit(stdout, &preview.json);
                emit(stderr, &get_notes(&preview));
            }
            Err(reason) => {
                let _ = writeln!(
                    stderr,
                    "iparams-lint: what `client.iparams.get()` returns cannot be shown: {reason}"
                );
            }
        }
        emit(stderr, &findings);
    } else {
        emit(stdout, &findings);
    }
    output::status(false, &summary, failing)
}

/// The iparams the custom installation page at `page` stores, as the check of its app finds
/// them, or why they cannot be known.
fn page_iparams(workspace: &Workspace, page: &Path) -> Result<Declarations, String> {
    let app = app_of(page).ok_or("not in an app (no manifest.json beside its config/ folder)")?;
    let shown = app.root.display().to_string();
    let target = Target::App(app.root);
    let checked = workspace.check(
        &mut Linter::default(),
        &target,
        &shown,
        &JobRules::default(),
    );
    let declarations = checked.summary.map(|summary| summary.declarations);
    if declarations
        .as_ref()
        .is_some_and(|declarations| declarations.source == IparamsSource::Both)
    {
        return Err(format!(
            "the app has {IPARAMS_FILE} too, and its installation uses that file, not this \
             page (the platform accepts only one of them: `iparams-lint check` reports \
             iparams-html-and-json); leave out --iparams to check the values against {IPARAMS_FILE}"
        ));
    }
    declarations
        .filter(|declarations| declarations.source.is_page() && declarations.file.is_some())
        .ok_or_else(|| {
            "none of the scripts the page runs defines `postConfigs()`, so what it stores is \
             unknown; `iparams-lint check` says more"
                .to_owned()
        })
}

/// What the printed object leaves out or masks, and why.
fn get_notes(preview: &GetPreview) -> String {
    let list = |keys: &[String]| {
        keys.iter()
            .map(|key| format!("`{key}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut notes = String::new();
    if !preview.secure.is_empty() {
        notes.push_str(&format!(
            "Left out, being secure: {}. The front end cannot read them (`client.iparams.get(\"{}\")` fails); \
             only the request method can use them.\n",
            list(&preview.secure),
            preview.secure[0]
        ));
    }
    if !preview.unset.is_empty() {
        notes.push_str(&format!(
            "Left out, having no value: {}.\n",
            list(&preview.unset)
        ));
    }
    if !preview.unknown.is_empty() {
        notes.push_str(&format!(
            "Left out, not being iparams: {}.\n",
            list(&preview.unknown)
        ));
    }
    if !preview.masked.is_empty() {
        notes.push_str(&format!(
            "Masked here: {}. They look secret but are not secure, so the front end receives them in full; \
             mark them `\"secure\": true` in iparams.json.\n",
            list(&preview.masked)
        ));
    }
    notes
}
