//! `duplicate-key`: the same key twice in one object.

use crate::app::AppModel;
use crate::diagnostic::Severity;
use crate::fast_hash::FastHashMap;
use crate::model::Iparam;
use crate::pointer;
use crate::rules::framework::{
    AppContext, Area, Check, Context, Examples, FileCheck, Rule, same_check,
};
use crate::rules::helpers::{PackedSpan, fnv, repeats, string_at};
use crate::syntax::{Member, Value, ValueKind};

pub static RULE: Rule = Rule {
    name: "duplicate-key",
    severity: Severity::Error,
    area: Area::File,
    summary: "A key appears twice in the same object",
    docs: r#"`JSON.parse` keeps the last of two equal keys and silently drops the first, so one
of the two definitions never takes effect, whichever the author meant. This applies to iparam keys
and to attributes inside an iparam alike, and to the keys of a values file checked by `iparams-lint
values`, where the first of two values is dropped, and to the templates of an app's
config/requests.json and everything inside them."#,
    bad: r#"{
  "region": {"display_name": "Region", "type": "text"},
  "region": {"display_name": "Data centre", "type": "text"}
}
"#,
    good: r#"{
  "region": {"display_name": "Region", "type": "text"},
  "data_centre": {"display_name": "Data centre", "type": "text"}
}
"#,
    examples: Examples::Iparams,
    vendor: "Not checked: the first definition is dropped without a word.",
    fix: None,
    checks: &[
        Check::File(|| Box::<DuplicateKeys>::default()),
        Check::Values(|values, cx| check_value(values.object, None, cx)),
        Check::App(check_requests),
    ],
};

/// Every iparam key, by a hash of its text and the span of its literal (not a copy of the key:
/// a large file would hold its keys twice). Duplicates are found at the end, when every part
/// of the file has been joined ([`repeats`]).
#[derive(Default)]
struct DuplicateKeys {
    keys: Vec<(u64, PackedSpan)>,
}

impl FileCheck for DuplicateKeys {
    fn iparam(&mut self, iparam: &Iparam<'_, '_>, cx: &mut Context<'_>) {
        self.keys.push((
            fnv(iparam.key.text.bytes()),
            PackedSpan::of(iparam.key.span),
        ));
        let path = Path {
            segment: Segment::Key(&iparam.key.text),
            parent: None,
        };
        check_value(iparam.value, Some(&path), cx);
    }

    fn append(&mut self, later: Box<dyn FileCheck>) {
        self.keys.extend(same_check::<Self>(later).keys);
    }

    fn finish(&mut self, cx: &mut Context<'_>) {
        let keys = &self.keys;
        let text = cx.text();
        let key_at = |index: usize| string_at(text, keys[index].1.span());
        for (again, first) in repeats(keys.len(), |index| keys[index].0, key_at) {
            let (again, first) = (again as usize, first as usize);
            let key = key_at(again);
            cx.report(&RULE, keys[again].1.span(), format!("Iparam `{key}` is defined twice"))
                .label("defined again here")
                .related(keys[first].1.span(), "first defined here")
                .help("`JSON.parse` keeps only this later definition and drops the first; remove one, or give it another key.")
                .pointer(pointer::of_key(&key));
        }
    }
}

/// Objects this small are searched pairwise; larger ones through a map.
const PAIRWISE_LIMIT: usize = 16;

/// One step from an iparam's definition down to a nested value.
#[derive(Clone, Copy)]
enum Segment<'v> {
    Key(&'v str),
    Index(usize),
}

impl std::fmt::Display for Segment<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Segment::Key(key) => f.write_str(key),
            Segment::Index(index) => write!(f, "{index}"),
        }
    }
}

/// The way down to a value, a segment in each stack frame of the walk: a list of the segments
/// (and a pointer) is made only for an object that has a duplicate, and nothing is allocated
/// for the others.
#[derive(Clone, Copy)]
struct Path<'p, 'v> {
    segment: Segment<'v>,
    parent: Option<&'p Path<'p, 'v>>,
}

/// The segments of `path`, from the top.
fn segments<'v>(path: Option<&Path<'_, 'v>>) -> Vec<Segment<'v>> {
    let mut segments = Vec::new();
    let mut at = path;
    while let Some(step) = at {
        segments.push(step.segment);
        at = step.parent;
    }
    segments.reverse();
    segments
}

/// Walks the definition keeping the path down to each object; pointers are only built for
/// the objects that do have a duplicate.
fn check_value<'v>(value: &'v Value<'_>, path: Option<&Path<'_, 'v>>, cx: &mut Context<'_>) {
    walk(value, path, &mut |repeated, first, path| {
        let key = &repeated.key;
        let mut pointer = pointer_of(path);
        pointer::push(&mut pointer, &key.text);
        cx.report(
            &RULE,
            key.span,
            format!("Key `{}` appears twice in {}", key.text, place(path)),
        )
        .label("repeated here")
        .related(first.key.span, "first here")
        .help(format!(
            "`JSON.parse` keeps only the last `{}` and drops the first; remove one of them.",
            key.text
        ))
        .pointer(pointer);
    });
}

/// The same in config/requests.json, whose objects are templates rather than iparams.
fn check_requests(model: &AppModel<'_>, cx: &mut AppContext) {
    let Some(requests) = &model.requests else {
        return;
    };
    let Some(root) = &requests.root else {
        return;
    };
    let file = requests.file;
    walk(root, None, &mut |repeated, first, path| {
        let key = &repeated.key;
        let mut pointer = pointer_of(path);
        pointer::push(&mut pointer, &key.text);
        let (message, help) = match path {
            [] => (
                format!("Request template `{}` is defined twice", key.text),
                "`JSON.parse` keeps only this later template and drops the first; remove one, or give it another name (and update its invocations and the manifest).".to_owned(),
            ),
            [template, rest @ ..] => {
                let rest: Vec<String> = rest.iter().map(ToString::to_string).collect();
                let within = match rest.as_slice() {
                    [] => format!("template `{template}`"),
                    _ => format!("`{}` of template `{template}`", rest.join("/")),
                };
                (
                    format!("Key `{}` appears twice in {within}", key.text),
                    format!(
                        "`JSON.parse` keeps only the last `{}` and drops the first; remove one of them.",
                        key.text
                    ),
                )
            }
        };
        cx.report(file, &RULE, key.span, message)
            .label("repeated here")
            .related(first.key.span, "first here")
            .help(help)
            .pointer(pointer);
    });
}

/// Calls `report(repeated, first, path)` for every key repeated in an object of `value`.
fn walk<'v>(
    value: &'v Value<'_>,
    path: Option<&Path<'_, 'v>>,
    report: &mut dyn FnMut(&Member<'_>, &Member<'_>, &[Segment<'_>]),
) {
    match &value.kind {
        ValueKind::Object(members) => {
            report_duplicates(members, path, report);
            for member in members {
                let below = Path {
                    segment: Segment::Key(&member.key.text),
                    parent: path,
                };
                walk(&member.value, Some(&below), report);
            }
        }
        ValueKind::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                let below = Path {
                    segment: Segment::Index(index),
                    parent: path,
                };
                walk(item, Some(&below), report);
            }
        }
        _ => {}
    }
}

fn pointer_of(path: &[Segment<'_>]) -> String {
    let mut pointer = String::new();
    for segment in path {
        pointer::push(&mut pointer, &segment.to_string());
    }
    pointer
}

/// "iparam `code`", or "`regex` of iparam `code`", for the object at `path`.
fn place(path: &[Segment<'_>]) -> String {
    match path {
        [key] => format!("iparam `{key}`"),
        [key, rest @ ..] => {
            let rest: Vec<String> = rest.iter().map(ToString::to_string).collect();
            format!("`{}` of iparam `{key}`", rest.join("/"))
        }
        [] => "the file".to_owned(),
    }
}

fn report_duplicates(
    members: &[Member<'_>],
    path: Option<&Path<'_, '_>>,
    report: &mut dyn FnMut(&Member<'_>, &Member<'_>, &[Segment<'_>]),
) {
    if members.len() < 2 {
        return;
    }
    let first_of = |index: usize| -> Option<usize> {
        let key = &members[index].key.text;
        members[..index].iter().position(|m| &m.key.text == key)
    };
    let firsts: Vec<(usize, usize)> = if members.len() <= PAIRWISE_LIMIT {
        (1..members.len())
            .filter_map(|i| first_of(i).map(|first| (i, first)))
            .collect()
    } else {
        let mut seen: FastHashMap<&str, usize> = FastHashMap::default();
        (0..members.len())
            .filter_map(|i| match seen.get(members[i].key.text.as_ref()) {
                Some(&first) => Some((i, first)),
                None => {
                    seen.insert(&members[i].key.text, i);
                    None
                }
            })
            .collect()
    };
    if firsts.is_empty() {
        return;
    }
    let path = segments(path);
    for (index, first) in firsts {
        report(&members[index], &members[first], &path);
    }
}
