//! The routes. Every request must name this server in `Host` (403 otherwise); a POST must come
//! from the page itself (`Origin`, when sent, is this server) and carry JSON, so no page
//! elsewhere can post a form to it; bodies are limited per route; assets come from
//! config/assets only. A custom page (config/iparams.html) is served as its own document, with
//! the preview's client script in place of the vendor's, for the page's frame.

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, RwLock};
use std::time::Duration;

use serde_json::{Map, Value as Json, json};

use super::invoke::{self, Network};
use super::state::{App, Snapshot};
use super::store::{self, Stored};
use crate::workspace::{PAGE_FILE, resolves_inside};
use iparams_core::app::html::HtmlPage;
use iparams_core::app::page::older_client;
use iparams_core::app::{Declared, Resource};
use iparams_core::products::{self, PRODUCTS, Product};
use iparams_serve::{Incoming, Outgoing, host_allowed, percent_decode};

const PAGE_HTML: &str = include_str!("page/index.html");
const PAGE_JS: &str = include_str!("page/page.js");
const PAGE_CSS: &str = include_str!("page/page.css");
/// The client a custom page gets (`app.initialized()` and the rest), in the frame.
const CLIENT_JS: &str = include_str!("page/client.js");
/// Where a custom page finds it.
const CLIENT_URL: &str = "/custom_configs/client.js";

/// The preview's own page and assets only, held in no frame.
const PAGE_POLICY: &str =
    "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'";
/// A custom page: its inline scripts and styles run (as on the platform), nothing is loaded
/// from another host (the preview is offline), and only the preview's page may frame it.
const CUSTOM_PAGE_POLICY: &str = "default-src 'self'; script-src 'self' 'unsafe-inline'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'self'";
/// A custom page with `--allow-remote-scripts`: scripts, styles, fonts and images from any
/// https:// host too (a component library from a CDN); its requests (`connect-src`) still go
/// only to the preview, which makes the app's calls.
const CUSTOM_PAGE_REMOTE_POLICY: &str = "default-src 'self'; \
     script-src 'self' 'unsafe-inline' https:; style-src 'self' 'unsafe-inline' https:; \
     font-src 'self' data: https:; img-src 'self' data: https:; frame-ancestors 'self'";
/// Who may frame the pages of a preview an editor started: the editor's view beside the file
/// (a VS Code webview, or a page of an editor served on this machine, as code-server's), and
/// only those, so that no site can frame the page and have its buttons clicked.
const EDITOR_FRAME_ANCESTORS: &str =
    "frame-ancestors 'self' vscode-webview: http://127.0.0.1:* http://localhost:*";

/// Body limits, per route.
const MAX_STORE_BODY: usize = 256 * 1024;
/// The platform's request body limit (100 KB) and room for the context and values.
const MAX_INVOKE_BODY: usize = 256 * 1024;
/// The largest body any route reads.
pub const MAX_BODY: usize = 256 * 1024;
/// How long a long-poll for changes waits before answering "no change".
const LONG_POLL: Duration = Duration::from_secs(20);
/// How often a long-poll looks whether its client is still there.
const CLIENT_CHECK: Duration = Duration::from_millis(200);

/// What every request shares.
#[derive(Debug)]
pub struct Shared {
    pub app: Mutex<App>,
    pub snapshot: RwLock<Arc<Snapshot>>,
    /// The snapshot's version, for waiting on a change.
    pub version: Mutex<u64>,
    pub changed: Condvar,
    pub stopping: AtomicBool,
    pub network: Network,
    /// Where INSTALL stores the values.
    pub values_path: PathBuf,
    /// The app's folder, as named.
    pub app_root: PathBuf,
    pub port: u16,
    /// Started by an editor's language server, to be shown in the editor's own view: the
    /// pages may be framed by it ([`EDITOR_FRAME_ANCESTORS`]).
    pub in_editor: bool,
}

impl Shared {
    /// The values file, unless it is in the app's folder and a symbolic link (the file's, or
    /// `.iparams-lint/`'s) takes it outside: the page must neither read nor write files
    /// elsewhere through the app.
    pub fn values_file(&self) -> Result<&Path, String> {
        let path = &self.values_path;
        if path.starts_with(&self.app_root) && !resolves_inside(&self.app_root, path) {
            return Err(format!(
                "{}: a symbolic link takes it outside the app's folder {}; the values are \
                 neither read nor stored there (remove the link, or name a file with --values)",
                path.display(),
                self.app_root.display()
            ));
        }
        Ok(path)
    }

    /// The stored values (none when the values file may not be read).
    pub fn stored(&self) -> Stored {
        self.values_file().map(Stored::read).unwrap_or_default()
    }

    /// What the server knows of the iparams: iparams.json's, or for a custom page, the keys
    /// of the `stored` values; secure as they are defined or as they were stored.
    pub fn defs<'s>(&self, snapshot: &'s Snapshot, stored: &Stored) -> Cow<'s, [Declared]> {
        if snapshot.custom_page {
            return Cow::Owned(store::page_defs(stored.values.keys(), &stored.secure));
        }
        let defs = &snapshot.defs;
        if defs
            .iter()
            .all(|d| d.secure || !stored.secure.contains(&d.key))
        {
            return Cow::Borrowed(defs);
        }
        Cow::Owned(
            defs.iter()
                .map(|d| Declared {
                    secure: stored.is_secure(&d.key, defs),
                    ..d.clone()
                })
                .collect(),
        )
    }

    /// The bytes of the app's file at `path`: the editor's unsaved text, or the disk's.
    pub fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        self.overlaid(path)
            .map_or_else(|| crate::read::read_file(path), Ok)
    }

    /// The editor's unsaved text of the file at `path`, if an editor holds it.
    pub fn overlaid(&self, path: &Path) -> Option<Vec<u8>> {
        self.app().workspace.overlaid(path).map(<[u8]>::to_vec)
    }

    /// The app, locked; a handler that panicked while holding it does not stop the preview.
    pub fn app(&self) -> MutexGuard<'_, App> {
        self.app.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn snapshot(&self) -> Arc<Snapshot> {
        Arc::clone(&self.snapshot.read().unwrap_or_else(|e| e.into_inner()))
    }

    /// Reads the app again when a watched file changed; returns whether it did.
    pub fn reload_if_changed(&self) -> bool {
        let mut app = self.app();
        let current = self.snapshot();
        if app.stamps() == current.stamps {
            return false;
        }
        let fresh = Arc::new(app.load(current.version + 1));
        let version = fresh.version;
        *self.snapshot.write().unwrap_or_else(|e| e.into_inner()) = fresh;
        *self.version.lock().unwrap_or_else(|e| e.into_inner()) = version;
        self.changed.notify_all();
        true
    }

    /// Wakes every long-poll (the server is stopping).
    pub fn stop(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        let _guard = self.version.lock();
        self.changed.notify_all();
    }
}

fn answer(status: u16, content_type: &str, body: String) -> Outgoing {
    answer_with(status, content_type, body, PAGE_POLICY)
}

fn answer_with(status: u16, content_type: &str, body: String, policy: &str) -> Outgoing {
    Outgoing {
        status,
        headers: vec![
            ("Content-Type".into(), content_type.into()),
            ("Cache-Control".into(), "no-store".into()),
            ("X-Content-Type-Options".into(), "nosniff".into()),
            ("Content-Security-Policy".into(), policy.into()),
        ],
        body,
    }
}

fn json_answer(status: u16, value: &Json) -> Outgoing {
    answer(status, "application/json; charset=utf-8", value.to_string())
}

/// An error answer, `{"error": message}` (also the server's own refusals, 408 and the like).
pub fn error(status: u16, message: &str) -> Outgoing {
    json_answer(status, &json!({ "error": message }))
}

/// Answers one request.
pub fn handle(shared: &Shared, request: &Incoming) -> Outgoing {
    let mut answered = route(shared, request);
    if shared.in_editor {
        framed_by_editor(&mut answered);
    }
    answered
}

/// An answer's `frame-ancestors` made [`EDITOR_FRAME_ANCESTORS`]: one rule for every page, the
/// preview's own and the app's.
fn framed_by_editor(answered: &mut Outgoing) {
    for (name, value) in &mut answered.headers {
        if name.eq_ignore_ascii_case("content-security-policy") {
            let kept = value
                .split(';')
                .map(str::trim)
                .filter(|directive| !directive.starts_with("frame-ancestors"));
            *value = kept
                .chain([EDITOR_FRAME_ANCESTORS])
                .collect::<Vec<_>>()
                .join("; ");
        }
    }
}

fn route(shared: &Shared, request: &Incoming) -> Outgoing {
    if !host_allowed(request.header("host"), shared.port) {
        return error(
            403,
            &format!(
                "The Host header must be 127.0.0.1:{0} or localhost:{0}",
                shared.port
            ),
        );
    }
    let (path, query) = match request.target.split_once('?') {
        Some((path, query)) => (path, query),
        None => (request.target.as_str(), ""),
    };
    let method = request.method.to_ascii_uppercase();
    if method == "POST"
        && let Some(refused) = refuse_post(shared, request)
    {
        return refused;
    }
    match (method.as_str(), path) {
        ("GET", "/" | "/custom_configs" | "/custom_configs/") => {
            answer(200, "text/html; charset=utf-8", PAGE_HTML.to_owned())
        }
        ("GET", "/custom_configs/page.js") => {
            answer(200, "text/javascript; charset=utf-8", PAGE_JS.to_owned())
        }
        ("GET", "/custom_configs/page.css") => {
            answer(200, "text/css; charset=utf-8", PAGE_CSS.to_owned())
        }
        ("GET", "/custom_configs/client.js") => {
            answer(200, "text/javascript; charset=utf-8", CLIENT_JS.to_owned())
        }
        ("GET", "/custom_configs/form") => custom_page(shared),
        ("GET", "/custom_configs/state") => json_answer(200, &state(shared)),
        ("GET", "/custom_configs/fetch") => {
            let snapshot = shared.snapshot();
            let stored = shared.stored();
            let (values, secure_set) = store::for_page(&stored, &shared.defs(&snapshot, &stored));
            json_answer(200, &json!({"values": values, "secure_set": secure_set}))
        }
        ("GET", "/custom_configs/changes") => changes(shared, request, query),
        ("POST", "/custom_configs/store") => with_body(request, MAX_STORE_BODY, |body| {
            let values_path = match shared.values_file() {
                Ok(path) => path,
                Err(message) => return error(403, &message),
            };
            let snapshot = shared.snapshot();
            if snapshot.custom_page {
                // What the page stores, as the check read it, to check the values against.
                let checked = snapshot.page_keys.clone().map(|page| {
                    let mut app = shared.app();
                    let settings = app.workspace.settings_for(values_path).unwrap_or_default();
                    (page, settings)
                });
                let (status, value) = store::store_page(
                    body,
                    values_path,
                    &snapshot.page["findings"],
                    checked.as_ref(),
                );
                return json_answer(status, &value);
            }
            let (iparams_shown, settings) = {
                let mut app = shared.app();
                let shown = app
                    .root
                    .join(crate::workspace::IPARAMS_FILE)
                    .display()
                    .to_string();
                let settings = app.workspace.settings_for(values_path).unwrap_or_default();
                (shown, settings)
            };
            let stored = shared.stored();
            let defs = shared.defs(&snapshot, &stored);
            let iparams = (defs.as_ref(), snapshot.iparams_text.as_str());
            let (status, value) = store::store(
                body,
                iparams,
                (values_path, &stored),
                &iparams_shown,
                &settings,
            );
            json_answer(status, &value)
        }),
        ("POST", "/custom_configs/invoke") => with_body(request, MAX_INVOKE_BODY, |body| {
            let Ok(parsed) = serde_json::from_slice::<Json>(body) else {
                return error(400, "the body must be JSON: {name, options, values}");
            };
            let snapshot = shared.snapshot();
            let stored = shared.stored();
            let name = parsed["name"].as_str().unwrap_or("");
            let values = page_values(&snapshot, &parsed["values"], &stored.values);
            let defs = shared.defs(&snapshot, &stored);
            let caller = caller(shared, &snapshot, &defs, &values, &stored.values);
            let outcome = invoke::invoke(&caller, name, &parsed["options"]);
            json_answer(200, &outcome)
        }),
        ("POST", "/custom_configs/request") => with_body(request, MAX_INVOKE_BODY, |body| {
            let Ok(parsed) = serde_json::from_slice::<Json>(body) else {
                return error(400, "the body must be JSON: {method, url, options, values}");
            };
            let snapshot = shared.snapshot();
            let stored = shared.stored();
            let values = page_values(&snapshot, &parsed["values"], &stored.values);
            let defs = shared.defs(&snapshot, &stored);
            let outcome = invoke::legacy(
                &caller(shared, &snapshot, &defs, &values, &stored.values),
                parsed["method"].as_str().unwrap_or(""),
                parsed["url"].as_str().unwrap_or(""),
                &parsed["options"],
            );
            json_answer(200, &outcome)
        }),
        ("POST", "/custom_configs/credentials") => with_body(request, MAX_STORE_BODY, |body| {
            let Ok(parsed) = serde_json::from_slice::<Json>(body) else {
                return error(400, "the body must be a JSON object of values");
            };
            let snapshot = shared.snapshot();
            let stored = shared.stored();
            let values = object(&parsed);
            let defs = shared.defs(&snapshot, &stored);
            let outcome = invoke::check_credentials(&caller(
                shared,
                &snapshot,
                &defs,
                &values,
                &stored.values,
            ));
            json_answer(200, &outcome)
        }),
        ("GET", _) if path.starts_with("/custom_configs/assets/") => {
            let relative = &path["/custom_configs/assets/".len()..];
            asset(&shared.app_root, relative, |file| shared.overlaid(file))
        }
        (
            _,
            "/custom_configs/store"
            | "/custom_configs/invoke"
            | "/custom_configs/request"
            | "/custom_configs/credentials",
        ) => error(405, "use POST"),
        _ => error(404, "nothing here"),
    }
}

fn caller<'a>(
    shared: &'a Shared,
    snapshot: &'a Snapshot,
    defs: &'a [Declared],
    values: &'a Map<String, Json>,
    stored: &'a Map<String, Json>,
) -> invoke::Caller<'a> {
    invoke::Caller {
        snapshot,
        defs,
        network: &shared.network,
        values,
        stored,
    }
}

/// The values a call is made with: what the generated page holds, or for a custom page (whose
/// fields the preview does not know) the stored ones.
fn page_values(snapshot: &Snapshot, sent: &Json, stored: &Map<String, Json>) -> Map<String, Json> {
    if snapshot.custom_page {
        stored.clone()
    } else {
        object(sent)
    }
}

/// `GET /custom_configs/form`: config/iparams.html as written, but for where it loads the
/// vendor's client (`{{{appclient}}}`, or a client file such as `fresh_client.js`), which is the
/// preview's. Its relative assets (`./assets/...`) are then config/assets' files.
fn custom_page(shared: &Shared) -> Outgoing {
    if !shared.snapshot().custom_page {
        return error(
            404,
            "this app's installation page is generated from config/iparams.json: open /custom_configs",
        );
    }
    let root = &shared.app_root;
    let path = root.join(PAGE_FILE);
    if !resolves_inside(root, &path) {
        return error(
            403,
            &format!(
                "{PAGE_FILE}: a symbolic link takes it outside the app's folder; it is not served"
            ),
        );
    }
    match shared.read(&path) {
        Ok(bytes) => answer_with(
            200,
            "text/html; charset=utf-8",
            with_preview_client(&String::from_utf8_lossy(&bytes)),
            if shared.network.remote_scripts {
                CUSTOM_PAGE_REMOTE_POLICY
            } else {
                CUSTOM_PAGE_POLICY
            },
        ),
        Err(error) => self::error(404, &format!("{PAGE_FILE} cannot be read: {error}")),
    }
}

/// `page` with the vendor's client replaced by the preview's: the `src` of every script that
/// loads it (`{{{appclient}}}`, or a client file such as `fresh_client.js` or
/// `app-client@2.js`), as the core reads the page.
fn with_preview_client(page: &str) -> String {
    let html = HtmlPage::read(page);
    let mut out = page.to_owned();
    let clients = html.scripts.iter().filter_map(|script| script.src.as_ref());
    let clients = clients.filter(|src| {
        Resource::of(&src.value) == Resource::AppClient || older_client(&src.value).is_some()
    });
    // From the last, so that the spans before stay where they are.
    let spans: Vec<_> = clients.map(|src| src.span).collect();
    for span in spans.into_iter().rev() {
        out.replace_range(span.start..span.end, CLIENT_URL);
    }
    out
}

fn object(value: &Json) -> Map<String, Json> {
    value.as_object().cloned().unwrap_or_default()
}

/// A POST from anywhere but the page: an `Origin` other than this server, or a body that is
/// not JSON (a form another site posts cannot be JSON without asking first).
fn refuse_post(shared: &Shared, request: &Incoming) -> Option<Outgoing> {
    if let Some(origin) = request.header("origin") {
        let origin = origin.trim();
        let own = [
            format!("http://127.0.0.1:{}", shared.port),
            format!("http://localhost:{}", shared.port),
        ];
        if !own.iter().any(|o| o.eq_ignore_ascii_case(origin)) {
            return Some(error(
                403,
                "POST is accepted from the preview's own page only",
            ));
        }
    }
    let json = request
        .header("content-type")
        .and_then(|t| t.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"));
    (!json).then(|| error(415, "POST bodies must be application/json"))
}

fn with_body(request: &Incoming, limit: usize, then: impl FnOnce(&[u8]) -> Outgoing) -> Outgoing {
    match &request.body {
        Some(body) if body.len() <= limit => then(body),
        _ => error(413, &format!("the body is over {limit} bytes")),
    }
}

/// The page's data: the snapshot's, with the stored values (secure ones only named).
pub fn state(shared: &Shared) -> Json {
    let snapshot = shared.snapshot();
    let stored = shared.stored();
    let (values, secure_set) = store::for_page(&stored, &shared.defs(&snapshot, &stored));
    let mut page = snapshot.page.clone();
    page["stored"] = values;
    page["secure_set"] = json!(secure_set);
    page["network"] = json!({
        "hr_url": shared.network.hr_url.is_some(),
        "online": shared.network.online,
        "remote_scripts": shared.network.remote_scripts,
    });
    page["values_path"] = json!(shared.values_path.display().to_string());
    // The domains the page's `domain` inputs offer, by product.
    page["product_domains"] = PRODUCTS
        .iter()
        .filter(|product| !product.hosts.is_empty())
        .map(|product| {
            (
                product.name.to_owned(),
                json!(product.domains().collect::<Vec<_>>()),
            )
        })
        .collect::<Map<String, Json>>()
        .into();
    // The sample account a custom page's client gets, on the app's first product.
    let product = page["products"][0].as_str().unwrap_or("freshdesk");
    let domain = products::product(product)
        .and_then(Product::domain)
        .unwrap_or("freshdesk.com");
    page["domain_name"] = json!(format!("acme.{domain}"));
    page
}

/// `GET /custom_configs/changes?since=N`: answers as soon as the version passes N, or after the
/// long-poll's time with the same version. It waits aside, out of the cap of ordinary requests
/// (a newer long-poll over the cap of waits ends the oldest), and stops waiting as soon as the
/// wait is over (its client has gone, the connection's thread is then free to end), looking
/// every [`CLIENT_CHECK`].
fn changes(shared: &Shared, request: &Incoming, query: &str) -> Outgoing {
    let since: u64 = query
        .split('&')
        .find_map(|pair| pair.strip_prefix("since="))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let until = std::time::Instant::now() + LONG_POLL;
    let waiting = request.wait_aside();
    let mut guard = shared.version.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let left = until.saturating_duration_since(std::time::Instant::now());
        if *guard > since
            || shared.stopping.load(Ordering::SeqCst)
            || left.is_zero()
            || waiting.over()
        {
            break;
        }
        guard = shared
            .changed
            .wait_timeout(guard, left.min(CLIENT_CHECK))
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
    let version = *guard;
    drop(guard);
    drop(waiting);
    json_answer(200, &json!({ "version": version }))
}

/// A file of config/assets: the path percent-decoded, refused with any `..`, `.`, empty or
/// backslashed segment, and, once resolved, anywhere but inside the real config/assets folder
/// and the app (config/assets may be a link), or under a hidden name of the app's (`.git/`,
/// `.fdk/`, `.iparams-lint/`, `.env`: config/assets may be a link to the app's own folder).
/// An editor's unsaved text of the file (`overlaid`) wins over the disk's.
fn asset(root: &Path, encoded: &str, overlaid: impl Fn(&Path) -> Option<Vec<u8>>) -> Outgoing {
    let Some(relative) = percent_decode(encoded) else {
        return error(400, "the path is not valid percent-encoded UTF-8");
    };
    let clean = !relative.is_empty()
        && relative.split('/').all(|segment| {
            !segment.is_empty()
                && segment != "."
                && segment != ".."
                && !segment.contains(['\\', '\0', ':'])
        })
        && Path::new(&relative)
            .components()
            .all(|c| matches!(c, Component::Normal(_)));
    if !clean {
        return error(403, "assets are served from config/assets only");
    }
    let assets = root.join("config/assets");
    let (Ok(app), Ok(base), Ok(file)) = (
        std::fs::canonicalize(root),
        std::fs::canonicalize(&assets),
        std::fs::canonicalize(assets.join(&relative)),
    ) else {
        return no_such_asset(&relative);
    };
    let hidden = |inside: &Path| {
        inside
            .components()
            .any(|part| part.as_os_str().as_encoded_bytes().starts_with(b"."))
    };
    if !file.starts_with(&base) || file.strip_prefix(&app).map_or(true, hidden) {
        return error(403, "assets are served from config/assets only");
    }
    // The editor's text is kept by the path as named; the disk's is read where it resolved.
    let read = overlaid(&assets.join(&relative)).map_or_else(|| crate::read::read_file(&file), Ok);
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(why) if why.kind() == std::io::ErrorKind::NotFound => {
            return no_such_asset(&relative);
        }
        Err(why) => return error(403, &format!("config/assets/{relative}: {why}")),
    };
    let kind = match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "html" => "text/html; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        _ => "application/octet-stream",
    };
    // An answer's body is text here; assets are text (scripts, styles).
    match String::from_utf8(bytes) {
        Ok(text) => answer(200, kind, text),
        Err(_) => error(415, "only text assets are served"),
    }
}

/// A plain 404 for an asset the app does not have: the page asked for a script or a style
/// sheet, and the browser's console shows the status, not a body it cannot use.
fn no_such_asset(relative: &str) -> Outgoing {
    answer(
        404,
        "text/plain; charset=utf-8",
        format!("config/assets/{relative} is not in the app\n"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vendor_client_is_replaced_by_the_preview_s() {
        let page = concat!(
            "<script src=\"{{{appclient}}}\"></script>\n",
            "<script src='https://static.freshdev.io/fdk/2.0/assets/fresh_client.js'></script>\n",
            "<script SRC = \"fresh_client.js\"></script>\n",
            "<script src=\"https://cdn.freshdev.io/assets/app-client@2.js\"></script>\n",
            "<p>fresh_client.js is named in text</p>\n",
            "<a href=\"https://x/fresh_client.js\">the file</a>",
        );
        assert_eq!(
            with_preview_client(page),
            concat!(
                "<script src=\"/custom_configs/client.js\"></script>\n",
                "<script src='/custom_configs/client.js'></script>\n",
                "<script SRC = \"/custom_configs/client.js\"></script>\n",
                "<script src=\"/custom_configs/client.js\"></script>\n",
                "<p>fresh_client.js is named in text</p>\n",
                "<a href=\"https://x/fresh_client.js\">the file</a>",
            )
        );
    }

    fn no_overlay(_: &Path) -> Option<Vec<u8>> {
        None
    }

    #[test]
    fn traversal_is_refused_encoded_or_not() {
        let root = std::env::temp_dir().join(format!("iparams-preview-{}", std::process::id()));
        std::fs::create_dir_all(root.join("config/assets")).unwrap();
        std::fs::write(root.join("config/assets/iparams.js"), "function f() {}").unwrap();
        std::fs::write(root.join("config/secret.json"), "{}").unwrap();
        assert_eq!(asset(&root, "iparams.js", no_overlay).status, 200);
        for bad in [
            "../secret.json",
            "%2e%2e/secret.json",
            "%2E%2E%2Fsecret.json",
            "./iparams.js",
            "..%5csecret.json",
            "/etc/passwd",
            "",
        ] {
            assert_eq!(asset(&root, bad, no_overlay).status, 403, "{bad}");
        }
        std::os::unix::fs::symlink(
            root.join("config/secret.json"),
            root.join("config/assets/out.json"),
        )
        .unwrap();
        assert_eq!(asset(&root, "out.json", no_overlay).status, 403);
        // config/assets itself a link to a folder outside the app.
        let outside = root.with_extension("outside");
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("a.js"), "x").unwrap();
        std::fs::remove_dir_all(root.join("config/assets")).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("config/assets")).unwrap();
        assert_eq!(asset(&root, "a.js", no_overlay).status, 403);
        let _ = std::fs::remove_dir_all(&outside);
        let _ = std::fs::remove_dir_all(&root);
    }
}
