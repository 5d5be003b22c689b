//! Stable sorting whose machinery is compiled once for the whole web app.
//!
//! `slice::sort_by` is generic over the element type and the comparison, so every call site
//! gets its own copy of std's driftsort (3–4 KB of wasm each); the app had 31 of them. The
//! functions here sort *positions* with one non-generic routine that calls the comparison
//! through `dyn`, then move the elements into place: per call site only a small closure and
//! the permutation remain. Same results as `sort_by` (stable), slower by an indirect call per
//! comparison, which matters nowhere the playground sorts (node lists, events, map keys).
//!
//! Natively (CLI, benchmarks) there is no download to save: std's sort is used directly.
//! [`BTreeMap`] built by `collect()` sorts too ([`map`] inserts instead). [`go_order`] is Go's
//! `sort.Sort`, unstable, for the orders kubectl prints.

mod go;

pub use go::go_order;

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// Sorts `v` stably by `cmp`, as `v.sort_by(cmp)`.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if cfg!(target_arch = "wasm32") {
        by_positions(v, &mut cmp);
    } else {
        #[allow(clippy::disallowed_methods)] // natively there is no download to save
        v.sort_by(cmp);
    }
}

/// Sorts `v` stably by `key`, as `v.sort_by_key(key)`.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` stably, as `v.sort()`.
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// A map from pairs, later pairs replacing earlier ones with the same key, as `collect()`
/// would build it, without sorting them first.
pub fn map<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut m = BTreeMap::new();
    for (k, v) in pairs {
        m.insert(k, v);
    }
    m
}

/// A set of `items`, as `collect()` would build it, without sorting them first.
pub fn set<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut s = BTreeSet::new();
    for item in items {
        s.insert(item);
    }
    s
}

/// [`map`] of fallible pairs: the first error, or the whole map.
pub fn try_map<K: Ord, V, E>(
    pairs: impl IntoIterator<Item = Result<(K, V), E>>,
) -> Result<BTreeMap<K, V>, E> {
    let mut m = BTreeMap::new();
    for pair in pairs {
        let (k, v) = pair?;
        m.insert(k, v);
    }
    Ok(m)
}

fn by_positions<T>(v: &mut [T], cmp: &mut impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let order = {
        let v: &[T] = v;
        sorted_positions(v.len(), &mut |a, b| cmp(&v[a], &v[b]))
    };
    permute(v, order);
}

/// `0..n` sorted stably by `cmp`: the one instance of std's sort behind every [`sort_by`].
#[inline(never)]
fn sorted_positions(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut positions: Vec<usize> = (0..n).collect();
    #[allow(clippy::disallowed_methods)] // the page's one instance of std's sort
    positions.sort_by(|&a, &b| cmp(a, b));
    positions
}

/// Rearranges `v` so that position `i` holds what was at `order[i]` (`order` is a
/// permutation), following each cycle once with swaps.
fn permute<T>(v: &mut [T], mut order: Vec<usize>) {
    for start in 0..v.len() {
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The wasm path gives exactly std's stable order, ties included.
        #[test]
        fn positions_sort_equals_std_stable_sort(v in prop::collection::vec((0u8..6, any::<u16>()), 0..200)) {
            let mut ours = v.clone();
            by_positions(&mut ours, &mut |a: &(u8, u16), b: &(u8, u16)| a.0.cmp(&b.0));
            let mut std = v;
            std.sort_by_key(|a| a.0);
            prop_assert_eq!(ours, std);
        }

        #[test]
        fn map_equals_collect(v in prop::collection::vec((0u8..20, any::<u16>()), 0..100)) {
            let collected: BTreeMap<u8, u16> = v.iter().copied().collect();
            prop_assert_eq!(map(v), collected);
        }

        #[test]
        fn set_equals_collect(v in prop::collection::vec(0u8..20, 0..100)) {
            let collected: BTreeSet<u8> = v.iter().copied().collect();
            prop_assert_eq!(set(v), collected);
        }
    }

    #[test]
    fn permute_applies_the_order() {
        let mut v = vec!['a', 'b', 'c', 'd'];
        permute(&mut v, vec![2, 0, 3, 1]);
        assert_eq!(v, vec!['c', 'a', 'd', 'b']);
    }
}
