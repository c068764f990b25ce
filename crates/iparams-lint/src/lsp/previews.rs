//! The previews of installation pages a language server started ([`super::preview`]), by app:
//! started with the editor's text, given each later edit, stopped with the server.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::cli::RuleArgs;
use crate::preview::{self, App, Launch, Running};
use crate::workspace::{INSTALLED_VALUES_FILE, Workspace};

/// The previews the server started, by their app's folder.
#[derive(Debug, Default)]
pub struct Previews {
    running: BTreeMap<PathBuf, Running>,
}

impl Previews {
    /// The address of the preview of the app at `root`, started now (with the editor's text of
    /// its files, from `workspace`) unless it runs already.
    pub fn open(&mut self, root: &Path, workspace: &Workspace) -> Result<String, String> {
        if let Some(running) = self.running.get(root) {
            return Ok(running.url());
        }
        preview::installation_page_of(root)?;
        let mut app = App::new(root, &RuleArgs::default())?;
        for relative in workspace.overlaid_in(root) {
            let path = root.join(&relative);
            app.edit(&path, workspace.overlaid(&path).map(<[u8]>::to_vec));
        }
        let launch = Launch {
            values_path: root.join(INSTALLED_VALUES_FILE),
            in_editor: true,
            ..Launch::default()
        };
        let running = preview::start_with(app, launch)?;
        let url = running.url();
        self.running.insert(root.to_owned(), running);
        Ok(url)
    }

    /// The editor's text of the file at `path` (`None`: closed, the disk's counts again), for
    /// the preview of its app if one runs.
    pub fn edited(&self, path: &Path, text: Option<&str>) {
        for (root, running) in &self.running {
            if path.starts_with(root) {
                let edited = text.map(|text| text.as_bytes().to_vec());
                running.shared.app().edit(path, edited);
            }
        }
    }

    /// Configuration changed: each preview reads it again at its next reload.
    pub fn forget_configuration(&self) {
        for running in self.running.values() {
            running.shared.app().workspace.forget_configuration();
        }
    }

    /// Stops the preview of the app at `root`; whether one ran.
    pub fn stop(&mut self, root: &Path) -> bool {
        match self.running.remove(root) {
            Some(running) => {
                running.stop();
                true
            }
            None => false,
        }
    }

    /// Stops every preview (the server shuts down).
    pub fn stop_all(&mut self) {
        for (_, running) in std::mem::take(&mut self.running) {
            running.stop();
        }
    }
}

impl Drop for Previews {
    fn drop(&mut self) {
        self.stop_all();
    }
}
