//! Text transforms both the service and its HTTP front (local.rs) use: below both, so neither
//! imports the other for them.

use std::borrow::Cow;

/// `text` with its `%XX` escapes decoded; `None` for a bad escape or bytes that are not UTF-8.
pub fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// `text` with everything shaped like one of the sandbox's API keys (`sbx_` and at least 16 hex
/// digits) masked as `sbx_****`.
pub fn mask_keys(text: &str) -> Cow<'_, str> {
    const PREFIX: &str = "sbx_";
    if !text.contains(PREFIX) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(PREFIX) {
        let after = &rest[at + PREFIX.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_hexdigit).count();
        out.push_str(&rest[..at + PREFIX.len()]);
        out.push_str(if digits >= 16 {
            "****"
        } else {
            &after[..digits]
        });
        rest = &after[digits..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}
