//! One small stable sort for the whole crate.
//!
//! Why not `slice::sort*`: std's sorts (driftsort, ipnsort) are fast but
//! large, and they are instantiated afresh for every element type and
//! comparator. Their 25 call sites were 204 functions and 95 KB of the
//! wasm (`twiggy top`, docs/PERFORMANCE.md cut 17). Here the sorting is
//! one non-generic merge sort over positions, which calls the comparator
//! through `dyn`; what each call site instantiates is a few lines: the
//! comparator adapter and [`apply_order`].
//!
//! Every sort here is stable, so it also stands in for `sort_unstable*`:
//! elements that compare equal keep their order, a deterministic result.
//! The slices sorted in this crate are small (a search's lines, a diff's
//! hunks, candidate windows), where the indirection costs little.

use std::cmp::Ordering;

/// Sorts `items` by `compare`, stably.
pub(crate) fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let order = {
        let view: &[T] = items;
        sorted_order(view.len(), &mut |a, b| {
            compare(&view[a], &view[b]) == Ordering::Less
        })
    };
    apply_order(items, order);
}

/// Sorts `items` by the key `key` gives each, stably.
pub(crate) fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in their natural order, stably.
pub(crate) fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// Runs shorter than this are sorted by insertion before merging.
const RUN: usize = 16;

/// The positions `0..len` in sorted order: `order[i]` is the position of
/// the element that belongs at `i`. A bottom-up merge sort; `less` is
/// asked only whether a later element goes strictly before an earlier one,
/// which keeps equal elements in order.
fn sorted_order(len: usize, less: &mut dyn FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    for start in (0..len).step_by(RUN) {
        let end = (start + RUN).min(len);
        for i in start + 1..end {
            let mut j = i;
            while j > start && less(order[j], order[j - 1]) {
                order.swap(j, j - 1);
                j -= 1;
            }
        }
    }
    let mut merged = vec![0; len];
    let mut width = RUN;
    while width < len {
        for start in (0..len).step_by(2 * width) {
            let middle = (start + width).min(len);
            let end = (start + 2 * width).min(len);
            merge(
                &order[start..middle],
                &order[middle..end],
                &mut merged[start..end],
                less,
            );
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    order
}

/// Merges two sorted runs into `out` (as long as both), the left run's
/// element first on ties.
fn merge(
    left: &[usize],
    right: &[usize],
    out: &mut [usize],
    less: &mut dyn FnMut(usize, usize) -> bool,
) {
    let (mut l, mut r) = (0, 0);
    for slot in out.iter_mut() {
        let take_right = l == left.len() || (r < right.len() && less(right[r], left[l]));
        if take_right {
            *slot = right[r];
            r += 1;
        } else {
            *slot = left[l];
            l += 1;
        }
    }
}

/// Rearranges `items` so that the element at `order[i]` ends at `i`, by
/// swaps along each cycle of the permutation (no copy of `T` needed).
fn apply_order<T>(items: &mut [T], mut order: Vec<usize>) {
    const DONE: usize = usize::MAX;
    for start in 0..items.len() {
        let mut at = start;
        while order[at] != DONE {
            let from = order[at];
            order[at] = DONE;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // std's stable sort is the reference
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn equal_keys_keep_their_order() {
        let mut pairs = vec![(2, 'a'), (1, 'b'), (2, 'c'), (1, 'd'), (0, 'e'), (2, 'f')];
        sort_by_key(&mut pairs, |p| p.0);
        assert_eq!(
            pairs,
            vec![(0, 'e'), (1, 'b'), (1, 'd'), (2, 'a'), (2, 'c'), (2, 'f')]
        );
    }

    #[test]
    fn sorts_across_several_merge_passes_and_a_ragged_tail() {
        // 16 × 5 + 3 elements: runs, three merge widths and a short tail.
        let mut values: Vec<u32> = (0..83).map(|i| (i * 37 + 11) % 83).collect();
        sort(&mut values);
        assert_eq!(values, (0..83).collect::<Vec<u32>>());
    }

    #[test]
    fn owned_values_move_without_copies() {
        let mut words: Vec<String> = ["蓝", "apple", "😀", "Zebra", ""]
            .map(String::from)
            .to_vec();
        sort(&mut words);
        assert_eq!(words, ["", "Zebra", "apple", "蓝", "😀"]);
    }

    proptest! {
        #[test]
        fn agrees_with_std_stable_sort(values in proptest::collection::vec((0u8..8, any::<u16>()), 0..300)) {
            let mut ours = values.clone();
            sort_by_key(&mut ours, |v| v.0);
            let mut std_sorted = values;
            std_sorted.sort_by_key(|v| v.0);
            prop_assert_eq!(ours, std_sorted);
        }
    }
}
