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

use std::collections::BTreeMap;

use super::pair_matrix::ClassBlock;
use crate::svm::kernel::KernelData;

/// The class blocks of a run of pairs (see the module doc).
pub(super) struct ClassBlocks {
    /// Each pair's two classes (indices into `rows`), `None` where the
    /// pair's block is computed whole.
    pairs: Vec<Option<(usize, usize)>>,
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
        ClassBlocks {
            pairs,
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

    /// Whether pair `x` is assembled from class blocks; where it is, both
    /// its classes' blocks are held after this call (computed on the
    /// current rayon pool where missing, their kernel values added to
    /// `evals`).
    pub fn hold(&mut self, kd: &KernelData<'_>, x: usize, evals: &mut u64) -> bool {
        let Some((ca, cb)) = self.pairs[x] else {
            return false;
        };
        let n = |c: usize| self.rows[c].len();
        // Blocks no pair from here on uses are dropped.
        for c in 0..self.held.len() {
            if self.held[c].is_some() && self.next_use(c, x) == usize::MAX {
                self.held[c] = None;
            }
        }
        let pair = bytes(n(ca) + n(cb));
        let missing: f64 = [ca, cb]
            .iter()
            .filter(|&&c| self.held[c].is_none())
            .map(|&c| bytes(n(c)))
            .sum();
        loop {
            let held: f64 = (0..self.held.len())
                .filter(|&c| self.held[c].is_some())
                .map(|c| bytes(n(c)))
                .sum();
            if held + missing + pair <= self.cap {
                break;
            }
            // Drop the held block used furthest ahead (not this pair's).
            let victim = (0..self.held.len())
                .filter(|&c| self.held[c].is_some() && c != ca && c != cb)
                .max_by_key(|&c| (self.next_use(c, x), c));
            match victim {
                Some(c) => self.held[c] = None,
                None => break, // checked in `new`: the pair's own fit
            }
        }
        for c in [ca, cb] {
            if self.held[c].is_none() {
                let block = ClassBlock::new(kd, self.rows[c].clone());
                *evals += block.evals();
                self.held[c] = Some(block);
            }
        }
        true
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
}
