//! A custom installation page as the browser ends up with it: config/iparams.html, the scripts
//! it runs in order (its inline ones and the local files it loads), and the page functions
//! (`postConfigs`, `getConfigs`, `validate`) that the last of their definitions leaves defined.
//! From `postConfigs` come the app's iparams, as iparams.json gives them to other apps.

use super::file_id::FileId;
use super::html::{AttributeValue, HtmlPage, PageScript};
use super::js::{self, JsFacts, Script};
use super::outline::Declared;
use super::page_functions::{Body, Defined, PageFunction, PageFunctionName, Stored};
use crate::span::Span;

/// Where a `src` or `href` of the page leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resource {
    /// A file of config/ (the page's folder), by its path there: `assets/iparams.js`.
    Local(String),
    /// Another host (`https://…`, `//…`).
    Remote { host: String },
    /// The client script the platform substitutes (`{{{appclient}}}`).
    AppClient,
    /// A path that leaves config/, or a scheme that is not the web's.
    Elsewhere,
}

/// The placeholder the platform replaces with its client script's URL.
pub const APP_CLIENT: &str = "{{{appclient}}}";

/// The vendor's own CDNs, from which its docs and kits have pages load the client and the
/// products' style sheets.
pub const VENDOR_CDNS: [&str; 2] = ["static.freshdev.io", "cdn.freshdev.io"];

/// The client of older kits that pages load from the vendor's CDN (platforms before 2.3, or
/// FDKs before 9): `https://static.freshdev.io/fdk/2.0/assets/fresh_client.js`.
pub const CDN_CLIENT_URL: &str = "https://static.freshdev.io/fdk/2.0/assets/fresh_client.js";

/// The file name of the platform's client that `reference` loads, when it loads one by its
/// file rather than through [`APP_CLIENT`]: `fresh_client.js`, or `app-client@2.js` and the
/// other versions of `app-client`, wherever they are served from.
pub fn older_client(reference: &str) -> Option<&str> {
    let path = reference
        .trim()
        .split(['?', '#'])
        .next()
        .unwrap_or_default();
    let name = path.rsplit('/').next().unwrap_or_default();
    let lower = name.to_ascii_lowercase();
    let client =
        lower == "fresh_client.js" || (lower.starts_with("app-client") && lower.ends_with(".js"));
    client.then_some(name)
}

impl Resource {
    /// Whether it is served from one of the vendor's own CDNs ([`VENDOR_CDNS`]).
    pub fn is_vendor_cdn(&self) -> bool {
        matches!(self, Resource::Remote { host } if VENDOR_CDNS.iter().any(|cdn| host.eq_ignore_ascii_case(cdn)))
    }

    /// Where `reference`, written in config/iparams.html, leads.
    pub fn of(reference: &str) -> Resource {
        let reference = reference.trim();
        if reference.contains(APP_CLIENT) {
            return Resource::AppClient;
        }
        let lower = reference.to_ascii_lowercase();
        let remote = ["https://", "http://", "//"]
            .iter()
            .find_map(|scheme| lower.strip_prefix(scheme));
        if let Some(rest) = remote {
            let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
            return Resource::Remote {
                host: host.to_owned(),
            };
        }
        if lower.contains(':') || reference.starts_with('/') {
            return Resource::Elsewhere;
        }
        let path = reference.split(['?', '#']).next().unwrap_or_default();
        let mut parts: Vec<&str> = Vec::new();
        for part in path.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    if parts.pop().is_none() {
                        return Resource::Elsewhere;
                    }
                }
                part => parts.push(part),
            }
        }
        Resource::Local(parts.join("/"))
    }
}

/// One script of the page, in the order the browser runs them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Run {
    /// Inline code of the page.
    Inline(Span),
    /// A `src`, with where it leads and the app's file it names, when the app has it.
    Loaded {
        src: AttributeValue,
        resource: Resource,
        file: Option<FileId>,
    },
}

/// A script of the app that the page may load: config/assets/iparams.js or another script of
/// config/assets/.
#[derive(Clone, Copy, Debug)]
pub struct Loadable<'s> {
    pub file: FileId,
    /// How output names it, as the caller gave it.
    pub path: &'s str,
    pub facts: &'s JsFacts,
}

/// `function` as the script it is in defines it: a module script's top-level declarations are
/// the module's own.
fn in_script(function: &PageFunction, script: &PageScript) -> PageFunction {
    let mut function = function.clone();
    if script.module && function.defined == Defined::Declaration {
        function.defined = Defined::InModule;
    }
    function
}

/// A custom installation page.
#[derive(Clone, Debug)]
pub struct InstallPage {
    /// config/iparams.html.
    pub file: FileId,
    pub html: HtmlPage,
    pub runs: Vec<Run>,
    /// Every definition of a page function, in the order the browser meets them, with its file.
    pub definitions: Vec<(FileId, PageFunction)>,
}

impl InstallPage {
    /// The page `file` read as `html`, whose inline scripts define `inline` page functions,
    /// beside the `scripts` it may load from `config_folder` (how output names config/).
    pub fn new(
        file: FileId,
        html: HtmlPage,
        inline: &[PageFunction],
        config_folder: &str,
        scripts: &[Loadable<'_>],
    ) -> Self {
        let script_at = |path: &str| {
            let shown = format!("{config_folder}/{path}");
            scripts.iter().find(|script| script.path == shown)
        };
        let mut runs = Vec::new();
        let mut definitions = Vec::new();
        for script in &html.scripts {
            match (&script.src, script.code) {
                (Some(src), _) => {
                    let resource = Resource::of(&src.value);
                    let loaded = match &resource {
                        Resource::Local(path) => script_at(path),
                        _ => None,
                    };
                    if let Some(loaded) = loaded {
                        let functions = loaded.facts.page_functions.iter();
                        definitions.extend(functions.map(|f| (loaded.file, in_script(f, script))));
                    }
                    runs.push(Run::Loaded {
                        src: src.clone(),
                        resource,
                        file: loaded.map(|script| script.file),
                    });
                }
                (None, Some(code)) => {
                    definitions.extend(
                        inline
                            .iter()
                            .filter(|function| code.contains(function.span))
                            .map(|function| (file, in_script(function, script))),
                    );
                    runs.push(Run::Inline(code));
                }
                (None, None) => {}
            }
        }
        InstallPage {
            file,
            html,
            runs,
            definitions,
        }
    }

    /// The page `file`, whose text is `text`, read with its inline scripts (whose facts come
    /// back beside it, with what its text holds that no output may show among their secrets),
    /// beside the `scripts` it may load from `config_folder`.
    pub fn read(
        file: FileId,
        text: &str,
        config_folder: &str,
        scripts: &[Loadable<'_>],
    ) -> (Self, JsFacts) {
        let html = HtmlPage::read(text);
        let mut facts = js::analyze_page(&html, text, Script::Callbacks);
        facts.secrets.extend(&html.credentials);
        facts.secrets.sort_unstable();
        let page = InstallPage::new(file, html, &facts.page_functions, config_folder, scripts);
        (page, facts)
    }

    /// The scripts it loads by their `src`, in order, each with where it leads and the app's
    /// file it names, when the app has it.
    pub fn loaded(
        &self,
    ) -> impl Iterator<Item = (&AttributeValue, &Resource, Option<FileId>)> + Clone {
        self.runs.iter().filter_map(|run| match run {
            Run::Loaded {
                src,
                resource,
                file,
            } => Some((src, resource, *file)),
            Run::Inline(_) => None,
        })
    }

    /// The definition of `name` the product calls: the last one the browser meets that makes a
    /// global function (a nested declaration does not).
    pub fn function(&self, name: PageFunctionName) -> Option<(FileId, &PageFunction)> {
        self.definitions
            .iter()
            .rev()
            .find(|(_, function)| function.name() == name && function.defined.is_global())
            .map(|(file, function)| (*file, function))
    }

    /// What `postConfigs` stores, with the file it is written in.
    pub fn stored(&self) -> Option<(FileId, &Stored)> {
        let (file, function) = self.function(PageFunctionName::PostConfigs)?;
        match &function.body {
            Body::PostConfigs(stored) => Some((file, stored)),
            _ => None,
        }
    }

    /// The iparams the page stores, as iparams.json would declare them: each key `postConfigs`
    /// returns, once (where it is first written), secure when `__meta.secure` lists it.
    pub fn declared(&self) -> Vec<Declared> {
        let Some((_, stored)) = self.stored() else {
            return Vec::new();
        };
        let data_bind = |key: &str| {
            let (_, id) = stored.fields.iter().find(|(field, _)| field == key)?;
            let (_, bind) = self.html.bound_ids.iter().find(|(bound, _)| bound == id)?;
            Some(bind.clone())
        };
        let mut declared: Vec<Declared> = Vec::new();
        for (key, span) in &stored.keys {
            if declared.iter().any(|d| d.key == *key) {
                continue;
            }
            declared.push(Declared {
                key_span: *span,
                secure: stored.secure.iter().any(|(secure, _)| secure == key),
                data_bind: data_bind(key),
                ..Declared::of_key(key)
            });
        }
        declared
    }

    /// Whether the page's keys are all known: `postConfigs` is defined and what it returns
    /// was read whole.
    pub fn keys_known(&self) -> bool {
        self.stored().is_some_and(|(_, stored)| stored.complete)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{AppInput, example_files};

    #[test]
    fn the_keys_of_the_last_post_configs_the_page_runs() {
        let app = r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<script src="./assets/iparams.js"></script>
<script>function postConfigs() { return { "region": r.value, __meta: { secure: ["token"] }, token: t.value }; }</script>
=== config/assets/iparams.js ===
function postConfigs() { return { old: 1 }; }
=== config/assets/unused.js ===
function postConfigs() { return { never: 1 }; }
"#;
        let files = example_files(app);
        let input = AppInput::from_example(&files).expect("an app");
        let checked = crate::Linter::default().check_app(&input, &Default::default());
        let found = checked.summary.declarations;
        let file = found.file.expect("a declaring file");
        assert_eq!(file.relative, "config/iparams.html");
        assert_eq!(
            found.places,
            ["config/iparams.html:2:44", "config/iparams.html:2:93"]
        );
        assert!(found.complete);
        let text = files[1].1;
        let keys: Vec<_> = found
            .declared
            .iter()
            .map(|d| {
                (
                    d.key.as_str(),
                    &text[d.key_span.start..d.key_span.end],
                    d.secure,
                )
            })
            .collect();
        assert_eq!(
            keys,
            [("region", "region", false), ("token", "token", true)]
        );
    }

    #[test]
    fn where_references_lead() {
        let local = |path: &str| Resource::Local(path.to_owned());
        assert_eq!(
            Resource::of("./assets/iparams.js"),
            local("assets/iparams.js")
        );
        assert_eq!(
            Resource::of("assets/x/../y.css?v=2#top"),
            local("assets/y.css")
        );
        assert_eq!(Resource::of("{{{appclient}}}"), Resource::AppClient);
        assert_eq!(
            Resource::of("https://unpkg.com/@freshworks/crayons@v4/dist/crayons.js"),
            Resource::Remote {
                host: "unpkg.com".to_owned()
            }
        );
        assert_eq!(
            Resource::of("//cdn.example.com/a.js"),
            Resource::Remote {
                host: "cdn.example.com".to_owned()
            }
        );
        assert_eq!(Resource::of("../manifest.json"), Resource::Elsewhere);
        assert_eq!(Resource::of("/assets/iparams.js"), Resource::Elsewhere);
        assert_eq!(Resource::of("data:text/javascript,1"), Resource::Elsewhere);
        assert!(Resource::of(CDN_CLIENT_URL).is_vendor_cdn());
        assert!(Resource::of("https://CDN.freshdev.io/assets/app-client@2.js").is_vendor_cdn());
        assert!(!Resource::of("https://freshdev.io.example.com/a.js").is_vendor_cdn());
    }

    #[test]
    fn older_clients_by_their_file() {
        assert_eq!(older_client(CDN_CLIENT_URL), Some("fresh_client.js"));
        assert_eq!(
            older_client("https://cdn.freshdev.io/assets/app-client@2.js?v=1"),
            Some("app-client@2.js")
        );
        assert_eq!(older_client("fresh_client.js"), Some("fresh_client.js"));
        assert_eq!(older_client("{{{appclient}}}"), None);
        assert_eq!(older_client("./assets/client.js"), None);
        assert_eq!(older_client("https://x/fresh_client.js.map"), None);
    }
}
