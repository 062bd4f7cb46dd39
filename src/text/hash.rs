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
