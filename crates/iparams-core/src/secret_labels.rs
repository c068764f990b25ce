//! What labels written for the installer say of a value: whether they name a secret ("Slack
//! bot token", "API Freshdesk key") or something about one ("Token expiry in days").

/// Phrases that name a secret, as words of a label (lower case; `-` and `_` read as spaces).
const SECRETS: [&[&str]; 18] = [
    &["api", "key"],
    &["api", "keys"],
    &["apikey"],
    &["token"],
    &["tokens"],
    &["password"],
    &["passwords"],
    &["passwd"],
    &["passphrase"],
    &["secret"],
    &["secrets"],
    &["private", "key"],
    &["secret", "key"],
    &["access", "key"],
    &["crypt", "key"],
    &["encryption", "key"],
    &["signing", "key"],
    &["senha"],
];

/// The phrases of [`SECRETS`] each first letter (an ASCII code) can begin, one bit each, in the
/// list's order.
const SECRET_HEADS: [u32; 128] = {
    assert!(SECRETS.len() <= 32, "a phrase for each bit of a u32");
    let mut heads = [0; 128];
    let mut index = 0;
    while index < SECRETS.len() {
        heads[SECRETS[index][0].as_bytes()[0] as usize] |= 1 << index;
        index += 1;
    }
    heads
};

/// Words that, right after a secret's name, make the label about the secret rather than the
/// secret itself: "Token expiry in days", "OAuth token URL".
const DESCRIPTORS: [&str; 22] = [
    "url",
    "uri",
    "endpoint",
    "expiry",
    "expiration",
    "expires",
    "expire",
    "ttl",
    "lifetime",
    "length",
    "type",
    "format",
    "header",
    "name",
    "field",
    "id",
    "validity",
    "duration",
    "refresh",
    "prefix",
    "location",
    "path",
];
/// The secret that `text`, a label or a description written for the installer, names, as
/// written in the phrase list, when it names one.
pub fn named_secret(text: &str) -> Option<String> {
    if text.is_ascii() {
        // Most labels: words split and compared byte by byte, without a lower-cased copy.
        let words = text
            .as_bytes()
            .split(|b| !b.is_ascii_alphanumeric())
            .filter(|word| !word.is_empty());
        return first_secret(words, <[u8]>::eq_ignore_ascii_case);
    }
    let lower = text.to_lowercase();
    let words = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::as_bytes);
    first_secret(words, |word, name| word == name)
}

/// The first of [`SECRETS`] that `words` name, unless a descriptor follows it; failing that,
/// the first key of an API named with words between ([`spread_api_key`]). `same` tells whether
/// a word is a given (lower-case) word.
fn first_secret<'w>(
    words: impl Iterator<Item = &'w [u8]>,
    same: impl Fn(&[u8], &[u8]) -> bool,
) -> Option<String> {
    // The word before the one at hand (a key's qualifier), the word at hand, and the four after
    // it: a phrase of up to two words and a descriptor, or a key spread over up to five words.
    let mut words = words.fuse();
    let mut window: Window<'w> = [None; WINDOW];
    for slot in &mut window[2..] {
        *slot = words.next();
    }
    let mut spread = None;
    loop {
        window.rotate_left(1);
        window[WINDOW - 1] = words.next();
        let Some(word) = window[1] else {
            return spread;
        };
        // The vendor's exemption of keys that contain `api_domain`, for labels too.
        if same(word, b"api") && window[2].is_some_and(|next| same(next, b"domain")) {
            return None;
        }
        if let Some(phrase) = phrase_at(word, &window[1..], &same) {
            return Some(phrase);
        }
        if spread.is_none() {
            spread = spread_api_key(&window, &same);
        }
    }
}

/// How many words [`first_secret`] looks at together.
const WINDOW: usize = 6;

type Window<'w> = [Option<&'w [u8]>; WINDOW];

/// The phrase of [`SECRETS`] that begins at `word`, the first of `ahead`, unless a descriptor
/// follows it.
fn phrase_at(
    word: &[u8],
    ahead: &[Option<&[u8]>],
    same: &impl Fn(&[u8], &[u8]) -> bool,
) -> Option<String> {
    // Most words cannot begin a secret's name: their first letter says so, and it picks the
    // few phrases that might.
    let head = word[0].to_ascii_lowercase();
    let mut candidates = SECRET_HEADS.get(usize::from(head)).copied().unwrap_or(0);
    while candidates != 0 {
        let phrase = SECRETS[candidates.trailing_zeros() as usize];
        candidates &= candidates - 1;
        // Names of another length are passed over before any comparison.
        if phrase[0].len() != word.len() {
            continue;
        }
        let named = phrase
            .iter()
            .zip(ahead)
            .all(|(name, word)| word.is_some_and(|word| same(word, name.as_bytes())));
        if named && !is_one_of(ahead[phrase.len()], &DESCRIPTORS, same) {
            return Some(phrase.join(" "));
        }
    }
    None
}

/// Words that, right before "key", make it a key that is not a secret: "Primary key column",
/// "Stripe API publishable key".
const KEY_QUALIFIERS: [&str; 21] = [
    "field",
    "column",
    "primary",
    "foreign",
    "sort",
    "partition",
    "lookup",
    "unique",
    "composite",
    "property",
    "object",
    "map",
    "cache",
    "idempotency",
    "index",
    "record",
    "row",
    "translation",
    "shortcut",
    "public",
    "publishable",
];

/// Words that, between "API" and "key", name something of the API that is not secret: "API
/// domain key" is the key under which the domain goes, not a credential.
const NOT_SECRET_NAMES: [&str; 8] = [
    "domain",
    "subdomain",
    "region",
    "account",
    "host",
    "hostname",
    "base",
    "version",
];

/// Words that join or place other words: between "API" and "key" they make two things of
/// them ("API URL and key"), never one secret.
const CONNECTIVES: [&str; 14] = [
    "and", "or", "for", "of", "to", "from", "the", "your", "a", "an", "with", "in", "on", "by",
];

/// What may follow "key" to name the API it opens: "key for the API".
const KEY_PREPOSITIONS: [&str; 4] = ["for", "of", "to", "from"];

/// What may stand before the API's name there: "key to your Zendesk API".
const DETERMINERS: [&str; 5] = ["the", "your", "our", "this", "its"];

/// A key of an API named with words between, at the word at hand (`window[1]`, after the word
/// before it): "API Freshdesk key", "API Freshdesk Support keys", "key for the API", "key to
/// your Zendesk API". What is between must name the API, not another thing ("API URL and
/// key"), and the key must not be a key of another kind ("Sort key of the API").
fn spread_api_key(window: &Window<'_>, same: &impl Fn(&[u8], &[u8]) -> bool) -> Option<String> {
    let is = |word: Option<&[u8]>, list: &[&str]| is_one_of(word, list, same);
    let api = |word: Option<&[u8]>| is(word, &["api", "apis"]);
    let key = |word: Option<&[u8]>| is(word, &["key", "keys"]);
    // A word that can be part of an API's name.
    let name = |word: Option<&[u8]>| {
        word.is_some()
            && !api(word)
            && !key(word)
            && !is(word, &CONNECTIVES)
            && !is(word, &DESCRIPTORS)
    };
    let spoken = |words: &[Option<&[u8]>]| {
        let words: Vec<String> = words
            .iter()
            .flatten()
            .map(|word| String::from_utf8_lossy(word).to_lowercase())
            .collect();
        Some(words.join(" "))
    };
    let [before, at, ahead @ ..] = window;
    if api(*at) {
        // "API <name> key", "API <name> <name> key".
        let names = ahead.iter().take_while(|word| name(**word)).count().min(2);
        if names == 0
            || ahead[..names]
                .iter()
                .any(|word| is(*word, &NOT_SECRET_NAMES))
            || !key(ahead[names])
            || is(ahead[names - 1], &KEY_QUALIFIERS)
            || is(ahead[names + 1], &DESCRIPTORS)
        {
            return None;
        }
        return spoken(&window[1..names + 3]);
    }
    if key(*at) && !is(*before, &KEY_QUALIFIERS) && is(ahead[0], &KEY_PREPOSITIONS) {
        // "key for [the] [<name>] API".
        let mut next = 1;
        if is(ahead[next], &DETERMINERS) {
            next += 1;
        }
        if name(ahead[next]) && api(ahead[next + 1]) {
            next += 1;
        }
        if api(ahead[next]) {
            return spoken(&window[1..next + 3]);
        }
    }
    None
}

/// Whether `word` is one of the (lower-case) words of `list`.
fn is_one_of(word: Option<&[u8]>, list: &[&str], same: &impl Fn(&[u8], &[u8]) -> bool) -> bool {
    word.is_some_and(|word| list.iter().any(|listed| same(word, listed.as_bytes())))
}

#[cfg(test)]
mod tests {
    use super::named_secret;

    #[test]
    fn secrets_named_and_described() {
        assert_eq!(named_secret("Slack bot token").as_deref(), Some("token"));
        assert_eq!(
            named_secret("Crypt Key (D4Sign)").as_deref(),
            Some("crypt key")
        );
        assert_eq!(named_secret("Groq API-Key").as_deref(), Some("api key"));
        assert_eq!(named_secret("Token expiry in days"), None);
        assert_eq!(named_secret("Dell OAuth Token URL"), None);
        assert_eq!(named_secret("Authentication type"), None);
        assert_eq!(named_secret("Keyboard shortcut"), None);
        assert_eq!(named_secret("Monkey"), None);
        assert_eq!(named_secret("API"), None);
        assert_eq!(named_secret("SECRET KEY").as_deref(), Some("secret"));
        assert_eq!(named_secret("Private KEY ID"), None);
        assert_eq!(
            named_secret("Private KEY for signing").as_deref(),
            Some("private key")
        );
        assert_eq!(named_secret("Signing key name"), None);
        assert_eq!(named_secret("Clé API, token"), Some("token".into()));
        assert_eq!(named_secret("Senha do usuário").as_deref(), Some("senha"));
    }

    #[test]
    fn secrets_named_with_words_between() {
        for (label, phrase) in [
            ("API Access Key", "access key"),
            ("API Freshdesk key", "api freshdesk key"),
            ("API Freshdesk Support keys", "api freshdesk support keys"),
            ("Zendesk API secret", "secret"),
            ("key for the API", "key for the api"),
            ("Key to your Zendesk API", "key to your zendesk api"),
            ("Secret for the webhook", "secret"),
        ] {
            assert_eq!(named_secret(label).as_deref(), Some(phrase), "{label}");
        }
        for label in [
            "API domain",
            "Key field",
            "Primary key column",
            "Keyword",
            "Monkey",
            "API version",
            "API field key",
            "API custom field key",
            "API Freshdesk key name",
            "API URL and key",
            "API or key",
            "API one two three key",
            "Key for sorting the API results",
            "Key field for the API",
            "Sort key of the API",
            "API domain key",
            "API Region Key",
            "API account ID key",
            "API domain token",
            "Your api_domain key",
        ] {
            assert_eq!(named_secret(label), None, "{label}");
        }
    }
}
