//! `credential-iparam-not-secure`: a template sends an iparam as a credential, and the iparam
//! is not secure.

use crate::app::{
    AppModel, Declared, FileId, Place, Reference, carries_credential,
    path_parameter_carrying_credential,
};
use crate::diagnostic::Severity;
use crate::model::IparamType;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::templates::{request_templates, serverless_request_app};
use crate::secrets::key_sensitivity;
use crate::span::Span;
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "credential-iparam-not-secure",
    severity: Severity::Warning,
    area: Area::Templates,
    summary: "A template sends an iparam as a credential, but the iparam is not secure",
    docs: r#"An iparam a template sends in the `Authorization` header, in a header or query
parameter named for a secret (`X-Api-Key`, `apikey`, `token`), or as such a parameter of the
path's query string, is a credential. Unless it is `"secure": true`, the app's front end can read
it with `client.iparams.get`, and with it whoever can open the browser's tools on a page of the
app. Mark it secure: templates are the only way a secure iparam is used, which is what this one
already does.

The iparam's name need not say it is a key (`sensitive-key-not-secure` reads names): this rule
follows where its value goes. Templates that call the HR service are checked by `hr-authorization`
for their `Authorization` header."#,
    bad: serverless_request_app!(
        r#"{"service_login": {"display_name": "Service login", "type": "text", "required": true}}"#,
        r#"{"schema": {"method": "GET", "host": "api.example.com", "path": "/users", "headers": {"Authorization": "Bearer <%= iparam.service_login %>"}}}"#
    ),
    good: serverless_request_app!(
        r#"{"service_login": {"display_name": "Service login", "type": "text", "secure": true, "required": true}}"#,
        r#"{"schema": {"method": "GET", "host": "api.example.com", "path": "/users", "headers": {"Authorization": "Bearer <%= iparam.service_login %>"}}}"#
    ),
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

/// One place a template sends an iparam that is not secure as a credential.
struct Sent<'m> {
    file: FileId,
    span: Span,
    template: &'m str,
    carried_in: String,
    pointer: String,
    declared: &'m Declared,
}

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    // Each iparam is reported once, where it is first sent: an app sends its key in every
    // template, and one change (marking it secure) settles them all.
    let mut sent: Vec<(&str, Vec<Sent<'_>>)> = Vec::new();
    let hr_templates: Vec<usize> = model.hr_calls().iter().map(|call| call.template).collect();
    for (index, (file, template)) in request_templates(model).enumerate() {
        let source = model.text(file);
        for placeholder in &template.placeholders {
            let place = placeholder.place.described();
            let carries = match &placeholder.place {
                // `hr-authorization` holds the HR service's Authorization header to more.
                Place::Header(name)
                    if hr_templates.contains(&index)
                        && name.eq_ignore_ascii_case("authorization") =>
                {
                    None
                }
                Place::Path => template
                    .field(&Place::Path)
                    .and_then(|path| source.get(path.span.start..placeholder.span.start))
                    .and_then(|before| {
                        let before = before.trim_end();
                        path_parameter_carrying_credential(
                            before.strip_suffix("<%=").unwrap_or(before),
                        )
                    })
                    .map(|name| format!("query parameter `{name}` in {place}")),
                other => carries_credential(other).then_some(place),
            };
            let Some(carried_in) = carries else {
                continue;
            };
            let references: Vec<_> = placeholder.references().collect();
            // `encode(iparam.user + ':' + iparam.password)`: only the last of a pair is the
            // secret, the first is a user name.
            let Some(&(Reference::Iparam(key), span)) = references.last() else {
                continue;
            };
            let Some(declared) = model.declared(key) else {
                continue;
            };
            // A name that says it is a secret, or the `api_key` type, is reported in
            // iparams.json already (`sensitive-key-not-secure`, `api-key-not-secure`); a custom
            // page has no such rule.
            let reported_already = !model.source.is_page()
                && (declared.ty == Some(IparamType::ApiKey) || key_sensitivity(key).is_word());
            if declared.secure || reported_already {
                continue;
            }
            let place = Sent {
                file,
                span,
                template: &template.name,
                carried_in,
                pointer: placeholder.pointer(),
                declared,
            };
            match sent
                .iter_mut()
                .find(|(sent_key, _)| *sent_key == declared.key)
            {
                Some((_, places)) => places.push(place),
                None => sent.push((&declared.key, vec![place])),
            }
        }
    }
    for (key, places) in sent {
        let first = &places[0];
        let more = match places.len() - 1 {
            0 => String::new(),
            1 => ", and 1 more place".to_owned(),
            n => format!(", and {n} more places"),
        };
        cx.report(
            first.file,
            &RULE,
            first.span,
            format!(
                "Template `{}` sends iparam `{key}` as a credential ({}{more}), but `{key}` is not secure",
                suggest::shortened(first.template),
                first.carried_in
            ),
        )
        .label("not a secure iparam")
        .help(format!(
            "{} ({}): the app's front end can read an iparam that is not secure, and templates are the only way to use a secure one, as this template does.",
            if model.source.is_page() {
                format!("List \"{key}\" in the `__meta.secure` array of the object `postConfigs` returns")
            } else {
                format!("Mark `{key}` `\"secure\": true`")
            },
            model.defined_at(first.declared.key_span)
        ))
        .pointer(first.pointer.clone());
    }
}
