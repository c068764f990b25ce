//! Where each string of a list is, for checks that ask entry by entry (repeated options,
//! repeated regex names, defaults among options): a short list, as most are, is searched; a
//! long one is indexed once, so that asking about every entry stays linear.

use crate::fast_hash::FastHashMap;

/// Lists up to this long are searched rather than indexed: hashing costs more than a few
/// comparisons.
const SHORT_LIST: usize = 16;

/// The first and last index of each string of a list, as the entries' `key` reads them.
pub(crate) struct Positions<'l, T> {
    entries: &'l [T],
    key: fn(&'l T) -> Option<&'l str>,
    /// For a long list: the first and last index of each key.
    index: Option<FastHashMap<&'l str, (usize, usize)>>,
}

impl<'l, T> Positions<'l, T> {
    pub(crate) fn new(entries: &'l [T], key: fn(&'l T) -> Option<&'l str>) -> Self {
        let index = (entries.len() > SHORT_LIST).then(|| {
            let mut index =
                FastHashMap::with_capacity_and_hasher(entries.len(), Default::default());
            for (at, entry) in entries.iter().enumerate() {
                if let Some(text) = key(entry) {
                    index
                        .entry(text)
                        .and_modify(|(_, last)| *last = at)
                        .or_insert((at, at));
                }
            }
            index
        });
        Self {
            entries,
            key,
            index,
        }
    }

    /// Where `wanted` first appears.
    pub(crate) fn first(&self, wanted: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(wanted).map(|&(first, _)| first),
            None => self
                .entries
                .iter()
                .position(|e| (self.key)(e) == Some(wanted)),
        }
    }

    /// Where `wanted` last appears: the entry `JSON.parse` keeps of a repeated key.
    pub(crate) fn last(&self, wanted: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(wanted).map(|&(_, last)| last),
            None => self
                .entries
                .iter()
                .rposition(|e| (self.key)(e) == Some(wanted)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_lists_answer_alike() {
        for length in [3, SHORT_LIST + 1, 200] {
            let words: Vec<String> = (0..length).map(|i| format!("w{}", i % 5)).collect();
            let positions = Positions::new(&words, |w| Some(w.as_str()));
            assert_eq!(positions.first("w2"), Some(2), "{length}");
            let last = words.iter().rposition(|w| w == "w2");
            assert_eq!(positions.last("w2"), last, "{length}");
            assert_eq!(positions.first("w9"), None, "{length}");
        }
    }
}
