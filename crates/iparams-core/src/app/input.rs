//! The files of an app as the caller (which owns the file system) gathered them, what each is
//! for, and what config/ may hold.

use super::iparams_source::IparamsSource;

/// One file of the app, as the caller read it.
#[derive(Clone, Copy, Debug)]
pub struct AppFile<'a> {
    /// Its path inside the app folder, with `/` separators: what it is for ([`Role::of`]), and
    /// how the check's result names it back to the caller.
    pub relative: &'a str,
    /// How output names it.
    pub path: &'a str,
    pub bytes: &'a [u8],
}

/// The most of a script the rules read: a larger one is a bundle or a library, not the app's
/// own code, and is left unread (and said so). A custom installation page is read whole.
pub const MAX_SCRIPT_BYTES: usize = 2 * 1024 * 1024;

/// A file of the app that is not read, with its size in bytes.
#[derive(Clone, Copy, Debug)]
pub struct UnreadFile<'a> {
    /// Its path inside the app folder.
    pub relative: &'a str,
    /// How output names it.
    pub path: &'a str,
    pub size: usize,
}

/// What the caller found in one app folder.
#[derive(Clone, Debug)]
pub struct AppInput<'a> {
    pub manifest: AppFile<'a>,
    /// How output names the config/ folder, for findings about the folder itself.
    pub config_folder: &'a str,
    /// The entries of config/, with whether each is a folder.
    pub config_entries: Vec<(String, bool)>,
    pub iparams: Option<AppFile<'a>>,
    /// config/iparams.html, a custom installation page.
    pub page: Option<AppFile<'a>>,
    /// The paths of the files under config/assets/, from config/ (`assets/iparams.css`): what
    /// the page's `src` and `href` may name.
    pub config_assets: Vec<String>,
    /// config/assets/iparams.js.
    pub callbacks: Option<AppFile<'a>>,
    /// The other scripts of config/assets/, which the installation page loads.
    pub install_scripts: Vec<AppFile<'a>>,
    /// config/requests.json, the request templates.
    pub requests: Option<AppFile<'a>>,
    /// Other config/*.json files that may read iparams as templates do (oauth_config.json).
    pub templates: Vec<AppFile<'a>>,
    /// Scripts and pages that run in the browser.
    pub frontend: Vec<AppFile<'a>>,
    /// Serverless code (server/).
    pub serverless: Vec<AppFile<'a>>,
    /// Scripts over [`MAX_SCRIPT_BYTES`], left unread.
    pub unread: Vec<UnreadFile<'a>>,
}

/// What a file of an app is for, told by its path relative to the app folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Manifest,
    Iparams,
    /// config/iparams.html, a custom installation page.
    InstallPage,
    Callbacks,
    /// Another script of config/assets/ (a JavaScript or TypeScript file, not a page): the
    /// installation page loads it.
    InstallScript,
    /// config/requests.json.
    Requests,
    /// Another config/*.json that may hold `<%= iparam.x %>` (oauth_config.json).
    Template,
    Frontend,
    Serverless,
    /// Not read: images, styles, other config files...
    Other,
}

/// The extensions of files that hold scripts (pages hold them inline).
const SCRIPT_EXTENSIONS: [&str; 10] = [
    ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".html", ".htm", ".vue", ".cts",
];

/// Whether a file of [`SCRIPT_EXTENSIONS`] (its path in lower case) is a page, whose scripts are
/// inline, rather than a script.
pub(crate) fn is_page(lower: &str) -> bool {
    [".html", ".htm", ".vue"]
        .iter()
        .any(|ext| lower.ends_with(ext))
}

/// Folders whose files are never the app's own code.
pub const SKIPPED_FOLDERS: [&str; 4] = ["node_modules", ".git", ".fdk", "coverage"];

impl Role {
    /// Whether the file is code the rules follow (the installation page aside, which is read
    /// whole).
    fn is_script(self) -> bool {
        matches!(
            self,
            Role::Callbacks | Role::InstallScript | Role::Frontend | Role::Serverless
        )
    }

    /// The role of the file at `relative` (with `/` separators) inside an app folder.
    pub fn of(relative: &str) -> Role {
        let lower = relative.to_ascii_lowercase();
        let script = SCRIPT_EXTENSIONS.iter().any(|ext| lower.ends_with(ext));
        let skipped = relative
            .split('/')
            .any(|part| SKIPPED_FOLDERS.contains(&part));
        match relative {
            "manifest.json" => Role::Manifest,
            "config/iparams.json" => Role::Iparams,
            "config/iparams.html" => Role::InstallPage,
            "config/assets/iparams.js" => Role::Callbacks,
            "config/requests.json" => Role::Requests,
            "config/iparam_test_data.json" => Role::Other,
            _ if skipped => Role::Other,
            _ if relative.starts_with("config/assets/") && script && !is_page(&lower) => {
                Role::InstallScript
            }
            _ if relative.starts_with("config/") => match relative["config/".len()..].contains('/')
            {
                false if relative.ends_with(".json") => Role::Template,
                _ => Role::Other,
            },
            _ if relative.starts_with("server/") && script => Role::Serverless,
            _ if script => Role::Frontend,
            _ => Role::Other,
        }
    }
}

impl<'a> AppInput<'a> {
    /// An app with only its manifest so far.
    pub fn new(manifest: AppFile<'a>, config_folder: &'a str) -> Self {
        Self {
            manifest,
            config_folder,
            config_entries: Vec::new(),
            iparams: None,
            page: None,
            config_assets: Vec::new(),
            callbacks: None,
            install_scripts: Vec::new(),
            requests: None,
            templates: Vec::new(),
            frontend: Vec::new(),
            serverless: Vec::new(),
            unread: Vec::new(),
        }
    }

    /// Where the app's iparams come from: decided here, once, from the files it has.
    pub fn iparams_source(&self) -> IparamsSource {
        IparamsSource::of(self.iparams.is_some(), self.page.is_some())
    }

    /// Adds a file of the app, by what its path inside the app says it is for; a script over
    /// [`MAX_SCRIPT_BYTES`] is added as unread.
    pub fn add(&mut self, file: AppFile<'a>) {
        let role = Role::of(file.relative);
        if role.is_script() && file.bytes.len() > MAX_SCRIPT_BYTES {
            self.unread.push(UnreadFile {
                relative: file.relative,
                path: file.path,
                size: file.bytes.len(),
            });
            return;
        }
        match role {
            Role::Iparams => self.iparams = Some(file),
            Role::InstallPage => self.page = Some(file),
            Role::Callbacks => self.callbacks = Some(file),
            Role::InstallScript => self.install_scripts.push(file),
            Role::Requests => self.requests = Some(file),
            Role::Template => self.templates.push(file),
            Role::Frontend => self.frontend.push(file),
            Role::Serverless => self.serverless.push(file),
            Role::Manifest | Role::Other => {}
        }
    }

    /// The app of a multi-file example of the rule docs. `None` without a manifest.json.
    pub fn from_example(files: &[(&'a str, &'a str)]) -> Option<Self> {
        let manifest = files.iter().find(|(path, _)| *path == "manifest.json")?;
        let file = |(path, text): &(&'a str, &'a str)| AppFile {
            relative: path,
            path,
            bytes: text.as_bytes(),
        };
        let mut input = AppInput::new(file(manifest), "config");
        for example in files {
            input.add(file(example));
            let path = example.0;
            if let Some(entry) = path.strip_prefix("config/") {
                let (name, folder) = entry
                    .split_once('/')
                    .map_or((entry, false), |(folder, _)| (folder, true));
                if !input.config_entries.iter().any(|(known, _)| known == name) {
                    input.config_entries.push((name.to_owned(), folder));
                }
                if entry.starts_with("assets/") {
                    input.config_assets.push(entry.to_owned());
                }
            }
        }
        Some(input)
    }
}

/// Files the platform accepts in config/.
pub const ACCEPTED_CONFIG_FILES: [&str; 6] = [
    "iparams.json",
    "iparams.html",
    "iparam_test_data.json",
    "oauth_config.json",
    "requests.json",
    "entities.json",
];

/// The one folder config/ may hold.
pub const ACCEPTED_CONFIG_FOLDER: &str = "assets";

/// Whether config/ holds a file called `name`.
pub fn config_has(entries: &[(String, bool)], name: &str) -> bool {
    entries
        .iter()
        .any(|(entry, folder)| entry == name && !folder)
}

/// Multi-file examples in rule docs start each file with `=== path ===`.
pub const EXAMPLE_FILE_MARK: &str = "=== ";

/// The files of a multi-file example: (path, contents).
pub fn example_files(example: &str) -> Vec<(&str, &str)> {
    let mut files = Vec::new();
    let mut rest = example;
    while let Some(after) = rest.strip_prefix(EXAMPLE_FILE_MARK) {
        let Some((header, body)) = after.split_once('\n') else {
            break;
        };
        let path = header.trim_end_matches(" ===");
        let end = body
            .find(&format!("\n{EXAMPLE_FILE_MARK}"))
            .map_or(body.len(), |at| at + 1);
        files.push((path, &body[..end]));
        rest = &body[end..];
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_by_path() {
        assert_eq!(Role::of("config/iparams.json"), Role::Iparams);
        assert_eq!(Role::of("config/iparams.html"), Role::InstallPage);
        assert_eq!(Role::of("config/requests.json"), Role::Requests);
        assert_eq!(Role::of("config/oauth_config.json"), Role::Template);
        assert_eq!(Role::of("config/assets/iparams.js"), Role::Callbacks);
        assert_eq!(Role::of("config/assets/other.js"), Role::InstallScript);
        assert_eq!(
            Role::of("config/assets/lib/helpers.ts"),
            Role::InstallScript
        );
        assert_eq!(Role::of("config/assets/style.css"), Role::Other);
        assert_eq!(Role::of("config/assets/form.html"), Role::Other);
        assert_eq!(
            Role::of("config/assets/node_modules/x/index.js"),
            Role::Other
        );
        assert_eq!(Role::of("server/lib/handler.js"), Role::Serverless);
        assert_eq!(Role::of("app/index.html"), Role::Frontend);
        assert_eq!(Role::of("src/components/App.tsx"), Role::Frontend);
        assert_eq!(Role::of("app/node_modules/x/index.js"), Role::Other);
        assert_eq!(Role::of("app/styles/style.css"), Role::Other);
    }

    #[test]
    fn multi_file_examples() {
        let files =
            example_files("=== manifest.json ===\n{}\n=== config/iparams.json ===\n{\"a\": 1}\n");
        assert_eq!(
            files,
            [
                ("manifest.json", "{}\n"),
                ("config/iparams.json", "{\"a\": 1}\n")
            ]
        );
    }
}
