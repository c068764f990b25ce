//! `credential-in-template`: a credential written out in config/requests.json.

use crate::app::{AppModel, Written};
use crate::diagnostic::Severity;
use crate::products::ApiAuth;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::templates::{request_app, serverless_request_app, template_product};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "credential-in-template",
    severity: Severity::Error,
    area: Area::Templates,
    summary: "A request template writes a credential out instead of reading a secure iparam",
    docs: r#"config/requests.json is committed and shipped in the app package: a key, token or
password written in it is readable by everyone who has the app, and it is the same for every
account that installs it. Found in real public apps:

- an `Authorization` (or `Proxy-Authorization`) header with literal text after its scheme:
  `Basic dXNlcjpwYXNz`, `Bearer abc…`, `Token token=abc…`, base64 padding (`=`, `==`) and all;
- a header or query parameter named for a secret (`X-Api-Key`, `Client-Secret`, `apikey`,
  `token`) with a literal value of 8 characters or more;
- `?apikey=…` written in `path`, and `user:password@` before the host name;
- `encode('user:password')` with a literal in a placeholder;
- anywhere else, text shaped like a known credential or a long random token.

A credential committed once must be revoked: removing it from the file leaves it in the history
and in every package already shipped. Then let installers enter it in a secure iparam and send
that: `"Authorization": "Bearer <%= iparam.api_key %>"`, or `"Basic <%= encode(iparam.api_key +
':X') %>"` for an API that takes the key as a user name. For a template that calls one of the
vendor's products, the help writes the scheme that product takes (`Token token=<%= iparam.api_key
%>` for Freshsales and the CRM; see `product-auth-scheme`). The credential is masked in every
output of this tool."#,
    bad: request_app!(
        r#"{"schema": {"method": "GET", "host": "api.example.com", "path": "/users", "headers": {"Authorization": "Bearer my-team-token-2024"}}}"#
    ),
    good: serverless_request_app!(
        r#"{"api_key": {"display_name": "API key", "type": "text", "secure": true, "required": true}}"#,
        r#"{"schema": {"method": "GET", "host": "api.example.com", "path": "/users", "headers": {"Authorization": "Bearer <%= iparam.api_key %>"}}}"#
    ),
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let Some(requests) = &model.requests else {
        return;
    };
    for credential in &requests.written_credentials {
        let template = suggest::shortened(&credential.template);
        let (what, mut instead) = secure_form(&credential.written);
        // The scheme the product it calls takes, rather than the one written.
        let product = requests
            .requests
            .templates
            .iter()
            .find(|template| template.name == credential.template)
            .and_then(template_product)
            .and_then(|(product, host)| Some((product, host.auth?.0)));
        if let (Written::Authorization(_), Some((product, auth))) = (&credential.written, product) {
            instead = format!(
                "`{}` ({} takes {})",
                auth.written(),
                product.title,
                taken(auth)
            );
        }
        cx.report(
            requests.file,
            &RULE,
            credential.span,
            format!(
                "Template `{template}` writes {what} out in {} (committed and shipped with the app)",
                credential.place
            ),
        )
        .label("credential (masked)")
        .help(format!(
            "Revoke it: everyone who has the app package can read it. Then let installers enter \
             it in a secure iparam and send that: {instead}."
        ))
        .pointer(credential.pointer.clone());
    }
}

/// What the credential is, as a message names it, and the secure form to write instead.
fn secure_form(written: &Written) -> (&'static str, String) {
    match written {
        Written::Authorization(Some(scheme)) if scheme.eq_ignore_ascii_case("basic") => (
            "a credential",
            "`\"Basic <%= encode(iparam.api_key + ':X') %>\"` (or `encode(iparam.username + ':' + \
             iparam.password)`)"
                .to_owned(),
        ),
        Written::Authorization(Some(scheme)) if scheme.eq_ignore_ascii_case("token") => (
            "a credential",
            format!("`\"{scheme} token=<%= iparam.api_key %>\"`"),
        ),
        Written::Authorization(Some(scheme)) => (
            "a credential",
            format!("`\"{scheme} <%= iparam.api_key %>\"`"),
        ),
        Written::Authorization(None) => ("a credential", "`\"<%= iparam.api_key %>\"`".to_owned()),
        Written::Header(name) => ("a key", format!("`\"{name}\": \"<%= iparam.api_key %>\"`")),
        Written::Query(name) | Written::PathQuery(name) => (
            "a key",
            format!("`\"query\": {{\"{name}\": \"<%= iparam.api_key %>\"}}`"),
        ),
        Written::UserInfo => (
            "a user name and password",
            "a host without `user:password@`, and `\"Authorization\": \"Basic <%= \
             encode(iparam.username + ':' + iparam.password) %>\"`"
                .to_owned(),
        ),
        Written::EncodedLiteral => (
            "a credential",
            "`<%= encode(iparam.username + ':' + iparam.password) %>`".to_owned(),
        ),
        Written::Shaped => (
            "what looks like a credential",
            "`\"<%= iparam.api_key %>\"` in its place".to_owned(),
        ),
    }
}

/// How a product takes its key, as the help says it.
fn taken(auth: ApiAuth) -> &'static str {
    match auth {
        ApiAuth::Basic => "the key as a `Basic` user name",
        ApiAuth::Bearer => "a `Bearer` token",
        ApiAuth::Token => "`Token token=` and the key",
        ApiAuth::KeyHeader => "the key alone in `X-Api-Auth`",
    }
}
