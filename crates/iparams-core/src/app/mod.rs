//! App-aware checks: iparams.json read together with the app around it — its manifest, its
//! config/ folder, its installation-page callbacks, and every place its code reads an iparam.
//!
//! The caller (which owns the file system) gathers the files into an [`AppInput`]; everything
//! here works on their bytes.
//!
//! This is a view for the rules: the engine builds it from the files the caller gathered
//! ([`AppInput`]); nothing here checks anything. The [`Outline`] of iparams.json is the
//! callers' too: what each iparam declares, for editors and pages.

pub mod always_throws;
mod code_secrets;
mod facts;
mod file_id;
mod held_object;
mod hr_call;
pub mod hr_calls;
pub mod hr_service;
pub mod html;
mod input;
pub mod invocations;
mod iparam_read;
mod iparams_source;
pub mod js;
mod literals;
mod logged_iparams;
pub mod manifest;
mod model;
mod outline;
pub mod page;
pub mod page_functions;
pub mod requests;
mod script_depth;
mod summary;
mod templates;
mod typescript_nest;
mod whole_iparams;
mod written_credentials;

pub use code_secrets::{Authored, CodeSecret, CodeSecretKind, authored};
pub use facts::AppFacts;
pub(crate) use facts::facts_of;
pub use file_id::FileId;
pub use hr_call::HrCall;
pub use input::{
    ACCEPTED_CONFIG_FILES, ACCEPTED_CONFIG_FOLDER, AppFile, AppInput, EXAMPLE_FILE_MARK,
    MAX_SCRIPT_BYTES, Role, SKIPPED_FOLDERS, UnreadFile, config_has, example_files,
};
pub use invocations::{Invocation, InvokeContext, LegacyRequest, LiteralMember, LiteralObject};
pub use iparam_read::Read;
pub use iparams_source::{IPARAMS_HTML, IPARAMS_JSON, IparamsSource};
pub use js::{JsFacts, Script, UtilsCall, UtilsMethod};
pub use literals::Literal;
pub use logged_iparams::LoggedIparam;
pub use manifest::{Manifest, ManifestProblem, Platform};
pub use model::{AppModel, RequestsFile};
pub use outline::{Declared, Handler, Outline, credential_pairs};
pub use page::{InstallPage, Loadable, Resource, Run};
pub use requests::{Field, Place, Placeholder, Reference, Requests, Template};
pub use summary::{AppSummary, Declarations, DeclaringFile, KeyRead};
pub use templates::template_reads;
pub use written_credentials::{
    Written, WrittenCredential, carries_credential, path_parameter_carrying_credential,
};
