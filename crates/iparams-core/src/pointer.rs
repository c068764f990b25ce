//! RFC 6901 JSON pointers, which name the value a finding is about.

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
}
