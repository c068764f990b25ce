//! `iparams-lint hr-sandbox`: the vendor's HR service (docs/hr-sandbox.md), running locally (the
//! `iparams-sandbox` crate), until SIGINT or SIGTERM.

use std::io::Write;

use iparams_sandbox::{Config, Plan, Sandbox};
use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::cli::{HrPlan, HrSandboxArgs};
use crate::environment::exit;

pub fn run(args: HrSandboxArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8 {
    let plan = match args.plan {
        HrPlan::Free => Plan::Free,
        HrPlan::Trial => Plan::Trial,
        HrPlan::Growth => Plan::Growth,
        HrPlan::Pro => Plan::Pro,
        HrPlan::Enterprise => Plan::Enterprise,
    };
    // Listen for the signals before anything is announced, so none is missed.
    let mut signals = match Signals::new([SIGINT, SIGTERM]) {
        Ok(signals) => signals,
        Err(error) => {
            let _ = writeln!(stderr, "iparams-lint: cannot handle signals: {error}");
            return exit::TROUBLE;
        }
    };
    let config = Config {
        port: args.port,
        plan,
        db: args.db.clone(),
        employees: args.employees,
        log_requests: true,
        ..Config::default()
    };
    let sandbox = match Sandbox::start(config) {
        Ok(sandbox) => sandbox,
        Err(error) => {
            let _ = writeln!(stderr, "iparams-lint: hr-sandbox: {error}");
            return exit::TROUBLE;
        }
    };
    let _ = writeln!(stdout, "{}", sandbox.announcement()).and_then(|()| stdout.flush());
    let database = match &args.db {
        Some(path) if sandbox.seeded() => format!("{} (new, seeded)", path.display()),
        Some(path) => format!("{} (reopened)", path.display()),
        None => "in memory (fresh)".to_owned(),
    };
    let _ = writeln!(
        stderr,
        "hr-sandbox: serving {} (plan {}, database {database}); stop with Ctrl-C",
        sandbox.url(),
        sandbox.plan().name(),
    );
    let signal = signals.forever().next();
    sandbox.stop();
    let name = match signal {
        Some(SIGINT) => "SIGINT",
        Some(SIGTERM) => "SIGTERM",
        _ => "a signal",
    };
    let _ = writeln!(stderr, "hr-sandbox: stopped on {name}");
    exit::CLEAN
}
