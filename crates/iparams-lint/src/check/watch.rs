//! `--watch`: check, then check again each time a file of what was checked changes, until
//! SIGINT or SIGTERM ends the run with status 0.
//!
//! Files are looked at a few times a second (their size and time of change) rather than
//! through the system's file events: an app is a few dozen files, and a look costs less than
//! the machinery of a notifier on every platform.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use signal_hook::consts::{SIGINT, SIGTERM};

use crate::cli::CheckArgs;
use crate::environment::{Environment, exit};
use crate::workspace::{app_of, discover::walk};

/// How often the files are looked at.
const LOOK_EVERY: Duration = Duration::from_millis(200);

/// What is known of the watched files: each one's path, size and time of change.
type Fingerprint = Vec<(PathBuf, u64, Option<SystemTime>)>;

pub fn run(
    args: CheckArgs,
    env: &Environment,
    stdout: &mut (dyn Write + Send),
    stderr: &mut (dyn Write + Send),
) -> u8 {
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM] {
        if let Err(error) = signal_hook::flag::register(signal, Arc::clone(&stop)) {
            let _ = writeln!(stderr, "iparams-lint: cannot handle signals: {error}");
            return exit::TROUBLE;
        }
    }
    let roots = roots(&args);
    loop {
        let before = fingerprint(&roots);
        if env.stdout_is_terminal {
            // Each run on a clear screen, as the last run's findings no longer hold.
            let _ = stdout.write_all(b"\x1b[2J\x1b[H");
        }
        let once = CheckArgs {
            watch: false,
            ..args.clone()
        };
        // Each run is a run of the command as it stands: a new workspace, so that changed
        // configuration is read again.
        super::run(
            once,
            env,
            &mut std::io::empty() as &mut dyn Read,
            stdout,
            stderr,
        );
        let _ = writeln!(
            stderr,
            "Watching {} for changes; Ctrl-C stops.",
            shown(&roots)
        );
        let _ = stdout.flush();
        loop {
            if stop.load(Ordering::Relaxed) {
                let _ = writeln!(stderr, "Stopped watching.");
                return exit::CLEAN;
            }
            std::thread::sleep(LOOK_EVERY);
            if fingerprint(&roots) != before {
                break;
            }
        }
    }
}

/// The folders and files to watch: the app of each path given (the working folder's when none
/// is), or the path itself outside any app.
fn roots(args: &CheckArgs) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = args
        .paths_or_working_folder()
        .into_iter()
        .map(|path| app_of(&path).map_or(path, |app| app.root))
        .collect();
    roots.sort();
    roots.dedup();
    roots
}

fn shown(roots: &[PathBuf]) -> String {
    let names: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
    names.join(", ")
}

/// The watched files as they are now, below each root (as a run finds them: ignored and
/// dependency folders skipped).
fn fingerprint(roots: &[PathBuf]) -> Fingerprint {
    let mut files: Fingerprint = roots
        .iter()
        .flat_map(|root| walk(root))
        .filter_map(|entry| {
            let metadata = entry.metadata().ok()?;
            metadata
                .is_file()
                .then(|| (entry.into_path(), metadata.len(), metadata.modified().ok()))
        })
        .collect();
    files.sort();
    files
}
