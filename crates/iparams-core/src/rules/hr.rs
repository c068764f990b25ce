//! What the rules about templates that reach the HR service share: which templates reach it,
//! and what their path, method and query are in the terms of the endpoint table.

use crate::app::hr_service::{self, Operation, Segment};
use crate::app::requests::{placeholders, single_iparam};
use crate::app::{AppModel, Declared, Field, FileId, Place, Template};
use crate::model::{CURRENT_PRODUCT, IparamType};

use super::app::request_method::METHODS;
use super::helpers::request_templates;

/// A template whose host is the HR service's.
pub(crate) struct HrTemplate<'m> {
    pub file: FileId,
    pub template: &'m Template,
    /// Its name, shortened for messages.
    pub name: String,
    /// The documented operations of its path (see [`HrTemplate::operations`]), found once:
    /// every rule asks.
    operations: Vec<&'static Operation>,
}

impl<'m> HrTemplate<'m> {
    /// `schema.method`, when it is one of the five methods.
    pub fn method(&self) -> Option<&'m str> {
        let method = self.template.field(&Place::Method)?.as_str()?;
        METHODS.contains(&method).then_some(method)
    }

    /// `schema.path` as a string (`/` when there is none, as the platform defaults it).
    pub fn path(&self) -> Option<&'m str> {
        match self.template.field(&Place::Path) {
            None => Some("/"),
            Some(field) => field.as_str(),
        }
    }

    /// The path's segments after its leading `/`, when each is written out or is one
    /// placeholder: `None` for a path the table cannot say anything about.
    pub fn segments(&self) -> Option<Vec<Segment<'m>>> {
        let path = self.path()?.strip_prefix('/')?;
        path.split('/')
            .map(|segment| match placeholders(segment).len() {
                0 => Some(Segment::Literal(segment)),
                1 if segment.starts_with("<%=") && segment.ends_with("%>") => {
                    Some(Segment::Placeholder)
                }
                _ => None,
            })
            .collect()
    }

    /// The documented operations of its path, every method; empty when the path is not
    /// documented or cannot be known.
    pub fn operations(&self) -> Vec<&'static Operation> {
        self.operations.clone()
    }

    /// The documented operation it calls: its path with its method.
    pub fn operation(&self) -> Option<&'static Operation> {
        let method = self.method()?;
        self.operations
            .iter()
            .copied()
            .find(|operation| operation.method == method)
    }

    /// Where a finding about a missing header goes: `schema.headers` (its key, and its
    /// pointer) when there is one, else the template's name and `schema`.
    pub fn headers_at(&self) -> (crate::span::Span, String) {
        match self.template.schema_field("headers") {
            Some(headers) => (headers.key_span, headers.pointer.clone()),
            None => (
                self.template.name_span,
                format!("{}/schema", self.template.pointer),
            ),
        }
    }

    /// The header called `name` (in any case), the last one written.
    pub fn header(&self, name: &str) -> Option<&'m Field> {
        self.template
            .headers()
            .filter(|(header, _)| header.eq_ignore_ascii_case(name))
            .map(|(_, field)| field)
            .last()
    }
}

/// The templates that reach the HR service: a host `<sub-domain>.freshteam.com` (the
/// sub-domain written or a placeholder), or a host that is only a `domain` iparam of the
/// service's product (a mistake `hr-domain-host` reports, whose intent is clear).
pub(crate) fn hr_templates<'m>(model: &'m AppModel<'_>) -> impl Iterator<Item = HrTemplate<'m>> {
    request_templates(model).filter_map(move |(file, template)| {
        let host = template.field(&Place::Host)?.as_str()?;
        if !reaches(model, host) {
            return None;
        }
        let mut hr = HrTemplate {
            file,
            template,
            name: crate::suggest::shortened(&template.name).into_owned(),
            operations: Vec::new(),
        };
        hr.operations = hr
            .segments()
            .map(|segments| hr_service::operations_at(&segments))
            .unwrap_or_default();
        Some(hr)
    })
}

/// Whether a template with this host calls the HR service.
pub(crate) fn reaches(model: &AppModel<'_>, host: &str) -> bool {
    let lower = host.trim().to_ascii_lowercase();
    if let Some(sub_domain) = lower.strip_suffix(hr_service::HOST_SUFFIX) {
        return !sub_domain.is_empty() && !sub_domain.contains('/');
    }
    only_iparam(host)
        .and_then(|key| model.declared(key))
        .is_some_and(|declared| is_service_domain(model, declared))
}

/// The iparam a host is nothing but (`<%= iparam.D %>` or `<%= iparam.$D.url %>`).
pub(crate) fn only_iparam(host: &str) -> Option<&str> {
    let host = host.trim();
    let found = placeholders(host);
    let [(expression, _, _)] = found.as_slice() else {
        return None;
    };
    (host.starts_with("<%=") && host.ends_with("%>"))
        .then(|| single_iparam(expression))
        .flatten()
}

/// Whether `declared` is a `domain` iparam of the HR service's product (or of `current` on an
/// app of that product).
pub(crate) fn is_service_domain(model: &AppModel<'_>, declared: &Declared) -> bool {
    declared.ty == Some(IparamType::Domain)
        && declared.product.as_deref().is_some_and(|product| {
            product == hr_service::PRODUCT
                || (product == CURRENT_PRODUCT
                    && model.facts.manifest.as_ref().is_some_and(|manifest| {
                        manifest
                            .products
                            .iter()
                            .any(|named| named.name == hr_service::PRODUCT)
                    }))
        })
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
pub(crate) fn literal(field: &Field) -> Option<&str> {
    let text = field.text.as_deref()?;
    (!text.contains("<%=")).then_some(text)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_that_is_one_iparam() {
        assert_eq!(only_iparam("<%= iparam.hr_domain %>"), Some("hr_domain"));
        assert_eq!(
            only_iparam(" <%=iparam.$hr_domain.url%> "),
            Some("hr_domain")
        );
        assert_eq!(only_iparam("<%= iparam.hr_domain %>.freshteam.com"), None);
        assert_eq!(only_iparam("<%= context.domain %>"), None);
    }
}
