//! Writing fixed files: atomically, keeping permissions, and never over a change made since
//! the file was read.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

use crate::read::read_file;

#[derive(Debug)]
pub enum WriteError {
    /// The file on disk is no longer what was read and fixed.
    Changed,
    Io(io::Error),
}

impl From<io::Error> for WriteError {
    fn from(error: io::Error) -> Self {
        WriteError::Io(error)
    }
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Changed => {
                f.write_str("it changed while being checked; not written, run again")
            }
            WriteError::Io(error) => write!(f, "cannot write the fixes: {error}"),
        }
    }
}

/// Replaces the contents of `path` with `new`, provided it still holds `expected`: the new
/// text goes to a temporary file beside it, which then takes its place in one rename, so a
/// reader sees the old file or the new one, never a mix. A symbolic link is written through.
pub fn replace_file(path: &Path, expected: &[u8], new: &[u8]) -> Result<(), WriteError> {
    let target = fs::canonicalize(path)?;
    if read_file(&target)? != expected {
        return Err(WriteError::Changed);
    }
    let permissions = fs::metadata(&target)?.permissions();
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary =
        target.with_file_name(format!(".{name}.iparams-lint-{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)?;
        file.write_all(new)?;
        file.sync_all()?;
        fs::set_permissions(&temporary, permissions)?;
        // The last moment to notice a concurrent edit.
        if read_file(&target)? != expected {
            return Err(WriteError::Changed);
        }
        fs::rename(&temporary, &target)?;
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result
}

/// Writes `new` to `path` (its folder made if needed), readable by its owner only: a temporary
/// file beside it, created with those permissions, takes its place in one rename. For files that
/// hold secrets, such as the values the preview's INSTALL stores.
pub fn write_private(path: &Path, new: &[u8]) -> io::Result<()> {
    write_whole(path, new, 0o600)
}

/// Writes `new` to `path` (its folder made if needed) in one rename, with the usual
/// permissions of a new file (`mode` before the umask): a reader never sees half a report.
pub fn write_new(path: &Path, new: &[u8]) -> io::Result<()> {
    write_whole(path, new, 0o666)
}

/// Creates the file `path` holding `new`, whole or not at all, and never over anything already
/// there (a file, a folder, a symbolic link, even a dangling one): the text goes to a temporary
/// file beside it, which is then linked in under its name, a step that fails when the name is
/// taken. `ErrorKind::AlreadyExists` then.
pub fn create_new(path: &Path, new: &[u8]) -> io::Result<()> {
    let taken = || io::Error::new(io::ErrorKind::AlreadyExists, "it already exists");
    if fs::symlink_metadata(path).is_ok() {
        return Err(taken());
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = path.with_file_name(format!(".{name}.iparams-lint-{}.new", std::process::id()));
    let result = (|| {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)?;
        file.write_all(new)?;
        file.sync_all()?;
        match fs::hard_link(&temporary, path) {
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => Err(taken()),
            // A file system without hard links: the name was free a moment ago.
            Err(_) if fs::symlink_metadata(path).is_err() => fs::rename(&temporary, path),
            other => other,
        }
    })();
    let _ = fs::remove_file(&temporary);
    result
}

fn write_whole(path: &Path, new: &[u8], mode: u32) -> io::Result<()> {
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(folder)?;
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // One name per write, not per process: a server stores from several threads at once.
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let write = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temporary = path.with_file_name(format!(
        ".{name}.iparams-lint-{}-{write}.tmp",
        std::process::id()
    ));
    let result = (|| {
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(mode);
        }
        #[cfg(not(unix))]
        let _ = mode;
        let mut file = options.open(&temporary)?;
        file.write_all(new)?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("iparams-lint-write-{}-{name}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn create_new_never_writes_over_what_is_there() {
        let dir = scratch("create-new");
        let file = dir.join("made.toml");
        let _ = fs::remove_file(&file);
        create_new(&file, b"first").unwrap();
        assert_eq!(fs::read(&file).unwrap(), b"first");
        let again = create_new(&file, b"second").unwrap_err();
        assert_eq!(again.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read(&file).unwrap(), b"first");
        // A dangling link is a name taken too: nothing is written where it points.
        let link = dir.join("link.toml");
        let _ = fs::remove_file(&link);
        std::os::unix::fs::symlink(dir.join("elsewhere.toml"), &link).unwrap();
        assert!(create_new(&link, b"x").is_err());
        assert!(!dir.join("elsewhere.toml").exists());
        let leftovers = fs::read_dir(&dir)
            .unwrap()
            .filter(|entry| {
                entry
                    .as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".new")
            })
            .count();
        assert_eq!(leftovers, 0);
    }

    #[test]
    fn replaces_and_keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("perm");
        let file = dir.join("iparams.json");
        fs::write(&file, b"old").unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
        replace_file(&file, b"old", b"new").unwrap();
        assert_eq!(fs::read(&file).unwrap(), b"new");
        assert_eq!(
            fs::metadata(&file).unwrap().permissions().mode() & 0o777,
            0o640
        );
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary file is left behind"
        );
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn private_files_are_the_owners_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("private");
        let file = dir.join("nested/installed.json");
        write_private(&file, b"{}").unwrap();
        write_private(&file, b"{\"a\": 1}").unwrap();
        assert_eq!(fs::read(&file).unwrap(), b"{\"a\": 1}");
        assert_eq!(
            fs::metadata(&file).unwrap().permissions().mode() & 0o777,
            0o600
        );
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn refuses_a_file_changed_since_it_was_read() {
        let dir = scratch("changed");
        let file = dir.join("iparams.json");
        fs::write(&file, b"edited meanwhile").unwrap();
        assert!(matches!(
            replace_file(&file, b"old", b"new"),
            Err(WriteError::Changed)
        ));
        assert_eq!(fs::read(&file).unwrap(), b"edited meanwhile");
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn writes_through_symbolic_links() {
        let dir = scratch("link");
        let file = dir.join("real.json");
        let link = dir.join("iparams.json");
        fs::write(&file, b"old").unwrap();
        std::os::unix::fs::symlink(&file, &link).unwrap();
        replace_file(&link, b"old", b"new").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&file).unwrap(), b"new");
        fs::remove_dir_all(dir).unwrap();
    }
}
