//! Known credential formats, each specific enough that a match is almost surely real: an AWS
//! access key, a GitHub token, a password in a URL.
//!
//! Each format is a literal start and what must follow it, matched by hand in one pass over a
//! string: building a `regex::RegexSet` of the same patterns cost more than checking a typical
//! file. The patterns are kept in the tests, which hold this matcher to them.

/// One credential format: the literals it starts with, and what must come after.
struct Format {
    kind: &'static str,
    starts: &'static [&'static str],
    /// A word boundary before the start (`\b`): it starts with a word character, and no other
    /// is just before it.
    boundary: bool,
    /// Whether what follows a start ending at byte `after` of the text is of the format.
    rest: fn(text: &str, after: usize) -> bool,
}

/// In the order their kinds are told when a text holds two.
const FORMATS: [Format; 15] = [
    Format {
        kind: "an AWS access key",
        starts: &["AKIA", "ASIA"],
        boundary: true,
        rest: |text, after| exactly(text, after, 16, upper_or_digit),
    },
    Format {
        kind: "a GitHub token",
        starts: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
        boundary: true,
        rest: |text, after| word_of(text, after, 36, alphanumeric),
    },
    Format {
        kind: "a GitHub token",
        starts: &["github_pat_"],
        boundary: true,
        rest: |text, after| word_of(text, after, 40, alphanumeric_or_underscore),
    },
    Format {
        kind: "a Slack token",
        starts: &["xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-"],
        boundary: true,
        rest: |text, after| run(text, after, alphanumeric_or_dash) >= 10,
    },
    Format {
        kind: "a Stripe key",
        starts: &["rk_live_", "rk_test_", "sk_live_", "sk_test_"],
        boundary: true,
        rest: |text, after| word_of(text, after, 16, alphanumeric),
    },
    Format {
        kind: "a Google API key",
        starts: &["AIza"],
        boundary: true,
        rest: google_key,
    },
    Format {
        kind: "an OpenAI or Anthropic key",
        // `sk-proj-` and `sk-ant-` need nothing more: their words are of the key's characters.
        starts: &["sk-"],
        boundary: true,
        rest: |text, after| run(text, after, base64url) >= 32,
    },
    Format {
        kind: "a Groq key",
        starts: &["gsk_"],
        boundary: true,
        rest: |text, after| word_of(text, after, 32, alphanumeric),
    },
    Format {
        kind: "a JSON Web Token",
        starts: &["eyJ"],
        boundary: true,
        rest: json_web_token,
    },
    Format {
        kind: "a private key",
        starts: &["-----BEGIN "],
        boundary: false,
        rest: private_key,
    },
    Format {
        kind: "a SendGrid key",
        starts: &["SG."],
        boundary: true,
        rest: |text, after| {
            dotted(text, after, 16).is_some_and(|second| run(text, second, base64url) >= 16)
        },
    },
    Format {
        kind: "a Twilio key",
        starts: &["SK"],
        boundary: true,
        rest: |text, after| exactly(text, after, 32, lower_hex),
    },
    Format {
        kind: "a password in a URL",
        starts: &["://"],
        boundary: false,
        rest: password_in_url,
    },
    Format {
        kind: "a bearer token",
        starts: &["Bearer ", "bearer "],
        boundary: true,
        rest: |text, after| run(text, after, bearer_token) >= 20,
    },
    Format {
        kind: "a Basic credential",
        starts: &["Basic ", "basic "],
        boundary: true,
        rest: basic_credential,
    },
];

/// The formats that start with each byte, a bit each (`1 << index` in [`FORMATS`]).
static STARTING_WITH: [u16; 256] = starting_with();

const fn starting_with() -> [u16; 256] {
    let mut formats = [0u16; 256];
    let mut index = 0;
    while index < FORMATS.len() {
        let starts = FORMATS[index].starts;
        let mut start = 0;
        while start < starts.len() {
            formats[starts[start].as_bytes()[0] as usize] |= 1 << index;
            start += 1;
        }
        index += 1;
    }
    formats
}

/// The kind of the first format (in the order of [`FORMATS`]) found anywhere in `text`, from
/// one pass over its bytes.
pub fn kind_in(text: &str) -> Option<&'static str> {
    let mut found: Option<usize> = None;
    for (at, byte) in text.bytes().enumerate() {
        // Only the formats before the one found can change the answer.
        let before = found.map_or(u16::MAX, |index| (1 << index) - 1);
        let mut formats = STARTING_WITH[usize::from(byte)] & before;
        while formats != 0 {
            let index = formats.trailing_zeros() as usize;
            formats &= formats - 1;
            if starts_at(text, at, &FORMATS[index]) {
                found = Some(index);
                break;
            }
        }
        if found == Some(0) {
            break;
        }
    }
    found.map(|index| FORMATS[index].kind)
}

/// Whether `format` starts at byte `at` of `text`.
fn starts_at(text: &str, at: usize, format: &Format) -> bool {
    format.starts.iter().any(|start| {
        text.as_bytes()[at..].starts_with(start.as_bytes())
            && !(format.boundary && word_before(text, at))
            && (format.rest)(text, at + start.len())
    })
}

/// A word character as `\b` and `\w` have it in Unicode mode: a letter, a mark, a decimal
/// digit, a connector (`_`), a joiner.
fn is_word(c: char) -> bool {
    regex_syntax::is_word_character(c)
}

/// Whether the character that ends at byte `at` of `text` is a word character.
fn word_before(text: &str, at: usize) -> bool {
    text[..at].chars().next_back().is_some_and(is_word)
}

/// Whether the character that starts at byte `at` of `text` is a word character.
fn word_at(text: &str, at: usize) -> bool {
    text[at..].chars().next().is_some_and(is_word)
}

/// How many bytes of `class` (ASCII) follow byte `from` of `text`.
fn run(text: &str, from: usize, class: fn(&u8) -> bool) -> usize {
    text.as_bytes()[from..]
        .iter()
        .take_while(|byte| class(byte))
        .count()
}

/// At least `least` word characters of `class` from byte `after`, and the word ends with them
/// (`class{least,}\b`).
fn word_of(text: &str, after: usize, least: usize, class: fn(&u8) -> bool) -> bool {
    let count = run(text, after, class);
    count >= least && !word_at(text, after + count)
}

/// `count` word characters of `class` from byte `after`, and the word ends there
/// (`class{count}\b`).
fn exactly(text: &str, after: usize, count: usize, class: fn(&u8) -> bool) -> bool {
    run(text, after, class) >= count && !word_at(text, after + count)
}

/// `AIza` and 35 characters of base64url, then a word boundary: `-` is no word character, so
/// the boundary is wherever a word character and another meet.
fn google_key(text: &str, after: usize) -> bool {
    const LENGTH: usize = 35;
    run(text, after, base64url) >= LENGTH
        && (text.as_bytes()[after + LENGTH - 1] != b'-') != word_at(text, after + LENGTH)
}

/// At least `least` characters of base64url from byte `after` then a `.`: where the next part
/// starts.
fn dotted(text: &str, after: usize, least: usize) -> Option<usize> {
    let count = run(text, after, base64url);
    (count >= least && text.as_bytes().get(after + count) == Some(&b'.'))
        .then_some(after + count + 1)
}

/// A header and a payload (`eyJ`, the start of a JSON object in base64url) of at least eight
/// characters each, then a signature of at least eight.
fn json_web_token(text: &str, after: usize) -> bool {
    dotted(text, after, 8)
        .filter(|&payload| text[payload..].starts_with("eyJ"))
        .and_then(|payload| dotted(text, payload + 3, 8))
        .is_some_and(|signature| run(text, signature, base64url) >= 8)
}

/// `-----BEGIN `, capitals and spaces ending with `PRIVATE KEY`, then `-----`.
fn private_key(text: &str, after: usize) -> bool {
    let end = after
        + run(text, after, |byte| {
            byte.is_ascii_uppercase() || *byte == b' '
        });
    text[after..end].ends_with("PRIVATE KEY") && text[end..].starts_with("-----")
}

/// A URL with a password, from its `://` at byte `after - 3`: a scheme before it that starts a
/// word, then a user, `:`, a password of at least three characters, `@` and a host.
fn password_in_url(text: &str, after: usize) -> bool {
    let bytes = text.as_bytes();
    let scheme_end = after - 3;
    let scheme_start = scheme_end
        - bytes[..scheme_end]
            .iter()
            .rev()
            .take_while(|byte| scheme_character(byte))
            .count();
    // The scheme starts with a lower-case letter that starts a word: the first of these
    // characters, or one after a `+`, `.` or `-` among them.
    let starts_scheme = (scheme_start..scheme_end).any(|at| {
        bytes[at].is_ascii_lowercase()
            && if at == scheme_start {
                !word_before(text, at)
            } else {
                !bytes[at - 1].is_ascii_alphanumeric()
            }
    });
    if !starts_scheme {
        return false;
    }
    // The user runs to the first `:`, the password from there to the first `@`; neither has a
    // `/` or a space, nor the user an `@`.
    let rest = &text[after..];
    let Some(user_end) = rest
        .find(|c: char| matches!(c, '/' | ':' | '@') || c.is_whitespace())
        .filter(|&end| end > 0 && rest[end..].starts_with(':'))
    else {
        return false;
    };
    let password = &rest[user_end + 1..];
    let Some(password_end) = password.find(|c: char| matches!(c, '/' | '@') || c.is_whitespace())
    else {
        return false;
    };
    password[..password_end].chars().count() >= 3
        && password[password_end..].starts_with('@')
        && password[password_end + 1..]
            .chars()
            .next()
            .is_some_and(|host| host != '/' && !host.is_whitespace())
}

/// `[a-z0-9+.-]`
fn scheme_character(byte: &u8) -> bool {
    byte.is_ascii_lowercase() || byte.is_ascii_digit() || matches!(byte, b'+' | b'.' | b'-')
}

/// The base64 of a `user:password` pair, padding and all, from byte `after` (a `Basic`
/// scheme's): decoded, it must read as such a pair, which `Basic authentication` and other
/// prose after the word never do.
fn basic_credential(text: &str, after: usize) -> bool {
    basic_pair(text, after).is_some_and(|end| !word_at(text, end))
}

/// Where the base64 of a `user:password` pair that starts at byte `after` ends: a run of
/// base64, its padding (a whole number of quads), and no more `=` after it.
fn basic_pair(text: &str, after: usize) -> Option<usize> {
    let digits = run(text, after, base64);
    let padding = run(text, after + digits, |byte| *byte == b'=').min(2);
    let end = after + digits + padding;
    let whole = (digits + padding).is_multiple_of(4) && text.as_bytes().get(end) != Some(&b'=');
    (digits >= 8 && whole && decodes_to_pair(&text.as_bytes()[after..after + digits]))
        .then_some(end)
}

/// Whether base64 `digits` (without padding) decode to printable ASCII with a `:` between a
/// user and a password.
fn decodes_to_pair(digits: &[u8]) -> bool {
    let value = |byte: u8| match byte {
        b'A'..=b'Z' => byte - b'A',
        b'a'..=b'z' => byte - b'a' + 26,
        b'0'..=b'9' => byte - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let mut decoded = Vec::with_capacity(digits.len() * 3 / 4);
    for quad in digits.chunks(4) {
        let bits = quad.iter().enumerate().fold(0u32, |bits, (at, &byte)| {
            bits | u32::from(value(byte)) << (18 - 6 * at)
        });
        let bytes = bits.to_be_bytes();
        decoded.extend_from_slice(&bytes[1..quad.len()]);
    }
    let colon = decoded.iter().position(|&byte| byte == b':');
    decoded.iter().all(|byte| (b' '..=b'~').contains(byte))
        && colon.is_some_and(|at| at > 0 && at + 1 < decoded.len())
}

/// `[A-Za-z0-9+/]`
fn base64(byte: &u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'/')
}

/// `[0-9A-Z]`
fn upper_or_digit(byte: &u8) -> bool {
    byte.is_ascii_uppercase() || byte.is_ascii_digit()
}

/// `[A-Za-z0-9]`
fn alphanumeric(byte: &u8) -> bool {
    byte.is_ascii_alphanumeric()
}

/// `[A-Za-z0-9_]`
fn alphanumeric_or_underscore(byte: &u8) -> bool {
    byte.is_ascii_alphanumeric() || *byte == b'_'
}

/// `[A-Za-z0-9-]`
fn alphanumeric_or_dash(byte: &u8) -> bool {
    byte.is_ascii_alphanumeric() || *byte == b'-'
}

/// `[A-Za-z0-9_-]`
fn base64url(byte: &u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-')
}

/// `[0-9a-f]`
fn lower_hex(byte: &u8) -> bool {
    byte.is_ascii_digit() || (b'a'..=b'f').contains(byte)
}

/// `[A-Za-z0-9._~+/-]`
fn bearer_token(byte: &u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_' | b'~' | b'+' | b'/' | b'-')
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use regex::Regex;

    use super::{FORMATS, decodes_to_pair, kind_in};

    /// The formats as the regular expressions they were, in the order of [`FORMATS`].
    const PATTERNS: [&str; 15] = [
        r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
        r"\bgh[pousr]_[A-Za-z0-9]{36,}\b",
        r"\bgithub_pat_[A-Za-z0-9_]{40,}\b",
        r"\bxox[abposr]-[A-Za-z0-9-]{10,}",
        r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}\b",
        r"\bAIza[0-9A-Za-z_-]{35}\b",
        r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{32,}",
        r"\bgsk_[A-Za-z0-9]{32,}\b",
        r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----",
        r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}",
        r"\bSK[0-9a-f]{32}\b",
        r"\b[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]{3,}@[^\s/]",
        r"\b[Bb]earer [A-Za-z0-9._~+/-]{20,}",
        // Decoded too: see `basic_pair_matches`.
        r"\b[Bb]asic ([A-Za-z0-9+/]+)(={0,2})",
    ];

    /// The index of the `Basic` pattern, whose matches are decoded.
    const BASIC: usize = 14;

    /// Whether a match of the `Basic` pattern is the base64 of a `user:password` pair, whole
    /// quads, and the end of its word.
    fn basic_pair_matches(text: &str, found: &regex::Captures<'_>) -> bool {
        let (digits, padding) = (&found[1], &found[2]);
        let rest = &text[found.get(2).expect("always matches").end()..];
        digits.len() >= 8
            && (digits.len() + padding.len()).is_multiple_of(4)
            && !rest.starts_with('=')
            && !rest
                .chars()
                .next()
                .is_some_and(regex_syntax::is_word_character)
            && decodes_to_pair(digits.as_bytes())
    }

    /// The kind of the first pattern that matches `text`. Each pattern is its own regex, tried
    /// in order: a set would tell every pattern that matches, at ten times the cost (with
    /// Unicode's `\b` on text that is not ASCII, it runs them all together on the slowest of
    /// its engines), where a lone pattern first looks for its literal part.
    fn expected(patterns: &[Regex], text: &str) -> Option<&'static str> {
        (0..patterns.len())
            .find(|&index| match index {
                // Tried at every start: a word the run takes (`basic basic dXNl…`) may start
                // another match, which the matches one after another would pass over.
                BASIC => text.char_indices().any(|(at, _)| {
                    patterns[index].captures_at(text, at).is_some_and(|found| {
                        found.get(0).is_some_and(|whole| whole.start() == at)
                            && basic_pair_matches(text, &found)
                    })
                }),
                _ => patterns[index].is_match(text),
            })
            .map(|index| FORMATS[index].kind)
    }

    /// Pieces that make up credentials and their near misses: every start, characters of each
    /// class, what may end a word or not (`_`, `é`, a combining mark, `²`), what ends a URL's
    /// parts, Unicode spaces.
    const PIECES: &[&str] = &[
        "AKIA",
        "ASIA",
        "ghp_",
        "ghr_",
        "gh",
        "github_pat_",
        "xoxb-",
        "xox",
        "sk_live_",
        "rk_test_",
        "AIza",
        "sk-",
        "sk-proj-",
        "sk-ant-",
        "gsk_",
        "eyJ",
        "-----BEGIN ",
        "RSA ",
        "PRIVATE KEY",
        "-----",
        "SG.",
        "SK",
        "://",
        "https",
        "a+b.c-d",
        "user",
        "https://user:pass@host",
        "://u:pwd@h",
        "Bearer abcdefghijklmnopqrstu",
        "-----BEGIN RSA PRIVATE KEY-----",
        ":",
        "@",
        "/",
        "Bearer ",
        "bearer ",
        "Basic ",
        "basic ",
        "dXNlcjpwYXNz",
        "ZHczOnMzY3IzdA",
        "=",
        "+/",
        "ABCDEFGHIJKLMNOP",
        "0123456789abcdef",
        "abcdefghij",
        "QRSTUVWXYZ",
        "0a1b2c3d4e5f6789",
        "-_-_",
        "_",
        ".",
        "~+/",
        " ",
        "\t",
        "\u{a0}",
        "\u{2003}",
        "é",
        "\u{301}",
        "²",
        "Ж",
        "x",
        "Z",
        "9",
    ];

    fn text() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                4 => proptest::sample::select(PIECES).prop_map(str::to_owned),
                1 => proptest::sample::select(PIECES)
                    .prop_flat_map(|piece| (Just(piece), 2..12usize))
                    .prop_map(|(piece, times)| piece.repeat(times)),
            ],
            0..24,
        )
        .prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        #[test]
        fn the_matcher_finds_what_the_patterns_match(text in text()) {
            prop_assert_eq!(kind_in(&text), expected(patterns(), &text), "{:?}", text);
        }
    }

    /// The patterns, compiled once for all the cases.
    fn patterns() -> &'static [Regex] {
        static COMPILED: std::sync::LazyLock<Vec<Regex>> = std::sync::LazyLock::new(|| {
            PATTERNS
                .iter()
                .map(|pattern| Regex::new(pattern).expect("the patterns compile"))
                .collect()
        });
        &COMPILED
    }

    #[test]
    fn each_format_and_its_near_misses() {
        let examples = [
            "AKIAIOSFODNN7EXAMPLE",
            "xAKIAIOSFODNN7EXAMPLE",
            "AKIAIOSFODNN7EXAMPLEX",
            "AKIAIOSFODNN7EXAMPL",
            "éAKIAIOSFODNN7EXAMPLE",
            "AKIAIOSFODNN7EXAMPLE\u{301}",
            "key=AKIAIOSFODNN7EXAMPLE;",
            "AKIAAKIAAKIAAKIAAKIAAKIA",
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789_",
            "ghp_abcdefghijklmnopqrstuvwxyz012345678",
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
            "xoxb-1234567890-abcdefghij",
            "xoxb-123456789",
            "sk_live_abcdefghijklmnop",
            "sk_live_abcdefghijklmnop_",
            "sk_live_ABCDEFGHIJKLMNOPghp_",
            "AIzaSyA-abcdefghijklmnopqrstuvwxyz01234",
            "AIzaSyA-abcdefghijklmnopqrstuvwxyz0123-",
            "AIzaSyA-abcdefghijklmnopqrstuvwxyz0123-x",
            "AIzaSyA-abcdefghijklmnopqrstuvwxyz01234x",
            "sk-proj-abcdefghijklmnopqrstuvwxyz012345",
            "sk-ant-api03-abcdefghijklmnopqrstuvwxyz",
            "gsk_abcdefghijklmnopqrstuvwxyz012345",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijkl",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIi.abcdefghijkl",
            "eyJhbGciOiJIUzI1NiJ9.xyJzdWIiOiIxMjM0In0.abcdefghijkl",
            "-----BEGIN RSA PRIVATE KEY-----",
            "-----BEGIN PRIVATE KEY-----",
            "-----BEGIN PRIVATE KEY PRIVATE KEY-----",
            "-----BEGIN PRIVATE KEYS-----",
            "-----BEGIN rsa PRIVATE KEY-----",
            "SG.abcdefghijklmnop.abcdefghijklmnop",
            "SG.abcdefghijklmno.abcdefghijklmnop",
            "SK0123456789abcdef0123456789abcdef",
            "SK0123456789abcdef0123456789abcdef0",
            "https://user:hunter22@example.com/x",
            "https://user:hu@example.com/x",
            "https://:hunter22@example.com",
            "https://user:hunter22@/x",
            "git+ssh://user:pass:word@host",
            "Xhttps://user:hunter22@example.com",
            "AKIAhttps://user:pass@host",
            "x.https://user:hunter22@example.com",
            "9https://user:hunter22@example.com",
            "https://us er:hunter22@example.com",
            "https://user:hun ter22@example.com",
            "https://usér:hünter@exämple.com",
            "Bearer abcdefghijklmnopqrstuvwxyz",
            "Authorization: bearer abcdefghij.klmnopqrst/uv",
            "Bearer abcdefghijklmnopqrs",
            "the Bearer of news",
            "Authorization: Basic dXNlcjpwYXNzd29yZA==",
            "Basic ZHczOnMzY3IzdA==",
            "Basic ZHczOnMzY3IzdA=",
            "Basic ZHczOnMzY3IzdA===",
            "Basic ZHczOnMzY3IzdA==x",
            "Basic ZHczOnMzY3IzdEE=",
            "basic dXNlcjpwYXNz",
            "Basic dXNlcm5hbWU=",
            "Basic authentication with an API key",
            "xBasic dXNlcjpwYXNz",
            "https://example.freshdesk.com/api/v2",
            "Enter your API key from the admin settings page",
        ];
        for example in examples {
            assert_eq!(
                kind_in(example),
                expected(patterns(), example),
                "{example:?}"
            );
        }
        // Some are found, not all missed alike.
        assert_eq!(kind_in(examples[0]), Some("an AWS access key"));
        assert_eq!(kind_in(examples[1]), None);
        // Padded and not: a `user:password` pair; `username` alone, or prose, is none.
        for pair in [
            "Basic ZHczOnMzY3IzdA==",
            "basic dXNlcjpwYXNz",
            "Basic ZHczOnMzY3IzdEE=",
        ] {
            assert_eq!(kind_in(pair), Some("a Basic credential"), "{pair}");
        }
        for near in [
            "Basic dXNlcm5hbWU=",
            "Basic ZHczOnMzY3IzdA=",
            "Basic ZHczOnMzY3IzdA===",
            "Basic authentication with an API key",
        ] {
            assert_eq!(kind_in(near), None, "{near}");
        }
    }
}
