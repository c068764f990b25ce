//! The command line.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "iparams-lint",
    version,
    about = "Checks config/iparams.json of apps on the vendor's app framework, with exact positions",
    args_conflicts_with_subcommands = true,
    after_help = "Exit status: 0 no errors, 1 errors found, 2 usage or I/O error."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub check: CheckArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check iparams.json files (what plain `iparams-lint PATHS` does)
    Check(CheckArgs),
}

#[derive(Debug, Args, Default)]
pub struct CheckArgs {
    /// iparams.json files, or folders to search for config/iparams.json; `-` reads standard input
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// When to use colours in human output; NO_COLOR and FORCE_COLOR are honoured under `auto`
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// The path to show for standard input
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Format {
    /// Findings with code frames, and a summary line
    #[default]
    Human,
    /// One JSON document (version 1 contract)
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}
