//! Which classes' kernel blocks the one-vs-one CV by pair blocks holds
//! (issue 58): each pair's block is assembled from its two classes' blocks
//! ([`super::pair_matrix`]), which are computed once and kept for the
//! class's later pairs within the memory budget.
//!
//! The pairs run one after another in a known order, so where the budget
//! cannot hold every class's block beside the pair's, the held block used
//! furthest in the future is dropped first (Belady's rule, the fewest
//! blocks computed again), and a block no later pair uses is dropped at
//! once. A pair whose two class blocks and its own matrix do not fit
//! together is computed whole instead, as before; so is every pair where
//! sharing is off (the batched solver's matrix products, precomputed
//! kernels).
//!
//! The budget counts everything the pairs keep at once: the held class
//! blocks, the blocks a pair still needs, and the pair's matrix, which is
//! the previous pair's buffer where that can hold it (then its whole
//! capacity counts). A buffer that cannot serve is freed before anything
//! is computed; one larger than the budget allows beside the class blocks
//! is freed before any block is dropped (a new buffer costs only its
//! zeroing, a dropped block its kernel values again).

use std::collections::BTreeMap;

use super::pair_matrix::ClassBlock;
use crate::svm::kernel::KernelData;

/// The class blocks of a run of pairs (see the module doc).
pub(super) struct ClassBlocks {
    /// Each pair's two classes (indices into `rows`), `None` where the
    /// pair's block is computed whole.
    pairs: Vec<Option<(usize, usize)>>,
    /// Each pair's rows (its matrix is `lens[x]^2` values).
    lens: Vec<usize>,
    /// Each class's rows (of every fold), in the dataset's order.
    rows: Vec<Vec<usize>>,
    /// The blocks held now.
    held: Vec<Option<ClassBlock>>,
    /// Bytes the class blocks and a pair's matrix may take together.
    cap: f64,
}

/// Bytes of an `n x n` matrix of singles.
fn bytes(n: usize) -> f64 {
    (n as f64) * (n as f64) * std::mem::size_of::<f32>() as f64
}

impl ClassBlocks {
    /// The plan for pairs whose labels are `keys` and whose classes' rows
    /// are `sides`, within `cap` bytes; `share == false` computes every
    /// pair whole.
    pub fn new(
        keys: &[(u64, u64)],
        sides: &[[Vec<usize>; 2]],
        cap: f64,
        share: bool,
    ) -> ClassBlocks {
        let mut index: BTreeMap<u64, usize> = BTreeMap::new();
        let mut rows: Vec<Vec<usize>> = Vec::new();
        let mut class_of = |label: u64, side: &Vec<usize>| -> Option<usize> {
            let c = *index.entry(label).or_insert_with(|| {
                rows.push(side.clone());
                rows.len() - 1
            });
            // A class whose rows differ between pairs (a fold without some
            // class) is not shared.
            (rows[c] == *side).then_some(c)
        };
        let pairs = keys
            .iter()
            .zip(sides)
            .map(|(&(ka, kb), [a, b])| {
                let (ca, cb) = (class_of(ka, a)?, class_of(kb, b)?);
                let need = bytes(a.len() + b.len()) + bytes(a.len()) + bytes(b.len());
                (share && need <= cap).then_some((ca, cb))
            })
            .collect();
        let held = rows.iter().map(|_| None).collect();
        let lens = sides.iter().map(|[a, b]| a.len() + b.len()).collect();
        ClassBlocks {
            pairs,
            lens,
            rows,
            held,
            cap,
        }
    }

    /// The next pair at or after `from` that uses class `c` (`usize::MAX`:
    /// none).
    fn next_use(&self, c: usize, from: usize) -> usize {
        (from..self.pairs.len())
            .find(|&x| matches!(self.pairs[x], Some((a, b)) if a == c || b == c))
            .unwrap_or(usize::MAX)
    }

    /// Bytes of the class blocks held now.
    fn held_bytes(&self) -> f64 {
        (0..self.held.len())
            .filter(|&c| self.held[c].is_some())
            .map(|c| bytes(self.rows[c].len()))
            .sum()
    }

    /// Whether pair `x` is assembled from class blocks; where it is, both
    /// its classes' blocks are held after this call (computed on the
    /// current rayon pool where missing, their kernel values added to
    /// `evals`). `spare`, the previous pair's matrix buffer, which pair
    /// `x`'s matrix is written into where it can hold it, is kept only
    /// where it fits the budget beside the blocks held (see the module
    /// doc); blocks are dropped until pair `x`'s matrix, assembled or
    /// whole, fits beside them.
    pub fn hold(
        &mut self,
        kd: &KernelData<'_>,
        x: usize,
        spare: &mut Option<Vec<f32>>,
        evals: &mut u64,
    ) -> bool {
        let len = self.lens[x] * self.lens[x];
        if spare.as_ref().is_some_and(|m| m.capacity() < len) {
            *spare = None;
        }
        // Blocks no pair from here on uses are dropped.
        for c in 0..self.held.len() {
            if self.held[c].is_some() && self.next_use(c, x) == usize::MAX {
                self.held[c] = None;
            }
        }
        let own: Vec<usize> = self.pairs[x].map_or(Vec::new(), |(ca, cb)| vec![ca, cb]);
        let missing: f64 = own
            .iter()
            .filter(|&&c| self.held[c].is_none())
            .map(|&c| bytes(self.rows[c].len()))
            .sum();
        let pair = bytes(self.lens[x]);
        loop {
            let matrix = spare
                .as_ref()
                .map_or(pair, |m| (m.capacity() * std::mem::size_of::<f32>()) as f64);
            if self.held_bytes() + missing + matrix <= self.cap {
                break;
            }
            if matrix > pair {
                *spare = None;
                continue;
            }
            // Drop the held block used furthest ahead (not this pair's).
            let victim = (0..self.held.len())
                .filter(|&c| self.held[c].is_some() && !own.contains(&c))
                .max_by_key(|&c| (self.next_use(c, x), c));
            match victim {
                Some(c) => self.held[c] = None,
                // Checked in `new` (the pair's own fit) and by the caller
                // (a pair's matrix within the budget).
                None => break,
            }
        }
        for &c in &own {
            if self.held[c].is_none() {
                let block = ClassBlock::new(kd, self.rows[c].clone());
                *evals += block.evals();
                self.held[c] = Some(block);
            }
        }
        !own.is_empty()
    }

    /// Pair `x`'s two class blocks, where [`ClassBlocks::hold`] holds them.
    pub fn pair(&self, x: usize) -> Option<(&ClassBlock, &ClassBlock)> {
        let (ca, cb) = self.pairs[x]?;
        Some((self.held[ca].as_ref()?, self.held[cb].as_ref()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_used_furthest_ahead_are_dropped_first() {
        // Three classes of 10 rows; pairs (0,1), (0,2), (1,2). A block is
        // 400 bytes, a pair's matrix 1,600: the cap holds the pair and
        // two blocks, not three.
        let rows = |c: usize| (c * 10..c * 10 + 10).collect::<Vec<usize>>();
        let sides = vec![[rows(0), rows(1)], [rows(0), rows(2)], [rows(1), rows(2)]];
        let keys = [(0, 1), (0, 2), (1, 2)];
        let plan = ClassBlocks::new(&keys, &sides, 2400.0, true);
        assert_eq!(plan.pairs, vec![Some((0, 1)), Some((0, 2)), Some((1, 2))]);
        assert_eq!(plan.next_use(0, 1), 1);
        assert_eq!(plan.next_use(0, 2), usize::MAX);
        // Too small for a pair and its two blocks: computed whole.
        let plan = ClassBlocks::new(&keys, &sides, 2399.0, true);
        assert!(plan.pairs.iter().all(Option::is_none));
        // Sharing off, or a class whose rows differ between pairs.
        assert!(ClassBlocks::new(&keys, &sides, 1e9, false)
            .pairs
            .iter()
            .all(Option::is_none));
        let odd = vec![
            [rows(0), rows(1)],
            [rows(0)[1..].to_vec(), rows(2)],
            [rows(1), rows(2)],
        ];
        let plan = ClassBlocks::new(&keys, &odd, 1e9, true);
        assert_eq!(plan.pairs, vec![Some((0, 1)), None, Some((1, 2))]);
    }

    /// The previous pair's buffer counts in the budget: it is freed where
    /// it cannot hold the next pair's matrix, and where it would not fit
    /// beside the blocks held, before any block is dropped.
    #[test]
    fn the_spare_buffer_counts_in_the_budget() {
        use crate::data::Dataset;
        use crate::svm::kernel::KernelKind;
        // Three classes of 10, 10 and 4 rows (synthetic).
        let x: Vec<Vec<f64>> = (0..24)
            .map(|i| vec![(i as f64 * 0.3).sin(), (i as f64 * 0.7).cos()])
            .collect();
        let y = (0..24).map(|i: usize| (i / 10) as f64).collect();
        let ds = Dataset::from_dense_rows("synthetic-three", &x, y);
        let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.5 });
        let class = |c: usize| (c * 10..(c * 10 + 10).min(24)).collect::<Vec<usize>>();
        let sides = vec![
            [class(0), class(1)],
            [class(0), class(2)],
            [class(1), class(2)],
        ];
        let keys = [(0, 1), (0, 2), (1, 2)];
        // Pair (0, 1): a 1,600-byte matrix and two 400-byte blocks. Pair
        // (0, 2) adds block 2 (64 bytes) and keeps block 1 (pair (1, 2)
        // uses it): 864 bytes of blocks and a 784-byte matrix, or 2,464
        // bytes where pair (0, 1)'s 400-value buffer is its matrix.
        for cap in [2400.0, 2464.0] {
            let mut plan = ClassBlocks::new(&keys, &sides, cap, true);
            let (mut spare, mut evals) = (None, 0);
            assert!(plan.hold(&kd, 0, &mut spare, &mut evals));
            assert_eq!(plan.held_bytes(), 800.0);
            spare = Some(vec![0.0f32; 400]);
            assert!(plan.hold(&kd, 1, &mut spare, &mut evals));
            assert_eq!(spare.is_some(), cap >= 2464.0, "cap {cap}");
            assert_eq!(plan.held_bytes(), 864.0, "no block dropped");
            assert!(plan.pair(1).is_some());
        }
        // A buffer too small for the pair's matrix is freed at once; a
        // pair computed whole (sharing off) keeps one that fits.
        let mut plan = ClassBlocks::new(&keys, &sides, 1e9, true);
        let (mut spare, mut evals) = (Some(vec![0.0f32; 10]), 0);
        assert!(plan.hold(&kd, 0, &mut spare, &mut evals));
        assert!(spare.is_none());
        let mut plan = ClassBlocks::new(&keys, &sides, 1600.0, false);
        spare = Some(vec![0.0f32; 400]);
        assert!(!plan.hold(&kd, 1, &mut spare, &mut evals));
        assert!(spare.is_some());
        spare = Some(vec![0.0f32; 401]);
        assert!(!plan.hold(&kd, 1, &mut spare, &mut evals));
        assert!(spare.is_none(), "1,604 bytes over a 1,600-byte budget");
    }
}
