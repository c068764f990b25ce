//! `iparams-lint hr-sandbox`: the HR service of hr-service-api.md, running locally (the
//! `iparams-sandbox` crate), until SIGINT or SIGTERM.

use std::io::Write;

use iparams_sandbox::{Config, Plan, Sandbox};
use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::cli::{HrPlan, HrSandboxArgs};
use crate::exit;

/// The command's help: what it serves and every choice made where the document is silent.
pub const LONG_ABOUT: &str = "\
Runs the HR service of hr-service-api.md on 127.0.0.1, with its state in SQLite, seeded with an
organisation (employees over several branches, departments and teams; custom fields; time-off
types; time-offs in every state).

The first line on standard output is one JSON object:
  {\"url\": \"http://127.0.0.1:PORT\", \"tokens\": {\"account_admin\": \"…\", \"hr_partner\": \"…\",
   \"reporting_manager\": \"…\", \"employee\": \"…\"}}
the API keys (bearer tokens) of seeded users of each role. Logs go to standard error, one line
per request (method, path, status), never a key. SIGINT or SIGTERM stops it (exit status 0).

Choices where the document says \"not shown\" (docs/hr-sandbox.md has the full list):
- Roles have ids 1 Account Admin, 2 Admin, 3 HR Partner, 4 Reporting Manager, 5 Employee.
- Organization lists, roles, one time-off type and invitations need HR Partner, Admin or
  Account Admin, like the documented reads: an Employee's key gets 403 on /api/branches.
  Anyone may create a time-off for themselves.
- Free plan: no API calls (every call 429, x-ratelimit-total 0). The window is the calendar
  minute; a refused call is not counted and carries retry-after. Default plan: enterprise.
- Bodies over 1 MiB: 413. An empty POST/PUT body without Content-Type is {}.
- Pages of 50; total-objects counts every match; link is <URL>; rel=\"next\".
- Without draft/terminated/deleted filters, every employee is listed.
- New time-offs are pending; cancel applies to pending or approved requests, approve to pending
  ones; other moves are 400 at `status`.
- API keys are random per new database and kept in it (--db).";

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
