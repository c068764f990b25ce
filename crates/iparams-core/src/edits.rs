//! Building minimal edits: each touches only the bytes it must, so indentation, key order and
//! line endings around it stay exactly as the author wrote them.

use crate::diagnostic::Edit;
use crate::span::Span;
use crate::syntax::{Member, Value};

/// A JSON string literal for `text`.
pub fn json_string(text: &str) -> String {
    let mut out = Vec::with_capacity(text.len() + 2);
    crate::syntax::write_string(&mut out, text);
    String::from_utf8(out).expect("escaping keeps UTF-8 whole")
}

/// Removes entry `index` of a comma-separated list of `len` entries (members or items), with
/// the comma that separated it from its neighbour. Only the neighbours' spans are needed, so
/// removing each of many entries costs nothing per entry.
fn remove_from_list(len: usize, index: usize, span_of: impl Fn(usize) -> Span) -> Edit {
    let span = span_of(index);
    if index > 0 {
        // From the end of the previous entry: takes the comma before this one.
        Edit::delete(Span::new(span_of(index - 1).end, span.end))
    } else if len > 1 {
        // The first entry: up to the next one, taking the comma after it.
        Edit::delete(Span::new(span.start, span_of(1).start))
    } else {
        Edit::delete(span)
    }
}

/// Removes the member at `index` of an object.
pub fn remove_member(members: &[Member<'_>], index: usize) -> Edit {
    remove_from_list(members.len(), index, |i| {
        members[i].key.span.cover(members[i].value.span)
    })
}

/// Removes the item at `index` of an array.
pub fn remove_item(items: &[Value<'_>], index: usize) -> Edit {
    remove_from_list(items.len(), index, |i| items[i].span)
}

/// Adds `"key": value_json` as the last member of `object`, on its own line with the
/// indentation of the members before it.
pub fn insert_member(text: &str, object: &Value<'_>, key: &str, value_json: &str) -> Option<Edit> {
    let members = object.as_object()?;
    let entry = format!("{}: {value_json}", json_string(key));
    let Some(last) = members.last() else {
        return Some(Edit::insert(object.span.start + 1, entry));
    };
    let line_start = text[..last.key.span.start].rfind('\n').map_or(0, |n| n + 1);
    let indent = &text[line_start..last.key.span.start];
    let separator = if indent.chars().all(|c| c == ' ' || c == '\t') {
        let newline = if text[..line_start].ends_with("\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        format!(",{newline}{indent}")
    } else {
        ", ".to_owned()
    };
    Some(Edit::insert(
        last.value.span.end,
        format!("{separator}{entry}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse_value;

    fn apply(text: &str, edit: &Edit) -> String {
        format!(
            "{}{}{}",
            &text[..edit.span.start],
            edit.replacement,
            &text[edit.span.end..]
        )
    }

    #[test]
    fn removing_members_takes_one_comma() {
        let text = "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3\n}";
        let (value, _) = parse_value(text);
        let value = value.unwrap();
        let members = value.as_object().unwrap();
        assert_eq!(
            apply(text, &remove_member(members, 0)),
            "{\n  \"b\": 2,\n  \"c\": 3\n}"
        );
        assert_eq!(
            apply(text, &remove_member(members, 1)),
            "{\n  \"a\": 1,\n  \"c\": 3\n}"
        );
        assert_eq!(
            apply(text, &remove_member(members, 2)),
            "{\n  \"a\": 1,\n  \"b\": 2\n}"
        );
    }

    #[test]
    fn removing_items() {
        let text = r#"["a", "b", "a"]"#;
        let (value, _) = parse_value(text);
        let value = value.unwrap();
        assert_eq!(
            apply(text, &remove_item(value.as_array().unwrap(), 2)),
            r#"["a", "b"]"#
        );
    }

    #[test]
    fn inserted_members_follow_the_indentation() {
        let text = "{\r\n    \"a\": 1\r\n}";
        let (value, _) = parse_value(text);
        let edit = insert_member(text, &value.unwrap(), "secure", "true").unwrap();
        assert_eq!(
            apply(text, &edit),
            "{\r\n    \"a\": 1,\r\n    \"secure\": true\r\n}"
        );
        let text = "{\"a\": 1}";
        let (value, _) = parse_value(text);
        let edit = insert_member(text, &value.unwrap(), "b", "2").unwrap();
        assert_eq!(apply(text, &edit), "{\"a\": 1, \"b\": 2}");
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\n"), r#""a\"b\\c\n""#);
    }
}
