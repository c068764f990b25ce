//! `iparams-lint init`: writes a commented `.iparams-lint.toml` in the app (or the folder
//! named), never over one that is there, and prints the pre-commit and CI snippets for the
//! repository around it.

use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use crate::environment::exit;
use crate::output::fail;
use crate::workspace::config::FILE_NAME;
use crate::workspace::{app_of, link_out_of_app};
use crate::write::create_new;

/// The configuration `init` writes: every key, explained, with the defaults left as they are.
pub const TEMPLATE: &str = r#"# iparams-lint's configuration: it applies to the files in this folder and below it (the
# nearest .iparams-lint.toml above a file wins). Globs are relative to this folder.
# `iparams-lint --show-settings PATH` prints what applies to PATH.

# Files and folders to leave unchecked (as `--exclude GLOB` on the command line).
exclude = []

# Run only these rules: names of rules or of groups (`iparams-lint rules` shows both).
# Every rule runs when this is left out.
# select = ["secrets", "templates", "missing-default"]

# Rules (or groups) to turn off.
ignore-rules = []

# A rule's level: "off", "info", "warning" (or "warn") or "error"; "*" names every rule.
[rules]
# unanchored-regex = "off"
# missing-default = "error"

# Levels for some files ("glob"), or for one value of iparams.json ("glob#/json/pointer"):
# JSON has no comments, so that is how one finding there is silenced.
[overrides]
# "app/scripts/legacy.js" = { "*" = "off" }
# "config/iparams.json#/api_token" = { vendor-secure-false-positive = "off" }
"#;

pub fn run(folder: Option<&Path>, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8 {
    let named = folder.unwrap_or(Path::new("."));
    if !named.is_dir() {
        return fail(stderr, &format!("{}: not a folder", named.display()));
    }
    // The app around the folder, else the folder itself (a repository of several apps).
    let home = app_of(named).map_or_else(|| named.to_owned(), |app| app.root);
    let path = home.join(FILE_NAME);
    if let Some(why) = link_out_of_app(&path) {
        return fail(stderr, &why);
    }
    match create_new(&path, TEMPLATE.as_bytes()) {
        Ok(()) => {}
        Err(error) if error.kind() == ErrorKind::AlreadyExists => {
            return fail(
                stderr,
                &format!("{}: it already exists; not overwritten", path.display()),
            );
        }
        Err(error) => return fail(stderr, &format!("{}: {error}", path.display())),
    }
    let _ = writeln!(stderr, "Wrote {}.", path.display());
    let _ = stdout.write_all(snippets(&home).as_bytes());
    exit::CLEAN
}

/// The pre-commit and CI snippets for the repository around `home`, checking `home`.
fn snippets(home: &Path) -> String {
    let version = env!("CARGO_PKG_VERSION");
    let repository = env!("CARGO_PKG_REPOSITORY");
    let absolute = std::path::absolute(home).unwrap_or_else(|_| home.to_owned());
    let top = repository_root(&absolute);
    let paths = top
        .as_deref()
        .and_then(|top| absolute.strip_prefix(top).ok())
        .map(|inside| inside.to_string_lossy().replace('\\', "/"))
        .filter(|inside| !inside.is_empty())
        .unwrap_or_else(|| ".".to_owned());
    let gitlab = top
        .as_deref()
        .is_some_and(|top| top.join(".gitlab-ci.yml").is_file());
    let mut out = format!(
        "# .pre-commit-config.yaml\n\
         repos:\n\
         \x20 - repo: {repository}\n\
         \x20   rev: v{version}\n\
         \x20   hooks:\n\
         \x20     - id: iparams-lint        # or iparams-lint-fix to apply the safe fixes first\n\n"
    );
    if gitlab {
        out.push_str(&format!(
            "# .gitlab-ci.yml\n\
             iparams:\n\
             \x20 script:\n\
             \x20   - npx --yes iparams-lint@{version} --format junit {paths} > iparams-junit.xml\n\
             \x20 artifacts:\n\
             \x20   when: always\n\
             \x20   reports:\n\
             \x20     junit: iparams-junit.xml\n"
        ));
    } else {
        out.push_str(&format!(
            "# .github/workflows/iparams-lint.yml\n\
             on: [push, pull_request]\n\
             jobs:\n\
             \x20 iparams-lint:\n\
             \x20   runs-on: ubuntu-latest\n\
             \x20   steps:\n\
             \x20     - uses: actions/checkout@v4\n\
             \x20     - uses: iparams-lint/iparams-lint@v{version}\n\
             \x20       with:\n\
             \x20         paths: {paths}\n"
        ));
    }
    out
}

/// The top folder of the git repository `folder` is in.
fn repository_root(folder: &Path) -> Option<PathBuf> {
    folder
        .ancestors()
        .find(|candidate| candidate.join(".git").exists())
        .map(Path::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_is_a_configuration_that_changes_nothing() {
        let config = crate::workspace::config::Config::parse(Path::new(FILE_NAME), TEMPLATE)
            .expect("a valid configuration");
        assert!(!config.ignores(Path::new("config/iparams.json")));
        assert!(
            config
                .overrides_for(Path::new("config/iparams.json"))
                .is_empty()
        );
    }
}
