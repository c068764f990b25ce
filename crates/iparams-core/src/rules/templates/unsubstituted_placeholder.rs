//! `unsubstituted-placeholder`: a placeholder in a request template that the platform never
//! substitutes, so that it reaches the service as written.

use crate::app::{AppModel, Reference};
use crate::diagnostic::Severity;
use crate::model::IparamType;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::templates::request_templates;
use crate::span::Span;
use crate::suggest;
use crate::syntax::span_in_literal;

pub static RULE: Rule = Rule {
    name: "unsubstituted-placeholder",
    severity: Severity::Error,
    area: Area::Templates,
    summary: "A request template holds a placeholder the platform never substitutes (`{{context.id}}`, `{id}`, `${id}`, `iparams.key`)",
    docs: r#"The platform substitutes `<%= … %>` placeholders of a few forms only: `iparam.KEY`,
`iparam.$KEY.url` (the full URL of a `domain` iparam), `context.NAME`, `access_token`,
`app_settings.NAME`, `current_host.endpoint_urls.PRODUCT`, and `encode(…)` of them (base64).
Anything else is sent to the service exactly as written: `{{context.id}}` (another template
language), `{id}` (an OpenAPI path), `${id}` (a JavaScript template literal), `iparams.key` (with an
s), or a `<%= %>` around another name. The call then fails at run time with a 404 or a 401 that
says nothing about the template. The help gives the placeholder to write."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getUser": {}}}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{"getUser": {"schema": {"method": "GET", "host": "api.example.com", "path": "/users/{{context.id}}"}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("getUser", {context: {id: 7}});
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getUser": {}}}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{"getUser": {"schema": {"method": "GET", "host": "api.example.com", "path": "/users/<%= context.id %>"}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("getUser", {context: {id: 7}});
"#,
    examples: Examples::App,
    vendor: "Not checked: the template is packed and fails when it is invoked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (file, template) in request_templates(model) {
        let name = suggest::shortened(&template.name);
        for placeholder in &template.placeholders {
            let mut reported = false;
            for (reference, span) in placeholder.references() {
                let (problem, instead) = match reference {
                    Reference::MisspelledIparam(key) => (
                        format!("`iparams.{key}` is not substituted (`iparams`, with an s)"),
                        format!("Write `iparam.{key}`."),
                    ),
                    Reference::Unknown(name) => (
                        format!("`{name}` is not a name the platform substitutes"),
                        "The platform substitutes `iparam.KEY`, `iparam.$KEY.url`, `context.NAME`, `access_token`, `app_settings.NAME`, `current_host.endpoint_urls.PRODUCT` and `encode(…)` of them; pass other values in `context`.".to_owned(),
                    ),
                    Reference::DomainUrl(key) => match model.declared(key) {
                        Some(declared) if declared.ty != Some(IparamType::Domain) => (
                            format!("`iparam.${key}.url` is substituted for `domain` iparams only, and `{key}` is not one"),
                            format!("Write `iparam.{key}` for its value."),
                        ),
                        _ => continue,
                    },
                    _ => continue,
                };
                report(
                    cx,
                    file,
                    &name,
                    span,
                    placeholder.pointer(),
                    problem,
                    instead,
                );
                reported = true;
            }
            if !reported && !placeholder.is_substituted() {
                report(
                    cx,
                    file,
                    &name,
                    placeholder.span,
                    placeholder.pointer(),
                    format!("`<%= {} %>` is not substituted: only a single name, or `encode(…)` of names, is", suggest::shortened(&placeholder.expression)),
                    "Build the value in the code and pass it in `context`, or use `encode(…)` for base64.".to_owned(),
                );
            }
        }
        for field in &template.fields {
            let Some(text) = field.as_str() else { continue };
            for (found, start, end, instead) in foreign_placeholders(text) {
                let span = span_in_literal(model.text(file), field.span, start, end);
                report(
                    cx,
                    file,
                    &name,
                    span,
                    field.pointer(),
                    format!(
                        "`{found}` is sent as written: the platform substitutes `<%= … %>` only"
                    ),
                    format!("Write `{instead}`."),
                );
            }
        }
    }
}

fn report(
    cx: &mut AppContext,
    file: crate::app::FileId,
    template: &str,
    span: Span,
    pointer: String,
    problem: String,
    instead: String,
) {
    cx.report(
        file,
        &RULE,
        span,
        format!("In template `{template}`, {problem}"),
    )
    .label("never substituted")
    .help(instead)
    .pointer(pointer);
}

/// Placeholders of other template languages outside `<%= … %>`: `{{x}}`, `${x}`, `{x}`; each
/// with its start and end in `text` and the placeholder to write instead.
fn foreign_placeholders(text: &str) -> Vec<(&str, usize, usize, String)> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    // `{{x}}`, `${x}` and `{x}` all hold a `{`: most values have none.
    if !bytes.contains(&b'{') {
        return found;
    }
    let mut at = 0;
    while at < bytes.len() {
        if text[at..].starts_with("<%=") {
            at = text[at..]
                .find("%>")
                .map_or(bytes.len(), |close| at + close + 2);
            continue;
        }
        let (open, close) = if text[at..].starts_with("{{") {
            ("{{", "}}")
        } else if text[at..].starts_with("${") {
            ("${", "}")
        } else if bytes[at] == b'{' {
            ("{", "}")
        } else {
            // To the next byte that may start a placeholder (ASCII, so on a boundary).
            at = bytes[at + 1..]
                .iter()
                .position(|b| matches!(b, b'{' | b'$' | b'<'))
                .map_or(bytes.len(), |i| at + 1 + i);
            continue;
        };
        let inner_start = at + open.len();
        let Some(length) = text[inner_start..].find(close) else {
            break;
        };
        let inner = text[inner_start..inner_start + length].trim();
        let end = inner_start + length + close.len();
        let is_name = !inner.is_empty()
            && inner
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$'));
        if is_name {
            let instead = if inner.starts_with("context.") || inner.starts_with("iparam.") {
                format!("<%= {inner} %>")
            } else if let Some(key) = inner.strip_prefix("iparams.") {
                format!("<%= iparam.{key} %>")
            } else {
                format!("<%= context.{inner} %>")
            };
            found.push((&text[at..end], at, end, instead));
        }
        at = end;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::foreign_placeholders;

    /// Found by the `lsp` fuzz target: a character of several bytes before a placeholder.
    #[test]
    fn wide_characters_before_placeholders() {
        let found = foreign_placeholders("é/\u{fffd}{id}");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "{id}");
    }

    #[test]
    fn placeholders_of_other_languages() {
        let found: Vec<_> = foreign_placeholders(
            "/a/{{context.id}}/b/{id}/${x}/<%= context.ok %>/{\"json\": 1}/{iparams.k}",
        )
        .into_iter()
        .map(|(text, _, _, instead)| (text, instead))
        .collect();
        assert_eq!(
            found,
            [
                ("{{context.id}}", "<%= context.id %>".to_owned()),
                ("{id}", "<%= context.id %>".to_owned()),
                ("${x}", "<%= context.x %>".to_owned()),
                ("{iparams.k}", "<%= iparam.k %>".to_owned()),
            ]
        );
    }
}
