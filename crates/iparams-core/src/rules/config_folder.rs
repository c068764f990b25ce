//! What config/ may hold, shared by the rules about its files.

/// Files the platform accepts in config/.
pub const ACCEPTED_FILES: [&str; 6] = [
    "iparams.json",
    "iparams.html",
    "iparam_test_data.json",
    "oauth_config.json",
    "requests.json",
    "entities.json",
];

/// The one folder it accepts there.
pub const ACCEPTED_FOLDER: &str = "assets";

pub fn has(entries: &[(String, bool)], name: &str) -> bool {
    entries
        .iter()
        .any(|(entry, folder)| entry == name && !folder)
}
