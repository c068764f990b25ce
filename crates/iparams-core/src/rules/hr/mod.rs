//! Rules about the request templates that reach the HR service (whose endpoints are in
//! `app::hr_service`), and what they share: which templates reach it, and what their path,
//! method and query are in the terms of the endpoint table.

pub(super) mod hr_accept;
pub(super) mod hr_always_empty;
pub(super) mod hr_authorization;
pub(super) mod hr_body;
pub(super) mod hr_content_type;
pub(super) mod hr_date_range;
pub(super) mod hr_domain_host;
pub(super) mod hr_endpoint_method;
pub(super) mod hr_filter_value;
pub(super) mod hr_include;
pub(super) mod hr_path;
pub(super) mod hr_unknown_endpoint;
pub(super) mod hr_unknown_filter;

use crate::app::hr_calls::{path_of, path_segments};
use crate::app::hr_service::{Operation, Segment};
use crate::app::requests::find_short;
use crate::app::{AppModel, Field, FileId, Place, Template};

use super::helpers::{METHODS, invocations};
use crate::span::Span;

/// A template whose host is the HR service's, as the rules see it.
pub(crate) struct HrTemplate<'m> {
    pub file: FileId,
    pub template: &'m Template<'m>,
    /// Its name, shortened for messages.
    pub name: &'m str,
    /// The documented operations of its path, every method; empty when the path is not
    /// documented or cannot be known.
    pub operations: &'static [Operation],
}

impl<'m> HrTemplate<'m> {
    /// `schema.method`, when it is one of the five methods.
    pub fn method(&self) -> Option<&'m str> {
        let method = self.template.field(&Place::Method)?.as_str()?;
        METHODS.contains(&method).then_some(method)
    }

    /// `schema.path` as a string (`/` when there is none, as the platform defaults it).
    pub fn path(&self) -> Option<&'m str> {
        path_of(self.template)
    }

    /// The path's segments after its leading `/`, when each is written out or is one
    /// placeholder: `None` for a path the table cannot say anything about.
    pub fn segments(&self) -> Option<Vec<Segment<'m>>> {
        path_segments(self.template)
    }

    /// The documented operation it calls: its path with its method.
    pub fn operation(&self) -> Option<&'static Operation> {
        let method = self.method()?;
        self.operations
            .iter()
            .find(|operation| operation.method == method)
    }

    /// Where a finding about a missing header goes: `schema.headers` (its key, and its
    /// pointer) when there is one, else the template's name and `schema`.
    pub fn headers_at(&self) -> (crate::span::Span, String) {
        match self.template.schema_field("headers") {
            Some(headers) => (headers.key_span, headers.pointer()),
            None => (
                self.template.name_span,
                format!("{}/schema", self.template.pointer()),
            ),
        }
    }

    /// The header called `name` (in any case), the last one written.
    pub fn header(&self, name: &str) -> Option<&'m Field<'m>> {
        self.template
            .headers()
            .filter(|(header, _)| header.eq_ignore_ascii_case(name))
            .map(|(_, field)| field)
            .last()
    }
}

/// The templates that reach the HR service (found once per app: [`AppModel::hr_calls`]).
pub(crate) fn hr_templates<'m>(model: &'m AppModel<'_>) -> impl Iterator<Item = HrTemplate<'m>> {
    let requests = model.requests.as_ref();
    model.hr_calls().iter().filter_map(move |call| {
        let requests = requests?;
        Some(HrTemplate {
            file: requests.file,
            template: requests.requests.templates.get(call.template)?,
            name: &call.name,
            operations: call.operations,
        })
    })
}

/// One query parameter a call of an HR template sends: written in the template's `query`, or
/// in the `query` object an invocation of it passes (the platform adds those at run time).
pub(crate) struct QueryParam<'m> {
    pub file: FileId,
    pub name: &'m str,
    pub key_span: Span,
    /// Its literal text, when it has no placeholder (a template) or is a string literal (an
    /// invocation).
    pub value: Option<&'m str>,
    pub value_span: Span,
    /// The template's field, when the template writes it (an invocation's is in a script).
    pub field: Option<&'m Field<'m>>,
    /// The template's name, shortened for messages.
    pub template: &'m str,
}

impl QueryParam<'_> {
    /// Its JSON pointer in requests.json; empty in a script.
    pub fn pointer(&self) -> String {
        self.field.map(Field::pointer).unwrap_or_default()
    }

    /// "of template `T`", or "passed to template `T`" at an invocation.
    pub fn whose(&self) -> String {
        match self.field {
            Some(_) => format!("of template `{}`", self.template),
            None => format!("passed to template `{}`", self.template),
        }
    }
}

/// The query parameters of `hr`: its template's, then those of each invocation naming it.
pub(crate) fn query_params<'m>(
    model: &'m AppModel<'_>,
    hr: &HrTemplate<'m>,
) -> impl Iterator<Item = QueryParam<'m>> {
    let (file, template_name, shown) = (hr.file, &hr.template.name, hr.name);
    let written = hr.template.query().map(move |(name, field)| QueryParam {
        file,
        name,
        key_span: field.key_span,
        value: literal(field),
        value_span: field.span,
        field: Some(field),
        template: shown,
    });
    let passed = invocations(model)
        .filter(move |(_, _, invocation)| {
            invocation
                .template
                .as_ref()
                .is_some_and(|named| named.name == *template_name)
        })
        .flat_map(|(file, _, invocation)| {
            invocation
                .query
                .iter()
                .flat_map(|query| &query.fields)
                .map(move |member| (file, member))
        })
        .map(move |(file, member)| QueryParam {
            file,
            name: &member.name,
            key_span: member.name_span,
            value: member.text.as_deref(),
            value_span: member.value_span,
            field: None,
            template: shown,
        });
    written.chain(passed)
}

/// The filters an operation takes, as a message lists them.
pub(crate) fn filter_names(operation: &Operation) -> String {
    if operation.query.is_empty() {
        "no query parameter".to_owned()
    } else {
        crate::suggest::list(operation.query.iter().map(|filter| filter.name))
    }
}

/// "`GET /api/employees` (list employees): 200, an array of employee objects; HR Partner,
/// Admin or Account Admin may call it": the document's facts of an operation for a help.
pub(crate) fn described(operation: &Operation) -> String {
    let who = match operation.roles {
        Some(roles) => format!("{roles} may call it"),
        None => "the roles that may call it are not shown".to_owned(),
    };
    format!(
        "`{} {}` ({}) answers {}; {who}",
        operation.method, operation.path, operation.does, operation.answer
    )
}

/// The literal text of a query value (a string or a number), when it has no placeholder.
pub(crate) fn literal<'f>(field: &'f Field<'_>) -> Option<&'f str> {
    let text = field.text.as_deref()?;
    find_short(text, 0, "<%=").is_none().then_some(text)
}

/// A whole app for a rule's examples: a 2.3 app with the HR service's `domain` and `api_key`
/// iparams, and one request template `$name` (declared in the manifest) whose value is
/// `$template`.
macro_rules! hr_app {
    ($name:literal, $template:literal) => {
        concat!(
            "=== manifest.json ===\n",
            r#"{"platform-version": "2.3", "product": {"freshdesk": {"requests": {""#,
            $name,
            r#"": {}}}}}"#,
            "\n=== config/iparams.json ===\n",
            r#"{"hr_domain": {"display_name": "HR domain", "type": "domain", "type_attributes": {"product": "freshteam"}, "required": true},
 "hr_api_key": {"display_name": "HR API key", "type": "api_key", "type_attributes": {"product": "freshteam"}, "secure": true, "required": true}}"#,
            "\n=== config/requests.json ===\n{\"",
            $name,
            "\": ",
            $template,
            "}\n",
            // Invoked, with the context it needs given at run time, so that only the rule shows.
            "=== server/server.js ===\n",
            r#"exports = { onTicketCreateHandler: async function (args) { await $request.invokeTemplate(""#,
            $name,
            r#"", { context: args.data }); } };"#,
            "\n"
        )
    };
}
pub(crate) use hr_app;
