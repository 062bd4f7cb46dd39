//! The hash tables of editkit, and the matcher's own fingerprint of lines
//! and tokens.
//!
//! [`hash_bytes`] is part of the matcher's scans: it fingerprints line keys
//! and tokens for the matcher's and the line diff's tables (every hit is
//! compared by text), and `matcher::normalize::hash_span` computes the
//! same value in place from an 8-byte word, without a copy. Never a
//! security boundary, so speed is all that matters. The tables themselves
//! are std's ([`StableMap`], [`StableSet`]).

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

/// std's `HashMap` with std's SipHash under fixed keys
/// (`DefaultHasher::new()` is the same in every process): a table iterates
/// in the same order on every run with the same inserts, so what editkit
/// derives from one (the seed of the ids it gives new blocks) does not
/// change from run to run.
pub(crate) type StableMap<K, V> =
    std::collections::HashMap<K, V, std::hash::BuildHasherDefault<std::hash::DefaultHasher>>;

/// The `HashSet` of [`StableMap`].
pub(crate) type StableSet<T> =
    std::collections::HashSet<T, std::hash::BuildHasherDefault<std::hash::DefaultHasher>>;

/// A `HashMap` keyed by a value that is already one of editkit's hashes
/// ([`hash_bytes`]): the key is its own hash, so a lookup costs no
/// hashing (SipHash of a `u64` was most of a lookup in the token filter's
/// word table, built once per content word).
pub(crate) type HashedKeyMap<V> =
    std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<HashedKey>>;

/// The hasher of [`HashedKeyMap`]: passes a `u64` key through.
#[derive(Default)]
pub(crate) struct HashedKey(u64);

impl std::hash::Hasher for HashedKey {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys reach this hasher; any other bytes are mixed in
        // rather than dropped, so a misuse is slow, never wrong.
        self.0 = hash_bytes(bytes) ^ self.0.rotate_left(17);
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}
