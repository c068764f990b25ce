//! What a check of an app learned of it, owned: the model's answers that front-ends (the
//! language server's index, the preview, `values`) read instead of reading the app's files
//! again. Files are named by their paths inside the app, as the caller gave them.

use super::file_id::FileId;
use super::html::{AttributeValue, HtmlPage};
use super::iparams_source::IparamsSource;
use super::manifest::Manifest;
use super::model::AppModel;
use super::outline::{Declared, Outline};
use super::page::{Resource, older_client};
use super::page_functions::Body;
use super::requests::Requests;
use crate::span::{LineIndex, Span};

/// The iparams an app declares, wherever it declares them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declarations {
    pub source: IparamsSource,
    /// The file whose text declares them (iparams.json, the page, or a script the page loads),
    /// when one does.
    pub file: Option<DeclaringFile>,
    /// Each iparam, in the order written (a repeated key more than once), with the span of its
    /// key in that file: quotes included for iparams.json, the key's name itself for a page.
    pub declared: Vec<Declared>,
    /// `declared` lists every iparam: iparams.json was read to its end, or every key the
    /// page's `postConfigs` returns could be told from the code.
    pub complete: bool,
    /// Where each key of `declared` is, as `path:line:column`, for messages about other files.
    pub places: Vec<String>,
    /// The keys a page stores only sometimes (given in a branch, or by some `return`s only).
    pub sometimes: Vec<String>,
}

/// A file of the app, by its path inside it and how output names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclaringFile {
    pub relative: String,
    pub shown: String,
}

impl Declarations {
    /// The iparams of an iparams.json read on its own (in an app whose manifest cannot be read,
    /// which is not checked as an app).
    pub fn of_iparams_json(file: DeclaringFile, text: &str) -> Self {
        let outline = Outline::of(text);
        let places = places(&file.shown, text, &outline.iparams);
        Declarations {
            source: IparamsSource::Json,
            file: Some(file),
            declared: outline.iparams,
            complete: outline.complete,
            places,
            sometimes: Vec::new(),
        }
    }

    /// Each key once, as `JSON.parse` keeps them: at the place of its first member, declared as
    /// its last.
    pub fn unique(&self) -> Vec<&Declared> {
        super::outline::unique(&self.declared)
    }
}

/// `path:line:column` of each key of `declared`, written in `text` (shown as `path`).
fn places(path: &str, text: &str, declared: &[Declared]) -> Vec<String> {
    let lines = LineIndex::new(text);
    let place = |declared: &Declared| {
        let at = lines.position(text, declared.key_span.start);
        format!("{path}:{}:{}", at.line, at.column)
    };
    declared.iter().map(place).collect()
}

/// One place where the app's code or templates name an iparam.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyRead {
    pub key: String,
    /// Where it is named: a string literal's quotes included, as the scripts' reads give it.
    pub span: Span,
}

/// What a check learned of an app.
#[derive(Clone, Debug)]
pub struct AppSummary {
    pub declarations: Declarations,
    /// The places each file (by its path inside the app) names an iparam, in file order: the
    /// reads of scripts (`client.iparams.get`, `args.iparams`), the callbacks' `utils.get` and
    /// `utils.set`, a page's `getConfigs` reads, and templates' `<%= iparam.key %>`.
    pub reads: Vec<(String, Vec<KeyRead>)>,
    pub manifest: Manifest,
    /// config/requests.json's templates, when the app has the file.
    pub requests: Option<Requests<'static>>,
    /// The `data-bind` values of config/iparams.html, when the app has the page.
    pub data_binds: Vec<AttributeValue>,
    /// The hosts other than the app's that config/iparams.html loads scripts and style sheets
    /// from (the platform's client aside, which the preview replaces), once each in the page's
    /// order.
    pub page_hosts: Vec<String>,
}

impl AppSummary {
    /// What is known of an app that was not checked whole: its declarations alone.
    pub fn of_declarations(declarations: Declarations) -> Self {
        AppSummary {
            declarations,
            reads: Vec::new(),
            manifest: Manifest::default(),
            requests: None,
            data_binds: Vec::new(),
            page_hosts: Vec::new(),
        }
    }
}

/// The hosts other than the app's that `page` loads from, the platform's client aside.
fn remote_hosts(page: &HtmlPage) -> Vec<String> {
    let mut hosts = Vec::new();
    for (_, reference) in page.loaded() {
        if older_client(&reference.value).is_some() {
            continue;
        }
        if let Resource::Remote { host } = Resource::of(&reference.value)
            && !hosts.contains(&host)
        {
            hosts.push(host);
        }
    }
    hosts
}

impl AppModel<'_> {
    /// What front-ends keep of the model once its checks have run.
    pub fn summary(&self) -> AppSummary {
        AppSummary {
            declarations: self.declarations(),
            reads: self.key_reads(),
            manifest: self.manifest.manifest.clone(),
            requests: self
                .requests
                .as_ref()
                .map(|requests| requests.requests.clone().into_owned()),
            data_binds: self
                .page
                .as_ref()
                .map(|page| page.html.data_binds.clone())
                .unwrap_or_default(),
            page_hosts: self
                .page
                .as_ref()
                .map(|page| remote_hosts(&page.html))
                .unwrap_or_default(),
        }
    }

    fn declarations(&self) -> Declarations {
        let file = self.iparams_file.map(|id| DeclaringFile {
            relative: self.relatives[id].clone(),
            shown: self.paths[id].clone(),
        });
        let places = match self.iparams_file {
            Some(id) => places(&self.paths[id], self.sources[id].text(), &self.declared),
            None => Vec::new(),
        };
        let sometimes = match (&self.page, self.source.is_page()) {
            (Some(page), true) => page
                .stored()
                .map(|(_, stored)| stored.sometimes.clone())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        Declarations {
            source: self.source,
            file,
            declared: self.declared.clone(),
            complete: self.iparams_complete,
            places,
            sometimes,
        }
    }

    fn key_reads(&self) -> Vec<(String, Vec<KeyRead>)> {
        let mut by_file: Vec<(FileId, Vec<KeyRead>)> = Vec::new();
        let mut add = |file: FileId, key: &str, span: Span| {
            let read = KeyRead {
                key: key.to_owned(),
                span,
            };
            match by_file.iter_mut().find(|(id, _)| *id == file) {
                Some((_, reads)) => reads.push(read),
                None => by_file.push((file, vec![read])),
            }
        };
        for (file, _, facts) in self.scripts() {
            for read in &facts.reads {
                add(file, &read.key, read.span);
            }
            for (key, span) in facts
                .utils_calls
                .iter()
                .filter_map(|call| call.key.as_ref())
            {
                add(file, key, *span);
            }
            for function in &facts.page_functions {
                if let Body::GetConfigs(filled) = &function.body {
                    for (key, span) in &filled.keys {
                        add(file, key, *span);
                    }
                }
            }
        }
        for (file, reads) in &self.templates {
            for read in reads {
                add(*file, &read.key, read.span);
            }
        }
        by_file
            .into_iter()
            .map(|(file, mut reads)| {
                reads.sort_by_key(|read| read.span.start);
                reads.dedup();
                (self.relatives[file].clone(), reads)
            })
            .collect()
    }
}
