//! A custom installation page as the browser ends up with it: config/iparams.html, the scripts
//! it runs in order (its inline ones and the local files it loads), and the page functions
//! (`postConfigs`, `getConfigs`, `validate`) that the last of their definitions leaves defined.
//! From `postConfigs` come the app's iparams, as iparams.json gives them to other apps.

use super::html::{AttributeValue, HtmlPage};
use super::model::FileId;
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

/// The script of the platform's client on its CDN, which pages for older kits load.
pub const CDN_CLIENT: &str = "fresh_client.js";

/// The placeholder the platform replaces with its client script's URL.
pub const APP_CLIENT: &str = "{{{appclient}}}";

impl Resource {
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

/// The page functions defined in one script, as read.
pub type Definitions<'f> = &'f [PageFunction];

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
    /// The page `file` read as `html`, whose inline scripts define `inline` page functions;
    /// `file_of` names the app's file at a path of config/ (`assets/iparams.js`), and
    /// `functions_of` the page functions a file of the app defines.
    pub fn new<'f>(
        file: FileId,
        html: HtmlPage,
        inline: Definitions<'f>,
        file_of: impl Fn(&str) -> Option<FileId>,
        functions_of: impl Fn(FileId) -> Definitions<'f>,
    ) -> Self {
        let mut runs = Vec::new();
        let mut definitions = Vec::new();
        for script in &html.scripts {
            match (&script.src, script.code) {
                (Some(src), _) => {
                    let resource = Resource::of(&src.value);
                    let loaded = match &resource {
                        Resource::Local(path) => file_of(path),
                        _ => None,
                    };
                    if let Some(loaded) = loaded {
                        definitions
                            .extend(functions_of(loaded).iter().map(|f| (loaded, f.clone())));
                    }
                    runs.push(Run::Loaded {
                        src: src.clone(),
                        resource,
                        file: loaded,
                    });
                }
                (None, Some(code)) => {
                    definitions.extend(
                        inline
                            .iter()
                            .filter(|function| code.contains(function.span))
                            .map(|function| (file, function.clone())),
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

    /// The definition of `name` the product calls: the last one the browser meets that makes a
    /// global function (a nested declaration does not).
    pub fn function(&self, name: PageFunctionName) -> Option<(FileId, &PageFunction)> {
        self.definitions
            .iter()
            .rev()
            .find(|(_, function)| function.name() == name && function.defined != Defined::Nested)
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
        let mut declared: Vec<Declared> = Vec::new();
        for (key, span) in &stored.keys {
            if declared.iter().any(|d| d.key == *key) {
                continue;
            }
            declared.push(Declared {
                key: key.clone(),
                key_span: *span,
                ty: None,
                type_name: None,
                display_name: None,
                secure: stored.secure.iter().any(|(secure, _)| secure == key),
                visible: true,
                options: Vec::new(),
                handlers: Vec::new(),
                product: None,
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
    }
}
