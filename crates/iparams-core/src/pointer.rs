//! RFC 6901 JSON pointers, which name the value a finding is about: `/<key>/<attribute>/...`,
//! each reference token with `~` written `~0` and `/` written `~1`. Findings carry them
//! ([`Diagnostic::pointer`](crate::Diagnostic)); configuration overrides and the command's
//! front-ends read them.

/// The pointer of a top-level member: `/<key>`.
pub fn of_key(key: &str) -> String {
    of_tokens([key])
}

/// The pointer made of `tokens` from the top: `/<key>/<attribute>/...`. Made at its size at
/// once (an escape, seldom, grows it): a large file makes one for each of its findings.
pub fn of_tokens<'t, T>(tokens: T) -> String
where
    T: IntoIterator<Item = &'t str>,
    T::IntoIter: Clone,
{
    let tokens = tokens.into_iter();
    let mut pointer = String::with_capacity(tokens.clone().map(|token| token.len() + 1).sum());
    for token in tokens {
        push(&mut pointer, token);
    }
    pointer
}

/// Appends one reference token, escaping `~` and `/`.
pub fn push(pointer: &mut String, segment: &str) {
    pointer.push('/');
    // Keys seldom hold either: copied whole, not a character at a time.
    if !segment.bytes().any(|byte| byte == b'~' || byte == b'/') {
        pointer.push_str(segment);
        return;
    }
    for character in segment.chars() {
        match character {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// The reference tokens of `pointer`, unescaped: `/a~1b/options/2` gives `a/b`, `options`,
/// `2`. None for the empty pointer (the whole document); a pointer that does not start with `/`
/// is not one, and gives none either.
pub fn tokens(pointer: &str) -> impl Iterator<Item = String> + '_ {
    pointer
        .strip_prefix('/')
        .into_iter()
        .flat_map(|rest| rest.split('/'))
        .map(|token| token.replace("~1", "/").replace("~0", "~"))
}

/// The iparam a pointer into iparams.json is about: its first token (`/hr_domain/type` gives
/// `hr_domain`).
pub fn key_of(pointer: &str) -> Option<String> {
    tokens(pointer).next()
}

/// Whether `pointer` names `ancestor` or a value inside it: `/a/type` is within `/a`, `/ab` is
/// not.
pub fn is_within(pointer: &str, ancestor: &str) -> bool {
    pointer
        .strip_prefix(ancestor)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_tilde_and_slash() {
        assert_eq!(of_key("a/b~c"), "/a~1b~0c");
        assert_eq!(of_key(""), "/");
        let mut pointer = of_key("x");
        push(&mut pointer, "options");
        push(&mut pointer, "2");
        assert_eq!(pointer, "/x/options/2");
        assert_eq!(of_tokens(["x", "a/b~", "2"]), "/x/a~1b~0/2");
        assert_eq!(of_tokens([]), "");
    }

    #[test]
    fn reads_back_what_it_writes() {
        let pointer = of_tokens(["a/b~c", "options", "2"]);
        let read: Vec<String> = tokens(&pointer).collect();
        assert_eq!(read, ["a/b~c", "options", "2"]);
        assert_eq!(key_of("/hr_domain/type").as_deref(), Some("hr_domain"));
        assert_eq!(key_of("/a~1b").as_deref(), Some("a/b"));
        assert_eq!(key_of("/~01").as_deref(), Some("~1"));
        assert_eq!(key_of(""), None);
        assert!(is_within("/a", "/a") && is_within("/a/type", "/a"));
        assert!(!is_within("/ab", "/a") && !is_within("/b/a", "/a"));
    }
}
