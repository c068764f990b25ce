//! Completion: in iparams.json, what the format allows where the cursor is (attribute names,
//! types, products, data-bind values, a default among the iparam's options); in code and
//! templates, the app's iparam keys where one is read (`client.iparams.get("…")`,
//! `utils.get/set("…")`, `args.iparams.…`, `<%= iparam.… %>`), from iparams.json or from what a
//! custom page's `postConfigs` returns; in a custom page, the values of `data-bind`.

use iparams_core::app::Outline;
use iparams_core::model::{Attribute, DATA_BIND_VALUES, IparamType, data_bind_description};
use iparams_core::products::{CURRENT_PRODUCT, PRODUCT_NAMES, product_description};
use lsp_types::CompletionParams;
use serde_json::{Value, json};

use super::context;
use super::documents::{Document, Place};
use super::keys::AppKeys;
use super::state::State;

/// LSP completion item kinds used here.
const KIND_PROPERTY: u8 = 10;
const KIND_VALUE: u8 = 12;
const KIND_ENUM_MEMBER: u8 = 20;
const KIND_FIELD: u8 = 5;

/// One candidate: the text it inserts and what it means.
struct Candidate {
    label: String,
    kind: u8,
    documentation: Option<String>,
}

pub fn complete(state: &mut State, params: CompletionParams) -> Value {
    let at = params.text_document_position_params;
    let Some((document, offset)) = super::offset_in(state, &at.text_document.uri, at.position)
    else {
        return Value::Null;
    };
    let found = if document.is_iparams() {
        in_iparams(document, offset)
    } else if let Some(found) = in_page(document, offset) {
        Some(found)
    } else {
        in_code(state, document, offset)
    };
    let Some((start, end, quote, candidates)) = found else {
        return Value::Null;
    };
    let range = document
        .lines
        .range(&document.text, start, end, state.encoding);
    let items: Vec<Value> = candidates
        .into_iter()
        .map(|candidate| {
            let text = if quote {
                format!("\"{}\"", candidate.label)
            } else {
                candidate.label.clone()
            };
            let mut item = json!({
                "label": candidate.label,
                "kind": candidate.kind,
                "filterText": text,
                "textEdit": { "range": range, "newText": text },
            });
            if let Some(documentation) = candidate.documentation {
                item["documentation"] = super::markup(state.completion_markup, documentation);
            }
            item
        })
        .collect();
    json!({ "isIncomplete": false, "items": items })
}

/// The range to replace, whether the inserted text needs its quotes, and the candidates.
type Found = (usize, usize, bool, Vec<Candidate>);

fn in_iparams(document: &Document, offset: usize) -> Option<Found> {
    let cx = context::at(&document.text, offset);
    // Replace the whole string under the cursor, quotes included, so that a closing quote the
    // editor added is not doubled; outside a string, insert at the cursor.
    let (start, end) = match &cx.string {
        Some(s) => (s.start, s.end),
        None => (offset, offset),
    };
    let path = cx.path.clone();
    let on_key = cx.string.as_ref().map_or(cx.expects_key, |s| s.is_key);
    let candidates: Vec<Candidate> = match (path.as_slice(), on_key) {
        ([_], true) => Attribute::ALL
            .iter()
            .map(|attribute| Candidate {
                label: attribute.name().to_owned(),
                kind: KIND_PROPERTY,
                documentation: Some(attribute.description().to_owned()),
            })
            .collect(),
        ([_, kind], false) if kind == "type" => IparamType::ALL
            .iter()
            .map(|ty| Candidate {
                label: ty.name().to_owned(),
                kind: KIND_ENUM_MEMBER,
                documentation: Some(ty.description().to_owned()),
            })
            .collect(),
        ([_, attributes, product], false)
            if attributes == "type_attributes" && product == "product" =>
        {
            PRODUCT_NAMES
                .iter()
                .copied()
                .chain([CURRENT_PRODUCT])
                .map(|product| Candidate {
                    label: product.to_owned(),
                    kind: KIND_ENUM_MEMBER,
                    documentation: product_description(product).map(ToOwned::to_owned),
                })
                .collect()
        }
        ([_, bind], false) if bind == "data-bind" => data_bind_values(),
        ([key, default, ..], false) if default == "default_value" => options_of(document, key)
            .into_iter()
            .map(|option| Candidate {
                label: option,
                kind: KIND_VALUE,
                documentation: None,
            })
            .collect(),
        _ => return None,
    };
    Some((start, end, true, candidates))
}

/// The values a `data-bind` takes, with what each means.
fn data_bind_values() -> Vec<Candidate> {
    DATA_BIND_VALUES
        .iter()
        .map(|(value, _)| Candidate {
            label: (*value).to_owned(),
            kind: KIND_ENUM_MEMBER,
            documentation: data_bind_description(value).map(ToOwned::to_owned),
        })
        .collect()
}

/// In a custom installation page, inside the value of a `data-bind` attribute: its values.
/// What is replaced is the value's text from its start to the end of the word at the cursor
/// (the value of an unclosed attribute runs on past it).
fn in_page(document: &Document, offset: usize) -> Option<Found> {
    let bind = document.data_bind_at(offset)?;
    let after = document.text.get(offset..bind.span.end)?;
    let word = after
        .find(|c: char| !(c.is_alphanumeric() || c == '.' || c == '_'))
        .unwrap_or(after.len());
    Some((bind.span.start, offset + word, false, data_bind_values()))
}

/// The options of the iparam `key`, as the (possibly half-written) text has them.
fn options_of(document: &Document, key: &str) -> Vec<String> {
    Outline::of(&document.text)
        .get(key)
        .map(|declared| declared.options.clone())
        .unwrap_or_default()
}

/// What comes before a key in code and templates, and the characters a key is made of there.
const READERS: [(&str, bool); 6] = [
    ("iparams.get(", true),
    ("utils.get(", true),
    ("utils.set(", true),
    ("args.iparams.", false),
    ("iparams[", true),
    ("iparam.", false),
];

fn in_code(state: &State, document: &Document, offset: usize) -> Option<Found> {
    let Place::App { root, .. } = &document.place else {
        return None;
    };
    let line_start = document.text[..offset]
        .rfind(['\n', '\r'])
        .map_or(0, |at| at + 1);
    let before = &document.text[line_start..offset];
    // The partial key typed so far, and what precedes it.
    let partial_len = before
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-' || *c == '$')
        .map(char::len_utf8)
        .sum::<usize>();
    let head = &before[..before.len() - partial_len];
    let (head, quoted) = match head.strip_suffix(['"', '\'', '`']) {
        Some(rest) => (rest, true),
        None => (head, false),
    };
    let reader = READERS
        .iter()
        .find(|(prefix, needs_quote)| head.ends_with(prefix) && *needs_quote == quoted)?;
    // `<%= iparam.` only in templates and pages; `iparam.` alone is too common in code.
    if reader.0 == "iparam." && !head.trim_end_matches("iparam.").trim_end().ends_with("<%=") {
        return None;
    }
    let candidates = AppKeys::of(&state.workspace, root)
        .named()
        .into_iter()
        .map(|named| Candidate {
            label: named.key,
            kind: KIND_FIELD,
            documentation: None,
        })
        .collect();
    Some((offset - partial_len, offset, false, candidates))
}
