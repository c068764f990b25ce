//! The protocol's framing on standard input and output: `Content-Length: N`, a blank line, N
//! bytes of JSON-RPC. Read here rather than by `lsp-server`'s own reader, which allocates
//! whatever length it is told (a length of 10^12 aborted the process) and ends the session
//! without a word on any framing error. Every framing error here is a message on standard
//! error naming the message and byte where it is, and a non-zero exit.

use std::io::{BufRead, Read};
use std::thread::JoinHandle;

use lsp_server::{Connection, Message};

/// The largest message body read; a longer one is refused before anything is allocated for it.
pub const MAX_MESSAGE: usize = 64 * 1024 * 1024;
/// The longest header line.
const MAX_HEADER_LINE: usize = 8 * 1024;

/// The threads that carry messages between the connection and standard input and output.
pub struct Io {
    reader: JoinHandle<Result<(), String>>,
    writer: JoinHandle<()>,
}

/// A connection over standard input and output.
pub fn stdio() -> (Connection, Io) {
    let (to_server, receiver) = crossbeam_channel::bounded::<Message>(0);
    let (sender, from_server) = crossbeam_channel::bounded::<Message>(0);
    let reader = std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut framing = Framing::new(stdin.lock());
        while let Some(message) = framing.next()? {
            let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
            if to_server.send(message).is_err() || exit {
                break;
            }
        }
        Ok(())
    });
    let writer = std::thread::spawn(move || {
        let stdout = std::io::stdout();
        let mut stdout = stdout.lock();
        for message in from_server {
            if message.write(&mut stdout).is_err() {
                break;
            }
        }
    });
    (Connection { sender, receiver }, Io { reader, writer })
}

impl Io {
    /// Waits for the writer to send what is queued (the connection must be dropped first);
    /// returns the reader's framing error, if it stopped on one. The reader is waited for only
    /// when `input_done`: it may be blocked on input that never comes.
    pub fn finish(self, input_done: bool) -> Result<(), String> {
        let _ = self.writer.join();
        if !input_done {
            return Ok(());
        }
        self.reader
            .join()
            .unwrap_or_else(|_| Err("the reader of standard input failed".to_owned()))
    }
}

/// Messages read from `input` one frame at a time, counting messages and bytes for errors.
pub struct Framing<R> {
    input: R,
    /// The byte of the input where the next read starts.
    offset: u64,
    /// The number of the message being read, from 1.
    number: u64,
}

impl<R: BufRead> Framing<R> {
    pub fn new(input: R) -> Self {
        Self {
            input,
            offset: 0,
            number: 0,
        }
    }

    fn fail(&self, start: u64, what: impl std::fmt::Display) -> String {
        format!(
            "message {} (byte {start} of the input): {what}; each message must be \
             `Content-Length: N`, a blank line and N bytes of JSON-RPC",
            self.number
        )
    }

    /// One header line without its CRLF; `None` at the end of the input.
    fn line(&mut self) -> Result<Option<String>, String> {
        let start = self.offset;
        let mut line = Vec::new();
        let limit = u64::try_from(MAX_HEADER_LINE).unwrap_or(u64::MAX) + 2;
        let read = (&mut self.input)
            .take(limit)
            .read_until(b'\n', &mut line)
            .map_err(|e| self.fail(start, format!("cannot read standard input: {e}")))?;
        self.offset += read as u64;
        if read == 0 {
            return Ok(None);
        }
        let Some(text) = line.strip_suffix(b"\r\n") else {
            return Err(if line.ends_with(b"\n") {
                self.fail(start, "a header line ends with LF alone, not CRLF")
            } else if read as u64 >= limit {
                self.fail(
                    start,
                    format!("a header line is over {MAX_HEADER_LINE} bytes"),
                )
            } else {
                self.fail(start, "the input ended inside a header line")
            });
        };
        String::from_utf8(text.to_vec())
            .map(Some)
            .map_err(|_| self.fail(start, "a header line is not UTF-8"))
    }

    /// The next message; `None` at the end of the input between messages.
    pub fn next(&mut self) -> Result<Option<Message>, String> {
        self.number += 1;
        let start = self.offset;
        let mut length = None;
        let mut first = true;
        loop {
            let Some(line) = self.line()? else {
                if first {
                    return Ok(None);
                }
                return Err(self.fail(start, "the input ended inside the headers"));
            };
            first = false;
            if line.is_empty() {
                break;
            }
            let Some((name, value)) = line.split_once(':') else {
                return Err(self.fail(start, format!("{:?} is not a header", shown(&line))));
            };
            if name.trim().eq_ignore_ascii_case("Content-Length") {
                let value = value.trim();
                let parsed = value
                    .bytes()
                    .all(|b| b.is_ascii_digit())
                    .then(|| value.parse::<u64>().ok())
                    .flatten()
                    .filter(|_| !value.is_empty());
                let Some(parsed) = parsed else {
                    return Err(self.fail(
                        start,
                        format!("Content-Length {:?} is not a number", shown(value)),
                    ));
                };
                length = Some(parsed);
            }
        }
        let Some(length) = length else {
            return Err(self.fail(start, "the headers have no Content-Length"));
        };
        let Some(length) = usize::try_from(length).ok().filter(|&n| n <= MAX_MESSAGE) else {
            return Err(self.fail(
                start,
                format!(
                    "Content-Length {length} is over the limit of {MAX_MESSAGE} bytes (64 MiB)"
                ),
            ));
        };
        // Grown as bytes arrive: a length is a claim until its bytes are there.
        let mut body = Vec::with_capacity(length.min(1024 * 1024));
        let read = (&mut self.input)
            .take(length as u64)
            .read_to_end(&mut body)
            .map_err(|e| self.fail(start, format!("cannot read standard input: {e}")))?;
        self.offset += read as u64;
        if read < length {
            return Err(self.fail(
                start,
                format!("the input ended {read} bytes into a body of {length}"),
            ));
        }
        // The serde error names a line and column, never the text (a message may hold a key).
        serde_json::from_slice(&body)
            .map(Some)
            .map_err(|e| self.fail(start, format!("the body is not a JSON-RPC message: {e}")))
    }
}

/// A header as shown in an error, cut as messages cut what they quote.
fn shown(text: &str) -> String {
    iparams_core::suggest::shortened(text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_error(input: &[u8]) -> String {
        let mut framing = Framing::new(input);
        loop {
            match framing.next() {
                Ok(Some(_)) => {}
                Ok(None) => panic!("no error in {input:?}"),
                Err(error) => return error,
            }
        }
    }

    #[test]
    fn framing_errors_are_named_with_their_place() {
        let exit = br#"{"jsonrpc":"2.0","method":"exit"}"#;
        let mut framed = format!("Content-Length: {}\r\n\r\n", exit.len()).into_bytes();
        framed.extend_from_slice(exit);
        let mut framing = Framing::new(&framed[..]);
        assert!(matches!(framing.next(), Ok(Some(Message::Notification(_)))));
        assert!(matches!(framing.next(), Ok(None)));
        let cases: [(&[u8], &str); 6] = [
            (
                b"Content-Length: 1000000000000\r\n\r\n",
                "over the limit of 67108864 bytes",
            ),
            (b"Content-Type: x\r\n\r\n{}", "no Content-Length"),
            (b"Content-Length: ten\r\n\r\n", "\"ten\" is not a number"),
            (
                b"Content-Length: 10\r\n\r\n{}",
                "ended 2 bytes into a body of 10",
            ),
            (b"Content-Length: 2\r\n\r\n[}", "not a JSON-RPC message"),
            (b"Content-Length: 2\n\n{}", "LF alone"),
        ];
        for (input, expected) in cases {
            let error = first_error(input);
            assert!(error.contains(expected), "{error}");
            assert!(error.starts_with("message 1 (byte 0 "), "{error}");
        }
        let mut second = framed.clone();
        second.extend_from_slice(b"Content-Length: x\r\n\r\n");
        let error = first_error(&second);
        let place = format!("message 2 (byte {} ", framed.len());
        assert!(error.starts_with(&place), "{error}");
    }
}
