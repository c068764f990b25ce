//! Rules about request templates (config/requests.json) and the code that invokes them, and
//! what they share: the templates of an app, how a finding about a field reads, the example app
//! of a rule.

pub(super) mod access_token_without_oauth;
pub(super) mod context_host_in_frontend;
pub(super) mod credential_in_template;
pub(super) mod credential_iparam_not_secure;
pub(super) mod ignored_invoke_option;
pub(super) mod invalid_request_template;
pub(super) mod legacy_request_api;
pub(super) mod misplaced_placeholder;
pub(super) mod missing_template_context;
pub(super) mod query_string_in_path;
pub(super) mod request_host;
pub(super) mod request_method;
pub(super) mod request_option_value;
pub(super) mod request_path;
pub(super) mod request_protocol;
pub(super) mod undeclared_request_template;
pub(super) mod unknown_request_option;
pub(super) mod unknown_request_template;
pub(super) mod unsubstituted_placeholder;
pub(super) mod unused_request_template;

use std::borrow::Cow;

use crate::app::requests::Field;
use crate::app::{AppModel, FileId, Template};
use crate::diagnostic::Diagnostic;
use crate::rules::helpers::invocations;
use crate::rules::{AppContext, Rule};

/// The request templates of config/requests.json, with the file they are in.
pub(crate) fn request_templates<'m>(
    model: &'m AppModel<'_>,
) -> impl Iterator<Item = (FileId, &'m Template<'m>)> {
    model.requests.iter().flat_map(|requests| {
        requests
            .requests
            .templates
            .iter()
            .map(move |template| (requests.file, template))
    })
}

/// Whether some invocation names its template with a computed value, so that any template
/// may be the one it calls.
pub(crate) fn invokes_computed_templates(model: &AppModel<'_>) -> bool {
    invocations(model).any(|(_, _, invocation)| invocation.template.is_none())
}

/// Reports that `field` (`what`: `method`, `host`…) of the template called `name` is not a
/// string; the rule gives the finding its label and help.
pub(crate) fn report_not_a_string<'c>(
    cx: &'c mut AppContext,
    file: FileId,
    rule: &Rule,
    name: &str,
    field: &Field,
    what: &str,
) -> &'c mut Diagnostic {
    cx.report(
        file,
        rule,
        field.span,
        format!(
            "`{what}` of template `{name}` is {}, not a string",
            field.kind.described()
        ),
    )
    .pointer(field.pointer())
}

/// `text` with each `<%= … %>` placeholder replaced by `x`, for checks of what is written
/// around the placeholders (a host's shape, a path's query string).
pub(crate) fn without_placeholders(text: &str) -> Cow<'_, str> {
    crate::app::requests::placeholders_replaced(text, 'x')
}

/// A whole app for a rule's examples: a 2.3 app with one request template `getUser` (declared in
/// the manifest and invoked from the front end) whose value is `$template`.
macro_rules! request_app {
    ($template:literal) => {
        concat!(
            "=== manifest.json ===\n",
            r#"{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getUser": {}}}}}"#,
            "\n=== config/iparams.json ===\n{}\n=== config/requests.json ===\n{\"getUser\": ",
            $template,
            "}\n=== app/scripts/app.js ===\n",
            r#"client.request.invokeTemplate("getUser", {});"#,
            "\n"
        )
    };
}
pub(crate) use request_app;
