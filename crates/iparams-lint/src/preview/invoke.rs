//! The page's outgoing calls, made by the server so that secure values stay on it:
//! `client.request.invokeTemplate(name, {context, body})` from config/requests.json, and
//! INSTALL's domain/api_key check. Hosts of the HR service go to `--hr-url`; other hosts only
//! with `--online`; anything else is refused with a clear offline error.

use std::collections::HashSet;
use std::time::Duration;

use base64::Engine as _;
use iparams_core::app::hr_service::{self, HOST_SUFFIX, credential_check_url};
use iparams_core::app::requests::{Place, Template, placeholders};
use iparams_core::app::{Declared, credential_pairs};
use iparams_core::is_ip_host;
use iparams_core::model::IparamType;
use iparams_core::products::{self, Product};
use iparams_serve::percent_encode;
use serde_json::{Map, Value as Json, json};

use super::state::Snapshot;
use crate::net;

/// The platform's request timeout (15 s, as documented for request templates).
const TIMEOUT: Duration = Duration::from_secs(15);
/// The platform's response limit.
const MAX_RESPONSE: u64 = 6 * 1024 * 1024;

/// Where calls may go, and what a custom page may load.
#[derive(Debug, Clone, Default)]
pub struct Network {
    pub hr_url: Option<String>,
    pub online: bool,
    /// A custom page may load scripts and styles from other hosts (`--allow-remote-scripts`).
    pub remote_scripts: bool,
}

/// A failed call, as the page's promise rejects with it.
fn failure(status: u16, message: impl Into<String>) -> Json {
    json!({"ok": false, "status": status, "headers": {}, "response": "", "message": message.into()})
}

/// Carries out `invokeTemplate(name, options)` with the page's `values`, the stored secure values
/// filling what the page does not hold. Returns what the page's promise gets, every secure value
/// masked in it, whichever way it ends.
pub fn invoke(caller: &Caller<'_>, name: &str, options: &Json) -> Json {
    let context = options.get("context").cloned().unwrap_or(json!({}));
    let scope = caller.scope(&context);
    let masker = scope.masker();
    let answer = match template_call(caller, &scope, name, options) {
        Ok((request, answer)) => {
            // The host only: a filled path may hold values.
            masker.log(&format!(
                "preview: invokeTemplate {name}: {} {} → {}",
                request.method, request.host, answer["status"]
            ));
            answer
        }
        Err(refused) => refused,
    };
    masker.answer(answer)
}

/// The call of a template, or the failure the page gets instead.
fn template_call(
    caller: &Caller<'_>,
    scope: &Scope<'_>,
    name: &str,
    options: &Json,
) -> Result<(Request, Json), Json> {
    let Some(template) = caller.snapshot.requests.template(name) else {
        return Err(failure(400, "Request template not found"));
    };
    let request = build(template, scope).map_err(|message| failure(400, message))?;
    let base = route(&request.host, caller.network).map_err(|message| failure(502, message))?;
    let mut url = format!("{base}{}", request.path);
    if !request.query.is_empty() {
        let query: Vec<String> = request
            .query
            .iter()
            .map(|(k, v)| format!("{}={}", percent_encode(k), percent_encode(v)))
            .collect();
        url.push_str(if url.contains('?') { "&" } else { "?" });
        url.push_str(&query.join("&"));
    }
    let body = options.get("body").and_then(Json::as_str).unwrap_or("");
    let answer = call(&request.method, &url, &request.headers, body);
    Ok((request, answer))
}

/// `client.request.get/post/put/delete/patch(url, options)`, the request API of apps before
/// platform 2.3: refused on 2.3 and later as the platform refuses it; otherwise the URL, headers
/// and body filled as templates are, and called when the host is the HR service's (at
/// `--hr-url`) or, with `--online`, one of the manifest's `whitelisted-domains`.
pub fn legacy(caller: &Caller<'_>, method: &str, url: &str, options: &Json) -> Json {
    let context = json!({});
    let scope = caller.scope(&context);
    let masker = scope.masker();
    masker.answer(legacy_call(caller, &scope, &masker, method, url, options))
}

fn legacy_call(
    caller: &Caller<'_>,
    scope: &Scope<'_>,
    masker: &Masker,
    method: &str,
    url: &str,
    options: &Json,
) -> Json {
    let (snapshot, network) = (caller.snapshot, caller.network);
    let method = method.to_ascii_lowercase();
    if !["get", "post", "put", "delete", "patch"].contains(&method.as_str()) {
        return failure(
            400,
            format!("client.request.{method} is not a method of the request API"),
        );
    }
    let manifest = snapshot.manifest.as_ref();
    if manifest
        .and_then(|m| m.platform)
        .is_some_and(|p| (p.major, p.minor) >= (2, 3))
    {
        return failure(
            400,
            format!("{method} is no longer supported in Request API"),
        );
    }
    let filled = |text: &str| fill(text, scope);
    let result = (|| {
        let url = filled(url)?;
        let (scheme, rest) = url
            .split_once("://")
            .ok_or_else(|| format!("`{url}` is not an absolute URL"))?;
        let cut = rest.find(['/', '?']).unwrap_or(rest.len());
        let (host, path) = (&rest[..cut], &rest[cut..]);
        if !is_host(host) && !is_ip_host(host) {
            return Err(format!("`{host}` is not a host name"));
        }
        let allowed = host.to_ascii_lowercase().ends_with(HOST_SUFFIX) && network.hr_url.is_some()
            || whitelisted(manifest, scheme, host);
        if !allowed {
            return Err(format!(
                "{host} is not in the manifest's whitelisted-domains: the request API refuses it"
            ));
        }
        let mut headers = Vec::new();
        if let Some(given) = options.get("headers").and_then(Json::as_object) {
            for (name, value) in given {
                headers.push((name.clone(), filled(&text_of(value))?));
            }
        }
        let body = filled(options.get("body").and_then(Json::as_str).unwrap_or(""))?;
        let base = route(host, network)?;
        let path = if path.is_empty() { "/" } else { path };
        Ok((format!("{base}{path}"), headers, body, host.to_owned()))
    })();
    let (target, headers, body, host) = match result {
        Ok(parts) => parts,
        Err(message) => return failure(502, message),
    };
    let answer = call(&method.to_ascii_uppercase(), &target, &headers, &body);
    masker.log(&format!(
        "preview: client.request.{method} {host} → {}",
        answer["status"]
    ));
    answer
}

/// Whether `host` (reached by `scheme`) is one of the manifest's `whitelisted-domains`
/// (`https://*.example.com` allows every sub-domain).
fn whitelisted(manifest: Option<&iparams_core::app::Manifest>, scheme: &str, host: &str) -> bool {
    let Some(domains) = manifest.and_then(|m| m.whitelisted_domains.as_ref()) else {
        return false;
    };
    let host = host.to_ascii_lowercase();
    domains.iter().any(|domain| {
        let domain = domain.name.to_ascii_lowercase();
        let (allowed_scheme, pattern) = domain.split_once("://").unwrap_or(("https", &domain));
        let pattern = pattern.trim_end_matches('/');
        allowed_scheme == scheme.to_ascii_lowercase()
            && match pattern.strip_prefix("*.") {
                Some(suffix) => host.ends_with(&format!(".{suffix}")),
                None => host == pattern,
            }
    })
}

/// A template with its placeholders filled.
#[derive(Debug, Default)]
struct Request {
    method: String,
    host: String,
    path: String,
    headers: Vec<(String, String)>,
    query: Vec<(String, String)>,
}

/// A call from the page: the app as last read, where calls may go, the page's values and the
/// stored ones (the secure values the page does not hold).
#[derive(Debug, Clone, Copy)]
pub struct Caller<'a> {
    pub snapshot: &'a Snapshot,
    /// The iparams: iparams.json's, or the keys a custom page stored.
    pub defs: &'a [Declared],
    pub network: &'a Network,
    pub values: &'a Map<String, Json>,
    pub stored: &'a Map<String, Json>,
}

impl<'a> Caller<'a> {
    fn scope(&self, context: &'a Json) -> Scope<'a> {
        Scope {
            defs: self.defs,
            values: self.values,
            stored: self.stored,
            context,
        }
    }
}

/// What placeholders are filled from.
struct Scope<'a> {
    defs: &'a [Declared],
    values: &'a Map<String, Json>,
    stored: &'a Map<String, Json>,
    context: &'a Json,
}

impl Scope<'_> {
    /// An iparam's value: what the page sent, or for a secure one not sent, the stored one.
    fn iparam(&self, key: &str) -> Result<Json, String> {
        let def =
            self.defs.iter().find(|d| d.key == key).ok_or_else(|| {
                format!("Error while substituting the templates: no iparam `{key}`")
            })?;
        let given = self.values.get(key).filter(|v| **v != json!(""));
        match given {
            Some(value) => Ok(value.clone()),
            None if def.secure => Ok(self.stored.get(key).cloned().unwrap_or(json!(""))),
            None => Ok(json!("")),
        }
    }

    /// The masker of every secure value the page sent or the store holds, of any JSON type.
    pub(super) fn masker(&self) -> Masker {
        let secrets = self
            .defs
            .iter()
            .filter(|d| d.secure)
            .flat_map(|d| [self.values.get(&d.key), self.stored.get(&d.key)])
            .flatten()
            .map(text_of);
        Masker::new(secrets)
    }
}

/// Masks secure values in what leaves the server (answers to the page, the log), in every form
/// a call can give them: as they are (a number as its digits), JSON-escaped, URL-encoded, and
/// in base64 wherever they stand in the encoded bytes (`encode(user + ':' + key)` makes a text
/// whose base64 holds the key's at one of three alignments); and any piece of one, since a
/// message may quote part of a value (a URL's host, what comes before its first `/`).
/// Messages and log lines are also rid of anything shaped like a credential.
#[derive(Debug, Default)]
pub struct Masker {
    /// Longest first, so that a form is masked whole before a shorter one inside it.
    forms: Vec<String>,
    /// Every run of [`PIECE`] characters of a secure value: text holding one of them holds a
    /// piece of the value.
    pieces: HashSet<String>,
}

/// What a masked value shows.
const MASK: &str = "****";

/// The characters of a piece of a secure value that is masked wherever it stands: fewer would
/// mask words that happen to be in a value (`value` in `s3cret-value`).
const PIECE: usize = 6;

impl Masker {
    pub fn new(secrets: impl IntoIterator<Item = String>) -> Self {
        let mut forms = Vec::new();
        // Shorter values would mask common words and numbers everywhere.
        for secret in secrets.into_iter().filter(|s| s.chars().count() >= 3) {
            let escaped = json!(secret).to_string();
            forms.push(escaped[1..escaped.len() - 1].to_owned());
            forms.push(percent_encode(&secret));
            forms.extend(base64_fragments(secret.as_bytes()));
            forms.push(secret);
        }
        forms.retain(|form| form.len() >= 3);
        forms.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        forms.dedup();
        let pieces = forms
            .iter()
            .flat_map(|form| pieces_of(form).map(|(start, end)| form[start..end].to_owned()))
            .collect();
        Self { forms, pieces }
    }

    /// `text` with every form of a secure value, and every piece of one, masked.
    fn values_in(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for form in &self.forms {
            if out.contains(form.as_str()) {
                out = out.replace(form.as_str(), MASK);
            }
        }
        self.pieces_in(&out)
    }

    /// `text` with every run of characters that holds a piece of a secure value masked, once.
    fn pieces_in(&self, text: &str) -> String {
        if self.pieces.is_empty() {
            return text.to_owned();
        }
        // The byte ranges covered by a piece, merged as they are found (in order of start).
        let mut covered: Vec<(usize, usize)> = Vec::new();
        for (start, end) in pieces_of(text) {
            if !self.pieces.contains(&text[start..end]) {
                continue;
            }
            match covered.last_mut() {
                Some(last) if start <= last.1 => last.1 = last.1.max(end),
                _ => covered.push((start, end)),
            }
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (start, end) in covered {
            out.push_str(&text[at..start]);
            out.push_str(MASK);
            at = end;
        }
        out.push_str(&text[at..]);
        out
    }

    /// A message or log line: secure values and credential-shaped words masked.
    pub fn text(&self, text: &str) -> String {
        let masked = self.values_in(text);
        let mut out = String::with_capacity(masked.len());
        for piece in masked.split_inclusive(char::is_whitespace) {
            let word = piece.trim_end_matches(char::is_whitespace);
            let core = word.trim_matches(|c: char| "`'\"()[]{}<>,;".contains(c));
            if !core.is_empty() && iparams_core::secrets::looks_secret(core) {
                out.push_str(&piece.replacen(core, MASK, 1));
            } else {
                out.push_str(piece);
            }
        }
        out
    }

    /// One line on standard error, masked as a message is.
    pub fn log(&self, line: &str) {
        eprintln!("{}", self.text(line));
    }

    /// `value` with every string (keys too) and number masked where it holds a secure value, and
    /// its `message` masked as a message is.
    pub fn json(&self, value: Json) -> Json {
        match value {
            Json::String(text) => Json::String(self.values_in(&text)),
            Json::Number(number) => {
                let text = number.to_string();
                let masked = self.values_in(&text);
                if masked == text {
                    Json::Number(number)
                } else {
                    Json::String(masked)
                }
            }
            Json::Array(items) => Json::Array(items.into_iter().map(|v| self.json(v)).collect()),
            Json::Object(members) => Json::Object(
                members
                    .into_iter()
                    .map(|(key, value)| (self.values_in(&key), self.json(value)))
                    .collect(),
            ),
            other => other,
        }
    }

    /// An answer for the page: [`Masker::json`], and its message as [`Masker::text`] masks it.
    pub fn answer(&self, answer: Json) -> Json {
        let mut answer = self.json(answer);
        if let Some(message) = answer.get("message").and_then(Json::as_str) {
            answer["message"] = json!(self.text(message));
        }
        answer
    }
}

/// The byte ranges of every run of [`PIECE`] characters of `text`, in order.
fn pieces_of(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut bounds: Vec<usize> = text.char_indices().map(|(at, _)| at).collect();
    bounds.push(text.len());
    (0..bounds.len().saturating_sub(PIECE)).map(move |i| (bounds[i], bounds[i + PIECE]))
}

/// The parts of any base64 text that encode `secret`, wherever it stands in the bytes encoded:
/// for each of the three alignments, the characters that depend on the secret's bytes alone.
fn base64_fragments(secret: &[u8]) -> Vec<String> {
    (0..3)
        .filter_map(|shift| {
            let mut bytes = vec![0; shift];
            bytes.extend_from_slice(secret);
            let encoded = base64(&bytes);
            // Characters before: they hold bits of the bytes before the secret; after: of the
            // bytes after it.
            let skip = [0, 2, 3][shift];
            let end = bytes.len() / 3 * 4 + [0, 1, 2][bytes.len() % 3];
            encoded.get(skip..end).map(str::to_owned)
        })
        .filter(|fragment| fragment.len() >= 4)
        .collect()
}

fn build(template: &Template, scope: &Scope<'_>) -> Result<Request, String> {
    let mut request = Request {
        method: "GET".into(),
        path: "/".into(),
        ..Request::default()
    };
    let mut protocol = "https".to_owned();
    for field in &template.fields {
        let Some(text) = field.text.as_deref() else {
            continue;
        };
        let filled = fill(text, scope)?;
        match &field.place {
            Place::Method => request.method = filled.to_ascii_uppercase(),
            Place::Protocol => protocol = filled,
            Place::Host => request.host = filled,
            Place::Path => request.path = filled,
            Place::Header(name) => request.headers.push((name.to_string(), filled)),
            Place::Query(name) => request.query.push((name.to_string(), filled)),
            Place::OtherSchema(_) | Place::Option(_) => {}
        }
    }
    if !["GET", "POST", "PUT", "DELETE", "PATCH"].contains(&request.method.as_str()) {
        return Err(format!(
            "The template's method `{}` is not one of GET, POST, PUT, DELETE, PATCH",
            request.method
        ));
    }
    if !is_host(&request.host) && !is_ip_host(&request.host) {
        return Err(format!(
            "The template's host, filled, is `{}`: not a host name",
            request.host
        ));
    }
    if !request.path.starts_with('/') {
        return Err("The template's path must start with `/`".into());
    }
    // The real protocol matters only online; the sandbox is plain HTTP.
    let _ = protocol;
    Ok(request)
}

/// A host name: labels of letters, digits and dashes (no port, path, user or IP tricks).
fn is_host(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 253
        && host.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// Where a host's calls go: `--hr-url` for the HR service, the host itself with `--online`;
/// never an IP address, which the vendor forbids as a template's host.
fn route(host: &str, network: &Network) -> Result<String, String> {
    if is_ip_host(host) {
        return Err(format!(
            "The host `{host}` is an IP address: the vendor's platform takes a fully qualified \
             domain name, never an IP address (the `host` of a request template's `schema`), so the \
             preview does not call it. Use the service's domain name"
        ));
    }
    if crate::net::names_this_machine(host) {
        return Err(format!(
            "The host `{host}` names this machine: the vendor's platform calls a template's host \
             from its own servers, where it is never your machine, so the preview does not call \
             it either. Use the service's public domain name"
        ));
    }
    let hr = host.to_ascii_lowercase().ends_with(HOST_SUFFIX);
    match (&network.hr_url, hr, network.online) {
        (Some(base), true, _) => Ok(base.trim_end_matches('/').to_owned()),
        (_, _, true) => Ok(format!("https://{host}")),
        (None, true, false) => Err(format!(
            "Offline: the preview does not call {host}. Start it with --hr-url URL (an \
             `iparams-lint hr-sandbox`) for the HR service, or --online to reach the real host"
        )),
        (_, false, false) => Err(format!(
            "Offline: the preview does not call {host}. Start it with --online to reach it"
        )),
    }
}

/// A template string with its `<%= … %>` placeholders filled.
fn fill(text: &str, scope: &Scope<'_>) -> Result<String, String> {
    let mut out = String::new();
    let mut from = 0;
    for (expression, start, end) in placeholders(text) {
        // The `<%=` before the expression and the `%>` after it.
        let open = text[..start].rfind("<%=").unwrap_or(start);
        let close = text[end..].find("%>").map_or(end, |at| end + at + 2);
        out.push_str(&text[from..open]);
        out.push_str(&evaluate(expression, scope)?);
        from = close;
    }
    out.push_str(&text[from..]);
    Ok(out)
}

/// One placeholder's expression: a name, `encode(…)`, or names and quoted strings joined by `+`.
fn evaluate(expression: &str, scope: &Scope<'_>) -> Result<String, String> {
    let expression = expression.trim();
    if let Some(inner) = expression
        .strip_prefix("encode(")
        .and_then(|rest| rest.strip_suffix(')'))
    {
        return Ok(base64(evaluate(inner, scope)?.as_bytes()));
    }
    let mut out = String::new();
    for term in split_terms(expression) {
        let term = term.trim();
        if let Some(quoted) = term
            .strip_prefix('\'')
            .and_then(|t| t.strip_suffix('\''))
            .or_else(|| term.strip_prefix('"').and_then(|t| t.strip_suffix('"')))
        {
            out.push_str(quoted);
        } else {
            out.push_str(&name(term, scope)?);
        }
    }
    Ok(out)
}

/// The terms of `a + ':' + b`, with `+` inside quotes kept.
fn split_terms(expression: &str) -> Vec<&str> {
    let mut terms = Vec::new();
    let mut quote = None;
    let mut start = 0;
    for (at, c) in expression.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '+') => {
                terms.push(&expression[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    terms.push(&expression[start..]);
    terms
}

fn name(term: &str, scope: &Scope<'_>) -> Result<String, String> {
    if let Some(rest) = term.strip_prefix("iparam.") {
        if let Some(key) = rest.strip_prefix('$').and_then(|r| r.strip_suffix(".url")) {
            // The full URL a passed domain check keeps for a `domain` iparam.
            let sub = text_of(&scope.iparam(key)?);
            let product = scope
                .defs
                .iter()
                .find(|d| d.key == key)
                .and_then(|d| d.product.as_deref())
                .unwrap_or("");
            let suffix = products::product(product)
                .and_then(Product::domain)
                .unwrap_or("freshdesk.com");
            return Ok(format!("https://{sub}.{suffix}"));
        }
        return Ok(text_of(&scope.iparam(rest)?));
    }
    if let Some(key) = term.strip_prefix("context.") {
        return match scope.context.get(key) {
            Some(value) => Ok(text_of(value)),
            None => Err(format!(
                "Error while substituting the templates: `context.{key}` was not given in the invocation's context"
            )),
        };
    }
    Err(format!(
        "Error while substituting the templates: `{term}` is not available on the preview's installation page"
    ))
}

/// A value as a template writes it: strings as they are, arrays joined by commas (as
/// JavaScript's `String(array)`), others as JSON.
pub fn text_of(value: &Json) -> String {
    match value {
        Json::String(s) => s.clone(),
        Json::Null => String::new(),
        Json::Array(items) => items.iter().map(text_of).collect::<Vec<_>>().join(","),
        other => other.to_string(),
    }
}

/// `bytes` in standard base64, padded: what the platform's `encode(…)` gives.
fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// One outgoing call; the answer as the page's promise gets it.
fn call(method: &str, url: &str, headers: &[(String, String)], body: &str) -> Json {
    let agent = net::agent(TIMEOUT);
    let mut builder = ureq::http::Request::builder().method(method).uri(url);
    for (name, value) in headers {
        builder = builder.header(name.as_str(), value.as_str());
    }
    let Ok(request) = builder.body(body.as_bytes().to_vec()) else {
        return failure(400, "The filled template is not a valid request");
    };
    match agent.run(request) {
        Ok(mut response) => {
            let status = response.status().as_u16();
            let headers: Map<String, Json> = response
                .headers()
                .iter()
                .filter_map(|(n, v)| Some((n.as_str().to_owned(), json!(v.to_str().ok()?))))
                .collect();
            let text = response
                .body_mut()
                .with_config()
                .limit(MAX_RESPONSE)
                .read_to_string()
                .unwrap_or_default();
            json!({
                "ok": (200..300).contains(&status),
                "status": status,
                "headers": headers,
                "response": text,
            })
        }
        Err(error) => failure(502, format!("Error in establishing connection: {error}")),
    }
}

/// INSTALL's first step: each `domain` iparam paired with the `api_key` iparam of its product,
/// checked with the product's API (docs/preview.md). Returns one outcome per pair:
/// `{"domain", "api_key", "product", "outcome": "passed"|"failed"|"skipped", "message"}`.
pub fn check_credentials(caller: &Caller<'_>) -> Json {
    let network = caller.network;
    let context = json!({});
    let scope = caller.scope(&context);
    let masker = scope.masker();
    let mut outcomes = Vec::new();
    // The page checks the domains it shows.
    let offered = caller
        .defs
        .iter()
        .filter(|d| d.visible || d.ty != Some(IparamType::Domain));
    for (domain, key_def) in credential_pairs(offered) {
        let product = domain.product.as_deref().unwrap_or("");
        let sub = text_of(&scope.iparam(&domain.key).unwrap_or_default());
        let key = text_of(&scope.iparam(&key_def.key).unwrap_or_default());
        let (outcome, message) = credential(product, &sub, &key, network);
        masker.log(&format!(
            "preview: credential check {}/{} ({product}): {outcome}",
            domain.key, key_def.key
        ));
        outcomes.push(json!({
            "domain": domain.key,
            "api_key": key_def.key,
            "product": product,
            "outcome": outcome,
            "message": message,
        }));
    }
    masker.json(json!(outcomes))
}

/// One pair's check: the call the installation page makes for its product (docs/preview.md).
fn credential(product: &str, sub: &str, key: &str, network: &Network) -> (&'static str, String) {
    // An empty field is the required check's to report.
    if sub.is_empty() || key.is_empty() {
        return ("skipped", String::new());
    }
    if !is_host(sub) || sub.contains('.') {
        return ("failed", "Domain or API key is not matching".into());
    }
    // Where the installation page checks the pair: on the account's host, under the product's
    // first domain, but for Freshchat's shared API and the HR service's own check.
    let domain = products::product(product)
        .and_then(Product::domain)
        .unwrap_or_default();
    let on_account = |path: &str| format!("https://{sub}.{domain}{path}");
    let (url, header, value) = match (product, &network.hr_url, network.online) {
        (hr_service::PRODUCT, Some(base), _) => (
            credential_check_url(Some(base), sub),
            "Authorization",
            format!("Bearer {key}"),
        ),
        (_, _, false) => {
            return (
                "skipped",
                format!(
                    "The {product} domain and API key were not checked: the preview is offline \
                     (--hr-url checks the HR service's, --online every product's)"
                ),
            );
        }
        ("freshdesk", ..) => (
            on_account("/api/v2/settings/helpdesk"),
            "Authorization",
            format!("Basic {}", base64(key.as_bytes())),
        ),
        ("freshservice", ..) => (
            on_account("/api/v2/agents"),
            "Authorization",
            format!("Basic {}", base64(key.as_bytes())),
        ),
        ("freshsales", ..) => (
            on_account("/api/settings/sales_accounts/fields"),
            "Authorization",
            format!("Token token={key}"),
        ),
        ("freshchat", ..) => (
            format!("https://api.{domain}/v2/agents"),
            "Authorization",
            format!("Bearer {key}"),
        ),
        ("freshcaller", ..) => (on_account("/api/v1/users"), "X-Api-Auth", key.to_owned()),
        (hr_service::PRODUCT, ..) => (
            credential_check_url(None, sub),
            "Authorization",
            format!("Bearer {key}"),
        ),
        ("freshworks_crm", ..) => (
            on_account("/crm/sales/api/contacts/filters"),
            "Authorization",
            format!("Token token={key}"),
        ),
        _ => {
            return (
                "skipped",
                format!("Product `{product}` has no credential check on the installation page"),
            );
        }
    };
    let answer = call("GET", &url, &[(header.to_owned(), value)], "");
    if answer["status"] == 200 {
        ("passed", String::new())
    } else {
        ("failed", "Domain or API key is not matching".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_standard_alphabet() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"key:X"), "a2V5Olg=");
        // The two last characters of the alphabet.
        assert_eq!(base64(&[0xfb, 0xff]), "+/8=");
    }

    #[test]
    fn placeholders_are_filled_from_values_stored_secrets_and_context() {
        let defs = iparams_core::app::Outline::of(
            r#"{
              "domain": {"type": "domain", "type_attributes": {"product": "freshteam"}},
              "key": {"type": "api_key", "secure": true, "type_attributes": {"product": "freshteam"}}
            }"#,
        )
        .iparams;
        let Json::Object(values) = json!({"domain": "acme"}) else {
            unreachable!()
        };
        let Json::Object(stored) = json!({"key": "secret"}) else {
            unreachable!()
        };
        let context = json!({"id": 7});
        let scope = Scope {
            defs: &defs,
            values: &values,
            stored: &stored,
            context: &context,
        };
        assert_eq!(
            fill("<%= iparam.domain %>.freshteam.com", &scope).unwrap(),
            "acme.freshteam.com"
        );
        assert_eq!(
            fill("Bearer <%=iparam.key%>", &scope).unwrap(),
            "Bearer secret"
        );
        assert_eq!(fill("/e/<%= context.id %>", &scope).unwrap(), "/e/7");
        assert_eq!(
            fill("Basic <%= encode(iparam.key + ':X') %>", &scope).unwrap(),
            format!("Basic {}", base64(b"secret:X"))
        );
        assert_eq!(
            fill("<%= iparam.$domain.url %>", &scope).unwrap(),
            "https://acme.freshteam.com"
        );
        assert!(fill("<%= context.missing %>", &scope).is_err());
    }

    #[test]
    fn whitelisted_domains_allow_their_hosts_only() {
        let manifest = iparams_core::app::manifest::read(
            r#"{"platform-version": "2.2", "whitelisted-domains": ["https://*.example.com", "https://api.other.test"]}"#,
        )
        .manifest;
        assert!(whitelisted(Some(&manifest), "https", "a.example.com"));
        assert!(!whitelisted(
            Some(&manifest),
            "https",
            "example.com.evil.test"
        ));
        assert!(!whitelisted(Some(&manifest), "http", "a.example.com"));
        assert!(whitelisted(Some(&manifest), "https", "api.other.test"));
        assert!(!whitelisted(None, "https", "api.other.test"));
    }

    #[test]
    fn hosts_are_routed_by_the_flags() {
        let hr = Network {
            hr_url: Some("http://127.0.0.1:9/".into()),
            online: false,
            ..Network::default()
        };
        assert_eq!(
            route("acme.freshteam.com", &hr).unwrap(),
            "http://127.0.0.1:9"
        );
        assert!(
            route("api.example.com", &hr)
                .unwrap_err()
                .contains("--online")
        );
        let online = Network {
            hr_url: None,
            online: true,
            ..Network::default()
        };
        assert_eq!(
            route("api.example.com", &online).unwrap(),
            "https://api.example.com"
        );
        assert!(!is_host("evil.com/x"));
        assert!(!is_host("a@b"));
        assert!(!is_host("127.0.0.1:80"));
    }

    #[test]
    fn secure_values_are_masked_in_every_form_a_call_gives_them() {
        let masker = Masker::new(["4821".to_owned(), "s3cr3t&pass word".to_owned()]);
        let secret = "s3cr3t&pass word";
        let answer = json!({
            "status": 200,
            "headers": {"x-pin": "4821", "x-auth": format!("Basic {}", base64(format!("user:{secret}").as_bytes()))},
            "response": format!(
                "{} {} {} /q?k={} pin={}",
                base64(secret.as_bytes()),
                base64(format!("{secret}:X").as_bytes()),
                base64(format!("ab{secret}").as_bytes()),
                percent_encode(secret),
                4821
            ),
            "pin": 4821,
            "message": "`s3cr3t&pass word` is not an absolute URL; key sk_live_0123456789abcdefABCDEF",
        });
        let masked = masker.answer(answer).to_string();
        for form in [
            secret.to_owned(),
            "4821".to_owned(),
            percent_encode(secret),
            base64(secret.as_bytes()),
            "sk_live_0123456789abcdefABCDEF".to_owned(),
        ] {
            assert!(!masked.contains(&form), "{form} in {masked}");
        }
        for shift in 0..3 {
            let mut text = "xy"[..shift].to_owned();
            text.push_str(secret);
            text.push_str("!?");
            let encoded = base64(text.as_bytes());
            let shown = masker.text(&encoded);
            assert!(shown.contains(MASK), "{encoded} → {shown}");
            // What is left cannot be decoded back to the secret.
            assert!(!shown.contains(&base64(secret.as_bytes())[..8]), "{shown}");
        }
        assert_eq!(masker.text("no secret here"), "no secret here");
        assert_eq!(masker.json(json!(200)), json!(200));
    }

    #[test]
    fn any_piece_of_a_secure_value_is_masked() {
        let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
        let masker = Masker::new([secret.to_owned(), "s3cret-value".to_owned()]);
        // What a message quotes of a value taken for a URL: before its first `/`, after it.
        assert_eq!(
            masker.text("`wJalrXUtnFEMI` is not in the whitelisted domains"),
            "`****` is not in the whitelisted domains"
        );
        assert_eq!(
            masker.json(json!({"url": "https://api.test/K7MDENG/bPxRf?q=1"})),
            json!({"url": "https://api.test****?q=1"})
        );
        // Pieces shorter than six characters are words, not the value.
        assert_eq!(
            masker.text("the value of `region`: wJalr"),
            "the value of `region`: wJalr"
        );
        // Multi-byte characters are counted as characters.
        let masker = Masker::new(["äöü€ßéèçñ".to_owned()]);
        assert_eq!(masker.text("x üä€ßéè y"), "x üä€ßéè y");
        assert_eq!(masker.text("x ü€ßéèç y"), "x **** y");
    }

    #[test]
    fn ip_addresses_are_never_called() {
        for host in [
            "127.0.0.1",
            "2130706433",
            "0x7f.1",
            "0x7f000001",
            "0177.0.0.1",
            "169.254.169.254",
            "10.0.0.1.",
            "::1",
            "[::1]",
            "fe80::1",
            "[fe80::1%25eth0]",
        ] {
            assert!(is_ip_host(host), "{host}");
            let online = Network {
                hr_url: None,
                online: true,
                ..Network::default()
            };
            let refusal = route(host, &online).unwrap_err();
            assert!(refusal.contains("is an IP address"), "{refusal}");
            assert!(
                refusal.contains("`host` of a request template"),
                "{refusal}"
            );
        }
        for host in [
            "api.example.com",
            "acme.freshteam.com",
            "1password.com",
            "x.y0",
        ] {
            assert!(!is_ip_host(host), "{host}");
        }
    }

    #[test]
    fn names_of_this_machine_are_refused_online() {
        let online = Network {
            hr_url: None,
            online: true,
            ..Network::default()
        };
        for host in [
            "localhost",
            "LOCALHOST.",
            "api.localhost",
            "localhost.localdomain",
        ] {
            let refusal = route(host, &online).unwrap_err();
            assert!(refusal.contains("names this machine"), "{refusal}");
        }
        for host in ["localhost.example.com", "mylocalhost.com", "notlocalhost"] {
            assert!(route(host, &online).is_ok(), "{host}");
        }
    }
}
