//! `request-method`: a request template's `method` is missing or not one of the five.

use crate::app::{AppModel, Place};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::helpers::METHODS;
use crate::rules::templates::{report_not_a_string, request_app, request_templates};
use crate::suggest;
use crate::syntax::JsonKind;

pub static RULE: Rule = Rule {
    name: "request-method",
    severity: Severity::Error,
    area: Area::Templates,
    summary: "A request template's `method` is missing or not `GET`, `POST`, `PUT`, `DELETE` or `PATCH`",
    docs: r#"Every template names its HTTP method in `schema.method`, in capitals: `GET`, `POST`,
`PUT`, `DELETE` or `PATCH`. It takes no placeholder. A method in lowercase is reported with the capitals to write."#,
    bad: request_app!(r#"{"schema": {"method": "get", "host": "api.example.com"}}"#),
    good: request_app!(r#"{"schema": {"method": "GET", "host": "api.example.com"}}"#),
    examples: Examples::App,
    vendor: "Rejected by the schema check of `fdk validate`.",
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
        let Some(field) = template.field(&Place::Method) else {
            cx.report(
                file,
                &RULE,
                template.name_span,
                format!("Template `{name}` has no `method`"),
            )
            .label("no method")
            .help(format!(
                "Add `\"method\"` to its schema: one of {}.",
                suggest::quoted_list(METHODS)
            ))
            .pointer(format!("{}/schema", template.pointer()));
            continue;
        };
        let Some(method) = field.as_str() else {
            report_not_a_string(cx, file, &RULE, &name, field, "method")
                .label("not a method")
                .help(format!("Write one of {}.", suggest::quoted_list(METHODS)));
            continue;
        };
        if METHODS.contains(&method) {
            continue;
        }
        let quoted = suggest::shortened(method);
        let upper = method.trim().to_ascii_uppercase();
        if METHODS.contains(&upper.as_str()) {
            cx.report(
                file,
                &RULE,
                field.span,
                format!("Method \"{quoted}\" of template `{name}` must be written \"{upper}\""),
            )
            .label("not in capitals")
            .help(format!(
                "The platform takes {} in capitals only.",
                suggest::quoted_list(METHODS)
            ))
            .pointer(field.pointer());
            continue;
        }
        let help = match suggest::closest(&upper, METHODS) {
            Some(meant) => format!(
                "Did you mean \"{meant}\"? The methods are {}.",
                suggest::quoted_list(METHODS)
            ),
            None => format!("The methods are {}.", suggest::quoted_list(METHODS)),
        };
        cx.report(
            file,
            &RULE,
            field.span,
            format!(
                "Method \"{quoted}\" of template `{name}` is not an HTTP method the platform sends"
            ),
        )
        .label("unknown method")
        .help(help)
        .pointer(field.pointer());
    }
}
