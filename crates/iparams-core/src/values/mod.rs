//! Installation values, checked against their definitions as the installation page checks them.
//!
//! A values file is one JSON object mapping iparam keys to values: what an installer enters on
//! the installation page, the `config/iparam_test_data.json` of an older app, or what a
//! deployment script feeds in. Its findings point into the values file; since a finding's
//! places are all in one file, each finding about an iparam names where that iparam is defined
//! in its help ("`region` is defined at config/iparams.json:12:3").
//!
//! ```
//! use iparams_core::{Linter, SourceText};
//!
//! let definitions = br#"{"start": {"display_name": "Start", "type": "date", "required": true}}"#;
//! let report = Linter::default().check_values(
//!     &SourceText::decode(definitions),
//!     &SourceText::decode(br#"{"start": "2014-02-31"}"#),
//!     "config/iparams.json",
//! );
//! assert_eq!(report.diagnostics[0].rule, "value-format");
//! ```

mod answers;
mod definitions;
mod get;

pub use answers::{Answer, Unanswered, ValuesFile};
pub(crate) use answers::{last_values, secret_spans, stored_secure};
pub use definitions::{Definition, Definitions, DefinitionsFile, Unusable};
pub(crate) use definitions::{ReadDefinitions, read_definitions};
pub use get::{GetPreview, preview_get};
