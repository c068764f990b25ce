//! The rules: the framework they are written in ([`Rule`], [`Check`], [`Context`],
//! [`RuleSettings`], the helpers the rules of several groups share) and the rules themselves, one
//! file each, grouped by what they check: `file/` (a JSON file as a whole), `iparam/`, `app/`
//! (iparams.json with the app around it: manifest, config/ folder, callbacks and code),
//! `page/` (a custom installation page, config/iparams.html), `templates/` (request templates, config/requests.json, and the code that invokes them), `hr/`
//! (the templates that reach the HR service) and `values/` (installation values). What only the
//! rules of one group share is in that group's `mod.rs`; no rule file exports to another.
//!
//! [`REGISTRY`] is the single list of rules and of what runs: the engine runs every enabled
//! rule's [`Check`]s at the moment each kind of check is for, and never names a rule. The CLI's
//! `rules` and `explain`, SARIF's rule table and `docs/rules.md` are generated from it.

mod framework;
pub(crate) mod helpers;
mod registry;
mod settings;

mod app;
mod file;
mod hr;
mod iparam;
mod page;
mod templates;
mod values;

pub use framework::{AppContext, Area, Check, Context, Examples, FileCheck, Rule, Suppressions};
/// For front-ends that check a name as it is typed (`add`): the rules' own test.
pub use helpers::{as_identifier, is_identifier};
pub use registry::{INVALID_JSON, REGISTRY, VERIFY_CREDENTIALS, find, resolve};
pub use settings::{Level, RuleSettings};
