//! "Did you mean ...?" for misspelt names, and names and values as messages list and quote them.

use std::borrow::Cow;
use std::cell::RefCell;

use crate::fast_hash::FastHashMap;

/// Among more candidates than this, nothing is suggested: each is compared in turn, a list
/// can be checked item by item against another, and no one browses so long a list for a typo.
const MAX_CANDIDATES: usize = 256;

/// Words longer than this are compared whole, not by edit distance: a typo is found in a word,
/// and the distance costs the product of the two lengths.
const MAX_EDITED_LENGTH: usize = 64;

/// Lists longer than this are cut short in messages.
const MAX_LISTED: usize = 20;

/// Values and words longer than this (in characters) are shortened in messages.
const QUOTED_LIMIT: usize = 60;

/// The candidate `input` most likely meant, if one is close enough to be worth suggesting.
///
/// Case and separators are forgiven first (`Data-bind`, `defaultValue`, `phone-number`), then
/// small edit distances, scaled to the length of the word.
pub fn closest<'c>(input: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    nearest(input, candidates).map(|(candidate, _)| candidate)
}

/// [`closest`] among the names of a fixed set (`set` identifies it: its address is the key),
/// remembered per thread: a misspelling tends to repeat in every iparam of a file.
pub fn closest_in<T: ?Sized>(
    input: &str,
    set: &'static T,
    names: impl IntoIterator<Item = &'static str>,
) -> Option<&'static str> {
    type Remembered = FastHashMap<(usize, Box<str>), Option<&'static str>>;
    thread_local! {
        static REMEMBERED: RefCell<Remembered> = RefCell::default();
    }
    const LIMIT: usize = 1024;
    let set = std::ptr::from_ref(set).cast::<()>() as usize;
    REMEMBERED.with_borrow_mut(|remembered| {
        if let Some(found) = remembered.get(&(set, input.into())) {
            return *found;
        }
        let found = closest(input, names);
        if remembered.len() >= LIMIT {
            remembered.clear();
        }
        remembered.insert((set, input.into()), found);
        found
    })
}

/// [`closest`], unless another candidate is just as close: among `option1`, `option2` and
/// `option3`, `option4` suggests nothing, while `Option2` suggests `option2`.
pub fn closest_unique<'c>(
    input: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    nearest(input, candidates)
        .filter(|(_, tied)| !tied)
        .map(|(candidate, _)| candidate)
}

/// The closest candidate, and whether another one is as close.
fn nearest<'c>(
    input: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<(&'c str, bool)> {
    let wanted = normalized(input, Vec::new());
    if wanted.is_empty() {
        return None;
    }
    let limit = match wanted.len() {
        0..=3 => 1,
        4..=7 => 2,
        _ => 3,
    };
    // Past this many candidates nothing is suggested (see MAX_CANDIDATES); a list known to be
    // that long is not even started on.
    let candidates = candidates.into_iter();
    if candidates.size_hint().0 > MAX_CANDIDATES {
        return None;
    }
    let mut candidates = candidates.take(MAX_CANDIDATES + 1).enumerate();
    // Buffers reused for every candidate: this runs for each finding of a misspelt name.
    let mut word = Vec::new();
    let mut rows = Rows::default();
    let mut best: Option<(usize, &str)> = None;
    let mut tied = false;
    for (index, candidate) in candidates.by_ref() {
        if index == MAX_CANDIDATES {
            return None;
        }
        word = normalized(candidate, word);
        let distance = if word == wanted {
            0
        } else if wanted.len() >= 3 && word.starts_with(&wanted) {
            // An abbreviation: `warn`, `multi`.
            1
        } else if word.len().abs_diff(wanted.len()) > limit || wanted.len() > MAX_EDITED_LENGTH {
            // The edit distance is at least the difference in length.
            continue;
        } else {
            match rows.distance(&wanted, &word, limit) {
                Some(distance) => distance,
                None => continue,
            }
        };
        match best {
            Some((d, _)) if distance == d => tied = true,
            Some((d, _)) if distance > d => {}
            _ => {
                best = Some((distance, candidate));
                tied = false;
            }
        }
    }
    best.map(|(_, candidate)| (candidate, tied))
}

/// `word` in the form names are compared in: lower case, without `_`, `-`, `.` and spaces;
/// written into `buffer`.
fn normalized(word: &str, mut buffer: Vec<char>) -> Vec<char> {
    buffer.clear();
    buffer.extend(
        word.chars()
            .filter(|c| !matches!(c, '_' | '-' | ' ' | '.'))
            .flat_map(char::to_lowercase),
    );
    buffer
}

/// The rows of the optimal string alignment distance (Damerau–Levenshtein without repeated
/// edits of a substring), kept between calls.
#[derive(Default)]
struct Rows {
    before_previous: Vec<usize>,
    previous: Vec<usize>,
    current: Vec<usize>,
}

impl Rows {
    /// The distance from `a` to `b`, or `None` once it is sure to exceed `limit`.
    fn distance(&mut self, a: &[char], b: &[char], limit: usize) -> Option<usize> {
        let width = b.len() + 1;
        for row in [
            &mut self.before_previous,
            &mut self.previous,
            &mut self.current,
        ] {
            row.clear();
            row.resize(width, 0);
        }
        self.previous
            .iter_mut()
            .enumerate()
            .for_each(|(j, cell)| *cell = j);
        for i in 1..=a.len() {
            self.current[0] = i;
            let mut smallest = i;
            for j in 1..width {
                let substitution = usize::from(a[i - 1] != b[j - 1]);
                let mut cell = (self.previous[j] + 1)
                    .min(self.current[j - 1] + 1)
                    .min(self.previous[j - 1] + substitution);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    cell = cell.min(self.before_previous[j - 2] + 1);
                }
                self.current[j] = cell;
                smallest = smallest.min(cell);
            }
            // Every later row only grows from this one's smallest cell.
            if smallest > limit {
                return None;
            }
            std::mem::swap(&mut self.before_previous, &mut self.previous);
            std::mem::swap(&mut self.previous, &mut self.current);
        }
        let distance = self.previous[b.len()];
        (distance <= limit).then_some(distance)
    }
}

/// `a`, `b` and `c` → "`a`, `b`, `c`".
pub fn list<'w>(words: impl IntoIterator<Item = &'w str>) -> String {
    joined(words, '`')
}

/// `words` without repeats, each where it first comes: a list of options written twice (a
/// mistake of its own) is told once.
pub fn distinct<'w>(words: impl IntoIterator<Item = &'w str>) -> Vec<&'w str> {
    let mut seen = std::collections::HashSet::new();
    words
        .into_iter()
        .filter(|word| seen.insert(*word))
        .collect()
}

/// Quoted JSON strings: `"Low", "High"`; a long list ends with how many more there are.
pub fn quoted_list<'w, W>(words: W) -> String
where
    W: IntoIterator<Item = &'w str>,
    W::IntoIter: ExactSizeIterator,
{
    let mut words = words.into_iter();
    let mut listed = joined(words.by_ref().take(MAX_LISTED), '"');
    // Told, not counted: the list can be long, and each finding about it lists it.
    let more = words.len();
    if more > 0 {
        listed.push_str(&format!(", and {more} more"));
    }
    listed
}

fn joined<'w>(words: impl IntoIterator<Item = &'w str>, quote: char) -> String {
    let mut out = String::new();
    for word in words {
        if !out.is_empty() {
            out.push_str(", ");
        }
        out.push(quote);
        out.push_str(&shortened(word));
        out.push(quote);
    }
    out
}

/// `text` (a word, or a value as written) cut for a message, which names a value and need not
/// reproduce a long one: at most [`QUOTED_LIMIT`] characters and no line break, ending in `…`
/// (and the closing quote of a string) where cut.
pub fn shortened(text: &str) -> Cow<'_, str> {
    // Asked for every name a message may quote: a short text is looked at once, for a newline.
    if !text.bytes().any(|b| b == b'\n')
        && (text.len() <= QUOTED_LIMIT || text.chars().count() <= QUOTED_LIMIT)
    {
        return Cow::Borrowed(text);
    }
    let mut kept: String = text
        .chars()
        .take(QUOTED_LIMIT - 10)
        .take_while(|c| *c != '\n')
        .collect();
    kept.push('…');
    if text.starts_with('"') {
        kept.push('"');
    }
    Cow::Owned(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TYPES: [&str; 4] = ["text", "dropdown", "phone_number", "multiselect"];

    #[test]
    fn distinct_words_keep_their_first_places() {
        assert_eq!(
            distinct(["EU", "US", "EU", "US", "APAC"]),
            ["EU", "US", "APAC"]
        );
        assert_eq!(
            quoted_list(distinct(["x"; 30])),
            "\"x\"",
            "a list of one option written 30 times"
        );
    }

    #[test]
    fn forgives_case_and_separators() {
        assert_eq!(closest("Text", TYPES), Some("text"));
        assert_eq!(closest("phone-number", TYPES), Some("phone_number"));
        assert_eq!(closest("phoneNumber", TYPES), Some("phone_number"));
        assert_eq!(
            closest("Data-bind", ["data-bind", "type"]),
            Some("data-bind")
        );
        assert_eq!(
            closest("defaultValue", ["default_value", "description"]),
            Some("default_value")
        );
    }

    #[test]
    fn a_unique_suggestion_or_none() {
        let options = ["option1", "option2", "option3"];
        assert_eq!(closest_unique("option4", options), None);
        assert_eq!(closest_unique("Option2", options), Some("option2"));
        assert_eq!(
            closest_unique("optoin2", ["option2", "other"]),
            Some("option2")
        );
    }

    #[test]
    fn distances_count_transpositions_once() {
        let chars = |word: &str| word.chars().collect::<Vec<_>>();
        let mut rows = Rows::default();
        let mut distance = |a: &str, b: &str| rows.distance(&chars(a), &chars(b), 3);
        assert_eq!(distance("dropdown", "dropdown"), Some(0));
        assert_eq!(distance("dropdwon", "dropdown"), Some(1));
        assert_eq!(distance("kitten", "sitting"), Some(3));
        assert_eq!(
            distance("ca", "abc"),
            Some(3),
            "no edit of a transposed pair"
        );
        assert_eq!(distance("", "abc"), Some(3));
        assert_eq!(distance("abcdef", "uvwxyz"), None);
        assert_eq!(distance("émail", "email"), Some(1));
    }

    #[test]
    fn suggests_close_misspellings_only() {
        assert_eq!(closest("dropdwon", TYPES), Some("dropdown"));
        assert_eq!(closest("multi_select", TYPES), Some("multiselect"));
        assert_eq!(closest("select", TYPES), None);
        assert_eq!(closest("multi", TYPES), Some("multiselect"));
        assert_eq!(
            closest("warn", ["off", "info", "warning", "error"]),
            Some("warning")
        );
        assert_eq!(closest("", TYPES), None);
    }

    #[test]
    fn long_lists_and_long_words_are_not_searched() {
        let many: Vec<String> = (0..=MAX_CANDIDATES).map(|i| format!("option{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert_eq!(
            closest("Option7", many[..MAX_CANDIDATES].iter().copied()),
            Some("option7")
        );
        assert_eq!(closest("Option7", many.iter().copied()), None);
        let word = "w".repeat(MAX_EDITED_LENGTH + 1);
        assert_eq!(
            closest(&format!("{word}x"), [format!("{word}y").as_str()]),
            None
        );
        assert_eq!(
            closest(&word.to_uppercase(), [word.as_str()]),
            Some(word.as_str())
        );
    }

    #[test]
    fn long_lists_are_cut_short() {
        assert_eq!(quoted_list(["Low", "High"]), r#""Low", "High""#);
        let many: Vec<String> = (0..MAX_LISTED + 3).map(|i| i.to_string()).collect();
        let listed = quoted_list(many.iter().map(String::as_str));
        assert!(listed.starts_with(r#""0", "1", "#), "{listed}");
        assert!(listed.ends_with(r#""19", and 3 more"#), "{listed}");
    }

    #[test]
    fn long_values_are_shortened_in_messages() {
        assert_eq!(shortened(r#""Low""#), r#""Low""#);
        // Sixty characters of four bytes each are not too long.
        let wide = "é".repeat(QUOTED_LIMIT);
        assert_eq!(shortened(&wide), wide);
        let long = format!("\"{}\"", "x".repeat(1024 * 1024));
        let cut = shortened(&long);
        assert_eq!(cut, format!("\"{}…\"", "x".repeat(QUOTED_LIMIT - 11)));
        assert_eq!(shortened("[\"a\",\n \"b\"]"), "[\"a\",…");
        let listed = quoted_list([long.trim_matches('"')]);
        assert!(listed.chars().count() <= QUOTED_LIMIT, "{listed}");
    }
}
