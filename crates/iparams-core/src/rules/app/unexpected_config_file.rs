//! `unexpected-config-file`: a file the platform does not accept in config/.

use crate::app::AppModel;
use crate::app::{ACCEPTED_CONFIG_FILES, ACCEPTED_CONFIG_FOLDER};
use crate::diagnostic::Severity;
use crate::rules::framework::AppContext;
use crate::rules::framework::{Area, Check, Examples, Rule};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "unexpected-config-file",
    severity: Severity::Error,
    area: Area::App,
    summary: "config/ holds a file the platform does not accept",
    docs: r#"config/ may hold only iparams.json or iparams.html, iparam_test_data.json,
oauth_config.json, requests.json, entities.json and the assets/ folder; the app will not pack with
anything else there. A misspelt name (`iparam.json`) is the usual cause, and editor or system
leftovers (`.DS_Store`) the next."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{}
=== config/notes.txt ===
to do
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{}
"#,
    examples: Examples::App,
    vendor: "Rejects: `Config directory has invalid file(s) - <files>`",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (name, folder) in model.config_entries {
        let accepted = if *folder {
            name == ACCEPTED_CONFIG_FOLDER
        } else {
            ACCEPTED_CONFIG_FILES.contains(&name.as_str())
        };
        if accepted {
            continue;
        }
        let help = match suggest::closest(
            name,
            ACCEPTED_CONFIG_FILES
                .iter()
                .copied()
                .chain([ACCEPTED_CONFIG_FOLDER]),
        ) {
            Some(meant) => format!(
                "Did you mean `{meant}`? Rename it; the platform accepts nothing else in config/."
            ),
            None if name.starts_with('.') => {
                format!(
                    "`{name}` is left by an editor or the operating system; delete it and add it to .gitignore."
                )
            }
            None => format!(
                "Move it out of config/; the platform accepts {} and assets/ there.",
                suggest::list(ACCEPTED_CONFIG_FILES)
            ),
        };
        let kind = if *folder { "folder" } else { "file" };
        cx.report_entry(
            name,
            &RULE,
            format!("config/ holds the {kind} `{name}`, which the platform does not accept"),
        )
        .label("not accepted in config/")
        .help(help);
    }
}
