//! The synthetic problem of BKL Section 5: `N` boolean features, each true
//! with probability 1/2; one feature, drawn uniformly, is the label.
//!
//! Examples are stored compactly (64 features per `u64`). For the learner,
//! [`BoolSample::to_dataset`] gives the harness's dense 0/1 [`Dataset`]
//! (labels ±1). [`FreshSet`] evaluates eliminator hypotheses on fresh
//! examples.

use rand::{Rng, RngExt};

use super::ProgressiveError;
use cvbench_engine::api::data::{Dataset, Features};
use cvbench_engine::api::learners::{EliminatorModel, TieRule, Vote};

/// The most features of a BKL problem (the paper: 1000).
pub const MAX_BKL_FEATURES: usize = 1_000_000;

/// `rows` uniform random rows of `bits` packed bits (64 per word, unused
/// high bits of the last word zero), checked against overflow and memory,
/// and each row's bit `label` as its label. Returns the words per row, the
/// bits and the labels.
fn random_rows<R: Rng>(
    rows: usize,
    bits: usize,
    label: usize,
    rng: &mut R,
) -> Result<(usize, Vec<u64>, Vec<bool>), ProgressiveError> {
    let words = bits.div_ceil(64);
    let tail = bits % 64;
    cvbench_engine::api::files::check_alloc(
        &format!("{rows} BKL examples of {words} words"),
        rows as u128 * words as u128,
        8,
    )
    .map_err(|e| ProgressiveError::Invalid(e.to_string()))?;
    let mut out = vec![0u64; rows * words];
    for row in out.chunks_mut(words) {
        for word in row.iter_mut() {
            *word = rng.next_u64();
        }
        if tail != 0 {
            row[words - 1] &= (1u64 << tail) - 1;
        }
    }
    let labels = out
        .chunks(words)
        .map(|r| r[label / 64] >> (label % 64) & 1 == 1)
        .collect();
    Ok((words, out, labels))
}

/// The BKL generator with `n_features` features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BklProblem {
    /// Number of boolean features `N` (1000 in the paper).
    pub n_features: usize,
}

impl BklProblem {
    /// A generator with `1 <= n_features <=` [`MAX_BKL_FEATURES`] features.
    pub fn new(n_features: usize) -> Result<Self, ProgressiveError> {
        if n_features == 0 {
            return Err(ProgressiveError::Invalid(
                "the BKL problem needs at least one feature".into(),
            ));
        }
        if n_features > MAX_BKL_FEATURES {
            return Err(ProgressiveError::Invalid(format!(
                "n_features = {n_features} is too large for the BKL problem (at most {MAX_BKL_FEATURES}; the paper uses 1000)"
            )));
        }
        Ok(BklProblem { n_features })
    }

    /// Words per packed row.
    pub fn words(&self) -> usize {
        self.n_features.div_ceil(64)
    }

    /// Draw the label feature uniformly.
    pub fn draw_target<R: Rng>(&self, rng: &mut R) -> usize {
        rng.random_range(0..self.n_features)
    }

    /// Draw `n` examples labelled by feature `target`.
    pub fn draw<R: Rng>(
        &self,
        target: usize,
        n: usize,
        rng: &mut R,
    ) -> Result<BoolSample, ProgressiveError> {
        if target >= self.n_features {
            return Err(ProgressiveError::Invalid(format!(
                "target feature {target} out of range for {} features",
                self.n_features
            )));
        }
        let (w, bits, labels) = random_rows(n, self.n_features, target, rng)?;
        Ok(BoolSample {
            n_features: self.n_features,
            target,
            words: w,
            bits,
            labels,
        })
    }
}

/// Examples of the BKL problem, 64 features per word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoolSample {
    /// Number of features.
    pub n_features: usize,
    /// The label feature.
    pub target: usize,
    words: usize,
    bits: Vec<u64>,
    labels: Vec<bool>,
}

impl BoolSample {
    /// Number of examples.
    pub fn n(&self) -> usize {
        self.labels.len()
    }

    /// Packed bits of example `i`.
    pub fn row(&self, i: usize) -> &[u64] {
        &self.bits[i * self.words..(i + 1) * self.words]
    }

    /// Label of example `i`.
    pub fn label(&self, i: usize) -> bool {
        self.labels[i]
    }

    /// The examples as a dense 0/1 dataset with ±1 labels.
    pub fn to_dataset(&self) -> Dataset {
        let d = self.n_features;
        let mut values = vec![0.0; self.n() * d];
        for (i, row) in values.chunks_mut(d).enumerate() {
            let bits = self.row(i);
            for (j, v) in row.iter_mut().enumerate() {
                if bits[j / 64] >> (j % 64) & 1 == 1 {
                    *v = 1.0;
                }
            }
        }
        Dataset {
            index_base: cvbench_engine::api::data::IndexBase::One,
            name: format!("synthetic-bkl(N={d})"),
            x: Features::Dense { d, values },
            y: self
                .labels
                .iter()
                .map(|&l| if l { 1.0 } else { -1.0 })
                .collect(),
        }
    }
}

/// A set of fresh examples restricted to a set of columns.
///
/// An eliminator hypothesis reads only its surviving features, and the label
/// is the target feature, which always survives. Every hypothesis produced
/// after some base hypothesis has a subset of its survivors. So to evaluate
/// those hypotheses on fresh examples it suffices to draw the values of the
/// base survivors: the other columns are independent fair bits that no
/// hypothesis reads. The resulting losses have exactly the distribution of
/// losses on full fresh examples, at a fraction of the cost.
#[derive(Clone, Debug)]
pub struct FreshSet {
    columns: Vec<usize>,
    words: usize,
    bits: Vec<u64>,
    labels: Vec<bool>,
}

impl FreshSet {
    /// Draw `size` fresh examples over `columns` (ascending feature indices,
    /// containing `target`).
    pub fn draw<R: Rng>(
        columns: Vec<usize>,
        target: usize,
        size: usize,
        rng: &mut R,
    ) -> Result<FreshSet, ProgressiveError> {
        let pos = columns.binary_search(&target).map_err(|_| {
            ProgressiveError::Invalid(format!(
                "fresh-set columns must contain the target feature {target}"
            ))
        })?;
        let (w, bits, labels) = random_rows(size, columns.len(), pos, rng)?;
        Ok(FreshSet {
            columns,
            words: w,
            bits,
            labels,
        })
    }

    /// Number of fresh examples.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The survivor mask of `model` over this set's columns; an error if the
    /// model has survivors outside the columns.
    fn mask(&self, model: &EliminatorModel) -> Result<Vec<u64>, ProgressiveError> {
        let mut mask = vec![0u64; self.words];
        let mut count = 0;
        for (p, &j) in self.columns.iter().enumerate() {
            if model.is_alive(j) {
                mask[p / 64] |= 1 << (p % 64);
                count += 1;
            }
        }
        if count != model.n_alive() {
            return Err(ProgressiveError::Invalid(
                "hypothesis has survivors outside the fresh set's columns".into(),
            ));
        }
        Ok(mask)
    }

    /// Per-example losses of `model` (ties per `tie`, coins from `rng`).
    pub fn losses<R: Rng>(
        &self,
        model: &EliminatorModel,
        tie: &TieRule,
        rng: &mut R,
    ) -> Result<Vec<f64>, ProgressiveError> {
        let mask = self.mask(model)?;
        let alive = model.n_alive();
        Ok(self
            .bits
            .chunks(self.words.max(1))
            .zip(&self.labels)
            .map(|(row, &label)| {
                let ones: u32 = row
                    .iter()
                    .zip(&mask)
                    .map(|(x, m)| (x & m).count_ones())
                    .sum();
                Vote::from_counts(ones as usize, alive).loss(label, tie, || rng.random())
            })
            .collect())
    }

    /// Error frequency of `model` on the set.
    pub fn error<R: Rng>(
        &self,
        model: &EliminatorModel,
        tie: &TieRule,
        rng: &mut R,
    ) -> Result<f64, ProgressiveError> {
        if self.is_empty() {
            return Err(ProgressiveError::Invalid("empty fresh set".into()));
        }
        let l = self.losses(model, tie, rng)?;
        Ok(l.iter().sum::<f64>() / l.len() as f64)
    }
}
