//! Where a cursor is in a JSON text being typed: the keys of the objects around it, and the
//! string under it (a key or a value). Read token by token up to the cursor, so it works on
//! the half-written text an editor holds, where a parser would have to guess.

/// The string literal under the cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StringAt {
    /// Its byte range, quotes included (an unclosed one ends at the end of its line).
    pub start: usize,
    pub end: usize,
    /// Its text without quotes (escapes left as written).
    pub text: String,
    /// It is an object key, not a value.
    pub is_key: bool,
}

/// What surrounds the cursor.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JsonContext {
    /// From the top: the key of each object member (or index of each array item) the cursor
    /// is inside. A cursor on a key has that key's object as the last container, not the key.
    pub path: Vec<String>,
    /// The string under the cursor, if any.
    pub string: Option<StringAt>,
    /// Outside any string, where an object expects a key.
    pub expects_key: bool,
}

enum Frame {
    Object {
        key: Option<String>,
        expects_key: bool,
    },
    Array {
        index: usize,
    },
}

/// The context of byte `offset` of `text`.
pub fn at(text: &str, offset: usize) -> JsonContext {
    let bytes = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                let (end, closed) = string_end(bytes, at);
                let is_key = matches!(
                    stack.last(),
                    Some(Frame::Object {
                        expects_key: true,
                        ..
                    })
                );
                let inner_end = if closed { end - 1 } else { end };
                let inside = at < offset && (offset < end || (!closed && offset <= end));
                if inside {
                    return JsonContext {
                        path: path(&stack, is_key),
                        string: Some(StringAt {
                            start: at,
                            end,
                            text: text[at + 1..inner_end.max(at + 1)].to_owned(),
                            is_key,
                        }),
                        expects_key: false,
                    };
                }
                if let Some(Frame::Object {
                    key,
                    expects_key: true,
                }) = stack.last_mut()
                {
                    *key = Some(text[at + 1..inner_end.max(at + 1)].to_owned());
                }
                at = end;
                continue;
            }
            _ if at >= offset => break,
            b':' => {
                if let Some(Frame::Object { expects_key, .. }) = stack.last_mut() {
                    *expects_key = false;
                }
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object { key, expects_key }) => {
                    *key = None;
                    *expects_key = true;
                }
                Some(Frame::Array { index }) => *index += 1,
                None => {}
            },
            b'{' => stack.push(Frame::Object {
                key: None,
                expects_key: true,
            }),
            b'[' => stack.push(Frame::Array { index: 0 }),
            b'}' | b']' => {
                stack.pop();
            }
            _ => {}
        }
        at += 1;
    }
    let expects_key = matches!(
        stack.last(),
        Some(Frame::Object {
            expects_key: true,
            ..
        })
    );
    JsonContext {
        path: path(&stack, expects_key),
        string: None,
        expects_key,
    }
}

/// The keys and indexes of the containers; the innermost object's key is left out when the
/// cursor is on (or expects) a key of that object.
fn path(stack: &[Frame], on_key: bool) -> Vec<String> {
    let mut path = Vec::new();
    for (depth, frame) in stack.iter().enumerate() {
        let last = depth + 1 == stack.len();
        match frame {
            Frame::Object { key, .. } => {
                if last && on_key {
                    break;
                }
                path.push(key.clone().unwrap_or_default());
            }
            Frame::Array { index } => path.push(index.to_string()),
        }
    }
    path
}

/// Where the string opening at `start` ends (after its closing quote), and whether it is
/// closed; an unclosed one ends at the end of its line.
fn string_end(bytes: &[u8], start: usize) -> (usize, bool) {
    let mut at = start + 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => return (at + 1, true),
            b'\n' | b'\r' => return (at, false),
            _ => at += 1,
        }
    }
    (bytes.len(), false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context(marked: &str) -> JsonContext {
        let offset = marked.find('|').expect("a cursor");
        let text = marked.replacen('|', "", 1);
        at(&text, offset)
    }

    #[test]
    fn keys_values_and_nesting() {
        let c = context(r#"{"a": {"ty|pe": "text"}}"#);
        assert_eq!(c.path, ["a"]);
        let s = c.string.expect("a string");
        assert!(s.is_key);
        assert_eq!(s.text, "type");

        let c = context(r#"{"a": {"type": "te|xt"}}"#);
        assert_eq!(c.path, ["a", "type"]);
        assert!(!c.string.expect("a string").is_key);

        let c = context(r#"{"a": {"type_attributes": {"product": "|"}}}"#);
        assert_eq!(c.path, ["a", "type_attributes", "product"]);

        let c = context(r#"{"a": {"default_value": ["x", "|"]}}"#);
        assert_eq!(c.path, ["a", "default_value", "1"]);

        let c = context("{\"a\": {\"display_name\": \"A\", |}}");
        assert!(c.expects_key);
        assert_eq!(c.path, ["a"]);
        assert_eq!(c.string, None);
    }

    #[test]
    fn half_written_text() {
        let c = context("{\"a\": {\"type\": \"te|\n}");
        assert_eq!(c.path, ["a", "type"]);
        assert_eq!(c.string.expect("an unclosed string").text, "te");
        let c = context("{\"a\": {\"|");
        let s = c.string.expect("a string");
        assert!(s.is_key);
        assert_eq!(c.path, ["a"]);
    }
}
