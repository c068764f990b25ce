//! `iparams-lint preview`: the app's installation page (docs/preview.md), served on 127.0.0.1
//! from the binary alone, with the linter's findings at its fields. A front-end over the
//! workspace: the app is loaded and checked as `check` does ([`state`]), values are checked as
//! `values` does before INSTALL stores them ([`store`]), and callbacks' template calls are
//! carried out here, where the secure values stay ([`invoke`]). The page itself is plain
//! JavaScript embedded in the binary (`page/`); an app that writes its own page
//! (config/iparams.html) gets it in a frame of that page, with the preview's client
//! (`page/client.js`).

mod invoke;
mod server;
mod state;
mod store;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::time::Duration;

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use iparams_core::app::IparamsSource;

use crate::cli::PreviewArgs;
use crate::environment::exit;
use crate::workspace::{INSTALLED_VALUES_FILE, IPARAMS_FILE, PAGE_FILE, app_of};
use iparams_serve::{Handler, LocalServer, Options};

pub use invoke::Network;
pub use server::Shared;
pub use state::{App, WATCHED};

/// How often the watched files' modification times are read.
const WATCH_EVERY: Duration = Duration::from_millis(50);

pub fn run(args: PreviewArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8 {
    let fail = |stderr: &mut dyn Write, message: &str| {
        let _ = writeln!(stderr, "iparams-lint: preview: {message}");
        exit::TROUBLE
    };
    let app = app_to_serve(&args.app);
    if let Err(message) = installation_page_of(&app) {
        return fail(stderr, &message);
    }
    // The HR key goes to --hr-url: never in clear across the network, as for `values --verify`.
    let plain_http = (args.hr_url.as_deref())
        .and_then(|url| crate::net::refuse_plain_http(url, args.allow_http));
    if let Some(refusal) = plain_http {
        return fail(stderr, &refusal);
    }
    let mut signals = match Signals::new([SIGINT, SIGTERM]) {
        Ok(signals) => signals,
        Err(error) => return fail(stderr, &format!("cannot handle signals: {error}")),
    };
    let values_path = args
        .values
        .clone()
        .unwrap_or_else(|| app.join(INSTALLED_VALUES_FILE));
    let network = Network {
        hr_url: args.hr_url.clone(),
        online: args.online,
        remote_scripts: args.allow_remote_scripts,
    };
    let launch = Launch {
        port: args.port,
        network,
        values_path: values_path.clone(),
        log: true,
        in_editor: false,
    };
    let started = start(&app, &args.rules, launch);
    let running = match started {
        Ok(running) => running,
        Err(message) => return fail(stderr, &message),
    };
    let url = running.url();
    let _ = writeln!(stdout, "{url}").and_then(|()| stdout.flush());
    let _ = writeln!(
        stderr,
        "preview: serving {} at {url} (values in {}); stop with Ctrl-C",
        app.display(),
        values_path.display()
    );
    if args.open {
        open_browser(&url, stderr);
    }
    let signal = signals.forever().next();
    running.stop();
    let name = match signal {
        Some(SIGINT) => "SIGINT",
        Some(SIGTERM) => "SIGTERM",
        _ => "a signal",
    };
    let _ = writeln!(stderr, "preview: stopped on {name}");
    exit::CLEAN
}

/// Reads the watched files' modification times every [`WATCH_EVERY`] until the server stops,
/// and reloads the app when one changed (the page's long-poll then answers).
fn watch(shared: Arc<Shared>, log: bool) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        while !shared.stopping.load(Ordering::SeqCst) {
            std::thread::sleep(WATCH_EVERY);
            if shared.reload_if_changed() && log {
                eprintln!("preview: reloaded after an edit on disk");
            }
        }
    })
}

/// How a preview is started.
#[derive(Debug, Default)]
pub struct Launch {
    /// The port on 127.0.0.1; 0 for any free one.
    pub port: u16,
    pub network: Network,
    /// Where INSTALL stores the values.
    pub values_path: PathBuf,
    /// Log each request on standard error.
    pub log: bool,
    /// Started by an editor, to be shown in its own view (`Shared::in_editor`).
    pub in_editor: bool,
}

/// A preview that answers, and its watcher, until [`Running::stop`].
#[derive(Debug)]
pub struct Running {
    pub server: LocalServer,
    pub shared: Arc<Shared>,
    watcher: std::thread::JoinHandle<()>,
}

impl Running {
    /// The installation page's address.
    pub fn url(&self) -> String {
        format!("http://{}/custom_configs", self.server.address())
    }

    /// Wakes every long-poll, stops answering and watching.
    pub fn stop(self) {
        self.shared.stop();
        self.server.stop();
        let _ = self.watcher.join();
    }
}

/// Loads the app, starts answering as `launch` says and watching its files. Public for the
/// benchmark.
pub fn start(app: &Path, rules: &crate::cli::RuleArgs, launch: Launch) -> Result<Running, String> {
    start_with(App::new(app, rules)?, launch)
}

/// [`start`] for an app already made: a language server's preview gives it the editor's text
/// before it is first read.
pub fn start_with(mut loaded: App, launch: Launch) -> Result<Running, String> {
    let log = launch.log;
    let snapshot = loaded.load(1);
    let app = loaded.root.clone();
    let port = launch.port;
    let mut made = None;
    let server = LocalServer::start(
        Options {
            port,
            max_body: server::MAX_BODY,
            log: log.then(|| "preview".to_owned()),
            refusal: server::error,
            ..Options::default()
        },
        |port| {
            let shared = Arc::new(Shared {
                app: Mutex::new(loaded),
                snapshot: RwLock::new(Arc::new(snapshot)),
                version: Mutex::new(1),
                changed: Condvar::new(),
                stopping: Default::default(),
                network: launch.network,
                values_path: launch.values_path,
                app_root: app,
                port,
                in_editor: launch.in_editor,
            });
            made = Some(Arc::clone(&shared));
            let handler: Arc<Handler> = Arc::new(move |request| server::handle(&shared, request));
            handler
        },
    )
    .map_err(|error| format!("cannot listen on 127.0.0.1:{port}: {error}"))?;
    let shared = made.expect("the handler was made");
    let watcher = watch(Arc::clone(&shared), log);
    Ok(Running {
        server,
        shared,
        watcher,
    })
}

/// The app to serve: the folder named, or the app a path inside one is in (`cd app/config &&
/// iparams-lint preview`, or `preview config/iparams.html`), as `check` finds a path's app.
fn app_to_serve(given: &Path) -> PathBuf {
    match app_of(given) {
        Some(found) if !found.relative.is_empty() => found.root,
        _ => given.to_owned(),
    }
}

/// Whether `app` is an app with one installation page to serve, generated from iparams.json or
/// written as iparams.html; `Err` says what is wrong and what to name or write instead.
pub fn installation_page_of(app: &Path) -> Result<(), String> {
    let shown = app.display();
    match IparamsSource::of(
        app.join(IPARAMS_FILE).is_file(),
        app.join(PAGE_FILE).is_file(),
    ) {
        IparamsSource::Both => Err(format!(
            "{shown}: config/ holds both iparams.json and iparams.html, and the platform shows \
             only one installation page; keep iparams.json (a generated page) or iparams.html \
             (a page of your own), and delete the other"
        )),
        IparamsSource::Json | IparamsSource::Page => Ok(()),
        IparamsSource::Neither => Err(match app_of(app) {
            Some(found) if found.relative.is_empty() => format!(
                "{shown}: config/ holds neither iparams.json nor iparams.html, so the app has no \
                 installation page; write config/iparams.json (a page generated from it) or \
                 config/iparams.html (a page of your own)"
            ),
            _ => format!(
                "{shown}: not an app (an app's folder holds manifest.json and config/); name \
                 the app's folder"
            ),
        }),
    }
}

/// `--open`: the desktop's opener, if there is one.
fn open_browser(url: &str, stderr: &mut dyn Write) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    if let Err(error) = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        let _ = writeln!(
            stderr,
            "preview: cannot open a browser ({opener}: {error}); open {url}"
        );
    }
}
