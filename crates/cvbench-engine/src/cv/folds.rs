//! Chunks (folds): a permutation of the row indices cut into `k` contiguous
//! chunks `Z_1..Z_k` whose sizes differ by at most one (the first `n mod k`
//! chunks get one extra point). Because chunks are contiguous in the
//! permutation, any run of chunks `Z_s..Z_e` is one slice.

use rand::seq::SliceRandom;
use rand::Rng;

/// A permutation of rows cut into `k` chunks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunks {
    order: Vec<usize>,
    bounds: Vec<usize>,
}

impl Chunks {
    /// Cut `order` (a sequence of row indices) into `k` chunks.
    /// Returns `None` unless `1 <= k <= order.len()`.
    pub fn new(order: Vec<usize>, k: usize) -> Option<Chunks> {
        let n = order.len();
        if k == 0 || k > n {
            return None;
        }
        let (base, extra) = (n / k, n % k);
        let mut bounds = Vec::with_capacity(k + 1);
        bounds.push(0);
        for i in 0..k {
            let size = base + usize::from(i < extra);
            bounds.push(bounds[i] + size);
        }
        Some(Chunks { order, bounds })
    }

    /// Shuffle `0..n` with `rng` and cut into `k` chunks.
    pub fn shuffled<R: Rng + ?Sized>(n: usize, k: usize, rng: &mut R) -> Option<Chunks> {
        let mut order: Vec<usize> = (0..n).collect();
        order.shuffle(rng);
        Chunks::new(order, k)
    }

    /// Number of chunks `k`.
    pub fn k(&self) -> usize {
        self.bounds.len() - 1
    }

    /// Number of points `n`.
    pub fn n(&self) -> usize {
        self.order.len()
    }

    /// Chunk `i` (0-based).
    pub fn chunk(&self, i: usize) -> &[usize] {
        &self.order[self.bounds[i]..self.bounds[i + 1]]
    }

    /// Chunks `s..=e` (0-based, inclusive) as one slice, in chunk order.
    pub fn range(&self, s: usize, e: usize) -> &[usize] {
        &self.order[self.bounds[s]..self.bounds[e + 1]]
    }

    /// Every point except chunk `i`: the points before it and the points after it.
    pub fn complement(&self, i: usize) -> (&[usize], &[usize]) {
        (
            &self.order[..self.bounds[i]],
            &self.order[self.bounds[i + 1]..],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_differ_by_at_most_one_and_cover_everything() {
        for n in 1..40 {
            for k in 1..=n {
                let c = Chunks::new((0..n).collect(), k).unwrap();
                let sizes: Vec<usize> = (0..k).map(|i| c.chunk(i).len()).collect();
                assert_eq!(sizes.iter().sum::<usize>(), n);
                let (mn, mx) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                assert!(mx - mn <= 1);
                assert_eq!(c.range(0, k - 1).len(), n);
                let (a, b) = c.complement(k / 2);
                assert_eq!(a.len() + b.len() + c.chunk(k / 2).len(), n);
            }
        }
        assert!(Chunks::new(vec![1, 2], 3).is_none());
        assert!(Chunks::new(vec![1, 2], 0).is_none());
    }
}
