//! The sandbox's API keys masked in what it shows: its answers and its log of requests.

use std::borrow::Cow;

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
