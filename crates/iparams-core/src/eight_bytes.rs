//! Bytes looked at eight at a time, in a `u64` read little-endian: each test flags a byte by
//! setting its high bit. Reading JSON strings and looking at every string for secrets run over
//! most of a file's bytes.
//!
//! Two kinds of test: an exact one flags every byte that passes and no other; a first-only one
//! is exact up to its lowest flagged byte, and may flag bytes above it wrongly (a borrow only
//! runs towards higher bytes), for callers that want the first byte that passes, or any.

/// `0x01` in every byte.
pub const ONES: u64 = 0x0101_0101_0101_0101;
/// `0x80` in every byte: where the tests put their flags.
pub const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Flags each byte of `word` below `limit` (1 to 0x80), and no other: adding to the low seven
/// bits of each byte never carries into the next.
pub fn below(word: u64, limit: u8) -> u64 {
    !(((word & !HIGHS) + ONES * u64::from(0x80 - limit)) | word) & HIGHS
}

/// Flags each byte of `word` equal to `byte`, and no other.
pub fn equal(word: u64, byte: u8) -> u64 {
    below(word ^ (ONES * u64::from(byte)), 1)
}

/// Flags the bytes of `word` below `limit` (at most 0x80), exactly up to the first of them.
pub fn first_below(word: u64, limit: u8) -> u64 {
    word.wrapping_sub(ONES * u64::from(limit)) & !word & HIGHS
}

/// Flags the bytes of `word` equal to `byte`, exactly up to the first of them.
pub fn first_equal(word: u64, byte: u8) -> u64 {
    first_below(word ^ (ONES * u64::from(byte)), 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eight bytes from the bytes a test turns on, in every position.
    fn words() -> impl Iterator<Item = [u8; 8]> {
        const BYTES: [u8; 12] = [
            0, 1, 0x1f, b' ', b'!', b'"', b'\\', b'b', 0x7f, 0x80, 0xc3, 0xff,
        ];
        (0..20_000u64).map(|seed| {
            let mut word = [0; 8];
            let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            for byte in &mut word {
                *byte = BYTES[(state % BYTES.len() as u64) as usize];
                state = state.rotate_left(7).wrapping_mul(0x2545_F491_4F6C_DD1D);
            }
            word
        })
    }

    /// The flags a byte-by-byte test gives.
    fn flags(word: [u8; 8], passes: impl Fn(u8) -> bool) -> u64 {
        (0..8)
            .filter(|&at| passes(word[at]))
            .fold(0, |flags, at| flags | (0x80 << (8 * at)))
    }

    #[test]
    fn exact_tests_flag_every_byte_that_passes_and_no_other() {
        for word in words() {
            let packed = u64::from_le_bytes(word);
            for limit in [1, 0x20, 0x21, 0x80] {
                assert_eq!(below(packed, limit), flags(word, |b| b < limit), "{word:?}");
            }
            for byte in [0, b' ', b'"', b'b', 0x80, 0xff] {
                assert_eq!(equal(packed, byte), flags(word, |b| b == byte), "{word:?}");
            }
        }
    }

    #[test]
    fn first_only_tests_find_the_first_byte_that_passes() {
        let lowest = |flags: u64| flags & flags.wrapping_neg();
        for word in words() {
            let packed = u64::from_le_bytes(word);
            for limit in [1, 0x20, 0x21, 0x80] {
                let exact = flags(word, |b| b < limit);
                assert_eq!(
                    lowest(first_below(packed, limit)),
                    lowest(exact),
                    "{word:?}"
                );
            }
            for byte in [0, b' ', b'"', b'\\', 0xff] {
                let exact = flags(word, |b| b == byte);
                assert_eq!(lowest(first_equal(packed, byte)), lowest(exact), "{word:?}");
            }
        }
    }
}
