//! `--show-settings [PATH]`: the configuration that applies to PATH, as the workspace resolves
//! it, printed without checking anything.

use std::fmt::Write as _;
use std::io::Write;

use iparams_core::Level;

use crate::cli::CheckArgs;
use crate::environment::exit;
use crate::output::fail;
use crate::workspace::Workspace;
use crate::workspace::config::{Choices, Resolved};

pub fn run(args: &CheckArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8 {
    let Some(path) = &args.show_settings else {
        return exit::CLEAN;
    };
    let resolved = Workspace::new(&Choices::of(&args.rules, &args.exclude))
        .and_then(|mut workspace| workspace.resolve_settings(path));
    match resolved {
        Ok(resolved) => {
            let _ = stdout.write_all(render(&resolved, args).as_bytes());
            exit::CLEAN
        }
        Err(message) => fail(stderr, &message),
    }
}

fn render(resolved: &Resolved, args: &CheckArgs) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Settings for {}", resolved.file.display());
    let source = match (&resolved.config, &args.rules.config) {
        (Some(path), Some(_)) => format!("{} (given with --config)", path.display()),
        (Some(path), None) => format!("{} (the nearest above the file)", path.display()),
        (None, _) => "none found above the file: the rules' own levels".to_owned(),
    };
    let _ = writeln!(out, "Configuration file: {source}");
    let command_line: Vec<String> = (args.rules.select.iter().map(|s| format!("--select {s}")))
        .chain(args.rules.ignore.iter().map(|s| format!("--ignore {s}")))
        .chain(args.rules.rules.iter().map(|s| format!("--rule {s}")))
        .chain(args.exclude.iter().map(|s| format!("--exclude {s}")))
        .collect();
    if !command_line.is_empty() {
        let _ = writeln!(out, "Command line: {}", command_line.join(" "));
    }
    for globs in &resolved.excluded {
        let _ = writeln!(
            out,
            "Excluded (globs relative to {}): {}",
            globs.root().display(),
            globs.patterns().join(", ")
        );
    }
    let verdict = if resolved.excludes_file {
        "yes: not checked"
    } else {
        "no"
    };
    let _ = writeln!(out, "Excluded: {verdict}");
    if !resolved.overrides.is_empty() {
        let _ = writeln!(out, "Overrides:");
        for (key, applies) in &resolved.overrides {
            let applies = if *applies {
                "applies"
            } else {
                "does not apply"
            };
            let _ = writeln!(out, "  \"{key}\" ({applies})");
        }
    }
    let _ = writeln!(out, "Rules (overrides for one value aside):");
    let width = (resolved.levels.iter())
        .map(|(rule, _)| rule.name.len())
        .max()
        .unwrap_or(0);
    for (rule, level) in &resolved.levels {
        let shown = match level {
            Level::Off => "off",
            Level::On(severity) => severity.as_str(),
        };
        let changed = if *level == Level::On(rule.severity) {
            String::new()
        } else {
            format!("  (default: {})", rule.severity.as_str())
        };
        let _ = writeln!(out, "  {:width$}  {shown}{changed}", rule.name);
    }
    out
}
