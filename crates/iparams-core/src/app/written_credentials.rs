//! Credentials written out in config/requests.json: the file is committed and shipped in the
//! app package, so a key written there is everyone's. One finder serves both the masking of
//! every output (the report's redactions) and the rule that reports them, so what is hidden and
//! what is reported cannot drift apart.

use super::requests::{Field, Place, Requests, push_placeholders_replaced};
use crate::secrets::{self, Sensitivity};
use crate::span::Span;
use crate::syntax::span_in_literal;

/// Where in a template a credential is written, which decides the secure form to suggest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Written {
    /// `Authorization: Basic dXNlcjpwYXNz`, `Bearer abc…`: the scheme word, when there is one.
    Authorization(Option<String>),
    /// A header named for a secret (`X-Api-Key`, `Client-Secret`) with a literal value.
    Header(String),
    /// A query parameter named for a secret (`apikey`, `token`) with a literal value.
    Query(String),
    /// `?apikey=…` written in `path`.
    PathQuery(String),
    /// `user:password@` before the host name.
    UserInfo,
    /// `encode('user:password')`: a literal encoded in a placeholder.
    EncodedLiteral,
    /// Text shaped like a known credential, or a long random token, at any other place.
    Shaped,
}

/// One credential written in a template.
#[derive(Clone, Debug)]
pub struct WrittenCredential {
    /// The template it is in.
    pub template: String,
    /// The value's place, for the message and the finding's pointer.
    pub pointer: String,
    pub place: String,
    pub written: Written,
    /// The secret text itself: what every output masks and the finding points at.
    pub span: Span,
}

/// The shortest literal value taken for a secret under a secret's name: `true`, `v2` or
/// `Basic` are not credentials, a key of 8 characters may be.
const SHORTEST_NAMED_SECRET: usize = 8;

impl Requests<'_> {
    /// Every credential written out in the templates, in file order. `source` is the file's
    /// text, for the spans of parts of a string.
    pub fn written_credentials(&self, source: &str) -> Vec<WrittenCredential> {
        let mut found = Vec::new();
        // One buffer for every value's written text (placeholders replaced by spaces).
        let mut written = String::new();
        for template in &self.templates {
            for field in &template.fields {
                let Some(text) = field.as_str() else {
                    continue;
                };
                written.clear();
                push_placeholders_replaced(&mut written, text, ' ');
                let mut add = |written: Written, span: Span| {
                    found.push(WrittenCredential {
                        template: template.name.to_string(),
                        pointer: field.pointer(),
                        place: field.place.described(),
                        written,
                        span,
                    });
                };
                match in_field(field, text, &written, source) {
                    Some((kind, span)) => add(kind, span),
                    None if written.len() >= 20 && secrets::looks_secret(&written) => {
                        add(Written::Shaped, field.span);
                    }
                    None => {}
                }
            }
            for placeholder in &template.placeholders {
                if encodes_a_credential(&placeholder.expression) {
                    found.push(WrittenCredential {
                        template: template.name.to_string(),
                        pointer: placeholder.pointer(),
                        place: placeholder.place.described(),
                        written: Written::EncodedLiteral,
                        span: placeholder.span,
                    });
                }
            }
        }
        found
    }
}

/// The credential a field writes out by its place and name, if any.
fn in_field(field: &Field<'_>, text: &str, written: &str, source: &str) -> Option<(Written, Span)> {
    match &field.place {
        Place::Header(name) if is_authorization(name) => {
            holds_literal_credential(written).then(|| {
                let scheme = written
                    .split_whitespace()
                    .next()
                    .filter(|word| word.chars().all(|c| c.is_ascii_alphabetic()))
                    .filter(|_| written.split_whitespace().nth(1).is_some())
                    .map(str::to_owned);
                (Written::Authorization(scheme), field.span)
            })
        }
        Place::Header(name) => {
            names_a_secret(name, written).then(|| (Written::Header(name.to_string()), field.span))
        }
        Place::Query(name) => {
            names_a_secret(name, written).then(|| (Written::Query(name.to_string()), field.span))
        }
        Place::Path => path_query_secret(text, written).map(|(name, start, end)| {
            (
                Written::PathQuery(name),
                span_in_literal(source, field.span, start, end),
            )
        }),
        Place::Host => user_info(text).map(|(start, end)| {
            (
                Written::UserInfo,
                span_in_literal(source, field.span, start, end),
            )
        }),
        _ => None,
    }
}

/// The authorization schemes a credential follows in an `Authorization` value.
const SCHEMES: [&str; 4] = ["bearer", "basic", "token", "digest"];

fn is_scheme(word: &str) -> bool {
    SCHEMES
        .iter()
        .any(|scheme| word.eq_ignore_ascii_case(scheme))
}

/// Whether an `Authorization` value (its placeholders replaced by spaces) writes a credential
/// out: text other than placeholders after its scheme word (`Bearer abc`, `Basic
/// dXNlcjpwYXNz`), or a word that is not a scheme.
fn holds_literal_credential(literal: &str) -> bool {
    let mut words = literal.split_whitespace();
    let first = words.next();
    // `Token token=<%= … %>` leaves a parameter's name, not a secret, after the scheme.
    let after = words.any(|word| !is_parameter_name(word.trim_end_matches('"')));
    match first {
        None => false,
        Some(word) if is_scheme(word) => after,
        // `token=` alone is a parameter's name, not a secret.
        Some(word) => !is_parameter_name(word) || after,
    }
}

/// Whether `word` is a parameter's name and its `=` (`token=`), not a value that ends with
/// base64's padding (`ZHczOnMzY3IzdA==`, `token=abc=`): one `=`, after lower-case letters,
/// `_` or `-`, which base64 of a key or of a `user:password` pair hardly ever is alone.
fn is_parameter_name(word: &str) -> bool {
    word.strip_suffix('=').is_some_and(|name| {
        !name.is_empty()
            && name
                .bytes()
                .all(|byte| byte.is_ascii_lowercase() || matches!(byte, b'_' | b'-'))
    })
}

/// Whether a string written in code is a credential: shaped like a known one or a long random
/// token, or a scheme and a literal (`Bearer 8f3Kq2LmN5vX1tK9`, `Basic dXNlcjpwYXNz`).
pub(crate) fn is_written_credential(text: &str) -> bool {
    scheme_and_literal(text).is_some() || secrets::looks_secret(text)
}

/// A scheme and one literal word after it, as a string of code writes an `Authorization`
/// value (`Bearer 8f3Kq2LmN5vX1tK9`): the two, when the literal is long enough to be a secret.
pub(crate) fn scheme_and_literal(text: &str) -> Option<(&str, &str)> {
    let mut words = text.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(scheme), Some(literal), None)
            if is_scheme(scheme) && literal.len() >= SHORTEST_NAMED_SECRET =>
        {
            Some((scheme, literal))
        }
        _ => None,
    }
}

/// Whether `name` (a header's, a query parameter's, a property's or a variable's) names a
/// secret and `written`, the value's text outside placeholders, is a literal long enough to be
/// one.
pub(crate) fn names_a_secret(name: &str, written: &str) -> bool {
    let literal = written.trim();
    is_secret_name(name)
        && literal.len() >= SHORTEST_NAMED_SECRET
        && !literal.contains(char::is_whitespace)
}

/// Whether a header or parameter called `name` carries a secret: `X-Api-Key`, `apikey`,
/// `token`; not `X-Token-Type`, which describes one, nor `X-Auth-Client` or `X-Auth-Email`,
/// where `auth` names the scheme of an identifier sent beside the secret.
fn is_secret_name(name: &str) -> bool {
    matches!(secrets::key_sensitivity(name), Sensitivity::Word(word) if word != "auth")
}

/// Whether what is sent at `place` is a credential: the `Authorization` header, or a header
/// or query parameter named for a secret.
pub fn carries_credential(place: &Place<'_>) -> bool {
    match place {
        Place::Header(name) => is_authorization(name) || is_secret_name(name),
        Place::Query(name) => is_secret_name(name),
        _ => false,
    }
}

/// The query parameter that carries a secret whose value a placeholder is, from the path's
/// text up to the placeholder (`/x?page=2&apikey=`): `apikey`.
pub fn path_parameter_carrying_credential(before: &str) -> Option<&str> {
    let (_, query) = before.rsplit_once('?')?;
    let last = query.rsplit('&').next().unwrap_or(query);
    last.strip_suffix('=').filter(|name| is_secret_name(name))
}

fn is_authorization(name: &str) -> bool {
    name.eq_ignore_ascii_case("authorization") || name.eq_ignore_ascii_case("proxy-authorization")
}

/// The first `name=value` of the query string written in a path whose name names a secret
/// and whose value is a literal: (name, start and end of the value in `text`).
fn path_query_secret(text: &str, written: &str) -> Option<(String, usize, usize)> {
    // Placeholders were replaced by one space each: positions in `written` are not positions
    // in `text`, so the pair is found in `text` once `written` says there is one.
    written.split_once('?')?;
    let query_start = text.find('?')? + 1;
    let mut at = query_start;
    for pair in text[query_start..].split('&') {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value_start = at + name.len() + 1;
        at += pair.len() + 1;
        let mut value_written = String::new();
        push_placeholders_replaced(&mut value_written, value, ' ');
        if names_a_secret(name, &value_written) {
            return Some((name.to_owned(), value_start, value_start + value.len()));
        }
    }
    None
}

/// The `user:password` before `@` in a host (`https://user:password@api.example.com`): its
/// start and end in `host`.
fn user_info(host: &str) -> Option<(usize, usize)> {
    let start = host.find("://").map_or(0, |at| at + 3);
    let authority_end = host[start..].find('/').map_or(host.len(), |at| start + at);
    let at = host[start..authority_end].rfind('@')? + start;
    (at > start).then_some((start, at))
}

/// Whether a placeholder's expression encodes a literal credential: `encode('user:password')`
/// or a quoted literal that looks secret. The `':X'` of `encode(iparam.api_key + ':X')` and
/// the `':'` between two iparams are not.
fn encodes_a_credential(expression: &str) -> bool {
    if !expression.starts_with("encode(") {
        return false;
    }
    quoted_literals(expression).any(|literal| {
        let pair = literal
            .split_once(':')
            .is_some_and(|(user, password)| !user.is_empty() && !password.is_empty());
        pair || secrets::looks_secret(literal)
    })
}

/// The texts of the quoted literals (`'…'` or `"…"`) of an expression.
fn quoted_literals(expression: &str) -> impl Iterator<Item = &str> {
    let mut rest = expression;
    std::iter::from_fn(move || {
        let open = rest.find(['\'', '"'])?;
        let quote = rest[open..].chars().next()?;
        let after = &rest[open + 1..];
        let close = after.find(quote)?;
        rest = &after[close + 1..];
        Some(&after[..close])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse_value;

    fn found(json: &str) -> Vec<(Written, String)> {
        let (root, _) = parse_value(json);
        let requests = Requests::lower(root.as_ref(), true, json);
        requests
            .written_credentials(json)
            .into_iter()
            .map(|c| (c.written, json[c.span.start..c.span.end].to_owned()))
            .collect()
    }

    #[test]
    fn each_way_of_writing_a_credential_is_found_with_its_secret_part() {
        let json = r#"{"t": {"schema": {
            "host": "https://admin:Hunter2Passw0rd@acme.example.com",
            "path": "/api/x?page=2&apikey=k3yV4lu3Secr3t99",
            "headers": {"Authorization": "Basic YWRtaW46SHVudGVyMlBhc3N3MHJk",
                        "X-Api-Key": "q8Zr2LmN5vX1tK9w",
                        "Client-Secret": "plainsecretvalue12",
                        "Proxy-Authorization": "Basic <%= encode('admin:Hunter2Passw0rd') %>",
                        "X-Basic": "Basic ZHczOnMzY3IzdA=="},
            "query": {"token": "abcdefghijk12345"}}}}"#;
        let found = found(json);
        let kinds: Vec<&Written> = found.iter().map(|(kind, _)| kind).collect();
        assert!(
            found.contains(&(Written::UserInfo, "admin:Hunter2Passw0rd".to_owned())),
            "{found:?}"
        );
        assert!(found.contains(&(
            Written::PathQuery("apikey".into()),
            "k3yV4lu3Secr3t99".to_owned()
        )));
        assert!(kinds.contains(&&Written::Authorization(Some("Basic".into()))));
        assert!(kinds.contains(&&Written::Header("X-Api-Key".into())));
        assert!(kinds.contains(&&Written::Header("Client-Secret".into())));
        assert!(kinds.contains(&&Written::Query("token".into())));
        assert!(found.contains(&(Written::Shaped, "\"Basic ZHczOnMzY3IzdA==\"".to_owned())));
        assert!(found.contains(&(
            Written::EncodedLiteral,
            "encode('admin:Hunter2Passw0rd')".to_owned()
        )));
    }

    /// Base64's padding is no parameter's `=`: `Basic …==` and `Token token=…=` are written
    /// credentials, as they are without it.
    #[test]
    fn padded_credentials_are_found() {
        for value in [
            "Basic ZHczOnMzY3IzdA==",
            "Basic ZHczOnMzY3IzdEE=",
            "Token token=c2VjcmV0a2V5MTI=",
            "token=c2VjcmV0a2V5MTI=",
        ] {
            let json =
                format!(r#"{{"t": {{"schema": {{"headers": {{"Authorization": "{value}"}}}}}}}}"#);
            let kinds: Vec<Written> = found(&json).into_iter().map(|(kind, _)| kind).collect();
            assert_eq!(kinds.len(), 1, "{value}: {kinds:?}");
            assert!(matches!(kinds[0], Written::Authorization(_)), "{value}");
        }
    }

    #[test]
    fn secure_forms_and_names_that_describe_a_secret_are_not_credentials() {
        let json = r#"{"t": {"schema": {
            "host": "<%= iparam.domain %>.freshdesk.com",
            "path": "/api/x?page=2&token=<%= context.token %>",
            "headers": {"Authorization": "Basic <%= encode(iparam.api_key + ':X') %>",
                        "X-Auth": "Token token=<%= iparam.key %>",
                        "X-Api-Key": "<%= iparam.api_key %>",
                        "X-Token-Type": "Bearer-JWT-v2",
                        "X-Api-Version": "2024-01-01", "X-Auth-Client": "bc-client-0042",
                        "Proxy-Authorization": "Token token=<%= iparam.key %>"},
            "query": {"key": "<%= iparam.key %>", "sort": "created_at_desc"}}},
          "u": {"schema": {"headers": {"Authorization": "Bearer <%= access_token %>",
                "Other": "Basic <%= encode(iparam.user + ':' + iparam.password) %>"}}}}"#;
        assert_eq!(found(json), []);
    }
}
