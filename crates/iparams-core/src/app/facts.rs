//! What in-file rules may know of the app around iparams.json: the manifest's and the
//! callbacks' facts.

use std::collections::HashSet;

use super::input::AppInput;
use super::js::{self, JsFacts, Script, UtilsMethod};
use super::manifest::{self, Manifest, Platform};
use crate::source::SourceText;

/// What in-file rules may know of the app around iparams.json.
#[derive(Clone, Debug, Default)]
pub struct AppFacts {
    /// `None` when manifest.json cannot be read.
    pub manifest: Option<Manifest>,
    /// Whether config/assets/iparams.js exists and was read.
    pub has_callbacks: bool,
    /// Keys that a callback shows or gives a value with `utils.set`.
    pub revealed: HashSet<String>,
    /// Keys whose options a callback sets with `utils.set(key, {values: …})`.
    pub filled: HashSet<String>,
    /// The other SDK the app is written for, if its manifest says so (see
    /// [`manifest::FOREIGN_SDKS`]).
    pub foreign: Option<&'static str>,
}

impl AppFacts {
    pub fn platform(&self) -> Option<Platform> {
        self.manifest.as_ref()?.platform
    }
}

impl AppInput<'_> {
    /// What in-file rules may know of this app (for fixing iparams.json before checking it).
    pub fn facts(&self) -> AppFacts {
        let reading = manifest::read(SourceText::decode(self.manifest.bytes).text());
        let callbacks = self.callbacks.map(|file| {
            js::analyze(
                SourceText::decode(file.bytes).text(),
                file.path,
                0,
                Script::Callbacks,
            )
        });
        facts_of(&reading, callbacks.as_ref())
    }
}

pub(crate) fn facts_of(
    reading: &manifest::ManifestReading,
    callbacks: Option<&JsFacts>,
) -> AppFacts {
    let readable =
        reading.syntax_errors.iter().all(|e| !e.fatal) && reading.manifest.platform.is_some();
    AppFacts {
        manifest: readable.then(|| reading.manifest.clone()),
        has_callbacks: callbacks.is_some(),
        revealed: callbacks.map(revealed_keys).unwrap_or_default(),
        filled: callbacks.map(filled_keys).unwrap_or_default(),
        foreign: reading.manifest.foreign,
    }
}

/// The keys whose options a callback sets (`utils.set(key, {values: […]})`).
fn filled_keys(callbacks: &JsFacts) -> HashSet<String> {
    set_keys(callbacks, &["values"])
}

/// The keys a callback makes visible or gives a value to, so a hidden required field can be
/// filled after all.
fn revealed_keys(callbacks: &JsFacts) -> HashSet<String> {
    set_keys(callbacks, &["visible", "value"])
}

/// The keys given one of `attributes` by a `utils.set` call.
fn set_keys(callbacks: &JsFacts, attributes: &[&str]) -> HashSet<String> {
    callbacks
        .utils_calls
        .iter()
        .filter(|call| {
            call.method == UtilsMethod::Set
                && call
                    .attributes
                    .iter()
                    .any(|a| attributes.contains(&a.name.as_str()))
        })
        .filter_map(|call| call.key.as_ref().map(|(key, _)| key.clone()))
        .collect()
}
