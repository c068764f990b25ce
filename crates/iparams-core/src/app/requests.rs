//! config/requests.json: the request templates, as rules see them.
//!
//! The file is read with the span-keeping parser; each template is lowered into a [`Template`]
//! that borrows from the file's text and keeps, for every value, its span, and every `<%= … %>`
//! placeholder found in its strings with where it is and what it refers to. The JSON pointer a
//! finding carries is made from the template's name and the value's place when one is reported.

use std::borrow::Cow;

use super::iparam_read::Read;
use crate::pointer;
use crate::span::Span;
use crate::syntax::{JsonKind, Member, Value, ValueKind, span_in_literal};

/// Where in a template a value is. Names borrow from the file's text (an escaped one is owned).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place<'s> {
    Method,
    Protocol,
    Host,
    Path,
    /// A value of `schema.query`, with its name.
    Query(Cow<'s, str>),
    /// A value of `schema.headers`, with its name.
    Header(Cow<'s, str>),
    /// A member of `schema` the platform does not know, with its name.
    OtherSchema(Cow<'s, str>),
    /// A value of `options`, with its name.
    Option(Cow<'s, str>),
}

impl Place<'_> {
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

    /// The place with its name owned, for a reading kept after the text is gone.
    pub fn into_owned(self) -> Place<'static> {
        match self {
            Place::Method => Place::Method,
            Place::Protocol => Place::Protocol,
            Place::Host => Place::Host,
            Place::Path => Place::Path,
            Place::Query(name) => Place::Query(owned(name)),
            Place::Header(name) => Place::Header(owned(name)),
            Place::OtherSchema(name) => Place::OtherSchema(owned(name)),
            Place::Option(name) => Place::Option(owned(name)),
        }
    }

    /// The JSON pointer of the value at this place of template `template`:
    /// `/<template>/schema/headers/Authorization`.
    fn pointer_in(&self, template: &str) -> String {
        let mut pointer = pointer::of_key(template);
        let (parent, name) = match self {
            Place::Method => ("schema", "method"),
            Place::Protocol => ("schema", "protocol"),
            Place::Host => ("schema", "host"),
            Place::Path => ("schema", "path"),
            Place::OtherSchema(name) => ("schema", name.as_ref()),
            Place::Query(name) => {
                pointer.push_str("/schema");
                ("query", name.as_ref())
            }
            Place::Header(name) => {
                pointer.push_str("/schema");
                ("headers", name.as_ref())
            }
            Place::Option(name) => ("options", name.as_ref()),
        };
        pointer.push('/');
        pointer.push_str(parent);
        pointer::push(&mut pointer, name);
        pointer
    }
}

/// One value of a template: a field of `schema`, a header, a query parameter or an option.
#[derive(Clone, Debug)]
pub struct Field<'s> {
    pub place: Place<'s>,
    /// The name of the template it is in.
    pub template: Cow<'s, str>,
    /// The span of its key, quotes included.
    pub key_span: Span,
    pub kind: JsonKind,
    /// The text of a string, or a number as written.
    pub text: Option<Cow<'s, str>>,
    pub span: Span,
}

impl Field<'_> {
    /// The string value, when it is one.
    pub fn as_str(&self) -> Option<&str> {
        match self.kind {
            JsonKind::String => self.text.as_deref(),
            _ => None,
        }
    }

    /// Its JSON pointer, `/<template>/schema/headers/Authorization`: made when a finding needs
    /// it (most values never have one).
    pub fn pointer(&self) -> String {
        self.place.pointer_in(&self.template)
    }
}

/// A `<%= … %>` placeholder in a string of a template.
#[derive(Clone, Debug)]
pub struct Placeholder<'s> {
    pub place: Place<'s>,
    /// The name of the template it is in.
    pub template: Cow<'s, str>,
    /// The expression inside, trimmed: `iparam.api_key`, `context.id`, `encode(iparam.key)`.
    pub expression: Cow<'s, str>,
    /// Where the expression is in the source (escapes accounted for).
    pub span: Span,
    /// What the expression refers to, found once (every rule about placeholders asks): the
    /// first here, the others (`encode(iparam.a + ':' + iparam.b)`) in `more`, mostly empty.
    first: Option<Found>,
    more: Vec<Found>,
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

impl<'s> Placeholder<'s> {
    /// The placeholder `<%= expression %>` at `span` of template `template`.
    pub fn new(
        place: Place<'s>,
        template: Cow<'s, str>,
        expression: Cow<'s, str>,
        span: Span,
    ) -> Self {
        let mut found = references(&expression);
        let first = found.next();
        let more: Vec<Found> = found.collect();
        let known = first
            .iter()
            .chain(&more)
            .all(|f| !matches!(f.tag, Tag::MisspelledIparam | Tag::Unknown));
        let single = first.is_some() && more.is_empty() && is_one_name(&expression);
        let encoded = expression.starts_with("encode(") && expression.ends_with(')');
        let substituted = known && first.is_some() && (single || encoded);
        Self {
            place,
            template,
            expression,
            span,
            first,
            more,
            substituted,
        }
    }

    /// The JSON pointer of the string it is in.
    pub fn pointer(&self) -> String {
        self.place.pointer_in(&self.template)
    }

    /// The names the expression refers to, each with its span in the source: `encode(iparam.a +
    /// ':' + iparam.b)` refers to two iparams. Quoted strings and the function `encode` are not
    /// names.
    pub fn references(&self) -> impl Iterator<Item = (Reference<'_>, Span)> + '_ {
        self.first.iter().chain(&self.more).map(|found| {
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

/// The iparams the `<%= … %>` placeholders of `text` read (`iparam.KEY`, also inside
/// `encode(…)`, and `iparam.$KEY.url`), each with the span of its key in `text`.
pub(crate) fn placeholder_iparams(text: &str) -> impl Iterator<Item = (&str, Span)> {
    placeholders(text).flat_map(|(expression, start, _)| {
        references(expression)
            .filter(|found| matches!(found.tag, Tag::Iparam | Tag::DomainUrl))
            .map(move |found| {
                (
                    &expression[found.name.0..found.name.1],
                    Span::new(start + found.at.0, start + found.at.1),
                )
            })
    })
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
    let mut found = references(expression);
    let (Some(only), None) = (found.next(), found.next()) else {
        return None;
    };
    (is_one_name(expression) && matches!(only.tag, Tag::Iparam | Tag::DomainUrl))
        .then(|| &expression[only.name.0..only.name.1])
}

/// The dotted names of a placeholder's expression, classified, with where the part a finding
/// points at is (the key of an iparam, the name of a context value, the whole name otherwise).
/// Found as they are asked for: nothing is kept or allocated.
fn references(expression: &str) -> References<'_> {
    References { expression, at: 0 }
}

struct References<'e> {
    expression: &'e str,
    at: usize,
}

impl Iterator for References<'_> {
    type Item = Found;

    fn next(&mut self) -> Option<Found> {
        let expression = self.expression;
        let bytes = expression.as_bytes();
        let is_start = |b: u8| b.is_ascii_alphabetic() || b == b'_' || b == b'$';
        let is_part = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
        while self.at < bytes.len() {
            let byte = bytes[self.at];
            if byte == b'\'' || byte == b'"' || byte == b'`' {
                // A quoted string: skip to its end.
                self.at += 1;
                while self.at < bytes.len() && bytes[self.at] != byte {
                    self.at += 1;
                }
                self.at += 1;
                continue;
            }
            if !is_start(byte) {
                self.at += 1;
                continue;
            }
            let start = self.at;
            while self.at < bytes.len() && (is_part(bytes[self.at]) || bytes[self.at] == b'.') {
                self.at += 1;
            }
            let path = expression[start..self.at].trim_end_matches('.');
            if path == "encode" && bytes.get(self.at) == Some(&b'(') {
                continue;
            }
            return Some(classify(path, start));
        }
        None
    }
}

/// The reference a dotted name `path` starting at `start` makes.
fn classify(path: &str, start: usize) -> Found {
    let end = start + path.len();
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
    match (head, rest) {
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
        ("context", name) if !name.is_empty() && !name.contains('.') => after_head(Tag::Context),
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
    }
}

/// One member of requests.json: a template.
#[derive(Clone, Debug)]
pub struct Template<'s> {
    pub name: Cow<'s, str>,
    /// The span of its name, quotes included.
    pub name_span: Span,
    /// The span of its value.
    pub span: Span,
    pub kind: JsonKind,
    /// The span and kind of `schema`, when there is one.
    pub schema: Option<(Span, JsonKind)>,
    /// The span and kind of `options`, when there are.
    pub options: Option<(Span, JsonKind)>,
    /// Members of the template other than `schema` and `options`: (name, span of the key).
    pub others: Vec<(Cow<'s, str>, Span)>,
    /// The members of `schema` (the objects `headers` and `query` as one field each, and each
    /// of their values as a field of its own), then those of `options`.
    pub fields: Vec<Field<'s>>,
    pub placeholders: Vec<Placeholder<'s>>,
}

impl<'s> Template<'s> {
    /// Its JSON pointer, `/<template>`.
    pub fn pointer(&self) -> String {
        pointer::of_key(&self.name)
    }

    /// The last field at `place` (the one `JSON.parse` keeps).
    pub fn field(&self, place: &Place<'_>) -> Option<&Field<'s>> {
        self.fields.iter().rev().find(|field| &field.place == place)
    }

    /// The `schema` field named `name`, `headers` and `query` included.
    pub fn schema_field(&self, name: &str) -> Option<&Field<'s>> {
        self.fields
            .iter()
            .rev()
            .find(|field| matches!(&field.place, Place::OtherSchema(other) if other == name))
    }

    /// The values of `schema.headers`.
    pub fn headers(&self) -> impl Iterator<Item = (&str, &Field<'s>)> {
        self.fields.iter().filter_map(|field| match &field.place {
            Place::Header(name) => Some((name.as_ref(), field)),
            _ => None,
        })
    }

    /// The values of `schema.query`.
    pub fn query(&self) -> impl Iterator<Item = (&str, &Field<'s>)> {
        self.fields.iter().filter_map(|field| match &field.place {
            Place::Query(name) => Some((name.as_ref(), field)),
            _ => None,
        })
    }

    /// The options, by name.
    pub fn option_fields(&self) -> impl Iterator<Item = (&str, &Field<'s>)> {
        self.fields.iter().filter_map(|field| match &field.place {
            Place::Option(name) => Some((name.as_ref(), field)),
            _ => None,
        })
    }
}

/// config/requests.json as read: its templates, borrowing from the file's text.
#[derive(Clone, Debug, Default)]
pub struct Requests<'s> {
    /// The templates, in file order (duplicates included).
    pub templates: Vec<Template<'s>>,
    /// The top level is an object read to its end: `templates` lists every template.
    pub complete: bool,
}

impl<'s> Requests<'s> {
    /// Lowers the parsed file; `source` is the whole text, for placeholder spans.
    pub fn lower(root: Option<&Value<'s>>, complete: bool, source: &str) -> Self {
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

    /// The templates of config/requests.json's `text`, read with the span-keeping parser: what
    /// can be read of it, whatever its mistakes (`complete` when it was read to its end).
    pub fn read(text: &'s str) -> Self {
        let (root, errors) = crate::syntax::parse_value(text);
        let complete = !errors.iter().any(|error| error.fatal);
        Self::lower(root.as_ref(), complete, text)
    }

    /// The templates with every text owned, for a reading kept after the file's text is gone
    /// (the preview keeps the last one).
    pub fn into_owned(self) -> Requests<'static> {
        let templates = self
            .templates
            .into_iter()
            .map(|template| Template {
                name: owned(template.name),
                name_span: template.name_span,
                span: template.span,
                kind: template.kind,
                schema: template.schema,
                options: template.options,
                others: (template.others.into_iter())
                    .map(|(name, span)| (owned(name), span))
                    .collect(),
                fields: (template.fields.into_iter())
                    .map(|field| Field {
                        place: field.place.into_owned(),
                        template: owned(field.template),
                        text: field.text.map(owned),
                        ..field
                    })
                    .collect(),
                placeholders: (template.placeholders.into_iter())
                    .map(|placeholder| Placeholder {
                        place: placeholder.place.into_owned(),
                        template: owned(placeholder.template),
                        expression: owned(placeholder.expression),
                        ..placeholder
                    })
                    .collect(),
            })
            .collect();
        Requests {
            templates,
            complete: self.complete,
        }
    }

    /// The template called `name` (the last one, as `JSON.parse` keeps).
    pub fn template(&self, name: &str) -> Option<&Template<'s>> {
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

    /// The pointer of the value whose source holds `span`, for findings of other rules.
    pub fn pointer_at(&self, span: Span) -> Option<String> {
        let template = self.templates.iter().find(|t| t.span.contains(span))?;
        template
            .fields
            .iter()
            .rev()
            .find(|field| field.span.contains(span))
            .map(Field::pointer)
            .or_else(|| Some(template.pointer()))
    }
}

/// `text`, no longer borrowed.
fn owned(text: Cow<'_, str>) -> Cow<'static, str> {
    Cow::Owned(text.into_owned())
}

fn lower_template<'s>(
    name: &Cow<'s, str>,
    name_span: Span,
    value: &Value<'s>,
    source: &str,
) -> Template<'s> {
    let mut template = Template {
        name: name.clone(),
        name_span,
        span: value.span,
        kind: value.json_kind(),
        schema: None,
        options: None,
        others: Vec::new(),
        fields: Vec::new(),
        placeholders: Vec::new(),
    };
    let Some(members) = value.as_object() else {
        return template;
    };
    template.fields.reserve_exact(field_count(members));
    for member in members {
        match member.key.text.as_ref() {
            "schema" => {
                template.schema = Some((member.value.span, member.value.json_kind()));
                for field in member.value.as_object().unwrap_or_default() {
                    let key = &field.key.text;
                    let place = match key.as_ref() {
                        "method" => Place::Method,
                        "protocol" => Place::Protocol,
                        "host" => Place::Host,
                        "path" => Place::Path,
                        _ => Place::OtherSchema(key.clone()),
                    };
                    let inner: Option<fn(Cow<'s, str>) -> Place<'s>> = match key.as_ref() {
                        "headers" => Some(Place::Header),
                        "query" => Some(Place::Query),
                        _ => None,
                    };
                    if let Some(inner) = inner {
                        for entry in field.value.as_object().unwrap_or_default() {
                            let place = inner(entry.key.text.clone());
                            add_field(&mut template, place, entry.key.span, &entry.value, source);
                        }
                    }
                    add_field(&mut template, place, field.key.span, &field.value, source);
                }
            }
            "options" => {
                template.options = Some((member.value.span, member.value.json_kind()));
                for option in member.value.as_object().unwrap_or_default() {
                    let place = Place::Option(option.key.text.clone());
                    add_field(&mut template, place, option.key.span, &option.value, source);
                }
            }
            _ => template
                .others
                .push((member.key.text.clone(), member.key.span)),
        }
    }
    template
}

/// How many fields [`lower_template`] makes of a template's members: one for each member of
/// `schema` and `options`, and one more for each header and query parameter.
fn field_count(members: &[Member<'_>]) -> usize {
    let members_of = |value: &Value<'_>| value.as_object().map_or(0, <[Member<'_>]>::len);
    members
        .iter()
        .map(|member| match member.key.text.as_ref() {
            "schema" => member.value.as_object().map_or(0, |fields| {
                fields
                    .iter()
                    .map(|field| match field.key.text.as_ref() {
                        "headers" | "query" => 1 + members_of(&field.value),
                        _ => 1,
                    })
                    .sum()
            }),
            "options" => members_of(&member.value),
            _ => 0,
        })
        .sum()
}

fn add_field<'s>(
    template: &mut Template<'s>,
    place: Place<'s>,
    key_span: Span,
    value: &Value<'s>,
    source: &str,
) {
    let text = match &value.kind {
        ValueKind::String(text) => {
            for (expression, start, end) in placeholders(text) {
                // Borrowed from the file when the string is (it has no escape): then its text
                // starts right after the quote, and no escape needs walking to place it.
                let (expression, span) = match text {
                    Cow::Borrowed(text) => {
                        let text: &'s str = text;
                        let after_quote = value.span.start + 1;
                        (
                            Cow::Borrowed(&text[start..end]),
                            Span::new(after_quote + start, after_quote + end),
                        )
                    }
                    Cow::Owned(_) => (
                        Cow::Owned(expression.to_owned()),
                        span_in_literal(source, value.span, start, end),
                    ),
                };
                template.placeholders.push(Placeholder::new(
                    place.clone(),
                    template.name.clone(),
                    expression,
                    span,
                ));
            }
            Some(text.clone())
        }
        ValueKind::Number(number) => Some(Cow::Borrowed(*number)),
        _ => None,
    };
    template.fields.push(Field {
        place,
        template: template.name.clone(),
        key_span,
        kind: value.json_kind(),
        text,
        span: value.span,
    });
}

/// `text` with each `<%= … %>` placeholder replaced by `by`: what is written around the
/// placeholders (a host's shape, the literal text of a header). Borrowed when there is none.
pub(crate) fn placeholders_replaced(text: &str, by: char) -> Cow<'_, str> {
    if placeholder_marks(text).next().is_none() {
        return Cow::Borrowed(text);
    }
    let mut replaced = String::with_capacity(text.len());
    push_placeholders_replaced(&mut replaced, text, by);
    Cow::Owned(replaced)
}

/// Appends [`placeholders_replaced`]'s text to `out`.
pub(super) fn push_placeholders_replaced(out: &mut String, text: &str, by: char) {
    let mut from = 0;
    for (open, close) in placeholder_marks(text) {
        out.push_str(&text[from..open]);
        out.push(by);
        from = close + CLOSE.len();
    }
    out.push_str(&text[from..]);
}

/// Where `needle` is in `text` from `from`, byte by byte. Template values are short: a
/// substring searcher (`str::find`, `memmem`), or even `memchr`'s dispatch on the length, costs
/// more on each call than this whole search.
pub(crate) fn find_short(text: &str, from: usize, needle: &str) -> Option<usize> {
    let (bytes, needle) = (text.as_bytes(), needle.as_bytes());
    let last = bytes.len().checked_sub(needle.len())?;
    (from..=last).find(|&at| bytes[at..].starts_with(needle))
}

/// Whether `text` holds `<%` (a placeholder's start, or a broken one): asked of most values by
/// several rules, so searched as [`find_short`] does.
pub fn has_placeholder_mark(text: &str) -> bool {
    find_short(text, 0, "<%").is_some()
}

/// The `<%= … %>` placeholders of a string: (trimmed expression, its start and end in `text`).
pub fn placeholders(text: &str) -> impl Iterator<Item = (&str, usize, usize)> {
    placeholder_marks(text).map(move |(open, close)| {
        let inner_start = open + OPEN.len();
        let inner = &text[inner_start..close];
        let start = inner_start + (inner.len() - inner.trim_start().len());
        let expression = inner.trim();
        (expression, start, start + expression.len())
    })
}

/// A placeholder's marks.
const OPEN: &str = "<%=";
const CLOSE: &str = "%>";

/// Where each whole `<%= … %>` of `text` opens and closes: the offsets of its `<%=` and `%>`.
fn placeholder_marks(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut from = 0;
    std::iter::from_fn(move || {
        let open = find_short(text, from, OPEN)?;
        let close = find_short(text, open + OPEN.len(), CLOSE)?;
        from = close + CLOSE.len();
        Some((open, close))
    })
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
            auth.map(|(_, field)| field.pointer()).as_deref(),
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
            .map(|p| (p.place.clone(), p.pointer()));
        assert_eq!(
            context,
            Some((Place::Path, "/getEmployee/schema/path".to_owned()))
        );
        assert_eq!(
            template
                .option_fields()
                .map(|(name, field)| (name, field.text.as_deref()))
                .collect::<Vec<_>>(),
            [("maxAttempts", Some("3"))]
        );
    }

    /// Pointers are made from the template's name and the place on demand: each part escaped.
    #[test]
    fn pointers_of_every_place() {
        let text = r#"{"a/b": {"schema": {"method": "GET", "headers": {"X~Y": "1"}, "query": {"q": "<%= context.q %>"}, "body": {}}, "options": {"o/p": 2}}}"#;
        let (root, _) = parse_value(text);
        let requests = Requests::lower(root.as_ref(), true, text);
        let template = &requests.templates[0];
        let pointers: Vec<String> = template.fields.iter().map(Field::pointer).collect();
        assert_eq!(
            pointers,
            [
                "/a~1b/schema/method",
                "/a~1b/schema/headers/X~0Y",
                "/a~1b/schema/headers",
                "/a~1b/schema/query/q",
                "/a~1b/schema/query",
                "/a~1b/schema/body",
                "/a~1b/options/o~1p",
            ]
        );
        assert_eq!(template.pointer(), "/a~1b");
        assert_eq!(template.placeholders[0].pointer(), "/a~1b/schema/query/q");
        assert!(matches!(
            template.placeholders[0].expression,
            Cow::Borrowed("context.q")
        ));
    }

    #[test]
    fn placeholders_found_and_replaced() {
        assert_eq!(find_short("a<%b<%=c", 0, "<%="), Some(4));
        assert_eq!(find_short("a<%b<%=c", 5, "<%="), None);
        assert_eq!(find_short("<%", 0, "<%="), None);
        let found: Vec<_> = placeholders("x<%=  iparam.a %>y<%=context.b%><%= open").collect();
        assert_eq!(found, [("iparam.a", 6, 14), ("context.b", 21, 30)]);
        assert_eq!(
            placeholders_replaced("Bearer <%= iparam.k %> and <%=x%>!", ' '),
            "Bearer   and  !"
        );
        assert_eq!(placeholders_replaced("a<%= b", 'x'), "a<%= b");
        assert!(matches!(
            placeholders_replaced("plain", 'x'),
            Cow::Borrowed("plain")
        ));
        // Multi-byte text around the markers: every cut is on a boundary.
        assert_eq!(placeholders_replaced("é<%=a%>ü", 'x'), "éxü");
    }

    #[test]
    fn references_of_placeholders() {
        fn of(expression: &str) -> Vec<(Reference<'_>, &str)> {
            references(expression)
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
        let placeholder = |expression: &'static str| {
            Placeholder::new(
                Place::Path,
                Cow::Borrowed("t"),
                Cow::Borrowed(expression),
                Span::new(0, expression.len()),
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
