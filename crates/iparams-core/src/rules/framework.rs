//! The framework rules are written in: what a rule is ([`Rule`]: its documentation, its
//! [`Area`], its [`Examples`]) and its checks ([`Check`], [`FileCheck`]), and what a check sees
//! and where it reports ([`Context`], [`AppContext`]). A rule holds its checks, a check is given
//! a context, and a context reports for a rule: the three are one piece.
//!
//! Findings are recorded at the rule's default severity: the engine settles each one's level
//! for its pointer once, when the file is finished (`engine::finish`).

use std::any::Any;

use crate::app::{AppFacts, AppModel, FileId};
use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::ecma_regex::RegexEngine;
use crate::model::Iparam;
use crate::reading::Reading;
use crate::span::Span;
use crate::suppression::Suppression;
use crate::values::{Answer, ValuesFile};

/// What a rule is and how it is documented.
#[derive(Debug)]
pub struct Rule {
    /// Stable kebab-case name, used in output and configuration.
    pub name: &'static str,
    pub severity: Severity,
    /// What part of the app it is about, for the docs.
    pub area: Area,
    /// One line: what the rule finds.
    pub summary: &'static str,
    /// What it checks and why it matters, in Markdown, wrapped for the source: read it with
    /// [`Rule::docs`].
    pub(crate) docs: &'static str,
    /// A file the rule reports...
    pub bad: &'static str,
    /// ...and the same file corrected.
    pub good: &'static str,
    /// What `bad` and `good` are.
    pub examples: Examples,
    /// What the vendor's validator (`fdk validate`) does in the same case, wrapped for the
    /// source: read it with [`Rule::vendor`].
    pub(crate) vendor: &'static str,
    /// Whether findings carry a fix, and how safe it is.
    pub fix: Option<Applicability>,
    /// What runs, and when.
    pub checks: &'static [Check],
}

/// What part of the app a rule is about: the docs list rules by area, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Area {
    File,
    Keys,
    Options,
    Defaults,
    Products,
    Secrets,
    Regexes,
    Events,
    DataBind,
    Installation,
    App,
    Page,
    Templates,
    Hr,
    Values,
}

impl Area {
    pub const ALL: [Area; 15] = [
        Area::File,
        Area::Keys,
        Area::Options,
        Area::Defaults,
        Area::Products,
        Area::Secrets,
        Area::Regexes,
        Area::Events,
        Area::DataBind,
        Area::Installation,
        Area::App,
        Area::Page,
        Area::Templates,
        Area::Hr,
        Area::Values,
    ];

    /// Its name as a group of rules, for selecting them (`--select secrets`).
    pub fn name(self) -> &'static str {
        match self {
            Area::File => "file",
            Area::Keys => "keys",
            Area::Options => "options",
            Area::Defaults => "defaults",
            Area::Products => "products",
            Area::Secrets => "secrets",
            Area::Regexes => "regexes",
            Area::Events => "events",
            Area::DataBind => "data-bind",
            Area::Installation => "installation",
            Area::App => "app",
            Area::Page => "page",
            Area::Templates => "templates",
            Area::Hr => "hr",
            Area::Values => "values",
        }
    }

    /// The area whose group is called `name`.
    pub fn named(name: &str) -> Option<Area> {
        Area::ALL.into_iter().find(|area| area.name() == name)
    }

    /// How the docs title it.
    pub fn title(self) -> &'static str {
        match self {
            Area::File => "The file",
            Area::Keys => "Keys and attributes",
            Area::Options => "Options",
            Area::Defaults => "Default values",
            Area::Products => "Products",
            Area::Secrets => "Secrets",
            Area::Regexes => "Regexes",
            Area::Events => "Events",
            Area::DataBind => "data-bind",
            Area::Installation => "Installation",
            Area::App => "The app",
            Area::Page => "A custom installation page (config/iparams.html)",
            Area::Templates => "Request templates",
            Area::Hr => "The HR service",
            Area::Values => "Installation values (`values`)",
        }
    }
}

/// What a rule's examples are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Examples {
    /// An iparams.json.
    Iparams,
    /// A whole app, each file opening with `=== path ===`.
    App,
    /// A values file for the iparams.json `definitions` (the `good` one for `good_definitions`,
    /// when given: for a rule about iparams.json as the values see it).
    Values {
        definitions: &'static str,
        good_definitions: Option<&'static str>,
    },
    /// A values file for the iparams.json `definitions`, checked against the product's API by
    /// `values --verify`: the examples need the network (the HR sandbox's tests prove them).
    Verified { definitions: &'static str },
    /// A whole app, as for [`Examples::App`], that is too large to write out (a script of
    /// megabytes): `bad` and `good` describe it, and the rule's tests build it on disk.
    Described,
}

/// One check of a rule, and when it runs.
#[derive(Debug)]
pub enum Check {
    /// Once per JSON file (iparams.json, a values file, the manifest), with what reading it
    /// found: its encoding, its syntax, its top level.
    Reading(fn(&Reading<'_>, &mut Context<'_>)),
    /// On each iparam of iparams.json.
    Iparam(fn(&Iparam<'_, '_>, &mut Context<'_>)),
    /// Sees every iparam of iparams.json, then the end of the file.
    File(fn() -> Box<dyn FileCheck>),
    /// Once per app, across its files.
    App(fn(&AppModel<'_>, &mut AppContext)),
    /// On each iparam of iparams.json with the value a values file gives it.
    Value(fn(&Answer<'_>, &mut Context<'_>)),
    /// Once per values file, with its definitions.
    Values(fn(&ValuesFile<'_>, &mut Context<'_>)),
    /// Once per file of an app with suppression comments, after they turned findings off.
    Suppressions(fn(&Suppressions<'_>, &mut Vec<Diagnostic>)),
}

/// A file's suppression comments, once they turned findings off: each name says whether it
/// turned one off.
pub struct Suppressions<'s> {
    pub comments: &'s [Suppression],
    /// Every rule there is: what a name may be.
    pub rules: &'s [&'static Rule],
    /// Whether a rule runs on the file.
    pub runs: &'s dyn Fn(&Rule) -> bool,
}

impl std::fmt::Debug for Suppressions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Suppressions")
            .field("comments", &self.comments)
            .finish_non_exhaustive()
    }
}

impl Rule {
    /// What the rule checks and why it matters, in Markdown, each paragraph and list item on
    /// one line.
    pub fn docs(&self) -> String {
        unwrap_lines(self.docs)
    }

    /// What the vendor's validator (`fdk validate`) does in the same case, on one line.
    pub fn vendor(&self) -> String {
        unwrap_lines(self.vendor)
    }

    /// For a values rule, the iparams.json files its `bad` and `good` examples are values for;
    /// `None` for the rules of iparams.json itself.
    pub fn example_definitions(&self) -> Option<(&'static str, &'static str)> {
        match self.examples {
            Examples::Values {
                definitions,
                good_definitions,
            } => Some((definitions, good_definitions.unwrap_or(definitions))),
            Examples::Verified { definitions } => Some((definitions, definitions)),
            _ => None,
        }
    }

    /// Whether the rule reports what a service answers (`values --verify`), so that its
    /// examples cannot be run offline.
    pub fn needs_network(&self) -> bool {
        matches!(self.examples, Examples::Verified { .. })
    }

    /// Whether the rule's examples can be checked as written: not when they need a service's
    /// answer or describe an app too large to write out.
    pub fn examples_run(&self) -> bool {
        !self.needs_network() && self.examples != Examples::Described
    }

    /// Whether the rule only reports with the app around iparams.json (its examples are apps).
    pub fn needs_app(&self) -> bool {
        matches!(self.examples, Examples::App | Examples::Described)
    }
}

/// A check that needs the whole file: it sees each iparam, then `finish`.
///
/// A large file is checked in runs of consecutive iparams on several threads, each with its
/// own instance of the check; the instances are then joined in file order with `append`.
pub trait FileCheck: Any + Send {
    fn iparam(&mut self, iparam: &Iparam<'_, '_>, cx: &mut Context<'_>);
    /// Takes in what `later` saw of the iparams that follow the ones this instance saw.
    fn append(&mut self, later: Box<dyn FileCheck>);
    /// Reports what the iparams seen show together.
    fn finish(&mut self, cx: &mut Context<'_>);
}

/// `later` as the check it is: lanes hold the same checks in the same order.
pub(crate) fn same_check<T: FileCheck>(later: Box<dyn FileCheck>) -> Box<T> {
    let later: Box<dyn Any> = later;
    later
        .downcast()
        .unwrap_or_else(|_| unreachable!("lanes hold the same checks in the same order"))
}

/// `text` with the lines that continue a paragraph or a list item joined to it: rule docs are
/// wrapped in the source, and shown by terminals, SARIF viewers and Markdown alike.
fn unwrap_lines(text: &str) -> String {
    let mut joined = String::with_capacity(text.len());
    let mut after_blank = true;
    for (index, line) in text.split('\n').enumerate() {
        let item = line.starts_with("- ") || line.starts_with("* ");
        let continues = index > 0 && !line.is_empty() && !after_blank && !item;
        if continues {
            joined.push(' ');
            joined.push_str(line.trim_start());
        } else {
            if index > 0 {
                joined.push('\n');
            }
            joined.push_str(line);
        }
        after_blank = line.is_empty();
    }
    joined
}

/// What a check of one file can see, and where it reports.
#[derive(Debug)]
pub struct Context<'c> {
    text: &'c str,
    regexes: &'c mut RegexEngine,
    app: Option<&'c AppFacts>,
    pub(crate) diagnostics: Vec<Diagnostic>,
}

impl<'c> Context<'c> {
    pub(crate) fn new(text: &'c str, regexes: &'c mut RegexEngine) -> Self {
        Self {
            text,
            regexes,
            app: None,
            diagnostics: Vec::new(),
        }
    }

    pub(crate) fn with_app(mut self, app: Option<&'c AppFacts>) -> Self {
        self.app = app;
        self
    }

    /// What is known of the app around the file; `None` for a file checked on its own.
    pub fn app(&self) -> Option<&'c AppFacts> {
        self.app
    }

    /// The whole text of the file.
    pub fn text(&self) -> &'c str {
        self.text
    }

    /// The source text of `span`.
    pub fn source(&self, span: Span) -> &'c str {
        &self.text[span.start..span.end]
    }

    pub fn regexes(&mut self) -> &mut RegexEngine {
        self.regexes
    }

    /// Records a finding of `rule`; the returned diagnostic can be given a label, help,
    /// pointer and fix.
    pub fn report(
        &mut self,
        rule: &Rule,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        push(&mut self.diagnostics, rule, span, message)
    }
}

/// Where cross-file rules report: each finding goes into the file it is about.
#[derive(Debug)]
pub struct AppContext {
    pub(crate) findings: Vec<Vec<Diagnostic>>,
    /// Findings about a file or folder of the app whose text no rule reads (`config/extra.json`,
    /// a folder, the iparams.json that is missing, a bundle too large to read), by the path
    /// inside the app: they have no place in a text.
    pub(crate) entries: Vec<(String, Diagnostic)>,
}

impl AppContext {
    /// A context for an app of `files` files.
    pub(crate) fn new(files: usize) -> Self {
        Self {
            findings: vec![Vec::new(); files],
            entries: Vec::new(),
        }
    }

    /// Records a finding of `rule` about the entry `name` of config/, as a whole.
    pub fn report_entry(
        &mut self,
        name: &str,
        rule: &Rule,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.report_unread(&format!("config/{name}"), rule, message)
    }

    /// Records a finding of `rule` about the file at `relative` inside the app, as a whole: a
    /// file whose text no rule reads.
    pub fn report_unread(
        &mut self,
        relative: &str,
        rule: &Rule,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.entries.push((
            relative.to_owned(),
            Diagnostic::new(rule.name, rule.severity, Span::at(0), message),
        ));
        &mut self.entries.last_mut().expect("just pushed").1
    }

    /// Records a finding of `rule` in file `file`.
    pub fn report(
        &mut self,
        file: FileId,
        rule: &Rule,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        push(&mut self.findings[file], rule, span, message)
    }
}

fn push<'d>(
    diagnostics: &'d mut Vec<Diagnostic>,
    rule: &Rule,
    span: Span,
    message: impl Into<String>,
) -> &'d mut Diagnostic {
    diagnostics.push(Diagnostic::new(rule.name, rule.severity, span, message));
    diagnostics
        .last_mut()
        .expect("a diagnostic was just pushed")
}
