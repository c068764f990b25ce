//! "Did you mean ...?" for misspelt names.

/// Among more candidates than this, nothing is suggested: each is compared in turn, a list
/// can be checked item by item against another, and no one browses so long a list for a typo.
const MAX_CANDIDATES: usize = 256;

/// Words longer than this are compared whole, not by edit distance: a typo is found in a word,
/// and the distance costs the product of the two lengths.
const MAX_EDITED_LENGTH: usize = 64;

/// Lists longer than this are cut short in messages.
const MAX_LISTED: usize = 20;

/// The candidate `input` most likely meant, if one is close enough to be worth suggesting.
///
/// Case and separators are forgiven first (`Data-bind`, `defaultValue`, `phone-number`), then
/// small edit distances, scaled to the length of the word.
pub fn closest<'c>(input: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    nearest(input, candidates).map(|(candidate, _)| candidate)
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
    let wanted = Normalized::of(input);
    let wanted_length = wanted.len();
    if wanted_length == 0 {
        return None;
    }
    let limit = match wanted_length {
        0..=3 => 1,
        4..=7 => 2,
        _ => 3,
    };
    let candidates: Vec<&str> = candidates.into_iter().take(MAX_CANDIDATES + 1).collect();
    if candidates.len() > MAX_CANDIDATES {
        return None;
    }
    let mut best: Option<(usize, &str)> = None;
    let mut tied = false;
    for candidate in candidates {
        let normalized = Normalized::of(candidate);
        let distance = if normalized.0 == wanted.0 {
            0
        } else if wanted_length >= 3 && normalized.0.starts_with(wanted.0.as_ref()) {
            // An abbreviation: `warn`, `multi`.
            1
        } else if normalized.len().abs_diff(wanted_length) > limit
            || wanted_length > MAX_EDITED_LENGTH
        {
            // The edit distance is at least the difference in length.
            continue;
        } else {
            strsim::osa_distance(&wanted.0, &normalized.0)
        };
        if distance > limit {
            continue;
        }
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

/// A word in the form names are compared in: lower case, without `_`, `-`, `.` and spaces.
/// Borrowed when the word is already in that form, as most candidates are.
struct Normalized<'w>(std::borrow::Cow<'w, str>);

impl<'w> Normalized<'w> {
    fn of(word: &'w str) -> Self {
        let plain = word
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        Self(if plain {
            std::borrow::Cow::Borrowed(word)
        } else {
            std::borrow::Cow::Owned(normalize(word))
        })
    }

    fn len(&self) -> usize {
        self.0.chars().count()
    }
}

/// Lower case, without `_`, `-`, `.` and spaces.
fn normalize(word: &str) -> String {
    word.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' ' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// `a`, `b` and `c` → "`a`, `b`, `c`".
pub fn list<'w>(words: impl IntoIterator<Item = &'w str>) -> String {
    words
        .into_iter()
        .map(|word| format!("`{word}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Quoted JSON strings: `"Low", "High"`; a long list ends with how many more there are.
pub fn quoted_list<'w, W>(words: W) -> String
where
    W: IntoIterator<Item = &'w str>,
    W::IntoIter: ExactSizeIterator,
{
    let mut words = words.into_iter();
    let mut listed: Vec<String> = words
        .by_ref()
        .take(MAX_LISTED)
        .map(|word| format!("\"{word}\""))
        .collect();
    // Told, not counted: the list can be long, and each finding about it lists it.
    let more = words.len();
    if more > 0 {
        listed.push(format!("and {more} more"));
    }
    listed.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const TYPES: [&str; 4] = ["text", "dropdown", "phone_number", "multiselect"];

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
}
