//! One stable sort for every element type, so that the page carries one sort.
//!
//! The standard library's `sort_by` is compiled anew for each element type and comparator
//! (a drift sort with its quicksort, merges and small-sort networks: about 3 KB of wasm a
//! copy, and the page had twenty). Here the sorting itself is one non-generic merge sort on
//! positions, with the comparison behind a `dyn` call; what is compiled per type is only the
//! closure and a loop of swaps. The result is the one a stable sort must give (equal
//! elements keep their order), so it is the standard library's result: the CLI and the page
//! sort with it alike (docs/size.md).

use std::cmp::Ordering;

/// Sorts `v` stably by `compare` (as `slice::sort_by`).
pub fn sort_by<T>(v: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    let order = {
        let items: &[T] = v;
        stable_order(
            items.len(),
            &mut |a, b| match (items.get(a), items.get(b)) {
                (Some(x), Some(y)) => compare(x, y),
                _ => Ordering::Equal,
            },
        )
    };
    for (a, b) in swaps(order) {
        v.swap(a, b);
    }
}

/// Sorts `v` stably by the key `key` gives (as `slice::sort_by_key`).
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` (as `slice::sort`; for elements whose equal values cannot be told apart, as
/// numbers and strings, also what `sort_unstable` gives).
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// Returns positions `0..n` in sorted order: a natural merge sort, stable. The input is first
/// cut into runs as they come (a non-descending stretch as it is, a strictly descending one
/// reversed, which keeps it stable as no two of its elements are equal), so that already
/// sorted input costs one pass, as with the standard library's sort; then neighbouring runs
/// are merged until one is left.
fn stable_order(n: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut src: Vec<usize> = Vec::with_capacity(n);
    let mut runs: Vec<usize> = Vec::new();
    let mut start = 0;
    while start < n {
        let mut end = start + 1;
        if end < n && compare(end, start) == Ordering::Less {
            while end < n && compare(end, end - 1) == Ordering::Less {
                end += 1;
            }
            src.extend((start..end).rev());
        } else {
            while end < n && compare(end, end - 1) != Ordering::Less {
                end += 1;
            }
            src.extend(start..end);
        }
        runs.push(end - start);
        start = end;
    }
    let mut dst: Vec<usize> = Vec::with_capacity(n);
    while runs.len() > 1 {
        dst.clear();
        let mut merged = Vec::with_capacity(runs.len().div_ceil(2));
        let mut rest: &[usize] = &src;
        for pair in runs.chunks(2) {
            let (a, b) = match pair {
                [a, b] => (*a, *b),
                [a] => (*a, 0),
                _ => (0, 0),
            };
            let (left, tail) = rest.split_at(a.min(rest.len()));
            let (right, tail) = tail.split_at(b.min(tail.len()));
            merge(left, right, &mut dst, compare);
            merged.push(a + b);
            rest = tail;
        }
        std::mem::swap(&mut src, &mut dst);
        runs = merged;
    }
    src
}

/// Appends the merge of sorted runs `left` and `right` to `out`.
fn merge(
    left: &[usize],
    right: &[usize],
    out: &mut Vec<usize>,
    compare: &mut dyn FnMut(usize, usize) -> Ordering,
) {
    let (mut l, mut r) = (left.iter().peekable(), right.iter().peekable());
    while let (Some(&&a), Some(&&b)) = (l.peek(), r.peek()) {
        if compare(b, a) == Ordering::Less {
            out.push(b);
            r.next();
        } else {
            out.push(a);
            l.next();
        }
    }
    out.extend(l);
    out.extend(r);
}

/// Returns the swaps that move the element at `order[k]` to position `k`, for every `k`.
fn swaps(order: Vec<usize>) -> Vec<(usize, usize)> {
    let n = order.len();
    // at[p]: the original position of the element now at p; place[o]: where original o is.
    let mut at: Vec<usize> = (0..n).collect();
    let mut place: Vec<usize> = (0..n).collect();
    let mut out = Vec::new();
    for (k, &want) in order.iter().enumerate() {
        let Some(&j) = place.get(want) else { continue };
        if j == k {
            continue;
        }
        let Some(&here) = at.get(k) else { continue };
        out.push((k, j));
        if let Some(p) = place.get_mut(here) {
            *p = j;
        }
        if let Some(p) = place.get_mut(want) {
            *p = k;
        }
        if let Some(a) = at.get_mut(j) {
            *a = here;
        }
        if let Some(a) = at.get_mut(k) {
            *a = want;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_and_keeps_equal_elements_in_order() {
        let mut v = vec![(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e')];
        sort_by_key(&mut v, |p| p.0);
        assert_eq!(v, vec![(1, 'b'), (1, 'e'), (2, 'd'), (3, 'a'), (3, 'c')]);
        let mut e: Vec<u8> = Vec::new();
        sort(&mut e);
        assert!(e.is_empty());
        let mut down = vec![(5, 'a'), (4, 'b'), (4, 'c'), (3, 'd'), (1, 'e')];
        sort_by_key(&mut down, |p| p.0);
        assert_eq!(down, vec![(1, 'e'), (3, 'd'), (4, 'b'), (4, 'c'), (5, 'a')]);
        let mut one = vec![7];
        sort(&mut one);
        assert_eq!(one, vec![7]);
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// The same result as the standard library's stable sort, on keys with many ties.
        #[test]
        fn same_as_std_stable_sort(v in proptest::collection::vec((0u8..6, proptest::prelude::any::<u16>()), 0..200)) {
            let mut ours = v.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut theirs = v;
            theirs.sort_by_key(|p| p.0);
            proptest::prop_assert_eq!(ours, theirs);
        }
    }
}
