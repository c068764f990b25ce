//! Output formats, one file each. A format writes an opening, each file's findings (files are
//! checked in parallel, and written in path order as they finish: see [`ordered`]), and a
//! closing with the summary.

mod concise;
mod controls;
mod cut;
mod formats;
mod github;
mod human;
mod json;
mod junit;
pub mod ordered;
mod renderer;
mod sarif;
mod source_code;
mod statistics;
#[cfg(test)]
mod testing;

pub use formats::{renderer, statistics};
pub(crate) use renderer::plural;
pub use renderer::{CheckedFile, RenderOptions, Renderer, Summary, document};
