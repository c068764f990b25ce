//! The engine: runs the rules of the registry over a file, an app or a values file, and finishes
//! what they found (levels, order, masking). It never names a rule: each kind of [`Check`](crate::rules::Check) runs
//! at its moment, for every enabled rule that has one.
//!
//! - [`file`]: one iparams.json, decoded, parsed, lowered and checked in a single pass, in
//!   runs of iparams ([`batch`]; [`parallel`] for large files);
//! - [`app`]: iparams.json with the app around it, and the app's other files;
//! - [`values`]: a values file against its iparams.json;
//! - [`suppress`]: suppression comments applied to the findings of an app's code;
//! - [`finish`]: what every driver does last;
//! - [`fix`]: fixes applied and re-checked; [`examples`]: the rule docs' examples, run;
//! - [`linter`]: the [`Linter`] they all run on, and [`checks`]: the checks that rule settings
//!   enable.

mod app;
mod batch;
mod checks;
mod examples;
mod file;
pub mod finish;
mod fix;
mod linter;
mod parallel;
mod report;
mod suppress;
mod values;

pub use app::{CheckedApp, CheckedSource};
pub use fix::{FixOutcome, syntax_fixable};
pub use linter::{LintOptions, Linter, lint};
pub use report::{FileReport, masked, redact};
