//! What must hold of every report and every fix, whatever the input: the property tests
//! (tests/properties.rs) and the fuzz targets (fuzz/) both check these, so a failure found by
//! either means the same thing. Each check panics with what broke.
#![allow(dead_code)]

use clap::ValueEnum;
use iparams_core::syntax::parse_value;
use iparams_core::values::preview_get;
use iparams_core::{
    Applicability, Edit, FileReport, LintOptions, Linter, RuleSettings, Severity, SourceText, Span,
    syntax_fixable,
};
use iparams_lint::check::masked_diff;
use iparams_lint::cli::Format;
use iparams_lint::render::{self, CheckedFile, RenderOptions, Summary};
use serde::de::IgnoredAny;

/// The definitions values are checked against: every type, options, defaults, regexes (one
/// of them invalid), required, hidden and secure iparams, and an unknown type. None of its
/// patterns backtracks catastrophically: abandoned matches would pile up over a long run.
pub const DEFINITIONS: &[u8] = include_bytes!("../fixtures/reliability/definitions.json");

/// Where the definitions are said to be, in findings.
pub const DEFINITIONS_PATH: &str = "config/iparams.json";

/// Every span of `report` (findings, their related places, their edits, the redactions) lies
/// within `text` and on character boundaries, so every renderer can slice and position it.
pub fn spans_fit(text: &str, report: &FileReport) {
    for diagnostic in &report.diagnostics {
        let rule = diagnostic.rule;
        span_fits(text, diagnostic.span, rule);
        for label in &diagnostic.related {
            span_fits(text, label.span, rule);
        }
        for edit in diagnostic.fix.iter().flat_map(|fix| &fix.edits) {
            span_fits(text, edit.span, rule);
        }
    }
    for span in &report.redactions {
        span_fits(text, *span, "a redaction");
    }
}

fn span_fits(text: &str, span: Span, what: &str) {
    assert!(
        span.start <= span.end && span.end <= text.len(),
        "{what}: span {span:?} is outside the text ({} bytes)",
        text.len()
    );
    assert!(
        text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
        "{what}: span {span:?} splits a character"
    );
}

/// Fixes `bytes` up to `allowed` and checks the outcome: a file with a syntax error that has
/// no fix of its own (anything but a trailing comma) is left alone; otherwise each pass changed
/// only the bytes of its edits, inside the top-level object,
/// the result is still well-formed, no fixable finding is left (a fix that would break the
/// JSON is refused, and shows here), and fixing it again changes nothing. Returns the fixed
/// text, if any.
pub fn fix_is_sound(linter: &mut Linter, bytes: &[u8], allowed: Applicability) -> Option<String> {
    let rules = RuleSettings::default();
    let source = SourceText::decode(bytes);
    let outcome = linter.fix(&source, &rules, allowed);
    let before = linter.lint_with(&source, &rules);
    if !before.well_formed && !syntax_fixable(&before.diagnostics) {
        assert_eq!(
            outcome.text, None,
            "a file with a syntax error that no fix mends was rewritten"
        );
        return None;
    }
    let mut current = source.text().to_owned();
    for pass in &outcome.passes {
        current = only_edits_changed(&current, pass);
    }
    let fixed = outcome.text.as_deref().unwrap_or(source.text());
    assert_eq!(
        current, fixed,
        "the fixed text is not what the passes' edits make"
    );
    let after = linter.lint_with(&SourceText::decode(fixed.as_bytes()), &rules);
    assert!(after.well_formed, "the fixes broke the JSON:\n{fixed}");
    let left: Vec<_> = after
        .diagnostics
        .iter()
        .filter(|d| d.fix.as_ref().is_some_and(|f| f.applicability <= allowed))
        .map(|d| d.rule)
        .collect();
    assert!(
        left.is_empty(),
        "fixable findings remain {left:?} in:\n{fixed}"
    );
    let again = linter.fix(&SourceText::decode(fixed.as_bytes()), &rules, allowed);
    assert_eq!(again.text, None, "a second fix changed the text:\n{fixed}");
    outcome.text
}

/// Applies one pass of `edits` to `before`, checking on the way that they are in bounds, on
/// character boundaries, apart from each other and within the top-level object (what surrounds
/// it, a byte-order mark or the final newline, is never touched).
fn only_edits_changed(before: &str, edits: &[Edit]) -> String {
    let object = Span::new(
        before.find('{').expect("a fixed file is an object"),
        before.rfind('}').expect("a fixed file is an object") + 1,
    );
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|edit| (edit.span.start, edit.span.end));
    let mut after = String::with_capacity(before.len());
    let mut at = 0;
    for edit in sorted {
        span_fits(before, edit.span, "an applied edit");
        assert!(
            object.contains(edit.span),
            "edit {edit:?} reaches outside the top-level object {object:?}"
        );
        assert!(at <= edit.span.start, "edits overlap at {:?}", edit.span);
        after.push_str(&before[at..edit.span.start]);
        after.push_str(&edit.replacement);
        at = edit.span.end;
    }
    after.push_str(&before[at..]);
    after
}

/// Which output formats a check renders its report in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Renderings {
    /// Every format: the property tests and the replayed fuzz findings.
    Every,
    /// One, chosen by the text's length: a fuzz execution. Six renderings took half of each
    /// `lint` execution, and libFuzzer's bookkeeping grows with the code a run covers; the
    /// fuzzer still reaches every format, and keeps one while it mutates an input's bytes.
    OneByLength,
}

/// `report` of `text` in the formats `renderings` asks; the JSON ones must be one JSON document
/// each. The width varies with the text, so narrow wrapping is exercised too: 119 columns of
/// it, prime to the six formats, so that each format meets every width.
pub fn render(path: &str, text: &str, report: &FileReport, renderings: Renderings) -> Vec<String> {
    let mut summary = Summary::default();
    summary.add(report);
    let options = RenderOptions {
        color: false,
        width: 20 + text.len() % 119,
        quiet: false,
        fail_level: Severity::Error,
        max_diagnostics: None,
    };
    let every = Format::value_variants();
    let formats = match renderings {
        Renderings::Every => every,
        Renderings::OneByLength => std::slice::from_ref(&every[text.len() % every.len()]),
    };
    formats
        .iter()
        .map(|&format| {
            let renderer = render::renderer(format, options);
            let file = CheckedFile::new(path, text, report);
            if format == Format::Sarif {
                return sarif_document(&*renderer, &file, &summary);
            }
            let output = render::document(&*renderer, &file, &summary);
            // Read for its syntax only: building the document would cost more than the check.
            if format == Format::Json
                && let Err(error) = serde_json::from_str::<IgnoredAny>(&output)
            {
                panic!("{format:?} output is not JSON ({error}):\n{output}");
            }
            output
        })
        .collect()
}

/// What `render::document` makes in SARIF, less its opening (the tool and its rule table:
/// hundreds of kilobytes, the same in every document, nothing from the input), which is
/// checked once per process: copying and reading it again for each input cost more than all
/// the rest of a check. The rest must make one JSON document with a short opening.
fn sarif_document(
    renderer: &dyn render::Renderer,
    file: &CheckedFile<'_>,
    summary: &Summary,
) -> String {
    static OPENING: std::sync::LazyLock<()> = std::sync::LazyLock::new(|| {
        let mut opening = Vec::new();
        render::renderer(
            Format::Sarif,
            RenderOptions {
                color: false,
                width: 80,
                quiet: false,
                fail_level: Severity::Error,
                max_diagnostics: None,
            },
        )
        .begin(&Summary::default(), &mut opening)
        .expect("writing to memory");
        let opening = String::from_utf8(opening).expect("SARIF is UTF-8");
        assert!(
            opening.ends_with("\"results\":["),
            "the SARIF opening ends with its results"
        );
        let empty = format!("{opening}]}}]}}");
        serde_json::from_str::<IgnoredAny>(&empty).expect("the SARIF opening is JSON");
    });
    std::sync::LazyLock::force(&OPENING);
    let mut rest = b"{\"runs\":[{\"results\":[".to_vec();
    let mut body = Vec::new();
    let _ = renderer.file(file, &mut body);
    rest.extend_from_slice(&body);
    let _ = renderer.end(summary, !body.is_empty(), &mut rest);
    let rest = String::from_utf8(rest).expect("SARIF output is UTF-8");
    if let Err(error) = serde_json::from_str::<IgnoredAny>(&rest) {
        panic!("Sarif output is not JSON ({error}):\n{rest}");
    }
    rest
}

/// Lints `bytes` as an iparams.json and renders the report in the formats `renderings` asks:
/// spans fit, and no secure default is shown.
pub fn lint_is_sound(linter: &mut Linter, bytes: &[u8], renderings: Renderings) {
    let source = SourceText::decode(bytes);
    let report = linter.lint(&source);
    spans_fit(source.text(), &report);
    let mut outputs = render(DEFINITIONS_PATH, source.text(), &report, renderings);
    // `--diff` is an output too: every fix, shown as a diff. Fixing checks the text again, so
    // it is asked only when a finding has a fix: without one there is nothing to show.
    if report
        .diagnostics
        .iter()
        .any(|finding| finding.fix.is_some())
    {
        let fixed = linter.fix(&source, &RuleSettings::default(), Applicability::Unsafe);
        outputs.push(masked_diff(DEFINITIONS_PATH, bytes, &fixed));
    }
    let secrets = secure_strings(source.text(), |definitions| {
        let mut secrets: Vec<&str> = definitions
            .values()
            .filter(|iparam| iparam["secure"] == true)
            .filter_map(|iparam| iparam["default_value"].as_str())
            .collect();
        // Long random tokens, wherever they are but in `regex`.
        for iparam in definitions.values().filter_map(|iparam| iparam.as_object()) {
            for (attribute, value) in iparam {
                if attribute != "regex" {
                    random_tokens(value, &mut secrets);
                }
            }
        }
        secrets
    });
    secrets_stay_hidden(&outputs, &secrets);
}

/// A file checked in stretches on every thread, as a large one is, finds what one thread
/// reading it whole finds, in the same order: wherever the stretches were guessed to start.
pub fn parallel_check_is_sequential(bytes: &[u8]) {
    let source = SourceText::decode(bytes);
    let lint = |parallel_from| {
        Linter::new(LintOptions {
            parallel_from,
            ..LintOptions::default()
        })
        .lint(&source)
    };
    let (whole, stretched) = (lint(usize::MAX), lint(0));
    assert_eq!(stretched.diagnostics, whole.diagnostics);
    assert_eq!(stretched.redactions, whole.redactions);
    assert_eq!(stretched.iparams, whole.iparams);
}

/// The strings of `value` that are a long random token from end to end.
fn random_tokens<'v>(value: &'v serde_json::Value, found: &mut Vec<&'v str>) {
    match value {
        serde_json::Value::String(text)
            if iparams_core::secrets::random_token(text) == Some((0, text.len())) =>
        {
            found.push(text);
        }
        serde_json::Value::Array(items) => items.iter().for_each(|item| random_tokens(item, found)),
        serde_json::Value::Object(members) => {
            members.values().for_each(|item| random_tokens(item, found));
        }
        _ => {}
    }
}

/// Checks `bytes` as a values file against `definitions` and renders the report in the
/// formats `renderings` asks: spans fit, no secure value is shown, and what
/// `client.iparams.get()` would return (when it can be known) is a JSON object without secure
/// iparams.
pub fn values_are_sound(
    linter: &mut Linter,
    definitions: &[u8],
    bytes: &[u8],
    renderings: Renderings,
) {
    let definitions_source = SourceText::decode(definitions);
    let values = SourceText::decode(bytes);
    let report = linter.check_values(&definitions_source, &values, DEFINITIONS_PATH);
    spans_fit(values.text(), &report);
    let outputs = render("values.json", values.text(), &report, renderings);
    // Definitions that are not plain JSON declare nothing the oracle can know of.
    let declared: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(definitions).unwrap_or_default();
    let secure: Vec<&str> = declared
        .iter()
        .filter(|(_, iparam)| iparam["secure"] == true)
        .map(|(key, _)| key.as_str())
        .collect();
    let secrets = secure_strings(values.text(), |given| {
        secure
            .iter()
            .filter_map(|key| given.get(*key)?.as_str())
            .collect()
    });
    secrets_stay_hidden(&outputs, &secrets);
    if let Ok(preview) = preview_get(
        iparams_core::values::Definitions::Json {
            source: &definitions_source,
            path: DEFINITIONS_PATH,
        },
        &values,
    ) {
        // Read with the linter's own parser: it takes any JSON number, such as 1e400.
        let (object, errors) = parse_value(&preview.json);
        assert!(
            errors.is_empty(),
            "get() preview is not JSON: {}",
            preview.json
        );
        let object = object.filter(|o| o.as_object().is_some());
        let object =
            object.unwrap_or_else(|| panic!("get() preview is not an object: {}", preview.json));
        for key in &secure {
            assert!(
                object.get(key).is_none(),
                "secure `{key}` is in the get() preview"
            );
        }
    }
}

/// The strings `pick` finds in `text` read as a JSON object, kept only when they unmistakably
/// look secret: 16 or more letters and digits with both kinds, written once in a text without
/// escapes. Anything else could legitimately appear in output, quoted from elsewhere.
fn secure_strings(
    text: &str,
    pick: impl Fn(&serde_json::Map<String, serde_json::Value>) -> Vec<&str>,
) -> Vec<String> {
    if text.contains('\\') {
        return Vec::new();
    }
    let Ok(object) = serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(text)
    else {
        return Vec::new();
    };
    pick(&object)
        .into_iter()
        .filter(|secret| {
            secret.len() >= 16
                && secret.bytes().all(|b| b.is_ascii_alphanumeric())
                && secret.bytes().any(|b| b.is_ascii_digit())
                && secret.bytes().any(|b| b.is_ascii_alphabetic())
                && text.matches(*secret).count() == 1
        })
        .map(str::to_owned)
        .collect()
}

fn secrets_stay_hidden(outputs: &[String], secrets: &[String]) {
    for secret in secrets {
        for output in outputs {
            // Never print the secret itself, even in this failure message.
            assert!(
                !output.contains(secret.as_str()),
                "a secure value ({} characters) is shown in:\n{}",
                secret.len(),
                output.replace(secret.as_str(), "<SECRET>")
            );
        }
    }
}

// ---- The surfaces around iparams.json --------------------------------------------------------
//
// Each check below takes plain bytes, split and read by the check itself (`Input`), so that a
// fuzz target and the replay of its findings (tests/properties.rs) run exactly the same code.

/// Reads fuzz bytes as a sequence of choices and texts; once the bytes are used up every choice
/// is 0 and every text empty, so any input makes a complete case.
pub struct Input<'b> {
    bytes: &'b [u8],
}

impl<'b> Input<'b> {
    pub fn new(bytes: &'b [u8]) -> Self {
        Self { bytes }
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    pub fn byte(&mut self) -> u8 {
        let Some((&first, rest)) = self.bytes.split_first() else {
            return 0;
        };
        self.bytes = rest;
        first
    }

    /// Heads or tails.
    pub fn coin(&mut self) -> bool {
        self.byte().is_multiple_of(2)
    }

    /// One of `count` choices.
    pub fn choose(&mut self, count: usize) -> usize {
        usize::from(self.byte()) % count
    }

    /// A small number, mostly under 8, sometimes large.
    pub fn small(&mut self) -> u32 {
        match self.byte() {
            b @ 0..=199 => u32::from(b % 8),
            b @ 200..=249 => u32::from(b),
            _ => u32::from(self.byte()) << 8 | u32::from(self.byte()),
        }
    }

    /// Bytes up to the next 0xFF (not in UTF-8 text, so a text never needs to escape it).
    pub fn chunk(&mut self) -> &'b [u8] {
        let end = self
            .bytes
            .iter()
            .position(|&b| b == 0xFF)
            .unwrap_or(self.bytes.len());
        let (chunk, rest) = self.bytes.split_at(end);
        self.bytes = rest.get(1..).unwrap_or_default();
        chunk
    }

    /// A text up to the next 0xFF, its invalid bytes replaced.
    pub fn text(&mut self) -> String {
        String::from_utf8_lossy(self.chunk()).into_owned()
    }
}

/// The app every app check runs in: the example app's manifest, iparams.json and callbacks.
pub const APP_MANIFEST: &str = include_str!("../fixtures/apps/hr-sync/manifest.json");
pub const APP_IPARAMS: &str = include_str!("../fixtures/apps/hr-sync/config/iparams.json");
pub const APP_CALLBACKS: &str = include_str!("../fixtures/apps/hr-sync/config/assets/iparams.js");

/// An app whose config/requests.json and one script come from `bytes` (`requests 0xFF script`;
/// the script is read both as a front-end page script and as serverless code), checked with
/// every rule: every file's spans fit its text, the formats `renderings` asks render every
/// report (the JSON ones parse), and no credential written in a header or query value of a
/// template is shown.
pub fn app_is_sound(linter: &mut Linter, bytes: &[u8], renderings: Renderings) {
    use iparams_core::app::{AppFile, AppInput};
    let mut input = Input::new(bytes);
    let requests = input.chunk();
    let script = input.chunk();
    let mut app = AppInput::new(
        AppFile {
            relative: "manifest.json",
            path: "manifest.json",
            bytes: APP_MANIFEST.as_bytes(),
        },
        "config",
    );
    let files: [(&str, &[u8]); 5] = [
        ("config/iparams.json", APP_IPARAMS.as_bytes()),
        ("config/assets/iparams.js", APP_CALLBACKS.as_bytes()),
        ("config/requests.json", requests),
        ("app/scripts/app.js", script),
        ("server/server.js", script),
    ];
    for (path, bytes) in files {
        app.add(AppFile {
            relative: path,
            path,
            bytes,
        });
    }
    app.config_entries = vec![
        ("iparams.json".into(), false),
        ("requests.json".into(), false),
        ("assets".into(), true),
    ];
    let checked = linter.check_app(&app, &RuleSettings::default());
    let secrets = template_credentials(requests);
    for file in &checked.files {
        spans_fit(file.source.text(), &file.report);
        let outputs = render(&file.path, file.source.text(), &file.report, renderings);
        secrets_stay_hidden(&outputs, &secrets);
    }
}

/// The header and query values of `requests` (read as requests.json) that unmistakably look
/// like a credential written out, as `secure_strings` tells them.
fn template_credentials(requests: &[u8]) -> Vec<String> {
    let Ok(text) = std::str::from_utf8(requests) else {
        return Vec::new();
    };
    secure_strings(text, |templates| {
        let mut found = Vec::new();
        for template in templates.values() {
            let schema = &template["schema"];
            for place in ["headers", "query"] {
                if let Some(values) = schema[place].as_object() {
                    found.extend(values.values().filter_map(|value| value.as_str()));
                }
            }
        }
        // Only what the product promises to mask: 20 characters and more.
        found.retain(|text| text.len() >= 20 && iparams_core::secrets::looks_secret(text));
        found
    })
}

/// JavaScript read by the app's oxc-based readers: the first byte picks the file's kind and
/// where it runs, the rest is the text. Every span they report lies in the text, on character
/// boundaries, in order.
pub fn scripts_are_sound(bytes: &[u8]) {
    use iparams_core::app::{InvokeContext, Script, js};
    let (choice, rest) = bytes.split_first().unwrap_or((&0, &[]));
    let text = String::from_utf8_lossy(rest);
    let paths = [
        "app/scripts/app.js",
        "app/index.html",
        "server/server.ts",
        "app/App.tsx",
        "app/page.vue",
        "config/assets/iparams.js",
    ];
    let path = paths[usize::from(choice % 6)];
    let script =
        [Script::Frontend, Script::Serverless, Script::Callbacks][usize::from(choice / 6 % 3)];
    let facts = js::analyze_file(&text, path, script);
    let mut spans: Vec<Span> = Vec::new();
    spans.extend(facts.syntax_errors.iter().map(|e| e.span));
    spans.extend(facts.functions.iter().map(|f| f.1));
    spans.extend(facts.function_values.iter().map(|f| f.1));
    for call in &facts.utils_calls {
        spans.push(call.span);
        spans.extend(call.key.iter().map(|k| k.1));
        for attribute in &call.attributes {
            spans.extend([attribute.name_span, attribute.value_span]);
        }
    }
    spans.extend(facts.reads.iter().map(|r| r.span));
    for invocation in &facts.invocations {
        spans.push(invocation.span);
        spans.extend(invocation.template.iter().map(|t| t.span));
        spans.extend(invocation.keys.iter().map(|k| k.span));
        match &invocation.context {
            InvokeContext::Absent => {}
            InvokeContext::Literal { keys, span, .. } => {
                spans.push(*span);
                spans.extend(keys.iter().map(|k| k.span));
            }
            InvokeContext::Computed(span) => spans.push(*span),
        }
        if let Some(body) = &invocation.body {
            spans.push(body.span);
            for field in &body.fields {
                spans.extend([field.name_span, field.value_span]);
            }
        }
    }
    for request in &facts.legacy_requests {
        spans.extend([request.span, request.method.span]);
        spans.extend(request.url.iter().map(|u| u.span));
    }
    for span in spans {
        span_fits(&text, span, "a script's reading");
    }
}

/// What a form posts to the preview's store endpoint, from `bytes`: an object of keys (mostly
/// those of `definitions`) to strings, arrays of strings or booleans, as JSON. Checked as
/// `iparams-lint values` checks (the endpoint runs the same code): `values_are_sound`.
pub fn form_values_are_sound(
    linter: &mut Linter,
    definitions: &[u8],
    bytes: &[u8],
    renderings: Renderings,
) {
    let declared: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(definitions).unwrap_or_default();
    let keys: Vec<&String> = declared.keys().collect();
    let mut input = Input::new(bytes);
    let mut form = serde_json::Map::new();
    while !input.is_empty() {
        let key = match input.choose(8) {
            0 => input.text(),
            _ if keys.is_empty() => input.text(),
            _ => keys[input.choose(keys.len())].clone(),
        };
        let value = match input.choose(4) {
            0 => serde_json::Value::Bool(input.coin()),
            1 => (0..input.choose(5))
                .map(|_| serde_json::Value::String(input.text()))
                .collect(),
            _ => serde_json::Value::String(input.text()),
        };
        form.insert(key, value);
    }
    let posted = serde_json::to_vec(&form).expect("a map of strings serialises");
    values_are_sound(linter, definitions, &posted, renderings);
}

/// How many HTTP statuses the sandbox documents (lib.rs of iparams-sandbox); 500 is not one.
pub const SANDBOX_STATUSES: [u16; 11] = [200, 201, 400, 401, 403, 404, 405, 406, 413, 415, 429];

/// One request to the HR sandbox, built from `bytes` (method, path, query, headers, body),
/// answered by `service` in process: a documented status, a JSON body (errors in the
/// document's shape), the rate-limit headers, and never a key in the answer.
pub fn sandbox_is_sound(
    service: &iparams_sandbox::Service,
    tokens: &iparams_sandbox::Tokens,
    port: u16,
    bytes: &[u8],
) {
    let mut input = Input::new(bytes);
    let methods = [
        "GET", "POST", "PUT", "DELETE", "PATCH", "get", "HEAD", "OPTIONS",
    ];
    let method = match input.choose(9) {
        8 => input.text(),
        m => methods[m].to_owned(),
    };
    let paths = [
        "/api/employees",
        "/api/employees/1",
        "/api/employees/2/time_offs",
        "/api/time_offs",
        "/api/time_offs/1",
        "/api/time_offs/1/approve",
        "/api/time_offs/1/cancel",
        "/api/departments",
        "/api/branches",
        "/api/roles",
        "/api/employee_fields",
        "/api/time_off_types",
        "/api/time_off_types/1",
    ];
    let mut target = match input.choose(paths.len() + 1) {
        p if p < paths.len() => paths[p].to_owned(),
        _ => input.text(),
    };
    target.push_str(&input.text());
    let keys = [
        &tokens.account_admin,
        &tokens.admin,
        &tokens.hr_partner,
        &tokens.reporting_manager,
        &tokens.employee,
    ];
    let mut headers = Vec::new();
    match input.choose(4) {
        0 => headers.push(("Host".to_owned(), input.text())),
        1 => {}
        _ => headers.push(("host".to_owned(), format!("127.0.0.1:{port}"))),
    }
    match input.choose(7) {
        5 => headers.push(("Authorization".to_owned(), input.text())),
        6 => {}
        k => headers.push((
            "authorization".to_owned(),
            format!("Bearer {}", keys[k % 5]),
        )),
    }
    for _ in 0..input.choose(4) {
        let name = ["accept", "content-type", "Content-Type", "x-other"][input.choose(4)];
        headers.push((name.to_owned(), input.text()));
    }
    let body = match input.choose(8) {
        0 => None,
        _ => Some(input.chunk().to_vec()),
    };
    let request = iparams_sandbox::Incoming {
        method,
        target,
        headers,
        body,
        ..Default::default()
    };
    let answer = service.handle(&request);
    assert!(
        SANDBOX_STATUSES.contains(&answer.status),
        "status {} is not documented: {request:?} → {}",
        answer.status,
        answer.body
    );
    let body: serde_json::Value = serde_json::from_str(&answer.body)
        .unwrap_or_else(|error| panic!("the body is not JSON ({error}): {}", answer.body));
    if answer.status >= 400 {
        let errors = body["errors"].as_array();
        assert!(
            errors.is_some_and(|errors| !errors.is_empty()
                && errors
                    .iter()
                    .all(|e| e["code"].is_string() && e["message"].is_string())),
            "an error answer not in the document's shape: {}",
            answer.body
        );
    }
    for name in [
        "x-ratelimit-total",
        "x-ratelimit-remaining",
        "x-ratelimit-used-currentrequest",
        "content-type",
    ] {
        assert!(
            answer.headers.iter().any(|(n, _)| n == name),
            "no {name} header on {}",
            answer.status
        );
    }
    for key in keys {
        assert!(
            !answer.body.contains(key.as_str())
                && !answer.headers.iter().any(|(_, v)| v.contains(key.as_str())),
            "an API key is shown in the answer"
        );
    }
}

/// Lines of `text` as the protocol counts them (`\n`, `\r\n` or a lone `\r` ends one): each
/// line's content, as byte ranges. Written for clarity, as the reference for positions.rs.
fn protocol_lines(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'\n' => {
                lines.push((start, at));
                start = at + 1;
            }
            b'\r' => {
                lines.push((start, at));
                if bytes.get(at + 1) == Some(&b'\n') {
                    at += 1;
                }
                start = at + 1;
            }
            _ => {}
        }
        at += 1;
    }
    lines.push((start, bytes.len()));
    lines
}

fn units(text: &str, encoding: iparams_lint::lsp::positions::Encoding) -> u32 {
    use iparams_lint::lsp::positions::Encoding;
    let count = match encoding {
        Encoding::Utf8 => text.len(),
        Encoding::Utf16 => text.encode_utf16().count(),
        Encoding::Utf32 => text.chars().count(),
    };
    u32::try_from(count).expect("a fuzz text is short")
}

/// positions.rs against the reference above, for a text and positions from `bytes`: every
/// offset's position is on a line of the text within its content; a position read back gives
/// the offset again (on character boundaries outside a `\r\n`); the cursor, asked in order,
/// agrees with the map; any position, however far out, gives an offset in the text on a
/// character boundary, and ranges come back in order.
pub fn positions_are_sound(bytes: &[u8]) {
    use iparams_lint::lsp::positions::{Cursor, Encoding, LineMap};
    use lsp_types::{Position, Range};
    let mut input = Input::new(bytes);
    let encoding = [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32][input.choose(3)];
    let text = input.text();
    let map = LineMap::new(&text);
    let lines = protocol_lines(&text);
    let mut cursor = Cursor::new(&text, &map, encoding);
    // Every offset of a short text; about 512 spread over a long one (each costs its line).
    let step = (text.len() / 512).max(1);
    for offset in (0..=text.len()).step_by(step) {
        let position = map.position(&text, offset, encoding);
        let (start, end) = *lines.get(position.line as usize).unwrap_or_else(|| {
            panic!(
                "offset {offset} is on line {}, past the text",
                position.line
            )
        });
        let floor = (0..=offset)
            .rev()
            .find(|&o| text.is_char_boundary(o))
            .unwrap_or(0);
        assert!(
            start <= floor.max(start) && floor <= end.max(floor),
            "offset {offset}: line {} is {start}..{end}",
            position.line
        );
        let expected = Position {
            line: position.line,
            character: units(&text[start..floor.clamp(start, end)], encoding),
        };
        assert_eq!(position, expected, "offset {offset} of {text:?}");
        assert_eq!(
            cursor.position(offset),
            position,
            "the cursor at {offset} of {text:?}"
        );
        if text.is_char_boundary(offset) && floor <= end {
            assert_eq!(
                map.offset(&text, position, encoding),
                offset,
                "{position:?} of {text:?} read back"
            );
        }
    }
    while !input.is_empty() {
        let a = Position::new(input.small(), input.small());
        let b = Position::new(input.small(), input.small());
        for position in [a, b] {
            let offset = map.offset(&text, position, encoding);
            assert!(
                offset <= text.len() && text.is_char_boundary(offset),
                "{position:?} of {text:?} gives {offset}"
            );
        }
        let (start, end) = map.span(&text, Range::new(a, b), encoding);
        assert!(start <= end, "a span out of order");
    }
}

/// A session with the language server, in process over an in-memory connection: the client
/// negotiates an encoding, then opens, edits (whole or by ranges), saves and closes documents
/// of an app and outside it, and asks for hovers, completions, definitions, references and
/// code actions at positions from `bytes`. The server ends cleanly; every request is answered,
/// none with an internal error (a handler that panicked); no notice of a failure; every
/// published range lies on a line of the text of the version it is published for.
pub fn lsp_session_is_sound(app_root: &std::path::Path, bytes: &[u8]) {
    use iparams_lint::lsp::positions::{Encoding, LineMap};
    use lsp_server::{Connection, Message, Notification, Request, RequestId};
    use lsp_types::{Position, Range, TextDocumentContentChangeEvent, Uri};
    use serde_json::json;
    use std::collections::HashMap;

    let mut input = Input::new(bytes);
    let (encoding, offered) = match input.choose(4) {
        0 => (Encoding::Utf16, json!(null)),
        1 => (Encoding::Utf8, json!(["utf-8", "utf-16"])),
        2 => (Encoding::Utf32, json!(["utf-32"])),
        _ => (Encoding::Utf16, json!(["utf-16", "utf-8"])),
    };
    let uris: Vec<String> = [
        "config/iparams.json",
        "config/requests.json",
        "manifest.json",
        "app/scripts/app.js",
    ]
    .iter()
    .map(|relative| format!("file://{}/{relative}", app_root.display()))
    .chain([
        "untitled:Untitled-1".to_owned(),
        "file:///iparams-fuzz-nowhere/iparams.json".to_owned(),
    ])
    .collect();
    let (server, client) = Connection::memory();
    let send = |message: Message| client.sender.send(message).expect("the server's inbox");
    send(Message::Request(Request::new(
        RequestId::from(0),
        "initialize".into(),
        json!({ "capabilities": { "general": { "positionEncodings": offered } } }),
    )));
    send(Message::Notification(Notification::new(
        "initialized".into(),
        json!({}),
    )));
    // The texts of each version, as the server should hold them.
    let mut texts: HashMap<(String, i32), String> = HashMap::new();
    let mut current: HashMap<String, (i32, String)> = HashMap::new();
    let mut versions: HashMap<String, i32> = HashMap::new();
    let mut requests = 0;
    let position =
        |input: &mut Input<'_>| json!({ "line": input.small(), "character": input.small() });
    for _ in 0..16 {
        if input.is_empty() {
            break;
        }
        let uri = uris[input.choose(uris.len())].clone();
        let document = json!({ "uri": uri });
        let operation = input.choose(10);
        let (method, params) = match operation {
            0 | 1 => {
                let text = input.text();
                // Versions only grow, across closing too: each names one text.
                let version = *versions
                    .entry(uri.clone())
                    .and_modify(|v| *v += 1)
                    .or_insert(1);
                texts.insert((uri.clone(), version), text.clone());
                current.insert(uri.clone(), (version, text.clone()));
                let language = if uri.ends_with(".js") {
                    "javascript"
                } else {
                    "json"
                };
                (
                    "textDocument/didOpen",
                    json!({ "textDocument": {
                    "uri": uri, "languageId": language, "version": version, "text": text } }),
                )
            }
            2 | 3 => {
                let start = Position::new(input.small(), input.small());
                let end = Position::new(input.small(), input.small());
                let whole = operation == 3 && input.coin();
                let text = input.text();
                let Some((_, old)) = current.get(&uri).cloned() else {
                    continue;
                };
                let version = *versions
                    .entry(uri.clone())
                    .and_modify(|v| *v += 1)
                    .or_insert(1);
                let change = if whole {
                    json!({ "text": text })
                } else {
                    json!({ "range": Range::new(start, end), "text": text })
                };
                // Applied as documents.rs applies it: positions.rs is checked on its own.
                let parsed: TextDocumentContentChangeEvent =
                    serde_json::from_value(change.clone()).expect("a change event");
                let mut new = old;
                match parsed {
                    TextDocumentContentChangeEvent::TextDocumentContentChangeWholeDocument(w) => {
                        new = w.text
                    }
                    TextDocumentContentChangeEvent::TextDocumentContentChangePartial(p) => {
                        let (s, e) = LineMap::new(&new).span(&new, p.range, encoding);
                        new.replace_range(s..e, &p.text);
                    }
                }
                texts.insert((uri.clone(), version), new.clone());
                current.insert(uri.clone(), (version, new));
                (
                    "textDocument/didChange",
                    json!({
                    "textDocument": { "uri": uri, "version": version },
                    "contentChanges": [change] }),
                )
            }
            4 => (
                "textDocument/hover",
                json!({ "textDocument": document, "position": position(&mut input) }),
            ),
            5 => (
                "textDocument/completion",
                json!({ "textDocument": document, "position": position(&mut input) }),
            ),
            6 => (
                "textDocument/definition",
                json!({ "textDocument": document, "position": position(&mut input) }),
            ),
            7 => (
                "textDocument/references",
                json!({ "textDocument": document, "position": position(&mut input),
                "context": { "includeDeclaration": input.coin() } }),
            ),
            8 => {
                let range = json!({ "start": position(&mut input), "end": position(&mut input) });
                let only = match input.choose(3) {
                    0 => json!(null),
                    1 => json!(["quickfix"]),
                    _ => json!(["source.fixAll"]),
                };
                (
                    "textDocument/codeAction",
                    json!({ "textDocument": document, "range": range,
                    "context": { "diagnostics": [], "only": only } }),
                )
            }
            _ => {
                if input.coin() {
                    current.remove(&uri);
                    ("textDocument/didClose", json!({ "textDocument": document }))
                } else {
                    ("textDocument/didSave", json!({ "textDocument": document }))
                }
            }
        };
        if method.starts_with("textDocument/did") {
            send(Message::Notification(Notification::new(
                method.into(),
                params,
            )));
        } else {
            requests += 1;
            send(Message::Request(Request::new(
                RequestId::from(requests),
                method.into(),
                params,
            )));
        }
    }
    send(Message::Request(Request::new(
        RequestId::from(requests + 1),
        "shutdown".into(),
        json!(null),
    )));
    send(Message::Notification(Notification::new(
        "exit".into(),
        json!(null),
    )));
    let outcome = iparams_lint::lsp::serve(&server);
    assert_eq!(outcome, Ok(()), "the session did not end cleanly");
    drop(server);
    let mut answered = 0;
    while let Ok(message) = client.receiver.try_recv() {
        match message {
            Message::Response(response) => {
                if let Err(error) = &response.response_result {
                    assert_ne!(
                        error.code,
                        lsp_server::ErrorCode::InternalError as i32,
                        "a handler failed: {}",
                        error.message
                    );
                }
                answered += 1;
            }
            Message::Notification(notification) => match notification.method.as_str() {
                "window/showMessage" => {
                    let message = notification.params["message"].as_str().unwrap_or_default();
                    assert!(!message.contains("failed on"), "{message}");
                }
                "textDocument/publishDiagnostics" => {
                    let params = &notification.params;
                    let uri = params["uri"].as_str().unwrap_or_default().to_owned();
                    let Some(version) = params["version"].as_i64() else {
                        continue;
                    };
                    let version = i32::try_from(version).expect("a version we sent");
                    let text = texts.get(&(uri.clone(), version)).unwrap_or_else(|| {
                        panic!("{uri} published for version {version}, never sent")
                    });
                    let lines = protocol_lines(text);
                    for diagnostic in params["diagnostics"].as_array().into_iter().flatten() {
                        let range: Range =
                            serde_json::from_value(diagnostic["range"].clone()).expect("a range");
                        assert!(
                            (range.start.line, range.start.character)
                                <= (range.end.line, range.end.character),
                            "a range out of order: {range:?}"
                        );
                        for end in [range.start, range.end] {
                            let (start, stop) =
                                *lines.get(end.line as usize).unwrap_or_else(|| {
                                    panic!("{end:?} is past the last line of {uri} v{version}")
                                });
                            assert!(
                                end.character <= units(&text[start..stop], encoding),
                                "{end:?} is past the end of its line in {uri} v{version}: {text:?}"
                            );
                        }
                    }
                    let _: Uri = uri.parse().expect("a URI");
                }
                _ => {}
            },
            Message::Request(_) => {}
        }
    }
    // `initialize` and `shutdown` are answered too.
    assert_eq!(answered, requests + 2, "not every request was answered");
}

/// The app folder language-server sessions run in: the example app's manifest, iparams.json
/// and requests.json, written once under the system's temporary folder (documents the session
/// opens are the server's overlays: nothing is written to it).
pub fn lsp_app_root() -> std::path::PathBuf {
    let root = std::env::temp_dir().join(format!("iparams-fuzz-app-{}", std::process::id()));
    if !root.join("config/requests.json").is_file() {
        std::fs::create_dir_all(root.join("config/assets")).expect("a temporary folder");
        std::fs::create_dir_all(root.join("app/scripts")).expect("a temporary folder");
        for (path, text) in [
            ("manifest.json", APP_MANIFEST),
            ("config/iparams.json", APP_IPARAMS),
            ("config/assets/iparams.js", APP_CALLBACKS),
            (
                "config/requests.json",
                include_str!("../fixtures/apps/hr-sync/config/requests.json"),
            ),
        ] {
            std::fs::write(root.join(path), text).expect("a file in the temporary folder");
        }
    }
    root
}

/// The port the in-process sandbox's `Host` check expects.
pub const SANDBOX_PORT: u16 = 8765;

/// A fresh sandbox service, as `hr-sandbox` starts it but in memory, with the fewest employees
/// and a clock that moves only when told (returned too).
pub fn sandbox_service() -> (
    iparams_sandbox::Service,
    iparams_sandbox::Tokens,
    iparams_sandbox::ManualClock,
) {
    let clock = iparams_sandbox::ManualClock::at(1_750_000_000_000);
    let config = iparams_sandbox::Config {
        port: SANDBOX_PORT,
        employees: 5,
        clock: std::sync::Arc::new(clock.clone()),
        ..iparams_sandbox::Config::default()
    };
    let (service, tokens) = iparams_sandbox::Service::open(&config).expect("an in-memory sandbox");
    (service, tokens, clock)
}
