//! `missing-template-context`: an invocation does not give a `context` value its template
//! needs.

use crate::app::{AppModel, InvokeContext, Place, Template};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::helpers::invocations;
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "missing-template-context",
    severity: Severity::Error,
    area: Area::Templates,
    summary: "A template is invoked without a `context` value that one of its `<%= context.NAME %>` placeholders needs",
    docs: r#"Each `<%= context.NAME %>` of a template is filled from the `context` object of the
invocation: `invokeTemplate("getUser", {context: {id: 7}})`. A name missing from it fails the call
with "Error while substituting the templates", at run time. Only a `context` written as an object
literal is checked: one built elsewhere, or spread from another object, may hold anything."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getUser": {}}}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{"getUser": {"schema": {"method": "GET", "host": "api.example.com", "path": "/users/<%= context.id %>"}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("getUser", {context: {user_id: 7}});
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
    vendor: "Not checked; the call fails with \"Error while substituting the templates\".",
    fix: None,
    checks: &[Check::App(check)],
};

/// The context names a template needs, each once, in the order they are written, with where.
fn needed<'t, 's>(template: &'t Template<'s>) -> Vec<(&'t str, &'t Place<'s>)> {
    let mut names: Vec<(&str, &Place<'_>)> = Vec::new();
    for placeholder in &template.placeholders {
        for name in placeholder.context_names() {
            if !names.iter().any(|(n, _)| *n == name) {
                names.push((name, &placeholder.place));
            }
        }
    }
    names
}

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let Some(requests) = &model.requests else {
        return;
    };
    for (file, _, invocation) in invocations(model) {
        let Some(template) = invocation
            .template
            .as_ref()
            .and_then(|named| requests.requests.template(&named.name))
        else {
            continue;
        };
        let (keys, span) = match &invocation.context {
            InvokeContext::Computed(_) => continue,
            InvokeContext::Literal {
                complete: false, ..
            } => continue,
            InvokeContext::Literal { keys, span, .. } => (keys.as_slice(), *span),
            InvokeContext::Absent => (&[][..], invocation.span),
        };
        let given = || keys.iter().map(|key| key.name.as_str());
        let is_given = |name: &str| given().any(|given| given == name);
        // Most calls give every name: nothing is listed for them.
        if template
            .placeholders
            .iter()
            .all(|placeholder| placeholder.context_names().all(is_given))
        {
            continue;
        }
        let needed = needed(template);
        let missing: Vec<&(&str, &Place<'_>)> =
            needed.iter().filter(|(n, _)| !is_given(n)).collect();
        let Some((first, place)) = missing.first() else {
            continue;
        };
        let name = suggest::shortened(&template.name);
        let names: Vec<&str> = missing.iter().map(|(n, _)| *n).collect();
        let needs = if missing.len() == 1 {
            format!("`context.{first}` (in {})", place.described())
        } else {
            names
                .iter()
                .map(|n| format!("`context.{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let meant = match (missing.len(), suggest::closest(first, given())) {
            (1, Some(meant)) => format!(" (it gives `{meant}`: did you mean `{first}`?)"),
            _ => String::new(),
        };
        let entries = names
            .iter()
            .map(|n| format!("{n}: …"))
            .collect::<Vec<_>>()
            .join(", ");
        let how = if matches!(invocation.context, InvokeContext::Absent) {
            format!("Add `context: {{ {entries} }}` to the options of the call")
        } else {
            format!("Add `{entries}` to its `context`")
        };
        cx.report(
            file,
            &RULE,
            span,
            format!(
                "Template `{name}` needs {needs}, but this call does not give {}{meant}",
                if missing.len() == 1 { "it" } else { "them" }
            ),
        )
        .label(format!("no {}", suggest::list(names.iter().copied())))
        .help(format!(
            "{how}: without it the call fails with \"Error while substituting the templates\"."
        ));
    }
}
