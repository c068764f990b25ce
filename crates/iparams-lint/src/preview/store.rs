//! INSTALL's last step, `POST /custom_configs/store`: the values the page produced, checked as
//! `iparams-lint values` checks them (the workspace's `check_values`) and written, owner-only,
//! to the values file; and the refill of the page from that file, without a secure value.
//! A custom page's values (what its `postConfigs()` returned) are stored as they are.
//!
//! Which values are secure is stored with them, as the vendor's saved object keeps it:
//! `"__meta": {"secure": [keys]}` in the values file. A value once stored as secure is never
//! sent to a page again, whatever the definitions say now (iparams.json edited, or swapped for
//! a custom page).

use std::path::{Path, PathBuf};

use iparams_core::app::page_functions::META;
use iparams_core::app::{Declarations, Declared};
use iparams_core::values::Definitions;
use iparams_core::{RuleSettings, Severity, SourceText};
use serde_json::{Map, Value as Json, json};

use super::invoke::{Masker, text_of};
use super::state::json_findings;
use crate::workspace::{INSTALLED_VALUES_FILE, STATE_GITIGNORE, check_values};

/// The values file as stored: the values, and the keys stored as secure.
#[derive(Debug, Default)]
pub struct Stored {
    pub values: Map<String, Json>,
    pub secure: Vec<String>,
}

impl Stored {
    /// The values file at `path` (nothing when it is missing or not an object). The secure keys
    /// are its `__meta.secure`, and those of a `.secure-keys.json` beside it, where custom pages'
    /// secure keys were once kept.
    pub fn read(path: &Path) -> Self {
        let mut values = crate::read::read_file(path)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Json>(&bytes).ok())
            .and_then(|value| match value {
                Json::Object(map) => Some(map),
                _ => None,
            })
            .unwrap_or_default();
        let mut secure = values
            .remove(META)
            .as_ref()
            .map(secure_keys_of)
            .and_then(Result::ok)
            .unwrap_or_default();
        for key in read_legacy_secure_keys(path) {
            if !secure.contains(&key) {
                secure.push(key);
            }
        }
        Self { values, secure }
    }

    /// Whether the value of `key` must stay on the server: it was stored as secure, or the
    /// iparam is secure now.
    pub fn is_secure(&self, key: &str, defs: &[Declared]) -> bool {
        self.secure.iter().any(|k| k == key) || defs.iter().any(|d| d.key == key && d.secure)
    }

    /// The value of a secure `key` the page did not send, to keep.
    fn kept(&self, key: &str, posted: &Map<String, Json>) -> Option<&Json> {
        self.values.get(key).filter(|_| !posted.contains_key(key))
    }
}

/// The keys of a `__meta` member's `secure` list (an empty list when it has none).
fn secure_keys_of(meta: &Json) -> Result<Vec<String>, ()> {
    match meta.get("secure").unwrap_or(&json!([])) {
        Json::Array(keys) => keys
            .iter()
            .map(|key| key.as_str().map(str::to_owned).ok_or(()))
            .collect(),
        _ => Err(()),
    }
}

/// What the page may see of the stored values: every value but the secure ones, and the keys of
/// the secure ones that are set.
pub fn for_page(stored: &Stored, defs: &[Declared]) -> (Json, Vec<String>) {
    let mut shown = Map::new();
    let mut set = Vec::new();
    for (key, value) in &stored.values {
        if stored.is_secure(key, defs) {
            if !matches!(value, Json::Null) && value != &json!("") {
                set.push(key.clone());
            }
        } else {
            shown.insert(key.clone(), value.clone());
        }
    }
    (Json::Object(shown), set)
}

/// Stores `body` (a JSON object of values for the `defs` of `iparams_text`) at `path`, which
/// holds `stored`, when the values check has no error. A secure value the page did not send
/// keeps its stored value (the page never had it). Returns the status and the JSON answer.
pub fn store(
    body: &[u8],
    (defs, iparams_text): (&[Declared], &str),
    (path, stored): (&Path, &Stored),
    iparams_shown: &str,
    settings: &RuleSettings,
) -> (u16, Json) {
    let Ok(Json::Object(mut posted)) = serde_json::from_slice::<Json>(body) else {
        return (
            400,
            json!({"error": "the body must be a JSON object of iparam key → value"}),
        );
    };
    posted.remove(META);
    let mut secure: Vec<String> = defs
        .iter()
        .filter(|d| d.secure && posted.contains_key(&d.key))
        .map(|d| d.key.clone())
        .collect();
    for def in defs.iter().filter(|d| stored.is_secure(&d.key, defs)) {
        if let Some(value) = stored.kept(&def.key, &posted) {
            posted.insert(def.key.clone(), value.clone());
            if !secure.contains(&def.key) {
                secure.push(def.key.clone());
            }
        }
    }
    let text = ordered_text(&posted, defs, &secure);
    let definitions = SourceText::decode(iparams_text.as_bytes());
    let values = SourceText::decode(text.as_bytes());
    let shown = path.display().to_string();
    let definitions = Definitions::Json {
        source: &definitions,
        path: iparams_shown,
    };
    let report = check_values(definitions, &values, settings);
    let diagnostics = masked(
        Json::Array(json_findings(&shown, values.text(), &report)),
        &posted,
        &secure,
    );
    if report
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error)
    {
        return (422, json!({ "diagnostics": diagnostics }));
    }
    if let Err(error) = prepare_folder(path) {
        return (
            500,
            json!({ "error": format!("{shown}: its folder cannot be made: {error}") }),
        );
    }
    match crate::write::write_private(path, text.as_bytes()) {
        Ok(()) => (200, json!({ "stored": shown, "diagnostics": diagnostics })),
        Err(error) => (
            500,
            json!({ "error": format!("{shown}: cannot be written: {error}") }),
        ),
    }
}

/// The keys of the `.secure-keys.json` beside the values file (`installed.json` →
/// `installed.secure-keys.json`), where custom pages' secure keys were kept before the values
/// file held them; still read, so that no value stored then is ever sent to a page.
fn read_legacy_secure_keys(values_path: &Path) -> Vec<String> {
    let stem = values_path
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default();
    let path: PathBuf = values_path.with_file_name(format!("{stem}.secure-keys.json"));
    crate::read::read_file(&path)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Vec<String>>(&bytes).ok())
        .unwrap_or_default()
}

/// What the server knows of a custom page's iparams: the keys of its values, secure when
/// `__meta.secure` named them.
pub fn page_defs<'a>(
    keys: impl IntoIterator<Item = &'a String>,
    secure: &[String],
) -> Vec<Declared> {
    keys.into_iter()
        .map(|key| Declared {
            secure: secure.contains(key),
            ..Declared::of_key(key)
        })
        .collect()
}

/// Stores what a custom page's `postConfigs()` returned: every property but `__meta` as a
/// value, and `__meta.secure`'s keys with them. A secure key the page left out keeps its
/// stored value (the page never had it). The app's `findings` go back with the outcome, and,
/// when what the page stores is `known`, what `values` finds in the stored values (keys the
/// code does not return, keys it always returns that are missing), every secure value masked.
pub fn store_page(
    body: &[u8],
    path: &Path,
    findings: &Json,
    known: Option<&(Declarations, RuleSettings)>,
) -> (u16, Json) {
    let Ok(Json::Object(mut posted)) = serde_json::from_slice::<Json>(body) else {
        return (
            400,
            json!({"error": "postConfigs() must return an object of iparam key → value"}),
        );
    };
    let meta = posted.remove(META).unwrap_or(Json::Null);
    let Ok(mut secure) = secure_keys_of(&meta) else {
        return (
            400,
            json!({"error": "postConfigs() returned a `__meta.secure` that is not a list of keys; \
                write `__meta: {secure: [\"key\", ...]}`"}),
        );
    };
    let stored = Stored::read(path);
    for key in &stored.secure {
        if let Some(value) = stored.kept(key, &posted) {
            posted.insert(key.clone(), value.clone());
            if !secure.contains(key) {
                secure.push(key.clone());
            }
        }
    }
    let defs = page_defs(posted.keys(), &secure);
    let shown = path.display().to_string();
    let findings = masked(findings.clone(), &posted, &secure);
    let text = ordered_text(&posted, &defs, &secure);
    let diagnostics = match known {
        Some((page, settings)) => {
            let values = SourceText::decode(text.as_bytes());
            let report = check_values(Definitions::Page(page), &values, settings);
            let found = Json::Array(json_findings(&shown, values.text(), &report));
            masked(found, &posted, &secure)
        }
        None => json!([]),
    };
    let written =
        prepare_folder(path).and_then(|()| crate::write::write_private(path, text.as_bytes()));
    match written {
        Ok(()) => (
            200,
            json!({ "stored": shown, "findings": findings, "diagnostics": diagnostics }),
        ),
        Err(error) => (
            500,
            json!({ "error": format!("{shown}: cannot be written: {error}") }),
        ),
    }
}

/// Makes the values file's folder; the preview's own (`.iparams-lint/`) gets a `.gitignore` of
/// `*` when it has none, so that `git add -A` never stages the values, secrets among them (as
/// ruff and pytest keep their caches out of git). Created new, never through a link: whatever
/// is at its name already (a link, even a dangling one) is left as it is.
fn prepare_folder(path: &Path) -> std::io::Result<()> {
    let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) else {
        return Ok(());
    };
    std::fs::create_dir_all(folder)?;
    let ours = Path::new(INSTALLED_VALUES_FILE)
        .parent()
        .and_then(Path::file_name);
    if folder.file_name() != ours {
        return Ok(());
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    match options.open(folder.join(".gitignore")) {
        Ok(mut ignore) => std::io::Write::write_all(&mut ignore, STATE_GITIGNORE.as_bytes()),
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(error) => Err(error),
    }
}

/// The values file's text: the iparams in file order, then any other key, one a line, and last
/// the `__meta` that names the `secure` ones.
fn ordered_text(values: &Map<String, Json>, defs: &[Declared], secure: &[String]) -> String {
    let mut keys: Vec<&String> = defs
        .iter()
        .filter_map(|d| values.get_key_value(&d.key).map(|(k, _)| k))
        .collect();
    keys.extend(values.keys().filter(|k| !defs.iter().any(|d| d.key == **k)));
    let mut lines: Vec<String> = keys
        .iter()
        .map(|key| format!("  {}: {}", json!(key), values[key.as_str()]))
        .collect();
    let secure: Vec<&String> = keys
        .iter()
        .copied()
        .filter(|k| secure.contains(k))
        .collect();
    if !secure.is_empty() {
        lines.push(format!(
            "  {}: {}",
            json!(META),
            json!({ "secure": secure })
        ));
    }
    if lines.is_empty() {
        "{}\n".to_owned()
    } else {
        format!("{{\n{}\n}}\n", lines.join(",\n"))
    }
}

/// `diagnostics` with every value of a `secure` key that appears in them masked (the rules
/// mask what they quote already; this keeps a value out of the answer whatever a message says).
fn masked(diagnostics: Json, values: &Map<String, Json>, secure: &[String]) -> Json {
    let secrets = secure.iter().filter_map(|key| values.get(key)).map(text_of);
    Masker::new(secrets).json(diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(key: &str, secure: bool) -> Declared {
        let text = format!(r#"{{"{key}": {{"type": "text", "secure": {secure}}}}}"#);
        iparams_core::app::Outline::of(&text).iparams.remove(0)
    }

    #[test]
    fn the_page_never_gets_a_secure_value() {
        let Json::Object(values) =
            json!({"domain": "acme", "key": "s3cret-value", "empty": "", "was": "old-s3cret"})
        else {
            unreachable!()
        };
        let stored = Stored {
            values,
            secure: vec!["was".to_owned()],
        };
        // `was` is no iparam now, or not a secure one: it was stored as secure.
        let defs = [
            def("domain", false),
            def("key", true),
            def("empty", true),
            def("was", false),
        ];
        let (shown, set) = for_page(&stored, &defs);
        assert_eq!(shown, json!({"domain": "acme"}));
        assert_eq!(set, ["key", "was"]);
        let (shown, set) = for_page(&stored, &[]);
        assert_eq!(
            shown,
            json!({"domain": "acme", "key": "s3cret-value", "empty": ""})
        );
        assert_eq!(set, ["was"]);
    }

    #[test]
    fn values_are_written_in_file_order_with_the_secure_keys_last() {
        let Json::Object(values) = json!({"a": 1, "b": [true], "z": "x"}) else {
            unreachable!()
        };
        let defs = [def("z", false), def("a", false)];
        let text = ordered_text(&values, &defs, &[]);
        assert_eq!(
            text,
            "{\n  \"z\": \"x\",\n  \"a\": 1,\n  \"b\": [true]\n}\n"
        );
        let text = ordered_text(&values, &defs, &["b".to_owned(), "z".to_owned()]);
        assert!(
            text.ends_with("  \"b\": [true],\n  \"__meta\": {\"secure\":[\"z\",\"b\"]}\n}\n"),
            "{text}"
        );
    }

    #[test]
    fn the_secure_keys_are_read_back_from_the_file() {
        let dir = std::env::temp_dir().join(format!("iparams-stored-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        let path = dir.join("installed.json");
        std::fs::write(&path, r#"{"k": "v", "__meta": {"secure": ["k"]}}"#).expect("written");
        std::fs::write(dir.join("installed.secure-keys.json"), r#"["old"]"#).expect("written");
        let stored = Stored::read(&path);
        assert_eq!(
            stored.values,
            *json!({"k": "v"}).as_object().expect("an object")
        );
        assert_eq!(stored.secure, ["k", "old"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn secure_values_are_masked_in_findings() {
        let Json::Object(values) = json!({"key": "s3cret\"x"}) else {
            unreachable!()
        };
        let found = masked(
            json!([{"message": "bad s3cret\"x here"}]),
            &values,
            &["key".to_owned()],
        );
        assert_eq!(found, json!([{"message": "bad **** here"}]));
    }
}
