//! The workspace: what every front-end (the command, and editors' and previews' servers) shares
//! to go from paths to checked files. It finds apps and files ([`discover`]), and the app a path
//! is in ([`app_of`], the one way to), resolves the `.iparams-lint.toml` of each file
//! ([`config`]), loads an app once into owned files ([`LoadedApp`]), reads files through
//! overlays (text an editor holds, or standard input named by `--stdin-filename`, wins over the
//! disk), and checks what a target names ([`Workspace::check`]), so that every front-end checks
//! alike and says the same of an app it cannot check in full.
//!
//! It renders nothing and decides no exit status: [`Workspace::plan`] says what to check,
//! [`Workspace::check`] checks it with `iparams_core`, and the front-end reports.

mod app;
mod check;
pub mod config;
pub mod discover;
mod place;
mod plan;
mod state;

pub use app::{LoadedApp, LoadedFile};
pub use check::{Alone, Checked, Loaded, Verdict, check_values};
pub use discover::is_read;
pub use place::{
    INSTALLED_VALUES_FILE, IPARAMS_FILE, InApp, MANIFEST_FILE, PAGE_FILE, STATE_GITIGNORE, app_of,
    link_out_of_app, resolves_inside,
};
pub use plan::{Job, Plan, Target};
pub use state::Workspace;
