//! Results that arrive in any order, taken in order.

use std::collections::BTreeMap;

/// Takes numbered items in number order, whatever order they arrive in: an item is taken as soon
/// as every item before it has been.
#[derive(Debug)]
pub struct InOrder<T> {
    next: usize,
    waiting: BTreeMap<usize, T>,
}

impl<T> Default for InOrder<T> {
    fn default() -> Self {
        Self {
            next: 0,
            waiting: BTreeMap::new(),
        }
    }
}

impl<T> InOrder<T> {
    /// The number of the item to be taken next.
    pub fn next(&self) -> usize {
        self.next
    }

    /// Item `index` arrives: it and the items waiting for it are given to `take`, in order, if
    /// it is next; otherwise it waits.
    pub fn arrive(&mut self, index: usize, item: T, mut take: impl FnMut(T)) {
        if index != self.next {
            self.put(index, item);
            return;
        }
        take(item);
        self.next += 1;
        while let Some(item) = self.take_next() {
            take(item);
        }
    }

    /// Item `index` arrives, to be taken with [`Self::take_next`].
    pub fn put(&mut self, index: usize, item: T) {
        self.waiting.insert(index, item);
    }

    /// Whether the item to be taken next has arrived.
    pub fn is_ready(&self) -> bool {
        self.waiting.contains_key(&self.next)
    }

    /// The item to be taken next, if it has arrived.
    pub fn take_next(&mut self) -> Option<T> {
        let item = self.waiting.remove(&self.next)?;
        self.next += 1;
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_taken_in_order() {
        let mut taken = Vec::new();
        let mut in_order = InOrder::default();
        for index in [2, 0, 3, 1, 4] {
            in_order.arrive(index, index, |item| taken.push(item));
        }
        assert_eq!(taken, [0, 1, 2, 3, 4]);
        assert_eq!(in_order.next(), 5);
    }

    #[test]
    fn items_put_are_taken_in_order_once_each_has_arrived() {
        let mut in_order = InOrder::default();
        in_order.put(1, 'b');
        assert!(!in_order.is_ready());
        assert_eq!(in_order.take_next(), None);
        in_order.put(0, 'a');
        assert!(in_order.is_ready());
        assert_eq!(in_order.take_next(), Some('a'));
        assert_eq!(in_order.take_next(), Some('b'));
        assert_eq!(in_order.take_next(), None);
        assert_eq!(in_order.next(), 2);
    }
}
