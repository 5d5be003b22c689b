//! Go's `sort.Sort` (pattern-defeating quicksort, `sort/zsortinterface.go`), step for step: it is
//! not stable, and kubectl sorts with it (`get --sort-by`, the events of `describe`), so which of
//! two equal elements comes first is whatever Go's algorithm leaves. Matching kubectl's output
//! means running the same swaps. Deterministic: its one random stream is seeded by the length.

/// The order `sort.Sort` puts `len` elements in, given Go's `Less` on original indices: position
/// `k` of the result holds the index of the element that ends up `k`-th.
pub fn go_order(len: usize, less: &mut dyn FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut data = Data {
        perm: (0..len).collect(),
        less,
    };
    if len > 1 {
        let limit = bits_len(len);
        pdqsort(&mut data, 0, len, limit);
    }
    data.perm
}

/// `sort.Interface` over a permutation.
struct Data<'a> {
    perm: Vec<usize>,
    less: &'a mut dyn FnMut(usize, usize) -> bool,
}

impl Data<'_> {
    fn less(&mut self, i: usize, j: usize) -> bool {
        (self.less)(self.perm[i], self.perm[j])
    }
    fn swap(&mut self, i: usize, j: usize) {
        self.perm.swap(i, j);
    }
}

/// `bits.Len`: the number of bits needed to write `n`.
fn bits_len(n: usize) -> usize {
    (usize::BITS - n.leading_zeros()) as usize
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

fn insertion_sort(data: &mut Data, a: usize, b: usize) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && data.less(j, j - 1) {
            data.swap(j, j - 1);
            j -= 1;
        }
    }
}

fn sift_down(data: &mut Data, lo: usize, hi: usize, first: usize) {
    let mut root = lo;
    loop {
        let mut child = 2 * root + 1;
        if child >= hi {
            return;
        }
        if child + 1 < hi && data.less(first + child, first + child + 1) {
            child += 1;
        }
        if !data.less(first + root, first + child) {
            return;
        }
        data.swap(first + root, first + child);
        root = child;
    }
}

fn heap_sort(data: &mut Data, a: usize, b: usize) {
    let first = a;
    let hi = b - a;
    for i in (0..=(hi - 1) / 2).rev() {
        sift_down(data, i, hi, first);
    }
    for i in (0..hi).rev() {
        data.swap(first, first + i);
        sift_down(data, 0, i, first);
    }
}

fn pdqsort(data: &mut Data, mut a: usize, mut b: usize, mut limit: usize) {
    const MAX_INSERTION: usize = 12;
    let mut was_balanced = true;
    let mut was_partitioned = true;
    loop {
        let length = b - a;
        if length <= MAX_INSERTION {
            insertion_sort(data, a, b);
            return;
        }
        if limit == 0 {
            heap_sort(data, a, b);
            return;
        }
        if !was_balanced {
            break_patterns(data, a, b);
            limit -= 1;
        }
        let (mut pivot, mut hint) = choose_pivot(data, a, b);
        if hint == Hint::Decreasing {
            reverse_range(data, a, b);
            pivot = (b - 1) - (pivot - a);
            hint = Hint::Increasing;
        }
        if was_balanced
            && was_partitioned
            && hint == Hint::Increasing
            && partial_insertion_sort(data, a, b)
        {
            return;
        }
        if a > 0 && !data.less(a - 1, pivot) {
            a = partition_equal(data, a, b, pivot);
            continue;
        }
        let (mid, already_partitioned) = partition(data, a, b, pivot);
        was_partitioned = already_partitioned;
        let (left_len, right_len) = (mid - a, b - mid);
        let balance_threshold = length / 8;
        if left_len < right_len {
            was_balanced = left_len >= balance_threshold;
            pdqsort(data, a, mid, limit);
            a = mid + 1;
        } else {
            was_balanced = right_len >= balance_threshold;
            pdqsort(data, mid + 1, b, limit);
            b = mid;
        }
    }
}

/// Go's indices here may step one below `a` (`j` ends at `a` at the least), so they are kept
/// signed.
fn partition(data: &mut Data, a: usize, b: usize, pivot: usize) -> (usize, bool) {
    data.swap(a, pivot);
    let (mut i, mut j) = (a as isize + 1, b as isize - 1);
    let lt = |data: &mut Data, x: isize, y: usize| data.less(x as usize, y);
    while i <= j && lt(data, i, a) {
        i += 1;
    }
    while i <= j && !lt(data, j, a) {
        j -= 1;
    }
    if i > j {
        data.swap(j as usize, a);
        return (j as usize, true);
    }
    data.swap(i as usize, j as usize);
    i += 1;
    j -= 1;
    loop {
        while i <= j && lt(data, i, a) {
            i += 1;
        }
        while i <= j && !lt(data, j, a) {
            j -= 1;
        }
        if i > j {
            break;
        }
        data.swap(i as usize, j as usize);
        i += 1;
        j -= 1;
    }
    data.swap(j as usize, a);
    (j as usize, false)
}

fn partition_equal(data: &mut Data, a: usize, b: usize, pivot: usize) -> usize {
    data.swap(a, pivot);
    let (mut i, mut j) = (a as isize + 1, b as isize - 1);
    loop {
        while i <= j && !data.less(a, i as usize) {
            i += 1;
        }
        while i <= j && data.less(a, j as usize) {
            j -= 1;
        }
        if i > j {
            break;
        }
        data.swap(i as usize, j as usize);
        i += 1;
        j -= 1;
    }
    i as usize
}

fn partial_insertion_sort(data: &mut Data, a: usize, b: usize) -> bool {
    const MAX_STEPS: usize = 5;
    const SHORTEST_SHIFTING: usize = 50;
    let mut i = a + 1;
    for _ in 0..MAX_STEPS {
        while i < b && !data.less(i, i - 1) {
            i += 1;
        }
        if i == b {
            return true;
        }
        if b - a < SHORTEST_SHIFTING {
            return false;
        }
        data.swap(i, i - 1);
        if i - a >= 2 {
            let mut j = i - 1;
            while j >= 1 {
                if !data.less(j, j - 1) {
                    break;
                }
                data.swap(j, j - 1);
                j -= 1;
            }
        }
        if b - i >= 2 {
            let mut j = i + 1;
            while j < b {
                if !data.less(j, j - 1) {
                    break;
                }
                data.swap(j, j - 1);
                j += 1;
            }
        }
    }
    false
}

fn break_patterns(data: &mut Data, a: usize, b: usize) {
    let length = b - a;
    if length >= 8 {
        let mut random = length as u64;
        let modulus = 1usize << bits_len(length);
        let first = a + (length / 4) * 2 - 1;
        for idx in first..=first + 2 {
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            let mut other = (random as usize) & (modulus - 1);
            if other >= length {
                other -= length;
            }
            data.swap(idx, a + other);
        }
    }
}

fn choose_pivot(data: &mut Data, a: usize, b: usize) -> (usize, Hint) {
    const SHORTEST_NINTHER: usize = 50;
    const MAX_SWAPS: usize = 4 * 3;
    let l = b - a;
    let mut swaps = 0;
    let mut i = a + l / 4;
    let mut j = a + l / 4 * 2;
    let mut k = a + l / 4 * 3;
    if l >= 8 {
        if l >= SHORTEST_NINTHER {
            i = median(data, i - 1, i, i + 1, &mut swaps);
            j = median(data, j - 1, j, j + 1, &mut swaps);
            k = median(data, k - 1, k, k + 1, &mut swaps);
        }
        j = median(data, i, j, k, &mut swaps);
    }
    match swaps {
        0 => (j, Hint::Increasing),
        MAX_SWAPS => (j, Hint::Decreasing),
        _ => (j, Hint::Unknown),
    }
}

fn order2(data: &mut Data, a: usize, b: usize, swaps: &mut usize) -> (usize, usize) {
    if data.less(b, a) {
        *swaps += 1;
        (b, a)
    } else {
        (a, b)
    }
}

fn median(data: &mut Data, a: usize, b: usize, c: usize, swaps: &mut usize) -> usize {
    let (a, b) = order2(data, a, b, swaps);
    let (b, _) = order2(data, b, c, swaps);
    let (_, b) = order2(data, a, b, swaps);
    b
}

fn reverse_range(data: &mut Data, a: usize, b: usize) {
    let (mut i, mut j) = (a, b - 1);
    while i < j {
        data.swap(i, j);
        i += 1;
        j -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted_by_key(keys: &[u32]) -> Vec<usize> {
        go_order(keys.len(), &mut |a, b| keys[a] < keys[b])
    }

    #[test]
    fn up_to_twelve_elements_sort_stably_by_insertion() {
        let keys = [3, 1, 3, 1, 2, 2, 0, 3, 1, 0, 2, 1];
        let mut stable: Vec<usize> = (0..keys.len()).collect();
        stable.sort_by_key(|&i| keys[i]);
        assert_eq!(sorted_by_key(&keys), stable);
    }

    /// The events of `presets/f4-rolling-update-max-unavailable-1.yaml` by lastTimestamp (the
    /// second they happened at), as served: kubectl 1.37's `get events --sort-by=.lastTimestamp`
    /// printed them in this order (unbalanced partitions, so `break_patterns` runs).
    #[test]
    fn ties_end_where_kubectl_1_37_leaves_them() {
        let seconds = [
            20, 21, 21, 21, 0, 0, 0, 0, 24, 0, 0, 0, 0, 11, 7, 7, 7, 7, 0, 0, 0, 0, 4, 28, 28, 28,
            28, 14, 14, 14, 14, 0, 0, 0, 0, 17, 0, 0, 0, 0, 4, 7, 11, 14, 17, 20, 24, 28,
        ];
        let kubectl = [
            36, 10, 39, 38, 4, 5, 6, 7, 37, 34, 33, 11, 12, 32, 31, 9, 21, 20, 18, 19, 22, 40, 14,
            16, 15, 41, 17, 42, 13, 27, 30, 29, 28, 43, 35, 44, 45, 0, 1, 2, 3, 8, 46, 26, 25, 24,
            23, 47,
        ];
        assert_eq!(sorted_by_key(&seconds), kubectl);
    }

    #[test]
    fn longer_inputs_are_sorted_whatever_their_shape() {
        for n in [13, 49, 50, 51, 64, 200, 1000] {
            for shape in 0..5u32 {
                let keys: Vec<u32> = (0..n as u32)
                    .map(|i| match shape {
                        0 => i,
                        1 => n as u32 - i,
                        2 => i % 3,
                        3 => (i * 7919) % 101,
                        _ => 5,
                    })
                    .collect();
                let order = sorted_by_key(&keys);
                let mut seen = order.clone();
                seen.sort();
                assert_eq!(seen, (0..n).collect::<Vec<_>>(), "a permutation");
                assert!(
                    order.windows(2).all(|w| keys[w[0]] <= keys[w[1]]),
                    "sorted: n={n} shape={shape}"
                );
            }
        }
    }
}
