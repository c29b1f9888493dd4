//! The feature-eliminator learner of Blum, Kalai & Langford (1999), Section 5.
//!
//! The learner knows that one boolean feature is an exact predictor of the
//! label. It keeps the set of *surviving* features — those consistent with
//! every training example seen so far (`x_j == y`) — and predicts the
//! majority vote of the survivors. The paper does not say what happens on a
//! tie (an even number of survivors split evenly); [`TieRule`] makes it an
//! option.
//!
//! Features are read as booleans (`value > 0.5`, so a missing entry of a
//! sparse row is `false`) and labels as `y > 0` (the harness stores binary
//! labels as ±1; 0/1 labels work too).
//!
//! The model is a bit set of the surviving features plus the number of
//! examples seen. Updates are exactly revertible: the journal lists the
//! features an update crossed off.

use crate::data::{Dataset, Row};
use crate::learners::IncrementalLearner;
use crate::seed;

/// What the majority vote does when the survivors split evenly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieRule {
    /// Score a tie as loss 1/2 (the expected loss of a fair coin; equivalently
    /// the L1 loss of the prediction 1/2).
    Half,
    /// Break the tie with a fair coin. The coin for a given (hypothesis,
    /// point) pair is a fixed function of `seed`, the point's row index and
    /// the model, so losses are repeatable; distinct pairs get independent
    /// coins.
    Random {
        /// Seed of the tie-breaking coins.
        seed: u64,
    },
}

impl TieRule {
    /// A short name for outputs: `half` or `random`.
    pub fn label(&self) -> &'static str {
        match self {
            TieRule::Half => "half",
            TieRule::Random { .. } => "random",
        }
    }
}

/// The outcome of the survivors' majority vote on one example.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vote {
    /// More survivors say `true`.
    True,
    /// More survivors say `false`.
    False,
    /// An even split (including the degenerate case of no survivors).
    Tie,
}

impl Vote {
    /// The vote given `ones` survivors saying `true` among `alive` survivors.
    #[inline]
    pub fn from_counts(ones: usize, alive: usize) -> Vote {
        match (2 * ones).cmp(&alive) {
            std::cmp::Ordering::Greater => Vote::True,
            std::cmp::Ordering::Less => Vote::False,
            std::cmp::Ordering::Equal => Vote::Tie,
        }
    }

    /// The 0/1 loss of this vote against `label`; a tie costs 1/2 under
    /// [`TieRule::Half`] and `coin()` (0 or 1) under [`TieRule::Random`].
    #[inline]
    pub fn loss(self, label: bool, tie: &TieRule, coin: impl FnOnce() -> bool) -> f64 {
        match self {
            Vote::True => f64::from(u8::from(!label)),
            Vote::False => f64::from(u8::from(label)),
            Vote::Tie => match tie {
                TieRule::Half => 0.5,
                TieRule::Random { .. } => {
                    // The coin says which label to predict.
                    f64::from(u8::from(coin() != label))
                }
            },
        }
    }
}

/// The BKL feature eliminator (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Eliminator {
    /// What to do on an even split.
    pub tie: TieRule,
}

impl Eliminator {
    /// An eliminator with the given tie rule.
    pub fn new(tie: TieRule) -> Self {
        Eliminator { tie }
    }
}

/// The eliminator's model: which features survive, and how many examples
/// have been fed to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EliminatorModel {
    d: usize,
    alive: Vec<u64>,
    n_alive: usize,
    seen: u64,
}

impl EliminatorModel {
    /// The model that has seen nothing: all `d` features survive.
    pub fn all_alive(d: usize) -> Self {
        let words = d.div_ceil(64);
        let mut alive = vec![u64::MAX; words];
        if !d.is_multiple_of(64) {
            if let Some(last) = alive.last_mut() {
                *last = (1u64 << (d % 64)) - 1;
            }
        }
        EliminatorModel {
            d,
            alive,
            n_alive: d,
            seen: 0,
        }
    }

    /// Number of features.
    pub fn d(&self) -> usize {
        self.d
    }

    /// Number of surviving features.
    pub fn n_alive(&self) -> usize {
        self.n_alive
    }

    /// Number of examples fed to the model.
    pub fn seen(&self) -> u64 {
        self.seen
    }

    /// Whether feature `j` survives (false for `j >= d`).
    pub fn is_alive(&self, j: usize) -> bool {
        j < self.d && self.alive[j / 64] >> (j % 64) & 1 == 1
    }

    /// The surviving features' indices, ascending.
    pub fn alive_features(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.n_alive);
        for (w, &word) in self.alive.iter().enumerate() {
            let mut b = word;
            while b != 0 {
                out.push(w * 64 + b.trailing_zeros() as usize);
                b &= b - 1;
            }
        }
        out
    }

    /// The survivor bit set, 64 features per word, feature `j` at bit `j % 64`
    /// of word `j / 64`.
    pub fn alive_words(&self) -> &[u64] {
        &self.alive
    }

    /// Feed one example given as a packed bit row (same layout as
    /// [`alive_words`](Self::alive_words)); returns how many features it
    /// crossed off.
    pub fn absorb_bits(&mut self, bits: &[u64], label: bool) -> usize {
        let mut killed = 0;
        for (a, &x) in self.alive.iter_mut().zip(bits) {
            let keep = if label { x } else { !x };
            let before = *a;
            *a &= keep;
            killed += (before & !*a).count_ones() as usize;
        }
        self.n_alive -= killed;
        self.seen += 1;
        killed
    }

    /// The survivors' vote on a packed bit row.
    pub fn vote_bits(&self, bits: &[u64]) -> Vote {
        let ones: u32 = self
            .alive
            .iter()
            .zip(bits)
            .map(|(a, x)| (a & x).count_ones())
            .sum();
        Vote::from_counts(ones as usize, self.n_alive)
    }

    /// A hash of the model state (for tie-breaking coins).
    fn fingerprint(&self) -> u64 {
        self.alive
            .iter()
            .fold(seed::mix64(self.seen), |h, &w| seed::mix64(h ^ w))
    }
}

/// Pack the boolean reading (`value > 0.5`) of a row into bit words.
pub fn row_bits(row: Row<'_>, d: usize) -> Vec<u64> {
    let mut bits = vec![0u64; d.div_ceil(64)];
    match row {
        Row::Dense(x) => {
            for (j, &v) in x.iter().enumerate().take(d) {
                if v > 0.5 {
                    bits[j / 64] |= 1 << (j % 64);
                }
            }
        }
        Row::Sparse(idx, val) => {
            for (&j, &v) in idx.iter().zip(val) {
                let j = j as usize;
                if j < d && v > 0.5 {
                    bits[j / 64] |= 1 << (j % 64);
                }
            }
        }
    }
    bits
}

/// What [`Eliminator::update_journaled`](IncrementalLearner::update_journaled)
/// records: the features the update crossed off and the previous count of
/// examples seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EliminatorJournal {
    killed: Vec<u32>,
    seen_before: u64,
}

impl IncrementalLearner for Eliminator {
    type Model = EliminatorModel;
    type Journal = EliminatorJournal;

    fn name(&self) -> String {
        format!("eliminator(tie={})", self.tie.label())
    }

    fn init(&self, data: &Dataset) -> EliminatorModel {
        EliminatorModel::all_alive(data.d())
    }

    fn update(&self, model: &mut EliminatorModel, data: &Dataset, points: &[usize]) {
        for &p in points {
            let bits = row_bits(data.row(p), model.d);
            model.absorb_bits(&bits, data.y[p] > 0.0);
        }
    }

    fn loss(&self, model: &EliminatorModel, data: &Dataset, i: usize) -> f64 {
        let bits = row_bits(data.row(i), model.d);
        let label = data.y[i] > 0.0;
        model
            .vote_bits(&bits)
            .loss(label, &self.tie, || match self.tie {
                TieRule::Random { seed } => {
                    seed::derive_ints(seed, &[i as u64, model.fingerprint()]) & 1 == 1
                }
                TieRule::Half => false,
            })
    }

    fn update_journaled(
        &self,
        model: &mut EliminatorModel,
        data: &Dataset,
        points: &[usize],
    ) -> EliminatorJournal {
        let before = model.alive.clone();
        let seen_before = model.seen;
        self.update(model, data, points);
        let mut killed = Vec::new();
        for (w, (&b, &a)) in before.iter().zip(&model.alive).enumerate() {
            let mut k = b & !a;
            while k != 0 {
                killed.push((w * 64 + k.trailing_zeros() as usize) as u32);
                k &= k - 1;
            }
        }
        EliminatorJournal {
            killed,
            seen_before,
        }
    }

    fn revert(&self, model: &mut EliminatorModel, _data: &Dataset, journal: EliminatorJournal) {
        for &j in &journal.killed {
            let j = j as usize;
            model.alive[j / 64] |= 1 << (j % 64);
        }
        model.n_alive += journal.killed.len();
        model.seen = journal.seen_before;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy() -> Dataset {
        // Feature 1 is the label; 4 features.
        let rows = vec![
            vec![1.0, 1.0, 0.0, 1.0],
            vec![0.0, 0.0, 0.0, 1.0],
            vec![1.0, 1.0, 1.0, 0.0],
            vec![0.0, 1.0, 1.0, 1.0],
        ];
        let y = rows
            .iter()
            .map(|r| if r[1] > 0.5 { 1.0 } else { -1.0 })
            .collect();
        Dataset::from_dense_rows("synthetic-toy", &rows, y)
    }

    #[test]
    fn eliminates_inconsistent_features() {
        let data = toy();
        let l = Eliminator::new(TieRule::Half);
        let mut m = l.init(&data);
        assert_eq!(m.n_alive(), 4);
        l.update(&mut m, &data, &[0]);
        // Row 0: y = 1; features 0,1,3 true → 2 crossed off.
        assert_eq!(m.alive_features(), vec![0, 1, 3]);
        l.update(&mut m, &data, &[1]);
        // Row 1: y = 0; features 0,1,2 false, 3 true → 3 crossed off.
        assert_eq!(m.alive_features(), vec![0, 1]);
        assert_eq!(m.seen(), 2);
        // Row 2: features 0,1 both true, y true → loss 0.
        assert_eq!(l.loss(&m, &data, 2), 0.0);
        // Row 3: feature 0 false, 1 true: tie → 1/2.
        assert_eq!(l.loss(&m, &data, 3), 0.5);
        let r = Eliminator::new(TieRule::Random { seed: 3 });
        let lr = r.loss(&m, &data, 3);
        assert!(lr == 0.0 || lr == 1.0);
        assert_eq!(lr, r.loss(&m, &data, 3), "coins are repeatable");
    }

    #[test]
    fn journal_reverts_exactly() {
        let data = toy();
        let l = Eliminator::new(TieRule::Half);
        let mut m = l.init(&data);
        l.update(&mut m, &data, &[0]);
        let snapshot = m.clone();
        let j = l.update_journaled(&mut m, &data, &[1, 2, 3]);
        assert_ne!(m, snapshot);
        l.revert(&mut m, &data, j);
        assert_eq!(m, snapshot);
    }

    #[test]
    fn sparse_rows_read_missing_as_false() {
        let dense = toy();
        let rows: Vec<usize> = (0..dense.n()).collect();
        let mut indptr = vec![0];
        let (mut idx, mut val) = (Vec::new(), Vec::new());
        for &i in &rows {
            if let Row::Dense(x) = dense.row(i) {
                for (j, &v) in x.iter().enumerate() {
                    if v != 0.0 {
                        idx.push(j as u32);
                        val.push(v);
                    }
                }
            }
            indptr.push(idx.len());
        }
        let sparse =
            Dataset::from_csr("synthetic-toy-sparse", 4, indptr, idx, val, dense.y.clone());
        let l = Eliminator::new(TieRule::Half);
        let (mut a, mut b) = (l.init(&dense), l.init(&sparse));
        l.update(&mut a, &dense, &[0, 1]);
        l.update(&mut b, &sparse, &[0, 1]);
        assert_eq!(a, b);
        for i in 0..4 {
            assert_eq!(l.loss(&a, &dense, i), l.loss(&b, &sparse, i));
        }
    }

    #[test]
    fn all_alive_masks_tail_bits() {
        let m = EliminatorModel::all_alive(70);
        assert_eq!(m.n_alive(), 70);
        assert_eq!(m.alive_features().len(), 70);
        assert!(m.is_alive(69) && !m.is_alive(70));
    }
}
