//! The command line.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "iparams-lint",
    version,
    about = "Checks the installation parameters (config/iparams.json, config/iparams.html) of \
             Freshworks apps (FDK), with exact positions",
    args_conflicts_with_subcommands = true,
    after_help = concat!(
        "Exit status: 0 no errors, 1 errors found, 2 usage or I/O error.\n\nDocs: ",
        env!("CARGO_PKG_REPOSITORY"),
        "#readme\nRules: ",
        docs_url!("rules.md")
    )
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
    /// Check installation values (a values file, or an app's .iparams-lint/installed.json or
    /// config/iparam_test_data.json) against iparams.json, as the installation page would
    Values(ValuesArgs),
    /// Add an iparam to config/iparams.json: answers by flags, or asked for on a terminal, each
    /// checked with the linter's rules before anything is written
    #[command(long_about = ADD_ABOUT)]
    Add(AddArgs),
    /// List every rule: name, default severity, fix and summary
    Rules {
        /// How to list them: a table, Markdown (the rules page of the docs), or JSON (every rule
        /// with its area, summary, docs, fix and URL)
        #[arg(long, value_enum, default_value_t = RulesFormat::Table)]
        format: RulesFormat,
        /// The same as --format markdown
        #[arg(long, conflicts_with = "format")]
        markdown: bool,
    },
    /// Show a rule's documentation, with an example that fails and its fix
    Explain {
        /// The rule's name, as shown in brackets in each finding
        rule: String,
    },
    /// Print the JSON Schema of iparams.json, for editors
    Schema,
    /// Write a commented .iparams-lint.toml in the app (or the folder named), and print the
    /// pre-commit and CI snippets for the repository; never over an existing one (exit 2)
    Init {
        /// The app, or a folder of several apps [default: the app around the working folder,
        /// else the working folder]
        #[arg(value_name = "FOLDER")]
        folder: Option<PathBuf>,
    },
    /// Run the vendor's HR service locally, for trying apps and credential checks
    #[command(long_about = HR_SANDBOX_ABOUT)]
    HrSandbox(HrSandboxArgs),
    /// Serve the app's installation page on 127.0.0.1, offline, with the linter's findings on it
    #[command(long_about = PREVIEW_ABOUT)]
    Preview(PreviewArgs),
    /// Run the language server over standard input and output
    #[command(long_about = LSP_ABOUT)]
    Lsp {
        /// Accepted and ignored: standard input and output are always used (VS Code's client
        /// adds it, once more when the command already has it)
        #[arg(long, overrides_with = "stdio")]
        stdio: bool,
    },
    /// Print shell completions
    Completions {
        #[arg(value_enum)]
        shell: Shell,
    },
}

#[derive(Debug, Clone, Args, Default)]
pub struct CheckArgs {
    /// Apps, any file of an app, iparams.json files, or folders to search for them (none: the
    /// app around the working folder, or the apps below it); `-` reads standard input
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    #[command(flatten)]
    pub output: OutputArgs,

    /// Apply the fixes that are safe
    #[arg(long)]
    pub fix: bool,

    /// Let --fix and --diff apply the unsafe fixes too (they change behaviour); alone, it only
    /// counts them as fixable
    #[arg(long)]
    pub unsafe_fixes: bool,

    /// Print the fixes as a unified diff instead of writing them
    #[arg(long)]
    pub diff: bool,

    #[command(flatten)]
    pub rules: RuleArgs,

    /// The path to show (and to find the configuration from) for standard input
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<String>,

    /// Check again whenever a file of what was checked changes, until Ctrl-C (status 0)
    #[arg(long, conflicts_with_all = ["diff", "stdin_filename", "output_file"])]
    pub watch: bool,

    /// Leave out the files this glob matches (relative to the working folder), as the
    /// configuration's `exclude` does (repeatable)
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,

    /// Print the configuration that applies to PATH (default: the working folder): the file it
    /// comes from, every rule's level, the globs; then exit 0 without checking
    #[arg(long, value_name = "PATH", num_args = 0..=1, default_missing_value = ".")]
    pub show_settings: Option<PathBuf>,
}

/// The long options other linters spell differently (ruff, biome, eslint), by their names
/// there: clap's own suggestion goes by spelling, and would offer `--output-file` for ruff's
/// `--output-format`.
const OTHER_TOOLS_NAMES: [(&str, &str); 6] = [
    ("--output-format", "--format"),
    ("--reporter", "--format"),
    ("--config-path", "--config"),
    ("--extend-select", "--select"),
    ("--extend-exclude", "--exclude"),
    ("--max-warnings", "--fail-level"),
];

/// Our name for an option of another linter that `error` says is unknown, put in as its
/// suggestion.
pub fn suggest_our_name(error: &mut clap::Error) {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::UnknownArgument {
        return;
    }
    let Some(ContextValue::String(given)) = error.get(ContextKind::InvalidArg) else {
        return;
    };
    let name = given.split('=').next().unwrap_or_default();
    if let Some((_, ours)) = OTHER_TOOLS_NAMES.iter().find(|(theirs, _)| *theirs == name) {
        error.insert(
            ContextKind::SuggestedArg,
            ContextValue::String((*ours).to_owned()),
        );
    }
}

impl CheckArgs {
    /// The command the first path was meant to be, when it names nothing and is spelled like
    /// one (`prevew`): the command is not run on the other paths then.
    pub fn mistyped_command(&self) -> Option<(String, String)> {
        use clap::CommandFactory;
        let first = self.paths.first()?.to_str()?;
        let plain_word = !first.is_empty() && !first.contains(['/', '\\', '.']);
        if !plain_word || std::path::Path::new(first).exists() {
            return None;
        }
        let cli = Cli::command();
        let commands: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
        iparams_core::suggest::closest(first, commands)
            .map(|command| (first.to_owned(), command.to_owned()))
    }

    /// The paths to check: those given, or the working folder when none is.
    pub fn paths_or_working_folder(&self) -> Vec<PathBuf> {
        if self.paths.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            self.paths.clone()
        }
    }
}

#[derive(Debug, Args)]
pub struct ValuesArgs {
    /// A values file (a JSON object of iparam key → value), or an app folder whose
    /// .iparams-lint/installed.json (what `preview` stored), else config/iparam_test_data.json,
    /// is checked; `-` reads standard input
    #[arg(value_name = "VALUES")]
    pub values: PathBuf,

    /// The iparams.json that defines the values, or an app's custom installation page
    /// (config/iparams.html), whose `postConfigs()` says which keys it stores [default: the
    /// config/iparams.json of the app the values file is in (the nearest folder at or above it
    /// with manifest.json and config/), or its config/iparams.html when it has no iparams.json]
    #[arg(long, value_name = "PATH")]
    pub iparams: Option<PathBuf>,

    /// Print the object `client.iparams.get()` would return for the values (secure iparams
    /// left out) on standard output, and the findings on standard error
    #[arg(long)]
    pub show_get: bool,

    /// Also check each domain/api_key pair of product freshteam against the HR service, as the
    /// installation page does (`GET /api/branches` with the key); the only network calls made
    #[arg(long)]
    pub verify: bool,

    /// With --verify: the HR service to ask instead of https://<domain>.freshteam.com (the
    /// `hr-sandbox`'s URL, or a proxy)
    #[arg(long, value_name = "URL", requires = "verify")]
    pub hr_url: Option<String>,

    /// With --hr-url: allow a plain http:// URL whose host is not this machine (the key then
    /// crosses the network unencrypted); without it only https:// or a loopback host is asked
    #[arg(long, requires = "hr_url")]
    pub allow_http: bool,

    #[command(flatten)]
    pub output: OutputArgs,

    #[command(flatten)]
    pub rules: RuleArgs,

    /// The path to show (and to find the app and the configuration from) for standard input
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<String>,
}

#[derive(Debug, Args)]
pub struct PreviewArgs {
    /// The app: its folder (manifest.json and config/), or any folder or file inside it
    #[arg(value_name = "APP", default_value = ".")]
    pub app: PathBuf,

    /// The port on 127.0.0.1 (the vendor's is 10001); 0 takes any free port
    #[arg(long, default_value_t = 10001)]
    pub port: u16,

    /// Where INSTALL stores the values [default: <APP>/.iparams-lint/installed.json]; the file
    /// holds secrets: keep it out of version control
    #[arg(long, value_name = "PATH")]
    pub values: Option<PathBuf>,

    /// The HR service to call for hosts of the HR service (`*.freshteam.com`): the
    /// `hr-sandbox`'s URL
    #[arg(long, value_name = "URL")]
    pub hr_url: Option<String>,

    /// With --hr-url: allow a plain http:// URL whose host is not this machine (the key then
    /// crosses the network unencrypted); without it only https:// or a loopback host is called
    #[arg(long, requires = "hr_url")]
    pub allow_http: bool,

    /// Let callbacks and the credential check reach the real hosts of the app's templates
    #[arg(long)]
    pub online: bool,

    /// Let a custom page (config/iparams.html) load scripts, styles, fonts and images over
    /// https:// from other hosts (a component library from a CDN); its own calls still go
    /// through the preview
    #[arg(long)]
    pub allow_remote_scripts: bool,

    /// Open the page in the default browser
    #[arg(long)]
    pub open: bool,

    #[command(flatten)]
    pub rules: RuleArgs,
}

#[derive(Debug, Args)]
pub struct HrSandboxArgs {
    /// The port on 127.0.0.1; 0 takes any free port
    #[arg(long, default_value_t = 0)]
    pub port: u16,

    /// The account's plan, which sets the rate limit per minute
    #[arg(long, value_enum, default_value_t = HrPlan::Enterprise)]
    pub plan: HrPlan,

    /// A SQLite database kept across runs (created and seeded when new) [default: a fresh one
    /// in memory]
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,

    /// Employees to seed into a new database (at least 5)
    #[arg(long, value_name = "N", default_value_t = 60)]
    pub employees: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HrPlan {
    /// No API calls
    Free,
    /// 10 calls a minute
    Trial,
    /// MAX(50, employees) calls a minute
    Growth,
    /// MAX(50, employees) calls a minute
    Pro,
    /// MAX(100, 2 × employees) calls a minute
    Enterprise,
}

/// `add --help`: when it asks, and what each ending means.
const ADD_ABOUT: &str = "\
Add an iparam to config/iparams.json, checked with the linter's rules before anything is written.

On a terminal (standard input and standard error both terminals), when a flag the iparam needs is \
missing (--key, --type, --display-name, and --options or --product for the types that take them), \
`add` asks for it and for every optional answer no flag gave: description, default, required, \
regex, change callback. Each answer is checked as it is typed with the linter's own rules, and \
refused with the linter's message. It then shows the JSON it will insert and asks to confirm: \
answering no writes nothing and exits 0 (\"Nothing written\"); Esc or Ctrl-C stops with exit 2, \
nothing written.

Without a terminal, or with --no-input, every answer comes from flags: a missing one is an error \
(exit 2) naming the flags still needed. With all of them given, nothing is asked, on a terminal or \
not.

Refused with exit 2 and the file untouched: anything the linter reports as an error on the new \
iparam, and a file with a JSON syntax error. The new member goes after the last iparam, laid out \
like its siblings; every other byte stays as it was.";

#[derive(Debug, Clone, Args, Default)]
pub struct AddArgs {
    /// An app folder or an iparams.json [default: the app in the current folder]
    #[arg(value_name = "FILE|APP")]
    pub target: Option<PathBuf>,

    /// The new iparam's key
    #[arg(long)]
    pub key: Option<String>,

    /// Its type: text, paragraph, dropdown, email, number, phone_number, date, url, radio,
    /// checkbox, multiselect, domain or api_key
    #[arg(long = "type", value_name = "TYPE")]
    pub kind: Option<String>,

    /// The label on the installation page
    #[arg(long)]
    pub display_name: Option<String>,

    /// The help text under the field
    #[arg(long)]
    pub description: Option<String>,

    /// The choices of a dropdown, radio or multiselect, separated by commas
    #[arg(long, value_delimiter = ',', value_name = "A,B,…")]
    pub options: Option<Vec<String>>,

    /// The default value (a checkbox: true or false; a multiselect: options separated by commas)
    #[arg(long, value_name = "VALUE")]
    pub default: Option<String>,

    /// Make the iparam mandatory
    #[arg(long)]
    pub required: bool,

    /// Keep the value from the app's front end (api_key iparams always are)
    #[arg(long)]
    pub secure: bool,

    /// Hide the iparam (`"visible": false`)
    #[arg(long)]
    pub hidden: bool,

    /// The product of a domain or api_key iparam (`type_attributes.product`)
    #[arg(long)]
    pub product: Option<String>,

    /// A regular expression the value must match, with its name (repeatable; text, email,
    /// phone_number and url only)
    #[arg(long, value_name = "NAME=PATTERN")]
    pub regex: Vec<String>,

    /// The message shown when the regex NAME does not match (required for each --regex)
    #[arg(long, value_name = "NAME=MESSAGE")]
    pub regex_error: Vec<String>,

    /// A callback of config/assets/iparams.js to call on an event: `change=FUNCTION`; the
    /// function is added to the file when it does not declare it
    #[arg(long, value_name = "change=FUNCTION")]
    pub event: Vec<String>,

    /// Print the change as a unified diff and write nothing
    #[arg(long)]
    pub dry_run: bool,

    /// Never ask, even on a terminal: a missing answer is an error (exit 2), as without one
    #[arg(long)]
    pub no_input: bool,

    /// Write the new iparam without asking to confirm it (after questions on a terminal)
    #[arg(long, short)]
    pub yes: bool,

    #[command(flatten)]
    pub rules: RuleArgs,
}

/// How findings are printed, and which fail the run.
#[derive(Debug, Clone, Args, Default)]
pub struct OutputArgs {
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// The lowest severity that makes the exit status 1
    #[arg(long, value_enum, default_value_t = FailLevel::Error, value_name = "SEVERITY")]
    pub fail_level: FailLevel,

    /// Print only the findings: no summary line
    #[arg(long, short)]
    pub quiet: bool,

    /// When to use colours in human output; NO_COLOR and FORCE_COLOR are honoured under `auto`
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// How many findings the human format draws in full; the others are listed one line each
    /// (`none`: draw them all). Counts, exit status and other formats are never capped
    #[arg(long, value_name = "N|none", default_value = "50", value_parser = MaxDiagnostics::parse)]
    pub max_diagnostics: MaxDiagnostics,

    /// Write the report to this file instead of standard output (notes and errors stay on
    /// standard error)
    #[arg(long, value_name = "PATH")]
    pub output_file: Option<PathBuf>,

    /// Count the findings by rule instead of showing them (with --format json: as JSON)
    #[arg(long)]
    pub statistics: bool,

    /// Exit with status 0 even when findings reach --fail-level (2 still means trouble)
    #[arg(long)]
    pub exit_zero: bool,
}

/// `--max-diagnostics`: a number, or `none` for no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaxDiagnostics(pub Option<usize>);

impl Default for MaxDiagnostics {
    fn default() -> Self {
        Self(Some(50))
    }
}

impl MaxDiagnostics {
    fn parse(value: &str) -> Result<Self, String> {
        if value.eq_ignore_ascii_case("none") {
            return Ok(Self(None));
        }
        value
            .parse()
            .map(|max| Self(Some(max)))
            .map_err(|_| format!("`{value}` is neither a number of findings nor `none`"))
    }
}

/// Where rule levels come from.
#[derive(Debug, Clone, Args, Default)]
pub struct RuleArgs {
    /// Use this configuration file instead of the .iparams-lint.toml found above each file
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Set a rule's severity: `name=off|info|warning|error` (repeatable; wins over config
    /// files); the name may be a group or `*`, every rule
    #[arg(long = "rule", value_name = "NAME=SEVERITY")]
    pub rules: Vec<String>,

    /// Run only these rules: names of rules or groups (`iparams-lint rules` shows both),
    /// comma-separated; wins over the configuration's `select`
    #[arg(long, value_name = "NAMES")]
    pub select: Vec<String>,

    /// Turn these rules off: names of rules or groups, comma-separated
    #[arg(long, value_name = "NAMES")]
    pub ignore: Vec<String>,
}

/// `rules --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesFormat {
    Table,
    Markdown,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Format {
    /// Findings with code frames, and a summary line
    #[default]
    Human,
    /// One line per finding: `path:line:col: severity[rule] message`
    Concise,
    /// One JSON document (version 1 contract)
    Json,
    /// SARIF 2.1.0, for code-scanning services
    Sarif,
    /// GitHub Actions workflow commands, shown as annotations
    Github,
    /// JUnit XML, for CI test reports
    Junit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum FailLevel {
    #[default]
    Error,
    Warning,
    Info,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

/// `hr-sandbox`'s help: what it serves and every choice made where the document is silent.
const HR_SANDBOX_ABOUT: &str = concat!(
    "\
Runs the vendor's HR service API on 127.0.0.1 (every endpoint, role, filter and limit is listed
in ",
    docs_url!("hr-sandbox.md"),
    "), with its state in SQLite, seeded with an organisation (employees over
several branches, departments and teams; custom fields; time-off types; time-offs in every
state).

The first line on standard output is one JSON object:
  {\"url\": \"http://127.0.0.1:PORT\", \"tokens\": {\"account_admin\": \"…\", \"hr_partner\": \"…\",
   \"reporting_manager\": \"…\", \"employee\": \"…\"}}
the API keys (bearer tokens) of seeded users of each role. Logs go to standard error, one line
per request (method, path, status), never a key. SIGINT or SIGTERM stops it (exit status 0).

Choices where the document says \"not shown\" (the page above has the full list):
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
- API keys are random per new database and kept in it (--db)."
);

/// `preview`'s help.
const PREVIEW_ABOUT: &str = concat!(
    "\
Serves the app's installation page on 127.0.0.1, as the vendor's local run does at
/custom_configs, but from the binary alone (no CDN, no network unless asked), with the linter's
findings on it (the same as `iparams-lint --format json APP`), each at its iparam's field.

The first line on standard output is the page's URL, http://127.0.0.1:PORT/custom_configs; the
request log goes to standard error (paths only, never a value). Ctrl-C stops it.

Edits to config/iparams.json, config/assets/iparams.js and config/requests.json show on the page
within a second, keeping what was typed. INSTALL checks the domain/api_key pairs (freshteam's at
--hr-url, others only with --online), validates every visible field, and stores the values,
checked as `iparams-lint values` checks them, in --values (default
<APP>/.iparams-lint/installed.json, owner-only: it holds secrets; keep it out of version
control). Reopening the page refills them, secure ones excepted. Callbacks' invokeTemplate calls
are made by the server from config/requests.json: hosts of the HR service go to --hr-url, other
hosts only with --online. The details, and the differences from the vendor's page: ",
    docs_url!("preview.md")
);

/// `lsp`'s help.
const LSP_ABOUT: &str = concat!(
    "Runs the language server over standard input and output: findings as you type, hovers, \
     completion, quick fixes and renames for iparams, in any editor with an LSP client. How to \
     set it up in VS Code, Neovim, Helix, Zed and others: ",
    docs_url!("editors.md")
);
