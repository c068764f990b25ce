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

/// How the members of an object are laid out, read from its last member.
struct Layout<'t> {
    /// The last member starts its own line; `None` when it shares a line with what comes
    /// before it (a minified or one-line object).
    own_line: Option<OwnLine<'t>>,
    /// No space after the colon of the last member (`"a":1`).
    tight: bool,
}

struct OwnLine<'t> {
    indent: &'t str,
    /// The line ending before the last member.
    newline: &'static str,
}

/// The layout of `members` (not empty), the members of the object that starts at `open`.
fn layout<'t>(text: &'t str, open: usize, members: &[Member<'_>]) -> Layout<'t> {
    let last = &members[members.len() - 1];
    // Only the gap after what comes before the last member is searched for its line's start:
    // one that is not there leaves the member sharing a line, and a minified file's one long
    // line is not walked back for each fix.
    let gap_start = members
        .len()
        .checked_sub(2)
        .map_or(open + 1, |before| members[before].value.span.end)
        .min(last.key.span.start);
    let own_line = text[gap_start..last.key.span.start]
        .rfind('\n')
        .map(|n| gap_start + n + 1)
        .and_then(|line_start| {
            let indent = &text[line_start..last.key.span.start];
            let blank = indent.bytes().all(|b| b == b' ' || b == b'\t');
            let newline = if text[..line_start].ends_with("\r\n") {
                "\r\n"
            } else {
                "\n"
            };
            blank.then_some(OwnLine { indent, newline })
        });
    let between = &text[last.key.span.end..last.value.span.start];
    Layout {
        own_line,
        tight: between == ":",
    }
}

/// The file's line ending: its first one, `\n` when it has none.
fn first_newline(text: &str) -> &'static str {
    match text.find('\n') {
        Some(n) if text[..n].ends_with('\r') => "\r\n",
        _ => "\n",
    }
}

/// Adds `"key": value_json` as the last member of `object`, on its own line with the
/// indentation of the members before it.
pub fn insert_member(text: &str, object: &Value<'_>, key: &str, value_json: &str) -> Option<Edit> {
    let members = object.as_object()?;
    let key = json_string(key);
    let Some(last) = members.last() else {
        return Some(Edit::insert(
            object.span.start + 1,
            format!("{key}: {value_json}"),
        ));
    };
    // Built in one string: a fix is made for every finding of some rules.
    let mut inserted = String::with_capacity(key.len() + value_json.len() + 32);
    match layout(text, object.span.start, members).own_line {
        Some(OwnLine { indent, newline }) => {
            inserted.push(',');
            inserted.push_str(newline);
            inserted.push_str(indent);
        }
        None => inserted.push_str(", "),
    }
    inserted.push_str(&key);
    inserted.push_str(": ");
    inserted.push_str(value_json);
    Some(Edit::insert(last.value.span.end, inserted))
}

/// Adds `"key": {fields}` as the last member of the top-level object `root`, laid out as the
/// file is: in a file whose members start their own lines, after the last one with its
/// indentation and line ending, one field a line indented one step more; in a minified file,
/// on the same line with the file's spacing. Into an empty object, it goes pretty-printed
/// with two spaces. Each field is a name and its value's JSON, which stays on one line.
pub fn insert_object_member(
    text: &str,
    root: &Value<'_>,
    key: &str,
    fields: &[(&str, String)],
) -> Option<Edit> {
    let members = root.as_object()?;
    let Some(last) = members.last() else {
        let newline = first_newline(text);
        let value = pretty_object(fields, "  ", "    ", newline);
        return Some(Edit::replace(
            root.span,
            format!("{{{newline}  {}: {value}{newline}}}", json_string(key)),
        ));
    };
    let layout = layout(text, root.span.start, members);
    let entry = match layout.own_line {
        Some(OwnLine { indent, newline }) => {
            let step = if indent.is_empty() { "  " } else { indent };
            let value = pretty_object(fields, indent, &format!("{indent}{step}"), newline);
            format!(",{newline}{indent}{}: {value}", json_string(key))
        }
        None => {
            let (colon, comma) = if layout.tight {
                (":", ",")
            } else {
                (": ", ", ")
            };
            let inner: Vec<String> = fields
                .iter()
                .map(|(name, value)| format!("{}{colon}{value}", json_string(name)))
                .collect();
            format!(
                "{comma}{}{colon}{{{}}}",
                json_string(key),
                inner.join(comma)
            )
        }
    };
    Some(Edit::insert(last.value.span.end, entry))
}

/// `{fields}` over several lines: the fields at `inner` indentation, the closing brace at
/// `outer`.
fn pretty_object(fields: &[(&str, String)], outer: &str, inner: &str, newline: &str) -> String {
    if fields.is_empty() {
        return "{}".to_owned();
    }
    let lines: Vec<String> = fields
        .iter()
        .map(|(name, value)| format!("{inner}{}: {value}", json_string(name)))
        .collect();
    format!(
        "{{{newline}{}{newline}{outer}}}",
        lines.join(&format!(",{newline}"))
    )
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
    fn inserted_objects_follow_the_layout() {
        let fields = [
            ("type", "\"text\"".to_owned()),
            ("required", "true".to_owned()),
        ];
        let cases = [
            (
                "{\r\n\t\"a\": {\r\n\t\t\"type\": \"url\"\r\n\t}\r\n}\r\n",
                "{\r\n\t\"a\": {\r\n\t\t\"type\": \"url\"\r\n\t},\r\n\t\"k\": {\r\n\t\t\"type\": \"text\",\r\n\t\t\"required\": true\r\n\t}\r\n}\r\n",
            ),
            (
                r#"{"a":{"type":"url"}}"#,
                r#"{"a":{"type":"url"},"k":{"type":"text","required":true}}"#,
            ),
            (
                "{}\n",
                "{\n  \"k\": {\n    \"type\": \"text\",\n    \"required\": true\n  }\n}\n",
            ),
        ];
        for (text, expected) in cases {
            let (value, _) = parse_value(text);
            let edit = insert_object_member(text, &value.unwrap(), "k", &fields).unwrap();
            assert_eq!(apply(text, &edit), expected);
        }
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\n"), r#""a\"b\\c\n""#);
    }
}
