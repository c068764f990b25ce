//! What the renderers' tests share.

/// A small generator (xorshift), the same sequence on every run.
pub(super) struct Random(pub u64);

impl Random {
    /// A number below `bound`.
    pub fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }

    /// A character boundary of `text` near a random byte.
    pub fn boundary(&mut self, text: &str) -> usize {
        let mut at = self.below(text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    }
}

/// The `line:column` of each frame's header in human output of `config/iparams.json`, in
/// colour or not.
pub(super) fn headers(out: &str) -> Vec<&str> {
    out.split("config/iparams.json:")
        .skip(1)
        .filter_map(|rest| rest.split(']').next())
        .map(|header| header.trim_end_matches("\u{1b}[0m"))
        .collect()
}
