//! What must hold of every report and every fix, whatever the input: the property tests
//! (tests/properties.rs) and the fuzz targets (fuzz/) both check these, so a failure found by
//! either means the same thing. Each check panics with what broke.
#![allow(dead_code)]

use clap::ValueEnum;
use iparams_core::syntax::parse_value;
use iparams_core::values::preview_get;
use iparams_core::{
    Applicability, Edit, FileReport, Linter, RuleSettings, Severity, SourceText, Span,
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

/// Fixes `bytes` up to `allowed` and checks the outcome: a file with a syntax error is left
/// alone; otherwise each pass changed only the bytes of its edits, inside the top-level object,
/// the result is still well-formed, no fixable finding is left (a fix that would break the
/// JSON is refused, and shows here), and fixing it again changes nothing. Returns the fixed
/// text, if any.
pub fn fix_is_sound(linter: &mut Linter, bytes: &[u8], allowed: Applicability) -> Option<String> {
    let rules = RuleSettings::default();
    let source = SourceText::decode(bytes);
    let outcome = linter.fix(&source, &rules, allowed);
    if !linter.lint_with(&source, &rules).well_formed {
        assert_eq!(
            outcome.text, None,
            "a file with a syntax error was rewritten"
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

/// `report` of `text` in every output format; the JSON ones must be one JSON document each.
/// The width varies with the text, so narrow wrapping is exercised too.
pub fn render_everywhere(path: &str, text: &str, report: &FileReport) -> Vec<String> {
    let mut summary = Summary::default();
    summary.add(report);
    let options = RenderOptions {
        color: false,
        width: 20 + text.len() % 120,
        quiet: false,
        fail_level: Severity::Error,
    };
    Format::value_variants()
        .iter()
        .map(|&format| {
            let renderer = render::renderer(format, options);
            let output =
                render::document(&*renderer, &CheckedFile { path, text, report }, &summary);
            // Read for its syntax only: building the document would cost more than the check.
            if matches!(format, Format::Json | Format::Sarif)
                && let Err(error) = serde_json::from_str::<IgnoredAny>(&output)
            {
                panic!("{format:?} output is not JSON ({error}):\n{output}");
            }
            output
        })
        .collect()
}

/// Lints `bytes` as an iparams.json and renders the report in every format: spans fit, and
/// no secure default is shown.
pub fn lint_is_sound(linter: &mut Linter, bytes: &[u8]) {
    let source = SourceText::decode(bytes);
    let report = linter.lint(&source);
    spans_fit(source.text(), &report);
    let mut outputs = render_everywhere(DEFINITIONS_PATH, source.text(), &report);
    // `--diff` is an output too: every fix, shown as a diff.
    let fixed = linter.fix(&source, &RuleSettings::default(), Applicability::Unsafe);
    outputs.push(masked_diff(DEFINITIONS_PATH, bytes, &fixed));
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

/// Checks `bytes` as a values file against `definitions` and renders the report in every
/// format: spans fit, no secure value is shown, and what `client.iparams.get()` would return
/// (when it can be known) is a JSON object without secure iparams.
pub fn values_are_sound(linter: &mut Linter, definitions: &[u8], bytes: &[u8]) {
    let definitions_source = SourceText::decode(definitions);
    let values = SourceText::decode(bytes);
    let report = linter.check_values(&definitions_source, &values, DEFINITIONS_PATH);
    spans_fit(values.text(), &report);
    let outputs = render_everywhere("values.json", values.text(), &report);
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
    if let Ok(preview) = preview_get(&definitions_source, &values) {
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
