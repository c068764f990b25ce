//! `request-host`: a request template's `host` is missing or not a bare domain name.

use crate::app::{AppModel, Place};
use crate::diagnostic::Severity;
use crate::formats::is_ip_host;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::templates::{
    report_not_a_string, request_app, request_templates, without_placeholders,
};
use crate::suggest;
use crate::syntax::JsonKind;

pub static RULE: Rule = Rule {
    name: "request-host",
    severity: Severity::Error,
    area: Area::Templates,
    summary: "A request template's `host` is missing, or is not a bare domain name (protocol, path, port, IP address)",
    docs: r#"`schema.host` is a fully qualified domain name and nothing else: no protocol (that is
`protocol`), no path or trailing slash (that is `path`), no port, and not an IP address. The help
says what to write. Placeholders
(`<%= iparam.domain %>.example.com`) are allowed."#,
    bad: request_app!(r#"{"schema": {"method": "GET", "host": "https://api.example.com/"}}"#),
    good: request_app!(r#"{"schema": {"method": "GET", "host": "api.example.com"}}"#),
    examples: Examples::App,
    vendor: "Rejected by the schema check of `fdk validate` (host must be a domain name).",
    // `--fix` rewrites iparams.json only so far: no fix is offered that it would not apply.
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (file, template) in request_templates(model) {
        if !matches!(template.schema, Some((_, JsonKind::Object))) {
            continue;
        }
        let name = suggest::shortened(&template.name);
        let Some(field) = template.field(&Place::Host) else {
            cx.report(file, &RULE, template.name_span, format!("Template `{name}` has no `host`"))
                .label("no host")
                .help("Add `\"host\"` to its schema: the domain name of the service, such as \"api.example.com\".")
                .pointer(format!("{}/schema", template.pointer()));
            continue;
        };
        let Some(host) = field.as_str() else {
            report_not_a_string(cx, file, &RULE, &name, field, "host")
                .label("not a domain name")
                .help("Write the domain name of the service in double quotes, such as \"api.example.com\".");
            continue;
        };
        let quoted = suggest::shortened(host);
        let protocol = ["https://", "http://"].into_iter().find(|protocol| {
            host.get(..protocol.len())
                .is_some_and(|start| start.eq_ignore_ascii_case(protocol))
        });
        let after_protocol = &host[protocol.map_or(0, str::len)..];
        let bare = after_protocol.strip_suffix('/').unwrap_or(after_protocol);
        let shape = without_placeholders(bare);
        let (problem, what_to_do) = if host.trim().is_empty() {
            (
                "is empty",
                "Write the domain name of the service, such as \"api.example.com\".".to_owned(),
            )
        } else if shape.contains('/') {
            ("holds a path", "Keep only the domain name in `host` and move the rest, from its first `/`, to `path`.".to_owned())
        } else if shape.contains('?') {
            (
                "holds a query string",
                "Keep only the domain name in `host` and move the parameters to `query`."
                    .to_owned(),
            )
        } else if shape.contains('@') {
            (
                "holds a user name and password (`user:password@`)",
                "Remove them, revoke the password, and send the credentials in an `Authorization` header built from secure iparams.".to_owned(),
            )
        } else if shape.contains(':') {
            (
                "holds a port",
                "The platform calls the default port of the protocol; remove the port.".to_owned(),
            )
        } else if is_ip_host(&shape) {
            (
                "is an IP address",
                "Templates reach services by domain name only; use the service's domain name."
                    .to_owned(),
            )
        } else if shape.chars().any(char::is_whitespace) {
            (
                "holds a space",
                "Remove the spaces: a domain name has none.".to_owned(),
            )
        } else if protocol.is_some() || bare.len() != after_protocol.len() {
            ("is a URL, not a domain name", "Remove the protocol (it is `protocol`, `https` by default) and the trailing slash.".to_owned())
        } else {
            continue;
        };
        cx.report(
            file,
            &RULE,
            field.span,
            format!("`host` \"{quoted}\" of template `{name}` {problem}"),
        )
        .label("not a bare domain name")
        .help(format!(
            "{what_to_do} `host` is a domain name only, such as \"api.example.com\"."
        ))
        .pointer(field.pointer());
    }
}
