//! Secrets committed in an app's code: what its scripts write in string literals, template
//! literals and comments. The scripts' analysis (js.rs) asks what each string is, so that every
//! output masks it, and keeps what the rules about code report.

use oxc_ast::ast::Comment;

use super::written_credentials::scheme_and_literal;
use crate::secrets::{self, Secret};
use crate::span::Span;

/// What a secret written in code is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodeSecretKind {
    /// A known credential format, or a scheme and a literal (`Bearer 8f3K…`): its kind.
    Credential(&'static str),
    /// A string with the look of a key, given to a name meaning a secret (`apiKey: "…"`): the
    /// name.
    Named(String),
}

/// One secret written in a script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeSecret {
    pub kind: CodeSecretKind,
    /// The string, or the whole comment: what every output masks.
    pub span: Span,
    pub in_comment: bool,
}

/// What a string of code holds that must not be shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InString {
    /// A credential, of this kind: reported and masked.
    Credential(&'static str),
    /// A long random token, or a scheme before a placeholder (`Bearer YOUR_TOKEN`): masked,
    /// not reported.
    Masked,
}

/// What a string literal, or a literal part of a template literal, holds: a known credential
/// format, a scheme and a key (`Bearer 8f3Kq2LmN5vX1tK9`, `Token token=…`), or something masked
/// only.
pub(crate) fn in_string(text: &str) -> Option<InString> {
    let secret = secrets::secret_in(text, true);
    if let Some(Secret::Credential(kind)) = secret {
        return Some(InString::Credential(kind));
    }
    match scheme_and_literal(text) {
        Some((scheme, literal)) => Some(match (scheme_kind(scheme), key_after_scheme(literal)) {
            (Some(kind), true) => InString::Credential(kind),
            _ => InString::Masked,
        }),
        None => secret.map(|_| InString::Masked),
    }
}

/// The kind of credential a scheme introduces; `Basic` values are a known format of their own
/// (decoded), and `Digest` carries no secret.
fn scheme_kind(scheme: &str) -> Option<&'static str> {
    if scheme.eq_ignore_ascii_case("bearer") {
        Some("a bearer token")
    } else if scheme.eq_ignore_ascii_case("token") {
        Some("an API token")
    } else {
        None
    }
}

/// Whether what follows a scheme is a key: one word of a key's characters, with a digit, that
/// is no placeholder (`YOUR_TOKEN`, `xxxxxxxx`).
fn key_after_scheme(literal: &str) -> bool {
    let key = literal
        .get(..6)
        .filter(|name| name.eq_ignore_ascii_case("token="))
        .map_or(literal, |_| &literal[6..]);
    key.len() >= 8
        && key.bytes().all(is_key_byte)
        && key.bytes().any(|byte| byte.is_ascii_digit())
        && !is_placeholder(key)
}

/// Whether a string given to a name meaning a secret (`apiKey`, `CLIENT_SECRET`) looks like a
/// key: one word of 16 or more of a key's characters, letters and digits spread out, that is no
/// placeholder, URL or path. Shorter values, prose and names are kept masked, not reported.
pub(crate) fn is_key_shaped(value: &str) -> bool {
    value.len() >= 16
        && value.len() <= 512
        && value.bytes().all(is_key_byte)
        && !is_placeholder(value)
        && secrets::looks_random(value)
}

/// `[A-Za-z0-9._~+/=-]`: what keys, tokens and their base64 are written with.
fn is_key_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_' | b'~' | b'+' | b'/' | b'=' | b'-')
}

/// Words that mark a value written to be replaced.
const PLACEHOLDER_WORDS: [&str; 10] = [
    "your",
    "xxxx",
    "example",
    "placeholder",
    "sample",
    "dummy",
    "changeme",
    "replace",
    "insert",
    "redacted",
];

/// Whether a value is written to be replaced: it says so (`YOUR_API_KEY`, `xxxx…`,
/// `example-token-1`), or it is a constant's name (capitals and `_`, no lower case), or one
/// character over and over.
fn is_placeholder(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let says_so = PLACEHOLDER_WORDS.iter().any(|word| lower.contains(word));
    let constant_name = value.contains('_') && !value.bytes().any(|byte| byte.is_ascii_lowercase());
    let repeated = value.bytes().all(|byte| byte == value.as_bytes()[0]);
    says_so || constant_name || repeated
}

/// The comments of a script that hold a known credential format, each masked whole.
pub(crate) fn in_comments(
    comments: &[Comment],
    text: &str,
    shift: &dyn Fn(oxc_span::Span) -> Span,
) -> Vec<CodeSecret> {
    comments
        .iter()
        .filter_map(|comment| {
            let content = comment.content_span();
            let written = text.get(content.start as usize..content.end as usize)?;
            match secrets::secret_in(written, false)? {
                Secret::Credential(kind) => Some(CodeSecret {
                    kind: CodeSecretKind::Credential(kind),
                    span: shift(comment.span),
                    in_comment: true,
                }),
                Secret::RandomToken(..) => None,
            }
        })
        .collect()
}

/// How a script file is written, which decides what is reported in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Authored {
    /// The app's own code.
    Own,
    /// Minified or bundled (lines of 300 bytes on average): its names are not the author's,
    /// and a library's long strings are in it, so only known credential formats are reported.
    Minified,
    /// A library's file (`.min.` in its name, or under `vendor/`, `vendors/`, `third_party/`,
    /// `bower_components/`): not the app's secrets, nothing reported (still masked).
    ThirdParty,
}

/// Folders that hold other people's code.
const THIRD_PARTY_FOLDERS: [&str; 5] = [
    "vendor",
    "vendors",
    "third_party",
    "third-party",
    "bower_components",
];

/// How the script at `path` (inside the app) whose text is `text` is written.
pub fn authored(path: &str, text: &str) -> Authored {
    let mut parts = path.rsplit('/');
    let name = parts.next().unwrap_or_default().to_ascii_lowercase();
    if name.contains(".min.")
        || name.ends_with("-min.js")
        || parts.any(|folder| THIRD_PARTY_FOLDERS.contains(&folder.to_ascii_lowercase().as_str()))
    {
        return Authored::ThirdParty;
    }
    const MINIFIED_LINE: usize = 300;
    let lines = text.bytes().filter(|&byte| byte == b'\n').count() + 1;
    if text.len() >= 1024 && text.len() / lines >= MINIFIED_LINE {
        Authored::Minified
    } else {
        Authored::Own
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_formats_and_schemes_with_keys_are_credentials() {
        for text in [
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "Basic ZHczOnMzY3IzdA==",
            "Bearer 8f3Kq2LmN5vX1tK9",
            "Token token=c2VjcmV0a2V5MTI=",
            "AKIAIOSFODNN7EXAMPLE",
        ] {
            assert!(
                matches!(in_string(text), Some(InString::Credential(_))),
                "{text}"
            );
        }
    }

    #[test]
    fn placeholders_and_prose_are_not_credentials() {
        for text in [
            "Bearer YOUR_ACCESS_TOKEN",
            "Bearer xxxxxxxxxxxx",
            "Bearer undefined",
            "Token token=",
            "Basic authentication",
            "Bearer ",
            "https://example.freshdesk.com/api/v2/tickets",
        ] {
            assert!(
                !matches!(in_string(text), Some(InString::Credential(_))),
                "{text}"
            );
        }
        // Still masked: it has the shape of a credential's place.
        assert_eq!(
            in_string("Bearer YOUR_ACCESS_TOKEN"),
            Some(InString::Masked)
        );
    }

    #[test]
    fn keys_given_to_secret_names_are_told_from_placeholders() {
        for key in [
            "q8Zr2LmN5vX1tK9wAb3d",
            "9f86d081884c7d659a2feaa0c55ad015",
            "45a7b766-fdb4-4aac-974a-10b3d5720030",
        ] {
            assert!(is_key_shaped(key), "{key}");
        }
        for value in [
            "YOUR_API_KEY_HERE_2024",
            "xxxxxxxxxxxxxxxxxxxx",
            "enter-your-api-key-1",
            "https://api.example.com/v2",
            "api_key_from_settings",
            "Authorization header",
            "abcdefghijklmnopqrst",
            "1111111111111111",
        ] {
            assert!(!is_key_shaped(value), "{value}");
        }
    }

    #[test]
    fn third_party_and_minified_files_are_told_by_name_and_lines() {
        assert_eq!(
            authored("app/scripts/app.js", "let a = 1;\n"),
            Authored::Own
        );
        assert_eq!(
            authored("app/lib/jquery.min.js", "let a = 1;\n"),
            Authored::ThirdParty
        );
        assert_eq!(
            authored("config/assets/vendor/chart.js", "let a = 1;\n"),
            Authored::ThirdParty
        );
        let bundle = "var a=1;".repeat(200);
        assert_eq!(
            authored("app/scripts/main.21e067c1.js", &bundle),
            Authored::Minified
        );
    }
}
