//! RFC 6901 JSON pointers, which name the value a finding is about.

/// The pointer of a top-level member: `/<key>`.
pub fn of_key(key: &str) -> String {
    let mut pointer = String::with_capacity(key.len() + 1);
    push(&mut pointer, key);
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
    }
}
