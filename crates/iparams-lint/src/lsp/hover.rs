//! Hover: on a finding, its rule's documentation (from the registry, as `explain` shows it);
//! on an attribute, a type, a product or a data-bind value of iparams.json, what it means (from
//! the format's vocabulary in `iparams_core::model`); on a `data-bind` value of a custom
//! installation page, the same; on a read of an iparam, its declaration (in iparams.json, or in
//! what a custom page's `postConfigs` returns).

use iparams_core::REGISTRY;
use iparams_core::model::{Attribute, IparamType, data_bind_description};
use iparams_core::products::product_description;
use lsp_types::HoverParams;
use serde_json::{Value, json};

use super::context::{self, JsonContext};
use super::diagnostics::rule_url;
use super::documents::{Document, Place};
use super::keys::{AppKeys, Declarer};
use super::navigation::Spot;
use super::state::State;

pub fn hover(state: &mut State, params: HoverParams) -> Value {
    let at = params.text_document_position_params;
    let Some((document, offset)) = super::offset_in(state, &at.text_document.uri, at.position)
    else {
        return Value::Null;
    };
    let mut parts: Vec<String> = Vec::new();
    let mut range: Option<(usize, usize)> = None;
    for d in &document.report.diagnostics {
        if d.span.start <= offset && offset <= d.span.end {
            if let Some(rule) = REGISTRY.iter().find(|rule| rule.name == d.rule) {
                parts.push(format!(
                    "**{}** ({}): {}\n\n{}\n\n[Documentation]({})",
                    rule.name,
                    d.severity,
                    rule.summary,
                    rule.docs(),
                    rule_url(rule.name)
                ));
            }
            range.get_or_insert((d.span.start, d.span.end));
        }
    }
    if document.is_iparams()
        && let Some((text, start, end)) = meaning(document, offset)
    {
        parts.push(text);
        range = Some((start, end));
    } else if let Some((text, start, end)) = page_data_bind(document, offset) {
        parts.push(text);
        range = Some((start, end));
    } else if let Some((text, start, end)) = read_definition(state, document, offset) {
        parts.push(text);
        range = Some((start, end));
    }
    if parts.is_empty() {
        return Value::Null;
    }
    let mut out = json!({
        "contents": super::markup(state.hover_markup, parts.join("\n\n---\n\n")),
    });
    if let Some((start, end)) = range {
        out["range"] = json!(
            document
                .lines
                .range(&document.text, start, end, state.encoding)
        );
    }
    out
}

/// What the attribute name, type, product or data-bind value under the cursor means, with
/// the string's range.
fn meaning(document: &Document, offset: usize) -> Option<(String, usize, usize)> {
    let JsonContext { path, string, .. } = context::at(&document.text, offset);
    let string = string?;
    let text = match (path.as_slice(), string.is_key) {
        ([_], true) => {
            let attribute = Attribute::from_name(&string.text)?;
            format!("**`{}`**: {}", attribute.name(), attribute.description())
        }
        ([_, kind], false) if kind == "type" => {
            let ty = IparamType::from_name(&string.text)?;
            format!("**`{}`**: {}", ty.name(), ty.description())
        }
        ([_, attributes, product], false)
            if attributes == "type_attributes" && product == "product" =>
        {
            format!(
                "**`{}`**: {}",
                string.text,
                product_description(&string.text)?
            )
        }
        ([_, bind], false) if bind == "data-bind" => {
            format!(
                "**`{}`**: {}",
                string.text,
                data_bind_description(&string.text)?
            )
        }
        _ => return None,
    };
    Some((text, string.start, string.end))
}

/// What the `data-bind` value under the cursor in a custom installation page means, with the
/// value's range.
fn page_data_bind(document: &Document, offset: usize) -> Option<(String, usize, usize)> {
    let bind = document.data_bind_at(offset)?;
    let description = data_bind_description(&bind.value)?;
    Some((
        format!("**`{}`**: {description}", bind.value),
        bind.span.start,
        bind.span.end,
    ))
}

/// On a read of an iparam in a file of an app: the key's declaration, in iparams.json or in
/// the object a custom page's `postConfigs` returns.
fn read_definition(
    state: &State,
    document: &Document,
    offset: usize,
) -> Option<(String, usize, usize)> {
    let Place::App { root, relative } = &document.place else {
        return None;
    };
    let path = root.join(relative);
    let reads = super::navigation::reads(relative, &path, &document.text);
    let read = reads
        .iter()
        .find(|read| read.spot.start <= offset && offset <= read.spot.end)?;
    // Read through the workspace, so that unsaved text wins.
    let keys = AppKeys::of(&state.workspace, root);
    let key = &read.key;
    let text = match (&keys.declarer, keys.get(key)) {
        (Declarer::Unknown, _) => return None,
        (Declarer::IparamsJson, Some(found)) => {
            let declared = &found.declared;
            format!(
                "iparam **`{key}`**: {} (`{}`){}",
                declared.display_name.as_deref().unwrap_or_default(),
                declared.type_name.as_deref().unwrap_or_default(),
                if declared.secure { ", secure" } else { "" }
            )
        }
        (Declarer::IparamsJson, None) => {
            format!("iparam `{key}` is not defined in config/iparams.json")
        }
        (Declarer::Page { relative, .. }, Some(found)) => format!(
            "iparam **`{key}`**: stored by `postConfigs` ({relative}, line {}), {}{}",
            line_of(state, &found.named.spot),
            if found.declared.secure {
                "secure (listed in `__meta.secure`)"
            } else {
                "not secure"
            },
            found
                .declared
                .data_bind
                .as_deref()
                .map(|bind| format!("; its field is filled from `{bind}`"))
                .unwrap_or_default()
        ),
        (Declarer::Page { relative, complete }, None) => {
            if *complete {
                format!(
                    "iparam `{key}`: the custom installation page stores no such iparam \
                     (`postConfigs` in {relative} does not return it)"
                )
            } else {
                format!(
                    "iparam `{key}` is not among the keys read from `postConfigs` in \
                     {relative}, whose other keys cannot be told from the code"
                )
            }
        }
    };
    Some((text, read.spot.start, read.spot.end))
}

/// The line (from 1) where `spot` starts.
fn line_of(state: &State, spot: &Spot) -> u32 {
    super::range_of(state, spot).start.line + 1
}
