//! Properties of the entry points on generated input: mostly near-valid iparams.json (objects
//! of iparams with random types, attributes, options, defaults and regexes, laid out in
//! various ways, then sometimes damaged byte by byte), so that rules and fixes really fire,
//! and some arbitrary bytes. The checks themselves are in tests/invariants.rs, shared with the
//! fuzz targets.

mod invariants;
mod support;

use std::cell::Cell;
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};

use invariants::Renderings;
use iparams_core::{Applicability, Linter, RuleSettings, SourceText};
use iparams_lint::write::{WriteError, replace_file};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, FileFailurePersistence, TestRunner};
use support::Scratch;

/// Cases per property: enough to reach every rule's fix within a few seconds on two cores.
const CASES: u32 = 256;

fn config(cases: u32) -> Config {
    Config {
        cases,
        // Shrinking a failure re-runs the property many times; a few hundred steps are plenty
        // for inputs this small.
        max_shrink_iters: 512,
        source_file: Some(file!()),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..Config::default()
    }
}

// ---- Generating JSON -----------------------------------------------------------------------

/// A JSON value as people write them: objects keep repeated keys and their order.
#[derive(Clone, Debug)]
enum Json {
    Null,
    Bool(bool),
    /// As written: `12`, `1e400`, `-0`.
    Number(String),
    Text(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

/// How a document is laid out.
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// `None`: all on one line.
    indent: Option<&'static str>,
    newline: &'static str,
}

impl Json {
    fn text(value: &str) -> Self {
        Json::Text(value.to_owned())
    }

    fn write(&self, layout: Layout, depth: usize, out: &mut String) {
        let quote = |text: &str| serde_json::to_string(text).expect("strings serialize");
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
            Json::Number(raw) => out.push_str(raw),
            Json::Text(text) => out.push_str(&quote(text)),
            Json::Array(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push_str(", ");
                    }
                    item.write(layout, depth + 1, out);
                }
                out.push(']');
            }
            Json::Object(members) => {
                out.push('{');
                let break_line = |out: &mut String, depth: usize| {
                    if let Some(indent) = layout.indent {
                        out.push_str(layout.newline);
                        out.push_str(&indent.repeat(depth));
                    }
                };
                for (index, (key, value)) in members.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                        if layout.indent.is_none() {
                            out.push(' ');
                        }
                    }
                    break_line(out, depth + 1);
                    out.push_str(&quote(key));
                    out.push_str(": ");
                    value.write(layout, depth + 1, out);
                }
                if !members.is_empty() {
                    break_line(out, depth);
                }
                out.push('}');
            }
        }
    }

    fn render(&self, layout: Layout) -> String {
        let mut out = String::new();
        self.write(layout, 0, &mut out);
        out.push_str(layout.newline);
        out
    }
}

fn layout() -> impl Strategy<Value = Layout> {
    (
        select(vec![None, Some("  "), Some("    "), Some("\t")]),
        select(vec!["\n", "\r\n"]),
    )
        .prop_map(|(indent, newline)| Layout { indent, newline })
}

/// Strings that mean something to some rule, and some that mean nothing.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => select(vec![
            "Low", "low", "High", "eu", "", " ", "true", "false", "12", "2014-02-31",
            "2024-01-15", "http://", "https://acme.example.com", "a@b.co", "not an email",
            "+15551234567", "12345678901", "Fresh Desk", "freshdesk", "freshDesk", "current",
            "name of the product", "product.domain", "Product.Domain", "product.url", "onChange",
            "1stHandler", "é🙂", "a,b", "ghp_0123456789abcdefghijABCDEFGHIJ012345",
        ])
        .prop_map(str::to_owned),
        1 => "[a-zA-Z0-9 ._-]{0,12}",
    ]
}

/// A value that looks secret and is never quoted anywhere by chance (see invariants).
fn secret_like() -> impl Strategy<Value = String> {
    "[a-z]{8}[0-9]{8}[A-Z]{4}"
}

/// A long random token, as pasted by mistake into any attribute: the detector must find it,
/// and no output may show it (see invariants).
fn random_token() -> impl Strategy<Value = String> {
    "[A-Za-z0-9]{32,48}".prop_filter("random enough for the detector", |token| {
        iparams_core::secrets::random_token(token) == Some((0, token.len()))
    })
}

/// User patterns: valid, invalid, delimited, unanchored; none backtracks catastrophically.
fn pattern() -> impl Strategy<Value = String> {
    select(vec![
        "^[a-z]+$",
        "[0-9]",
        "/^a$/i",
        "^[a-z",
        "",
        "(?<year>\\d{4})",
        "a{2,1}",
        "^\\d{3}-\\d{4}$",
        "[^]",
        "\\cJ",
        "^(?!0)\\d+$",
        "^https://",
    ])
    .prop_map(str::to_owned)
}

fn boolean_ish() -> impl Strategy<Value = Json> {
    prop_oneof![
        4 => any::<bool>().prop_map(Json::Bool),
        2 => select(vec!["true", "false", "yes"]).prop_map(Json::text),
        1 => Just(Json::Number("1".into())),
    ]
}

fn text_list() -> impl Strategy<Value = Json> {
    prop::collection::vec(
        prop_oneof![6 => word().prop_map(Json::Text), 1 => Just(Json::Number("3".into()))],
        0..5,
    )
    .prop_map(Json::Array)
}

fn regex_object() -> impl Strategy<Value = Json> {
    prop::collection::vec(
        (
            select(vec!["code", "name", "age-limit", "x"]),
            pattern(),
            prop::option::of(word()),
        ),
        0..3,
    )
    .prop_map(|entries| {
        let mut members = Vec::new();
        for (name, pattern, message) in entries {
            members.push((name.to_owned(), Json::Text(pattern)));
            if let Some(message) = message {
                members.push((format!("{name}-error"), Json::Text(message)));
            }
        }
        Json::Object(members)
    })
}

/// The value of attribute `name`: mostly the right shape, sometimes a common mistake.
fn attribute_value(name: &'static str) -> BoxedStrategy<Json> {
    match name {
        "type" => prop_oneof![
            6 => select(vec![
                "text", "paragraph", "dropdown", "email", "number", "phone_number", "date", "url",
                "radio", "checkbox", "multiselect", "domain", "api_key",
            ])
            .prop_map(Json::text),
            2 => select(vec!["Text", "DropDown", "txt", "colour", "phone number", "API_KEY"])
                .prop_map(Json::text),
            1 => Just(Json::Number("1".into())),
        ]
        .boxed(),
        "display_name" | "description" => prop_oneof![
            6 => word().prop_map(Json::Text),
            1 => Just(Json::Null),
            1 => random_token().prop_map(Json::Text),
        ]
        .boxed(),
        "data-bind" => prop_oneof![
            4 => select(vec!["product.domain", "product.api_key", "product.url", "product.subdomain"])
                .prop_map(Json::text),
            1 => random_token().prop_map(Json::Text),
        ]
        .boxed(),
        "options" | "modules" => prop_oneof![
            5 => text_list(),
            1 => word().prop_map(Json::Text),
            1 => (word(), random_token()).prop_map(|(word, token)| {
                Json::Array(vec![Json::Text(word), Json::Text(token)])
            }),
        ]
        .boxed(),
        "default_value" => prop_oneof![
            4 => word().prop_map(Json::Text),
            1 => secret_like().prop_map(Json::Text),
            1 => random_token().prop_map(Json::Text),
            1 => any::<bool>().prop_map(Json::Bool),
            1 => select(vec!["12", "1e400", "-0", "12345678901"]).prop_map(|n| Json::Number(n.into())),
            2 => text_list(),
        ]
        .boxed(),
        "required" | "visible" | "secure" => boolean_ish().boxed(),
        "regex" => prop_oneof![
            5 => regex_object(),
            1 => pattern().prop_map(Json::Text),
        ]
        .boxed(),
        "type_attributes" => prop_oneof![
            5 => word().prop_map(|product| Json::Object(vec![("product".into(), Json::Text(product))])),
            1 => word().prop_map(Json::Text),
            1 => Just(Json::Object(Vec::new())),
        ]
        .boxed(),
        "events" => prop_oneof![
            3 => (select(vec!["change", "click"]), word()).prop_map(|(event, handler)| {
                Json::Array(vec![Json::Object(vec![(event.into(), Json::Text(handler))])])
            }),
            1 => word().prop_map(|handler| Json::Object(vec![("change".into(), Json::Text(handler))])),
        ]
        .boxed(),
        _ => word().prop_map(Json::Text).boxed(),
    }
}

/// One attribute, by a known name or a misspelt one.
fn attribute() -> impl Strategy<Value = (String, Json)> {
    select(vec![
        "display_name",
        "description",
        "type",
        "options",
        "default_value",
        "default_value",
        "required",
        "visible",
        "secure",
        "regex",
        "type_attributes",
        "events",
        "data-bind",
        "modules",
        "Data-bind",
        "Required",
        "defualt_value",
        "placeholder",
    ])
    .prop_flat_map(|name| attribute_value(name).prop_map(move |value| (name.to_owned(), value)))
}

/// The attributes a definition of type `ty` is meant to have, with the near misses people
/// write: options and defaults that differ in case, products misspelt, booleans in quotes.
fn typed_members(ty: &'static str) -> impl Strategy<Value = Vec<(String, Json)>> {
    let choice = || select(vec!["Low", "High", "low", "HIGH", "Medium", ""]).prop_map(Json::text);
    let options = prop::collection::vec(choice(), 0..4).prop_map(Json::Array);
    let default = match ty {
        "checkbox" => boolean_ish().boxed(),
        "multiselect" => prop::collection::vec(choice(), 0..3)
            .prop_map(Json::Array)
            .boxed(),
        "dropdown" | "radio" => choice().boxed(),
        _ => attribute_value("default_value"),
    };
    let product = select(vec![
        "freshdesk",
        "Fresh Desk",
        "freshDesk",
        "name of the product",
        "current",
        "freshchat",
        "freshteam",
    ])
    .prop_map(|product| Json::Object(vec![("product".into(), Json::text(product))]));
    (
        prop::option::weighted(0.9, options),
        prop::option::weighted(0.6, default),
        prop::option::weighted(0.8, product),
        prop::option::weighted(0.3, boolean_ish()),
    )
        .prop_map(move |(options, default, product, secure)| {
            let with_options = matches!(ty, "dropdown" | "radio" | "multiselect");
            let with_product = matches!(ty, "domain" | "api_key");
            let mut members = Vec::new();
            members.extend(
                options
                    .filter(|_| with_options)
                    .map(|o| ("options".into(), o)),
            );
            members.extend(default.map(|d| ("default_value".into(), d)));
            members.extend(
                product
                    .filter(|_| with_product)
                    .map(|p| ("type_attributes".into(), p)),
            );
            members.extend(secure.map(|s| ("secure".into(), s)));
            members
        })
}

/// An iparam definition: mostly an object with a name and a type whose attributes fit it,
/// plus a few random attributes, in any order.
fn iparam() -> impl Strategy<Value = Json> {
    let typed = select(vec![
        "text",
        "paragraph",
        "dropdown",
        "email",
        "number",
        "phone_number",
        "date",
        "url",
        "radio",
        "checkbox",
        "multiselect",
        "domain",
        "api_key",
    ])
    .prop_flat_map(|ty| {
        // Mostly the type as meant; sometimes a misspelling of some type.
        let written = prop_oneof![
            4 => Just(ty),
            1 => select(vec!["Text", "DropDown", "txt", "colour", "API_KEY"]),
        ];
        (written, typed_members(ty))
    })
    .prop_map(|(written, mut members)| {
        members.push(("type".into(), Json::text(written)));
        members
    });
    // A secure iparam with a secret default: no output may show it.
    let secret =
        (select(vec!["text", "paragraph", "api_key"]), secret_like()).prop_map(|(ty, secret)| {
            vec![
                ("type".to_owned(), Json::text(ty)),
                ("secure".to_owned(), Json::Bool(true)),
                ("default_value".to_owned(), Json::Text(secret)),
            ]
        });
    let members = prop_oneof![
        6 => typed,
        1 => secret,
        2 => attribute_value("type").prop_map(|ty| vec![("type".to_owned(), ty)]),
        1 => Just(Vec::new()),
    ];
    let object = (
        members,
        attribute_value("display_name"),
        prop::option::weighted(0.9, any::<()>()),
        prop::collection::vec(attribute(), 0..4),
    )
        .prop_flat_map(|(mut members, name, named, extra)| {
            if named.is_some() {
                members.push(("display_name".into(), name));
            }
            members.extend(extra);
            Just(members).prop_shuffle()
        })
        .prop_map(Json::Object);
    prop_oneof![
        12 => object,
        1 => word().prop_map(Json::Text),
        1 => Just(Json::Array(Vec::new())),
    ]
}

fn iparam_key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => select(vec![
            "region", "api_key", "password", "domain", "token", "", "monkey", "author",
            "priority", "a/b~c", "Secret Key", "type", "options",
        ])
        .prop_map(str::to_owned),
        1 => "[a-z_]{1,10}",
    ]
}

fn definitions() -> impl Strategy<Value = Json> {
    prop::collection::vec((iparam_key(), iparam()), 0..6).prop_map(Json::Object)
}

/// A hand-editing accident at a relative position of the text.
#[derive(Clone, Debug)]
enum Damage {
    Delete,
    Insert(u8),
    /// Repeats the few bytes that follow.
    Repeat(u8),
    Truncate,
}

fn damage() -> impl Strategy<Value = (f64, Damage)> {
    let kind = prop_oneof![
        3 => Just(Damage::Delete),
        3 => select(b",}]\"':\n/\\{[ 0\x00\xff".to_vec()).prop_map(Damage::Insert),
        1 => (1u8..8).prop_map(Damage::Repeat),
        1 => Just(Damage::Truncate),
    ];
    (0.0..1.0, kind)
}

fn damaged(text: String, accidents: &[(f64, Damage)]) -> Vec<u8> {
    let mut bytes = text.into_bytes();
    for (at, accident) in accidents {
        let at = (at * bytes.len() as f64) as usize;
        match accident {
            Damage::Delete if at < bytes.len() => {
                bytes.remove(at);
            }
            Damage::Insert(byte) => bytes.insert(at, *byte),
            Damage::Repeat(length) => {
                let end = (at + usize::from(*length)).min(bytes.len());
                let run = bytes[at..end].to_vec();
                bytes.splice(at..at, run);
            }
            Damage::Truncate => bytes.truncate(at),
            Damage::Delete => {}
        }
    }
    bytes
}

/// A document as people write it: usually intact, sometimes with a few bytes damaged.
fn near_valid(document: impl Strategy<Value = Json>) -> impl Strategy<Value = Vec<u8>> {
    (
        document,
        layout(),
        prop_oneof![
            3 => Just(Vec::new()),
            2 => prop::collection::vec(damage(), 1..4),
        ],
    )
        .prop_map(|(document, layout, accidents)| damaged(document.render(layout), &accidents))
}

/// Mostly near-valid iparams.json, some arbitrary bytes.
fn iparams_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => near_valid(definitions()),
        1 => prop::collection::vec(any::<u8>(), 0..256),
    ]
}

/// A values file for [`invariants::DEFINITIONS`]: its keys (and others), with values of
/// every JSON kind, secret-looking ones among them.
fn values_bytes() -> impl Strategy<Value = Vec<u8>> {
    let definitions: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(invariants::DEFINITIONS).expect("the definitions are an object");
    let mut keys: Vec<String> = definitions.keys().cloned().collect();
    keys.extend(["unknown".to_owned(), "Region".to_owned()]);
    let value = prop_oneof![
        4 => word().prop_map(Json::Text),
        2 => secret_like().prop_map(Json::Text),
        1 => Just(Json::Null),
        1 => any::<bool>().prop_map(Json::Bool),
        1 => select(vec!["3", "-1", "2.5", "1e400"]).prop_map(|n| Json::Number(n.into())),
        2 => prop::collection::vec(
            select(vec!["email", "sms", "push", "fax", "email"]).prop_map(Json::text),
            0..4,
        )
        .prop_map(Json::Array),
    ];
    let object = prop::collection::vec((select(keys), value), 0..10).prop_map(Json::Object);
    prop_oneof![
        5 => near_valid(object),
        1 => prop::collection::vec(any::<u8>(), 0..128),
    ]
}

// ---- The properties ------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(CASES))]

    /// Linting never panics, every span fits the text, every format renders, secure defaults
    /// stay hidden.
    #[test]
    fn lint_is_sound(bytes in iparams_bytes()) {
        invariants::lint_is_sound(&mut Linter::default(), &bytes, Renderings::Every);
    }

    /// A file checked in stretches on every thread finds what one thread finds.
    #[test]
    fn parallel_check_is_sequential(bytes in iparams_bytes()) {
        invariants::parallel_check_is_sequential(&bytes);
    }

    /// Checking values never panics, against the rich definitions or generated ones.
    #[test]
    fn values_are_sound(values in values_bytes(), definitions in near_valid(definitions())) {
        let mut linter = Linter::default();
        invariants::values_are_sound(&mut linter, invariants::DEFINITIONS, &values, Renderings::Every);
        invariants::values_are_sound(&mut linter, &definitions, &values, Renderings::Every);
    }

    /// Writing a fixed file only when it still holds what was read, leaving nothing behind.
    #[test]
    fn replace_file_never_overwrites_a_change(
        read in prop::collection::vec(any::<u8>(), 0..64),
        on_disk in prop::collection::vec(any::<u8>(), 0..64),
        fixed in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        let scratch = Scratch::new("property-replace");
        let file = scratch.write("iparams.json", &on_disk);
        let result = replace_file(&file, &read, &fixed);
        let expected = if read == on_disk { &fixed } else { &on_disk };
        prop_assert_eq!(&fs::read(&file).expect("the file is still there"), expected);
        prop_assert_eq!(read == on_disk, result.is_ok());
        prop_assert!(matches!(result, Ok(()) | Err(WriteError::Changed)));
        prop_assert_eq!(fs::read_dir(&scratch.0).expect("a folder").count(), 1);
    }
}

/// Every input a fuzz target crashed on (fixtures/reliability/fuzz-findings/, each minimised
/// and named for what it holds) goes through every invariant of its kind: the files at the top
/// are iparams.json or values inputs (targets `lint`, `values`, `fix`), each folder holds the
/// inputs of the target it is named after.
#[test]
fn fuzz_findings_stay_fixed() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/reliability/fuzz-findings");
    let mut checked = 0;
    for entry in fs::read_dir(&folder).expect("the fuzz findings folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            let target = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_owned();
            for finding in fs::read_dir(&path).expect("a target's findings") {
                let bytes = fs::read(finding.expect("an entry").path()).expect("a finding");
                replay(&target, &bytes);
                checked += 1;
            }
            continue;
        }
        let bytes = fs::read(&path).expect("a finding");
        let mut linter = Linter::default();
        invariants::lint_is_sound(&mut linter, &bytes, Renderings::Every);
        invariants::values_are_sound(
            &mut linter,
            invariants::DEFINITIONS,
            &bytes,
            Renderings::Every,
        );
        invariants::fix_is_sound(&mut linter, &bytes, Applicability::Safe);
        invariants::fix_is_sound(&mut linter, &bytes, Applicability::Unsafe);
        checked += 1;
    }
    assert!(checked > 1, "too few findings in {}", folder.display());
}

/// One finding of the fuzz target `target`, through that target's invariant.
fn replay(target: &str, bytes: &[u8]) {
    let mut linter = Linter::default();
    match target {
        "app" => invariants::app_is_sound(&mut linter, bytes, Renderings::Every),
        "js" => invariants::scripts_are_sound(bytes),
        "lsp" => invariants::lsp_session_is_sound(&invariants::lsp_app_root(), bytes),
        "positions" => invariants::positions_are_sound(bytes),
        "form_values" => {
            invariants::form_values_are_sound(
                &mut linter,
                invariants::DEFINITIONS,
                bytes,
                Renderings::Every,
            );
        }
        "sandbox" => {
            let (service, tokens, _) = invariants::sandbox_service();
            invariants::sandbox_is_sound(&service, &tokens, invariants::SANDBOX_PORT, bytes);
        }
        other => panic!("fuzz-findings/{other}/: no fuzz target of that name"),
    }
}

/// Each new fuzz target's invariant on a few inputs, so that they are built and run by every
/// `cargo test` (the fuzz crate is outside the workspace) and hold on ordinary input.
#[test]
fn surface_invariants_hold_on_seeds() {
    let mut linter = Linter::default();
    let requests = include_bytes!("../fixtures/apps/hr-sync/config/requests.json");
    let script = include_bytes!("../fixtures/apps/hr-sync/server/server.js");
    let app = [&requests[..], b"\xff", &script[..]].concat();
    invariants::app_is_sound(&mut linter, &app, Renderings::Every);
    invariants::scripts_are_sound(&[&[0u8][..], &script[..]].concat());
    invariants::positions_are_sound(b"\x01a\r\nb\rc\n\xf0\x9f\x98\x80d\xff\x01\x02\x03\x04");
    invariants::form_values_are_sound(
        &mut linter,
        invariants::DEFINITIONS,
        b"\x01\x00\x02abc\xff\x01\x01\x03",
        Renderings::Every,
    );
    let (service, tokens, _) = invariants::sandbox_service();
    invariants::sandbox_is_sound(
        &service,
        &tokens,
        invariants::SANDBOX_PORT,
        b"\x00\x00\xff\x02\x02\x00\x01\xff",
    );
    let iparams = include_str!("../fixtures/apps/hr-sync/config/iparams.json");
    let session = [
        &b"\x01\x00\x00"[..],
        iparams.as_bytes(),
        b"\xff\x00\x02\x01\x02\x01\x03\"x\"\xff\x00\x04\x02\x05\x00\x08\x00\x00\x08\x08\x01",
    ]
    .concat();
    invariants::lsp_session_is_sound(&invariants::lsp_app_root(), &session);
}

/// Fixes keep the JSON well-formed, change only their own bytes, leave nothing fixable and are
/// idempotent; and the generator does make them happen, so this is not vacuous.
#[test]
fn fixes_are_sound() {
    // A trailing comma is mended and the other fixes follow in the same run; with a second
    // syntax error beside it, nothing is touched.
    let trailing = br#"{"Secret Key": {"display_name": "K", "type": "text"},}"#;
    let mended = invariants::fix_is_sound(&mut Linter::default(), trailing, Applicability::Unsafe);
    assert!(
        mended.is_some_and(|text| text.contains(r#""secure": true}}"#)),
        "the trailing comma and the unsafe fix both apply"
    );
    let unmendable = br#"{"Secret Key": {"display_name": K, "type": "text"},}"#;
    let left = invariants::fix_is_sound(&mut Linter::default(), unmendable, Applicability::Unsafe);
    assert_eq!(
        left, None,
        "a file with an unfixable syntax error is left alone"
    );

    let fixed = Cell::new(0);
    let mut runner = TestRunner::new(config(CASES));
    let result = runner.run(&near_valid(definitions()), |bytes| {
        let mut linter = Linter::default();
        let safe = invariants::fix_is_sound(&mut linter, &bytes, Applicability::Safe);
        let risky = invariants::fix_is_sound(&mut linter, &bytes, Applicability::Unsafe);
        fixed.set(fixed.get() + usize::from(safe.is_some() || risky.is_some()));
        Ok(())
    });
    if let Err(error) = result {
        panic!("{error}");
    }
    assert!(
        fixed.get() >= CASES as usize / 4,
        "only {} of {CASES} generated files had anything to fix",
        fixed.get()
    );
}

/// `--fix` end to end, in process: the file is replaced by a rename (a new inode) only when a
/// fix applies, holds what the library's fix makes, keeps its permissions, and nothing else is
/// left in its folder; a file with nothing to fix, or a syntax error, is not touched.
#[test]
fn fix_writes_are_atomic_and_keep_permissions() {
    let mut runner = TestRunner::new(config(64));
    let strategy = (
        near_valid(definitions()),
        select(vec![0o600, 0o640, 0o644, 0o755, 0o444]),
        any::<bool>(),
    );
    let result = runner.run(&strategy, |(bytes, mode, risky)| {
        let scratch = Scratch::new("property-fix-write");
        let file = scratch.write("iparams.json", &bytes);
        fs::set_permissions(&file, fs::Permissions::from_mode(mode)).expect("chmod");
        let before = fs::metadata(&file).expect("metadata").ino();
        let allowed = if risky {
            Applicability::Unsafe
        } else {
            Applicability::Safe
        };
        let expected = Linter::default()
            .fix(
                &SourceText::decode(&bytes),
                &RuleSettings::default(),
                allowed,
            )
            .text;

        let path = file.to_string_lossy().into_owned();
        let mut args = vec!["iparams-lint", "--color", "never", "--fix", path.as_str()];
        if risky {
            args.push("--unsafe-fixes");
        }
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let status = iparams_lint::run(
            args,
            &iparams_lint::Environment::default(),
            &mut &b""[..],
            &mut stdout,
            &mut stderr,
        );
        prop_assert!(status < 2, "{}", String::from_utf8_lossy(&stderr));

        let after = fs::metadata(&file).expect("the file is still there");
        prop_assert_eq!(after.permissions().mode() & 0o777, mode);
        prop_assert_eq!(fs::read_dir(&scratch.0).expect("a folder").count(), 1);
        let content = fs::read(&file).expect("readable");
        match expected {
            Some(text) => {
                prop_assert_eq!(content, text.into_bytes());
                prop_assert_ne!(after.ino(), before, "rewritten in place, not replaced");
            }
            None => {
                prop_assert_eq!(content, bytes);
                prop_assert_eq!(after.ino(), before, "replaced with nothing to fix");
            }
        }
        Ok(())
    });
    if let Err(error) = result {
        panic!("{error}");
    }
}
