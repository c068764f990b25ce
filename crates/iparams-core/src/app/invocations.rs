//! Calls that reach outside services from an app's JavaScript: request templates invoked by
//! name (`client.request.invokeTemplate("name", {...})`, `$request.invokeTemplate(...)`), and
//! the request API of platforms before 2.3 (`client.request.get(url, …)`, `$request.post(…)`).
//!
//! Only what is written literally is taken: a template named by a variable, or a `context`
//! built elsewhere, is marked as such so that rules do not guess.

use oxc_ast::ast::{
    Argument, CallExpression, Expression, ObjectExpression, ObjectPropertyKind, PropertyKey,
};
use oxc_span::GetSpan;

use super::literals::{Literal, literal_kind, literal_string};
use crate::span::Span;

/// The methods of the request API before templates.
pub const LEGACY_METHODS: [&str; 5] = ["get", "post", "put", "delete", "patch"];

/// The keys of an invocation's options the platform reads; others are ignored.
pub const INVOKE_KEYS: [&str; 7] = [
    "context", "body", "query", "cache", "ttl", "options", "account",
];

/// The keys that only the front end's invocation reads.
pub const FRONTEND_ONLY_KEYS: [&str; 2] = ["cache", "ttl"];

/// A name written in the code, with its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    pub name: String,
    pub span: Span,
}

/// The `context` of an invocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InvokeContext {
    /// No `context` key (or no options at all).
    Absent,
    /// An object literal: its static keys. `complete` is false when it also spreads or
    /// computes keys, so a key missing from `keys` may still be there.
    Literal {
        keys: Vec<Named>,
        complete: bool,
        span: Span,
    },
    /// A variable, a call…: its keys are not known.
    Computed(Span),
}

/// One member of an object literal written at an invocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiteralMember {
    pub name: String,
    pub name_span: Span,
    pub value: Literal,
    /// The text of a string literal.
    pub text: Option<String>,
    pub value_span: Span,
}

/// An object literal written at an invocation: a body (`JSON.stringify({...})`) or a run-time
/// `query`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiteralObject {
    pub fields: Vec<LiteralMember>,
    /// False when the object also spreads or computes members.
    pub complete: bool,
    pub span: Span,
}

/// One `….request.invokeTemplate(name, options)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invocation {
    /// The template's name when it is a string literal; `None` when it is computed.
    pub template: Option<Named>,
    /// The whole call.
    pub span: Span,
    /// The keys of the options object, when it is an object literal.
    pub keys: Vec<Named>,
    pub context: InvokeContext,
    pub body: Option<LiteralObject>,
    /// A run-time `query` written as an object literal: parameters the platform adds to the
    /// template's own.
    pub query: Option<LiteralObject>,
}

/// One call of the request API platforms before 2.3 had: `client.request.get(url, …)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegacyRequest {
    /// `get`, `post`…, with the span of the method's name.
    pub method: Named,
    /// The URL when it is written as a string literal.
    pub url: Option<Named>,
    pub span: Span,
}

/// What a call of the request API is, if it is one.
pub(crate) enum RequestCall {
    Invoke(Invocation),
    Legacy(LegacyRequest),
}

/// Whether `object` is the request API: `$request`, or `<…client>.request` (`client.request`,
/// `_client.request`, `this.client.request`). Other `request` objects (a library's) are not.
fn is_request_api(object: &Expression<'_>) -> bool {
    match object.get_inner_expression() {
        Expression::Identifier(id) => id.name == "$request",
        Expression::StaticMemberExpression(member) if member.property.name == "request" => {
            let owner = match member.object.get_inner_expression() {
                Expression::Identifier(id) => id.name.as_str(),
                Expression::StaticMemberExpression(inner) => inner.property.name.as_str(),
                _ => return false,
            };
            let owner = owner.as_bytes();
            owner.len() >= 6 && owner[owner.len() - 6..].eq_ignore_ascii_case(b"client")
        }
        _ => false,
    }
}

/// The request-API call `call` is, if it is one; spans are shifted by `shift`.
pub(crate) fn request_call(
    call: &CallExpression<'_>,
    shift: &dyn Fn(oxc_span::Span) -> Span,
) -> Option<RequestCall> {
    let member = call.callee.get_inner_expression().as_member_expression()?;
    let method = member.static_property_name()?;
    if !is_request_api(member.object()) {
        return None;
    }
    let first = call.arguments.first().and_then(Argument::as_expression);
    let named = |(text, span): (&str, oxc_span::Span)| Named {
        name: text.to_owned(),
        span: shift(span),
    };
    if method == "invokeTemplate" {
        let options = call
            .arguments
            .get(1)
            .and_then(Argument::as_expression)
            .map(Expression::get_inner_expression);
        let mut invocation = Invocation {
            template: first.and_then(literal_string).map(named),
            span: shift(call.span),
            keys: Vec::new(),
            context: InvokeContext::Absent,
            body: None,
            query: None,
        };
        if let Some(Expression::ObjectExpression(object)) = options {
            read_options(object, &mut invocation, shift);
        } else if let Some(options) = options {
            // Options built elsewhere: what they hold is not known.
            invocation.context = InvokeContext::Computed(shift(options.span()));
        }
        return Some(RequestCall::Invoke(invocation));
    }
    if !LEGACY_METHODS.contains(&method) {
        return None;
    }
    let name_span = match member {
        oxc_ast::ast::MemberExpression::StaticMemberExpression(m) => m.property.span,
        other => other.span(),
    };
    Some(RequestCall::Legacy(LegacyRequest {
        method: named((method, name_span)),
        url: first.and_then(literal_string).map(named),
        span: shift(call.span),
    }))
}

fn read_options(
    object: &ObjectExpression<'_>,
    invocation: &mut Invocation,
    shift: &dyn Fn(oxc_span::Span) -> Span,
) {
    invocation.keys.reserve_exact(object.properties.len());
    for property in &object.properties {
        let ObjectPropertyKind::ObjectProperty(property) = property else {
            continue;
        };
        let Some(name) = property.key.static_name() else {
            continue;
        };
        let value = property.value.get_inner_expression();
        match name.as_ref() {
            "context" => {
                invocation.context = match value {
                    Expression::ObjectExpression(context) => {
                        let (keys, complete) = object_keys(context, shift);
                        InvokeContext::Literal {
                            keys,
                            complete,
                            span: shift(context.span),
                        }
                    }
                    other => InvokeContext::Computed(shift(other.span())),
                };
            }
            "body" => invocation.body = stringified_object(value, shift),
            "query" => {
                if let Expression::ObjectExpression(object) = value {
                    invocation.query = Some(literal_object(object, shift));
                }
            }
            _ => {}
        }
        invocation.keys.push(Named {
            name: name.into_owned(),
            span: shift(property.key.span()),
        });
    }
}

/// `JSON.stringify({...})` of an object literal: its members.
fn stringified_object(
    value: &Expression<'_>,
    shift: &dyn Fn(oxc_span::Span) -> Span,
) -> Option<LiteralObject> {
    let Expression::CallExpression(call) = value else {
        return None;
    };
    let callee = call.callee.get_inner_expression().as_member_expression()?;
    let is_stringify = callee.static_property_name() == Some("stringify")
        && matches!(callee.object().get_inner_expression(), Expression::Identifier(id) if id.name == "JSON");
    let Some(Expression::ObjectExpression(object)) = call
        .arguments
        .first()
        .and_then(Argument::as_expression)
        .map(Expression::get_inner_expression)
    else {
        return None;
    };
    if !is_stringify {
        return None;
    }
    Some(literal_object(object, shift))
}

/// The members of an object literal written at an invocation.
fn literal_object(
    object: &ObjectExpression<'_>,
    shift: &dyn Fn(oxc_span::Span) -> Span,
) -> LiteralObject {
    let mut literal = LiteralObject {
        fields: Vec::with_capacity(object.properties.len()),
        complete: true,
        span: shift(object.span),
    };
    for property in &object.properties {
        let ObjectPropertyKind::ObjectProperty(property) = property else {
            literal.complete = false;
            continue;
        };
        let Some(name) = static_key(&property.key) else {
            literal.complete = false;
            continue;
        };
        literal.fields.push(LiteralMember {
            name,
            name_span: shift(property.key.span()),
            value: literal_kind(&property.value),
            text: literal_string(&property.value).map(|(text, _)| text.to_owned()),
            value_span: shift(property.value.span()),
        });
    }
    literal
}

/// The static keys of an object literal, and whether they are all of its keys.
fn object_keys(
    object: &ObjectExpression<'_>,
    shift: &dyn Fn(oxc_span::Span) -> Span,
) -> (Vec<Named>, bool) {
    let mut complete = true;
    let mut keys = Vec::with_capacity(object.properties.len());
    for property in &object.properties {
        match property {
            ObjectPropertyKind::ObjectProperty(property) => match static_key(&property.key) {
                Some(name) => keys.push(Named {
                    name,
                    span: shift(property.key.span()),
                }),
                None => complete = false,
            },
            ObjectPropertyKind::SpreadProperty(_) => complete = false,
        }
    }
    (keys, complete)
}

/// A property's name when it is written: `a`, `"a"`, `['a']`.
fn static_key(key: &PropertyKey<'_>) -> Option<String> {
    key.static_name().map(|name| name.into_owned())
}

#[cfg(test)]
mod tests {
    use crate::app::js::{Script, analyze};

    use super::*;

    #[test]
    fn invocations_with_context_and_body() {
        let code = r#"
            client.request.invokeTemplate("getEmployee", { context: { id: 7, ...more }, cache: true });
            $request.invokeTemplate('createTimeOff', { body: JSON.stringify({ start_date: "2026-01-02", leave_type_id: 3 }) });
            client.request.invokeTemplate(name, options);
        "#;
        let facts = analyze(code, "app/scripts/app.js", 0, Script::Frontend);
        let [first, second, third] = facts.invocations.as_slice() else {
            panic!("three invocations: {:?}", facts.invocations);
        };
        assert_eq!(
            first.template.as_ref().map(|t| t.name.as_str()),
            Some("getEmployee")
        );
        let InvokeContext::Literal { keys, complete, .. } = &first.context else {
            panic!("a literal context");
        };
        assert_eq!((keys[0].name.as_str(), *complete), ("id", false));
        assert_eq!(
            first
                .keys
                .iter()
                .map(|k| k.name.as_str())
                .collect::<Vec<_>>(),
            ["context", "cache"]
        );
        let body = second.body.as_ref().expect("a literal body");
        let fields: Vec<_> = body
            .fields
            .iter()
            .map(|f| (f.name.as_str(), f.value, f.text.as_deref()))
            .collect();
        assert_eq!(
            fields,
            [
                ("start_date", Literal::String, Some("2026-01-02")),
                ("leave_type_id", Literal::Number, None)
            ]
        );
        assert!(third.template.is_none());
        assert!(matches!(third.context, InvokeContext::Computed(_)));
    }

    #[test]
    fn a_run_time_query_written_as_an_object_literal() {
        let code = r#"
            client.request.invokeTemplate("listEmployees", { query: { status: "active", page, ["sort"]: `first_name` } });
            client.request.invokeTemplate("listEmployees", { query: filters });
        "#;
        let facts = analyze(code, "app/scripts/app.js", 0, Script::Frontend);
        let [literal, computed] = facts.invocations.as_slice() else {
            panic!("two invocations: {:?}", facts.invocations);
        };
        let query = literal.query.as_ref().expect("a literal query");
        let members: Vec<_> = query
            .fields
            .iter()
            .map(|f| {
                (
                    f.name.as_str(),
                    f.text.as_deref(),
                    &code[f.value_span.start..f.value_span.end],
                )
            })
            .collect();
        assert_eq!(
            members,
            [
                ("status", Some("active"), "\"active\""),
                ("page", None, "page"),
                ("sort", Some("first_name"), "`first_name`"),
            ]
        );
        assert!(query.complete);
        assert!(computed.query.is_none());
    }

    #[test]
    fn legacy_calls_and_other_request_objects() {
        let code = r#"
            client.request.get("https://api.example.com/v1", {});
            _client.request.post(url);
            request.get("https://library.example.com");
            this.request.get("x");
        "#;
        let facts = analyze(code, "app/scripts/app.js", 0, Script::Frontend);
        let legacy: Vec<_> = facts
            .legacy_requests
            .iter()
            .map(|l| {
                (
                    l.method.name.as_str(),
                    l.url.as_ref().map(|u| u.name.as_str()),
                )
            })
            .collect();
        assert_eq!(
            legacy,
            [("get", Some("https://api.example.com/v1")), ("post", None)]
        );
    }
}
