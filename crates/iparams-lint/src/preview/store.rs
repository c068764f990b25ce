//! INSTALL's last step, `POST /custom_configs/store`: the values the page produced, checked as
//! `iparams-lint values` checks them (the workspace's `check_values`) and written, owner-only,
//! to the values file; and the refill of the page from that file, without a secure value.
//! A custom page's values (what its `postConfigs()` returned) are stored as they are, and the
//! keys its `__meta.secure` names are kept beside them, so that they are never sent back.

use std::path::{Path, PathBuf};

use iparams_core::app::{Declarations, Declared};
use iparams_core::values::Definitions;
use iparams_core::{RuleSettings, Severity, SourceText};
use serde_json::{Map, Value as Json, json};

use super::invoke::{Masker, text_of};
use super::state::{Snapshot, json_findings};
use crate::workspace::{INSTALLED_VALUES_FILE, STATE_GITIGNORE, check_values};

/// The stored values, as a map (none when the file is missing or not an object).
pub fn read_stored(path: &Path) -> Map<String, Json> {
    crate::read::read_file(path)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Json>(&bytes).ok())
        .and_then(|value| match value {
            Json::Object(map) => Some(map),
            _ => None,
        })
        .unwrap_or_default()
}

/// What the page may see of the stored values: every value but the secure ones, and the keys of
/// the secure ones that are set.
pub fn for_page(stored: &Map<String, Json>, defs: &[Declared]) -> (Json, Vec<String>) {
    let secure = |key: &str| defs.iter().any(|d| d.key == key && d.secure);
    let mut shown = Map::new();
    let mut set = Vec::new();
    for (key, value) in stored {
        if secure(key) {
            if !matches!(value, Json::Null) && value != &json!("") {
                set.push(key.clone());
            }
        } else {
            shown.insert(key.clone(), value.clone());
        }
    }
    (Json::Object(shown), set)
}

/// Stores `body` (a JSON object of values) at `path` when the values check has no error.
/// A secure iparam the page did not send keeps its stored value (the page never had it).
/// Returns the status and the JSON answer.
pub fn store(
    body: &[u8],
    snapshot: &Snapshot,
    path: &Path,
    iparams_shown: &str,
    settings: &RuleSettings,
) -> (u16, Json) {
    let Ok(Json::Object(mut posted)) = serde_json::from_slice::<Json>(body) else {
        return (
            400,
            json!({"error": "the body must be a JSON object of iparam key → value"}),
        );
    };
    let stored = read_stored(path);
    for def in snapshot.defs.iter().filter(|d| d.secure) {
        if !posted.contains_key(&def.key)
            && let Some(value) = stored.get(&def.key)
        {
            posted.insert(def.key.clone(), value.clone());
        }
    }
    let text = ordered_text(&posted, &snapshot.defs);
    let definitions = SourceText::decode(snapshot.iparams_text.as_bytes());
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
        &snapshot.defs,
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

/// Where the secure keys of a custom page's values are kept: beside the values file
/// (`installed.json` → `installed.secure-keys.json`).
pub fn secure_keys_path(values_path: &Path) -> PathBuf {
    let stem = values_path
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default();
    values_path.with_file_name(format!("{stem}.secure-keys.json"))
}

/// The secure keys of a custom page's stored values (none when the file is missing).
pub fn read_secure_keys(values_path: &Path) -> Vec<String> {
    crate::read::read_file(&secure_keys_path(values_path))
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
/// value, and `__meta.secure`'s keys beside the file. A secure key the page left out keeps its
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
    let meta = posted.remove("__meta").unwrap_or(Json::Null);
    let secure = match meta.get("secure").cloned().unwrap_or(json!([])) {
        Json::Array(keys) if keys.iter().all(Json::is_string) => keys
            .iter()
            .filter_map(|key| key.as_str().map(str::to_owned))
            .collect::<Vec<_>>(),
        _ => {
            return (
                400,
                json!({"error": "postConfigs() returned a `__meta.secure` that is not a list of keys; \
                    write `__meta: {secure: [\"key\", ...]}`"}),
            );
        }
    };
    let stored = read_stored(path);
    let mut secure_kept = secure.clone();
    for key in read_secure_keys(path) {
        if !posted.contains_key(&key)
            && let Some(value) = stored.get(&key)
        {
            posted.insert(key.clone(), value.clone());
            if !secure_kept.contains(&key) {
                secure_kept.push(key);
            }
        }
    }
    let defs = page_defs(posted.keys(), &secure_kept);
    let shown = path.display().to_string();
    let findings = masked(findings.clone(), &posted, &defs);
    let text = ordered_text(&posted, &defs);
    let diagnostics = match known {
        Some((page, settings)) => {
            let values = SourceText::decode(text.as_bytes());
            let report = check_values(Definitions::Page(page), &values, settings);
            let found = Json::Array(json_findings(&shown, values.text(), &report));
            masked(found, &posted, &defs)
        }
        None => json!([]),
    };
    let keys = json!(secure_kept).to_string();
    let written = prepare_folder(path)
        .and_then(|()| crate::write::write_private(path, text.as_bytes()))
        .and_then(|()| crate::write::write_private(&secure_keys_path(path), keys.as_bytes()));
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

/// The values file's text: the iparams in file order, then any other key, one a line.
fn ordered_text(values: &Map<String, Json>, defs: &[Declared]) -> String {
    let mut keys: Vec<&String> = defs
        .iter()
        .filter_map(|d| values.get_key_value(&d.key).map(|(k, _)| k))
        .collect();
    keys.extend(values.keys().filter(|k| !defs.iter().any(|d| d.key == **k)));
    let lines: Vec<String> = keys
        .iter()
        .map(|key| format!("  {}: {}", json!(key), values[key.as_str()]))
        .collect();
    if lines.is_empty() {
        "{}\n".to_owned()
    } else {
        format!("{{\n{}\n}}\n", lines.join(",\n"))
    }
}

/// `diagnostics` with every secure value that appears in them masked (the rules mask what they
/// quote already; this keeps a value out of the answer whatever a message says).
fn masked(diagnostics: Json, values: &Map<String, Json>, defs: &[Declared]) -> Json {
    let secrets = defs
        .iter()
        .filter(|d| d.secure)
        .filter_map(|d| values.get(&d.key))
        .map(text_of);
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
        let stored = json!({"domain": "acme", "key": "s3cret-value", "empty": ""});
        let Json::Object(stored) = stored else {
            unreachable!()
        };
        let defs = [def("domain", false), def("key", true), def("empty", true)];
        let (shown, set) = for_page(&stored, &defs);
        assert_eq!(shown, json!({"domain": "acme"}));
        assert_eq!(set, ["key"]);
    }

    #[test]
    fn values_are_written_in_file_order() {
        let Json::Object(values) = json!({"a": 1, "b": [true], "z": "x"}) else {
            unreachable!()
        };
        let text = ordered_text(&values, &[def("z", false), def("a", false)]);
        assert_eq!(
            text,
            "{\n  \"z\": \"x\",\n  \"a\": 1,\n  \"b\": [true]\n}\n"
        );
    }

    #[test]
    fn secure_values_are_masked_in_findings() {
        let Json::Object(values) = json!({"key": "s3cret\"x"}) else {
            unreachable!()
        };
        let found = masked(
            json!([{"message": "bad s3cret\"x here"}]),
            &values,
            &[def("key", true)],
        );
        assert_eq!(found, json!([{"message": "bad **** here"}]));
    }
}
