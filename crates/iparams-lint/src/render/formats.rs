//! The format the command line chose, as its renderer.

use super::concise::Concise;
use super::github::Github;
use super::human::Human;
use super::json::Json;
use super::junit::Junit;
use super::renderer::{RenderOptions, Renderer};
use super::sarif::Sarif;
use super::statistics::Statistics;
use crate::cli::Format;

pub fn renderer(format: Format, options: RenderOptions) -> Box<dyn Renderer> {
    match format {
        Format::Human => Box::new(Human::new(options)),
        Format::Concise => Box::new(Concise::new(options)),
        Format::Json => Box::new(Json),
        Format::Sarif => Box::new(Sarif),
        Format::Github => Box::new(Github::new(options)),
        Format::Junit => Box::new(Junit::new(options)),
    }
}

/// `--statistics`: the findings counted by rule, as a table or (`--format json`) as JSON.
pub fn statistics(format: Format) -> Box<dyn Renderer> {
    Box::new(Statistics::new(format == Format::Json))
}
