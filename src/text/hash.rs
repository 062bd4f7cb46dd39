//! One fast hash of byte strings, for the hash tables of the matcher and
//! the LCS: never a security boundary (every table compares the items a
//! hash says are equal), so speed is all that matters.

/// Hash of a byte string, eight bytes per step (FxHash-style mixing) with
/// the length folded in. Used for line keys and tokens, which are compared
/// by their text whenever a hash says "equal".
pub(crate) fn hash_bytes(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    let chunks = bytes.chunks_exact(8);
    let tail = chunks.remainder();
    for c in chunks {
        h = (h.rotate_left(5) ^ u64::from_le_bytes(c.try_into().unwrap_or([0; 8]))).wrapping_mul(K);
    }
    if !tail.is_empty() {
        let v = tail
            .iter()
            .rev()
            .fold(0u64, |v, &b| (v << 8) | u64::from(b));
        h = (h.rotate_left(5) ^ v).wrapping_mul(K);
    }
    h ^ (h >> 29)
}

/// The hasher of editkit's hash tables (block ids, lines, tokens): each
/// write mixed in the way of [`hash_bytes`]. std's default, SipHash, is
/// keyed so that an attacker cannot flood a table; nothing here needs
/// that (the keys are the user's own block ids and text, and every table
/// compares keys on a hash hit), and SipHash was 3 % of a 1,000-hunk
/// block-diff check in wasm and 3 KB of code (docs/PERFORMANCE.md cut 29).
/// Unkeyed, a table also iterates in the same order on every run (native
/// and wasm may still differ: the table's probing groups differ in width).
#[derive(Clone, Copy, Default)]
pub(crate) struct FastHasher(u64);

const MIX: u64 = 0x517c_c1b7_2722_0a95;

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(MIX);
    }
}

impl std::hash::Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.add(hash_bytes(bytes));
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        // The multiply mixes each bit only into higher ones, and the low
        // 32 bits pick the bucket (on wasm32 the control byte too): fold
        // the high half in.
        self.0 ^ (self.0 >> 32)
    }
}

/// A `HashMap` with [`FastHasher`].
pub(crate) type FastMap<K, V> =
    std::collections::HashMap<K, V, std::hash::BuildHasherDefault<FastHasher>>;

/// A `HashSet` with [`FastHasher`].
pub(crate) type FastSet<T> =
    std::collections::HashSet<T, std::hash::BuildHasherDefault<FastHasher>>;

#[cfg(test)]
mod tests {
    use std::hash::BuildHasher;

    use super::{FastHasher, FastSet};

    /// Block ids differ only in a few characters; the low bits of their
    /// hashes pick the bucket, so they must spread like random ones.
    #[test]
    fn block_ids_spread_over_buckets() {
        let hasher = std::hash::BuildHasherDefault::<FastHasher>::default();
        for ids in [
            (0..4096)
                .map(|i| format!("20250101{:06}-blk{:04}", 100_000 + i % 900_000, i % 10_000))
                .collect::<Vec<_>>(),
            (0..4096)
                .map(|i| format!("20240614083000-{:07x}", i * 7919))
                .collect(),
        ] {
            let buckets: FastSet<u64> = ids.iter().map(|id| hasher.hash_one(id) & 0xfff).collect();
            // 4,096 random values fill about 2,590 of 4,096 buckets.
            assert!(buckets.len() > 2_400, "{} buckets", buckets.len());
        }
        // Integers whose low bits are all equal (without the final fold
        // they would share one bucket).
        let buckets: FastSet<u64> = (0..4096usize)
            .map(|i| hasher.hash_one(i << 12) & 0xfff)
            .collect();
        assert!(buckets.len() > 2_400, "{} buckets", buckets.len());
    }

    #[test]
    fn the_same_key_hashes_the_same_everywhere() {
        let hasher = std::hash::BuildHasherDefault::<FastHasher>::default();
        // Pinned: no per-process or per-machine key.
        assert_eq!(
            hasher.hash_one("20240614083000-a1b2c3d"),
            17_704_434_033_686_118_856
        );
        assert_eq!(
            hasher.hash_one("20240614083000-a1b2c3d"),
            hasher.hash_one("20240614083000-a1b2c3d")
        );
        assert_ne!(
            hasher.hash_one("20240614083000-a1b2c3d"),
            hasher.hash_one("20240614083000-a1b2c3e")
        );
        assert_eq!(hasher.hash_one(7usize), hasher.hash_one(7usize));
    }
}
