//! What the rules of several groups share (what only one group's rules share is in its
//! `mod.rs`): how values and iparams read in messages, regexes compiled and matched, repeated
//! strings, the fix that marks an iparam secure, JavaScript names, the methods and invocations of
//! request templates, and what file checks keep of each iparam to find repeats.

use std::collections::HashSet;
use std::collections::hash_map::Entry;

use crate::diagnostic::{Edit, Fix};
use crate::ecma_regex::{Compiled, MAX_ABANDONED, MAX_MATCH_INPUT, MatchOutcome, RegexEngine};
use crate::fast_hash::{FastHash, FastHashMap};
use crate::model::{Attribute, Iparam, RegexEntry};
use crate::positions::Positions;
use crate::span::Span;
use crate::syntax::{Value, parse_value};

use super::framework::Context;

/// How a value reads in a message: its source and kind when short (`` `"true"` (a string) ``),
/// its kind alone otherwise or when it is secret.
pub(crate) fn describe(cx: &Context<'_>, iparam: &Iparam<'_, '_>, value: &Value<'_>) -> String {
    let secret = iparam
        .secrets
        .iter()
        .any(|s| s.start < value.span.end && value.span.start < s.end);
    describe_value(cx.source(value.span), value, secret)
}

/// [`describe`] for a value whose source is `source` and whose secrecy is already known.
pub(crate) fn describe_value(source: &str, value: &Value<'_>, secret: bool) -> String {
    let kind = value.json_kind().described();
    if secret || source.len() > 40 || source.contains('\n') || kind == "null" {
        kind.to_owned()
    } else {
        format!("`{source}` ({kind})")
    }
}

/// Each string pattern of the iparam's `regex`, compiled; `definitions` is the text of the
/// iparams.json the iparam was lowered from.
pub(crate) fn compile_patterns<'a, 's>(
    iparam: &Iparam<'a, 's>,
    definitions: &str,
    regexes: &mut RegexEngine,
) -> Vec<(RegexEntry<'a, 's>, Compiled)> {
    let Some(found) = iparam.regexes() else {
        return Vec::new();
    };
    found
        .patterns
        .iter()
        .copied()
        .filter_map(|entry| {
            let pattern = entry.pattern.as_str()?;
            let literal = &definitions[entry.pattern.span.start..entry.pattern.span.end];
            Some((entry, regexes.compile(literal, pattern)))
        })
        .collect()
}

/// The outcome of each valid pattern of the iparam's `regex` on `text`, as the installation
/// page tests a value (patterns that do not compile are left to `invalid-regex`).
pub(crate) fn match_patterns<'a, 's>(
    iparam: &Iparam<'a, 's>,
    text: &str,
    definitions: &str,
    regexes: &mut RegexEngine,
) -> Vec<(RegexEntry<'a, 's>, MatchOutcome)> {
    compile_patterns(iparam, definitions, regexes)
        .into_iter()
        .filter_map(|(entry, compiled)| match compiled {
            Compiled::Valid(regex) => Some((entry, regexes.test(&regex, text))),
            _ => None,
        })
        .collect()
}

/// What a regex-timeout finding says of a match that did not finish.
pub(crate) struct Unfinished {
    /// Follows "Regex `name` of iparam `key`", before "the default value" or "the value".
    pub verb: String,
    pub label: &'static str,
    pub help: String,
}

/// How to report `outcome`, when the match did not finish; `None` when it did.
pub(crate) fn unfinished(outcome: MatchOutcome, regexes: &RegexEngine) -> Option<Unfinished> {
    match outcome {
        MatchOutcome::Matched | MatchOutcome::NotMatched => None,
        MatchOutcome::TimedOut => Some(Unfinished {
            verb: format!("ran for over {} ms on", regexes.timeout().as_millis()),
            label: "catastrophic backtracking",
            help: "The pattern repeats a repetition (as in `(a+)+`), so some values take \
                   exponential time and would freeze the installation page. Rewrite it without \
                   nested repetition."
                .to_owned(),
        }),
        MatchOutcome::Skipped => Some(Unfinished {
            verb: "was not run on".to_owned(),
            label: "not checked",
            help: format!(
                "Matching stops for a text over {MAX_MATCH_INPUT} bytes and, for a pattern that \
                 repeats a group, once {MAX_ABANDONED} matches have run out of time: whether this \
                 one matches is not known. Fix the patterns reported as too slow first."
            ),
        }),
    }
}

/// Each string of `items` that repeats an earlier one: its index, itself and the first one.
pub(crate) fn repeated_strings<'v, 's>(
    items: &'v [Value<'s>],
) -> impl Iterator<Item = (usize, &'v str, &'v Value<'s>, &'v Value<'s>)> {
    let positions = Positions::new(items, Value::as_str);
    items.iter().enumerate().filter_map(move |(index, item)| {
        let text = item.as_str()?;
        let first = positions.first(text).filter(|&first| first < index)?;
        Some((index, text, item, &items[first]))
    })
}

/// The fix that marks an iparam secure: `false` becomes `true`, or `"secure": true` is added.
pub(crate) fn mark_secure(cx: &Context<'_>, iparam: &Iparam<'_, '_>) -> Option<Fix> {
    let edit = match iparam.get(Attribute::Secure) {
        Some(member) => Edit::replace(member.value.span, "true"),
        None => crate::edits::insert_member(cx.text(), iparam.value, "secure", "true")?,
    };
    Some(Fix::unsafe_("Mark it `\"secure\": true`", vec![edit]))
}

/// The iparam named with its type, as messages refer to it: "the dropdown iparam `priority`".
pub(crate) fn subject(iparam: &Iparam<'_, '_>) -> String {
    match iparam.known_type() {
        Some(ty) => format!("the {} iparam `{}`", ty.name(), iparam.key.text),
        None => format!("iparam `{}`", iparam.key.text),
    }
}

/// The text with its first letter in upper case, to open a sentence.
pub(crate) fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    let Some(first) = chars.next() else {
        return String::new();
    };
    // The rest copied whole, not a character at a time.
    let mut capitalised = String::with_capacity(text.len() + 2);
    capitalised.extend(first.to_uppercase());
    capitalised.push_str(chars.as_str());
    capitalised
}

pub(crate) const RESERVED: [&str; 46] = [
    "await",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "implements",
    "import",
    "in",
    "instanceof",
    "interface",
    "let",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "static",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

/// `name` with every character an identifier cannot hold made `_`: what to suggest instead
/// of a key that is not one (`api-key` → `api_key`).
pub fn as_identifier(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '$' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Whether `name` is a JavaScript identifier that can name a function.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first.is_alphabetic() || first == '_' || first == '$')
        && chars.all(|c| {
            c.is_alphanumeric() || c == '_' || c == '$' || c == '\u{200c}' || c == '\u{200d}'
        })
        && !RESERVED.contains(&name)
}

/// The methods a request template may use.
pub(crate) const METHODS: [&str; 5] = ["GET", "POST", "PUT", "DELETE", "PATCH"];

/// Every template invocation of the app's code, with the file it is in and where that code runs.
pub(crate) fn invocations<'m>(
    model: &'m crate::app::AppModel<'_>,
) -> impl Iterator<
    Item = (
        crate::app::FileId,
        crate::app::Script,
        &'m crate::app::Invocation,
    ),
> {
    model.scripts().flat_map(|(file, script, facts)| {
        facts
            .invocations
            .iter()
            .map(move |invocation| (file, script, invocation))
    })
}

/// FNV-1a: fast on short texts (keys, labels), which is all it hashes. The rules that keep a
/// hash for every iparam of a large file, instead of a copy of its text, compare the texts of
/// equal hashes ([`string_at`]).
pub(crate) fn fnv(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The repeats among `count` items in file order, known by a hash each and their text read
/// back from the source: each item whose text equals an earlier one's, with the first item of
/// that text, in the order of the later ones. Texts are read only for items whose hash (its top
/// half) an earlier one has, and equal hashes of different texts are no repeat.
pub(crate) fn repeats(
    count: usize,
    hash_of: impl Fn(usize) -> u64,
    text_of: impl Fn(usize) -> String,
) -> Vec<(u32, u32)> {
    // One pass in file order, with the first item of each hash in a map: cheaper than sorting
    // every item by hash. Keyed by the top half of each hash, a slot takes 8 bytes, not 16.
    let half = |index: usize| (hash_of(index) >> 32) as u32;
    let mut first_of_hash: FastHashMap<u32, u32> =
        FastHashMap::with_capacity_and_hasher(count, FastHash::default());
    // The items of a hash met again are told apart by their texts, in a map of the texts: its
    // hasher is seeded, so texts cannot be made in advance to collide there, as they can be
    // made to share the top half of `hash_of`.
    let mut met_again: HashSet<u32, FastHash> = HashSet::default();
    let mut first_of_text: FastHashMap<String, u32> = FastHashMap::default();
    let mut pairs = Vec::new();
    for index in 0..count as u32 {
        let hash = half(index as usize);
        let first = *first_of_hash.entry(hash).or_insert(index);
        if first == index {
            continue;
        }
        if met_again.insert(hash) {
            first_of_text.insert(text_of(first as usize), first);
        }
        match first_of_text.entry(text_of(index as usize)) {
            Entry::Occupied(first) => pairs.push((index, *first.get())),
            Entry::Vacant(place) => {
                place.insert(index);
            }
        }
    }
    pairs
}

/// A span in half the room, for what a rule keeps of every iparam of a file (files are below
/// 4 GiB, as the line index assumes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct PackedSpan {
    start: u32,
    end: u32,
}

impl PackedSpan {
    /// No span: a literal is never empty (it has its quotes).
    pub const NONE: PackedSpan = PackedSpan { start: 0, end: 0 };

    pub fn of(span: Span) -> Self {
        Self {
            start: span.start as u32,
            end: span.end as u32,
        }
    }

    pub fn span(self) -> Span {
        Span::new(self.start as usize, self.end as usize)
    }
}

/// The text of the string or key whose literal is at `span`, escapes resolved.
pub(crate) fn string_at(text: &str, span: Span) -> String {
    let literal = &text[span.start..span.end];
    parse_value(literal)
        .0
        .as_ref()
        .and_then(Value::as_str)
        .map_or_else(
            // A key the parser read past a mistake (single quotes, none) is what they enclose.
            || literal.trim_matches(['\'', '"']).to_owned(),
            ToOwned::to_owned,
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The repeats among `texts`, each hashed by `hash`.
    fn repeats_of(texts: &[&str], hash: impl Fn(&str) -> u64) -> Vec<(u32, u32)> {
        repeats(
            texts.len(),
            |index| hash(texts[index]),
            |index| texts[index].to_owned(),
        )
    }

    #[test]
    fn repeats_pair_each_later_text_with_its_first_in_file_order() {
        let texts = ["a", "b", "c", "a", "c", "b", "d", "c", "a", "e"];
        let shared = |text: &str| match text {
            "b" | "c" | "e" => 7,
            other => fnv(other.bytes()),
        };
        let expected = vec![(3, 0), (4, 2), (5, 1), (7, 2), (8, 0)];
        assert_eq!(repeats_of(&texts, shared), expected);
        // Every text of one hash: each is still told apart by its text.
        assert_eq!(repeats_of(&texts, |_| 1), expected);
        assert_eq!(repeats_of(&texts, |text| fnv(text.bytes())), expected);
        assert_eq!(repeats_of(&["x", "y", "z"], |_| 0), Vec::new());
        assert_eq!(repeats_of(&[], |_| 0), Vec::new());
    }

    /// Thousands of texts made to share one hash are still told apart, each read once.
    #[test]
    fn texts_of_one_hash_are_told_apart_each_read_once() {
        let texts: Vec<String> = (0..20_000)
            .map(|n| format!("label {}", n % 10_000))
            .collect();
        let reads = std::cell::Cell::new(0);
        let pairs = repeats(
            texts.len(),
            |_| 0xABCD_0000_0000_0000,
            |index| {
                reads.set(reads.get() + 1);
                texts[index].clone()
            },
        );
        assert_eq!(reads.get(), texts.len());
        assert_eq!(pairs.len(), 10_000);
        assert!(pairs.iter().all(|&(later, first)| later == first + 10_000));
    }

    #[test]
    fn identifiers() {
        for ok in ["onChange", "_x", "$fn", "validate2", "überprüfen"] {
            assert!(is_identifier(ok), "{ok}");
        }
        for bad in [
            "",
            "2fast",
            "check-domain",
            "a.b",
            "fn()",
            "function",
            "my fn",
        ] {
            assert!(!is_identifier(bad), "{bad}");
        }
    }
}
