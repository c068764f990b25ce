//! Checks the installation parameters (`config/iparams.json`) of apps on the vendor's app
//! framework.
//!
//! Bytes flow one way: [`source`] decodes them, [`syntax`] parses them keeping every span,
//! [`model`] lowers each iparam into typed values, and the [`rules`] report [`Diagnostic`]s.
//! [`values`] checks installation values against the definitions, as the installation page would.
//! The library does no I/O and prints nothing: callers own files, output and exit codes.
//!
//! ```
//! let report = iparams_core::lint(br#"{"a": {"display_name": "A", "type": "txt"}}"#);
//! assert_eq!(report.diagnostics[0].rule, "unknown-type");
//! ```

pub mod app;
pub mod diagnostic;
pub mod ecma_regex;
pub mod examples;
pub mod fix;
pub mod fixes;
pub mod formats;
pub mod in_order;
pub mod lint;
pub mod model;
pub mod pointer;
mod positions;
pub mod rules;
pub mod secrets;
pub mod source;
pub mod span;
pub mod suggest;
pub mod syntax;
pub mod values;

pub use diagnostic::{Applicability, Diagnostic, Edit, Fix, Label, Severity};
pub use lint::{FileReport, LintOptions, Linter, lint, redact};
pub use rules::{Level, REGISTRY, Rule, RuleSettings};
pub use source::SourceText;
pub use span::{LineCursor, LineIndex, Position, Span};
