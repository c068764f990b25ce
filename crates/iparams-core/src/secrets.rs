//! What looks secret: sensitive iparam keys, and strings shaped like real credentials.

use crate::eight_bytes::{ONES, below, equal};

/// What is printed in place of a value that must not be shown.
pub const MASKED: &str = "\"********\"";

/// What is printed in place of a secret inside other text: [`MASKED`] without its quotes.
pub const MASKED_TEXT: &str = "********";

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

/// How `key` reads to the secure-key heuristics ([`key_sensitivity`]), and whether the vendor
/// validator will warn that it "appears to be a secure param" when it is not marked secure.
pub fn read_key(key: &str) -> (Sensitivity, bool) {
    let found = Found::in_key(key);
    (sensitivity(key, found), found.vendor_warns())
}

/// The bit of an ASCII letter in a set of letters, in either case (`a` the lowest); no bit for
/// any other byte.
const fn letter_bit(byte: u8) -> u32 {
    // Setting 0x20 lowers a capital; no other byte lands on a lower-case letter.
    let index = (byte | 0x20).wrapping_sub(b'a');
    if index < 26 { 1 << index } else { 0 }
}

/// The letters of each word [`Found`] looks for.
const WORD_LETTERS: [u32; 8] = {
    let mut letters = [0; 8];
    let mut word = 0;
    while word < Found::WORDS.len() {
        let bytes = Found::WORDS[word].as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            letters[word] |= letter_bit(bytes[at]);
            at += 1;
        }
        word += 1;
    }
    letters
};

/// Which of the words the heuristics look for occur in a key, in any case. Found in one pass,
/// without allocating: this runs on every key of every file.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Found(u8);

impl Found {
    // The vendor's fragments, in the order it checks them.
    const AUTH: u8 = 1;
    const TOKEN: u8 = 1 << 1;
    const KEY: u8 = 1 << 2;
    const SECRET: u8 = 1 << 3;
    // The rest of the hints that every sensitive word contains.
    const PASS: u8 = 1 << 4;
    const PWD: u8 = 1 << 5;
    const CREDENTIAL: u8 = 1 << 6;
    /// The vendor's exemption.
    const API_DOMAIN: u8 = 1 << 7;
    /// The words, each at the place of its bit above.
    const WORDS: [&str; 8] = [
        VENDOR_FRAGMENTS[0],
        VENDOR_FRAGMENTS[1],
        VENDOR_FRAGMENTS[2],
        VENDOR_FRAGMENTS[3],
        "pass",
        "pwd",
        "credential",
        VENDOR_EXEMPTION,
    ];

    fn in_key(key: &str) -> Self {
        let bytes = key.as_bytes();
        // Most keys lack a letter of every word ("notification_team" has no `k`, `u`, `s`,
        // `p`, `r` or `d`): the letters a key has are gathered without a branch, and its pairs
        // are read only when they hold all the letters of one word.
        let letters = bytes
            .iter()
            .fold(0_u32, |letters, &byte| letters | letter_bit(byte));
        if !WORD_LETTERS.iter().any(|&word| word & !letters == 0) {
            return Self(0);
        }
        let mut found = 0;
        for (at, pair) in bytes.windows(2).enumerate() {
            // Each word is told by its first two letters (in either case: a letter with the
            // 0x20 bit set is its lower case) before the rest of it is compared.
            let flag = match (pair[0] | 0x20, pair[1] | 0x20) {
                (b'a', b'u') => Self::AUTH,
                (b'a', b'p') => Self::API_DOMAIN,
                (b't', b'o') => Self::TOKEN,
                (b'k', b'e') => Self::KEY,
                (b's', b'e') => Self::SECRET,
                (b'p', b'a') => Self::PASS,
                (b'p', b'w') => Self::PWD,
                (b'c', b'r') => Self::CREDENTIAL,
                _ => continue,
            };
            let word = Self::WORDS[flag.trailing_zeros() as usize];
            let rest = &bytes[at..];
            if rest.len() >= word.len() && rest[..word.len()].eq_ignore_ascii_case(word.as_bytes())
            {
                found |= flag;
            }
        }
        Self(found)
    }

    fn vendor_warns(self) -> bool {
        !self.has(Self::API_DOMAIN) && self.vendor_fragment().is_some()
    }

    fn has(self, word: u8) -> bool {
        self.0 & word != 0
    }

    /// The first of the vendor's fragments in the key.
    fn vendor_fragment(self) -> Option<&'static str> {
        [Self::AUTH, Self::TOKEN, Self::KEY, Self::SECRET]
            .into_iter()
            .zip(VENDOR_FRAGMENTS)
            .find(|(word, _)| self.has(*word))
            .map(|(_, fragment)| fragment)
    }
}

fn ends_with_ignoring_case(text: &str, suffix: &str) -> bool {
    text.len() >= suffix.len()
        && text.as_bytes()[text.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
}

/// How sensitive `key` reads: a whole sensitive word, or a vendor fragment inside another word.
pub fn key_sensitivity(key: &str) -> Sensitivity {
    sensitivity(key, Found::in_key(key))
}

fn sensitivity(key: &str, found: Found) -> Sensitivity {
    // Every sensitive word contains one of the hints; most keys contain none.
    if found.has(Found::API_DOMAIN) || found == Found(0) {
        return Sensitivity::None;
    }
    let mut scan = Scan::default();
    for chunk in key
        .split(|c: char| !c.is_alphanumeric())
        .filter(|chunk| !chunk.is_empty())
    {
        // A run-together chunk such as `freshdeskAPIkey` is one sensitive word when it ends
        // with a compound like `apikey`.
        match SENSITIVE_ENDINGS
            .iter()
            .find(|ending| ends_with_ignoring_case(chunk, ending))
        {
            Some(ending) => scan.sensitive(ending),
            None => camel_words(chunk, &mut |word| scan.word(word)),
        }
    }
    let Scan { secret, descriptor } = scan;
    match (secret, descriptor) {
        (Some(secret), Some(descriptor)) => Sensitivity::Describes { secret, descriptor },
        (Some(secret), None) => Sensitivity::Word(secret),
        (None, _) => found
            .vendor_fragment()
            .map_or(Sensitivity::None, Sensitivity::Substring),
    }
}

/// Splits `apiKey`, `APIKey` and `key2Name` into words.
/// The last sensitive word of a key, and the first descriptor after it.
#[derive(Default)]
struct Scan {
    secret: Option<&'static str>,
    descriptor: Option<&'static str>,
}

impl Scan {
    fn sensitive(&mut self, word: &'static str) {
        self.secret = Some(word);
        self.descriptor = None;
    }

    fn word(&mut self, word: &str) {
        if let Some(found) = SENSITIVE_WORDS
            .iter()
            .find(|w| word.eq_ignore_ascii_case(w))
        {
            self.sensitive(found);
        } else if self.secret.is_some() && self.descriptor.is_none() {
            self.descriptor = DESCRIPTORS
                .iter()
                .find(|d| word.eq_ignore_ascii_case(d))
                .copied();
        }
    }
}

fn camel_words<'c>(chunk: &'c str, each: &mut dyn FnMut(&'c str)) {
    let mut start = 0;
    let mut chars = chunk.char_indices().peekable();
    let mut previous: Option<char> = None;
    while let Some((at, current)) = chars.next() {
        if let Some(previous) = previous {
            let next_is_lower = chars.peek().is_some_and(|(_, c)| c.is_lowercase());
            let boundary = (current.is_uppercase()
                && (previous.is_lowercase() || previous.is_ascii_digit()))
                || (current.is_uppercase() && previous.is_uppercase() && next_is_lower)
                || (current.is_ascii_digit() != previous.is_ascii_digit());
            if boundary {
                each(&chunk[start..at]);
                start = at;
            }
        }
        previous = Some(current);
    }
    each(&chunk[start..]);
}

/// Every credential format (`credentials`) is a run of at least this many characters without a
/// space, or starts with one of `MARKERS`; prose (labels, descriptions) rarely has such a run.
const SHORTEST_TOKEN: usize = 16;
/// What a credential without such a run holds: a private key's header, a bearer token's or a
/// `Basic` pair's word (with its capital and without), a URL's `://`.
const MARKERS: [&str; 6] = [
    "-----BEGIN",
    "Bearer ",
    "bearer ",
    "Basic ",
    "basic ",
    "://",
];

/// What a quick look at a string tells of it: enough to rule out most strings (prose, short
/// values) before the credential patterns run and before a random token is looked for.
#[derive(Debug, Clone, Copy)]
struct Shape {
    /// The longest run of bytes without ASCII whitespace, counted up to
    /// [`SHORTEST_RANDOM_TOKEN`], and exactly from eight bytes on: a run shorter than that may
    /// count as shorter still, below both lengths runs are compared with. Bytes, not
    /// characters: other whitespace only lengthens a run, which lets more through.
    longest_word: usize,
    /// One of [`MARKERS`] is in it; looked for only when no run is long enough to let the
    /// string through.
    marker: bool,
}

/// Flags the ASCII whitespace of `word`, byte by byte: for the few words with whitespace other
/// than spaces, or a control character.
fn whitespace_in(word: u64) -> u64 {
    word.to_le_bytes()
        .iter()
        .enumerate()
        .filter(|(_, byte)| byte.is_ascii_whitespace())
        .fold(0, |flags, (at, _)| flags | (0x80 << (8 * at)))
}

impl Shape {
    fn of(text: &str) -> Self {
        let longest_word = longest_run(text.as_bytes());
        let marker = longest_word < SHORTEST_TOKEN && has_marker(text.as_bytes());
        Self {
            longest_word,
            marker,
        }
    }

    fn may_hold_credential(self) -> bool {
        self.marker || self.longest_word >= SHORTEST_TOKEN
    }

    fn may_hold_random_token(self) -> bool {
        self.longest_word >= SHORTEST_RANDOM_TOKEN
    }
}

/// [`Shape::longest_word`] of `bytes`, read eight bytes at a time: prose has a space every few
/// bytes, and strings are most of a file.
fn longest_run(bytes: &[u8]) -> usize {
    let (mut run, mut longest) = (0, 0);
    let mut words = bytes.chunks_exact(8);
    for word in words.by_ref() {
        let word = u64::from_le_bytes(word.try_into().expect("chunks of eight"));
        let low = below(word, 0x21);
        let spaces = match low {
            0 => 0,
            low if low == equal(word, b' ') => low,
            _ => whitespace_in(word),
        };
        if spaces == 0 {
            run += 8;
        } else {
            // The run that ends at the word's first space, and the one its last space starts:
            // runs between two of its spaces are too short to matter.
            longest = longest.max(run + (spaces.trailing_zeros() / 8) as usize);
            run = (spaces.leading_zeros() / 8) as usize;
        }
        if longest.max(run) >= SHORTEST_RANDOM_TOKEN {
            // Long enough for anything: the rest cannot change what is looked for.
            return SHORTEST_RANDOM_TOKEN;
        }
    }
    for byte in words.remainder() {
        if byte.is_ascii_whitespace() {
            longest = longest.max(run);
            run = 0;
        } else {
            run += 1;
        }
    }
    longest.max(run).min(SHORTEST_RANDOM_TOKEN)
}

/// Whether one of [`MARKERS`] is in `bytes`: each byte that may start one (`-`, `:`, `B` or
/// `b`) is found eight bytes at a time, and looked at.
fn has_marker(bytes: &[u8]) -> bool {
    let starts_marker = |at: usize| {
        MARKERS
            .iter()
            .any(|marker| bytes[at..].starts_with(marker.as_bytes()))
    };
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for word in words.by_ref() {
        // Setting the 0x20 bit of each byte makes a `B` a `b`, and leaves `-` and `:` as they
        // are (a few other bytes become them too, and are looked at for nothing).
        let folded = u64::from_le_bytes(word.try_into().expect("chunks of eight")) | (ONES * 0x20);
        let mut starts = equal(folded, b'b') | equal(folded, b'-') | equal(folded, b':');
        while starts != 0 {
            if starts_marker(at + (starts.trailing_zeros() / 8) as usize) {
                return true;
            }
            starts &= starts - 1;
        }
        at += 8;
    }
    (at..bytes.len()).any(starts_marker)
}

/// The shortest `Basic` pair (`Basic ` and two quads of base64): below this length no format
/// but a tiny URL with a password can match, so most strings skip the scan.
const SHORTEST_CREDENTIAL: usize = 14;

/// The kind of credential `text` (of [`Shape`] `shape`) contains, if it contains one.
fn credential_in(text: &str, shape: Shape) -> Option<&'static str> {
    if !shape.may_hold_credential() {
        return None;
    }
    crate::credentials::kind_in(text)
}

/// What a string holds that must not be shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Secret {
    /// A known credential format, of this kind.
    Credential(&'static str),
    /// A long random token, at this byte range of the string.
    RandomToken(usize, usize),
}

/// The credential `text` holds, or else, when `tokens` are looked for, its random token (as
/// [`random_token`] finds it), from one look at the string.
pub fn secret_in(text: &str, tokens: bool) -> Option<Secret> {
    if text.len() < SHORTEST_CREDENTIAL {
        return None;
    }
    let shape = Shape::of(text);
    if let Some(kind) = credential_in(text, shape) {
        return Some(Secret::Credential(kind));
    }
    if !tokens {
        return None;
    }
    let (start, end) = token_in(text, shape)?;
    Some(Secret::RandomToken(start, end))
}

/// Whether `text` holds anything that must not be shown: a known credential format or a long
/// random token.
pub fn looks_secret(text: &str) -> bool {
    secret_in(text, true).is_some()
}

/// The shortest run of token characters taken for a random token.
pub const SHORTEST_RANDOM_TOKEN: usize = 32;

/// A long random token in `text` (an API key, a secret, a hash pasted by mistake): its byte
/// range in `text`. At least [`SHORTEST_RANDOM_TOKEN`] characters of base64 or base64url that
/// mix lower case, upper case and digits with a high entropy, or of hex with letters and digits.
/// Quiet on URLs, UUIDs, paths and words. Not meant for regex patterns, whose classes and
/// alternations look random.
pub fn random_token(text: &str) -> Option<(usize, usize)> {
    token_in(text, Shape::of(text))
}

/// Whether a word reads as a random key, shorter than a random token may be (a key given a
/// secret's name in code): letters and digits, spread out (3.5 bits a character or more, as a
/// dozen different characters in 16 give), not words run together, and not a path.
pub fn looks_random(word: &str) -> bool {
    let bytes = word.trim_end_matches('=').as_bytes();
    bytes.iter().any(u8::is_ascii_alphabetic)
        && bytes.iter().any(u8::is_ascii_digit)
        && entropy(bytes) >= 3.5
        && !is_wordy(bytes)
        && !is_path(word)
}

/// Whether a random token (as [`random_token`] finds one, or the string around it) is hex:
/// hashes and identifiers look so too, while a run that mixes cases and digits is a key.
pub fn is_hex_token(token: &str) -> bool {
    let token = token.trim_matches('"');
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_hexdigit())
}

fn token_in(text: &str, shape: Shape) -> Option<(usize, usize)> {
    // Most strings are prose or short: nothing to look at without a long enough run.
    if !shape.may_hold_random_token() {
        return None;
    }
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        // One word: up to the next whitespace.
        let start = at;
        while at < bytes.len() && !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let mut word = &text[start..at];
        at += 1;
        if word.len() < SHORTEST_RANDOM_TOKEN {
            continue;
        }
        // A URL's host and path are names and hashes; its query may carry a key (`?token=…`).
        if is_url(word) {
            match word.split_once('?') {
                Some((_, query)) => word = query,
                None => continue,
            }
        }
        // Its runs of token characters: `:` or `.` separate a bot id or a JWT's parts.
        for part in word.split(|c: char| !is_token_char(c)).flat_map(unpadded) {
            // Where the part starts: separators may be several bytes long (`ɉ`), so counting
            // one byte for each would drift into a character, and mask the wrong bytes.
            let offset = start + (part.as_ptr() as usize - text[start..].as_ptr() as usize);
            if is_random(part) {
                return Some((offset, offset + part.len()));
            }
        }
    }
    None
}

/// The pieces of a run of token characters that `=` does not join: `=` is padding, which
/// ends a token, so `token=abc=` is the name `token=` and the value `abc=`.
fn unpadded(part: &str) -> impl Iterator<Item = &str> {
    let mut rest = part;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let bytes = rest.as_bytes();
        let end = bytes
            .iter()
            .enumerate()
            .position(|(at, &byte)| {
                byte == b'=' && bytes.get(at + 1).is_some_and(|&next| next != b'=')
            })
            .map_or(rest.len(), |at| at + 1);
        let (piece, after) = rest.split_at(end);
        rest = after;
        Some(piece)
    })
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=' | '_' | '-')
}

fn is_url(word: &str) -> bool {
    word.contains("://") || word.starts_with("www.")
}

/// Whether a run of token characters reads as random.
fn is_random(part: &str) -> bool {
    let token = part.trim_end_matches('=');
    if token.len() < SHORTEST_RANDOM_TOKEN || is_uuid(token) || is_path(token) {
        return false;
    }
    let bytes = token.as_bytes();
    let has = |test: fn(&u8) -> bool| bytes.iter().any(test);
    let (lower, upper, digit) = (
        has(u8::is_ascii_lowercase),
        has(u8::is_ascii_uppercase),
        has(u8::is_ascii_digit),
    );
    if bytes.iter().all(u8::is_ascii_hexdigit) {
        // A hex key or hash: digits and letters, in one case.
        return digit && (lower != upper) && entropy(bytes) >= 3.0;
    }
    // base64 or base64url: all three kinds of characters, spread out, and not words run
    // together (`enableAgentAsApprover2024`).
    lower && upper && digit && entropy(bytes) >= 4.2 && !is_wordy(bytes)
}

/// Whether most of the token is words: runs of three or more lower-case letters, with the
/// capital before each. A random base64 token of 32 characters has that much in fewer than
/// one in 300.
fn is_wordy(bytes: &[u8]) -> bool {
    let mut in_words = 0;
    let mut at = 0;
    while at < bytes.len() {
        let start = at;
        while at < bytes.len() && bytes[at].is_ascii_lowercase() {
            at += 1;
        }
        let run = at - start;
        if run >= 3 {
            in_words += run + usize::from(start > 0 && bytes[start - 1].is_ascii_uppercase());
        }
        if run == 0 {
            at += 1;
        }
    }
    in_words * 10 >= bytes.len() * 6
}

/// `8-4-4-4-12` hex digits: an identifier, not a secret.
fn is_uuid(token: &str) -> bool {
    let groups: Vec<&str> = token.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(group, len)| group.len() == len && group.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A file or URL path (`/api/v2/Tickets/...`): it starts like one, or one of its segments is a
/// plain word, which a random base64 segment rarely is.
fn is_path(token: &str) -> bool {
    if !token.contains('/') {
        return false;
    }
    token.starts_with(['/', '.', '~'])
        || token.split('/').any(|segment| {
            let mut chars = segment.chars();
            segment.len() >= 3
                && chars.next().is_some_and(|c| c.is_ascii_alphabetic())
                && chars.all(|c| c.is_ascii_lowercase())
        })
}

/// Shannon entropy of the bytes, in bits per byte.
fn entropy(bytes: &[u8]) -> f64 {
    let mut counts = [0u32; 256];
    for &byte in bytes {
        counts[usize::from(byte)] += 1;
    }
    let total = bytes.len() as f64;
    counts
        .iter()
        .filter(|&&count| count > 0)
        .map(|&count| {
            let p = f64::from(count) / total;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass quick look lets through what a run of non-space bytes or a search for
    /// each marker lets through, and nothing else: for credentials, and for random tokens.
    #[test]
    fn the_quick_look_finds_long_runs_and_markers_anywhere() {
        let longest = |text: &str| {
            text.split(|c: char| c.is_ascii_whitespace())
                .map(str::len)
                .max()
                .unwrap_or(0)
        };
        let reference = |text: &str| {
            longest(text) >= SHORTEST_TOKEN || MARKERS.iter().any(|marker| text.contains(marker))
        };
        let pieces = [
            "a",
            "é",
            " ",
            "\t",
            "\n",
            "\u{c}",
            // Below a space, but not whitespace; whitespace, but not ASCII.
            "\u{1}",
            "\u{a0}",
            "-",
            "-----BEGIN",
            "----BEGIN",
            "earer ",
            "Bearer",
            "Bearer ",
            "bearer ",
            "Basic ",
            "basic ",
            "asic ",
            "wearer ",
            "b",
            "earer",
            "://",
            ":/",
            "e",
            ":",
            "0123456789abcdef",
            "0123456789abcde",
            "0123456789abcdef0123456789abcde",
        ];
        let mut seed = 0x9e37_79b9_u64;
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..(seed >> 60) + 1 {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            let shape = Shape::of(&text);
            assert_eq!(shape.may_hold_credential(), reference(&text), "{text:?}");
            assert_eq!(
                shape.may_hold_random_token(),
                longest(&text) >= SHORTEST_RANDOM_TOKEN,
                "{text:?}"
            );
        }
    }

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
        assert!(read_key("monkey").1);
        assert!(read_key("AUTHOR").1);
        assert!(!read_key("api_domain_key").1);
        assert!(!read_key("domain").1);
        assert!(!read_key("password").1);
    }

    /// `Found::in_key` is each word looked for in the key lower-cased, found in one pass.
    #[test]
    fn the_words_of_a_key_are_found_in_any_case_anywhere() {
        let words = Found::WORDS
            .iter()
            .enumerate()
            .map(|(bit, word)| (word, 1 << bit));
        // Pieces of the words, whole or cut, in both cases, with what may sit between them.
        let pieces = [
            "au", "th", "AUTH", "to", "ken", "Key", "k", "ey", "se", "cret", "SECRET", "pa", "ss",
            "pw", "d", "cre", "dential", "api_", "domain", "_", "-", "a", "p", "é", "@", "`",
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |below: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % below as u64) as usize
        };
        for _ in 0..50_000 {
            let key: String = (0..next(7)).map(|_| pieces[next(pieces.len())]).collect();
            let lower = key.to_ascii_lowercase();
            let expected = words
                .clone()
                .filter(|(word, _)| lower.contains(*word))
                .fold(0, |found, (_, flag)| found | flag);
            assert_eq!(Found::in_key(&key).0, expected, "{key:?}");
        }
    }

    #[test]
    fn random_tokens_are_found() {
        fn found(text: &str) -> Option<&str> {
            random_token(text).map(|(start, end)| &text[start..end])
        }
        // Telegram-shaped bot token, as a description's example.
        assert_eq!(
            found("Example: 776622144:WqkVVjtLdnus3klphcUuAaGA8WCsEzU7F6m"),
            Some("WqkVVjtLdnus3klphcUuAaGA8WCsEzU7F6m")
        );
        let pasted = "Zq8vN3kLpR7tW2xYbM5cJ9dF4gH6sA1eQ0uI8oP3nT5rV7wX2yZ4kL6mN8bC0dE9fG1hJ3";
        assert_eq!(found(pasted), Some(pasted));
        assert_eq!(
            found("key 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
            Some("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
        );
        assert_eq!(
            found("dGhpcyBpcyBhIHNlY3JldCB2YWx1ZSAxMjM0NTY3OA=="),
            Some("dGhpcyBpcyBhIHNlY3JldCB2YWx1ZSAxMjM0NTY3OA==")
        );
        // Padding ends a token: a parameter's name before it is not the token's.
        assert_eq!(
            found("token=Zq8vN3kLpR7tW2xYbM5cJ9dF4gH6sA1eQ0uI8oP3="),
            Some("Zq8vN3kLpR7tW2xYbM5cJ9dF4gH6sA1eQ0uI8oP3=")
        );
        assert_eq!(
            found(
                "https://hooks.example.com/in?id=7&token=Zq8vN3kLpR7tW2xYbM5cJ9dF4gH6sA1eQ0uI8o=="
            ),
            Some("Zq8vN3kLpR7tW2xYbM5cJ9dF4gH6sA1eQ0uI8o==")
        );
        // After a separator of two bytes (found by the `fix` fuzz target: the token's range
        // started inside the `ɉ`, and slicing there panicked).
        assert_eq!(
            found("Zqɉ8vN3kLpR7tW2xYbM5cJ9dF4gH6sA1eQ0uI8oP3nT5"),
            Some("8vN3kLpR7tW2xYbM5cJ9dF4gH6sA1eQ0uI8oP3nT5")
        );
    }

    #[test]
    fn random_tokens_are_not_words_urls_uuids_or_paths() {
        for text in [
            "Please enter your SurveySparrow API key. You can find it in Settings -> Apps",
            "https://webhook.site/550d53cb-f213-4b3d-88a0-b77765bc48b9",
            "https://mocki.io/v1/45a7b766-fdb4-4aac-974a-10b3d5720030",
            "https://cdn.example.com/Zq8vN3kLpR7tW2xYbM5cJ9dF4gH6sA1eQ0uI8oP3/app.js?v=2",
            "Vault 45a7b766-fdb4-4aac-974a-10b3d5720030 of the account",
            "enableAgentAsApproverShortcutForTheLoggedInAgent2024",
            "/api/v2/Tickets/FilterByCustomField2024/ResultsPage",
            "freshdesk_ticket_custom_field_name_that_is_very_long",
            "claude-3-sonnet-20240229-and-some-more-words-here",
            "www.Example2024ThisIsALongDomainNameForTesting.com/Path",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1a",
        ] {
            assert_eq!(random_token(text), None, "{text}");
        }
    }

    /// The kind of credential `text` contains, if it contains one.
    fn credential_kind(text: &str) -> Option<&'static str> {
        match secret_in(text, false) {
            Some(Secret::Credential(kind)) => Some(kind),
            _ => None,
        }
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
        // Padded or not, long or short, a `Basic` pair is a credential.
        assert_eq!(
            credential_kind("Basic ZHczOnMzY3IzdA=="),
            Some("a Basic credential")
        );
        assert_eq!(
            credential_kind("Authorization: Basic dXNlcjpwYXNz"),
            Some("a Basic credential")
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
