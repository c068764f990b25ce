//! Reading a file from the disk, a large one on every core.
//!
//! Reading megabytes from the page cache into memory just allocated is mostly the kernel
//! mapping that memory in, a page at a time, and copying into it: one core did it for a 10 MB
//! file (10 ms, before any byte was parsed), where each core can do a part.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use rayon::prelude::*;

/// Files from this size on are read in pieces on every thread.
const READ_IN_PARALLEL_FROM: usize = 1 << 20;

/// The bytes of a piece: each thread reads whole pieces.
const PIECE: usize = 1 << 20;

/// The bytes of the file at `path`, as [`std::fs::read`] gives them.
pub fn read_file(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = File::open(path)?;
    let size = file
        .metadata()
        .map_or(0, |metadata| usize::try_from(metadata.len()).unwrap_or(0));
    let mut bytes = if size >= READ_IN_PARALLEL_FROM && rayon::current_num_threads() >= 2 {
        match read_in_pieces(&file, size) {
            Ok(bytes) => bytes,
            // Shrunk meanwhile, or a file that cannot be read at an offset: from the start.
            Err(_) => return std::fs::read(path),
        }
    } else {
        let mut bytes = Vec::new();
        if read_whole(&mut file, size, &mut bytes)? {
            return Ok(bytes);
        }
        bytes
    };
    // The rest: anything a large file grew by since its size was asked (its pieces were read at
    // offsets: on from their end), or what one read did not bring. Through `take`: a file's
    // own `read_to_end` asks for its size and position again.
    if !bytes.is_empty() {
        file.seek(SeekFrom::Start(bytes.len() as u64))?;
    }
    file.take(u64::MAX).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Reads a small file in one call into empty `bytes`, asking for a byte more than its `size`:
/// when exactly `size` bytes come, that is the file as its size was asked, and `read_to_end`'s
/// last read (the one that finds nothing more, a system call per file) is not needed. Anything
/// else (fewer bytes, more, an error midway) is left to `read_to_end`, on from what came.
/// Whether it was done.
fn read_whole(file: &mut File, size: usize, bytes: &mut Vec<u8>) -> io::Result<bool> {
    if size == 0 {
        return Ok(false);
    }
    bytes.resize(size + 1, 0);
    let came = loop {
        match file.read(bytes) {
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
            Ok(came) => break came,
        }
    };
    bytes.truncate(came);
    Ok(came == size)
}

#[cfg(unix)]
fn read_in_pieces(file: &File, size: usize) -> io::Result<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    // Zeroed memory comes from the system untouched: each thread maps in its own pieces.
    let mut bytes = vec![0; size];
    bytes
        .par_chunks_mut(PIECE)
        .enumerate()
        .try_for_each(|(index, piece)| file.read_exact_at(piece, (index * PIECE) as u64))?;
    Ok(bytes)
}

#[cfg(not(unix))]
fn read_in_pieces(_: &File, _: usize) -> io::Result<Vec<u8>> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of its own under the temporary folder, removed when dropped.
    struct Scratch(std::path::PathBuf);

    impl Scratch {
        fn with(name: &str, bytes: &[u8]) -> Self {
            let path =
                std::env::temp_dir().join(format!("iparams-read-{}-{name}", std::process::id()));
            std::fs::write(&path, bytes).expect("writable");
            Scratch(path)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    /// Bytes that differ from piece to piece and within each, so that a piece read at the wrong
    /// offset or twice shows.
    fn varied(length: usize) -> Vec<u8> {
        (0..length).map(|at| (at * 31 + at / PIECE) as u8).collect()
    }

    #[test]
    fn files_of_every_size_are_read_whole() {
        for length in [
            0,
            1,
            READ_IN_PARALLEL_FROM - 1,
            READ_IN_PARALLEL_FROM,
            3 * PIECE + 12_345,
            5 * PIECE,
        ] {
            let bytes = varied(length);
            let file = Scratch::with(&length.to_string(), &bytes);
            assert!(
                read_file(&file.0).expect("readable") == bytes,
                "{length} bytes"
            );
        }
    }

    /// A size that is not the file's (it grew or shrank since it was asked) is not taken for
    /// the end: what came is kept for `read_to_end` to go on from.
    #[test]
    fn one_read_is_the_whole_file_only_at_its_size() {
        let bytes = varied(1000);
        let file = Scratch::with("sizes", &bytes);
        for (size, whole, came) in [(1000, true, 1000), (999, false, 1000), (1200, false, 1000)] {
            let mut read = Vec::new();
            let mut opened = File::open(&file.0).expect("readable");
            let done = read_whole(&mut opened, size, &mut read).expect("readable");
            assert_eq!((done, read.len()), (whole, came), "size {size}");
            assert!(read[..] == bytes[..came], "size {size}");
        }
    }

    #[test]
    fn a_missing_file_is_an_error_as_std_gives_it() {
        let path = std::env::temp_dir().join("iparams-read-missing-file");
        let ours = read_file(&path).expect_err("missing");
        let theirs = std::fs::read(&path).expect_err("missing");
        assert_eq!(ours.kind(), theirs.kind());
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_is_an_error_as_std_gives_it() {
        let folder = std::env::temp_dir();
        let ours = read_file(&folder).expect_err("a folder");
        let theirs = std::fs::read(&folder).expect_err("a folder");
        assert_eq!(ours.kind(), theirs.kind());
    }
}
