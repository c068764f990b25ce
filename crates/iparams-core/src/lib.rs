//! Checks the installation parameters (`config/iparams.json`) of apps on the vendor's app
//! framework.
//!
//! The crate is in layers, each importing only the ones below it (docs/ARCHITECTURE.md):
//!
//! 1. the text: [`source`] decodes bytes, [`syntax`] parses them keeping every span, [`model`]
//!    lowers each iparam into typed values, [`products`] is the vendor's products; with
//!    [`diagnostic`]s, [`edits`] for fixes, user
//!    regexes ([`ecma_regex`]), [`secrets`] and [`secret_labels`], [`suggest`]ions, [`span`]s and
//!    [`suppression`] comments;
//! 2. the views the rules read: what [`reading`] a JSON file found, the [`app`] around
//!    iparams.json, and installed [`values`];
//! 3. the [`rules`]: their framework, registry and helpers, and one file per rule;
//! 4. the [`engine`], which runs the registry's checks over a file, an app or a values file,
//!    finishes the findings, applies fixes and runs the rule docs' examples.
//!
//! The library does no I/O and prints nothing: callers own files, output and exit codes.
//!
//! ```
//! let report = iparams_core::lint(br#"{"a": {"display_name": "A", "type": "txt"}}"#);
//! assert_eq!(report.diagnostics[0].rule, "unknown-type");
//! ```

// 1. The text.
mod credentials;
mod diagnostic;
mod ecma_regex;
mod edits;
mod eight_bytes;
pub mod fast_hash;
mod formats;
pub mod model;
pub mod pointer;
mod positions;
pub mod products;
pub mod secret_labels;
pub mod secrets;
mod source;
mod span;
pub mod suggest;
pub mod suppression;
pub mod sync;
pub mod syntax;
// 2. The views.
pub mod app;
mod reading;
pub mod values;
// 3. The rules.
pub mod rules;
// 4. The engine.
mod engine;

pub use diagnostic::{Applicability, Diagnostic, Edit, Fix, Label, Severity};
pub use edits::{insert_object_member, json_string};
pub use engine::finish::finish;
pub use engine::{
    CheckedApp, CheckedSource, FileReport, FixOutcome, LintOptions, Linter, lint, masked, redact,
    syntax_fixable,
};
pub use formats::is_ip_host;
pub use rules::{Level, REGISTRY, Rule, RuleSettings};
pub use source::{EncodingProblem, SourceText};
pub use span::{LineCursor, LineIndex, Position, Span};
