//! What looks secret: sensitive iparam keys, and strings shaped like real credentials.

use std::sync::LazyLock;

use regex::RegexSet;

/// What is printed in place of a value that must not be shown.
pub const MASKED: &str = "\"********\"";

/// The fragments whose presence in a lowercased key makes the vendor validator warn that the
/// iparam "appears to be a secure param".
pub const VENDOR_FRAGMENTS: [&str; 4] = ["auth", "token", "key", "secret"];

/// The vendor exempts keys containing this.
const VENDOR_EXEMPTION: &str = "api_domain";

/// How a key reads to the secure-key heuristics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sensitivity {
    /// The key has a sensitive word (`api_key`, `authToken`, `clientSecret`, `password`).
    Word(&'static str),
    /// The key describes a secret rather than holding one: a sensitive word followed by a word
    /// such as `url` or `type` (`token_url`, `auth_type`, `api_key_header`).
    Describes {
        secret: &'static str,
        descriptor: &'static str,
    },
    /// The key contains a vendor fragment only inside another word (`monkey`, `author`).
    Substring(&'static str),
    None,
}

impl Sensitivity {
    pub fn is_word(self) -> bool {
        matches!(self, Sensitivity::Word(_))
    }
}

/// Words that name a secret on their own.
const SENSITIVE_WORDS: [&str; 14] = [
    "key",
    "keys",
    "token",
    "tokens",
    "secret",
    "secrets",
    "auth",
    "authorization",
    "password",
    "passwd",
    "pwd",
    "passphrase",
    "credential",
    "credentials",
];

/// Words that, after a sensitive word, make the key about the secret rather than the secret.
const DESCRIPTORS: [&str; 20] = [
    "url", "uri", "endpoint", "host", "domain", "name", "type", "mode", "method", "header",
    "field", "label", "id", "expiry", "expires", "ttl", "length", "format", "enabled", "required",
];

/// Run-together compounds that end a word and name a secret: `freshdeskapikey`, `accesstoken`.
const SENSITIVE_ENDINGS: [&str; 11] = [
    "apikey",
    "accesskey",
    "secretkey",
    "privatekey",
    "authkey",
    "accesstoken",
    "authtoken",
    "apitoken",
    "refreshtoken",
    "clientsecret",
    "password",
];

/// Whether the vendor validator will warn that `key` "appears to be a secure param" when it is
/// not marked secure.
pub fn vendor_warns(key: &str) -> bool {
    let lower = key.to_lowercase();
    !lower.contains(VENDOR_EXEMPTION)
        && VENDOR_FRAGMENTS
            .iter()
            .any(|fragment| lower.contains(fragment))
}

/// How sensitive `key` reads: a whole sensitive word, or a vendor fragment inside another word.
pub fn key_sensitivity(key: &str) -> Sensitivity {
    let lower = key.to_lowercase();
    // Every sensitive word contains one of these; most keys contain none.
    let hints = [
        "auth",
        "token",
        "key",
        "secret",
        "pass",
        "pwd",
        "credential",
    ];
    if lower.contains(VENDOR_EXEMPTION) || !hints.iter().any(|hint| lower.contains(hint)) {
        return Sensitivity::None;
    }
    // Each word, with the sensitive word it is or ends with; a run-together chunk such as
    // `freshdeskAPIkey` counts as one word when it ends with a compound like `apikey`.
    let mut words: Vec<(String, Option<&'static str>)> = Vec::new();
    for chunk in key
        .split(|c: char| !c.is_alphanumeric())
        .filter(|chunk| !chunk.is_empty())
    {
        let lower = chunk.to_lowercase();
        if let Some(ending) = SENSITIVE_ENDINGS
            .iter()
            .find(|ending| lower.ends_with(*ending))
        {
            words.push((lower, Some(ending)));
            continue;
        }
        for word in camel_words(chunk) {
            let word = word.to_lowercase();
            let sensitive = SENSITIVE_WORDS.iter().find(|w| **w == word).copied();
            words.push((word, sensitive));
        }
    }
    if let Some(last) = words.iter().rposition(|(_, sensitive)| sensitive.is_some()) {
        let secret = words[last].1.expect("found as sensitive");
        let descriptor = words[last + 1..]
            .iter()
            .find_map(|(word, _)| DESCRIPTORS.iter().find(|d| *d == word));
        return match descriptor {
            Some(descriptor) => Sensitivity::Describes { secret, descriptor },
            None => Sensitivity::Word(secret),
        };
    }
    VENDOR_FRAGMENTS
        .iter()
        .find(|f| lower.contains(*f))
        .map_or(Sensitivity::None, |f| Sensitivity::Substring(f))
}

/// Splits `apiKey`, `APIKey` and `key2Name` into words.
fn camel_words(chunk: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = chunk.char_indices().collect();
    let mut words = Vec::new();
    let mut start = 0;
    for i in 1..chars.len() {
        let (at, current) = chars[i];
        let previous = chars[i - 1].1;
        let next_is_lower = chars.get(i + 1).is_some_and(|(_, c)| c.is_lowercase());
        let boundary = (current.is_uppercase()
            && (previous.is_lowercase() || previous.is_ascii_digit()))
            || (current.is_uppercase() && previous.is_uppercase() && next_is_lower)
            || (current.is_ascii_digit() != previous.is_ascii_digit());
        if boundary {
            words.push(&chunk[start..at]);
            start = at;
        }
    }
    words.push(&chunk[start..]);
    words
}

/// Known credential formats. Each is specific enough that a match is almost surely real.
static CREDENTIALS: LazyLock<(RegexSet, Vec<&'static str>)> = LazyLock::new(|| {
    let patterns: [(&str, &str); 14] = [
        ("an AWS access key", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
        ("a GitHub token", r"\bgh[pousr]_[A-Za-z0-9]{36,}\b"),
        ("a GitHub token", r"\bgithub_pat_[A-Za-z0-9_]{40,}\b"),
        ("a Slack token", r"\bxox[abposr]-[A-Za-z0-9-]{10,}"),
        ("a Stripe key", r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}\b"),
        ("a Google API key", r"\bAIza[0-9A-Za-z_-]{35}\b"),
        (
            "an OpenAI or Anthropic key",
            r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{32,}",
        ),
        ("a Groq key", r"\bgsk_[A-Za-z0-9]{32,}\b"),
        (
            "a JSON Web Token",
            r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        ),
        ("a private key", r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
        (
            "a SendGrid key",
            r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}",
        ),
        ("a Twilio key", r"\bSK[0-9a-f]{32}\b"),
        (
            "a password in a URL",
            r"\b[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]{3,}@[^\s/]",
        ),
        ("a bearer token", r"\b[Bb]earer [A-Za-z0-9._~+/-]{20,}"),
    ];
    let set = RegexSet::new(patterns.iter().map(|(_, pattern)| *pattern))
        .expect("credential patterns compile");
    (set, patterns.iter().map(|(kind, _)| *kind).collect())
});

/// Below this length no format above can match, so most strings skip the scan.
const SHORTEST_CREDENTIAL: usize = 20;

/// The kind of credential `text` contains, if it contains one.
pub fn credential_kind(text: &str) -> Option<&'static str> {
    if text.len() < SHORTEST_CREDENTIAL {
        return None;
    }
    let (set, kinds) = &*CREDENTIALS;
    set.matches(text).iter().next().map(|index| kinds[index])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_words_and_substrings() {
        for key in [
            "api_key",
            "apiKey",
            "APIKey",
            "freshdeskAPIkey",
            "authToken",
            "client-secret",
            "token",
            "password",
        ] {
            assert!(key_sensitivity(key).is_word(), "{key}");
        }
        assert_eq!(key_sensitivity("monkey"), Sensitivity::Substring("key"));
        assert_eq!(key_sensitivity("author"), Sensitivity::Substring("auth"));
        assert_eq!(
            key_sensitivity("keyword_list"),
            Sensitivity::Substring("key")
        );
        assert_eq!(key_sensitivity("ticket_type"), Sensitivity::None);
        assert_eq!(key_sensitivity("api_domain_key_name"), Sensitivity::None);
        assert_eq!(key_sensitivity("my_api_domain"), Sensitivity::None);
        assert_eq!(
            key_sensitivity("dell_oauth_token_url"),
            Sensitivity::Describes {
                secret: "token",
                descriptor: "url"
            }
        );
        assert_eq!(
            key_sensitivity("authType"),
            Sensitivity::Describes {
                secret: "auth",
                descriptor: "type"
            }
        );
        assert_eq!(
            key_sensitivity("api_key_header_value_key"),
            Sensitivity::Word("key")
        );
    }

    #[test]
    fn vendor_heuristic_is_a_plain_substring_test() {
        assert!(vendor_warns("monkey"));
        assert!(vendor_warns("AUTHOR"));
        assert!(!vendor_warns("api_domain_key"));
        assert!(!vendor_warns("domain"));
        assert!(!vendor_warns("password"));
    }

    #[test]
    fn credentials_are_recognised() {
        assert_eq!(
            credential_kind("AKIAIOSFODNN7EXAMPLE"),
            Some("an AWS access key")
        );
        assert_eq!(
            credential_kind("ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
            Some("a GitHub token")
        );
        assert_eq!(
            credential_kind("https://user:hunter22@example.com/x"),
            Some("a password in a URL")
        );
        assert_eq!(
            credential_kind("Enter your API key from the admin settings page"),
            None
        );
        assert_eq!(
            credential_kind("https://example.freshdesk.com/api/v2"),
            None
        );
    }
}
