//! A large document read in stretches on every thread, each from a guessed top-level comma; a
//! guess is kept only once the stretch before it, itself kept, ends there.
//!
//! Right after a top-level comma, all the parser knows is its position: it is one level deep,
//! nothing below the top is open, and the comma before is known. So a stretch read from a true
//! boundary reads exactly what reading the whole document would from there: the same members
//! and the same errors, in the same order. A guess that is no boundary (inside a string, or
//! deeper in the tree) is found out when the stretch before it reads past it: that stretch
//! reads on to the next guess, and what was read from the wrong one is dropped. Wrong guesses
//! cost time, never the result.

use std::sync::{Mutex, PoisonError};

use memchr::memmem;
use rayon::prelude::*;

use super::error::SyntaxError;
use super::parser::{Document, Fatal, Parser, RootShape, parse_document};
use super::tree::Member;
use crate::span::Span;
use crate::sync::lock;

/// Reads a stretch of members, handing each to the function it is given, in order.
pub type ReadStretch<'a, 's> = &'a mut dyn FnMut(&mut dyn FnMut(Member<'s>));

/// Parses `text` like [`parse_document`], reading its top-level object in stretches at once:
/// from its opening, and from each of `guesses` that is right after a comma. `each_stretch` is
/// given a stretch to read (it must read it, once) and returns what it made of its members;
/// what was made of the stretches kept is handed to `join` in order, as soon as each is known to
/// be kept (while later ones are read). Together they saw each member once, as
/// [`parse_document`] hands them over.
pub fn parse_document_in_stretches<'s, S: Send>(
    text: &'s str,
    guesses: &[usize],
    each_stretch: impl Fn(ReadStretch<'_, 's>) -> S + Sync,
    mut join: impl FnMut(S) + Send,
) -> Document {
    let Some((opening, open)) = top_level_object(text) else {
        // Not an object, or nothing to read: there are no stretches.
        let mut document = None;
        let made = each_stretch(&mut |on_member| document = Some(parse_document(text, on_member)));
        join(made);
        return document.expect("the stretch is read");
    };
    let first = open.end;
    let bytes = text.as_bytes();
    let mut starts = vec![first];
    starts.extend(
        guesses
            .iter()
            .copied()
            .filter(|&at| at > first && at < bytes.len() && bytes[at - 1] == b','),
    );
    starts.sort_unstable();
    starts.dedup();
    // The chain of stretches kept, with what joins them, behind one lock: each is joined in
    // order as the chain reaches it.
    let joined = Mutex::new((Chain::new(starts.len()), &mut join));
    let read_stretch = |index: usize| {
        let from = starts[index];
        let mut parser = Parser::in_stretch(text, from, starts[index + 1..].to_vec());
        let comma = (index > 0).then(|| Span::new(from - 1, from));
        let mut read = None;
        let made = each_stretch(&mut |on_member| {
            read = Some(parser.read_members(open, comma, Some(on_member)));
        });
        let end = match read.expect("each stretch is read") {
            Ok(Some(stop)) => End::Stopped(stop),
            Ok(None) => End::Closed(parser.pos),
            Err(Fatal) => End::Fatal,
        };
        Stretch {
            made,
            errors: parser.errors,
            end,
        }
    };
    // Each thread takes the next stretch in file order, so that the chain is known as early as
    // can be, and the stretches it has no need of are not read.
    let threads = rayon::current_num_threads().min(starts.len());
    (0..threads).into_par_iter().for_each(|_| {
        loop {
            // Taken with the lock given back at once: it is not held while the stretch is read.
            let Some(index) = lock(&joined).0.take() else {
                break;
            };
            let stretch = read_stretch(index);
            let (chain, join) = &mut *lock(&joined);
            chain.arrive(index, stretch, &starts, join);
        }
    });
    let (chain, _) = joined.into_inner().unwrap_or_else(PoisonError::into_inner);
    let cut_short = opening.partial_root();
    let mut errors = opening.errors;
    errors.extend(chain.errors);
    let root = match chain.end {
        Some(End::Closed(brace)) => {
            let mut closing = Parser::at(text, brace + 1);
            closing.after_root();
            errors.extend(closing.errors);
            RootShape::Object(Span::new(open.start, brace + 1))
        }
        // At a fatal error.
        _ => cut_short,
    };
    Document { root, errors }
}

/// A parser right at the `{` of `text`'s top-level object, having read what comes before it
/// (a byte-order mark, whitespace, comments), and the brace; `None` if the top level is no
/// object.
fn top_level_object(text: &str) -> Option<(Parser<'_>, Span)> {
    let mut opening = Parser::new(text);
    if opening.skip_trivia().is_err() || opening.peek() != Some(b'{') {
        return None;
    }
    let open = Span::new(opening.pos, opening.pos + 1);
    Some((opening, open))
}

/// The stretches read so far, and how far those kept go: from the first, each kept stretch
/// leads to the one that starts where it stopped, up to one that ends the object.
struct Chain<S> {
    /// The stretches read and not yet reached by the chain.
    read: Vec<Option<Stretch<S>>>,
    /// The next stretch to take.
    taken: usize,
    /// The stretch the chain goes on with, once it is read; `None` once it has ended.
    next: Option<usize>,
    /// The errors of the stretches kept, in order.
    errors: Vec<SyntaxError>,
    /// How the last stretch kept ended.
    end: Option<End>,
}

impl<S> Chain<S> {
    fn new(stretches: usize) -> Self {
        Self {
            read: (0..stretches).map(|_| None).collect(),
            taken: 0,
            next: Some(0),
            errors: Vec::new(),
            end: None,
        }
    }

    /// The next stretch to read, in order, passing over those known not to be kept: the chain
    /// went past them (their start was no boundary), or ended before them (at a fatal error).
    fn take(&mut self) -> Option<usize> {
        let next = self.next?;
        self.taken = self.taken.max(next);
        let index = self.taken;
        (index < self.read.len()).then(|| {
            self.taken += 1;
            index
        })
    }

    /// Takes stretch `index`, read, and carries the chain on as far as the stretches read go,
    /// handing what was made of each stretch it reaches to `join`.
    fn arrive(
        &mut self,
        index: usize,
        stretch: Stretch<S>,
        starts: &[usize],
        join: &mut impl FnMut(S),
    ) {
        self.read[index] = Some(stretch);
        while let Some(next) = self.next
            && let Some(stretch) = self.read[next].take()
        {
            self.next = match stretch.end {
                End::Stopped(at) => starts.binary_search(&at).ok(),
                End::Closed(_) | End::Fatal => None,
            };
            self.errors.extend(stretch.errors);
            self.end = Some(stretch.end);
            join(stretch.made);
        }
        // Those the chain went past will not be reached: they are freed now.
        let reached = self.next.unwrap_or(self.read.len());
        self.read[..reached]
            .iter_mut()
            .for_each(|read| *read = None);
    }
}

/// A stretch of the top-level object's members, read on its own.
struct Stretch<S> {
    /// What the caller made of its members.
    made: S,
    errors: Vec<SyntaxError>,
    end: End,
}

/// Where a stretch ended.
enum End {
    /// Right after the top-level comma at this place, where a later stretch starts.
    Stopped(usize),
    /// At the `}` here, closing the top-level object.
    Closed(usize),
    /// At a fatal error, recorded with the others.
    Fatal,
}

/// For each of the byte offsets `near` (in increasing order), the first place from it and before
/// the next that looks like it is right after a top-level comma: a comma after a `}`, followed
/// by the whitespace that indents the first member and by a quote (`},\n  "` in a file indented
/// by two spaces, `},"` in one without whitespace). Deeper members are indented more, so in a
/// file indented throughout the guesses are seldom wrong; and wrong ones only cost time.
pub fn likely_boundaries(text: &str, near: &[usize]) -> Vec<usize> {
    let Some((_, Span { start: open, .. })) = top_level_object(text) else {
        return Vec::new();
    };
    let bytes = text.as_bytes();
    let is_space = |byte: &u8| matches!(byte, b' ' | b'\t' | b'\n' | b'\r');
    let indent_length = bytes[open + 1..]
        .iter()
        .take_while(|byte| is_space(byte))
        .count();
    let key = open + 1 + indent_length;
    if bytes.get(key) != Some(&b'"') {
        return Vec::new();
    }
    let mut needle = Vec::with_capacity(indent_length + 2);
    needle.push(b',');
    needle.extend_from_slice(&bytes[open + 1..key]);
    needle.push(b'"');
    let finder = memmem::Finder::new(&needle);
    let mut guesses = Vec::with_capacity(near.len());
    for (index, &from) in near.iter().enumerate() {
        let to = near
            .get(index + 1)
            .map_or(bytes.len(), |&next| next.min(bytes.len()));
        let mut at = from.min(to);
        while let Some(found) = finder.find(&bytes[at..to]) {
            let comma = at + found;
            // Whitespace before the comma is short in any real file: a long run is passed by.
            let before = bytes[comma.saturating_sub(64)..comma]
                .iter()
                .rev()
                .find(|byte| !is_space(byte));
            if before == Some(&b'}') {
                guesses.push(comma + 1);
                break;
            }
            at = comma + 1;
        }
    }
    guesses
}

/// `count - 1` offsets that cut `len` bytes in `count` equal parts, for [`likely_boundaries`].
#[cfg(test)]
pub(crate) fn evenly(len: usize, count: usize) -> Vec<usize> {
    (1..count).map(|part| part * len / count).collect()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The document and members of `text` read in stretches from `guesses`, the members of
    /// each stretch kept by themselves.
    fn in_stretches<'s>(text: &'s str, guesses: &[usize]) -> (Document, Vec<Vec<Member<'s>>>) {
        let mut kept = Vec::new();
        let document = parse_document_in_stretches(
            text,
            guesses,
            |read| {
                let mut members = Vec::new();
                read(&mut |member| members.push(member));
                members
            },
            |members| kept.push(members),
        );
        (document, kept)
    }

    /// Reading `text` from every one of `guesses` gives what reading it whole gives.
    fn agrees_with_whole(text: &str, guesses: &[usize]) {
        let mut whole = Vec::new();
        let document = parse_document(text, |member| whole.push(member));
        let (stretched, kept) = in_stretches(text, guesses);
        assert_eq!(stretched.root, document.root, "{text:?} from {guesses:?}");
        assert_eq!(
            stretched.errors, document.errors,
            "{text:?} from {guesses:?}"
        );
        assert_eq!(kept.concat(), whole, "{text:?} from {guesses:?}");
    }

    /// Every place right after a comma, whatever the comma's depth or whether it is in a
    /// string or a comment.
    fn after_every_comma(text: &str) -> Vec<usize> {
        text.match_indices(',').map(|(at, _)| at + 1).collect()
    }

    const DOCUMENTS: &[&str] = &[
        "{\"a\": {\"x\": 1}, \"b\": [1, {\"c\": \"d,e\"}], \"f\": {}}",
        "{\"a\": 1,, \"b\": 2,}",
        "{\"a\": 1, // a comment, with a comma\n \"b\": 2, /* and, another */ \"c\": 3}",
        "{\"a\": \"cut at the line end,\n \"b\": 2, \"c\" 3, \"d\": 4}",
        "{\"a\": 1, \"b\": 2} trailing, content",
        "{\"a\": 1, \"b\": {\"c\": 2, \"d\": [3, 4}, \"e\": 5}",
        "{\"a\": 1, \"b\": 2",
        "{\"a\": 1, 'b': True, c: nope, \"d\": 1e, \"e\": \"\\q,\"}",
        "\u{feff}  {\"a\": 1, \"b\": 2}",
        "[1, 2, 3]",
        "",
        "   ,",
        "/* unterminated, comment",
        "{\"a\": 1, \"b\": 2}, {\"c\": 3}",
        "{\"a\": 1 \"b\": 2, \"c\": 3}",
    ];

    #[test]
    fn stretches_from_any_comma_read_what_the_whole_document_reads() {
        for text in DOCUMENTS {
            let commas = after_every_comma(text);
            agrees_with_whole(text, &commas);
            for (index, &comma) in commas.iter().enumerate() {
                agrees_with_whole(text, &[comma]);
                agrees_with_whole(text, &commas[index..]);
            }
        }
    }

    #[test]
    fn places_not_after_a_comma_are_no_guesses() {
        let text = "{\"a\": 1, \"b\": 2}";
        let (_, kept) = in_stretches(text, &[0, 3, 8, 9, 16, 17, 100]);
        let sizes: Vec<usize> = kept.iter().map(Vec::len).collect();
        assert_eq!(
            sizes,
            [1, 1],
            "only the place after the comma (8) starts a stretch"
        );
    }

    #[test]
    fn a_wrong_guess_is_dropped_and_read_by_the_stretch_before() {
        // The second comma is inside the value of `a`: a stretch from it reads `y` as if it
        // were a member of the top level, and ends at `a`'s brace.
        let text = "{\"a\": {\"x\": 1, \"y\": 2}, \"b\": 3}";
        let (document, kept) = in_stretches(text, &after_every_comma(text));
        let keys: Vec<Vec<&str>> = kept
            .iter()
            .map(|members| members.iter().map(|member| &*member.key.text).collect())
            .collect();
        assert_eq!(keys, [vec!["a"], vec!["b"]]);
        assert!(document.errors.is_empty(), "{:?}", document.errors);
    }

    #[test]
    fn stretches_the_chain_has_no_need_of_are_not_read() {
        // The guesses: inside `a` (wrong), before `c`, before `d`, and after the fatal error.
        let text = "{\"a\": {\"x\": 1, \"y\": 2}, \"c\": 3, \"d\": 4 \"e\" 5, \"f\": 6}";
        let guesses = after_every_comma(text);
        assert_eq!(guesses.len(), 4);
        // On one thread, the stretches are taken strictly in order.
        let one_thread = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a pool of one thread");
        let read = std::sync::atomic::AtomicUsize::new(0);
        let mut kept = Vec::new();
        let document = one_thread.install(|| {
            parse_document_in_stretches(
                text,
                &guesses,
                |stretch| {
                    read.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let mut keys = Vec::new();
                    stretch(&mut |member| keys.push(member.key.text.into_owned()));
                    keys
                },
                |keys| kept.push(keys),
            )
        });
        assert_eq!(kept, [vec!["a"], vec!["c"], vec!["d"]]);
        assert!(document.is_incomplete());
        // The one from inside `a` was passed over, the one after the error never needed.
        assert_eq!(read.into_inner(), 3);
    }

    #[test]
    fn guesses_of_an_indented_file_are_its_boundaries() {
        let members: Vec<String> = (0..400)
            .map(|n| {
                format!(
                    "  \"key_{n}\": {{\n    \"type\": \"text\",\n    \"options\": [{{\"a\": 1}}, {{\"b\": 2}}],\n    \"nested\": {{\"c\": 3}},\n    \"d\": \"x\"\n  }}"
                )
            })
            .collect();
        let text = format!("{{\n{}\n}}\n", members.join(",\n"));
        for text in [text.clone(), text.replace('\n', "\r\n")] {
            let guesses = likely_boundaries(&text, &evenly(text.len(), 8));
            assert_eq!(guesses.len(), 7, "{guesses:?}");
            let (_, kept) = in_stretches(&text, &guesses);
            assert_eq!(kept.len(), 8, "every guess was a boundary");
            assert_eq!(kept.iter().map(Vec::len).sum::<usize>(), 400);
            agrees_with_whole(&text, &guesses);
        }
        let minified = format!("{{{}}}", members.join(",")).replace(['\n', ' '], "");
        let guesses = likely_boundaries(&minified, &evenly(minified.len(), 4));
        assert_eq!(guesses.len(), 3, "{guesses:?}");
        agrees_with_whole(&minified, &guesses);
    }

    #[test]
    fn no_guesses_without_a_top_level_object_of_quoted_keys() {
        for text in ["", "   ", "[1, 2]", "{a: 1, b: 2}", "{}", "\"text\""] {
            assert!(
                likely_boundaries(text, &evenly(text.len(), 4)).is_empty(),
                "{text:?}"
            );
        }
    }

    /// Pieces of JSON-like text, well or badly formed, with commas at every depth.
    const PIECES: &[&str] = &[
        "{", "}", "[", "]", ",", ",", ", ", ":", "\"k\"", "\"k\": ", "\"a,b\"", "1", "true", "nul",
        "'q'", "// c,\n", "/* , */", "\n", "\"cut,\n", "\\", " ", "\"k\": {", "},\n  \"",
    ];

    proptest! {
        #[test]
        fn random_documents_read_in_stretches_agree(
            pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..60),
            picks in proptest::collection::vec(any::<bool>(), 0..60),
        ) {
            let text = format!("{{{}", pieces.concat());
            let commas = after_every_comma(&text);
            let guesses: Vec<usize> = commas
                .iter()
                .zip(picks.iter().cycle())
                .filter(|(_, pick)| **pick)
                .map(|(at, _)| *at)
                .collect();
            agrees_with_whole(&text, &guesses);
            agrees_with_whole(&text, &commas);
        }
    }
}
