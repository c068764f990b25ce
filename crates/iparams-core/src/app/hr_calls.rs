//! The templates of config/requests.json that call the HR service, found once per app: each of
//! the rules about the service asks, and finding them (the host, the path's segments, the
//! endpoint table) cost more than the rules' own work when each rule did it again.

use super::hr_call::HrCall;
use super::hr_service::{self, Segment};
use super::model::AppModel;
use super::outline::Declared;
use super::requests::{Place, Template};
use super::requests::{has_placeholder_mark, placeholders, single_iparam};
use crate::model::IparamType;
use crate::products::CURRENT_PRODUCT;

impl AppModel<'_> {
    /// The templates that call the HR service, in file order.
    pub fn hr_calls(&self) -> &[HrCall] {
        self.hr_calls.0.get_or_init(|| find(self))
    }
}

fn find(model: &AppModel<'_>) -> Vec<HrCall> {
    let Some(requests) = &model.requests else {
        return Vec::new();
    };
    requests
        .requests
        .templates
        .iter()
        .enumerate()
        .filter(|(_, template)| {
            template
                .field(&Place::Host)
                .and_then(|host| host.as_str())
                .is_some_and(|host| reaches(model, host))
        })
        .map(|(index, template)| HrCall {
            template: index,
            name: crate::suggest::shortened(&template.name).into_owned(),
            operations: path_segments(template)
                .map(|segments| hr_service::operations_at(&segments))
                .unwrap_or_default(),
        })
        .collect()
}

/// Whether a template with this host calls the HR service.
pub fn reaches(model: &AppModel<'_>, host: &str) -> bool {
    let host_bytes = host.trim().as_bytes();
    let suffix = hr_service::HOST_SUFFIX.as_bytes();
    if let Some(split) = host_bytes.len().checked_sub(suffix.len())
        && host_bytes[split..].eq_ignore_ascii_case(suffix)
    {
        let sub_domain = &host_bytes[..split];
        return !sub_domain.is_empty() && !sub_domain.contains(&b'/');
    }
    only_iparam(host)
        .and_then(|key| model.declared(key))
        .is_some_and(|declared| is_service_domain(model, declared))
}

/// The iparam a host is nothing but (`<%= iparam.D %>` or `<%= iparam.$D.url %>`).
pub fn only_iparam(host: &str) -> Option<&str> {
    let host = host.trim();
    let mut found = placeholders(host);
    let (Some((expression, _, _)), None) = (found.next(), found.next()) else {
        return None;
    };
    (host.starts_with("<%=") && host.ends_with("%>"))
        .then(|| single_iparam(expression))
        .flatten()
}

/// Whether `declared` is a `domain` iparam of the HR service's product (or of `current` on an
/// app of that product).
pub fn is_service_domain(model: &AppModel<'_>, declared: &Declared) -> bool {
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

/// `schema.path` as a string (`/` when there is none, as the platform defaults it).
pub fn path_of<'t>(template: &'t Template<'_>) -> Option<&'t str> {
    match template.field(&Place::Path) {
        None => Some("/"),
        Some(field) => field.as_str(),
    }
}

/// The path's segments after its leading `/`, when each is written out or is one placeholder:
/// `None` for a path the table cannot say anything about.
pub fn path_segments<'t>(template: &'t Template<'_>) -> Option<Vec<Segment<'t>>> {
    let path = path_of(template)?.strip_prefix('/')?;
    path.split('/')
        .map(|segment| {
            // Most segments are written out: no need to look for placeholders in those.
            if !has_placeholder_mark(segment) {
                return Some(Segment::Literal(segment));
            }
            match placeholders(segment).count() {
                0 => Some(Segment::Literal(segment)),
                1 if segment.starts_with("<%=") && segment.ends_with("%>") => {
                    Some(Segment::Placeholder)
                }
                _ => None,
            }
        })
        .collect()
}

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
