//! The one way a file of the user's is read: bounded, and only a regular file.
//!
//! A path in an app may be a link to anything: `/dev/zero`, `/proc/self/pagemap` (a regular
//! file of size 0 that never ends), a FIFO nobody writes to. Each is refused, at once, rather
//! than read for ever: the file is opened without blocking (`O_NONBLOCK`: opening a FIFO with no
//! writer returns at once), its type and size are asked of the opened descriptor (`fstat`, so no
//! rename between the look and the read can swap it), and at most [`MAX_FILE_BYTES`] are read,
//! whatever size it declared.
//!
//! Reading megabytes from the page cache into memory just allocated is mostly the kernel
//! mapping that memory in, a page at a time, and copying into it: one core did it for a 10 MB
//! file (10 ms, before any byte was parsed), where each core can do a part.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use rayon::prelude::*;

/// The most bytes a file is read to. Far above anything an app holds as its own (the core leaves
/// scripts over 2 MB unread, and a real iparams.json is kilobytes), far below what would exhaust
/// memory.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;
/// [`MAX_FILE_BYTES`] as messages name it.
pub const MAX_FILE_SHOWN: &str = "64 MiB";

/// Files from this size on are read in pieces on every thread.
const READ_IN_PARALLEL_FROM: usize = 1 << 20;

/// The bytes of a piece: each thread reads whole pieces.
const PIECE: usize = 1 << 20;

/// The bytes of the regular file at `path`, as [`std::fs::read`] gives them; a folder is
/// `IsADirectory`, anything else that is not a regular file (a FIFO, a device, a socket) and a
/// file over [`MAX_FILE_BYTES`] an error that says so.
pub fn read_file(path: &Path) -> io::Result<Vec<u8>> {
    let (mut file, size) = open_regular(path)?;
    let size = usize::try_from(size).unwrap_or(usize::MAX);
    let mut bytes = if size >= READ_IN_PARALLEL_FROM && rayon::current_num_threads() >= 2 {
        match read_in_pieces(&file, size) {
            Ok(bytes) => bytes,
            // Shrunk meanwhile, or a file that cannot be read at an offset: from the start.
            Err(_) => {
                file.seek(SeekFrom::Start(0))?;
                Vec::new()
            }
        }
    } else {
        let mut bytes = Vec::new();
        if read_whole(&mut file, size, &mut bytes)? {
            return Ok(bytes);
        }
        bytes
    };
    // The rest: anything a large file grew by since its size was asked (its pieces were read at
    // offsets: on from their end), or what one read did not bring; never past the limit, with
    // one byte more to tell a file at the limit from one beyond it. Through `take`: a file's
    // own `read_to_end` asks for its size and position again.
    if !bytes.is_empty() {
        file.seek(SeekFrom::Start(bytes.len() as u64))?;
    }
    let left = (MAX_FILE_BYTES + 1).saturating_sub(bytes.len() as u64);
    let read = file.take(left).read_to_end(&mut bytes);
    bounded(read, bytes)
}

/// `bytes`, unless they are more than the limit; a read that failed once the limit was reached
/// is over it too (`/proc/self/pagemap` refuses the last, unaligned read of one byte).
fn bounded(read: io::Result<usize>, bytes: Vec<u8>) -> io::Result<Vec<u8>> {
    let length = bytes.len() as u64;
    if length > MAX_FILE_BYTES || (read.is_err() && length == MAX_FILE_BYTES) {
        return Err(too_large(None));
    }
    read.map(|_| bytes)
}

/// The text of the regular file at `path`, as [`read_file`] reads it; bytes that are not UTF-8
/// are `InvalidData`, as [`std::fs::read_to_string`] has them.
pub fn read_text(path: &Path) -> io::Result<String> {
    String::from_utf8(read_file(path)?).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )
    })
}

/// Standard input, to [`MAX_FILE_BYTES`] at most.
pub fn read_input(input: &mut dyn Read) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let read = input.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes);
    bounded(read, bytes)
}

/// `path` opened for reading, and its size, when it is a regular file not over the limit. A
/// folder opens (and is `IsADirectory`, as reading it would say); `O_NOCTTY`, so that a terminal
/// is never taken on.
fn open_regular(path: &Path) -> io::Result<(File, u64)> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path)?;
    let metadata = file.metadata()?;
    if metadata.is_dir() {
        return Err(io::Error::new(io::ErrorKind::IsADirectory, "is a folder"));
    }
    if !metadata.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{}, not a regular file: only regular files are read",
                kind_of(&metadata)
            ),
        ));
    }
    if metadata.len() > MAX_FILE_BYTES {
        return Err(too_large(Some(metadata.len())));
    }
    Ok((file, metadata.len()))
}

/// The error of a file over the limit, with its size when it declared one.
fn too_large(size: Option<u64>) -> io::Error {
    let size = size.map_or_else(|| "too large".to_owned(), |size| format!("{size} bytes"));
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("{size}: a file is read to {MAX_FILE_SHOWN} at most"),
    )
}

/// What a file that is neither a folder nor a regular file is.
fn kind_of(metadata: &Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = metadata.file_type();
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    let _ = metadata;
    "a special file"
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

    /// The outcome of `read`, run on a thread of its own; a failure when it has not come within
    /// 10 seconds (a read that waits for ever).
    fn within_seconds<T: Send + 'static>(read: impl FnOnce() -> T + Send + 'static) -> T {
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = sender.send(read());
        });
        receiver
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("an answer within 10 s: the read must not wait")
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_at_once_never_waited_on() {
        let path = std::env::temp_dir().join(format!("iparams-read-{}-fifo", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|status| status.success()), "mkfifo");
        let read = path.clone();
        let error = within_seconds(move || read_file(&read)).expect_err("a FIFO");
        let _ = std::fs::remove_file(&path);
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(
            error.to_string(),
            "a FIFO, not a regular file: only regular files are read"
        );
    }

    /// A device is refused before a byte is read; a file that never ends (`/proc/self/pagemap`
    /// says it is a regular file of size 0) is read to the limit, and no further.
    #[cfg(target_os = "linux")]
    #[test]
    fn endless_files_are_refused_within_the_limit() {
        let zero = within_seconds(|| read_file(Path::new("/dev/zero"))).expect_err("a device");
        assert_eq!(
            zero.to_string(),
            "a character device, not a regular file: only regular files are read"
        );
        let endless = within_seconds(|| read_file(Path::new("/proc/self/pagemap")))
            .expect_err("over the limit");
        assert_eq!(endless.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(
            endless.to_string(),
            "too large: a file is read to 64 MiB at most"
        );
        let input = within_seconds(|| read_input(&mut io::repeat(b'x'))).expect_err("endless");
        assert_eq!(input.kind(), io::ErrorKind::FileTooLarge);
    }

    /// A file's declared size is judged before it is read: one byte over the limit is refused
    /// (sparse, so that the test writes nothing), the limit itself is read.
    #[test]
    fn a_file_over_the_limit_is_refused_by_its_size() {
        let file = Scratch::with("limit", b"");
        let opened = std::fs::OpenOptions::new().write(true).open(&file.0);
        let opened = opened.expect("writable");
        opened.set_len(MAX_FILE_BYTES + 1).expect("sparse");
        let error = read_file(&file.0).expect_err("over the limit");
        assert_eq!(
            error.to_string(),
            "67108865 bytes: a file is read to 64 MiB at most"
        );
        opened.set_len(MAX_FILE_BYTES).expect("sparse");
        assert_eq!(
            read_file(&file.0).map(|bytes| bytes.len() as u64).ok(),
            Some(MAX_FILE_BYTES)
        );
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
