//! Folds for SVM cross-validation: seeded stratified folds, LIBSVM-compatible
//! folds that reproduce `svm-train -v k` exactly, and leave-one-out.
//!
//! `svm-train` never calls `srand`, so `svm_cross_validation` draws from
//! glibc's `rand()` in its default state (seed 1). [`GlibcRand`] replicates
//! glibc's `random_r` with the default `TYPE_3` generator (an additive
//! lagged-Fibonacci generator `r_k = r_{k-3} + r_{k-31} mod 2^32` seeded by
//! a Lehmer generator, the first 310 outputs discarded, each output `r >> 1`).

use crate::data::Dataset;
use crate::svm::error::SvmError;
use crate::svm::model::label::class_label;

/// LIBSVM's warning when `-v K` asks for more folds than there are rows
/// (`svm_cross_validation` then runs leave-one-out).
pub const FOLDS_OVER_DATA_WARNING: &str = "WARNING: # folds > # data. Will use # folds = # data instead (i.e., leave-one-out cross validation)";

/// A replica of glibc's `rand()`/`random_r` with the default `TYPE_3` state.
#[derive(Clone, Debug)]
pub struct GlibcRand {
    state: [u32; 31],
    f: usize,
    r: usize,
}

impl GlibcRand {
    /// The state after `srand(seed)` (`seed = 0` acts as 1, as in glibc).
    pub fn new(seed: u32) -> GlibcRand {
        let mut state = [0u32; 31];
        let seed = if seed == 0 { 1 } else { seed };
        state[0] = seed;
        let mut word = i64::from(seed);
        for s in state.iter_mut().skip(1) {
            // 16807 * word % 2147483647 without overflow (Schrage's method).
            let hi = word / 127_773;
            let lo = word % 127_773;
            word = 16_807 * lo - 2_836 * hi;
            if word < 0 {
                word += 2_147_483_647;
            }
            *s = word as u32;
        }
        let mut g = GlibcRand { state, f: 3, r: 0 };
        for _ in 0..310 {
            g.next_i32();
        }
        g
    }

    /// The state of a program that never called `srand` (seed 1).
    pub fn default_seed() -> GlibcRand {
        GlibcRand::new(1)
    }

    /// The next `rand()` value, in `0..=2^31-1`.
    pub fn next_i32(&mut self) -> i32 {
        let val = self.state[self.f].wrapping_add(self.state[self.r]);
        self.state[self.f] = val;
        self.f += 1;
        if self.f >= 31 {
            self.f = 0;
            self.r += 1;
        } else {
            self.r += 1;
            if self.r >= 31 {
                self.r = 0;
            }
        }
        (val >> 1) as i32
    }
}

/// A partition of rows into folds. Fold `h`'s rows are listed in order; the
/// training rows of round `h` are the other folds concatenated in fold order
/// (LIBSVM's `perm[0..begin] ++ perm[end..l]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Folds {
    /// Number of rows of the dataset.
    pub n: usize,
    /// The rows of each fold.
    pub folds: Vec<Vec<usize>>,
    /// How the folds were made (for reports).
    pub kind: String,
}

impl Folds {
    /// Number of folds.
    pub fn k(&self) -> usize {
        self.folds.len()
    }

    /// Test rows of round `h`.
    pub fn test_rows(&self, h: usize) -> &[usize] {
        &self.folds[h]
    }

    /// The one check of a CV's folds against its dataset (every CV, grid
    /// and seeded run calls it): the folds partition their rows, `k >= 2`
    /// ([`Folds::validate`]), and their rows are the dataset's.
    pub fn check_for(&self, ds: &Dataset) -> Result<(), SvmError> {
        self.validate()?;
        if self.n != ds.n() {
            return Err(SvmError::InvalidFolds(format!(
                "folds over {} rows for a dataset of {}: build the folds from this dataset",
                self.n,
                ds.n()
            )));
        }
        Ok(())
    }

    /// Training rows of round `h`, in LIBSVM's order.
    pub fn train_rows(&self, h: usize) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.n - self.folds[h].len());
        for (g, f) in self.folds.iter().enumerate() {
            if g != h {
                out.extend_from_slice(f);
            }
        }
        out
    }

    /// Check that the folds partition `0..n` and that `k >= 2`.
    pub fn validate(&self) -> Result<(), SvmError> {
        check_fold_count(self.n, self.k())?;
        let mut seen = vec![false; self.n];
        let mut count = 0;
        for f in &self.folds {
            for &r in f {
                if r >= self.n || seen[r] {
                    return Err(SvmError::InvalidFolds(format!(
                        "row {r} out of range or in two folds"
                    )));
                }
                seen[r] = true;
                count += 1;
            }
        }
        if count != self.n {
            return Err(SvmError::InvalidFolds(format!(
                "folds cover {count} of {} rows",
                self.n
            )));
        }
        Ok(())
    }

    /// Seeded stratified folds: each class (in LIBSVM's label order) is
    /// shuffled with the harness's generator and cut into `k` nearly equal
    /// consecutive parts, part `i` going to fold `i` (LIBSVM's layout).
    pub fn stratified(ds: &Dataset, k: usize, seed: u64) -> Result<Folds, SvmError> {
        use rand::RngExt;
        let mut rng = crate::seed::rng(seed);
        let (mut f, k_eff) = group_and_shuffle(ds, k, |m| rng.random_range(0..m))?;
        f.kind = format!("stratified k={k_eff} seed={seed}");
        Ok(f)
    }

    /// LIBSVM 3.24's `svm_cross_validation` folds with glibc's `rand()` in
    /// its default state: `svm-train -v k` on the same file uses exactly
    /// these folds (for C-SVC: stratified when `k < n`, a plain shuffle when
    /// `k >= n`, with `k` lowered to `n`).
    pub fn libsvm(ds: &Dataset, k: usize) -> Result<Folds, SvmError> {
        Folds::libsvm_with(ds, k, &mut GlibcRand::default_seed())
    }

    /// [`Folds::libsvm`] drawing from the given generator state.
    pub fn libsvm_with(ds: &Dataset, k: usize, rng: &mut GlibcRand) -> Result<Folds, SvmError> {
        Folds::libsvm_of(ds, k, true, rng)
    }

    /// `svm_cross_validation`'s folds, the one place that assigns them:
    /// `stratified` (C-SVC and nu-SVC) with `k < n`, LIBSVM's stratified
    /// layout; otherwise (one-class, epsilon-SVR, nu-SVR, or `k >= n`) the
    /// rows shuffled by `rand()` (`j = i + rand() % (l - i)`) and cut at
    /// `fold_start[i] = i l / k`, `k` lowered to `n`.
    pub fn libsvm_of(
        ds: &Dataset,
        k: usize,
        stratified: bool,
        rng: &mut GlibcRand,
    ) -> Result<Folds, SvmError> {
        let l = ds.n();
        let mut f = if stratified && k < l {
            group_and_shuffle(ds, k, |m| (rng.next_i32() % m as i32) as usize)?.0
        } else {
            check_fold_count(l, k)?;
            let k = k.min(l);
            let mut perm: Vec<usize> = (0..l).collect();
            for i in 0..l {
                let j = i + (rng.next_i32() % (l - i) as i32) as usize;
                perm.swap(i, j);
            }
            Folds {
                n: l,
                folds: (0..k)
                    .map(|i| perm[i * l / k..(i + 1) * l / k].to_vec())
                    .collect(),
                kind: String::new(),
            }
        };
        f.kind = format!("libsvm k={}", f.k());
        Ok(f)
    }

    /// Leave-one-out: fold `i` is row `i`.
    pub fn loocv(n: usize) -> Folds {
        Folds {
            n,
            folds: (0..n).map(|r| vec![r]).collect(),
            kind: "loocv".into(),
        }
    }
}

/// The one check of a fold count: `k >= 2` folds of `n >= 2` rows (a `k`
/// over `n` is LIBSVM's leave-one-out, `k` lowered to `n`).
pub fn check_fold_count(n: usize, k: usize) -> Result<(), SvmError> {
    if k < 2 || n < 2 {
        return Err(SvmError::InvalidFolds(format!(
            "cannot split {n} rows into {k} folds: use k >= 2 folds of at least 2 rows"
        )));
    }
    Ok(())
}

/// LIBSVM's stratified layout: group rows by class (label order of
/// `svm_group_classes`), shuffle within each class with `draw(m) in 0..m`
/// (`j = i + draw(count - i)`), then fold `i` takes part `i` of every class.
fn group_and_shuffle(
    ds: &Dataset,
    k: usize,
    mut draw: impl FnMut(usize) -> usize,
) -> Result<(Folds, usize), SvmError> {
    let l = ds.n();
    check_fold_count(l, k)?;
    let k = k.min(l);
    // Labels by first appearance; LIBSVM swaps a (-1, +1) pair.
    let mut labels: Vec<f64> = Vec::new();
    let mut class_of = Vec::with_capacity(l);
    for &v in &ds.y {
        if !v.is_finite() {
            return Err(SvmError::NonFinite(format!("label {v}")));
        }
        let v = class_label(v);
        let c = match labels.iter().position(|&u| u == v) {
            Some(c) => c,
            None => {
                labels.push(v);
                labels.len() - 1
            }
        };
        class_of.push(c);
    }
    if labels.len() == 2 && labels[0] == -1.0 && labels[1] == 1.0 {
        for c in class_of.iter_mut() {
            *c = 1 - *c;
        }
        labels.swap(0, 1);
    }
    let mut classes: Vec<Vec<usize>> = vec![Vec::new(); labels.len()];
    for (r, &c) in class_of.iter().enumerate() {
        classes[c].push(r);
    }
    for idx in classes.iter_mut() {
        let count = idx.len();
        for i in 0..count {
            let j = i + draw(count - i);
            idx.swap(i, j);
        }
    }
    let mut folds = vec![Vec::new(); k];
    for idx in &classes {
        let count = idx.len();
        for (i, fold) in folds.iter_mut().enumerate() {
            let (b, e) = (i * count / k, (i + 1) * count / k);
            fold.extend_from_slice(&idx[b..e]);
        }
    }
    Ok((
        Folds {
            n: l,
            folds,
            kind: String::new(),
        },
        k,
    ))
}

/// A dataset with its rows in fold order and the folds over the new order.
pub struct FoldOrder {
    /// The rows of the original dataset, fold 0's first.
    pub ds: Dataset,
    /// The same folds over the new row numbers: fold `h` is one range.
    pub folds: Folds,
    /// `perm[p]`: the original row at position `p`.
    pub perm: Vec<usize>,
}

impl FoldOrder {
    /// Reorder `ds` by `folds` (which must partition its rows).
    pub fn new(ds: &Dataset, folds: &Folds) -> FoldOrder {
        let perm: Vec<usize> = folds.folds.concat();
        let mut start = 0;
        let ranges = folds
            .folds
            .iter()
            .map(|f| {
                let r: Vec<usize> = (start..start + f.len()).collect();
                start += f.len();
                r
            })
            .collect();
        FoldOrder {
            ds: ds.subset(&perm, ds.name.clone()),
            folds: Folds {
                n: folds.n,
                folds: ranges,
                kind: folds.kind.clone(),
            },
            perm,
        }
    }
}

/// Whether `folds` already lists the rows `0..n` in order (fold 0's first,
/// every fold one increasing range), so that [`FoldOrder`] would change
/// nothing.
pub fn in_fold_order(folds: &Folds) -> bool {
    folds
        .folds
        .iter()
        .flatten()
        .enumerate()
        .all(|(p, &r)| p == r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glibc_rand_default_sequence() {
        // The well-known first outputs of glibc rand() without srand.
        let mut g = GlibcRand::default_seed();
        let first: Vec<i32> = (0..5).map(|_| g.next_i32()).collect();
        assert_eq!(
            first,
            vec![1804289383, 846930886, 1681692777, 1714636915, 1957747793]
        );
    }

    #[test]
    fn folds_partition_and_stratify() {
        let y: Vec<f64> = (0..23)
            .map(|i| if i % 3 == 0 { 1.0 } else { -1.0 })
            .collect();
        let rows: Vec<Vec<f64>> = (0..23).map(|i| vec![i as f64]).collect();
        let ds = Dataset::from_dense_rows("synthetic-folds", &rows, y);
        for f in [
            Folds::stratified(&ds, 5, 7).unwrap(),
            Folds::libsvm(&ds, 5).unwrap(),
            Folds::libsvm(&ds, 100).unwrap(),
            Folds::loocv(23),
        ] {
            f.validate().unwrap();
            let tr = f.train_rows(0);
            assert_eq!(tr.len() + f.test_rows(0).len(), 23);
        }
        let f = Folds::stratified(&ds, 5, 7).unwrap();
        for fold in &f.folds {
            let pos = fold.iter().filter(|&&r| ds.y[r] > 0.0).count();
            assert!((1..=2).contains(&pos));
        }
        assert_eq!(Folds::libsvm(&ds, 100).unwrap().k(), 23);
        // Not stratified: one shuffle cut at i l / k (k lowered to l).
        let f = Folds::libsvm_of(&ds, 5, false, &mut GlibcRand::default_seed()).unwrap();
        f.validate().unwrap();
        let sizes: Vec<usize> = f.folds.iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![4, 5, 4, 5, 5]);
        let loo = Folds::libsvm_of(&ds, 100, false, &mut GlibcRand::default_seed()).unwrap();
        assert_eq!(loo, Folds::libsvm(&ds, 100).unwrap());
    }
}
