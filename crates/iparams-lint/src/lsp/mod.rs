//! `iparams-lint lsp`: the language server. A front-end over the workspace layer, like the
//! command: documents the editor holds are the workspace's overlays, apps are checked with
//! `Linter::check_app` as `check` does, and findings become diagnostics, quick fixes and hovers.
//!
//! - [`server`]: the message loop (one thread, in order, edits drained, panics caught);
//! - [`documents`]: open documents, incremental edits, where each sits in an app;
//! - [`positions`]: byte offsets ⇄ positions in UTF-8, UTF-16 or UTF-32;
//! - [`locations`]: files, spots and cursors as the protocol names them;
//! - [`diagnostics`]: checking and publishing;
//! - [`actions`]: quick fixes, fix-all, turning a finding off in `.iparams-lint.toml`;
//! - [`keys`]: the iparam keys an app declares (iparams.json, or a custom page's `postConfigs`);
//! - [`index`]: per app, from its last check, its keys and every read of them;
//! - [`hover`], [`completion`], [`navigation`]: what the format and the app's reads tell;
//! - [`rename`]: an iparam key renamed in its declaration and every read;
//! - [`preview`]: the app's installation page, served from the editor's text ([`previews`]: the
//!   previews running).
//!
//! Standard output carries the protocol only: nothing on this path prints; logs go to
//! standard error.

mod actions;
mod completion;
mod context;
mod diagnostics;
mod documents;
mod hover;
mod index;
mod keys;
mod locations;
mod navigation;
pub mod positions;
mod preview;
mod previews;
mod rename;
mod server;
mod state;
mod transport;

pub use server::serve;

/// Runs the server over standard input and output; returns the exit status: 0 after `exit` or
/// at the end of input, 1 on a protocol error or input that is not framed as the protocol says.
pub fn run() -> u8 {
    let (connection, io) = transport::stdio();
    let outcome = serve(&connection);
    // Closing the channels lets the writer finish what is queued and stop.
    drop(connection);
    // A session that ended without an error ended because the input did (or after `exit`).
    let input = io.finish(outcome.is_ok());
    match outcome.and(input) {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("iparams-lint lsp: {message}");
            1
        }
    }
}
