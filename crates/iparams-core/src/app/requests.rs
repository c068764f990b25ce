//! config/requests.json: the request templates, as rules see them.
//!
//! The file is read with the span-keeping parser; each template is lowered into a [`Template`]
//! that keeps, for every value, its span and the JSON pointer a finding about it carries, and
//! every `<%= … %>` placeholder found in its strings with where it is.

use super::Read;
use crate::pointer;
use crate::span::Span;
use crate::syntax::{JsonKind, Value, ValueKind, span_in_literal};

/// Where in a template a value is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    Method,
    Protocol,
    Host,
    Path,
    /// A value of `schema.query`, with its name.
    Query(String),
    /// A value of `schema.headers`, with its name.
    Header(String),
    /// A member of `schema` the platform does not know, with its name.
    OtherSchema(String),
    /// A value of `options`, with its name.
    Option(String),
}

impl Place {
    /// How a message names the place: "`host`", "header `Authorization`".
    pub fn described(&self) -> String {
        match self {
            Place::Method => "`method`".to_owned(),
            Place::Protocol => "`protocol`".to_owned(),
            Place::Host => "`host`".to_owned(),
            Place::Path => "`path`".to_owned(),
            Place::Query(name) => format!("query parameter `{name}`"),
            Place::Header(name) => format!("header `{name}`"),
            Place::OtherSchema(name) => format!("`schema.{name}`"),
            Place::Option(name) => format!("option `{name}`"),
        }
    }
}

/// One value of a template: a field of `schema`, a header, a query parameter or an option.
#[derive(Clone, Debug)]
pub struct Field {
    pub place: Place,
    /// The span of its key, quotes included.
    pub key_span: Span,
    pub kind: JsonKind,
    /// The text of a string, or a number as written.
    pub text: Option<String>,
    pub span: Span,
    /// `/<template>/schema/headers/Authorization`.
    pub pointer: String,
}

impl Field {
    /// The string value, when it is one.
    pub fn as_str(&self) -> Option<&str> {
        match self.kind {
            JsonKind::String => self.text.as_deref(),
            _ => None,
        }
    }
}

/// A `<%= … %>` placeholder in a string of a template.
#[derive(Clone, Debug)]
pub struct Placeholder {
    pub place: Place,
    /// The expression inside, trimmed: `iparam.api_key`, `context.id`, `encode(iparam.key)`.
    pub expression: String,
    /// Where the expression is in the source (escapes accounted for).
    pub span: Span,
    /// The pointer of the string it is in.
    pub pointer: String,
    /// What the expression refers to, classified once (every rule about placeholders asks).
    found: Vec<Found>,
    /// The platform substitutes it: a single name it knows, or `encode(…)` of names it knows.
    substituted: bool,
}

/// A [`Reference`] of a placeholder kept as ranges of its expression: the name, and the part a
/// finding points at.
#[derive(Clone, Copy, Debug)]
struct Found {
    tag: Tag,
    name: (usize, usize),
    at: (usize, usize),
}

/// The kind of a [`Reference`], without its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tag {
    Iparam,
    DomainUrl,
    Context,
    AccessToken,
    AppSetting,
    EndpointUrl,
    MisspelledIparam,
    Unknown,
}

/// What a name inside a placeholder refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference<'e> {
    /// `iparam.KEY`.
    Iparam(&'e str),
    /// `iparam.$KEY.url`: the full URL of a `domain` iparam.
    DomainUrl(&'e str),
    /// `context.NAME`, given at the invocation.
    Context(&'e str),
    /// `access_token`, of an OAuth template.
    AccessToken,
    /// `app_settings.NAME`.
    AppSetting(&'e str),
    /// `current_host.endpoint_urls.PRODUCT`.
    EndpointUrl(&'e str),
    /// `iparams.KEY`, with an s: never substituted.
    MisspelledIparam(&'e str),
    /// Any other name: never substituted.
    Unknown(&'e str),
}

impl<'e> Reference<'e> {
    fn of(tag: Tag, name: &'e str) -> Self {
        match tag {
            Tag::Iparam => Reference::Iparam(name),
            Tag::DomainUrl => Reference::DomainUrl(name),
            Tag::Context => Reference::Context(name),
            Tag::AccessToken => Reference::AccessToken,
            Tag::AppSetting => Reference::AppSetting(name),
            Tag::EndpointUrl => Reference::EndpointUrl(name),
            Tag::MisspelledIparam => Reference::MisspelledIparam(name),
            Tag::Unknown => Reference::Unknown(name),
        }
    }
}

impl Placeholder {
    /// The placeholder `<%= expression %>` at `span`, its references classified.
    pub fn new(place: Place, expression: String, span: Span, pointer: String) -> Self {
        let found = references(&expression);
        let known = found
            .iter()
            .all(|f| !matches!(f.tag, Tag::MisspelledIparam | Tag::Unknown));
        let single = found.len() == 1 && is_one_name(&expression);
        let encoded = expression.starts_with("encode(") && expression.ends_with(')');
        let substituted = known && !found.is_empty() && (single || encoded);
        Self {
            place,
            expression,
            span,
            pointer,
            found,
            substituted,
        }
    }

    /// The names the expression refers to, each with its span in the source: `encode(iparam.a +
    /// ':' + iparam.b)` refers to two iparams. Quoted strings and the function `encode` are not
    /// names.
    pub fn references(&self) -> impl Iterator<Item = (Reference<'_>, Span)> + '_ {
        self.found.iter().map(|found| {
            let name = &self.expression[found.name.0..found.name.1];
            let span = Span::new(self.span.start + found.at.0, self.span.start + found.at.1);
            (Reference::of(found.tag, name), span)
        })
    }

    /// Whether the platform substitutes this placeholder: a single name it knows, or
    /// `encode(…)` of names it knows.
    pub fn is_substituted(&self) -> bool {
        self.substituted
    }

    /// Every iparam the placeholder reads, with the span of each key.
    pub fn iparams(&self) -> impl Iterator<Item = (&str, Span)> {
        self.references()
            .filter_map(|(reference, span)| match reference {
                Reference::Iparam(key) | Reference::DomainUrl(key) => Some((key, span)),
                _ => None,
            })
    }

    /// The `context.NAME` names the placeholder needs.
    pub fn context_names(&self) -> impl Iterator<Item = &str> {
        self.references()
            .filter_map(|(reference, _)| match reference {
                Reference::Context(name) => Some(name),
                _ => None,
            })
    }
}

/// Whether an expression is one dotted name and nothing else (no call, operator or string).
fn is_one_name(expression: &str) -> bool {
    expression
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.'))
}

/// The iparam an expression is nothing but: `iparam.KEY`, or `iparam.$KEY.url` of a `domain`
/// iparam; `None` for anything else (`encode(iparam.KEY)`, `context.id`).
pub fn single_iparam(expression: &str) -> Option<&str> {
    let [found] = references(expression)[..] else {
        return None;
    };
    (is_one_name(expression) && matches!(found.tag, Tag::Iparam | Tag::DomainUrl))
        .then(|| &expression[found.name.0..found.name.1])
}

/// The dotted names of a placeholder's expression, classified, with where the part a finding
/// points at is (the key of an iparam, the name of a context value, the whole name otherwise).
fn references(expression: &str) -> Vec<Found> {
    let bytes = expression.as_bytes();
    let is_start = |b: u8| b.is_ascii_alphabetic() || b == b'_' || b == b'$';
    let is_part = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if byte == b'\'' || byte == b'"' || byte == b'`' {
            // A quoted string: skip to its end.
            at += 1;
            while at < bytes.len() && bytes[at] != byte {
                at += 1;
            }
            at += 1;
            continue;
        }
        if !is_start(byte) {
            at += 1;
            continue;
        }
        let start = at;
        while at < bytes.len() && (is_part(bytes[at]) || bytes[at] == b'.') {
            at += 1;
        }
        let path = expression[start..at].trim_end_matches('.');
        let end = start + path.len();
        if path == "encode" && bytes.get(at) == Some(&b'(') {
            continue;
        }
        let (head, rest) = path.split_once('.').unwrap_or((path, ""));
        let rest_start = start + head.len() + 1;
        // The name, and the part a finding points at, both from `start`..`end` by default.
        let whole = |tag| Found {
            tag,
            name: (start, end),
            at: (start, end),
        };
        let after_head = |tag| Found {
            tag,
            name: (rest_start, end),
            at: (rest_start, end),
        };
        found.push(match (head, rest) {
            ("iparam", rest) if !rest.is_empty() => {
                match rest.strip_prefix('$').and_then(|r| r.strip_suffix(".url")) {
                    Some(key) => {
                        let key = (rest_start + 1, rest_start + 1 + key.len());
                        Found {
                            tag: Tag::DomainUrl,
                            name: key,
                            at: key,
                        }
                    }
                    None => after_head(Tag::Iparam),
                }
            }
            ("context", name) if !name.is_empty() && !name.contains('.') => {
                after_head(Tag::Context)
            }
            ("access_token", "") => whole(Tag::AccessToken),
            ("app_settings", name) if !name.is_empty() => Found {
                name: (rest_start, end),
                ..whole(Tag::AppSetting)
            },
            ("current_host", rest) if rest.starts_with("endpoint_urls.") => Found {
                name: (rest_start + "endpoint_urls.".len(), end),
                ..whole(Tag::EndpointUrl)
            },
            ("iparams", key) if !key.is_empty() => Found {
                name: (rest_start, end),
                ..whole(Tag::MisspelledIparam)
            },
            _ => whole(Tag::Unknown),
        });
    }
    found
}

/// One member of requests.json: a template.
#[derive(Clone, Debug)]
pub struct Template {
    pub name: String,
    /// The span of its name, quotes included.
    pub name_span: Span,
    /// The span of its value.
    pub span: Span,
    pub kind: JsonKind,
    /// `/<template>`.
    pub pointer: String,
    /// The span and kind of `schema`, when there is one.
    pub schema: Option<(Span, JsonKind)>,
    /// The span and kind of `options`, when there are.
    pub options: Option<(Span, JsonKind)>,
    /// Members of the template other than `schema` and `options`: (name, span of the key).
    pub others: Vec<(String, Span)>,
    /// The members of `schema` (the objects `headers` and `query` as one field each, and each
    /// of their values as a field of its own), then those of `options`.
    pub fields: Vec<Field>,
    pub placeholders: Vec<Placeholder>,
}

impl Template {
    /// The last field at `place` (the one `JSON.parse` keeps).
    pub fn field(&self, place: &Place) -> Option<&Field> {
        self.fields.iter().rev().find(|field| &field.place == place)
    }

    /// The `schema` field named `name`, `headers` and `query` included.
    pub fn schema_field(&self, name: &str) -> Option<&Field> {
        self.fields
            .iter()
            .rev()
            .find(|field| matches!(&field.place, Place::OtherSchema(other) if other == name))
    }

    /// The values of `schema.headers`.
    pub fn headers(&self) -> impl Iterator<Item = (&str, &Field)> {
        self.fields.iter().filter_map(|field| match &field.place {
            Place::Header(name) => Some((name.as_str(), field)),
            _ => None,
        })
    }

    /// The values of `schema.query`.
    pub fn query(&self) -> impl Iterator<Item = (&str, &Field)> {
        self.fields.iter().filter_map(|field| match &field.place {
            Place::Query(name) => Some((name.as_str(), field)),
            _ => None,
        })
    }

    /// The options, by name.
    pub fn option_fields(&self) -> impl Iterator<Item = (&str, &Field)> {
        self.fields.iter().filter_map(|field| match &field.place {
            Place::Option(name) => Some((name.as_str(), field)),
            _ => None,
        })
    }
}

/// config/requests.json as read.
#[derive(Clone, Debug, Default)]
pub struct Requests {
    /// The templates, in file order (duplicates included).
    pub templates: Vec<Template>,
    /// The top level is an object read to its end: `templates` lists every template.
    pub complete: bool,
}

impl Requests {
    /// Lowers the parsed file; `source` is the whole text, for placeholder spans.
    pub fn lower(root: Option<&Value<'_>>, complete: bool, source: &str) -> Self {
        let Some(members) = root.and_then(Value::as_object) else {
            return Self::default();
        };
        let templates = members
            .iter()
            .map(|member| lower_template(&member.key.text, member.key.span, &member.value, source))
            .collect();
        Self {
            templates,
            complete,
        }
    }

    /// The template called `name` (the last one, as `JSON.parse` keeps).
    pub fn template(&self, name: &str) -> Option<&Template> {
        self.templates.iter().rev().find(|t| t.name == name)
    }

    /// The `<%= iparam.KEY %>` reads of every template.
    pub fn reads(&self) -> Vec<Read> {
        self.templates
            .iter()
            .flat_map(|template| &template.placeholders)
            .flat_map(Placeholder::iparams)
            .map(|(key, span)| Read {
                key: key.to_owned(),
                span,
            })
            .collect()
    }

    /// The spans of header and query values that hold a credential written out: an
    /// `Authorization` value with literal text after its scheme (`Bearer abc…`, a bare key), or
    /// any value that looks like a secret. Output masks them.
    pub fn secret_spans(&self) -> Vec<Span> {
        self.templates
            .iter()
            .flat_map(|template| &template.fields)
            .filter(|field| matches!(field.place, Place::Header(_) | Place::Query(_)))
            .filter(|field| {
                let Some(text) = field.as_str() else {
                    return false;
                };
                let authorization = matches!(&field.place, Place::Header(name)
                    if name.eq_ignore_ascii_case("authorization")
                        || name.eq_ignore_ascii_case("proxy-authorization"));
                // Placeholders are names, not secrets: only the text written around them is
                // looked at (most values are a placeholder and a few words: nothing to scan).
                let written = written_text(text);
                (authorization && holds_literal_credential(&written))
                    || (written.len() >= 20 && crate::secrets::looks_secret(&written))
            })
            .map(|field| field.span)
            .collect()
    }

    /// The pointer of the value whose source holds `span`, for findings of other rules.
    pub fn pointer_at(&self, span: Span) -> Option<&str> {
        let template = self.templates.iter().find(|t| t.span.contains(span))?;
        template
            .fields
            .iter()
            .rev()
            .find(|field| field.span.contains(span))
            .map(|field| field.pointer.as_str())
            .or(Some(template.pointer.as_str()))
    }
}

fn lower_template(name: &str, name_span: Span, value: &Value<'_>, source: &str) -> Template {
    let template_pointer = pointer::of_key(name);
    let mut template = Template {
        name: name.to_owned(),
        name_span,
        span: value.span,
        kind: value.json_kind(),
        pointer: template_pointer.clone(),
        schema: None,
        options: None,
        others: Vec::new(),
        fields: Vec::new(),
        placeholders: Vec::new(),
    };
    let Some(members) = value.as_object() else {
        return template;
    };
    for member in members {
        let mut here = template_pointer.clone();
        pointer::push(&mut here, &member.key.text);
        match member.key.text.as_ref() {
            "schema" => {
                template.schema = Some((member.value.span, member.value.json_kind()));
                for field in member.value.as_object().unwrap_or_default() {
                    let place = match field.key.text.as_ref() {
                        "method" => Place::Method,
                        "protocol" => Place::Protocol,
                        "host" => Place::Host,
                        "path" => Place::Path,
                        other => Place::OtherSchema(other.to_owned()),
                    };
                    let mut pointer = here.clone();
                    pointer::push(&mut pointer, &field.key.text);
                    let inner: Option<fn(String) -> Place> = match field.key.text.as_ref() {
                        "headers" => Some(Place::Header),
                        "query" => Some(Place::Query),
                        _ => None,
                    };
                    if let Some(inner) = inner {
                        for entry in field.value.as_object().unwrap_or_default() {
                            let mut entry_pointer = pointer.clone();
                            pointer::push(&mut entry_pointer, &entry.key.text);
                            add_field(
                                &mut template,
                                inner(entry.key.text.to_string()),
                                entry.key.span,
                                &entry.value,
                                entry_pointer,
                                source,
                            );
                        }
                    }
                    add_field(
                        &mut template,
                        place,
                        field.key.span,
                        &field.value,
                        pointer,
                        source,
                    );
                }
            }
            "options" => {
                template.options = Some((member.value.span, member.value.json_kind()));
                for option in member.value.as_object().unwrap_or_default() {
                    let mut pointer = here.clone();
                    pointer::push(&mut pointer, &option.key.text);
                    add_field(
                        &mut template,
                        Place::Option(option.key.text.to_string()),
                        option.key.span,
                        &option.value,
                        pointer,
                        source,
                    );
                }
            }
            other => template.others.push((other.to_owned(), member.key.span)),
        }
    }
    template
}

fn add_field(
    template: &mut Template,
    place: Place,
    key_span: Span,
    value: &Value<'_>,
    pointer: String,
    source: &str,
) {
    let text = match &value.kind {
        ValueKind::String(text) => {
            for (expression, start, end) in placeholders(text) {
                template.placeholders.push(Placeholder::new(
                    place.clone(),
                    expression.to_owned(),
                    span_in_literal(source, value.span, start, end),
                    pointer.clone(),
                ));
            }
            Some(text.to_string())
        }
        ValueKind::Number(number) => Some((*number).to_owned()),
        _ => None,
    };
    template.fields.push(Field {
        place,
        key_span,
        kind: value.json_kind(),
        text,
        span: value.span,
        pointer,
    });
}

/// `text` with each `<%= … %>` placeholder replaced by a space.
fn written_text(text: &str) -> String {
    let mut literal = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find("<%=") {
        let Some(close) = rest[open..].find("%>") else {
            break;
        };
        literal.push_str(&rest[..open]);
        literal.push(' ');
        rest = &rest[open + close + 2..];
    }
    literal.push_str(rest);
    literal
}

/// Whether an `Authorization` value (its placeholders replaced by spaces) writes a credential out: text other than placeholders
/// after its scheme word (`Bearer abc`, `Basic dXNlcjpwYXNz`), or a word that is not a scheme.
fn holds_literal_credential(literal: &str) -> bool {
    let mut words = literal.split_whitespace();
    let first = words.next();
    let after = words.any(|word| !word.is_empty());
    let schemes = ["bearer", "basic", "token", "digest"];
    match first {
        None => false,
        Some(word) if schemes.iter().any(|s| word.eq_ignore_ascii_case(s)) => after,
        // `Token token=<%= … %>` leaves `token=` alone: a parameter name, not a secret.
        Some(word) => !word.ends_with('=') || after,
    }
}

/// The `<%= … %>` placeholders of a string: (trimmed expression, its start and end in `text`).
pub fn placeholders(text: &str) -> Vec<(&str, usize, usize)> {
    const OPEN: &str = "<%=";
    // memchr's searcher: `str::find` sets up a two-way searcher on every call, which cost more
    // than the search on these short texts, asked for every value of every template.
    let find = |from: usize, needle: &str| {
        memchr::memmem::find(&text.as_bytes()[from..], needle.as_bytes()).map(|at| at + from)
    };
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(open) = find(from, OPEN) {
        let inner_start = open + OPEN.len();
        let Some(close) = find(inner_start, "%>") else {
            break;
        };
        let inner = &text[inner_start..close];
        let start = inner_start + (inner.len() - inner.trim_start().len());
        let expression = inner.trim();
        found.push((expression, start, start + expression.len()));
        from = close + 2;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse_value;

    const FILE: &str = r#"{
  "getEmployee": {
    "schema": {
      "method": "GET",
      "host": "<%= iparam.domain %>.freshteam.com",
      "path": "/api/employees/<%= context.id %>",
      "headers": {"Authorization": "Bearer <%= iparam.api_key %>", "X": "\u0041<%= iparam.$site.url %>"},
      "query": {"include": "branch"}
    },
    "options": {"maxAttempts": 3}
  }
}"#;

    #[test]
    fn templates_with_pointers_and_placeholders() {
        let (root, errors) = parse_value(FILE);
        assert!(errors.is_empty());
        let requests = Requests::lower(root.as_ref(), true, FILE);
        let [template] = requests.templates.as_slice() else {
            panic!("one template");
        };
        assert_eq!(template.name, "getEmployee");
        let auth = template
            .headers()
            .find(|(name, _)| *name == "Authorization");
        assert_eq!(
            auth.map(|(_, field)| field.pointer.as_str()),
            Some("/getEmployee/schema/headers/Authorization")
        );
        assert_eq!(
            template.field(&Place::Host).and_then(Field::as_str),
            Some("<%= iparam.domain %>.freshteam.com")
        );
        let reads: Vec<(String, &str)> = requests
            .reads()
            .into_iter()
            .map(|read| (read.key, &FILE[read.span.start..read.span.end]))
            .collect();
        assert_eq!(
            reads,
            [
                ("domain".to_owned(), "domain"),
                ("api_key".to_owned(), "api_key"),
                ("site".to_owned(), "site"),
            ]
        );
        let context = template
            .placeholders
            .iter()
            .find(|p| p.expression == "context.id")
            .map(|p| (p.place.clone(), p.pointer.as_str()));
        assert_eq!(context, Some((Place::Path, "/getEmployee/schema/path")));
        assert_eq!(
            template
                .option_fields()
                .map(|(name, field)| (name, field.text.as_deref()))
                .collect::<Vec<_>>(),
            [("maxAttempts", Some("3"))]
        );
    }

    #[test]
    fn references_of_placeholders() {
        fn of(expression: &str) -> Vec<(Reference<'_>, &str)> {
            references(expression)
                .into_iter()
                .map(|f| {
                    let name = &expression[f.name.0..f.name.1];
                    (Reference::of(f.tag, name), &expression[f.at.0..f.at.1])
                })
                .collect()
        }
        assert_eq!(
            of("iparam.api_key"),
            [(Reference::Iparam("api_key"), "api_key")]
        );
        assert_eq!(
            of("encode(iparam.key + ':X')"),
            [(Reference::Iparam("key"), "key")]
        );
        assert_eq!(
            of("iparam.$site.url"),
            [(Reference::DomainUrl("site"), "site")]
        );
        assert_eq!(of("context.id"), [(Reference::Context("id"), "id")]);
        assert_eq!(
            of("iparams.key"),
            [(Reference::MisspelledIparam("key"), "iparams.key")]
        );
        assert_eq!(
            of("access_token"),
            [(Reference::AccessToken, "access_token")]
        );
        let placeholder = |expression: &str| {
            Placeholder::new(
                Place::Path,
                expression.to_owned(),
                Span::new(0, expression.len()),
                String::new(),
            )
        };
        for substituted in [
            "iparam.k",
            "encode(iparam.k)",
            "context.id",
            "access_token",
            "iparam.$d.url",
        ] {
            assert!(placeholder(substituted).is_substituted(), "{substituted}");
        }
        for not in ["iparams.k", "id", "iparam.k + 1", "user.name", ""] {
            assert!(!placeholder(not).is_substituted(), "{not}");
        }
        assert_eq!(single_iparam("iparam.$d.url"), Some("d"));
        assert_eq!(single_iparam("encode(iparam.k)"), None);
    }
}
