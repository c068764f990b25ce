//! Rules about a custom installation page: config/iparams.html, the scripts it runs, and the
//! functions the product calls on it (`postConfigs`, `getConfigs`, `validate`).

pub(super) mod missing_app_client;
pub(super) mod missing_page_asset;
pub(super) mod page_fields_mismatch;
pub(super) mod page_function_missing;
pub(super) mod page_function_not_declared;
pub(super) mod page_keys_unknown;
pub(super) mod page_secret_not_secure;
pub(super) mod post_configs_always_throws;
pub(super) mod remote_page_resource;
pub(super) mod secure_key_not_stored;
pub(super) mod validate_not_boolean;

use crate::app::{AppModel, InstallPage, Resource};

/// The app's custom installation page, when it is the app's installation page (an app with
/// iparams.json too shows that one, and `iparams-html-and-json` says so).
pub(super) fn page<'m>(model: &'m AppModel<'_>) -> Option<&'m InstallPage> {
    model.page.as_ref().filter(|_| model.source.is_page())
}

/// Whether every script the page runs was read: a script with syntax errors, or a local one
/// the app does not have, may define anything.
pub(super) fn scripts_read(model: &AppModel<'_>, page: &InstallPage) -> bool {
    let mut loaded = page.loaded();
    let loaded_all =
        loaded.all(|(_, resource, file)| !matches!(resource, Resource::Local(_)) || file.is_some());
    loaded_all
        && model
            .install_page()
            .all(|(_, facts)| facts.syntax_errors.is_empty())
}
